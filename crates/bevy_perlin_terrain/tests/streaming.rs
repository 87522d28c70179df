//! Streaming in a headless app: chunks appear, share bit-identical edges, match the sampler,
//! are freed when the viewer flies away, and never come back from a cancelled task.

mod common;

use bevy::mesh::Mesh;
use bevy::prelude::*;
use bevy_perlin_terrain::prelude::*;
use common::*;

#[test]
fn chunks_appear_around_a_viewer_within_bounded_frames() {
    let (mut app, _) = app(small_config(), Vec3::new(5.0, 80.0, -7.0));
    let frames = run_until(&mut app, 3000, settled).expect("terrain settles");
    let config = small_config();
    let chunks = chunks(&mut app);
    let area = std::f32::consts::PI * config.view_distance.powi(2) / config.chunk_size.powi(2);
    assert!(
        (chunks.len() as f32 - area).abs() < area * 0.25,
        "{} chunks for {area}",
        chunks.len()
    );
    // Full detail under the viewer, coarser further out.
    let lods: Vec<u8> = chunks.iter().map(|(_, c)| c.lod).collect();
    assert!(lods.contains(&0) && lods.contains(&2), "{lods:?}");
    eprintln!("settled after {frames} frames with {} chunks", chunks.len());
}

#[test]
fn neighbouring_chunks_share_bit_identical_edges_and_the_sampler_matches_every_vertex() {
    let config = TerrainConfig {
        lod_distances: vec![],
        ..small_config()
    };
    let (mut app, _) = app(config.clone(), Vec3::new(0.0, 80.0, 0.0));
    run_until(&mut app, 3000, settled).expect("terrain settles");
    let chunks = chunks(&mut app);
    let by_coord: std::collections::HashMap<IVec2, Entity> =
        chunks.iter().map(|(e, c)| (c.coord, *e)).collect();
    let n = config.chunk_resolution as usize;
    let sampler = app.world().resource::<TerrainSampler>().clone();
    let spacing = config.vertex_spacing(0);
    let mut edges = 0;
    for (&coord, &entity) in &by_coord {
        let (positions, normals) = mesh_of(&app, entity);
        // Every grid vertex equals the sampler at its world position, bit for bit.
        for j in 0..n {
            for i in 0..n {
                let k = j * n + i;
                let x = (coord.x as i64 * (n as i64 - 1) + i as i64) as f64 * spacing;
                let z = (coord.y as i64 * (n as i64 - 1) + j as i64) as f64 * spacing;
                let (h, normal) = sampler.height_and_normal(x, z);
                assert_eq!(
                    positions[k][1].to_bits(),
                    h.to_bits(),
                    "height at ({x}, {z})"
                );
                assert_eq!(normals[k], normal.to_array(), "normal at ({x}, {z})");
            }
        }
        if let Some(&right) = by_coord.get(&(coord + IVec2::X)) {
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
        if let Some(&below) = by_coord.get(&(coord + IVec2::Y)) {
            let (bp, bn) = mesh_of(&app, below);
            for i in 0..n {
                assert_eq!(positions[(n - 1) * n + i][1].to_bits(), bp[i][1].to_bits());
                assert_eq!(normals[(n - 1) * n + i], bn[i]);
            }
            edges += 1;
        }
    }
    assert!(edges > 40, "only {edges} shared edges checked");
}

#[test]
fn flying_far_away_frees_everything_left_behind_and_memory_stays_bounded() {
    let config = small_config();
    let (mut app, viewer) = app(config.clone(), Vec3::new(0.0, 80.0, 0.0));
    run_until(&mut app, 3000, settled).expect("terrain settles");
    let settled_chunks = chunks(&mut app).len();
    let mut most = (0, 0, 0);
    // 20 km in 400 frames of 50 m, each frame checked.
    for step in 1..=400 {
        app.world_mut()
            .get_mut::<Transform>(viewer)
            .expect("viewer")
            .translation
            .x = step as f32 * 50.0;
        app.update();
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
    run_until(&mut app, 3000, settled).expect("terrain settles at the far end");
    let far = chunks(&mut app);
    assert!(
        far.iter()
            .all(|(_, c)| c.coord.x as f32 * config.chunk_size > 19_000.0),
        "a chunk from the start is still there"
    );
    // Entities and meshes stay within the chunks one position needs (plus the hysteresis ring).
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
fn a_chunk_despawned_while_generating_never_reappears() {
    let config = TerrainConfig {
        max_tasks_in_flight: 64,
        ..small_config()
    };
    let (mut app, viewer) = app(config.clone(), Vec3::new(0.0, 80.0, 0.0));
    app.update();
    app.update();
    let registry = app.world().resource::<ChunkRegistry>();
    let started: Vec<IVec2> = (-3..=3)
        .flat_map(|x| (-3..=3).map(move |z| IVec2::new(x, z)))
        .filter(|c| registry.is_pending(*c))
        .collect();
    assert!(!started.is_empty(), "tasks started near the origin");
    // Leave before they finish.
    app.world_mut()
        .get_mut::<Transform>(viewer)
        .expect("viewer")
        .translation
        .x = 20_000.0;
    let mut spawned_near_origin = Vec::new();
    for _ in 0..600 {
        app.update();
        let mut messages = app.world_mut().resource_mut::<Messages<ChunkSpawned>>();
        spawned_near_origin.extend(
            messages
                .drain()
                .filter(|m| m.coord.x.abs() < 20)
                .map(|m| m.coord),
        );
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let registry = app.world().resource::<ChunkRegistry>();
    for coord in started {
        assert!(
            registry.chunk(coord).is_none() && !registry.is_pending(coord),
            "{coord} came back"
        );
    }
    // Anything that did land near the origin before the viewer's move is gone again.
    assert!(
        chunks(&mut app).iter().all(|(_, c)| c.coord.x > 100),
        "{spawned_near_origin:?}"
    );
}
