//! 6-octave 2D Perlin FBM over a grid, ours against the crates a user could pick instead,
//! measured in the same run. Every contender: frequency 1/64 per sample spacing, lacunarity 2,
//! persistence ½, so the top octave still has two samples per lattice cell.
//!
//! `cargo bench -p perlin-core --bench fbm_grid`; criterion prints time per iteration and
//! throughput in samples per second (per-sample time = 1 / throughput).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use perlin_core::grid::GridKernel;
use perlin_core::prelude::*;
use std::hint::black_box;

const OCTAVES: u32 = 6;
const FREQUENCY: f64 = 1.0 / 64.0;
const ORIGIN: [f64; 2] = [1000.0, -2000.0];

fn ours() -> Fbm {
    Fbm {
        octaves: OCTAVES,
        frequency: FREQUENCY,
        ..Fbm::default()
    }
}

/// quick-noise's grid path behind its own runtime SIMD dispatch, as its README recommends
/// when `target-cpu=native` is not set (the same footing as our runtime detection).
#[quick_noise::simd::dispatch_simd(A)]
fn quick_noise_fill(size: usize, out: &mut [f32]) {
    quick_noise::Grid::<2, A>::new(size, size)
        .sample_position(ORIGIN[0], ORIGIN[1])
        .seed(1)
        .builder::<quick_noise::Fbm, quick_noise::Perlin>()
        .octaves(OCTAVES as usize)
        .frequency(FREQUENCY as f32)
        .lacunarity(2.0)
        .persistence(0.5)
        .fill(out)
}

fn grid(c: &mut Criterion) {
    let tables = NoiseTables::new(1);
    let fbm = ours();
    let mut group = c.benchmark_group("fbm6_grid");
    for size in [129usize, 512] {
        let n = size * size;
        group.throughput(Throughput::Elements(n as u64));
        let spec = GridSpec::new(ORIGIN, 1.0, [size, size]);
        let mut out = vec![0.0f32; n];
        let mut grads = vec![[0.0f32; 2]; n];
        group.bench_with_input(
            BenchmarkId::new("perlin-core grid (auto SIMD)", size),
            &size,
            |b, _| b.iter(|| fbm.fill_grid(&tables, black_box(&spec), &mut out)),
        );
        group.bench_with_input(
            BenchmarkId::new("perlin-core grid + gradient", size),
            &size,
            |b, _| {
                b.iter(|| {
                    fbm.fill_grid_with_gradient(&tables, black_box(&spec), &mut out, &mut grads)
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("perlin-core grid (scalar twin)", size),
            &size,
            |b, _| {
                b.iter(|| {
                    fbm.fill_grid_using(
                        GridKernel::Scalar,
                        &tables,
                        black_box(&spec),
                        &mut out,
                        None,
                    )
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("quick-noise 0.3 grid (runtime SIMD)", size),
            &size,
            |b, _| b.iter(|| quick_noise_fill(size, black_box(out.as_mut_slice()))),
        );
    }
    group.finish();
}

fn point(c: &mut Criterion) {
    let tables = NoiseTables::new(1);
    let fbm = ours();
    let size = 129usize;
    let n = size * size;
    let mut out = vec![0.0f32; n];
    let mut group = c.benchmark_group("fbm6_per_sample");
    group.throughput(Throughput::Elements(n as u64));
    let each = |out: &mut [f32], f: &dyn Fn(f64, f64) -> f32| {
        for (k, o) in out.iter_mut().enumerate() {
            *o = f(ORIGIN[0] + (k % size) as f64, ORIGIN[1] + (k / size) as f64);
        }
    };
    group.bench_function("perlin-core Fbm::sample2", |b| {
        b.iter(|| each(&mut out, &|x, y| fbm.sample2(&tables, x, y) as f32))
    });
    group.bench_function("noise 0.9 Fbm<Perlin>", |b| {
        use noise::{MultiFractal, NoiseFn};
        let f = noise::Fbm::<noise::Perlin>::new(1)
            .set_octaves(OCTAVES as usize)
            .set_frequency(FREQUENCY)
            .set_lacunarity(2.0)
            .set_persistence(0.5);
        b.iter(|| each(&mut out, &|x, y| f.get([x, y]) as f32))
    });
    group.bench_function("fastnoise-lite 1.1 FBm Perlin", |b| {
        use fastnoise_lite::{FastNoiseLite, FractalType, NoiseType};
        let mut f = FastNoiseLite::with_seed(1);
        f.set_noise_type(Some(NoiseType::Perlin));
        f.set_fractal_type(Some(FractalType::FBm));
        f.set_fractal_octaves(Some(OCTAVES as i32));
        f.set_frequency(Some(FREQUENCY as f32));
        f.set_fractal_lacunarity(Some(2.0));
        f.set_fractal_gain(Some(0.5));
        b.iter(|| each(&mut out, &|x, y| f.get_noise_2d(x as f32, y as f32)))
    });
    group.finish();
}

criterion_group!(benches, grid, point);
criterion_main!(benches);
