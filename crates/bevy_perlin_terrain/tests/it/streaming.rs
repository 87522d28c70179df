//! Streaming in a headless app: chunks appear under one root, share bit-identical edges, match
//! the sampler, are freed when the viewer flies away, never come back from a cancelled task,
//! survive whatever a game despawns, follow a moved and turned root, respect the upload budget, and cost nothing while idle.

use crate::common::*;
use bevy::asset::AssetEvent;
use bevy::mesh::Mesh;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy_perlin_terrain::prelude::*;

#[test]
fn chunks_appear_around_a_viewer_under_one_root() {
    let config = small_config();
    let (mut app, _) = app(config.clone(), Vec3::new(5.0, 80.0, -7.0));
    let frames = settle(&mut app);
    let chunks = chunks(&mut app);
    let layout = config.lod_layout();
    // Every level from full detail under the viewer to the top, no more chunks than the tree
    // can hold, and the view covered.
    let lods: Vec<u8> = chunks.iter().map(|(_, c)| c.lod).collect();
    for lod in 0..=layout.top() {
        assert!(lods.contains(&lod), "level {lod} in {lods:?}");
    }
    assert!(
        chunks.len() as f64 <= layout.most_chunks(),
        "{}",
        chunks.len()
    );
    let rects = footprints(&app);
    for k in 0..500 {
        let angle = k as f32 * 2.399;
        let r = config.view_distance * ((k as f32 + 0.5) / 500.0).sqrt();
        let p = Vec2::new(5.0, -7.0) + r * Vec2::new(angle.cos(), angle.sin());
        assert_eq!(coverage(&rects, p), 1, "{p}");
    }
    // Every chunk is a child of the one root, which the registry knows.
    let registry = app.world().resource::<ChunkRegistry>();
    let root = registry.root().expect("a root");
    assert_eq!(registry.loaded_count(), chunks.len());
    assert_eq!(registry.wanted_count(), chunks.len());
    for (entity, chunk) in &chunks {
        assert_eq!(
            app.world().get::<ChildOf>(*entity).map(ChildOf::parent),
            Some(root)
        );
        let info = registry.chunk(chunk.lod, chunk.coord).expect("registered");
        assert_eq!(info.entity, *entity);
        // Its footprint is where its entity stands.
        let at = app
            .world()
            .get::<Transform>(*entity)
            .expect("placed")
            .translation;
        assert_eq!(info.rect().min, Vec2::new(at.x, at.z));
        assert_eq!(
            info.rect().width(),
            config.chunk_size * (chunk.lod as f32).exp2()
        );
    }
    assert!(app.world().get::<TerrainRoot>(root).is_some());
    eprintln!("settled after {frames} frames with {} chunks", chunks.len());
}

