//! Fractal noise: validation, serde, contrast, noise size, octave translation, modes, warp,
//! and analytic gradients against central differences.

use perlin_core::prelude::*;

#[test]
fn validate_names_the_field_and_its_range() {
    let cases: Vec<(Fbm, &str, &str)> = vec![
        (
            Fbm {
                octaves: 0,
                ..Fbm::default()
            },
            "octaves",
            "1 to 32",
        ),
        (
            Fbm {
                octaves: 33,
                ..Fbm::default()
            },
            "octaves",
            "1 to 32",
        ),
        (
            Fbm {
                frequency: 0.0,
                ..Fbm::default()
            },
            "frequency",
            "> 0",
        ),
        (
            Fbm {
                frequency: f64::NAN,
                ..Fbm::default()
            },
            "frequency",
            "finite",
        ),
        (
            Fbm {
                frequency: f64::INFINITY,
                ..Fbm::default()
            },
            "frequency",
            "finite",
        ),
        (
            Fbm {
                lacunarity: -2.0,
                ..Fbm::default()
            },
            "lacunarity",
            "> 0",
        ),
        (
            Fbm {
                lacunarity: 0.0,
                ..Fbm::default()
            },
            "lacunarity",
            "> 0",
        ),
        (
            Fbm {
                persistence: f64::NEG_INFINITY,
                ..Fbm::default()
            },
            "persistence",
            "0 to 4",
        ),
        (
            Fbm {
                contrast: 0.0,
                ..Fbm::default()
            },
            "contrast",
            "> 0",
        ),
        (
            Fbm {
                contrast: f64::NAN,
                ..Fbm::default()
            },
            "contrast",
            "finite",
        ),
        (
            Fbm {
                amplitude: -1.0,
                ..Fbm::default()
            },
            "amplitude",
            "> 0",
        ),
        (
            Fbm {
                noise_size: f64::NAN,
                ..Fbm::default()
            },
            "noise_size",
            "finite",
        ),
        (
            Fbm {
                octave_shift: 1e300,
                ..Fbm::default()
            },
            "octave_shift",
            "-1e6 to 1e6",
        ),
        (
            Fbm {
                frequency: 1e6,
                lacunarity: 16.0,
                octaves: 32,
                ..Fbm::default()
            },
            "lacunarity",
            "octaves - 1",
        ),
        (
            Fbm {
                warp: Some(DomainWarp {
                    amplitude: 2.0,
                    frequency: 0.0,
                }),
                ..Fbm::default()
            },
            "warp.frequency",
            "> 0",
        ),
        (
            Fbm {
                warp: Some(DomainWarp {
                    amplitude: -1.0,
                    frequency: 1.0,
                }),
                ..Fbm::default()
            },
            "warp.amplitude",
            "0 to 1e6",
        ),
    ];
    for (fbm, field, allowed) in cases {
        let err = fbm.validate().expect_err(field);
        assert_eq!(err.field, field);
        let text = err.to_string();
        assert!(text.contains(field) && text.contains(allowed), "{text}");
    }
    assert_eq!(Fbm::default().validate(), Ok(()));
}

#[test]
fn ron_round_trips_and_rejects_unknown_fields() {
    let fbm = Fbm {
        octaves: 7,
        contrast: 1.5,
        mode: FractalMode::Ridged,
        warp: Some(DomainWarp::default()),
        ..Fbm::default()
    };
    let text = ron::to_string(&fbm).expect("serialises");
    let back: Fbm = ron::from_str(&text).expect("parses");
    assert_eq!(back, fbm);
    // Omitted fields take their defaults.
    let partial: Fbm = ron::from_str("(octaves: 3, base: Simplex)").expect("parses");
    assert_eq!(
        partial,
        Fbm {
            octaves: 3,
            base: BaseNoise::Simplex,
            ..Fbm::default()
        }
    );
    let err = ron::from_str::<Fbm>("(octavs: 3)").expect_err("typo");
    assert!(err.to_string().contains("octavs"), "{err}");
}

#[test]
fn normalised_sum_stays_in_range_and_contrast_and_size_apply_after_it() {
    let t = NoiseTables::from_seed(21);
    let plain = Fbm {
        frequency: 0.1,
        ..Fbm::default()
    };
    let shaped = Fbm {
        contrast: 3.0,
        noise_size: 40.0,
        ..plain
    };
    let mut s = 0.0f64;
    for i in 0..2000 {
        let (x, y) = (i as f64 * 0.731 - 500.0, (i * 37 % 1000) as f64 * 0.577);
        let v = plain.sample2(&t, x, y);
        assert!((-1.0..=1.0).contains(&v));
        let expected = v.signum() * v.abs().powf(3.0) * 40.0;
        assert!((shaped.sample2(&t, x, y) - expected).abs() < 1e-12);
        s += v.abs();
    }
    assert!(s > 100.0, "the noise is not flat");
}

