//! Headless streaming of the default preset, the horizon's figures:
//!
//! - **fill**: views of 1, 10 and 30 km, each from nothing, with the preset's budgets and with
//!   raised ones: chunks, vertices and MiB of mesh on screen, and the wall time until the
//!   terrain is settled;
//! - **flight**: the viewer at 300 m/s over the 12 km view, frames paced at 60 a second as a
//!   game's would be (the chunk tasks run on the async compute pool's threads meanwhile): the
//!   time of the terrain's systems per frame (from a timing system just before
//!   `TerrainSystems::Config` to one just after `TerrainSystems::Materials`; median, 99th
//!   percentile, worst), frames with a hole in the ground within the view (less a top-level
//!   chunk, which streams in ahead), frames where chunks overlap, and swaps of chunks whose
//!   morph had not reached the surface they swap to (a frame or more of build latency);
//! - **idle**: the viewer still, everything built; frames alternate with the same app without
//!   the plugin but as many mesh entities, so both see the same machine.
//!
//! `cargo bench -p bevy_perlin_terrain --no-default-features --bench streaming` (release,
//! without the renderer), or `cargo bench --profile dev --workspace --bench streaming`.
//! `cargo test --benches` runs a short smoke version.

use bevy::mesh::Mesh;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_perlin_terrain::prelude::*;
use std::time::{Duration, Instant};
use terrain_test_support::{HeadlessApp, finish, preset, run_until_within, spawn_viewer};

/// Frames of the measured flight under `cargo bench`; a `cargo test --benches` smoke run flies
/// only `SMOKE_FRAMES`.
const FRAMES: usize = 2000;
const SMOKE_FRAMES: usize = 60;
/// Frames of the idle measurement.
const IDLE_FRAMES: usize = 1000;
const SPEED: f32 = 300.0;
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

/// The headless app every measurement shares (the workspace's, not finished yet), with the two
/// timing systems around the terrain's sets.
fn headless() -> App {
    // Every frame advances time by 1/60 s, as a paced game's does: the apps run their fixed
    // timestep schedules as often.
    let mut app = HeadlessApp::new()
        .time(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
            DT,
        )))
        .unfinished();
    app.init_resource::<TerrainTime>().add_systems(
        Update,
        (
            terrain_begins.before_ignore_deferred(TerrainSystems::Config),
            terrain_ends.after_ignore_deferred(TerrainSystems::Materials),
        )
            .chain(),
    );
    app
}

/// The headless app with the terrain of `config` and one viewer at `at`.
fn terrain(config: TerrainConfig, at: Vec3) -> (App, Entity) {
    let mut app = headless();
    app.add_plugins(PerlinTerrainPlugin::from_config(config));
    finish(&mut app);
    let viewer = spawn_viewer(&mut app, at);
    (app, viewer)
}

