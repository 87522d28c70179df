//! The grid path: every kernel the CPU has gives the same bits, the grid equals the point
//! function, shared edges are seamless, and this holds for every configuration (every base,
//! fractal mode, hashing, warp, contrast and erosion).

use perlin_core::Vectorised;
use perlin_core::grid::GridError;
use perlin_core::prelude::*;

/// Values, gradients and creases of a grid.
struct Filled {
    values: Vec<f32>,
    gradients: Vec<[f32; 2]>,
    creases: Vec<f32>,
}

fn fill(fbm: &Fbm, t: &NoiseTables, spec: &GridSpec, kernel: GridKernel) -> Filled {
    let n = spec.size[0] * spec.size[1];
    let mut f = Filled {
        values: vec![0.0; n],
        gradients: vec![[0.0; 2]; n],
        creases: vec![0.0; n],
    };
    fbm.fill_grid_using(
        kernel,
        t,
        spec,
        &mut f.values,
        Some(&mut f.gradients),
        Some(&mut f.creases),
    )
    .expect("sizes match and the kernel is available");
    f
}

/// The values alone of a grid, as a caller asking for nothing else gets them (the plain path,
/// which finishes the values in its last octave); its gradients and creases are zeros.
fn fill_values(fbm: &Fbm, t: &NoiseTables, spec: &GridSpec) -> Filled {
    let n = spec.size[0] * spec.size[1];
    let mut values = vec![0.0; n];
    fbm.fill_grid(t, spec, &mut values)
        .expect("the buffer's size matches");
    Filled {
        values,
        gradients: vec![[0.0; 2]; n],
        creases: vec![0.0; n],
    }
}

/// Asserts that the first `[columns, rows]` samples of `small` (a grid `small_width` wide)
/// equal, bit for bit, those of `big` (`big_width` wide) from column `at[0]`, row `at[1]` on.
fn assert_window(
    fbm: &Fbm,
    (big, big_width): (&Filled, usize),
    (small, small_width): (&Filled, usize),
    [columns, rows]: [usize; 2],
    at: [usize; 2],
) {
    for j in 0..rows {
        for i in 0..columns {
            let (a, b) = ((j + at[1]) * big_width + at[0] + i, j * small_width + i);
            assert_eq!(
                big.values[a].to_bits(),
                small.values[b].to_bits(),
                "{fbm:?} at ({i}, {j})"
            );
            assert_eq!(big.gradients[a], small.gradients[b]);
            assert_eq!(big.creases[a].to_bits(), small.creases[b].to_bits());
        }
    }
}

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

fn gradient_bits(g: &[[f32; 2]]) -> Vec<u32> {
    g.iter().flat_map(|p| p.map(f32::to_bits)).collect()
}

