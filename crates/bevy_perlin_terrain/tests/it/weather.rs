//! The clouds and the waves as a game asks about them: `cloud_cover`, `water_height` and
//! `water_normal` bounded, continuous in space and time (across the noise's period too, where
//! a clock that wrapped would jump), the same in every run; waves that fade at the shore and
//! never flood the land; bad `clouds` and `waves` fields refused by name.

use crate::common::error_text;
use bevy::prelude::*;
use bevy_perlin_terrain::config::parse_config;
use bevy_perlin_terrain::perlin_core::NoiseTables;
use bevy_perlin_terrain::prelude::*;
use std::sync::Arc;

fn sampler(config: &TerrainConfig) -> TerrainSampler {
    TerrainSampler::new(Arc::new(NoiseTables::from_seed(config.seed)), config)
}

fn cloudy(coverage: f32) -> TerrainConfig {
    TerrainConfig {
        clouds: Some(Clouds {
            coverage,
            ..Clouds::default()
        }),
        ..TerrainConfig::default()
    }
}

fn wavy() -> TerrainConfig {
    TerrainConfig {
        waves: Some(Waves::default()),
        ..TerrainConfig::default()
    }
}

/// A small generator of points in `±half` around `centre`.
fn points(n: usize, centre: [f64; 2], half: f64) -> Vec<[f64; 2]> {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    (0..n)
        .map(|_| [centre[0] + half * next(), centre[1] + half * next()])
        .collect()
}

#[test]
fn cloud_cover_is_bounded_follows_the_coverage_and_is_the_same_every_run() {
    let share = |coverage: f32| {
        let s = sampler(&cloudy(coverage));
        let p = points(4000, [0.0, 0.0], 40_000.0);
        let values: Vec<f32> = p.iter().map(|&[x, z]| s.cloud_cover(x, z, 120.0)).collect();
        assert!(
            values.iter().all(|v| (0.0..=1.0).contains(v)),
            "cover out of 0..=1"
        );
        values.iter().filter(|&&v| v > 0.5).count() as f32 / values.len() as f32
    };
    let shares = [0.0, 0.25, 0.5, 0.75, 1.0].map(share);
    assert!(
        shares[0] < 0.02,
        "coverage 0: {:.3} of the sky cloudy",
        shares[0]
    );
    assert!(
        shares[4] > 0.98,
        "coverage 1: {:.3} of the sky cloudy",
        shares[4]
    );
    assert!(
        (shares[2] - 0.5).abs() < 0.15,
        "coverage 0.5: {:.3}",
        shares[2]
    );
    assert!(
        shares.windows(2).all(|w| w[0] < w[1]),
        "not rising: {shares:?}"
    );
    // Another sampler of the same config (another run) answers the same, bit for bit.
    let (a, b) = (sampler(&cloudy(0.5)), sampler(&cloudy(0.5)));
    for [x, z] in points(200, [3000.0, -700.0], 5000.0) {
        assert_eq!(a.cloud_cover(x, z, 33.0), b.cloud_cover(x, z, 33.0));
    }
    // No clouds in the config: a clear sky.
    assert_eq!(
        sampler(&TerrainConfig::default()).cloud_cover(10.0, 20.0, 5.0),
        0.0
    );
}

