//! What physics costs, in the same run as its plain twins:
//! - `collider`: one chunk's heightfield collider (noise, transpose, parry's heightfield)
//!   against the same chunk's mesh buffers (without colors), at the default preset's 65² and
//!   at 129²;
//! - `fixed_step`: one 64 Hz physics step with 100 balls resting on the terrain's colliders,
//!   against the same 100 balls resting on one flat static box (the same app otherwise).
//!
//! `cargo bench --profile dev --workspace --bench physics` (the workspace turns the `avian`
//! feature on, and shares the test build).

use avian3d::prelude::*;
use bevy::math::IVec2;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_perlin_terrain::chunk::{ChunkJob, build_chunk_mesh};
use bevy_perlin_terrain::collider::{ColliderJob, build_chunk_collider};
use bevy_perlin_terrain::perlin_core::NoiseTables;
use bevy_perlin_terrain::prelude::*;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;
use terrain_test_support::{HeadlessApp, preset};

fn collider(c: &mut Criterion) {
    let mut group = c.benchmark_group("collider");
    for resolution in [65, 129] {
        let config = TerrainConfig {
            chunk_resolution: resolution,
            ..preset("default")
        };
        let tables = Arc::new(NoiseTables::from_seed(config.seed));
        let coord = IVec2::new(3, -2);
        let job = ColliderJob::new(tables.clone(), &config, coord);
        group.bench_function(BenchmarkId::new("heightfield collider", resolution), |b| {
            b.iter(|| build_chunk_collider(black_box(&job)))
        });
        let mesh = ChunkJob::new(tables, &config, coord, 0).without_colors();
        group.bench_function(BenchmarkId::new("mesh buffers", resolution), |b| {
            b.iter(|| build_chunk_mesh(black_box(&mesh)))
        });
    }
    group.finish();
}

/// A headless app with physics and the terrain (colliders around the balls) or, with `flat`,
/// one static box under the balls instead; 100 balls dropped and left to come to rest.
fn resting_balls(flat: bool) -> App {
    let config = TerrainConfig {
        height_scale: 8.0,
        ..preset("default")
    };
    let sampler = TerrainSampler::new(Arc::new(NoiseTables::from_seed(config.seed)), &config);
    let mut app = HeadlessApp::new()
        .time(TimeUpdateStrategy::FixedTimesteps(1))
        .build((
            PhysicsPlugins::default(),
            PerlinTerrainPlugin::from_config(config),
        ));
    if flat {
        app.world_mut().spawn((
            RigidBody::Static,
            Collider::cuboid(200.0, 1.0, 200.0),
            Transform::from_xyz(0.0, -0.5, 0.0),
        ));
    }
    for k in 0..100 {
        let (x, z) = ((k % 10) as f32 * 3.0 - 15.0, (k / 10) as f32 * 3.0 - 15.0);
        let ground = if flat {
            0.0
        } else {
            sampler.height(x as f64, z as f64)
        };
        let mut ball = app.world_mut().spawn((
            RigidBody::Dynamic,
            Collider::sphere(0.4),
            Friction::new(0.8),
            AngularDamping(1.5),
            Transform::from_xyz(x, ground + 1.0, z),
        ));
        if !flat {
            ball.insert(TerrainColliderAnchor);
        }
    }
    for _ in 0..1500 {
        app.update();
    }
    app
}

fn fixed_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("fixed_step");
    for (label, flat) in [
        ("100 balls on terrain colliders", false),
        ("100 balls on a flat box", true),
    ] {
        let mut app = resting_balls(flat);
        group.bench_function(label, |b| b.iter(|| app.update()));
    }
    group.finish();
}

criterion_group!(benches, collider, fixed_step);
criterion_main!(benches);
