//! 2D fractal noise over a grid, 129² and 1024² samples: ours against the crates a user could
//! pick instead, every contender on the same grid in the same run. Six groups:
//!
//! - `perlin{1,6}`: Perlin FBM, 1 and 6 octaves (ours with the default integer hashing and with
//!   table hashing, both kernels; quick-noise's grid path; noise and fastnoise-lite per sample);
//! - `simplex6`, `value6`: the same sum over simplex and value noise;
//! - `warped6`: a single-octave domain warp, then 6 octaves of Perlin at the warped points;
//! - `eroded6`: ours only (no peer has a pointwise erosion filter), against the same FBM plain;
//! - `matrix …`: Perlin FBM over grid shapes (65², 129², 1000 × 777, 1024²), frequencies (1/256
//!   and 1/100, which is not a power of two) and octaves (1, 2, 6): ours with integer and with
//!   table hashing beside quick-noise, interleaved cell by cell.
//!
//! Except in the matrix: frequency 1/64 per sample spacing, lacunarity 2, persistence ½, so the top of six octaves
//! still has two samples per lattice cell.
//!
//! `cargo bench -p perlin-core --bench fbm_grid`; criterion prints time per grid and throughput
//! in samples per second (per-sample time = 1 / throughput).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use perlin_core::prelude::*;
use std::hint::black_box;
use std::time::Duration;

const FREQUENCY: f64 = 1.0 / 64.0;
const ORIGIN: [f64; 2] = [1000.0, -2000.0];
const SIZES: [usize; 2] = [129, 1024];
/// The warp: 24 samples of displacement at a frequency of 1/256 per sample.
const WARP: DomainWarp = DomainWarp {
    amplitude: 24.0,
    frequency: 1.0 / 256.0,
};

/// The matrix's grid shapes, `[width, height]`.
const MATRIX_SHAPES: [[usize; 2]; 4] = [[65, 65], [129, 129], [1000, 777], [1024, 1024]];
/// The matrix's frequencies per sample spacing, with their labels: a power of two and not.
const MATRIX_FREQUENCIES: [(f64, &str); 2] = [(1.0 / 256.0, "1/256"), (1.0 / 100.0, "1/100")];

/// quick-noise's grid path behind its own runtime SIMD dispatch, as its README recommends
/// when `target-cpu=native` is not set (the same footing as our runtime detection).
#[quick_noise::simd::dispatch_simd(A)]
fn quick_noise_perlin(
    octaves: usize,
    frequency: f64,
    [width, height]: [usize; 2],
    out: &mut [f32],
) {
    quick_noise::Grid::<2, A>::new(width, height)
        .sample_position(ORIGIN[0], ORIGIN[1])
        .seed(1)
        .builder::<quick_noise::Fbm, quick_noise::Perlin>()
        .octaves(octaves)
        .frequency(frequency as f32)
        .lacunarity(2.0)
        .persistence(0.5)
        .fill(out)
}

#[quick_noise::simd::dispatch_simd(A)]
fn quick_noise_value(size: usize, out: &mut [f32]) {
    quick_noise::Grid::<2, A>::new(size, size)
        .sample_position(ORIGIN[0], ORIGIN[1])
        .seed(1)
        .builder::<quick_noise::Fbm, quick_noise::Value>()
        .octaves(6)
        .frequency(FREQUENCY as f32)
        .lacunarity(2.0)
        .persistence(0.5)
        .fill(out)
}

/// quick-noise has no simplex grid path; its batch path takes the grid's coordinates.
#[quick_noise::simd::dispatch_simd(A)]
fn quick_noise_simplex(size: usize, out: &mut [f32]) {
    let grid = quick_noise::Grid::<2, A>::new(size, size).sample_position(ORIGIN[0], ORIGIN[1]);
    quick_noise::BatchNoise::<2, quick_noise::Fbm, quick_noise::Simplex>::builder(
        grid.x_iter(),
        grid.y_iter(),
    )
    .seed(1)
    .octaves(6)
    .frequency(FREQUENCY as f32)
    .lacunarity(2.0)
    .persistence(0.5)
    .fill(out)
}

/// quick-noise's warp: two single-octave grid noises displace the batch path's samples.
#[quick_noise::simd::dispatch_simd(A)]
fn quick_noise_warped(size: usize, out: &mut [f32]) {
    let grid = quick_noise::Grid::<2, A>::new(size, size).sample_position(ORIGIN[0], ORIGIN[1]);
    let offset = |seed| {
        grid.builder::<quick_noise::Fbm, quick_noise::Perlin>()
            .seed(seed)
            .octaves(1)
            .frequency(WARP.frequency as f32)
            .into_iter()
    };
    grid.warp_builder::<quick_noise::Fbm, quick_noise::Perlin>(
        WARP.amplitude as f32,
        offset(2),
        offset(3),
    )
    .seed(1)
    .octaves(6)
    .frequency(FREQUENCY as f32)
    .lacunarity(2.0)
    .persistence(0.5)
    .fill(out)
}

