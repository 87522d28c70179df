//! The shipped presets: every one parses and validates, and each is a different terrain.

use bevy_perlin_terrain::config::parse_config;
use bevy_perlin_terrain::perlin_core::{FractalMode, NoiseTables};
use bevy_perlin_terrain::prelude::*;

const PRESETS: [&str; 4] = ["default", "islands", "alps", "dunes"];

fn load(name: &str) -> TerrainConfig {
    let path = format!(
        "{}/assets/terrain/{name}.terrain.ron",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_config(&path, &bytes).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_preset_loads_and_they_differ() {
    let configs: Vec<TerrainConfig> = PRESETS.iter().map(|name| load(name)).collect();
    for (i, a) in configs.iter().enumerate() {
        for b in &configs[i + 1..] {
            assert_ne!(a.noise, b.noise);
        }
    }
    // The ones the README describes as ridged and warped are.
    for name in ["alps", "dunes"] {
        let config = load(name);
        assert_eq!(config.noise.mode, FractalMode::Ridged, "{name}");
        assert!(config.noise.warp.is_some(), "{name}");
    }
    assert!(load("islands").noise.contrast > 1.0);
}

#[test]
fn the_default_preset_is_the_built_in_default() {
    // `PerlinTerrainPlugin::default()` and `assets/terrain/default.terrain.ron` show the same land.
    let file = load("default");
    let built_in = TerrainConfig::default();
    assert_eq!(file.seed, built_in.seed);
    assert_eq!(file.height_scale, built_in.height_scale);
    let tables = NoiseTables::from_seed(file.seed);
    for (x, z) in [(0.0, 0.0), (1234.5, -987.25), (-40000.0, 15.0)] {
        let a = file.noise.sample2(&tables, x, z);
        let b = built_in.noise.sample2(&tables, x, z);
        assert!((a - b).abs() < 1e-4, "({x}, {z}): file {a}, built-in {b}");
    }
}
