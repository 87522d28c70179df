//! The erosion filter: its gradient against finite differences (the two terms it drops on
//! purpose are bounded here), its masks, its validation, and that it leaves flat ground alone.

use perlin_core::prelude::*;

/// Terrain-like configurations: the default hills and a tall ridged range, eroded, with the
/// height scale (metres per unit of noise) normals are taken at.
fn terrains() -> Vec<(&'static str, Fbm, f64)> {
    let hills = Fbm {
        octaves: 7,
        frequency: 1.0 / 600.0,
        erosion: Some(Erosion::default()),
        ..Fbm::default()
    };
    let range = Fbm {
        octaves: 7,
        frequency: 0.0011,
        lacunarity: 2.1,
        persistence: 0.45,
        contrast: 1.3,
        mode: FractalMode::Ridged,
        warp: Some(DomainWarp {
            amplitude: 60.0,
            frequency: 0.0025,
        }),
        erosion: Some(Erosion {
            strength: 0.08,
            ..Erosion::default()
        }),
        ..Fbm::default()
    };
    vec![("hills", hills, 160.0), ("range", range, 420.0)]
}

/// Angle in degrees between the normals of height slopes `a` and `b` (per metre), at height
/// scale `scale`.
fn normal_angle(a: [f64; 2], b: [f64; 2], scale: f64) -> f64 {
    let n = |g: [f64; 2]| {
        let v = [-g[0] * scale, 1.0, -g[1] * scale];
        let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        v.map(|c| c / l)
    };
    let (p, q) = (n(a), n(b));
    (p[0] * q[0] + p[1] * q[1] + p[2] * q[2])
        .clamp(-1.0, 1.0)
        .acos()
        .to_degrees()
}

/// Normal errors (degrees) between the grid's analytic gradient and central differences of the
/// grid's own heights `step` apart, at 1,600 points of a 400 m square, sorted.
fn normal_errors(fbm: &Fbm, scale: f64, step: f64) -> Vec<f64> {
    let t = NoiseTables::from_seed(9);
    let mut angles = Vec::new();
    for k in 0..1600 {
        let (x, y) = (
            1234.0 + (k % 40) as f64 * 10.3,
            -876.0 + (k / 40) as f64 * 9.7,
        );
        // A 3 × 3 grid centred on the point: its middle sample and its four neighbours.
        let spec = GridSpec::new([x - step, y - step], step, [3, 3]);
        let mut values = [0.0f32; 9];
        let mut gradients = [[0.0f32; 2]; 9];
        fbm.fill(
            &t,
            &spec,
            GridFill::new(&mut values).gradients(&mut gradients),
        )
        .expect("sizes match");
        let fd = [
            (values[5] as f64 - values[3] as f64) / (2.0 * step),
            (values[7] as f64 - values[1] as f64) / (2.0 * step),
        ];
        let g = gradients[4];
        angles.push(normal_angle([g[0] as f64, g[1] as f64], fd, scale));
    }
    angles.sort_by(f64::total_cmp);
    angles
}

/// The gradient is the exact derivative of the eroded height: normals agree with central
/// differences 2 cm apart to 0.1° at the median and 1° at the 99th percentile (the rest is the
/// differences' rounding in `f32`). Differences 1 m apart, the mesh's vertex spacing, disagree
/// more where the gullies bend within a metre: that is the error a mesh-derived normal would
/// have, not the filter's.
#[test]
fn eroded_normals_match_finite_differences() {
    for (name, eroded, scale) in terrains() {
        let fine = normal_errors(&eroded, scale, 0.02);
        let coarse = normal_errors(&eroded, scale, 1.0);
        let at = |v: &[f64], q: f64| v[((v.len() - 1) as f64 * q) as usize];
        eprintln!(
            "{name}: normal vs central differences, 2 cm: median {:.3}°, 99th percentile {:.3}°; 1 m: median {:.3}°, 99th percentile {:.3}°",
            at(&fine, 0.5),
            at(&fine, 0.99),
            at(&coarse, 0.5),
            at(&coarse, 0.99)
        );
        assert!(at(&fine, 0.5) < 0.1, "{name}: median {}°", at(&fine, 0.5));
        assert!(
            at(&fine, 0.99) < 1.0,
            "{name}: 99th percentile {}°",
            at(&fine, 0.99)
        );
    }
}

#[test]
fn erosion_cuts_peaks_and_fills_valleys() {
    let t = NoiseTables::from_seed(4);
    for (name, eroded, _) in terrains() {
        let plain = Fbm {
            erosion: None,
            ..eroded
        };
        // Zero strength changes nothing, bit for bit.
        let none = Fbm {
            erosion: eroded.erosion.map(|e| Erosion { strength: 0.0, ..e }),
            ..eroded
        };
        let mut points = Vec::new();
        let mut changed = 0;
        for k in 0..3000 {
            let (x, y) = (k as f64 * 7.31 - 9000.0, (k * k % 9973) as f64 * 1.7);
            let a = plain.sample2_full(&t, x, y);
            let b = eroded.sample2_full(&t, x, y);
            assert_eq!(none.sample2_full(&t, x, y).value, a.value, "{name}");
            points.push((a.value, b.value - a.value));
            if (a.value - b.value).abs() > 1e-3 {
                changed += 1;
            }
            assert!(
                (0.0..=1.0).contains(&b.crease),
                "{name}: crease {}",
                b.crease
            );
        }
        assert!(
            changed > 600,
            "{name}: erosion changed only {changed} of 3000 points"
        );
        // Highlands (above 0.3 of half the noise size) are cut down and lowlands (below −0.3)
        // filled, on average.
        let size = 0.5 * plain.noise_size.abs();
        let mean = |keep: &dyn Fn(f64) -> bool| {
            let picked: Vec<f64> = points
                .iter()
                .filter(|p| keep(p.0 / size))
                .map(|p| p.1)
                .collect();
            (picked.len() >= 30).then(|| picked.iter().sum::<f64>() / picked.len() as f64)
        };
        let (high, low) = (mean(&|r| r > 0.3), mean(&|r| r < -0.3));
        assert!(
            high.is_some() || low.is_some(),
            "{name}: no highlands or lowlands"
        );
        assert!(
            high.is_none_or(|h| h < 0.0),
            "{name}: highlands rose by {high:?}"
        );
        assert!(
            low.is_none_or(|l| l > 0.0),
            "{name}: lowlands sank by {low:?}"
        );
    }
}