/// One configuration of every kind the grid path has a kernel for.
fn configs() -> Vec<Fbm> {
    let base = Fbm {
        frequency: 1.0 / 48.0,
        ..Fbm::default()
    };
    let warp = Some(DomainWarp {
        amplitude: 9.0,
        frequency: 1.0 / 70.0,
    });
    let mut out = vec![base];
    // One octave, its lattice points on samples of the first spec (where a zero sum could
    // carry either sign): the values-only fill writes its terms as the values.
    let single = Fbm {
        octaves: 1,
        frequency: 1.0 / 8.0,
        ..base
    };
    out.push(single);
    out.push(Fbm {
        noise_size: 3.0,
        mode: FractalMode::Billow,
        ..single
    });
    for (b, interpolation) in [
        (BaseNoise::Value, Interpolation::Linear),
        (BaseNoise::Value, Interpolation::Cubic),
    ] {
        out.push(Fbm {
            base: b,
            interpolation,
            ..single
        });
    }
    for mode in [
        FractalMode::Ridged,
        FractalMode::Billow,
        FractalMode::Turbulence,
    ] {
        out.push(Fbm { mode, ..base });
    }
    out.push(Fbm {
        fade: Fade::Hermite,
        hashing: Hashing::Table,
        ..base
    });
    out.push(Fbm {
        contrast: 2.5,
        noise_size: 7.0,
        octaves: 8,
        lacunarity: 2.3,
        ..base
    });
    out.push(Fbm {
        contrast: 0.7,
        mode: FractalMode::Ridged,
        ..base
    });
    // High frequency: most blocks' corners do not fit one window, lanes fetch their own.
    out.push(Fbm {
        frequency: 0.6,
        octaves: 3,
        ..base
    });
    for interpolation in [
        Interpolation::Linear,
        Interpolation::Cosine,
        Interpolation::Cubic,
    ] {
        for hashing in [Hashing::Table, Hashing::Integer] {
            out.push(Fbm {
                base: BaseNoise::Value,
                interpolation,
                hashing,
                ..base
            });
        }
    }
    for hashing in [Hashing::Table, Hashing::Integer] {
        out.push(Fbm {
            base: BaseNoise::Simplex,
            hashing,
            ..base
        });
    }
    // Warped, for every base.
    for (b, interpolation) in [
        (BaseNoise::Perlin, Interpolation::Cosine),
        (BaseNoise::Simplex, Interpolation::Cosine),
        (BaseNoise::Value, Interpolation::Linear),
        (BaseNoise::Value, Interpolation::Cubic),
    ] {
        out.push(Fbm {
            base: b,
            interpolation,
            warp,
            mode: FractalMode::Ridged,
            ..base
        });
    }
    out.push(Fbm {
        warp,
        contrast: 1.3,
        hashing: Hashing::Table,
        ..base
    });
    // Eroded, plain and warped.
    out.push(Fbm {
        erosion: Some(Erosion::default()),
        ..base
    });
    out.push(Fbm {
        erosion: Some(Erosion {
            sharpness: 0.2,
            preserve: 0.3,
            octaves: 3,
            ..Erosion::default()
        }),
        warp,
        mode: FractalMode::Ridged,
        contrast: 1.3,
        ..base
    });
    out
}

fn specs() -> Vec<GridSpec> {
    vec![
        GridSpec::new([0.0, 0.0], 1.0, [67, 41]),
        GridSpec::new([-1000.25, 333.5], 0.37, [37, 13]),
        GridSpec {
            origin: [5.0, -5.0],
            step: [-0.8, 1.3],
            start: [-40, 7],
            size: [21, 9],
        },
        // Rows walking down the lattice (their cells fall), in bands of two and three rows.
        GridSpec {
            origin: [-7.5, 12.25],
            step: [1.1, -0.45],
            start: [3, -5],
            size: [29, 23],
        },
        GridSpec::new([1.0e7, -2.5e6], 2.0, [17, 5]),
        // Rows a multiple of 1 KiB apart; a one-sample tail past the registers; blocks past
        // the groups of every kernel, the last running past the row.
        GridSpec::new([-64.0, 32.0], 1.0, [256, 6]),
        GridSpec::new([3.0, 0.0], 1.0, [65, 11]),
        GridSpec::new([0.0, 0.0], 1.0, [45, 9]),
        GridSpec::new([0.0, 0.0], 1.0, [13, 9]),
    ]
}

#[test]
fn every_kernel_the_cpu_has_gives_bit_identical_grids() {
    let t = NoiseTables::from_seed(99);
    let (ran, skipped): (Vec<GridKernel>, Vec<GridKernel>) =
        GridKernel::ALL.iter().partition(|k| k.is_available());
    eprintln!("kernels compared: {ran:?}; skipped (not on this CPU): {skipped:?}");
    assert!(ran.contains(&GridKernel::Scalar));
    // A kernel is skipped only where the CPU lacks its instructions, and `Auto` runs the widest.
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let avx2 = has!("avx2") && has!("fma");
        assert_eq!(GridKernel::Avx2.is_available(), avx2);
        assert_eq!(GridKernel::Avx512.is_available(), avx2 && has!("avx512f"));
    }
    let widest = ran.iter().filter_map(|k| k.lanes()).max();
    assert_eq!(GridKernel::Auto.lanes(), widest);
    for fbm in configs() {
        for spec in specs() {
            let reference = fill(&fbm, &t, &spec, GridKernel::Scalar);
            for &kernel in ran.iter().chain([&GridKernel::Auto]) {
                let f = fill(&fbm, &t, &spec, kernel);
                let at = format!("{kernel:?} {fbm:?} {spec:?}");
                assert_eq!(bits(&f.values), bits(&reference.values), "values, {at}");
                assert_eq!(
                    gradient_bits(&f.gradients),
                    gradient_bits(&reference.gradients),
                    "gradients, {at}"
                );
                assert_eq!(bits(&f.creases), bits(&reference.creases), "creases, {at}");
            }
            // Asking for less computes the same values, on every kernel (a plain fill's last
            // octave finishes the values itself).
            for &kernel in ran.iter().chain([&GridKernel::Auto]) {
                let mut only = vec![0.0; reference.values.len()];
                fbm.fill_grid_using(kernel, &t, &spec, &mut only, None, None)
                    .expect("sizes match");
                let at = format!("values alone, {kernel:?} {fbm:?} {spec:?}");
                assert_eq!(bits(&only), bits(&reference.values), "{at}");
            }
        }
    }
}

