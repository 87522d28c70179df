//! The grid path: bit-identical to its scalar twin, equal to the point function, seamless at
//! shared edges, and correct for every configuration it accepts.

use perlin_core::grid::{GridError, GridKernel};
use perlin_core::prelude::*;

fn fill(
    fbm: &Fbm,
    t: &NoiseTables,
    spec: &GridSpec,
    kernel: GridKernel,
) -> (Vec<f32>, Vec<[f32; 2]>) {
    let n = spec.size[0] * spec.size[1];
    let (mut v, mut g) = (vec![0.0; n], vec![[0.0; 2]; n]);
    fbm.fill_grid_using(kernel, t, spec, &mut v, Some(&mut g))
        .expect("sizes match");
    (v, g)
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn configs() -> Vec<Fbm> {
    let base = Fbm {
        frequency: 1.0 / 48.0,
        ..Fbm::default()
    };
    let mut out = vec![base];
    for mode in [
        FractalMode::Ridged,
        FractalMode::Billow,
        FractalMode::Turbulence,
    ] {
        out.push(Fbm { mode, ..base });
    }
    out.push(Fbm {
        fade: Fade::Hermite,
        hashing: Hashing::Integer,
        ..base
    });
    out.push(Fbm {
        contrast: 2.5,
        noise_size: 7.0,
        octaves: 8,
        lacunarity: 2.3,
        ..base
    });
    // High frequency: most blocks' corners do not fit one window, the twin takes them.
    out.push(Fbm {
        frequency: 0.6,
        octaves: 3,
        ..base
    });
    out
}

fn specs() -> Vec<GridSpec> {
    vec![
        GridSpec::new([0.0, 0.0], 1.0, [129, 129]),
        GridSpec::new([-1000.25, 333.5], 0.37, [67, 13]),
        GridSpec {
            origin: [5.0, -5.0],
            step: [-0.8, 1.3],
            start: [-40, 7],
            size: [21, 9],
        },
        GridSpec::new([1.0e7, -2.5e6], 2.0, [17, 5]),
    ]
}

#[test]
fn simd_kernel_and_scalar_twin_are_bit_identical() {
    let t = NoiseTables::from_seed(99);
    for fbm in configs() {
        for spec in specs() {
            let (va, ga) = fill(&fbm, &t, &spec, GridKernel::Auto);
            let (vs, gs) = fill(&fbm, &t, &spec, GridKernel::Scalar);
            assert_eq!(bits(&va), bits(&vs), "{fbm:?} {spec:?}");
            let flat = |g: &[[f32; 2]]| {
                g.iter()
                    .flat_map(|p| p.map(f32::to_bits))
                    .collect::<Vec<_>>()
            };
            assert_eq!(flat(&ga), flat(&gs), "{fbm:?} {spec:?}");
            // The value-only path gives the same values as the one with gradients.
            let mut only = vec![0.0; va.len()];
            fbm.fill_grid(&t, &spec, &mut only).expect("sizes match");
            assert_eq!(bits(&only), bits(&va));
        }
    }
}

#[test]
fn grid_equals_the_point_function() {
    let t = NoiseTables::from_seed(7);
    for fbm in configs() {
        for spec in specs() {
            let (v, g) = fill(&fbm, &t, &spec, GridKernel::Auto);
            for j in 0..spec.size[1] {
                for i in 0..spec.size[0] {
                    let (x, y) = (spec.position(0, i), spec.position(1, j));
                    let (pv, pg) = fbm.sample2_with_gradient(&t, x, y);
                    let k = j * spec.size[0] + i;
                    let tol = 2e-5 * fbm.noise_size.abs().max(1.0);
                    assert!(
                        (v[k] as f64 - pv).abs() < tol,
                        "{fbm:?} at ({x}, {y}): {} vs {pv}",
                        v[k]
                    );
                    // Folded modes have a kink where an octave crosses zero; there f32 and f64
                    // may land on different sides, so the slope of either side is right.
                    let close = |pg: [f64; 2]| {
                        let gtol = 1e-4 * (1.0 + pg[0].abs().max(pg[1].abs()));
                        (g[k][0] as f64 - pg[0]).abs() < gtol
                            && (g[k][1] as f64 - pg[1]).abs() < gtol
                    };
                    let d = 1e-6;
                    let sides = [(0.0, 0.0), (d, 0.0), (-d, 0.0), (0.0, d), (0.0, -d)];
                    let matched = sides
                        .iter()
                        .any(|&(dx, dy)| close(fbm.sample2_with_gradient(&t, x + dx, y + dy).1));
                    assert!(
                        matched,
                        "{fbm:?} gradient at ({x}, {y}): {:?} vs {pg:?}",
                        g[k]
                    );
                }
            }
        }
    }
}

#[test]
fn neighbouring_grids_share_bit_identical_edges() {
    let t = NoiseTables::from_seed(3);
    let n = 65usize;
    for fbm in configs() {
        for (cx, cz) in [(0i64, 0i64), (-3, 5), (1000, -1000)] {
            // Chunks as the terrain makes them: sample indices from a global integer lattice.
            let chunk = |cx: i64, cz: i64| {
                let spec = GridSpec::new([0.0, 0.0], 0.5, [n, n])
                    .with_start([cx * (n as i64 - 1), cz * (n as i64 - 1)]);
                fill(&fbm, &t, &spec, GridKernel::Auto)
            };
            let (a, ga) = chunk(cx, cz);
            let (right, gr) = chunk(cx + 1, cz);
            let (below, gb) = chunk(cx, cz + 1);
            for r in 0..n {
                assert_eq!(a[r * n + n - 1].to_bits(), right[r * n].to_bits());
                assert_eq!(ga[r * n + n - 1], gr[r * n]);
                assert_eq!(a[(n - 1) * n + r].to_bits(), below[r].to_bits());
                assert_eq!(ga[(n - 1) * n + r], gb[r]);
            }
            // A one-sample grid at a shared vertex computes the same bits too.
            let (single, gs) = fill(
                &fbm,
                &t,
                &GridSpec::new([0.0, 0.0], 0.5, [1, 1]).with_start([cx * 64 + 64, cz * 64 + 10]),
                GridKernel::Auto,
            );
            assert_eq!(single[0].to_bits(), a[10 * n + n - 1].to_bits());
            assert_eq!(gs[0], ga[10 * n + n - 1]);
        }
    }
}

#[test]
fn configurations_without_a_fast_path_use_the_point_function() {
    let t = NoiseTables::from_seed(8);
    for fbm in [
        Fbm {
            base: BaseNoise::Simplex,
            frequency: 0.05,
            ..Fbm::default()
        },
        Fbm {
            base: BaseNoise::Value,
            frequency: 0.05,
            ..Fbm::default()
        },
        Fbm {
            warp: Some(DomainWarp::default()),
            frequency: 0.05,
            ..Fbm::default()
        },
    ] {
        let spec = GridSpec::new([3.0, -4.0], 0.7, [9, 6]);
        let (v, g) = fill(&fbm, &t, &spec, GridKernel::Auto);
        for (k, (value, grad)) in v.iter().zip(&g).enumerate() {
            let (pv, pg) =
                fbm.sample2_with_gradient(&t, spec.position(0, k % 9), spec.position(1, k / 9));
            assert_eq!(*value, pv as f32);
            assert_eq!(*grad, [pg[0] as f32, pg[1] as f32]);
        }
    }
}

#[test]
fn wrong_buffers_are_errors_not_panics() {
    let t = NoiseTables::from_seed(1);
    let fbm = Fbm::default();
    let spec = GridSpec::new([0.0, 0.0], 1.0, [4, 4]);
    let mut short = vec![0.0; 15];
    assert_eq!(
        fbm.fill_grid(&t, &spec, &mut short),
        Err(GridError::BufferLength {
            buffer: "values",
            expected: 16,
            actual: 15
        })
    );
    let mut v = vec![0.0; 16];
    let mut g = vec![[0.0; 2]; 3];
    assert!(matches!(
        fbm.fill_grid_with_gradient(&t, &spec, &mut v, &mut g),
        Err(GridError::BufferLength {
            buffer: "gradients",
            ..
        })
    ));
    let huge = GridSpec::new([0.0, 0.0], 1.0, [usize::MAX, 2]);
    assert_eq!(fbm.fill_grid(&t, &huge, &mut v), Err(GridError::TooLarge));
    let empty = GridSpec::new([0.0, 0.0], 1.0, [0, 5]);
    assert_eq!(fbm.fill_grid(&t, &empty, &mut []), Ok(()));
}

#[test]
fn fill_grid2_is_the_documented_entry_point() {
    // 6-octave 2D Perlin FBM with only the public fields set, as a user would write it.
    let t = NoiseTables::from_seed(77);
    let fbm = Fbm {
        octaves: 6,
        frequency: 0.05,
        ..Default::default()
    };
    let (origin, step, width, height) = ([-13.25, 40.5], 0.75, 37, 23);
    let mut out = vec![0.0f32; width * height];
    fbm.fill_grid2(&t, origin, step, width, height, &mut out);
    let mut worst = 0.0f64;
    for j in 0..height {
        for i in 0..width {
            let x = origin[0] + i as f64 * step;
            let y = origin[1] + j as f64 * step;
            let error = (out[j * width + i] as f64 - fbm.sample2(&t, x, y)).abs();
            worst = worst.max(error);
        }
    }
    assert!(worst < 1e-4, "grid differs from sample2 by {worst}");
    assert!(
        out.iter().any(|v| v.abs() > 0.1),
        "a flat grid proves nothing"
    );

    // A mis-sized buffer cannot pass for terrain.
    let mut short = vec![0.0f32; width * height - 1];
    fbm.fill_grid2(&t, origin, step, width, height, &mut short);
    assert!(short.iter().all(|v| v.is_nan()));
}

#[test]
fn a_wide_grid_and_a_small_one_agree_bit_for_bit_where_they_overlap() {
    // Wide grids sum in shorter strips than narrow ones (to stay in cache); the strip layout
    // must never change a sample's bits.
    let t = NoiseTables::from_seed(11);
    for fbm in configs() {
        let wide = GridSpec::new([3.0, -7.0], 0.75, [1100, 40]);
        let small = GridSpec::new([3.0, -7.0], 0.75, [65, 65]).with_start([517, 3]);
        let (w, gw) = fill(&fbm, &t, &wide, GridKernel::Auto);
        let (s, gs) = fill(&fbm, &t, &small, GridKernel::Auto);
        for j in 0..37 {
            for i in 0..65 {
                let (a, b) = ((j + 3) * 1100 + 517 + i, j * 65 + i);
                assert_eq!(w[a].to_bits(), s[b].to_bits(), "{fbm:?} at ({i}, {j})");
                assert_eq!(gw[a], gs[b]);
            }
        }
    }
}

#[test]
fn golden_hash_of_a_seeded_grid() {
    // The terrain of seed 42 under the default 6-octave FBM, pinned: any change to tables,
    // generators, FBM or grid path that moves a single bit shows up here, and must be a
    // deliberate change of this number. (Every kernel gives these bits; see above.)
    let t = NoiseTables::from_seed(42);
    let fbm = Fbm {
        octaves: 6,
        frequency: 1.0 / 32.0,
        ..Fbm::default()
    };
    let spec = GridSpec::new([-100.0, 250.0], 0.5, [97, 61]).with_start([-3, 7]);
    let (values, gradients) = fill(&fbm, &t, &spec, GridKernel::Auto);
    // FNV-1a over the value bits, then the gradient bits.
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let words = values
        .iter()
        .map(|v| v.to_bits())
        .chain(gradients.iter().flat_map(|g| g.map(f32::to_bits)));
    for word in words {
        for byte in word.to_le_bytes() {
            hash = (hash ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    assert_eq!(hash, GOLDEN, "the terrain of seed 42 changed: {hash:#018x}");
}

const GOLDEN: u64 = 0x96fc_7ac9_de06_fafd;
