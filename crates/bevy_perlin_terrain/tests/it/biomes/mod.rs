//! Biomes: the world preset's climates cover every 40 km square; across a border the ground
//! blends without seams (neighbours, levels, the sampler, exact normals) and without a slope
//! steeper than its biomes' ([`borders`]); chunks carry their ground's weights and looks, one
//! biome everywhere is the single recipe bit for bit, and morph targets are the parent's bits
//! ([`chunks`]); scatter layers grow in their biomes ([`layers`]); bad biome configs name the
//! field ([`parsing`]).

mod borders;
mod chunks;
mod layers;
mod parsing;

use bevy::math::IVec2;
use bevy_perlin_terrain::chunk::{ChunkJob, ChunkMeshData, build_chunk_mesh};
use bevy_perlin_terrain::perlin_core::NoiseTables;
use bevy_perlin_terrain::{TerrainConfig, TerrainSampler};
use std::collections::HashMap;
use std::sync::Arc;
use terrain_test_support::preset;

fn sampler(config: &TerrainConfig) -> TerrainSampler {
    TerrainSampler::new(Arc::new(NoiseTables::from_seed(config.seed)), config)
}

fn build(config: &TerrainConfig, coord: IVec2, lod: u8) -> ChunkMeshData {
    let tables = Arc::new(NoiseTables::from_seed(config.seed));
    build_chunk_mesh(&ChunkJob::new(tables, config, coord, lod))
}

/// `config` with only `biome`, everywhere.
fn alone(config: &TerrainConfig, biome: &str) -> TerrainConfig {
    let mut only = config
        .biomes
        .iter()
        .find(|b| b.name == biome)
        .cloned()
        .expect("a biome of the config");
    (only.temperature, only.moisture, only.continentalness) =
        ((-1.0, 1.0), (-1.0, 1.0), (-1.0, 1.0));
    TerrainConfig {
        biomes: vec![only],
        ..config.clone()
    }
}

/// A point on a border between two biomes of the world preset (where the strongest biome
/// changes), found walking east from `start`, and the two biomes.
fn border(sampler: &TerrainSampler, start: (f64, f64)) -> ((f64, f64), String, String) {
    let (x0, z) = start;
    let mut last = sampler.biome(x0, z).expect("a biome").to_string();
    for k in 1..2000 {
        let x = x0 + k as f64 * 20.0;
        let here = sampler.biome(x, z).expect("a biome");
        if here != last {
            return ((x, z), last, here.to_string());
        }
        last = here.to_string();
    }
    panic!("no border within 40 km east of {start:?}");
}

#[test]
fn every_biome_of_the_world_covers_five_percent_of_any_40_km_square() {
    let config = preset("world");
    let sampler = sampler(&config);
    assert_eq!(config.biomes.len(), 7);
    for (cx, cz) in [
        (0.0, 0.0),
        (63_000.0, -41_000.0),
        (-250_000.0, 170_000.0),
        (1.2e6, 3.4e5),
        (-77_000.0, -530_000.0),
        (400_000.0, 400_000.0),
    ] {
        let mut share: HashMap<String, usize> = HashMap::new();
        let n = 100;
        for j in 0..n {
            for i in 0..n {
                let (x, z) = (
                    cx + (i as f64 + 0.5) * 400.0 - 20_000.0,
                    cz + (j as f64 + 0.5) * 400.0 - 20_000.0,
                );
                let name = sampler.biome(x, z).expect("a biome");
                *share.entry(name.to_string()).or_default() += 1;
            }
        }
        for b in &config.biomes {
            let part = share.get(&b.name).copied().unwrap_or(0) as f64 / (n * n) as f64;
            assert!(
                part >= 0.05,
                "{} covers {:.1} % of the square around ({cx}, {cz}): {share:?}",
                b.name,
                part * 100.0
            );
        }
    }
}