/// Plain work for [`GridKernel::vectorise`]: eight lanes at a time, a smoothstep blend with a
/// division, a square root, a clamp and a fused multiply-add, the last few lanes alone.
struct Blend<'a> {
    a: &'a [f32],
    b: &'a [f32],
    out: &'a mut Vec<f32>,
}

impl Blend<'_> {
    #[inline(always)]
    fn lane(a: f32, b: f32) -> f32 {
        let k = (a / (1.0 + b.abs())).clamp(0.0, 1.0);
        let w = k * k * (3.0 - 2.0 * k);
        a.mul_add(1.0 - w, b * w) + (a * a + b * b).sqrt()
    }
}

impl Vectorised for Blend<'_> {
    type Output = usize;
    #[inline(always)]
    fn run(self) -> usize {
        self.out.clear();
        let (mut a8, mut b8) = (self.a.chunks_exact(8), self.b.chunks_exact(8));
        for (a, b) in (&mut a8).zip(&mut b8) {
            let mut lanes = [0.0f32; 8];
            for (l, lane) in lanes.iter_mut().enumerate() {
                *lane = Self::lane(a[l], b[l]);
            }
            self.out.extend_from_slice(&lanes);
        }
        for (&a, &b) in a8.remainder().iter().zip(b8.remainder()) {
            self.out.push(Self::lane(a, b));
        }
        self.out.len()
    }
}

#[test]
fn vectorised_work_gives_the_plain_bits_on_every_kernel_the_cpu_has() {
    // Values across the range: tiny, huge, negative, around the clamp's ends.
    let a: Vec<f32> = (0..1003)
        .map(|k| ((k as f32) * 0.618_034).sin() * 10f32.powi(k % 13 - 6))
        .collect();
    let b: Vec<f32> = (0..1003)
        .map(|k| ((k * 7 % 101) as f32 - 50.0) * 0.37)
        .collect();
    let mut reference = Vec::new();
    let plain = GridKernel::Scalar.vectorise(Blend {
        a: &a,
        b: &b,
        out: &mut reference,
    });
    assert_eq!(plain.ok(), Some(a.len()));
    for kernel in GridKernel::ALL.into_iter().chain([GridKernel::Auto]) {
        let mut out = Vec::new();
        match kernel.vectorise(Blend {
            a: &a,
            b: &b,
            out: &mut out,
        }) {
            Ok(n) => {
                assert!(kernel.is_available(), "{kernel:?} ran");
                assert_eq!(n, a.len());
                assert_eq!(bits(&out), bits(&reference), "{kernel:?}");
            }
            // Handed back, not run.
            Err(work) => {
                assert!(!kernel.is_available(), "{kernel:?} did not run");
                assert!(work.out.is_empty());
            }
        }
    }
}

#[test]
fn unavailable_kernels_are_errors() {
    for kernel in GridKernel::ALL {
        if !kernel.is_available() {
            let mut v = vec![0.0; 4];
            let spec = GridSpec::new([0.0, 0.0], 1.0, [2, 2]);
            assert_eq!(
                Fbm::default().fill_grid_using(
                    kernel,
                    &NoiseTables::default(),
                    &spec,
                    &mut v,
                    None,
                    None
                ),
                Err(GridError::KernelUnavailable(kernel))
            );
        }
    }
    assert!(GridKernel::Scalar.is_available() && GridKernel::Auto.is_available());
}