#[test]
fn same_level_neighbours_share_bit_identical_edges_and_the_sampler_matches_every_full_detail_vertex()
 {
    let config = small_config();
    let (mut app, _) = app(config.clone(), Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    let chunks = chunks(&mut app);
    let by_key: HashMap<(u8, IVec2), Entity> =
        chunks.iter().map(|(e, c)| ((c.lod, c.coord), *e)).collect();
    let n = config.chunk_resolution as usize;
    let sampler = app.world().resource::<TerrainSampler>().clone();
    let (mut edges, mut full) = (0, 0);
    for (&(lod, coord), &entity) in &by_key {
        let (positions, normals) = mesh_of(&app, entity);
        if lod == 0 {
            // Every grid vertex of a level-0 chunk equals the sampler there, bit for bit.
            full += 1;
            for j in 0..n {
                for i in 0..n {
                    let k = j * n + i;
                    let [x, z] = config.vertex_position(coord, 0, i as u32, j as u32);
                    let (h, normal) = sampler.height_and_normal(x, z);
                    assert_eq!(
                        positions[k][1].to_bits(),
                        h.to_bits(),
                        "height at ({x}, {z})"
                    );
                    assert_eq!(normals[k], normal.to_array(), "normal at ({x}, {z})");
                }
            }
        }
        if let Some(&right) = by_key.get(&(lod, coord + IVec2::X)) {
            let (rp, rn) = mesh_of(&app, right);
            for j in 0..n {
                assert_eq!(
                    positions[j * n + n - 1][1].to_bits(),
                    rp[j * n][1].to_bits()
                );
                assert_eq!(normals[j * n + n - 1], rn[j * n]);
            }
            edges += 1;
        }
        if let Some(&below) = by_key.get(&(lod, coord + IVec2::Y)) {
            let (bp, bn) = mesh_of(&app, below);
            for i in 0..n {
                assert_eq!(positions[(n - 1) * n + i][1].to_bits(), bp[i][1].to_bits());
                assert_eq!(normals[(n - 1) * n + i], bn[i]);
            }
            edges += 1;
        }
    }
    assert!(full >= 16, "only {full} full-detail chunks");
    assert!(edges > 60, "only {edges} shared edges checked");
}

#[test]
fn flying_far_away_frees_everything_left_behind_and_memory_stays_bounded() {
    let config = small_config();
    let (mut app, viewer) = app(config.clone(), Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    let settled_chunks = chunks(&mut app).len();
    let mut most = (0, 0, 0);
    let mut despawned = 0;
    // 20 km in 400 frames of 50 m, each frame checked.
    for step in 1..=400 {
        place(&mut app, viewer, Vec3::new(step as f32 * 50.0, 80.0, 0.0));
        app.update();
        despawned += drain::<ChunkDespawned>(&mut app).len();
        let meshes = app.world().resource::<Assets<Mesh>>().len();
        let entities = chunks(&mut app).len();
        let in_flight = app.world().resource::<ChunkRegistry>().tasks_in_flight();
        most = (
            most.0.max(entities),
            most.1.max(meshes),
            most.2.max(in_flight),
        );
        assert!(in_flight <= config.max_tasks_in_flight as usize);
    }
    settle(&mut app);
    let far = footprints(&app);
    assert!(
        far.iter().all(|(_, r)| r.max.x > 19_000.0),
        "a chunk from the start is still there"
    );
    // Every chunk that left was announced.
    assert!(despawned >= settled_chunks, "{despawned} despawn messages");
    // Entities and meshes stay within the chunks one position needs, twice over (the chunks
    // on screen, and their replacements being swapped in).
    let bound = settled_chunks * 2;
    assert!(
        most.0 <= bound && most.1 <= bound,
        "peaks {most:?} for {settled_chunks} settled chunks"
    );
    // Meshes whose handles were dropped this frame are freed by Bevy's asset GC over the next.
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<Assets<Mesh>>().len(),
        chunks(&mut app).len()
    );
}

#[test]
fn a_chunk_cancelled_while_building_never_appears() {
    let config = TerrainConfig {
        max_tasks_in_flight: 64,
        ..small_config()
    };
    let (mut app, viewer) = app(config.clone(), Vec3::new(0.0, 80.0, 0.0));
    app.update();
    let registry = app.world().resource::<ChunkRegistry>();
    let started: Vec<(u8, IVec2)> = (0..=config.max_lod())
        .flat_map(|lod| (-8..=8).flat_map(move |x| (-8..=8).map(move |z| (lod, IVec2::new(x, z)))))
        .filter(|&(lod, c)| registry.is_pending(lod, c))
        .collect();
    assert!(!started.is_empty(), "tasks started near the origin");
    // Leave before they finish: the next plan cancels them.
    place(&mut app, viewer, Vec3::new(20_000.0, 80.0, 0.0));
    drain::<ChunkSpawned>(&mut app);
    app.update();
    let registry = app.world().resource::<ChunkRegistry>();
    for &(lod, coord) in &started {
        assert!(
            !registry.is_pending(lod, coord),
            "{coord} of level {lod} still being built"
        );
    }
    // From here until the terrain settles far away, not one of them may be shown.
    let (spawned, _) = collect_until::<ChunkSpawned>(&mut app, "the far terrain", settled);
    let near: Vec<_> = spawned
        .iter()
        .filter(|m| started.contains(&(m.lod, m.coord)))
        .collect();
    assert!(near.is_empty(), "cancelled chunks were spawned: {near:?}");
    assert!(footprints(&app).iter().all(|(_, r)| r.max.x > 15_000.0));
}

#[test]
fn chunks_the_game_despawns_come_back_without_a_panic() {
    let config = small_config();
    let (mut app, viewer) = app(config.clone(), Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    let before = chunks(&mut app).len();
    // Despawn every third chunk while the viewer moves, as a level reset might.
    for step in 0..40 {
        place(&mut app, viewer, Vec3::new(step as f32 * 7.0, 80.0, 0.0));
        if step % 10 == 0 {
            for (entity, _) in chunks(&mut app).into_iter().step_by(3) {
                app.world_mut().despawn(entity);
            }
        }
        app.update();
    }
    settle(&mut app);
    // The registry is in step with the world, and the terrain is whole again.
    let after = chunks(&mut app);
    let registry = app.world().resource::<ChunkRegistry>();
    assert_eq!(registry.loaded_count(), after.len());
    for (entity, chunk) in &after {
        assert_eq!(
            registry.chunk(chunk.lod, chunk.coord).map(|i| i.entity),
            Some(*entity)
        );
    }
    let rects = footprints(&app);
    for k in 0..300 {
        let angle = k as f32 * 2.399;
        let r = 380.0 * ((k as f32 + 0.5) / 300.0).sqrt();
        let p = Vec2::new(39.0 * 7.0, 0.0) + r * Vec2::new(angle.cos(), angle.sin());
        assert_eq!(coverage(&rects, p), 1, "{p}");
    }
    assert!(
        after.len() + 10 >= before,
        "{} chunks, {before} before",
        after.len()
    );
}

#[test]
fn a_despawned_root_takes_its_chunks_and_the_terrain_comes_back() {
    let (mut app, _) = app(small_config(), Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    let before = chunks(&mut app).len();
    let root = app
        .world()
        .resource::<ChunkRegistry>()
        .root()
        .expect("a root");
    app.world_mut().despawn(root);
    assert!(chunks(&mut app).is_empty(), "the chunks went with the root");
    assert_eq!(app.world().resource::<ChunkRegistry>().loaded_count(), 0);
    let frames = settle(&mut app);
    let new_root = app
        .world()
        .resource::<ChunkRegistry>()
        .root()
        .expect("a new root");
    assert_ne!(new_root, root);
    let after = chunks(&mut app);
    assert_eq!(after.len(), before);
    for (entity, _) in &after {
        assert_eq!(
            app.world().get::<ChildOf>(*entity).map(ChildOf::parent),
            Some(new_root)
        );
    }
    eprintln!("the terrain came back in {frames} frames");
}

#[test]
fn moving_and_turning_the_root_carries_the_terrain_and_the_planner_follows() {
    let viewer_at = Vec3::new(10.0, 80.0, 10.0);
    let config = small_config();
    let n = config.chunk_resolution as usize;
    let spacing = config.chunk_size / (n - 1) as f32;
    let (mut app, _) = app(config, viewer_at);
    settle(&mut app);
    let root = app
        .world()
        .resource::<ChunkRegistry>()
        .root()
        .expect("a root");
    // A quarter turn about the vertical and a shift: the viewer is now over other ground.
    let placed = Transform::from_xyz(1000.0, -30.0, -500.0)
        .with_rotation(Quat::from_rotation_y(std::f32::consts::FRAC_PI_2));
    *app.world_mut()
        .get_mut::<Transform>(root)
        .expect("the root's transform") = placed;
    settle(&mut app);

    // The planner measures in the root's space.
    let to_root = placed.compute_affine().inverse();
    let local = to_root.transform_point3(viewer_at);
    let registry = app.world().resource::<ChunkRegistry>();
    let planned = registry.viewer_positions()[0];
    assert!(
        planned.distance(local.as_dvec3()) < 1e-3,
        "planned from {planned}; the viewer is at {local} in the root's space"
    );
    let under = registry
        .iter()
        .find(|c| c.lod == 0 && c.rect().contains(local.xz()))
        .expect("a full-detail chunk under the viewer, in the root's space");

    // In the world, that chunk lies under the viewer, at the sampler's heights carried by the
    // root.
    let chunk_to_world = *app
        .world()
        .get::<GlobalTransform>(under.entity)
        .expect("the chunk's global transform");
    let (positions, _) = mesh_of(&app, under.entity);
    let world: Vec<Vec3> = positions[..n * n]
        .iter()
        .map(|&p| chunk_to_world.transform_point(Vec3::from(p)))
        .collect();
    let nearest = world
        .iter()
        .copied()
        .min_by(|a, b| {
            let (da, db) = (
                a.xz().distance(viewer_at.xz()),
                b.xz().distance(viewer_at.xz()),
            );
            da.total_cmp(&db)
        })
        .expect("vertices");
    assert!(
        nearest.xz().distance(viewer_at.xz()) <= spacing,
        "the ground under the viewer is at {nearest}"
    );
    let sampler = app.world().resource::<TerrainSampler>();
    for w in &world {
        let p = to_root.transform_point3(*w);
        let expected = sampler.height(p.x as f64, p.z as f64);
        assert!(
            (p.y - expected).abs() < 1e-3,
            "{w} in the world is {p} in the root's space; the sampler says {expected}"
        );
    }
}

#[test]
fn new_meshes_stay_within_the_per_frame_budget_and_a_new_ground_remeshes_in_place() {
    let config = TerrainConfig {
        max_uploads_per_frame: 2,
        max_tasks_in_flight: 32,
        ..small_config()
    };
    let (mut app, _) = app(config.clone(), Vec3::new(0.0, 80.0, 0.0));
    let mut frames_with_uploads = 0;
    run_until(&mut app, "the terrain settles", |app| {
        let added = drain::<AssetEvent<Mesh>>(app)
            .iter()
            .filter(|e| matches!(e, AssetEvent::Added { .. }))
            .count();
        assert!(added <= 2, "{added} meshes added in one frame");
        frames_with_uploads += usize::from(added > 0);
        settled(app)
    });
    assert!(frames_with_uploads > 10);
    // A config that reshapes the ground rebuilds every chunk in place: the same entities,
    // each announced once.
    let before: HashMap<(u8, IVec2), Entity> = chunks(&mut app)
        .into_iter()
        .map(|(e, c)| ((c.lod, c.coord), e))
        .collect();
    let taller = TerrainConfig {
        height_scale: config.height_scale * 1.5,
        ..config
    };
    *app.world_mut().resource_mut::<TerrainConfigSource>() = TerrainConfigSource::Fixed(taller);
    let (remeshed, _) = collect_until::<ChunkRemeshed>(&mut app, "the new ground", settled);
    assert_eq!(remeshed.len(), before.len());
    for m in &remeshed {
        assert_eq!(
            before.get(&(m.lod, m.coord)),
            Some(&m.entity),
            "remeshed in place"
        );
    }
}

#[test]
fn an_idle_terrain_does_not_plan() {
    let (mut app, viewer) = app(small_config(), Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    // Neither system touches the registry while nothing changes.
    let tick = app.world().resource_ref::<ChunkRegistry>().last_changed();
    for _ in 0..50 {
        app.update();
    }
    assert_eq!(
        app.world().resource_ref::<ChunkRegistry>().last_changed(),
        tick
    );
    // A small move (within a quarter chunk) does not replan either; a longer one does.
    shift(&mut app, viewer, Vec3::X * 3.0);
    app.update();
    assert_eq!(
        app.world().resource_ref::<ChunkRegistry>().last_changed(),
        tick
    );
    shift(&mut app, viewer, Vec3::X * 10.0);
    app.update();
    assert_ne!(
        app.world().resource_ref::<ChunkRegistry>().last_changed(),
        tick
    );
}

/// The last run of every system of the plugin in `Update`, by name.
fn terrain_system_runs(app: &mut App) -> Vec<(String, bevy::ecs::change_detection::Tick)> {
    let schedules = app.world().resource::<Schedules>();
    let update = schedules.get(Update).expect("an Update schedule");
    let mut runs: Vec<_> = update
        .systems()
        .expect("an initialised schedule")
        .map(|(_, system)| (system.name().to_string(), system.get_last_run()))
        .filter(|(name, _)| name.starts_with("bevy_perlin_terrain::"))
        .collect();
    runs.sort_by(|a, b| a.0.cmp(&b.0));
    runs
}

#[test]
fn an_idle_frame_starts_none_of_the_terrain_systems() {
    // With scatter, whose planner and spawner must rest too.
    let config = TerrainConfig {
        scatter: vec![bevy_perlin_terrain::ScatterLayer {
            name: "stones".into(),
            view_distance: 150.0,
            ..default()
        }],
        ..small_config()
    };
    let (mut app, viewer) = app(config, Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    run_until(&mut app, "the scatter settles", |app| {
        app.world().resource::<ScatterRegistry>().is_settled()
    });
    app.update();
    let before = terrain_system_runs(&mut app);
    assert!(
        before.iter().any(|(name, _)| name.ends_with("plan_chunks")),
        "{before:?}"
    );
    for _ in 0..20 {
        app.update();
    }
    // Their run conditions said no: the executor started none of them.
    let after = terrain_system_runs(&mut app);
    let ran: Vec<_> = after.iter().filter(|r| !before.contains(r)).collect();
    assert!(ran.is_empty(), "ran on idle frames: {ran:?}");
    // A viewer that moves starts the planner again.
    shift(&mut app, viewer, Vec3::X * 1.0);
    app.update();
    let after = terrain_system_runs(&mut app);
    let planner = |runs: &[(String, _)]| {
        runs.iter()
            .find(|(name, _)| name.ends_with("plan_chunks"))
            .map(|(_, tick)| *tick)
    };
    assert_ne!(planner(&after), planner(&before));
}

#[test]
fn without_viewers_the_terrain_empties_and_two_viewers_pull_two_areas() {
    let (mut app, _) = app(small_config(), Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    let one = chunks(&mut app).len();
    app.world_mut()
        .spawn((TerrainViewer, Transform::from_xyz(5000.0, 0.0, 0.0)));
    settle(&mut app);
    let two = chunks(&mut app);
    assert!(
        two.len() > one * 2 - 4,
        "{} chunks for two viewers, {one} for one",
        two.len()
    );
    let rects = footprints(&app);
    for p in [Vec2::ZERO, Vec2::new(5000.0, 0.0)] {
        assert_eq!(coverage(&rects, p), 1);
        // Full detail under both.
        assert!(rects.iter().any(|(lod, r)| *lod == 0 && r.contains(p)));
    }
    // No viewer at all: nothing is kept.
    let mut viewers = app
        .world_mut()
        .query_filtered::<Entity, With<TerrainViewer>>();
    let all: Vec<Entity> = viewers.iter(app.world()).collect();
    for v in all {
        app.world_mut().despawn(v);
    }
    settle(&mut app);
    assert!(chunks(&mut app).is_empty());
}
