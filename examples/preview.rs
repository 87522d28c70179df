//! A top view of a terrain config: hill-shaded, colour-banded, water where the ground is below
//! sea level. For tuning noise without flying.
//!
//! ```sh
//! cargo run --release --example preview -- assets/terrain/alps.terrain.ron alps.png [pixels] [metres]
//! cargo run --release --example preview -- --compare-erosion assets/terrain/alps.terrain.ron alps-erosion.png
//! ```
//!
//! `pixels` is the image side (default 768), `metres` the side of the square shown, centred on
//! the world origin (default 4096). `--compare-erosion` draws the config twice side by side, on
//! the left without the erosion filter and on the right with it (the config's own, or the
//! defaults if it has none), to see what the filter does.

use bevy_perlin_terrain::TerrainConfig;
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

fn run(mut args: Vec<String>) -> Result<String, String> {
    let usage = "usage: preview [--compare-erosion] CONFIG.terrain.ron OUT.png [PIXELS] [METRES]";
    let compare = args.first().is_some_and(|a| a == "--compare-erosion");
    if compare {
        args.remove(0);
    }
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
    let tables = Arc::new(NoiseTables::from_seed(config.seed));
    let view = |config: &TerrainConfig| {
        let sampler = TerrainSampler::new(tables.clone(), config);
        top_view(config, &sampler, [0.0, 0.0], metres, pixels)
            .ok_or_else(|| format!("{pixels}² samples do not fit in memory"))
    };
    if !compare {
        let (rgb, (lo, hi)) = view(&config)?;
        write_png(out_path, [pixels, pixels], &rgb)?;
        return Ok(format!(
            "{out_path}: {pixels}×{pixels} px, {metres} m square, heights {lo:.1} to {hi:.1} m"
        ));
    }
    let mut plain = config.clone();
    plain.noise.erosion = None;
    let mut eroded = config;
    eroded.noise.erosion.get_or_insert_default();
    let (left, _) = view(&plain)?;
    let (right, _) = view(&eroded)?;
    // The two views side by side, row by row.
    let row = 3 * pixels;
    let rgb: Vec<u8> = left
        .chunks_exact(row)
        .zip(right.chunks_exact(row))
        .flat_map(|(l, r)| l.iter().chain(r).copied())
        .collect();
    write_png(out_path, [2 * pixels, pixels], &rgb)?;
    Ok(format!(
        "{out_path}: {metres} m square without erosion (left) and with it (right), {pixels} px each"
    ))
}

fn write_png(path: &str, [width, height]: [usize; 2], rgb: &[u8]) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width as u32, height as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| format!("{path}: {e}"))?;
    writer
        .write_image_data(rgb)
        .map_err(|e| format!("{path}: {e}"))?;
    writer.finish().map_err(|e| format!("{path}: {e}"))
}
