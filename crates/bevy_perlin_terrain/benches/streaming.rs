//! Headless streaming: a viewer flying at 200 m/s for 2,000 frames of 1/60 s over the default
//! terrain. Reports the wall time of the terrain systems (from just before `TerrainSet::Config`
//! to just after `TerrainSet::Upload`) and of the whole `App::update` (median, 99th percentile,
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

fn main() {
    let frames = if std::env::args().any(|a| a == "--bench") {
        FRAMES
    } else {
        SMOKE_FRAMES
    };
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin {
            watch_for_changes_override: Some(false),
            ..default()
        },
        TransformPlugin,
        MeshPlugin,
        PerlinTerrainPlugin::default(),
    ))
    .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
        DT,
    )))
    .init_resource::<Generated>()
    .init_resource::<TerrainTime>()
    .add_systems(
        Update,
        (
            count.after(TerrainSet::Upload),
            terrain_begins.before(TerrainSet::Config),
            terrain_ends.after(TerrainSet::Upload),
        ),
    );
    let viewer = app
        .world_mut()
        .spawn((TerrainViewer, Transform::from_xyz(0.0, 150.0, 0.0)))
        .id();
    // Warm up: the first screenful, not part of the flight.
    for _ in 0..600 {
        app.update();
        if app.world().resource::<ChunkRegistry>().tasks_in_flight() == 0
            && app.world().resource::<ChunkRegistry>().loaded_count() > 0
        {
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
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mut terrain = std::mem::take(&mut app.world_mut().resource_mut::<TerrainTime>().frames);
    terrain.sort();
    let generated = app.world().resource::<Generated>().0;
    let registry = app.world().resource::<ChunkRegistry>();
    println!(
        "streaming: {frames} frames, viewer at {SPEED} m/s, {:.0} m flown",
        frames as f32 * SPEED * DT
    );
    let row = |name: &str, t: &[Duration]| {
        if t.is_empty() {
            return;
        }
        println!(
            "  {name}  median {:.3} ms   p99 {:.3} ms   worst {:.3} ms",
            ms(t[t.len() / 2]),
            ms(t[t.len() * 99 / 100]),
            ms(t[t.len() - 1])
        )
    };
    row("terrain systems", &terrain);
    row("whole update   ", &times);
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
}
