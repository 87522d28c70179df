//! The chunks of 10 km views of the `world` preset that the `chunk` and `biome_ratios` benches
//! share: every level's chunks around four viewers, as the world builds them and each with the
//! recipe of the biome strongest at its centre alone.

use bevy::math::IVec2;
use bevy_perlin_terrain::chunk::ChunkJob;
use bevy_perlin_terrain::perlin_core::{Fbm, NoiseTables};
use bevy_perlin_terrain::{TerrainConfig, TerrainSampler};
use std::sync::Arc;

/// Where the four viewers stand (metres), far enough apart to see different biomes.
const VIEWERS: [(f64, f64); 4] = [
    (0.0, 0.0),
    (37_000.0, -21_000.0),
    (-64_000.0, 45_000.0),
    (5_000.0, 90_000.0),
];

/// The chunks a viewer at `(x, z)` needs under `config`, approximately as the plugin's quadtree
/// plans them (without its hysteresis): the top level's chunks within the view distance, each
/// split while the viewer is within the next finer level's reach of its centre.
fn view_quadtree(config: &TerrainConfig, (x, z): (f64, f64)) -> Vec<(IVec2, u8)> {
    let layout = config.lod_layout();
    let top = layout.top();
    let side = layout.size(top);
    let reach = layout.view_distance();
    let (x0, x1) = (
        ((x - reach) / side).floor() as i32,
        ((x + reach) / side).floor() as i32,
    );
    let (z0, z1) = (
        ((z - reach) / side).floor() as i32,
        ((z + reach) / side).floor() as i32,
    );
    let mut open: Vec<(IVec2, u8)> = (z0..=z1)
        .flat_map(|j| (x0..=x1).map(move |i| (IVec2::new(i, j), top)))
        .collect();
    let mut out = Vec::new();
    while let Some((coord, lod)) = open.pop() {
        let size = layout.size(lod);
        let centre = ((coord.x as f64 + 0.5) * size, (coord.y as f64 + 0.5) * size);
        let distance = (centre.0 - x).abs().max((centre.1 - z).abs());
        if lod > 0 && distance < layout.reach(lod - 1) {
            for k in 0..4 {
                open.push((coord * 2 + IVec2::new(k % 2, k / 2), lod - 1));
            }
        } else {
            out.push((coord, lod));
        }
    }
    out
}

/// `config` with the recipe alone (noise and height scale, no biomes) of the biome strongest at
/// `(x, z)` by `sampler` (the first biome where none is).
pub fn biome_alone(
    config: &TerrainConfig,
    sampler: &TerrainSampler,
    (x, z): (f64, f64),
) -> TerrainConfig {
    let name = sampler.biome(x, z).unwrap_or_default();
    let biome = config
        .biomes
        .iter()
        .find(|b| b.name == name)
        .unwrap_or(&config.biomes[0]);
    recipe_alone(config, biome.noise, biome.height_scale)
}

/// `config` with the single recipe `noise` times `height_scale` and no biomes.
pub fn recipe_alone(config: &TerrainConfig, noise: Fbm, height_scale: f32) -> TerrainConfig {
    TerrainConfig {
        noise,
        height_scale,
        biomes: Vec::new(),
        ..config.clone()
    }
}

/// `world` seen to 10 km, the views' config.
pub fn ten_km_view(world: &TerrainConfig) -> TerrainConfig {
    TerrainConfig {
        view_distance: 10_000.0,
        ..world.clone()
    }
}

/// The chunks of 10 km views of `world` around the four viewers, every level: as the world
/// builds them, and each against the recipe (noise and height scale, no biomes) of the biome
/// strongest at its centre. With `colors`, the chunks carry vertex colors (as the plugin
/// builds them without its terrain material); else none (as it builds them for it).
pub fn view_jobs(
    world: &TerrainConfig,
    tables: &Arc<NoiseTables>,
    colors: bool,
) -> (Vec<ChunkJob>, Vec<ChunkJob>) {
    let view = ten_km_view(world);
    let sampler = TerrainSampler::new(tables.clone(), &view);
    let chunks: Vec<(IVec2, u8)> = VIEWERS
        .iter()
        .flat_map(|&viewer| view_quadtree(&view, viewer))
        .collect();
    let biome_alone = |(coord, lod): (IVec2, u8)| {
        let side = view.lod_layout().size(lod);
        let centre = ((coord.x as f64 + 0.5) * side, (coord.y as f64 + 0.5) * side);
        biome_alone(&view, &sampler, centre)
    };
    let job = |config: &TerrainConfig, (c, lod): (IVec2, u8)| {
        let job = ChunkJob::new(tables.clone(), config, c, lod);
        if colors { job } else { job.without_colors() }
    };
    (
        chunks.iter().map(|&chunk| job(&view, chunk)).collect(),
        chunks
            .iter()
            .map(|&chunk| job(&biome_alone(chunk), chunk))
            .collect(),
    )
}