#[test]
fn clouds_move_with_the_wind_and_change_smoothly_over_days() {
    let config = cloudy(0.5);
    let clouds = config.clouds.clone().expect("clouds");
    let s = sampler(&config);
    let p = points(2000, [0.0, 0.0], 20_000.0);
    let mean =
        |f: &dyn Fn(f64, f64) -> f32| p.iter().map(|&[x, z]| f(x, z)).sum::<f32>() / p.len() as f32;
    // Ten seconds on, the clouds are where the wind took them, nearly unchanged in shape...
    let (wx, wz) = (
        f64::from(clouds.wind[0]) * 10.0,
        f64::from(clouds.wind[1]) * 10.0,
    );
    let carried =
        mean(&|x, z| (s.cloud_cover(x + wx, z + wz, 110.0) - s.cloud_cover(x, z, 100.0)).abs());
    // ...and not where they were.
    let left = mean(&|x, z| (s.cloud_cover(x, z, 110.0) - s.cloud_cover(x, z, 100.0)).abs());
    assert!(
        carried < 0.5 * left,
        "carried {carried}, left behind {left}"
    );
    // Continuous in time at every moment, days on: around the time the largest octave's drift
    // comes round the noise's period (256 cells), where a wrapping clock would jump, and at
    // ten days.
    let period = 256.0 * f64::from(clouds.scale) / f64::from(clouds.wind[0]);
    for t in [0.0, period, 864_000.0, 1e7] {
        for &[x, z] in &p[..200] {
            let (before, after) = (s.cloud_cover(x, z, t - 0.05), s.cloud_cover(x, z, t + 0.05));
            assert!(
                (before - after).abs() < 1e-2,
                "jump at t = {t}: {before} → {after}"
            );
        }
    }
    // Continuous in space: 10 cm apart, nearly equal.
    for &[x, z] in &p[..500] {
        let d = (s.cloud_cover(x + 0.1, z, 50.0) - s.cloud_cover(x, z, 50.0)).abs();
        assert!(d < 1e-3, "cover jumps by {d} over 10 cm at ({x}, {z})");
    }
}

/// Points of open water at least 20 m deep near the origin of the default world.
fn deep_water(s: &TerrainSampler, sea_level: f32) -> Vec<[f64; 2]> {
    let deep: Vec<[f64; 2]> = points(20_000, [0.0, 0.0], 6000.0)
        .into_iter()
        .filter(|&[x, z]| s.height(x, z) < sea_level - 20.0)
        .take(300)
        .collect();
    assert!(deep.len() >= 100, "only {} deep points", deep.len());
    deep
}

#[test]
fn waves_move_the_open_sea_by_their_height_and_continuously() {
    let config = wavy();
    let waves = config.waves.clone().expect("waves");
    let s = sampler(&config);
    let deep = deep_water(&s, config.sea_level);
    let mut low = f32::MAX;
    let mut high = f32::MIN;
    for &[x, z] in &deep {
        for k in 0..20 {
            let t = 1000.0 + f64::from(k) * 0.7;
            let h = s.water_height(x, z, t).expect("a sea");
            low = low.min(h);
            high = high.max(h);
            // Continuous in time and space.
            let later = s.water_height(x, z, t + 0.01).expect("a sea");
            let beside = s.water_height(x + 0.01, z, t).expect("a sea");
            assert!(
                (later - h).abs() < 0.01 && (beside - h).abs() < 0.01,
                "jump at ({x}, {z}, {t})"
            );
        }
    }
    let range = high - low;
    assert!(
        range > 0.8 * waves.height && range < 2.2 * waves.height,
        "the sea moves {range} m for waves of {} m",
        waves.height
    );
    // The same every run; a week on, still smooth (no wrapped clock).
    let again = sampler(&config);
    for &[x, z] in &deep[..50] {
        assert_eq!(s.water_height(x, z, 77.0), again.water_height(x, z, 77.0));
        let t = 604_800.0;
        let (a, b) = (s.water_height(x, z, t), s.water_height(x, z, t + 0.01));
        assert!((a.expect("a sea") - b.expect("a sea")).abs() < 0.01);
    }
}

#[test]
fn the_water_normal_is_the_slope_of_the_water_height() {
    let config = wavy();
    let s = sampler(&config);
    let h = 1e-3;
    for &[x, z] in &deep_water(&s, config.sea_level)[..150] {
        let t = 432.1;
        let n = s.water_normal(x, z, t);
        assert!((n.length() - 1.0).abs() < 1e-5, "normal {n} not unit");
        let height = |x: f64, z: f64| f64::from(s.water_height(x, z, t).expect("a sea"));
        let dx = (height(x + h, z) - height(x - h, z)) / (2.0 * h);
        let dz = (height(x, z + h) - height(x, z - h)) / (2.0 * h);
        let expected = Vec3::new(-dx as f32, 1.0, -dz as f32).normalize();
        assert!(
            n.angle_between(expected) < 2e-3,
            "normal {n} vs slope {expected} at ({x}, {z})"
        );
    }
}

