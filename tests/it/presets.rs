//! The shipped presets: every one parses and validates, each is a different terrain, the default
//! preset is the built-in default plus scatter layers, each has scatter layers that suit it, and
//! none repeats within 10⁷ m.

use crate::common::{PRESETS, load};
use bevy_perlin_terrain::perlin_core::{FractalMode, NoiseTables};
use bevy_perlin_terrain::prelude::*;

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
fn the_default_preset_is_the_built_in_default_with_things_on_it() {
    // `PerlinTerrainPlugin::default()` and `assets/terrain/default.terrain.ron` show the same
    // land: every field, not a sample of them. The preset adds scatter layers (the built-in
    // default scatters nothing: a game registers looks for the layers it asks for).
    let preset = load("default");
    assert!(!preset.scatter.is_empty());
    assert_eq!(
        TerrainConfig {
            scatter: Vec::new(),
            ..preset
        },
        TerrainConfig::default()
    );
}

#[test]
fn each_preset_scatters_what_suits_it() {
    let names = |preset: &str| -> Vec<String> {
        load(preset).scatter.into_iter().map(|l| l.name).collect()
    };
    for preset in ["default", "islands", "alps"] {
        for layer in ["trees", "rocks", "grass"] {
            assert!(
                names(preset).iter().any(|n| n == layer),
                "{preset}: {layer}"
            );
        }
    }
    // Nothing grows under water: where a preset has a sea, the trees' and the grass's heights,
    // soft edge included, start above it.
    for preset in ["default", "islands"] {
        let config = load(preset);
        assert!(config.water.is_some());
        for layer in config.scatter.iter().filter(|l| l.name != "rocks") {
            assert!(
                layer.height.min - layer.height.fade > 0.0,
                "{preset}: {} reaches under the sea",
                layer.name
            );
        }
    }
    // No trees in the sand sea.
    assert!(!names("dunes").iter().any(|n| n == "trees"));
    assert!(!names("dunes").is_empty());
}

#[test]
fn no_preset_repeats_within_ten_thousand_kilometres() {
    // A table-hashed noise repeats every 256 lattice cells of its first octave: 2⁸ / frequency
    // metres. Any period of a lattice hash is a power of two of cells; heights at every such
    // distance up to 10⁷ m, along both axes, must differ.
    for name in PRESETS {
        let config = load(name);
        let tables = NoiseTables::from_seed(config.seed);
        let cell = 1.0 / config.noise.frequency;
        let mut checked = 0;
        for k in 0..40 {
            let period = cell * 2f64.powi(k);
            if period > 1.0e7 {
                break;
            }
            for (x, z) in [(13.7, -201.3), (-5000.25, 777.5), (123456.0, -98765.0)] {
                let here = config.noise.sample2(&tables, x, z);
                for (dx, dz) in [(period, 0.0), (0.0, period)] {
                    let there = config.noise.sample2(&tables, x + dx, z + dz);
                    assert_ne!(here, there, "{name} repeats after {period} m");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 60, "{name}: only {checked} distances checked");
    }
}

#[test]
fn the_default_sees_ten_kilometres_and_the_alps_thirty_and_far_forests_keep_their_color() {
    assert!(load("default").view_distance >= 10_000.0);
    assert!(load("alps").view_distance >= 30_000.0);
    for name in PRESETS {
        let config = load(name);
        assert!(config.view_distance >= 10_000.0, "{name}");
        // The layer that covers the ground from afar paints it beyond its view distance.
        let far = config
            .scatter
            .iter()
            .filter(|l| l.far_color.is_some())
            .count();
        assert_eq!(far, 1, "{name}");
    }
}
