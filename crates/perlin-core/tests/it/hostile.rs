//! NaN, infinities, huge and extreme coordinates never panic or index out of bounds, in debug
//! and release builds alike.

use perlin_core::prelude::*;

const HOSTILE: [f64; 10] = [
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    1e30,
    -1e30,
    f64::MAX,
    f64::MIN,
    f64::MIN_POSITIVE,
    -0.0,
    9.3e18,
];

#[test]
fn point_generators_survive_hostile_coordinates() {
    let t = NoiseTables::from_seed(0);
    for hashing in [Hashing::Table, Hashing::Integer] {
        let p = Perlin {
            hashing,
            ..Perlin::default()
        };
        let s = Simplex { hashing };
        let v = Value {
            interpolation: Interpolation::Cubic,
            hashing,
        };
        for &a in &HOSTILE {
            for &b in &HOSTILE {
                let outputs = [
                    p.sample1(&t, a),
                    p.sample2(&t, a, b),
                    p.sample3(&t, a, b, a),
                    p.sample4(&t, a, b, b, a),
                    s.sample2(&t, a, b),
                    s.sample3(&t, b, a, b),
                    s.sample4(&t, a, a, b, b),
                    v.sample2(&t, a, b),
                    v.sample_n(&t, &[a, b, a, b, a]).unwrap_or(0.0),
                ];
                // Finite inputs give bounded outputs; non-finite ones may give NaN, never a panic.
                if a.is_finite() && b.is_finite() {
                    assert!(
                        outputs.iter().all(|o| o.is_finite() && o.abs() < 2.0),
                        "{a} {b} {outputs:?}"
                    );
                }
            }
        }
    }
}

/// One hostile-input configuration of every kind the grid path has.
fn hostile_configs() -> Vec<Fbm> {
    let warp = Some(DomainWarp::default());
    vec![
        Fbm::default(),
        Fbm {
            hashing: Hashing::Table,
            mode: FractalMode::Ridged,
            contrast: 0.5,
            ..Fbm::default()
        },
        Fbm {
            base: BaseNoise::Simplex,
            warp,
            ..Fbm::default()
        },
        Fbm {
            base: BaseNoise::Value,
            interpolation: Interpolation::Cubic,
            warp,
            ..Fbm::default()
        },
        Fbm {
            erosion: Some(Erosion::default()),
            ..Fbm::default()
        },
    ]
}

#[test]
fn non_finite_coordinates_give_nan_and_finite_ones_finite_values() {
    let t = NoiseTables::from_seed(0);
    for fbm in hostile_configs() {
        for &a in &HOSTILE {
            let point = fbm.sample2_full(&t, a, 1.0);
            let line = fbm.sample3(&t, a, a, 1.0);
            // Finite coordinates give finite noise while every octave's lattice coordinate is
            // finite (not at f64::MAX times a frequency above 1).
            if a.is_finite() && a.abs() <= 1e30 {
                assert!(
                    point.value.is_finite() && line.is_finite(),
                    "{fbm:?} at {a}"
                );
            } else if !a.is_finite() {
                // The documented promise: a non-finite coordinate gives NaN, never a panic.
                assert!(
                    point.value.is_nan() && line.is_nan(),
                    "{fbm:?} at {a}: {point:?}"
                );
            }
        }
    }
}

#[test]
fn grids_survive_hostile_input() {
    let t = NoiseTables::from_seed(0);
    for fbm in hostile_configs() {
        for &a in &HOSTILE {
            for &step in &[1.0, a, 1e-300, -3.0] {
                let spec = GridSpec {
                    origin: [a, 2.0],
                    step: [step, step],
                    start: [i64::MAX - 3, i64::MIN],
                    size: [11, 3],
                };
                let mut v = vec![0.0; 33];
                let mut g = vec![[0.0; 2]; 33];
                let mut c = vec![0.0; 33];
                let buffers = GridFill::new(&mut v).gradients(&mut g).creases(&mut c);
                assert_eq!(fbm.fill(&t, &spec, buffers), Ok(()));
                // Every sample position is finite here exactly when origin and step are.
                let finite = a.is_finite()
                    && step.is_finite()
                    && (0..11).all(|i| {
                        spec.position(0, i).is_finite() && spec.position(1, 0).is_finite()
                    });
                if finite && a.abs() < 1e15 && step.abs() < 1e15 {
                    assert!(v.iter().all(|x| x.is_finite()), "{fbm:?} {spec:?}: {v:?}");
                }
                if !a.is_finite() {
                    assert!(v.iter().all(|x| x.is_nan()), "{fbm:?} {spec:?}: {v:?}");
                }
            }
        }
    }
}
