//! Headless streaming: a viewer flying at 200 m/s for 2,000 frames of 1/60 s over the default
//! terrain, then standing still for 1,000 idle frames with every chunk on screen, then the same
//! app without the plugin but with as many mesh entities, for comparison. Reports the wall time
//! of the terrain systems (from a timing system just before `TerrainSystems::Config` to one just
//! after `TerrainSystems::Look`; the app without the plugin has the same two systems, so the
//! executor's hand-over between them is measured there alone) and of the whole `App::update`
//! (median, 99th percentile, worst), and chunk meshes generated per second. Flight frames are
//! paced at 60 per second of wall time, as a game's would be; the chunk tasks run on the async
//! compute pool's threads meanwhile.
//!
//! `cargo bench -p bevy_perlin_terrain --no-default-features --bench streaming` (release, without
//! the renderer), or `cargo bench --profile dev --workspace --bench streaming`.

use bevy::asset::AssetPlugin;
use bevy::mesh::MeshPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_perlin_terrain::prelude::*;
use std::time::{Duration, Instant};

/// Frames of the measured flight under `cargo bench`; a `cargo test --benches` smoke run flies
/// only `SMOKE_FRAMES`.
const FRAMES: usize = 2000;
const SMOKE_FRAMES: usize = 60;
/// Frames of the idle measurement.
const IDLE_FRAMES: usize = 1000;
const SPEED: f32 = 200.0;
const DT: f32 = 1.0 / 60.0;

/// When this frame's terrain systems began, and how long they took in each frame.
#[derive(Resource, Default)]
struct TerrainTime {
    began: Option<Instant>,
    frames: Vec<Duration>,
}

fn terrain_begins(mut time: ResMut<TerrainTime>) {
    time.began = Some(Instant::now());
}

fn terrain_ends(mut time: ResMut<TerrainTime>) {
    if let Some(began) = time.began.take() {
        time.frames.push(began.elapsed());
    }
}

/// The headless app both measurements share: minimal plugins, assets, transforms, meshes, and
/// the two timing systems around the terrain's sets.
fn headless() -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin {
            watch_for_changes_override: Some(false),
            ..default()
        },
        TransformPlugin,
        MeshPlugin,
    ))
    // Every frame advances time by 1/60 s, as a paced game's does: both apps run their fixed
    // timestep schedules as often.
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
        DT,
    )))
    .init_resource::<TerrainTime>()
    .add_systems(
        Update,
        (
            terrain_begins.before_ignore_deferred(TerrainSystems::Config),
            terrain_ends.after_ignore_deferred(TerrainSystems::Look),
        )
            .chain(),
    );
    app
}