/// Calls `f` at every sample of the `size × size` grid, row-major.
fn per_sample(size: usize, out: &mut [f32], f: impl Fn(f64, f64) -> f32) {
    for (k, o) in out.iter_mut().enumerate() {
        *o = f(ORIGIN[0] + (k % size) as f64, ORIGIN[1] + (k / size) as f64);
    }
}

fn fastnoise(noise: fastnoise_lite::NoiseType, octaves: u32) -> fastnoise_lite::FastNoiseLite {
    let mut f = fastnoise_lite::FastNoiseLite::with_seed(1);
    f.set_noise_type(Some(noise));
    f.set_fractal_type(Some(fastnoise_lite::FractalType::FBm));
    f.set_fractal_octaves(Some(octaves as i32));
    f.set_frequency(Some(FREQUENCY as f32));
    f.set_fractal_lacunarity(Some(2.0));
    f.set_fractal_gain(Some(0.5));
    f
}

fn noise_rs<T: Default + noise::Seedable + Clone>(octaves: u32) -> noise::Fbm<T> {
    use noise::MultiFractal;
    noise::Fbm::<T>::new(1)
        .set_octaves(octaves as usize)
        .set_frequency(FREQUENCY)
        .set_lacunarity(2.0)
        .set_persistence(0.5)
}

fn ours(octaves: u32) -> Fbm {
    Fbm {
        octaves,
        frequency: FREQUENCY,
        ..Fbm::default()
    }
}

/// A peer's fill of a `size × size` grid, with its name.
type Peer<'a> = (&'a str, &'a dyn Fn(usize, &mut [f32]));

