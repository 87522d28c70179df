//! A top view of a terrain config: hill-shaded, color-banded, water where the ground is below
//! sea level. For tuning noise without flying.
//!
//! ```sh
//! cargo run --release --example preview -- assets/terrain/alps.terrain.ron alps.png [pixels] [metres]
//! cargo run --release --example preview -- --compare-erosion assets/terrain/alps.terrain.ron alps-erosion.png
//! ```
//!
//! `pixels` is the image side (default 768), `metres` the side of the square shown, centred on
//! the world origin (default 4096). A config with biomes gets its biome map beside the top view:
//! each biome a color (listed on the terminal), mixed by the biomes' weights across borders. `--compare-erosion` draws the config twice side by side, on
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
    if !compare && !config.biomes.is_empty() {
        let (left, (lo, hi)) = view(&config)?;
        let sampler = TerrainSampler::new(tables.clone(), &config);
        let (right, legend) = biome_map(&config, &sampler, metres, pixels);
        write_png(
            out_path,
            [2 * pixels, pixels],
            &side_by_side(&left, &right, pixels),
        )?;
        return Ok(format!(
            "{out_path}: {metres} m square, top view (left, heights {lo:.1} to {hi:.1} m) and biomes (right): {legend}"
        ));
    }
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
    write_png(
        out_path,
        [2 * pixels, pixels],
        &side_by_side(&left, &right, pixels),
    )?;
    Ok(format!(
        "{out_path}: {metres} m square without erosion (left) and with it (right), {pixels} px each"
    ))
}

/// Two square RGB images of `pixels` a side, side by side, row by row.
fn side_by_side(left: &[u8], right: &[u8], pixels: usize) -> Vec<u8> {
    let row = 3 * pixels;
    left.chunks_exact(row)
        .zip(right.chunks_exact(row))
        .flat_map(|(l, r)| l.iter().chain(r).copied())
        .collect()
}

/// One color per biome (sRGB), in the config's order.
const BIOME_COLORS: [([u8; 3], &str); 16] = [
    ([40, 90, 170], "blue"),
    ([230, 210, 140], "sand"),
    ([150, 200, 90], "light green"),
    ([30, 110, 40], "dark green"),
    ([235, 235, 245], "white"),
    ([230, 160, 60], "orange"),
    ([170, 70, 50], "rust"),
    ([120, 80, 160], "purple"),
    ([90, 190, 190], "teal"),
    ([200, 90, 150], "pink"),
    ([110, 110, 110], "grey"),
    ([200, 200, 40], "yellow"),
    ([60, 60, 200], "indigo"),
    ([140, 100, 60], "brown"),
    ([30, 30, 30], "black"),
    ([250, 120, 120], "salmon"),
];

/// The biome map of the `metres` square around the origin, `pixels` a side: each pixel the
/// biomes' colors mixed by their weights there; and the legend.
fn biome_map(
    config: &TerrainConfig,
    sampler: &TerrainSampler,
    metres: f64,
    pixels: usize,
) -> (Vec<u8>, String) {
    let step = metres / pixels as f64;
    let color_of = |name: &str| {
        let k = config
            .biomes
            .iter()
            .position(|b| b.name == name)
            .unwrap_or(0);
        BIOME_COLORS[k % BIOME_COLORS.len()].0
    };
    let mut rgb = Vec::with_capacity(3 * pixels * pixels);
    for j in 0..pixels {
        for i in 0..pixels {
            let (x, z) = (
                (i as f64 + 0.5) * step - metres / 2.0,
                (j as f64 + 0.5) * step - metres / 2.0,
            );
            let mut c = [0.0f32; 3];
            for (name, w) in sampler.biome_weights(x, z) {
                for (c, v) in c.iter_mut().zip(color_of(name)) {
                    *c += w * v as f32;
                }
            }
            rgb.extend(c.map(|v| v.round().clamp(0.0, 255.0) as u8));
        }
    }
    let legend = (config.biomes.iter().zip(BIOME_COLORS.iter().cycle()))
        .map(|(b, (_, color))| format!("{} {color}", b.name))
        .collect::<Vec<_>>()
        .join(", ");
    (rgb, legend)
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
