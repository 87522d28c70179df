//! `TerrainConfig::to_ron`, what a settings panel's "save" writes: every preset, and configs
//! changed one field at a time (nested, optional, listed), read back equal; and only what
//! differs from the defaults is written.

use bevy_perlin_terrain::config::parse_config;
use bevy_perlin_terrain::perlin_core::{Erosion, FractalMode};
use bevy_perlin_terrain::prelude::*;
use bevy_perlin_terrain::{ScatterLayer, Snow};
use terrain_test_support::{preset, presets};

/// `config` written and read back.
fn round_trip(config: &TerrainConfig) -> TerrainConfig {
    let text = config.to_ron();
    parse_config("saved.terrain.ron", text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn every_preset_reads_back_equal() {
    for (name, config) in presets() {
        assert_eq!(round_trip(&config), config, "{name}:\n{}", config.to_ron());
    }
}

#[test]
fn the_default_writes_nothing_and_a_change_writes_only_itself() {
    assert_eq!(TerrainConfig::default().to_ron(), "(\n)\n");
    let config = TerrainConfig {
        seed: 9,
        ..TerrainConfig::default()
    };
    assert_eq!(config.to_ron(), "(\n    seed: 9,\n)\n");
    // A nested field, inside its struct; with it the default config's frequency (1/600), which
    // differs from what a `noise: ( … )` without it would read (`Fbm::default()`'s 1).
    let mut config = TerrainConfig::default();
    config.noise.octaves = 5;
    assert_eq!(
        config.to_ron(),
        "(\n    noise: (\n        octaves: 5,\n        frequency: 0.0016666666666666668,\n    ),\n)\n"
    );
    assert_eq!(round_trip(&config), config);
}

#[test]
fn changes_one_at_a_time_read_back_equal() {
    let base = preset("alps");
    let mut cases: Vec<(&str, TerrainConfig)> = Vec::new();
    let mut c = base.clone();
    c.noise.erosion = Some(Erosion {
        strength: 0.123,
        ..Erosion::default()
    });
    cases.push(("erosion field", c));
    let mut c = base.clone();
    c.noise.warp = None;
    cases.push(("no warp", c));
    let mut c = base.clone();
    c.noise.mode = FractalMode::Billow;
    cases.push(("mode", c));
    let mut c = base.clone();
    c.skirt_depth = Some(3.25);
    cases.push(("skirt depth", c));
    let mut c = base.clone();
    c.colors.snow = None;
    cases.push(("no snow", c));
    let mut c = TerrainConfig::default();
    c.colors.snow = Some(Snow {
        from: 12.5,
        ..Snow::default()
    });
    cases.push(("snow field", c));
    let mut c = base.clone();
    c.water = Some(Default::default());
    cases.push(("water", c));
    let mut c = base.clone();
    c.collision.resolution = Some(33);
    cases.push(("collision", c));
    let mut c = base.clone();
    c.scatter.push(ScatterLayer {
        name: "ferns".into(),
        creases: Some(bevy_perlin_terrain::SoftRange {
            min: 0.5,
            max: 1.0,
            fade: 0.1,
        }),
        ..ScatterLayer::default()
    });
    cases.push(("scatter layer", c));
    let mut c = base.clone();
    c.colors.bands.pop();
    cases.push(("bands", c));
    let mut c = base;
    c.noise.frequency = 1.0 / 777.0;
    c.height_scale = 123.456_79;
    cases.push(("floats", c));
    for (what, config) in cases {
        assert!(config.validate().is_ok(), "{what}");
        assert_eq!(round_trip(&config), config, "{what}:\n{}", config.to_ron());
    }
}