#[test]
fn a_grid_across_the_fast_floors_limit_agrees_with_the_point_function() {
    // Lattice coordinates from 2⁵¹ on take the general floor, those below it the fast one
    // (`cell_small`, exact only below 2⁵¹). A grid whose columns cross the limit must take
    // the general floor for all of them, or the cells past it come out wrong.
    let t = NoiseTables::from_seed(5);
    let fbm = Fbm {
        octaves: 1,
        frequency: 1.0,
        ..Fbm::default()
    };
    let limit = (1u64 << 51) as f64;
    // An f64 holds halves below 2⁵²: the columns' offsets are 0 and ½.
    let spec = GridSpec::new([limit - 32.0, 0.3], 0.5, [129, 3]);
    let mut values = vec![0.0; 129 * 3];
    fbm.fill_grid(&t, &spec, &mut values).unwrap();
    let mut past = 0.0f64;
    for j in 0..3 {
        for i in 0..129 {
            let (x, y) = (spec.position(0, i), spec.position(1, j));
            let p = fbm.sample2(&t, x, y);
            let grid = values[j * 129 + i] as f64;
            assert!((grid - p).abs() < 1e-5, "at ({x}, {y}): {grid} vs {p}");
            if x >= limit {
                past = past.max(p.abs());
            }
        }
    }
    assert!(past > 0.05, "the samples past the limit prove nothing");
}

#[test]
fn grid_equals_the_point_function() {
    let t = NoiseTables::from_seed(7);
    for fbm in configs() {
        let mut worst = 0.0f64;
        for spec in specs() {
            let f = fill(&fbm, &t, &spec, GridKernel::Auto);
            for j in 0..spec.size[1] {
                for i in 0..spec.size[0] {
                    let (x, y) = (spec.position(0, i), spec.position(1, j));
                    let p = fbm.sample2_full(&t, x, y);
                    let k = j * spec.size[0] + i;
                    let error = (f.values[k] as f64 - p.value).abs() / fbm.noise_size.abs();
                    worst = worst.max(error);
                    assert!(
                        error < 1e-5,
                        "{fbm:?} at ({x}, {y}): {} vs {}",
                        f.values[k],
                        p.value
                    );
                    assert!(
                        (f.creases[k] as f64 - p.crease).abs() < 1e-3,
                        "{fbm:?} crease at ({x}, {y}): {} vs {}",
                        f.creases[k],
                        p.crease
                    );
                    // Folded modes have a kink where an octave crosses zero; there f32 and f64
                    // may land on different sides, so the slope of either side is right.
                    let close = |pg: [f64; 2]| {
                        // Relative to the gradient's size (slopes are ~frequency, small).
                        let size = pg[0].hypot(pg[1]);
                        let gtol = 1e-2 * size + 2e-5 * fbm.frequency * fbm.noise_size.abs();
                        (f.gradients[k][0] as f64 - pg[0]).abs() < gtol
                            && (f.gradients[k][1] as f64 - pg[1]).abs() < gtol
                    };
                    let d = 1e-6;
                    let sides = [(0.0, 0.0), (d, 0.0), (-d, 0.0), (0.0, d), (0.0, -d)];
                    let matched = sides
                        .iter()
                        .any(|&(dx, dy)| close(fbm.sample2_full(&t, x + dx, y + dy).gradient));
                    assert!(
                        matched,
                        "{fbm:?} gradient at ({x}, {y}): {:?} vs {:?}",
                        f.gradients[k], p.gradient
                    );
                }
            }
        }
        assert!(worst < 1e-5, "{fbm:?}: worst {worst}");
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
            let a = chunk(cx, cz);
            let right = chunk(cx + 1, cz);
            let below = chunk(cx, cz + 1);
            for r in 0..n {
                let (edge, next) = (r * n + n - 1, r * n);
                assert_eq!(a.values[edge].to_bits(), right.values[next].to_bits());
                assert_eq!(a.gradients[edge], right.gradients[next]);
                assert_eq!(a.creases[edge].to_bits(), right.creases[next].to_bits());
                let (edge, next) = ((n - 1) * n + r, r);
                assert_eq!(a.values[edge].to_bits(), below.values[next].to_bits());
                assert_eq!(a.gradients[edge], below.gradients[next]);
                assert_eq!(a.creases[edge].to_bits(), below.creases[next].to_bits());
            }
            // A one-sample grid at a shared vertex computes the same bits too.
            let single = fill(
                &fbm,
                &t,
                &GridSpec::new([0.0, 0.0], 0.5, [1, 1]).with_start([cx * 64 + 64, cz * 64 + 10]),
                GridKernel::Auto,
            );
            let vertex = 10 * n + n - 1;
            assert_eq!(
                single.values[0].to_bits(),
                a.values[vertex].to_bits(),
                "{fbm:?}"
            );
            assert_eq!(single.gradients[0], a.gradients[vertex]);
            assert_eq!(single.creases[0].to_bits(), a.creases[vertex].to_bits());
        }
    }
}

