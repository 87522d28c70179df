//! Headless streaming: a viewer flying at 200 m/s for 2,000 frames of 1/60 s over the default
//! terrain, then standing still for 1,000 idle frames with every chunk on screen, then the same
//! app without the plugin but with as many mesh entities, for comparison. Reports the wall time of the terrain systems (from just before `TerrainSystems::Config`
//! to just after `TerrainSystems::Look`) and of the whole `App::update` (median, 99th percentile,
//! worst), and chunk meshes generated per second. Frames are paced at 60 per second of wall time, as a
//! game's would be; the chunk tasks run on the async compute pool's threads meanwhile.
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

#[derive(Resource, Default)]
struct Generated(usize);

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

fn count(
    mut generated: ResMut<Generated>,
    mut spawned: MessageReader<ChunkSpawned>,
    mut remeshed: MessageReader<ChunkRemeshed>,
) {
    generated.0 += spawned.read().count() + remeshed.read().count();
}

/// The headless app both measurements share: minimal plugins, assets, transforms, meshes.
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
    ));
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
    app.add_plugins(PerlinTerrainPlugin::default())
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
            DT,
        )))
        .init_resource::<Generated>()
        .init_resource::<TerrainTime>()
        .add_systems(
            Update,
            (
                count.after(TerrainSystems::Upload),
                terrain_begins.before(TerrainSystems::Config),
                terrain_ends.after(TerrainSystems::Look),
            ),
        );
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
    app.world_mut().resource_mut::<Generated>().0 = 0;
    app.world_mut().resource_mut::<TerrainTime>().frames.clear();
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
        let deadline = start + Duration::from_secs_f32(DT * (frame + 1) as f32);
        std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
    }
    let wall = start.elapsed();
    let mut terrain = std::mem::take(&mut app.world_mut().resource_mut::<TerrainTime>().frames);
    let generated = app.world().resource::<Generated>().0;
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

    // Idle: the viewer stands still until everything is built, then nothing changes.
    for _ in 0..3000 {
        app.update();
        if app.world().resource::<ChunkRegistry>().is_settled() {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let chunks = app.world().resource::<ChunkRegistry>().loaded_count();
    app.world_mut().resource_mut::<TerrainTime>().frames.clear();
    let mut idle = Vec::with_capacity(idle_frames);
    for _ in 0..idle_frames {
        let t = Instant::now();
        app.update();
        idle.push(t.elapsed());
    }
    let mut terrain = std::mem::take(&mut app.world_mut().resource_mut::<TerrainTime>().frames);
    println!("idle: {idle_frames} frames, viewer still, {chunks} chunks on screen");
    row("terrain systems", &mut terrain);
    row("whole update   ", &mut idle);

    // The same app without the plugin, holding as many mesh entities under one root.
    let mut bare = headless();
    let mesh = bare
        .world_mut()
        .resource_mut::<Assets<Mesh>>()
        .add(Mesh::from(Cuboid::default()));
    let root = bare.world_mut().spawn(Transform::default()).id();
    for k in 0..chunks {
        bare.world_mut().spawn((
            Mesh3d(mesh.clone()),
            Transform::from_xyz((k % 40) as f32 * 64.0, 0.0, (k / 40) as f32 * 64.0),
            ChildOf(root),
        ));
    }
    bare.world_mut()
        .spawn((TerrainViewer, Transform::from_xyz(0.0, 150.0, 0.0)));
    for _ in 0..10 {
        bare.update();
    }
    let mut without = Vec::with_capacity(idle_frames);
    for _ in 0..idle_frames {
        let t = Instant::now();
        bare.update();
        without.push(t.elapsed());
    }
    println!("without the plugin: {chunks} mesh entities under one root");
    row("whole update   ", &mut without);
}
