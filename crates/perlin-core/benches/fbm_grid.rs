//! 2D Perlin FBM over a grid, 1 and 6 octaves, 129² and 1024² samples: ours against the
//! crates a user could pick instead, every contender on the same grid in the same run.
//! Frequency 1/64 per sample spacing, lacunarity 2, persistence ½, so the top of six octaves
//! still has two samples per lattice cell.
//!
//! `cargo bench -p perlin-core --bench fbm_grid`; criterion prints time per grid and
//! throughput in samples per second (per-sample time = 1 / throughput).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use perlin_core::grid::GridKernel;
use perlin_core::prelude::*;
use std::hint::black_box;
use std::time::Duration;

const FREQUENCY: f64 = 1.0 / 64.0;
const ORIGIN: [f64; 2] = [1000.0, -2000.0];
const SIZES: [usize; 2] = [129, 1024];

/// quick-noise's grid path behind its own runtime SIMD dispatch, as its README recommends
/// when `target-cpu=native` is not set (the same footing as our runtime detection).
#[quick_noise::simd::dispatch_simd(A)]
fn quick_noise_fill(octaves: usize, size: usize, out: &mut [f32]) {
    quick_noise::Grid::<2, A>::new(size, size)
        .sample_position(ORIGIN[0], ORIGIN[1])
        .seed(1)
        .builder::<quick_noise::Fbm, quick_noise::Perlin>()
        .octaves(octaves)
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

fn fbm_grid(c: &mut Criterion) {
    let tables = NoiseTables::from_seed(1);
    for octaves in [1u32, 6] {
        let fbm = Fbm {
            octaves,
            frequency: FREQUENCY,
            ..Fbm::default()
        };
        let noise_rs = {
            use noise::MultiFractal;
            noise::Fbm::<noise::Perlin>::new(1)
                .set_octaves(octaves as usize)
                .set_frequency(FREQUENCY)
                .set_lacunarity(2.0)
                .set_persistence(0.5)
        };
        let mut fastnoise = fastnoise_lite::FastNoiseLite::with_seed(1);
        fastnoise.set_noise_type(Some(fastnoise_lite::NoiseType::Perlin));
        fastnoise.set_fractal_type(Some(fastnoise_lite::FractalType::FBm));
        fastnoise.set_fractal_octaves(Some(octaves as i32));
        fastnoise.set_frequency(Some(FREQUENCY as f32));
        fastnoise.set_fractal_lacunarity(Some(2.0));
        fastnoise.set_fractal_gain(Some(0.5));

        let mut group = c.benchmark_group(format!("fbm{octaves}_grid"));
        group.sample_size(20).warm_up_time(Duration::from_secs(1));
        for size in SIZES {
            let n = size * size;
            group.throughput(Throughput::Elements(n as u64));
            let spec = GridSpec::new(ORIGIN, 1.0, [size, size]);
            let mut out = vec![0.0f32; n];
            let mut grads = vec![[0.0f32; 2]; n];
            let id = |name: &str| BenchmarkId::new(name, size);
            group.bench_function(id("perlin-core grid (auto SIMD)"), |b| {
                b.iter(|| fbm.fill_grid(&tables, black_box(&spec), &mut out))
            });
            group.bench_function(id("perlin-core grid + gradient"), |b| {
                b.iter(|| {
                    fbm.fill_grid_with_gradient(&tables, black_box(&spec), &mut out, &mut grads)
                })
            });
            group.bench_function(id("perlin-core grid (scalar twin)"), |b| {
                b.iter(|| {
                    let spec = black_box(&spec);
                    fbm.fill_grid_using(GridKernel::Scalar, &tables, spec, &mut out, None)
                })
            });
            group.bench_function(id("quick-noise 0.3 grid (runtime SIMD)"), |b| {
                b.iter(|| quick_noise_fill(octaves as usize, size, black_box(out.as_mut_slice())))
            });
            group.bench_function(id("perlin-core Fbm::sample2 per sample"), |b| {
                b.iter(|| per_sample(size, &mut out, |x, y| fbm.sample2(&tables, x, y) as f32))
            });
            group.bench_function(id("noise 0.9 Fbm<Perlin> per sample"), |b| {
                use noise::NoiseFn;
                b.iter(|| per_sample(size, &mut out, |x, y| noise_rs.get([x, y]) as f32))
            });
            group.bench_function(id("fastnoise-lite 1.1 FBm per sample"), |b| {
                b.iter(|| {
                    per_sample(size, &mut out, |x, y| {
                        fastnoise.get_noise_2d(x as f32, y as f32)
                    })
                })
            });
        }
        group.finish();
    }
}

criterion_group!(benches, fbm_grid);
criterion_main!(benches);
