//! What scattering costs: placing each of the default preset's layers on one chunk, against
//! building that chunk's mesh buffers in the same run (the count of instances is printed, for
//! the cost per instance).
//!
//! `cargo bench --profile dev --workspace --bench scatter` (sharing the test build).

use bevy::math::IVec2;
use bevy_perlin_terrain::TerrainSampler;
use bevy_perlin_terrain::chunk::{ChunkJob, build_chunk_mesh};
use bevy_perlin_terrain::perlin_core::NoiseTables;
use bevy_perlin_terrain::scatter::{ScatterJob, place_scatter};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;
use terrain_test_support::preset;

fn scatter(c: &mut Criterion) {
    let mut group = c.benchmark_group("scatter");
    let config = preset("default");
    let sampler = TerrainSampler::new(Arc::new(NoiseTables::from_seed(config.seed)), &config);
    for (index, layer) in config.scatter.iter().enumerate() {
        // A chunk with some of everything: the grassy woods the fly example starts over.
        let job = ScatterJob::new(sampler.clone(), &config, index, IVec2::new(0, -2))
            .unwrap_or_else(|| panic!("layer {index}"));
        eprintln!(
            "scatter {}: {} instances in chunk (0, -2)",
            layer.name,
            place_scatter(&job).len()
        );
        group.bench_function(BenchmarkId::new("place one chunk", &layer.name), |b| {
            b.iter(|| place_scatter(black_box(&job)))
        });
    }
    let mesh =
        ChunkJob::new(sampler.tables().clone(), &config, IVec2::new(0, -2), 0).without_colors();
    group.bench_function("mesh buffers of that chunk", |b| {
        b.iter(|| build_chunk_mesh(black_box(&mesh)))
    });
    group.finish();
}

criterion_group!(benches, scatter);
criterion_main!(benches);