#[test]
fn octave_shift_moves_every_octave_off_the_common_centre() {
    // Every octave of unshifted Perlin FBM is 0 at the origin: all octaves share that lattice
    // point as their centre of homothety. The shift breaks it.
    let t = NoiseTables::from_seed(5);
    let unshifted = Fbm {
        octave_shift: 0.0,
        hashing: Hashing::Table,
        ..Fbm::default()
    };
    assert_eq!(unshifted.sample2(&t, 0.0, 0.0), 0.0);
    assert_ne!(Fbm::default().sample2(&t, 0.0, 0.0), 0.0);
    // And the self-similar copy along the diagonal disappears.
    let a = unshifted.sample2(&t, 0.25, 0.25);
    let halfway = Fbm {
        octaves: 5,
        frequency: 2.0,
        octave_shift: 0.0,
        hashing: Hashing::Table,
        ..Fbm::default()
    };
    let first_octave_removed =
        (a * unshifted.amplitude_sum() - 1.0 * Perlin::default().sample2(&t, 0.25, 0.25)) / 0.5;
    assert!(
        (first_octave_removed - halfway.sample2(&t, 0.25, 0.25) * halfway.amplitude_sum()).abs()
            < 1e-12
    );
}

#[test]
fn modes_reshape_each_octave() {
    let t = NoiseTables::from_seed(2);
    let one = |mode| Fbm {
        octaves: 1,
        mode,
        hashing: Hashing::Table,
        ..Fbm::default()
    };
    for &(x, y) in &[(0.3, 0.8), (5.5, -2.25), (-9.1, 4.4)] {
        let n = Perlin::default().sample2(&t, x, y);
        assert_eq!(one(FractalMode::Standard).sample2(&t, x, y), n);
        assert!((one(FractalMode::Turbulence).sample2(&t, x, y) - n.abs()).abs() < 1e-15);
        assert!((one(FractalMode::Billow).sample2(&t, x, y) - (2.0 * n.abs() - 1.0)).abs() < 1e-15);
        let r = 1.0 - n.abs();
        assert!((one(FractalMode::Ridged).sample2(&t, x, y) - (2.0 * r * r - 1.0)).abs() < 1e-15);
    }
}

#[test]
fn warp_moves_the_sample_point() {
    let t = NoiseTables::from_seed(31);
    let warped = Fbm {
        warp: Some(DomainWarp {
            amplitude: 3.0,
            frequency: 0.2,
        }),
        frequency: 0.1,
        ..Fbm::default()
    };
    let straight = Fbm {
        warp: None,
        ..warped
    };
    let moved = (0..50).filter(|&i| {
        let x = i as f64 * 1.37;
        warped.sample2(&t, x, 2.0) != straight.sample2(&t, x, 2.0)
    });
    assert!(moved.count() >= 49);
}

/// Central differences of `sample2` against `sample2_with_gradient`.
fn assert_gradient_matches(fbm: &Fbm, label: &str) {
    let t = NoiseTables::from_seed(44);
    let h = 1e-6;
    for i in 0..60 {
        let (x, y) = (i as f64 * 0.913 - 20.0, (i * 17 % 23) as f64 * 1.31 - 9.0);
        let (_, g) = fbm.sample2_with_gradient(&t, x, y);
        let dx = (fbm.sample2(&t, x + h, y) - fbm.sample2(&t, x - h, y)) / (2.0 * h);
        let dy = (fbm.sample2(&t, x, y + h) - fbm.sample2(&t, x, y - h)) / (2.0 * h);
        let scale = 1.0 + dx.abs().max(dy.abs());
        assert!(
            (g[0] - dx).abs() < 1e-5 * scale && (g[1] - dy).abs() < 1e-5 * scale,
            "{label} at ({x}, {y}): {g:?} vs [{dx}, {dy}]"
        );
    }
}

#[test]
fn analytic_gradients_match_central_differences() {
    let base = Fbm {
        frequency: 0.15,
        ..Fbm::default()
    };
    assert_gradient_matches(&base, "perlin fbm");
    assert_gradient_matches(&Fbm { octaves: 1, ..base }, "perlin");
    assert_gradient_matches(
        &Fbm {
            fade: Fade::Hermite,
            ..base
        },
        "hermite",
    );
    assert_gradient_matches(
        &Fbm {
            hashing: Hashing::Integer,
            ..base
        },
        "integer hash",
    );
    assert_gradient_matches(
        &Fbm {
            contrast: 1.7,
            noise_size: 3.0,
            ..base
        },
        "contrast",
    );
    assert_gradient_matches(
        &Fbm {
            base: BaseNoise::Simplex,
            ..base
        },
        "simplex",
    );
    assert_gradient_matches(
        &Fbm {
            base: BaseNoise::Value,
            ..base
        },
        "value cosine",
    );
    assert_gradient_matches(
        &Fbm {
            base: BaseNoise::Value,
            interpolation: Interpolation::Cubic,
            ..base
        },
        "value cubic",
    );
    assert_gradient_matches(
        &Fbm {
            warp: Some(DomainWarp {
                amplitude: 2.0,
                frequency: 0.1,
            }),
            ..base
        },
        "warp",
    );
    // Ridged, billow and turbulence fold at n = 0; away from the fold the slope is exact.
    for mode in [
        FractalMode::Ridged,
        FractalMode::Billow,
        FractalMode::Turbulence,
    ] {
        assert_gradient_matches(
            &Fbm {
                mode,
                octaves: 3,
                ..base
            },
            "folded modes",
        );
    }
}

#[test]
fn sample3_uses_every_base() {
    let t = NoiseTables::from_seed(1);
    let values: Vec<f64> = [BaseNoise::Perlin, BaseNoise::Simplex, BaseNoise::Value]
        .iter()
        .map(|&base| {
            Fbm {
                base,
                ..Fbm::default()
            }
            .sample3(&t, 1.3, 2.7, -0.4)
        })
        .collect();
    assert!(values.iter().all(|v| (-1.0..=1.0).contains(v)));
    assert!(values[0] != values[1] && values[1] != values[2]);
}