#[test]
fn waves_fade_at_the_shore_and_never_flood_the_land() {
    let config = TerrainConfig {
        waves: Some(Waves {
            height: 6.0,
            ..Waves::default()
        }),
        ..TerrainConfig::default()
    };
    let s = sampler(&config);
    let sea = config.sea_level;
    let (mut land, mut shallow_moves, mut deep_moves) = (0, 0.0f32, 0.0f32);
    for [x, z] in points(40_000, [0.0, 0.0], 6000.0) {
        let ground = s.height(x, z);
        for t in [10.0, 11.3, 12.9] {
            let water = s.water_height(x, z, t).expect("a sea");
            if ground >= sea {
                // Dry land: the water stays under it.
                land += 1;
                assert!(
                    water <= ground,
                    "the sea floods ({x}, {z}): {water} over {ground}"
                );
            } else if ground > sea - 0.5 {
                shallow_moves = shallow_moves.max((water - sea).abs());
            } else if ground < sea - 20.0 {
                deep_moves = deep_moves.max((water - sea).abs());
            }
        }
    }
    assert!(land > 1000, "only {land} land samples");
    assert!(
        shallow_moves < 0.05 * deep_moves,
        "at the shore the sea moves {shallow_moves} m, on open water {deep_moves} m"
    );
    // Without waves the sea is flat; without water there is none.
    let calm = sampler(&TerrainConfig::default());
    assert_eq!(calm.water_height(0.0, 0.0, 9.0), Some(config.sea_level));
    assert_eq!(calm.water_normal(0.0, 0.0, 9.0), Vec3::Y);
    let dry = sampler(&TerrainConfig {
        water: None,
        ..wavy()
    });
    assert_eq!(dry.water_height(0.0, 0.0, 9.0), None);
    assert_eq!(s.water_height(f64::NAN, 0.0, 1.0), None);
}

#[test]
fn bad_clouds_and_waves_fields_are_refused_by_name() {
    for (ron, field, allowed) in [
        (
            "(clouds: Some((coverage: 2.0)))",
            "clouds.coverage",
            "0 to 1",
        ),
        (
            "(clouds: Some((scale: 0.0)))",
            "clouds.scale",
            "10 to 1000000",
        ),
        (
            "(clouds: Some((wind: (1e9, 0.0))))",
            "clouds.wind",
            "-200 to 200",
        ),
        (
            "(clouds: Some((softness: 0.0)))",
            "clouds.softness",
            "0.01 to 1",
        ),
        (
            "(clouds: Some((thickness: -5.0)))",
            "clouds.thickness",
            "1 to 20000",
        ),
        ("(waves: Some((length: 0.0)))", "waves.length", "1 to 1000"),
        ("(waves: Some((height: 100.0)))", "waves.height", "0 to 30"),
        (
            "(waves: Some((direction: inf)))",
            "waves.direction",
            "degrees",
        ),
        (
            "(waves: Some((shore_depth: 0.0)))",
            "waves.shore_depth",
            "0.1 to 1000",
        ),
        ("(waves: Some((foam: -1.0)))", "waves.foam", "0 to 1"),
    ] {
        let error = error_text(ron);
        assert!(
            error.contains("terrain/bad.terrain.ron")
                && error.contains(field)
                && error.contains(allowed),
            "{ron}: {error}"
        );
    }
    // A file from before the waves names the ripples `waves`, and still reads.
    let old = parse_config("old.terrain.ron", b"(water: Some((waves: 0.3)))").expect("reads");
    assert_eq!(old.water.map(|w| w.ripples), Some(0.3));
    // The sections round-trip through the panel's save.
    let config = TerrainConfig {
        clouds: Some(Clouds {
            coverage: 0.7,
            ..Clouds::default()
        }),
        ..wavy()
    };
    assert_eq!(
        parse_config("saved", config.to_ron().as_bytes()).ok(),
        Some(config)
    );
}