#[test]
fn invalid_erosion_settings_name_the_field() {
    for (erosion, field, allowed) in [
        (
            Erosion {
                strength: -0.1,
                ..Erosion::default()
            },
            "erosion.strength",
            "0 to 1",
        ),
        (
            Erosion {
                octaves: 0,
                ..Erosion::default()
            },
            "erosion.octaves",
            "1 to 8",
        ),
        (
            Erosion {
                scale: f64::NAN,
                ..Erosion::default()
            },
            "erosion.scale",
            "finite",
        ),
        (
            Erosion {
                detail: 9.0,
                ..Erosion::default()
            },
            "erosion.detail",
            "0.5 to 4",
        ),
        (
            Erosion {
                slope_onset: 0.0,
                ..Erosion::default()
            },
            "erosion.slope_onset",
            "0.01 to 100",
        ),
        (
            Erosion {
                preserve: 1.5,
                ..Erosion::default()
            },
            "erosion.preserve",
            "0 to 1",
        ),
    ] {
        let fbm = Fbm {
            erosion: Some(erosion),
            ..Fbm::default()
        };
        let error = fbm.validate().expect_err("out of range");
        assert_eq!(error.field, field);
        assert!(error.allowed.contains(allowed), "{error}");
    }
    assert_eq!(
        Fbm {
            erosion: Some(Erosion::default()),
            ..Fbm::default()
        }
        .validate(),
        Ok(())
    );
}

#[test]
fn erosion_in_ron_defaults_every_field() {
    let fbm: Fbm = ron::from_str("(erosion: Some(()))").expect("RON");
    assert_eq!(fbm.erosion, Some(Erosion::default()));
    let fbm: Fbm = ron::from_str("(erosion: Some((strength: 0.2, octaves: 3)))").expect("RON");
    let e = fbm.erosion.expect("erosion");
    assert_eq!(
        (e.strength, e.octaves, e.gain),
        (0.2, 3, Erosion::default().gain)
    );
    assert!(ron::from_str::<Fbm>("(erosion: Some((strenght: 0.2)))").is_err());
}

#[test]
fn erosion_with_no_octaves_unchecked_cuts_nothing_and_a_grid_equals_its_samples() {
    // `octaves: 0` fails validation; an Fbm built in code with it must still sample: the
    // filter has no gully to cut, and the grid path agrees with the point path (within the
    // grid path's `f32`, as for any noise).
    let tables = NoiseTables::from_seed(5);
    let fbm = Fbm {
        frequency: 1.0 / 300.0,
        erosion: Some(Erosion {
            octaves: 0,
            ..Erosion::default()
        }),
        ..Fbm::default()
    };
    let spec = GridSpec::new([-40.0, 17.0], 3.0, [21, 13]);
    let mut grid = vec![0.0f32; 21 * 13];
    fbm.fill_grid(&tables, &spec, &mut grid)
        .expect("a small grid");
    for j in 0..13 {
        for i in 0..21 {
            let p = [spec.position(0, i), spec.position(1, j)];
            let v = fbm.sample2(&tables, p[0], p[1]);
            assert!(v.is_finite(), "{p:?}: {v}");
            assert!((grid[j * 21 + i] as f64 - v).abs() < 1e-5, "{p:?}");
        }
    }
}

#[test]
fn erosion_with_a_lacunarity_below_one_unchecked_fills_a_wide_grid_with_bounded_work() {
    // `lacunarity: 0.2` fails validation (1.5 to 4): the gullies' cells grow, 31, 154, 768 and
    // 3840 m. On a grid 20 km a step only the last can show; the first, 651 cells a step, once
    // sized the grid's windows (gigabytes for these 48 × 40 samples) although it weighs nothing.
    let tables = NoiseTables::from_seed(8);
    let plain = Fbm {
        frequency: 1.0 / 256.0,
        ..Fbm::default()
    };
    let eroded = Fbm {
        erosion: Some(Erosion {
            lacunarity: 0.2,
            strength: 0.5,
            ..Erosion::default()
        }),
        ..plain
    };
    let spec = GridSpec::new([-310_000.0, 520_000.0], 20_000.0, [48, 40]);
    let (mut a, mut b) = (vec![0.0f32; 48 * 40], vec![0.0f32; 48 * 40]);
    eroded
        .fill_grid(&tables, &spec, &mut a)
        .expect("a small grid");
    plain
        .fill_grid(&tables, &spec, &mut b)
        .expect("a small grid");
    assert!(a.iter().all(|v| v.is_finite()));
    // The coarsest octave still cuts.
    let changed = a.iter().zip(&b).filter(|(a, b)| a != b).count();
    assert!(
        changed > a.len() / 2,
        "{changed} of {} samples eroded",
        a.len()
    );
}
