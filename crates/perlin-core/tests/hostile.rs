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
                    p.get1(&t, a),
                    p.get2(&t, a, b),
                    p.get3(&t, a, b, a),
                    p.get4(&t, a, b, b, a),
                    s.get2(&t, a, b),
                    s.get3(&t, b, a, b),
                    s.get4(&t, a, a, b, b),
                    v.get2(&t, a, b),
                    v.get_n(&t, &[a, b, a, b, a]).unwrap_or(0.0),
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

#[test]
fn fbm_and_grids_survive_hostile_input() {
    let t = NoiseTables::from_seed(0);
    for fbm in [
        Fbm::default(),
        Fbm {
            hashing: Hashing::Integer,
            mode: FractalMode::Ridged,
            contrast: 0.5,
            ..Fbm::default()
        },
    ] {
        for &a in &HOSTILE {
            let _ = fbm.sample2_with_gradient(&t, a, 1.0);
            let _ = fbm.sample3(&t, a, a, 1.0);
            for &step in &[1.0, a, 1e-300, -3.0] {
                let spec = GridSpec {
                    origin: [a, 2.0],
                    step: [step, step],
                    start: [i64::MAX - 3, i64::MIN],
                    size: [11, 3],
                };
                let mut v = vec![0.0; 33];
                let mut g = vec![[0.0; 2]; 33];
                assert_eq!(
                    fbm.fill_grid_with_gradient(&t, &spec, &mut v, &mut g),
                    Ok(())
                );
            }
        }
    }
}