#[test]
fn a_wide_grid_and_a_small_one_agree_bit_for_bit_where_they_overlap() {
    // Wide grids sum in shorter strips than narrow ones (to stay in cache), rows 1024 samples
    // wide are padded apart, and their point windows differ; none of it may change a sample's
    // bits.
    let t = NoiseTables::from_seed(11);
    for fbm in configs() {
        for width in [1100, 1024] {
            let wide = GridSpec::new([3.0, -7.0], 0.75, [width, 40]);
            let small = GridSpec::new([3.0, -7.0], 0.75, [65, 65]).with_start([517, 3]);
            let w = fill(&fbm, &t, &wide, GridKernel::Auto);
            let s = fill(&fbm, &t, &small, GridKernel::Auto);
            // The wide grid has 40 rows: the small one's first 37 lie inside it.
            assert_window(&fbm, (&w, width), (&s, 65), [65, 37], [517, 3]);
        }
    }
}

#[test]
fn a_large_one_octave_grid_agrees_with_a_small_one_in_one_strip_or_many() {
    // One plain octave (values only) fills a large grid in one strip, whose bands are whole
    // lattice rows, unless its rows crowd a few cache sets (1024 or 1025 samples apart): then
    // in strips of 14 rows, which split bands. Neither may change a sample's bits.
    let t = NoiseTables::from_seed(13);
    for hashing in [Hashing::Table, Hashing::Integer] {
        let fbm = Fbm {
            octaves: 1,
            frequency: 1.0 / 37.0,
            hashing,
            ..Fbm::default()
        };
        for width in [1100, 1024, 1025] {
            // More than 65 536 samples (70 rows): past the size that is one strip whatever
            // the width.
            let wide = GridSpec::new([3.0, -7.0], 0.75, [width, 70]);
            let small = GridSpec::new([3.0, -7.0], 0.75, [65, 65]).with_start([517, 3]);
            let w = fill_values(&fbm, &t, &wide);
            let s = fill_values(&fbm, &t, &small);
            assert_window(&fbm, (&w, width), (&s, 65), [65, 65], [517, 3]);
            assert!(
                w.values.iter().any(|v| v.abs() > 0.1),
                "a flat grid proves nothing"
            );
        }
    }
}

#[test]
fn a_grid_taller_than_a_strip_agrees_with_a_small_one_across_the_strip_edges() {
    // Each strip (at most 128 rows, 32 eroded) restarts its bands, point windows and erosion
    // cells. A window across the edges between strips of a tall grid must not see them.
    let t = NoiseTables::from_seed(12);
    assert!(configs().iter().any(|f| f.erosion.is_some()));
    for fbm in configs() {
        let tall = GridSpec::new([-20.0, 45.0], 0.9, [65, 300]);
        let small = GridSpec::new([-20.0, 45.0], 0.9, [33, 33]).with_start([16, 240]);
        let w = fill(&fbm, &t, &tall, GridKernel::Auto);
        let s = fill(&fbm, &t, &small, GridKernel::Auto);
        assert_window(&fbm, (&w, 65), (&s, 33), [33, 33], [16, 240]);
    }
}