/// Median, 99th percentile and worst of `t`, in milliseconds.
fn row(name: &str, t: &mut [Duration]) {
    if t.is_empty() {
        return;
    }
    t.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "  {name}  median {:.4} ms   p99 {:.4} ms   worst {:.4} ms",
        ms(t[t.len() / 2]),
        ms(t[t.len() * 99 / 100]),
        ms(t[t.len() - 1])
    );
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    let frames = if bench { FRAMES } else { SMOKE_FRAMES };
    let idle_frames = if bench { IDLE_FRAMES } else { SMOKE_FRAMES };
    let mut app = headless();
    app.add_plugins(PerlinTerrainPlugin::default());
    let viewer = app
        .world_mut()
        .spawn((TerrainViewer, Transform::from_xyz(0.0, 150.0, 0.0)))
        .id();
    // Warm up: the first screenful, not part of the flight.
    for _ in 0..600 {
        app.update();
        if app.world().resource::<ChunkRegistry>().is_settled() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    app.world_mut().resource_mut::<TerrainTime>().frames.clear();
    // Chunk meshes generated: the spawn and remesh messages, read after each frame.
    let mut spawned = app
        .world()
        .resource::<Messages<ChunkSpawned>>()
        .get_cursor();
    let mut remeshed = app
        .world()
        .resource::<Messages<ChunkRemeshed>>()
        .get_cursor();
    let mut generated = 0;
    let mut times = Vec::with_capacity(frames);
    let start = Instant::now();
    for frame in 0..frames {
        app.world_mut()
            .get_mut::<Transform>(viewer)
            .expect("viewer")
            .translation
            .x = frame as f32 * SPEED * DT;
        let t = Instant::now();
        app.update();
        times.push(t.elapsed());
        let world = app.world();
        generated += spawned
            .read(world.resource::<Messages<ChunkSpawned>>())
            .count()
            + remeshed
                .read(world.resource::<Messages<ChunkRemeshed>>())
                .count();
        let deadline = start + Duration::from_secs_f32(DT * (frame + 1) as f32);
        std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
    }
    let wall = start.elapsed();
    let mut terrain = std::mem::take(&mut app.world_mut().resource_mut::<TerrainTime>().frames);
    let registry = app.world().resource::<ChunkRegistry>();
    println!(
        "streaming: {frames} frames, viewer at {SPEED} m/s, {:.0} m flown",
        frames as f32 * SPEED * DT
    );
    row("terrain systems", &mut terrain);
    row("whole update   ", &mut times);
    println!(
        "  chunk meshes  {generated} in {:.2} s of wall time = {:.0} per second",
        wall.as_secs_f64(),
        generated as f64 / wall.as_secs_f64()
    );
    println!(
        "  at the end    {} chunks on screen, {} tasks in flight",
        registry.loaded_count(),
        registry.tasks_in_flight()
    );

    // Idle: the viewer stands still until everything is built and placed, then nothing changes.
    for _ in 0..3000 {
        app.update();
        let world = app.world();
        if world.resource::<ChunkRegistry>().is_settled()
            && world.resource::<ScatterRegistry>().is_settled()
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let chunks = app.world().resource::<ChunkRegistry>().loaded_count();
    let instances = app.world().resource::<ScatterRegistry>().instance_count();
    let mut bare = without_the_plugin(chunks, instances);

    // The two apps' frames alternate, so that both see the same machine.
    app.world_mut().resource_mut::<TerrainTime>().frames.clear();
    bare.world_mut()
        .resource_mut::<TerrainTime>()
        .frames
        .clear();
    let (mut idle, mut without) = (Vec::new(), Vec::new());
    for _ in 0..idle_frames {
        let t = Instant::now();
        app.update();
        idle.push(t.elapsed());
        let t = Instant::now();
        bare.update();
        without.push(t.elapsed());
    }
    let mut terrain = std::mem::take(&mut app.world_mut().resource_mut::<TerrainTime>().frames);
    let mut hand_over = std::mem::take(&mut bare.world_mut().resource_mut::<TerrainTime>().frames);
    println!(
        "idle: {idle_frames} frames, viewer still, {chunks} chunks and {instances} scatter \
         instances on screen"
    );
    row("terrain systems", &mut terrain);
    row("whole update   ", &mut idle);
    println!(
        "without the plugin, frames alternating with the above: {chunks} mesh entities under \
         one root, {instances} children of theirs"
    );
    row("timing systems ", &mut hand_over);
    row("whole update   ", &mut without);
}

/// The same app without the plugin: as many mesh entities as chunks (each with a mesh asset of
/// its own) under one root, as many children of those as scatter instances, and a viewer.
fn without_the_plugin(chunks: usize, instances: usize) -> App {
    let mut bare = headless();
    let world = bare.world_mut();
    let root = world.spawn(Transform::default()).id();
    for k in 0..chunks {
        let mesh = world
            .resource_mut::<Assets<Mesh>>()
            .add(Mesh::from(Cuboid::default()));
        let chunk = world
            .spawn((
                Mesh3d(mesh),
                Transform::from_xyz((k % 40) as f32 * 64.0, 0.0, (k / 40) as f32 * 64.0),
                ChildOf(root),
            ))
            .id();
        let share = instances / chunks + usize::from(k < instances % chunks);
        world.spawn_batch(
            (0..share).map(move |i| (Transform::from_xyz(i as f32, 0.0, 0.0), ChildOf(chunk))),
        );
    }
    world.spawn((TerrainViewer, Transform::from_xyz(0.0, 150.0, 0.0)));
    for _ in 0..10 {
        bare.update();
    }
    bare
}
