//! One chunk, heights + normals + mesh buffers + `Mesh`, ours against the path a user would
//! hand-roll (noise 0.9 per vertex, `Mesh::compute_smooth_normals`), in the same run, on one
//! thread. Both: 6 octaves of Perlin FBM, lacunarity 2, persistence ½, 1 m vertex spacing.
//!
//! Two groups, because a chunk's cost depends on where its ~1 MB of buffers comes from:
//! - `chunk_mesh`: every chunk is dropped as soon as it is built. glibc then hands the freed
//!   memory back to the kernel, and the next chunk pays a page fault for every 4 KiB it writes.
//! - `chunk_mesh_streaming`: the last [`ALIVE`](alive::ALIVE) chunks stay alive, as meshes stay
//!   alive while they are on screen, and each new chunk replaces the oldest. The allocator reuses
//!   the freed chunk's memory, which is what happens in a streaming app.
//!
//! Two more groups measure what the terrain's configurations cost against plain Perlin noise,
//! keeping the last [`ALIVE`](alive::ALIVE) chunks alive as the streaming group does (dropped
//! chunks make each arm's time depend on what glibc did with the arm before's memory):
//! - `preset_chunk`: a full-detail chunk of each shipped preset (every `assets/terrain/` file)
//!   against the same chunk with the preset's noise (a preset with biomes: each biome's)
//!   replaced by plain Perlin FBM of the same octave count and frequency;
//! - `eroded_chunk`: a 129² chunk with the erosion filter on against the same chunk without.
//!
//! And `chunk_levels`: a chunk of each level of detail of the default preset's 12 km view (65²,
//! with its parent's surface as morph targets; the top level has none), against level 0: far
//! chunks sum only the octaves their spacing can show.
//!
//! And `chunk_edits`: a full-detail chunk of the default preset untouched, with 10 000 stamps
//! elsewhere in the world (the grid index keeps them out of its way), crossed by a road (one
//! that runs nearly straight over it, one that winds, one that turns sharply, a hairpin), and
//! inside a flat site. (The `edit_ratios` bench builds the same chunks in turn, for ratios.)
//!
//! And `chunk_biomes`: chunks of the world preset (seven biomes) against the same chunks of
//! their biomes' recipes alone (each biome's noise and height scale as a config without biomes):
//! one chunk deep inside one biome, 64 full-detail chunks spread over 400 km (as many as each
//! biome covers), and the chunks of every level of 10 km views around four viewers, each
//! against its strongest biome's recipe at its centre. Without vertex colors, as the plugin
//! builds chunks for its terrain material (which blends the biomes' looks per pixel itself).
//!
//! (The `biome_ratios` bench builds the view arm's chunks in turn, for ratios.)
//!
//! `cargo bench -p bevy_perlin_terrain --no-default-features --bench chunk` (release, without
//! the renderer), or `cargo bench --profile dev --workspace --bench chunk`.

#[path = "support/alive.rs"]
mod alive;
#[path = "support/edits.rs"]
mod edits;
#[path = "support/views.rs"]
mod views;

use alive::Alive;
use bevy::asset::RenderAssetUsages;
use bevy::math::IVec2;
use bevy::mesh::{Indices, Mesh, PrimitiveTopology};
use bevy_perlin_terrain::chunk::{ChunkJob, build_chunk_mesh};
use bevy_perlin_terrain::perlin_core::{Erosion, Fbm, GridFill, NoiseTables};
use bevy_perlin_terrain::{Biome, TerrainConfig, TerrainSampler};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use noise::{MultiFractal, NoiseFn};
use std::hint::black_box;
use std::sync::Arc;
use terrain_test_support::{preset, preset_names};

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
        // One level: the chunk has no parent to morph to, as the hand-rolled one has not.
        view_distance: 4.0 * (resolution - 1) as f32,
        lod_distance: 4.0 * (resolution - 1) as f32,
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

/// One benchmark case: our chunk job and the hand-rolled path's noise, same seed and octaves.
struct Case {
    resolution: u32,
    config: TerrainConfig,
    tables: Arc<NoiseTables>,
    job: ChunkJob,
    fbm: noise::Fbm<noise::Perlin>,
}

impl Case {
    fn new(resolution: u32) -> Self {
        let config = config(resolution);
        let tables = Arc::new(NoiseTables::from_seed(config.seed));
        let fbm = noise::Fbm::<noise::Perlin>::new(config.seed as u32)
            .set_octaves(6)
            .set_frequency(FREQUENCY)
            .set_lacunarity(2.0)
            .set_persistence(0.5);
        Self {
            resolution,
            job: ChunkJob::new(tables.clone(), &config, IVec2::new(3, -2), 0),
            config,
            tables,
            fbm,
        }
    }