#[test]
fn creases_are_a_mask_and_plain_noise_is_neutral() {
    let t = NoiseTables::from_seed(21);
    let spec = GridSpec::new([0.0, 0.0], 2.0, [129, 129]);
    for fbm in configs() {
        let f = fill(&fbm, &t, &spec, GridKernel::Auto);
        if fbm.erosion.is_some() {
            assert!(f.creases.iter().all(|c| (0.0..=1.0).contains(c)), "{fbm:?}");
            // Both gullies and ridges occur.
            assert!(f.creases.iter().any(|&c| c > 0.8) && f.creases.iter().any(|&c| c < 0.2));
        } else {
            assert!(f.creases.iter().all(|&c| c == 0.5), "{fbm:?}");
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
    let mut g = vec![[0.0; 2]; 16];
    let mut c = vec![0.0; 17];
    assert!(matches!(
        fbm.fill_grid_with_creases(&t, &spec, &mut v, &mut g, &mut c),
        Err(GridError::BufferLength {
            buffer: "creases",
            ..
        })
    ));
    let huge = GridSpec::new([0.0, 0.0], 1.0, [usize::MAX, 2]);
    assert_eq!(fbm.fill_grid(&t, &huge, &mut v), Err(GridError::TooLarge));
    let empty = GridSpec::new([0.0, 0.0], 1.0, [0, 5]);
    assert_eq!(fbm.fill_grid(&t, &empty, &mut []), Ok(()));
}

#[test]
fn fill_grid2_and_fill_grid_at_are_the_documented_entry_points() {
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
    let mut same = vec![0.0f32; width * height];
    fbm.fill_grid_at(&t, origin, step, width, height, &mut same);
    assert_eq!(bits(&out), bits(&same));
    let mut worst = 0.0f64;
    for j in 0..height {
        for i in 0..width {
            let x = origin[0] + i as f64 * step;
            let y = origin[1] + j as f64 * step;
            let error = (out[j * width + i] as f64 - fbm.sample2(&t, x, y)).abs();
            worst = worst.max(error);
        }
    }
    assert!(worst < 1e-5, "grid differs from sample2 by {worst}");
    assert!(
        out.iter().any(|v| v.abs() > 0.1),
        "a flat grid proves nothing"
    );

    // A mis-sized buffer cannot pass for terrain.
    let mut short = vec![0.0f32; width * height - 1];
    fbm.fill_grid2(&t, origin, step, width, height, &mut short);
    assert!(short.iter().all(|v| v.is_nan()));
}

/// FNV-1a over the value bits, then the gradient bits.
fn grid_hash(fbm: &Fbm) -> u64 {
    let t = NoiseTables::from_seed(42);
    let spec = GridSpec::new([-100.0, 250.0], 0.5, [97, 61]).with_start([-3, 7]);
    let f = fill(fbm, &t, &spec, GridKernel::Auto);
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let words = f
        .values
        .iter()
        .map(|v| v.to_bits())
        .chain(f.gradients.iter().flat_map(|g| g.map(f32::to_bits)));
    for word in words {
        for byte in word.to_le_bytes() {
            hash = (hash ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

#[test]
fn golden_hashes_of_seeded_grids() {
    // The terrain of seed 42 under a 6-octave FBM, pinned: any change to tables, generators,
    // FBM or grid path that moves a single bit shows up here, and must be a deliberate change of
    // these numbers. (Every kernel gives these bits; see above.)
    let fbm = Fbm {
        octaves: 6,
        frequency: 1.0 / 32.0,
        ..Fbm::default()
    };
    // Table hashing: the same bits as before the grid path covered every configuration.
    let table = grid_hash(&Fbm {
        hashing: Hashing::Table,
        ..fbm
    });
    assert_eq!(
        table, GOLDEN_TABLE,
        "table-hashed terrain changed: {table:#018x}"
    );
    let integer = grid_hash(&fbm);
    assert_eq!(
        integer, GOLDEN_INTEGER,
        "the default terrain changed: {integer:#018x}"
    );
}

const GOLDEN_TABLE: u64 = 0x96fc_7ac9_de06_fafd;
const GOLDEN_INTEGER: u64 = 0x4b16_4d1a_60a3_5747;
