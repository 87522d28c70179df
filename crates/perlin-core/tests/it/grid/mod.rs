//! The grid path: every SIMD level the CPU has gives the same bits, the grid equals the point
//! function, shared edges are seamless, and this holds for every configuration (every base,
//! fractal mode, hashing, warp, contrast and erosion).
//!
//! The helpers and the configurations are here; `kernels.rs` compares the SIMD levels and pins
//! the entry points, their errors and the golden hashes; `seams.rs` holds grids to the point
//! function and to each other where they overlap.

mod kernels;
mod seams;

use perlin_core::prelude::*;

/// Values, gradients and creases of a grid.
/// A grid's values, gradients and creases.
pub(crate) struct Filled {
    pub(crate) values: Vec<f32>,
    pub(crate) gradients: Vec<[f32; 2]>,
    pub(crate) creases: Vec<f32>,
}

/// Every output of a grid under `detail`, with the kernel of `level`.
pub(crate) fn fill_detailed(
    fbm: &Fbm,
    t: &NoiseTables,
    spec: &GridSpec,
    level: SimdLevel,
    detail: Detail,
) -> Filled {
    let n = spec.size[0] * spec.size[1];
    let mut f = Filled {
        values: vec![0.0; n],
        gradients: vec![[0.0; 2]; n],
        creases: vec![0.0; n],
    };
    let buffers = GridFill::new(&mut f.values)
        .gradients(&mut f.gradients)
        .creases(&mut f.creases)
        .detail(detail)
        .simd(level);
    fbm.fill(t, spec, buffers)
        .expect("sizes match and the SIMD level is available");
    f
}

/// Every output of a grid at full detail.
fn fill(fbm: &Fbm, t: &NoiseTables, spec: &GridSpec, level: SimdLevel) -> Filled {
    fill_detailed(fbm, t, spec, level, Detail::FULL)
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