    fn ours(&self) -> Mesh {
        build_chunk_mesh(black_box(&self.job)).into_mesh()
    }

    fn theirs(&self) -> Mesh {
        hand_rolled(
            black_box(&self.fbm),
            self.resolution as usize,
            self.job.coord(),
            self.config.height_scale,
        )
    }

    fn throughput(&self) -> Throughput {
        Throughput::Elements((self.resolution * self.resolution) as u64)
    }
}

fn chunk(c: &mut Criterion) {
    let cases = [Case::new(65), Case::new(129)];
    let mut group = c.benchmark_group("chunk_mesh");
    for case in &cases {
        let (job, resolution) = (&case.job, case.resolution);
        group.throughput(case.throughput());
        group.bench_function(
            BenchmarkId::new("bevy_perlin_terrain: noise samples only", resolution),
            |b| {
                let spec = job.grid();
                let n = spec.size[0] * spec.size[1];
                let (mut values, mut gradients) = (vec![0.0; n], vec![[0.0; 2]; n]);
                b.iter(|| {
                    let fill = GridFill::new(&mut values).gradients(&mut gradients);
                    case.config.noise.fill(&case.tables, black_box(&spec), fill)
                })
            },
        );
        group.bench_function(
            BenchmarkId::new("bevy_perlin_terrain: buffers, no Mesh", resolution),
            |b| b.iter(|| build_chunk_mesh(black_box(job))),
        );
        group.bench_function(BenchmarkId::new("bevy_perlin_terrain", resolution), |b| {
            b.iter(|| case.ours())
        });
        group.bench_function(
            BenchmarkId::new("noise 0.9 + compute_smooth_normals", resolution),
            |b| b.iter(|| case.theirs()),
        );
    }
    group.finish();
    let mut group = c.benchmark_group("chunk_mesh_streaming");
    for case in &cases {
        group.throughput(case.throughput());
        let mut alive = Alive::new();
        group.bench_function(
            BenchmarkId::new("bevy_perlin_terrain", case.resolution),
            |b| b.iter(|| alive.push(case.ours())),
        );
        let mut alive = Alive::new();
        group.bench_function(
            BenchmarkId::new("noise 0.9 + compute_smooth_normals", case.resolution),
            |b| b.iter(|| alive.push(case.theirs())),
        );
    }
    group.finish();
}

/// `config` with its noise, and each of its biomes' (a biome's is its ground's, the config's
/// own is then unused), replaced by plain Perlin FBM of the same octaves and frequency (and the
/// same erosion, which the comparison keeps on both sides).
fn plain_twin(config: &TerrainConfig) -> TerrainConfig {
    let plain = |noise: &Fbm| Fbm {
        octaves: noise.octaves,
        frequency: noise.frequency,
        erosion: noise.erosion,
        ..Fbm::default()
    };
    TerrainConfig {
        noise: plain(&config.noise),
        biomes: config
            .biomes
            .iter()
            .map(|biome| Biome {
                noise: plain(&biome.noise),
                ..biome.clone()
            })
            .collect(),
        ..config.clone()
    }
}

fn presets(c: &mut Criterion) {
    let mut group = c.benchmark_group("preset_chunk");
    for name in preset_names() {
        let name = name.as_str();
        let config = preset(name);
        let tables = Arc::new(NoiseTables::from_seed(config.seed));
        let coord = IVec2::new(3, -2);
        group.throughput(Throughput::Elements(
            (config.chunk_resolution * config.chunk_resolution) as u64,
        ));
        let job = ChunkJob::new(tables.clone(), &config, coord, 0);
        let mut alive = Alive::new();
        group.bench_function(BenchmarkId::new(name, "preset"), |b| {
            b.iter(|| alive.push(build_chunk_mesh(black_box(&job))))
        });
        let twin = ChunkJob::new(tables, &plain_twin(&config), coord, 0);
        let mut alive = Alive::new();
        group.bench_function(BenchmarkId::new(name, "plain Perlin twin"), |b| {
            b.iter(|| alive.push(build_chunk_mesh(black_box(&twin))))
        });
    }
    group.finish();
    let mut group = c.benchmark_group("eroded_chunk");
    let plain = config(129);
    let eroded = TerrainConfig {
        noise: Fbm {
            erosion: Some(Erosion::default()),
            ..plain.noise
        },
        ..plain.clone()
    };
    let tables = Arc::new(NoiseTables::from_seed(plain.seed));
    group.throughput(Throughput::Elements(129 * 129));
    for (label, config) in [("erosion on", &eroded), ("erosion off", &plain)] {
        let job = ChunkJob::new(tables.clone(), config, IVec2::new(3, -2), 0);
        let mut alive = Alive::new();
        group.bench_function(BenchmarkId::new(label, 129), |b| {
            b.iter(|| alive.push(build_chunk_mesh(black_box(&job))))
        });
    }
    group.finish();
}

