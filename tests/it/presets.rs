//! The shipped presets (every `assets/terrain/*.terrain.ron`, found there): every one parses and
//! validates, each is a different terrain, the default preset is the built-in default plus
//! scatter layers, each has scatter layers that suit it, and none repeats within 10⁷ m.

use bevy_perlin_terrain::perlin_core::{Fbm, FractalMode, NoiseTables};
use bevy_perlin_terrain::prelude::*;
use terrain_test_support::{
    asset_path, assets_dir, preset, preset_file, preset_names, preset_text, presets,
};

/// The noise recipes a preset's ground is made of: its biomes' where it has biomes (its own
/// `noise` is then unused), else its `noise`.
fn ground_recipes(config: &TerrainConfig) -> Vec<Fbm> {
    if config.biomes.is_empty() {
        vec![config.noise]
    } else {
        config.biomes.iter().map(|b| b.noise).collect()
    }
}

#[test]
fn every_shipped_preset_is_found_and_usable() {
    let names = preset_names();
    assert!(!names.is_empty(), "no preset found");
    for expected in ["default", "world"] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} is not among {names:?}"
        );
    }
    assert!(names.is_sorted(), "{names:?}");
    for name in &names {
        // On disk, and where the asset server finds it in the workspace's asset folder.
        assert!(preset_file(name).is_file(), "{name}");
        assert_eq!(assets_dir().join(asset_path(name)), preset_file(name));
        assert!(!preset_text(name).trim().is_empty(), "{name} is empty");
        // Parsed and validated as the plugin's loader does (`preset` panics otherwise), and it
        // has ground: a finite height where the examples start.
        let config = preset(name);
        assert_eq!(config.validate(), Ok(()), "{name}");
        let tables = std::sync::Arc::new(NoiseTables::from_seed(config.seed));
        let sampler = TerrainSampler::new(tables, &config);
        assert!(sampler.height(0.0, 0.0).is_finite(), "{name}");
    }
}

#[test]
fn every_preset_loads_and_they_differ() {
    let configs = presets();
    for (i, (a_name, a)) in configs.iter().enumerate() {
        for (b_name, b) in &configs[i + 1..] {
            assert_ne!(
                ground_recipes(a),
                ground_recipes(b),
                "{a_name} and {b_name} have the same ground"
            );
        }
    }
    // The ones the README describes as ridged and warped are.
    for name in ["alps", "dunes"] {
        let config = preset(name);
        assert_eq!(config.noise.mode, FractalMode::Ridged, "{name}");
        assert!(config.noise.warp.is_some(), "{name}");
    }
    assert!(preset("islands").noise.contrast > 1.0);
}

#[test]
fn the_default_preset_is_the_built_in_default_with_things_on_it() {
    // `PerlinTerrainPlugin::default()` and `assets/terrain/default.terrain.ron` show the same
    // land: every field, not a sample of them. The preset adds scatter layers (the built-in
    // default scatters nothing: a game registers looks for the layers it asks for).
    let shipped = preset("default");
    assert!(!shipped.scatter.is_empty());
    assert_eq!(
        TerrainConfig {
            scatter: Vec::new(),
            ..shipped
        },
        TerrainConfig::default()
    );
}

#[test]
fn each_preset_scatters_what_suits_it() {
    let names =
        |name: &str| -> Vec<String> { preset(name).scatter.into_iter().map(|l| l.name).collect() };
    for name in ["default", "islands", "alps"] {
        for layer in ["trees", "rocks", "grass"] {
            assert!(names(name).iter().any(|n| n == layer), "{name}: {layer}");
        }
    }
    // Nothing grows under water: where a preset has a sea, the trees' and the grass's heights,
    // soft edge included, start above it.
    for name in ["default", "islands"] {
        let config = preset(name);
        assert!(config.water.is_some());
        for layer in config.scatter.iter().filter(|l| l.name != "rocks") {
            assert!(
                layer.height.min - layer.height.fade > 0.0,
                "{name}: {} reaches under the sea",
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
    // distance up to 10⁷ m, along both axes, must differ: each noise the ground is made of (a
    // preset with biomes, each of its biomes').
    for (name, config) in presets() {
        let tables = NoiseTables::from_seed(config.seed);
        for noise in ground_recipes(&config) {
            let cell = 1.0 / noise.frequency;
            let mut checked = 0;
            for k in 0..40 {
                let period = cell * 2f64.powi(k);
                if period > 1.0e7 {
                    break;
                }
                for (x, z) in [(13.7, -201.3), (-5000.25, 777.5), (123456.0, -98765.0)] {
                    let here = noise.sample2(&tables, x, z);
                    for (dx, dz) in [(period, 0.0), (0.0, period)] {
                        let there = noise.sample2(&tables, x + dx, z + dz);
                        assert_ne!(here, there, "{name} repeats after {period} m");
                        checked += 1;
                    }
                }
            }
            assert!(checked >= 60, "{name}: only {checked} distances checked");
        }
    }
}

#[test]
fn the_default_sees_ten_kilometres_and_the_alps_thirty_and_far_forests_keep_their_color() {
    assert!(preset("default").view_distance >= 10_000.0);
    assert!(preset("alps").view_distance >= 30_000.0);
    for (name, config) in presets() {
        assert!(config.view_distance >= 10_000.0, "{name}");
        // The layer that covers the ground from afar paints it beyond its view distance: one
        // everywhere (a preset with biomes: at most one in each biome, and one somewhere).
        let far: Vec<&ScatterLayer> = config
            .scatter
            .iter()
            .filter(|l| l.far_color.is_some())
            .collect();
        assert!(!far.is_empty(), "{name}: no far color");
        let places: Vec<Option<&str>> = if config.biomes.is_empty() {
            vec![None]
        } else {
            config
                .biomes
                .iter()
                .map(|b| Some(b.name.as_str()))
                .collect()
        };
        for place in places {
            let here = far
                .iter()
                .filter(|l| {
                    l.biomes.is_empty() || place.is_some_and(|b| l.biomes.iter().any(|n| n == b))
                })
                .count();
            assert!(here <= 1, "{name}: {here} far colors in {place:?}");
        }
    }
}
