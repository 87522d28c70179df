//! A top view of a terrain config: hill-shaded, colour-banded, water where the ground is below
//! sea level. For tuning noise without flying.
//!
//! ```sh
//! cargo run --release --example preview -- assets/terrain/alps.terrain.ron alps.png [pixels] [metres]
//! ```
//!
//! `pixels` is the image side (default 768), `metres` the side of the square shown, centred on
//! the world origin (default 4096).

use bevy_perlin_terrain::TerrainSampler;
use bevy_perlin_terrain::config::parse_config;
use bevy_perlin_terrain::perlin_core::NoiseTables;
use std::process::ExitCode;
use std::sync::Arc;
use support::top_view;

mod support;

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
    let Some((rgb, (lo, hi))) = top_view(&config, &sampler, [0.0, 0.0], metres, pixels) else {
        return Err(format!("{pixels}² samples do not fit in memory"));
    };
    write_png(out_path, pixels as u32, &rgb)?;
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