fn levels(c: &mut Criterion) {
    let config = preset("default");
    let tables = Arc::new(NoiseTables::from_seed(config.seed));
    let mut group = c.benchmark_group("chunk_levels");
    group.throughput(Throughput::Elements(
        (config.chunk_resolution * config.chunk_resolution) as u64,
    ));
    for lod in 0..=config.max_lod() {
        let job = ChunkJob::new(tables.clone(), &config, IVec2::new(3, -2), lod).without_colors();
        let mut alive = Alive::new();
        group.bench_function(BenchmarkId::new("default preset", lod), |b| {
            b.iter(|| alive.push(build_chunk_mesh(black_box(&job))))
        });
    }
    group.finish();
}

fn edits(c: &mut Criterion) {
    let plain = preset("default");
    let tables = Arc::new(NoiseTables::from_seed(plain.seed));
    let mut group = c.benchmark_group("chunk_edits");
    group.throughput(Throughput::Elements(
        (plain.chunk_resolution * plain.chunk_resolution) as u64,
    ));
    for (label, config) in edits::edited(&plain) {
        let job = ChunkJob::new(tables.clone(), &config, edits::CHUNK, 0).without_colors();
        let mut alive = Alive::new();
        group.bench_function(BenchmarkId::new("default preset", label), |b| {
            b.iter(|| alive.push(build_chunk_mesh(black_box(&job))))
        });
    }
    group.finish();
}

/// The world preset's chunks against their biomes' recipes alone.
fn biomes(c: &mut Criterion) {
    let world = preset("world");
    let tables = Arc::new(NoiseTables::from_seed(world.seed));
    let sampler = TerrainSampler::new(tables.clone(), &world);
    let size = world.chunk_size as f64;
    let centre = |c: IVec2| ((c.x as f64 + 0.5) * size, (c.y as f64 + 0.5) * size);
    // A biome's recipe alone: its noise and height scale, no biomes.
    let alone = |c: IVec2| views::biome_alone(&world, &sampler, centre(c));
    // 64 chunks on a scrambled lattice 50 km apart, over 400 km.
    let coords: Vec<IVec2> = (0..64)
        .map(|k: i32| {
            IVec2::new(
                (k % 8) * 781 - 3000 + (k * 37) % 113,
                (k / 8) * 779 - 3000 + (k * 71) % 97,
            )
        })
        .collect();
    let mut group = c.benchmark_group("chunk_biomes");
    group.sample_size(20);
    // The first of them whose corners and centre are all one biome's.
    let inside = coords
        .iter()
        .copied()
        .find(|&c| {
            let (x, z) = (c.x as f64 * size, c.y as f64 * size);
            [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (0.5, 0.5)]
                .iter()
                .all(|(u, v)| sampler.biome_weights(x + u * size, z + v * size).len() == 1)
        })
        .unwrap_or(coords[0]);
    let name = sampler
        .biome(centre(inside).0, centre(inside).1)
        .unwrap_or_default()
        .to_string();
    for (label, config) in [("world", world.clone()), ("its biome alone", alone(inside))] {
        let job = ChunkJob::new(tables.clone(), &config, inside, 0).without_colors();
        let mut alive = Alive::new();
        group.bench_function(BenchmarkId::new(format!("inside {name}"), label), |b| {
            b.iter(|| alive.push(build_chunk_mesh(black_box(&job))))
        });
    }
    let jobs = |each: &dyn Fn(IVec2) -> TerrainConfig| -> Vec<ChunkJob> {
        coords
            .iter()
            .map(|&c| ChunkJob::new(tables.clone(), &each(c), c, 0).without_colors())
            .collect()
    };
    // The chunks of a 10 km view around four viewers, every level: each against the recipe of
    // the biome strongest at its centre.
    let (view_world, view_alone) = views::view_jobs(&world, &tables, false);
    let label = format!("{} chunks of 10 km views", view_world.len());
    for (arm, jobs) in [
        ("world", view_world),
        ("each one's biome alone", view_alone),
    ] {
        let mut alive = Alive::new();
        group.bench_function(BenchmarkId::new(label.clone(), arm), |b| {
            b.iter(|| {
                for job in &jobs {
                    alive.push(build_chunk_mesh(black_box(job)));
                }
            })
        });
    }
    for (label, jobs) in [
        ("world", jobs(&|_| world.clone())),
        ("each one's biome alone", jobs(&alone)),
    ] {
        let mut alive = Alive::new();
        group.bench_function(BenchmarkId::new("64 chunks over 400 km", label), |b| {
            b.iter(|| {
                for job in &jobs {
                    alive.push(build_chunk_mesh(black_box(job)));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, chunk, presets, levels, edits, biomes);
criterion_main!(benches);
