//! A top view of a terrain config: hill-shaded, colour-banded, water where the ground is below
//! sea level. For tuning noise without flying.
//!
//! ```sh
//! cargo run --release --example preview -- assets/terrain/alps.terrain.ron alps.png [pixels] [metres]
//! ```
//!
//! `pixels` is the image side (default 768), `metres` the side of the square shown, centred on
//! the world origin (default 4096).

use bevy::math::Vec3;
use bevy_perlin_terrain::TerrainSampler;
use bevy_perlin_terrain::chunk::ColourRamp;
use bevy_perlin_terrain::config::parse_config;
use bevy_perlin_terrain::perlin_core::NoiseTables;
use std::process::ExitCode;
use std::sync::Arc;

const WATER: Vec3 = Vec3::new(0.10, 0.28, 0.42);
/// Light from the north-west, 40° above the horizon.
const SUN: Vec3 = Vec3::new(-0.54, 0.64, -0.54);

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(message) => {
            println!("{message}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("preview: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Vec<String>) -> Result<String, String> {
    let usage = "usage: preview CONFIG.terrain.ron OUT.png [PIXELS] [METRES]";
    let (Some(config_path), Some(out_path)) = (args.first(), args.get(1)) else {
        return Err(usage.into());
    };
    let number = |i: usize, default: f64| -> Result<f64, String> {
        args.get(i).map_or(Ok(default), |a| {
            a.parse::<f64>()
                .map_err(|_| format!("`{a}` is not a number; {usage}"))
        })
    };
    let pixels = number(2, 768.0)?;
    let metres = number(3, 4096.0)?;
    let sizes_ok = (16.0..=8192.0).contains(&pixels) && metres.is_finite() && metres > 0.0;
    if !sizes_ok {
        return Err(format!(
            "pixels must be 16 to 8192 and metres positive; {usage}"
        ));
    }
    let pixels = pixels as usize;
    let bytes = std::fs::read(config_path).map_err(|e| format!("{config_path}: {e}"))?;
    let config = parse_config(config_path, &bytes).map_err(|e| e.to_string())?;
    let sampler = TerrainSampler::new(Arc::new(NoiseTables::from_seed(config.seed)), &config);
    let step = metres / pixels as f64;
    let (mut heights, mut normals) = (vec![0.0; pixels * pixels], vec![Vec3::Y; pixels * pixels]);
    let origin = [-metres / 2.0, -metres / 2.0];
    if !sampler.sample_grid(origin, step, [pixels, pixels], &mut heights, &mut normals) {
        return Err(format!("{pixels}² samples do not fit in memory"));
    }
    let ramp = ColourRamp::new(&config.colours, config.sea_level);
    let mut rgb = Vec::with_capacity(pixels * pixels * 3);
    for (&h, &n) in heights.iter().zip(&normals) {
        let ground = Vec3::from_slice(&ramp.colour(h, n)[..3]);
        let shade = 0.35 + 0.65 * n.dot(SUN.normalize()).max(0.0);
        let mut c = ground * shade;
        if h < config.sea_level {
            let depth = ((config.sea_level - h) / (0.15 * config.height_scale)).clamp(0.0, 1.0);
            c = c.lerp(WATER, 0.55 + 0.4 * depth);
        }
        // Linear to sRGB, roughly.
        rgb.extend(
            c.to_array()
                .map(|v| (v.clamp(0.0, 1.0).powf(1.0 / 2.2) * 255.0).round() as u8),
        );
    }
    write_png(out_path, pixels as u32, &rgb)?;
    let (lo, hi) = heights
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &h| {
            (lo.min(h), hi.max(h))
        });
    Ok(format!(
        "{out_path}: {pixels}×{pixels} px, {metres} m square, heights {lo:.1} to {hi:.1} m"
    ))
}

fn write_png(path: &str, side: u32, rgb: &[u8]) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), side, side);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| format!("{path}: {e}"))?;
    writer
        .write_image_data(rgb)
        .map_err(|e| format!("{path}: {e}"))?;
    writer.finish().map_err(|e| format!("{path}: {e}"))
}