/// Updates `app` until `done`, at most `limit` long (a figure, not a failure, if it takes
/// longer); the time it took.
fn until(app: &mut App, limit: Duration, done: impl FnMut(&mut App) -> bool) -> Duration {
    let start = Instant::now();
    let _ = run_until_within(app, limit, done);
    start.elapsed()
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

/// Chunks, vertices and bytes of mesh of the chunks on screen.
fn on_screen(app: &mut App) -> (usize, usize, usize) {
    let mut q = app
        .world_mut()
        .query_filtered::<&Mesh3d, With<TerrainChunk>>();
    let meshes = app.world().resource::<Assets<Mesh>>();
    let (mut chunks, mut vertices, mut bytes) = (0, 0, 0);
    for handle in q.iter(app.world()) {
        if let Some(mesh) = meshes.get(&handle.0) {
            chunks += 1;
            vertices += mesh.count_vertices();
            let index_bytes = mesh.indices().map_or(0, |i| match i {
                bevy::mesh::Indices::U16(v) => 2 * v.len(),
                bevy::mesh::Indices::U32(v) => 4 * v.len(),
            });
            bytes += mesh.count_vertices() * mesh.get_vertex_size() as usize + index_bytes;
        }
    }
    (chunks, vertices, bytes)
}

/// The ground every chunk on screen covers.
fn shown_rects(app: &App) -> Vec<Rect> {
    app.world()
        .resource::<ChunkRegistry>()
        .iter()
        .map(|c| c.rect())
        .collect()
}

/// Whether the ground within `radius` of `at` has a point without a chunk.
fn has_hole(app: &App, at: Vec2, radius: f32) -> bool {
    let rects = shown_rects(app);
    (0..400).any(|k| {
        let angle = k as f32 * 2.399;
        let r = radius * ((k as f32 + 0.5) / 400.0).sqrt();
        let p = at + r * Vec2::new(angle.cos(), angle.sin());
        !rects
            .iter()
            .any(|r| p.x >= r.min.x && p.x < r.max.x && p.y >= r.min.y && p.y < r.max.y)
    })
}

/// Whether two chunks on screen overlap.
fn has_overlap(app: &App) -> bool {
    let rects = shown_rects(app);
    rects.iter().enumerate().any(|(i, a)| {
        rects[i + 1..].iter().any(|b| {
            a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y
        })
    })
}

fn fill(bench: bool) {
    println!("fill from nothing, default preset (release: figures; smoke: 1 km only)");
    let views: &[f32] = if bench {
        &[1000.0, 10_000.0, 30_000.0]
    } else {
        &[1000.0]
    };
    for &view in views {
        for (budgets, tasks, uploads) in [("preset budgets", 0, 0), ("raised budgets", 32, 32)] {
            let mut config = preset("default");
            config.view_distance = view;
            if tasks > 0 {
                config.max_tasks_in_flight = tasks;
                config.max_uploads_per_frame = uploads;
            }
            // Not on a chunk corner: a viewer there holds the fewest chunks.
            let (mut app, _) = terrain(config, Vec3::new(1234.5, 300.0, -987.25));
            let took = until(&mut app, Duration::from_secs(120), |app| {
                app.world().resource::<ChunkRegistry>().is_settled()
            });
            let (chunks, vertices, bytes) = on_screen(&mut app);
            println!(
                "  {:>5.0} km, {budgets}: {chunks} chunks, {:.2} M vertices, {:.1} MiB of mesh, filled in {:.2} s",
                view / 1000.0,
                vertices as f64 / 1e6,
                bytes as f64 / (1u64 << 20) as f64,
                took.as_secs_f64()
            );
        }
    }
}

fn main() {
    let bench = std::env::args().any(|a| a == "--bench");
    fill(bench);
    let frames = if bench { FRAMES } else { SMOKE_FRAMES };
    let idle_frames = if bench { IDLE_FRAMES } else { SMOKE_FRAMES };
    let config = preset("default");
    let layout = config.lod_layout();
    let (mut app, viewer) = terrain(config.clone(), Vec3::new(0.0, 300.0, 0.0));
    // Warm up: the first screenful, not part of the flight.
    until(&mut app, Duration::from_secs(120), |app| {
        app.world().resource::<ChunkRegistry>().is_settled()
    });
    app.world_mut().resource_mut::<TerrainTime>().frames.clear();
    let mut spawned = app
        .world()
        .resource::<Messages<ChunkSpawned>>()
        .get_cursor();
    let mut despawned = app
        .world()
        .resource::<Messages<ChunkDespawned>>()
        .get_cursor();
    let inner = config.view_distance - layout.size(layout.top()) as f32;
    let (mut holes, mut overlaps, mut swapped) = (0, 0, 0);
    let mut unmorphed: Vec<f64> = Vec::new();
    let mut times = Vec::with_capacity(frames);
    let start = Instant::now();
    for frame in 0..frames {
        let at = Vec2::new(frame as f32 * SPEED * DT, 0.0);
        app.world_mut()
            .get_mut::<Transform>(viewer)
            .expect("viewer")
            .translation = Vec3::new(at.x, 300.0, at.y);
        let t = Instant::now();
        app.update();
        times.push(t.elapsed());
        // Checks, outside the timed part of the frame.
        holes += usize::from(has_hole(&app, at, inner));
        overlaps += usize::from(has_overlap(&app));
        let world = app.world();
        let registry = world.resource::<ChunkRegistry>();
        let viewers: Vec<(Vec3, f32)> = registry
            .viewer_positions()
            .iter()
            .map(|p| p.as_vec3())
            .zip(registry.viewer_heights().iter().copied())
            .collect();
        let new: Vec<ChunkSpawned> = spawned
            .read(world.resource::<Messages<ChunkSpawned>>())
            .copied()
            .collect();
        let gone: Vec<ChunkDespawned> = despawned
            .read(world.resource::<Messages<ChunkDespawned>>())
            .copied()
            .collect();
        swapped += new.len();
        unmorphed.extend(morph_misses(&config, &viewers, &new, &gone));
        let deadline = start + Duration::from_secs_f32(DT * (frame + 1) as f32);
        std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
    }
    let mut terrain_times =
        std::mem::take(&mut app.world_mut().resource_mut::<TerrainTime>().frames);
    let registry = app.world().resource::<ChunkRegistry>();
    println!(
        "flight: {frames} frames, viewer at {SPEED} m/s, {:.0} m flown over the {:.0} km view",
        frames as f32 * SPEED * DT,
        config.view_distance / 1000.0
    );
    row("terrain systems", &mut terrain_times);
    row("whole update   ", &mut times);
    unmorphed.sort_by(f64::total_cmp);
    let share = |below: f64| unmorphed.iter().filter(|&&k| k < below).count();
    println!(
        "  frames with a hole {holes}, with an overlap {overlaps}; chunks swapped in {swapped}; swaps whose finer side was not yet fully morphed {} (morph under 0.9: {}, under 0.5: {}, least {:.2})",
        unmorphed.len(),
        share(0.9),
        share(0.5),
        unmorphed.first().copied().unwrap_or(1.0)
    );
    println!(
        "  at the end    {} chunks on screen, {} tasks in flight",
        registry.loaded_count(),
        registry.tasks_in_flight()
    );

    // Idle: the viewer stands still until everything is built and placed, then nothing changes.
    until(&mut app, Duration::from_secs(120), |app| {
        app.world().resource::<ChunkRegistry>().is_settled()
            && app.world().resource::<ScatterRegistry>().is_settled()
    });
    let chunks = app.world().resource::<ChunkRegistry>().loaded_count();
    let instances = app.world().resource::<ScatterRegistry>().instance_count();
    let mut bare = without_the_plugin(chunks, instances);

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
    let mut terrain_times =
        std::mem::take(&mut app.world_mut().resource_mut::<TerrainTime>().frames);
    let mut hand_over = std::mem::take(&mut bare.world_mut().resource_mut::<TerrainTime>().frames);
    println!(
        "idle: {idle_frames} frames, viewer still, {chunks} chunks and {instances} scatter \
         instances on screen"
    );
    row("terrain systems", &mut terrain_times);
    row("whole update   ", &mut idle);
    println!(
        "without the plugin, frames alternating with the above: {chunks} mesh entities under \
         one root, {instances} children of theirs"
    );
    row("timing systems ", &mut hand_over);
    row("whole update   ", &mut without);
}

/// Swaps between levels in one frame whose finer side's vertices were not all at morph 1 (at
/// the viewer positions the material morphs by): a change of shape, by `1 − morph` of the
/// difference between the two levels' surfaces. Each miss gives its smallest morph (0 for a
/// swap across more than one level).
fn morph_misses(
    config: &TerrainConfig,
    viewers: &[(Vec3, f32)],
    new: &[ChunkSpawned],
    gone: &[ChunkDespawned],
) -> Vec<f64> {
    let layout = config.lod_layout();
    let rect = |lod: u8, coord: IVec2| {
        let size = config.chunk_size * (lod as f32).exp2();
        Rect::from_corners(coord.as_vec2() * size, (coord + 1).as_vec2() * size)
    };
    let n = config.chunk_resolution;
    let mut misses = Vec::new();
    for d in gone {
        for s in new {
            let (a, b) = (rect(d.lod, d.coord), rect(s.lod, s.coord));
            let overlap =
                a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y;
            if !overlap || s.lod == d.lod {
                continue;
            }
            let (lod, fine) = if s.lod > d.lod {
                (d.lod, a)
            } else {
                (s.lod, b)
            };
            let step = fine.width() / (n - 1) as f32;
            let least = (0..n)
                .flat_map(|j| (0..n).map(move |i| fine.min + Vec2::new(i as f32, j as f32) * step))
                .map(|p| {
                    let d = viewers
                        .iter()
                        .map(|(v, h)| {
                            let d = (v.xz() - p).abs();
                            d.x.max(d.y).max(*h) as f64
                        })
                        .fold(f64::INFINITY, f64::min);
                    layout.morph_at(lod, d)
                })
                .fold(1.0f64, f64::min);
            let least = if s.lod.abs_diff(d.lod) == 1 {
                least
            } else {
                0.0
            };
            if least < 1.0 {
                misses.push(least);
            }
        }
    }
    misses
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
        let share = instances / chunks.max(1) + usize::from(k < instances % chunks.max(1));
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