/// The arms every group has: ours (fill, fill with gradient), and a named list of peers.
fn group(c: &mut Criterion, name: &str, fbm: Fbm, extra: &[(&str, Fbm)], peers: &[Peer]) {
    let tables = NoiseTables::from_seed(1);
    let mut group = c.benchmark_group(name);
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for size in SIZES {
        let n = size * size;
        group.throughput(Throughput::Elements(n as u64));
        let spec = GridSpec::new(ORIGIN, 1.0, [size, size]);
        let mut out = vec![0.0f32; n];
        let mut grads = vec![[0.0f32; 2]; n];
        let id = |name: &str| BenchmarkId::new(name, size);
        group.bench_function(id("perlin-core grid"), |b| {
            b.iter(|| fbm.fill_grid(&tables, black_box(&spec), &mut out))
        });
        group.bench_function(id("perlin-core grid + gradient"), |b| {
            b.iter(|| {
                let fill = GridFill::new(&mut out).gradients(&mut grads);
                fbm.fill(&tables, black_box(&spec), fill)
            })
        });
        for (label, other) in extra {
            group.bench_function(id(label), |b| {
                b.iter(|| other.fill_grid(&tables, black_box(&spec), &mut out))
            });
        }
        for (label, fill) in peers {
            group.bench_function(id(label), |b| b.iter(|| fill(size, black_box(&mut out))));
        }
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    use fastnoise_lite::NoiseType;
    use noise::NoiseFn;
    let tables = NoiseTables::from_seed(1);
    for octaves in [1u32, 6] {
        let fbm = ours(octaves);
        let scalar = |size: usize, out: &mut [f32]| {
            let spec = GridSpec::new(ORIGIN, 1.0, [size, size]);
            let _ = fbm.fill(&tables, &spec, GridFill::new(out).simd(SimdLevel::Scalar));
        };
        let point = |size: usize, out: &mut [f32]| {
            per_sample(size, out, |x, y| fbm.sample2(&tables, x, y) as f32)
        };
        let quick = |size: usize, out: &mut [f32]| {
            quick_noise_perlin(octaves as usize, FREQUENCY, [size, size], out)
        };
        let rs = noise_rs::<noise::Perlin>(octaves);
        let noise_rs =
            |size: usize, out: &mut [f32]| per_sample(size, out, |x, y| rs.get([x, y]) as f32);
        let fl = fastnoise(NoiseType::Perlin, octaves);
        let fastnoise = |size: usize, out: &mut [f32]| {
            per_sample(size, out, |x, y| fl.get_noise_2d(x as f32, y as f32))
        };
        group(
            c,
            &format!("perlin{octaves}"),
            fbm,
            &[(
                "perlin-core grid, table hashing",
                Fbm {
                    hashing: Hashing::Table,
                    ..fbm
                },
            )],
            &[
                ("perlin-core grid, scalar twin", &scalar),
                ("quick-noise 0.3 grid", &quick),
                ("perlin-core Fbm::sample2 per sample", &point),
                ("noise 0.9 per sample", &noise_rs),
                ("fastnoise-lite 1.1 per sample", &fastnoise),
            ],
        );
    }

    let simplex = Fbm {
        base: BaseNoise::Simplex,
        ..ours(6)
    };
    let rs = noise_rs::<noise::Simplex>(6);
    let fl = fastnoise(NoiseType::OpenSimplex2, 6);
    group(
        c,
        "simplex6",
        simplex,
        &[],
        &[
            ("quick-noise 0.3 batch", &|size, out| {
                quick_noise_simplex(size, out)
            }),
            ("noise 0.9 per sample", &|size, out| {
                per_sample(size, out, |x, y| rs.get([x, y]) as f32)
            }),
            (
                "fastnoise-lite 1.1 OpenSimplex2 per sample",
                &|size, out| per_sample(size, out, |x, y| fl.get_noise_2d(x as f32, y as f32)),
            ),
        ],
    );

    let value = Fbm {
        base: BaseNoise::Value,
        interpolation: Interpolation::Linear,
        ..ours(6)
    };
    let rs = noise_rs::<noise::Value>(6);
    let fl = fastnoise(NoiseType::Value, 6);
    group(
        c,
        "value6",
        value,
        &[(
            "perlin-core grid, cubic",
            Fbm {
                interpolation: Interpolation::Cubic,
                ..value
            },
        )],
        &[
            ("quick-noise 0.3 grid", &|size, out| {
                quick_noise_value(size, out)
            }),
            ("noise 0.9 per sample", &|size, out| {
                per_sample(size, out, |x, y| rs.get([x, y]) as f32)
            }),
            ("fastnoise-lite 1.1 per sample", &|size, out| {
                per_sample(size, out, |x, y| fl.get_noise_2d(x as f32, y as f32))
            }),
        ],
    );

    let warped = Fbm {
        warp: Some(WARP),
        ..ours(6)
    };
    let rs = noise_rs::<noise::Perlin>(6);
    let (wx, wy) = (noise::Perlin::new(2), noise::Perlin::new(3));
    let noise_rs_warped = |size: usize, out: &mut [f32]| {
        per_sample(size, out, |x, y| {
            let (u, v) = (x * WARP.frequency, y * WARP.frequency);
            let (dx, dy) = (wx.get([u, v]), wy.get([u, v]));
            rs.get([x + WARP.amplitude * dx, y + WARP.amplitude * dy]) as f32
        })
    };
    let mut fl = fastnoise(NoiseType::Perlin, 6);
    fl.set_domain_warp_type(Some(fastnoise_lite::DomainWarpType::BasicGrid));
    fl.set_domain_warp_amp(Some(WARP.amplitude as f32));
    let fastnoise_warped = |size: usize, out: &mut [f32]| {
        per_sample(size, out, |x, y| {
            let (x, y) = fl.domain_warp_2d(x as f32, y as f32);
            fl.get_noise_2d(x, y)
        })
    };
    group(
        c,
        "warped6",
        warped,
        &[("perlin-core grid, plain (no warp)", ours(6))],
        &[
            ("quick-noise 0.3 warp (batch)", &|size, out| {
                quick_noise_warped(size, out)
            }),
            ("noise 0.9 per sample", &noise_rs_warped),
            (
                "fastnoise-lite 1.1 domain warp per sample",
                &fastnoise_warped,
            ),
        ],
    );

    let eroded = Fbm {
        erosion: Some(Erosion::default()),
        ..ours(6)
    };
    group(
        c,
        "eroded6",
        eroded,
        &[("perlin-core grid, plain (no erosion)", ours(6))],
        &[],
    );
}

/// Perlin FBM over every shape, frequency and octave count of the matrix: ours (integer and
/// table hashing) and quick-noise, one after the other on the same grid, so each cell's
/// ratios come from one stretch of the run.
fn matrix(c: &mut Criterion) {
    let tables = NoiseTables::from_seed(1);
    for shape in MATRIX_SHAPES {
        let [width, height] = shape;
        let n = width * height;
        let spec = GridSpec::new(ORIGIN, 1.0, shape);
        let mut out = vec![0.0f32; n];
        for (frequency, label) in MATRIX_FREQUENCIES {
            let mut group = c.benchmark_group(format!("matrix {width}x{height} f={label}"));
            group
                .sample_size(15)
                .warm_up_time(Duration::from_millis(300))
                .measurement_time(Duration::from_secs(1))
                .throughput(Throughput::Elements(n as u64));
            for octaves in [1u32, 2, 6] {
                let integer = Fbm {
                    octaves,
                    frequency,
                    ..Fbm::default()
                };
                let table = Fbm {
                    hashing: Hashing::Table,
                    ..integer
                };
                let id = |name: &str| BenchmarkId::new(name, octaves);
                group.bench_function(id("perlin-core integer"), |b| {
                    b.iter(|| integer.fill_grid(&tables, black_box(&spec), &mut out))
                });
                group.bench_function(id("perlin-core table"), |b| {
                    b.iter(|| table.fill_grid(&tables, black_box(&spec), &mut out))
                });
                group.bench_function(id("quick-noise 0.3"), |b| {
                    b.iter(|| {
                        quick_noise_perlin(octaves as usize, frequency, shape, black_box(&mut out))
                    })
                });
            }
            group.finish();
        }
    }
}

criterion_group!(fbm_grid, benches, matrix);
criterion_main!(fbm_grid);
