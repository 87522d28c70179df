//! One chunk, heights + normals + mesh buffers + `Mesh`, ours against the path a user would
//! hand-roll (noise 0.9 per vertex, `Mesh::compute_smooth_normals`), in the same run, on one
//! thread. Both: 6 octaves of Perlin FBM, lacunarity 2, persistence ½, 1 m vertex spacing.

use bevy::asset::RenderAssetUsages;
use bevy::math::IVec2;
use bevy::mesh::{Indices, Mesh, PrimitiveTopology};
use bevy_perlin_terrain::TerrainConfig;
use bevy_perlin_terrain::chunk::{ChunkJob, build_chunk_mesh};
use bevy_perlin_terrain::heights::heights_and_normals;
use bevy_perlin_terrain::perlin_core::{Fbm, NoiseTables};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use noise::{MultiFractal, NoiseFn};
use std::hint::black_box;
use std::sync::Arc;

const FREQUENCY: f64 = 1.0 / 256.0;

fn config(resolution: u32) -> TerrainConfig {
    TerrainConfig {
        noise: Fbm {
            octaves: 6,
            frequency: FREQUENCY,
            ..Fbm::default()
        },
        chunk_size: (resolution - 1) as f32,
        chunk_resolution: resolution,
        lod_distances: vec![],
        ..TerrainConfig::default()
    }
}

/// The hand-rolled chunk: noise per vertex, positions, UVs, indices, smooth normals.
fn hand_rolled(
    fbm: &noise::Fbm<noise::Perlin>,
    resolution: usize,
    coord: IVec2,
    height_scale: f32,
) -> Mesh {
    let quads = resolution - 1;
    let mut positions = Vec::with_capacity(resolution * resolution);
    let mut uvs = Vec::with_capacity(resolution * resolution);
    for j in 0..resolution {
        for i in 0..resolution {
            let x = (coord.x as i64 * quads as i64 + i as i64) as f64;
            let z = (coord.y as i64 * quads as i64 + j as i64) as f64;
            let h = fbm.get([x, z]) as f32 * height_scale;
            positions.push([i as f32, h, j as f32]);
            uvs.push([i as f32 / quads as f32, j as f32 / quads as f32]);
        }
    }
    let mut indices = Vec::with_capacity(quads * quads * 6);
    for j in 0..quads {
        for i in 0..quads {
            let v = (j * resolution + i) as u32;
            let r = resolution as u32;
            indices.extend_from_slice(&[v, v + r, v + 1, v + 1, v + r, v + r + 1]);
        }
    }
    let mut mesh = Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
    .with_inserted_indices(Indices::U32(indices));
    mesh.compute_smooth_normals();
    mesh
}

fn chunk(c: &mut Criterion) {
    let mut group = c.benchmark_group("chunk_mesh");
    let coord = IVec2::new(3, -2);
    for resolution in [65u32, 129] {
        let config = config(resolution);
        group.throughput(Throughput::Elements((resolution * resolution) as u64));
        let job = ChunkJob::new(
            Arc::new(NoiseTables::from_seed(config.seed)),
            &config,
            coord,
            0,
        );
        group.bench_with_input(
            BenchmarkId::new("bevy_perlin_terrain: heights + normals only", resolution),
            &job,
            |b, job| {
                b.iter(|| {
                    heights_and_normals(&job.tables, &job.noise, job.height_scale, &job.grid())
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("bevy_perlin_terrain: buffers, no Mesh", resolution),
            &job,
            |b, job| b.iter(|| build_chunk_mesh(black_box(job))),
        );
        group.bench_with_input(
            BenchmarkId::new("bevy_perlin_terrain", resolution),
            &job,
            |b, job| b.iter(|| build_chunk_mesh(black_box(job)).into_mesh()),
        );
        let fbm = noise::Fbm::<noise::Perlin>::new(config.seed as u32)
            .set_octaves(6)
            .set_frequency(FREQUENCY)
            .set_lacunarity(2.0)
            .set_persistence(0.5);
        group.bench_with_input(
            BenchmarkId::new("noise 0.9 + compute_smooth_normals", resolution),
            &fbm,
            |b, fbm| {
                b.iter(|| {
                    hand_rolled(
                        black_box(fbm),
                        resolution as usize,
                        coord,
                        config.height_scale,
                    )
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, chunk);
criterion_main!(benches);
