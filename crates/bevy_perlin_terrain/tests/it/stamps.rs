//! Stamps and paths, from a game's side: a flat site is flat at every level-0 vertex and through
//! the sampler, only the chunks it touches are rebuilt, removing it restores the ground bit for
//! bit, moving it rebuilds where it was and where it is; a road is level across and keeps the scatter off; stamps in a file parse, round-trip and
//! are checked by name; bad components are left out without a panic.

use crate::common::*;
use bevy::math::DVec2;
use bevy::prelude::*;
use bevy_perlin_terrain::config::parse_config;
use bevy_perlin_terrain::prelude::*;
use std::collections::{HashMap, HashSet};

/// Every chunk's vertex positions, bit for bit, by level and coordinates.
fn ground_bits(app: &mut App) -> HashMap<(u8, IVec2), Vec<[u32; 3]>> {
    chunks(app)
        .into_iter()
        .map(|(e, c)| {
            let (positions, _) = mesh_of(app, e);
            let bits = positions.iter().map(|p| p.map(f32::to_bits)).collect();
            ((c.lod, c.coord), bits)
        })
        .collect()
}

/// Whether chunk `info`'s footprint meets the square of half-side `reach` around `centre`.
fn meets(info: &ChunkInfo, centre: Vec2, reach: f32) -> bool {
    let r = info.rect();
    r.min.x <= centre.x + reach
        && r.max.x >= centre.x - reach
        && r.min.y <= centre.y + reach
        && r.max.y >= centre.y - reach
}

#[test]
fn a_flat_site_is_flat_everywhere_it_is_read_and_only_its_chunks_are_rebuilt() {
    let config = TerrainConfig {
        height_scale: 80.0,
        ..small_config()
    };
    let (mut app, _) = app(config.clone(), Vec3::new(0.0, 60.0, 0.0));
    settle(&mut app);
    let before = ground_bits(&mut app);
    drain::<ChunkRemeshed>(&mut app);
    drain::<ChunkSpawned>(&mut app);

    // A site 40 m across with a 20 m falloff, 100 m out: level-0 chunks, and coarser ones
    // around it.
    let (centre, height, radius, falloff) = (Vec2::new(100.0, -60.0), 12.5, 40.0, 20.0);
    let stamp = app
        .world_mut()
        .spawn((
            TerrainStamp {
                shape: StampShape::Circle { radius },
                falloff,
                op: StampOp::Flatten,
                clear_scatter: true,
            },
            Transform::from_xyz(centre.x, height, centre.y),
        ))
        .id();
    let (remeshed, _) = collect_until::<ChunkRemeshed>(&mut app, "the site is built", settled);
    assert!(
        drain::<ChunkSpawned>(&mut app).is_empty(),
        "the viewer did not move"
    );

    // Exactly the chunks whose footprint meets the stamp's reach are rebuilt, at every level.
    let reach = radius + falloff;
    let on_screen: Vec<ChunkInfo> = app.world().resource::<ChunkRegistry>().iter().collect();
    let expected: HashSet<(u8, IVec2)> = on_screen
        .iter()
        .filter(|c| meets(c, centre, reach))
        .map(|c| (c.lod, c.coord))
        .collect();
    let rebuilt: HashSet<(u8, IVec2)> = remeshed.iter().map(|m| (m.lod, m.coord)).collect();
    assert_eq!(rebuilt, expected);
    assert!(
        expected.iter().any(|k| k.0 == 0) && expected.len() < on_screen.len() / 4,
        "{} of {} chunks touched",
        expected.len(),
        on_screen.len()
    );
    let after = ground_bits(&mut app);
    for (key, bits) in &after {
        if !expected.contains(key) {
            assert_eq!(Some(bits), before.get(key), "chunk {key:?} changed");
        }
    }

    // Inside the site: its height at every level-0 vertex, and through the sampler, exactly;
    // the sampler equals the mesh at every vertex of the rebuilt level-0 chunks.
    let sampler = app.world().resource::<TerrainSampler>().clone();
    let n = config.chunk_resolution;
    let (mut inside, mut compared) = (0, 0);
    for info in on_screen
        .iter()
        .filter(|c| c.lod == 0 && expected.contains(&(0, c.coord)))
    {
        let (positions, normals) = mesh_of(&app, info.entity);
        for j in 0..n {
            for i in 0..n {
                let [x, z] = config.vertex_position(info.coord, 0, i, j);
                let v = (j * n + i) as usize;
                let (h, normal) = sampler.height_and_normal(x, z);
                assert_eq!(
                    positions[v][1].to_bits(),
                    h.to_bits(),
                    "height at ({x}, {z})"
                );
                assert_eq!(normals[v], normal.to_array(), "normal at ({x}, {z})");
                compared += 1;
                if DVec2::new(x, z).distance(centre.as_dvec2()) <= radius as f64 {
                    assert_eq!(positions[v][1], height, "level-0 vertex at ({x}, {z})");
                    assert_eq!(h, height);
                    assert_eq!(normal, Vec3::Y);
                    inside += 1;
                }
            }
        }
    }
    assert!(inside > 1000, "only {inside} vertices inside the site");
    assert!(compared > inside);

    // Removing it restores the ground bit for bit, rebuilding the same chunks.
    app.world_mut().entity_mut(stamp).despawn();
    let (remeshed, _) = collect_until::<ChunkRemeshed>(&mut app, "the site is gone", settled);
    let rebuilt: HashSet<(u8, IVec2)> = remeshed.iter().map(|m| (m.lod, m.coord)).collect();
    assert_eq!(rebuilt, expected);
    assert_eq!(ground_bits(&mut app), before);
    let sampler = app.world().resource::<TerrainSampler>().clone();
    assert_ne!(sampler.height(100.0, -60.0), height);
}

#[test]
fn a_road_is_level_across_follows_its_curve_and_keeps_the_scatter_off() {
    let config = TerrainConfig {
        height_scale: 60.0,
        scatter: vec![layer("posts", 2.0, 2000.0)],
        ..small_config()
    };
    let (mut app, _) = app(config, Vec3::new(0.0, 60.0, 0.0));
    settle(&mut app);
    let points = vec![
        Vec3::new(-90.0, 5.0, -40.0),
        Vec3::new(0.0, 9.0, 0.0),
        Vec3::new(90.0, 4.0, 40.0),
    ];
    let road = TerrainPath {
        points: points.clone(),
        width: 8.0,
        falloff: 10.0,
        op: PathOp::Road,
        clear_scatter: true,
    };
    app.world_mut().spawn(road);
    settle(&mut app);
    run_until(&mut app, "the scatter settles", |app| {
        app.world().resource::<ScatterRegistry>().is_settled()
    });
    app.update();

    let sampler = app.world().resource::<TerrainSampler>().clone();
    // It passes through its points at their heights.
    for p in &points {
        assert_eq!(sampler.height(p.x as f64, p.z as f64), p.y, "at {p}");
    }
    // Level across: the points lie on one line, so the curve does too (its heights rise and
    // fall smoothly); 3 m either side of the centre line the height is the centre's.
    let (a, b) = (points[0].xz(), points[1].xz());
    let dir = (b - a).normalize();
    let across = dir.perp();
    for k in 1..8 {
        let c = a + (b - a) * (k as f32 / 8.0);
        let h = |p: Vec2| sampler.height(p.x as f64, p.y as f64);
        let centre = h(c);
        for side in [-3.0, 3.0] {
            let off = h(c + across * side);
            assert!(
                (off - centre).abs() < 1e-3,
                "{k}: {off} at {side} m across vs {centre}"
            );
        }
        // And the ground 30 m away is the noise's (not level with the road).
        assert!(
            sampler
                .normal(
                    (c.x + across.x * 30.0) as f64,
                    (c.y + across.y * 30.0) as f64
                )
                .y
                < 1.0
        );
    }
    // No post stands on the road (its width and the inner half of its falloff).
    let mut posts = app
        .world_mut()
        .query_filtered::<&GlobalTransform, With<ScatterInstance>>();
    let positions: Vec<Vec3> = posts.iter(app.world()).map(|t| t.translation()).collect();
    assert!(positions.len() > 1000, "{} posts", positions.len());
    let mut near_road = 0;
    for p in &positions {
        assert!(
            !sampler.is_cleared(p.x as f64, p.z as f64),
            "a post at {p} stands on the road"
        );
        let along = (p.xz() - a).dot(dir);
        let off = (p.xz() - a).dot(across).abs();
        if along > 10.0 && along < (b - a).length() - 10.0 && off < 20.0 {
            near_road += 1;
        }
    }
    // Beyond the cleared strip (4 m + 5 m each side) posts still grow.
    assert!(near_road > 20, "{near_road} posts beside the road");
}

#[test]
fn stamps_and_paths_in_a_file_parse_round_trip_and_are_checked_by_name() {
    let text = r#"(
        stamps: [
            (position: (400.0, 35.0, -250.0), yaw: 20.0,
             stamp: (shape: Rect(half_extents: (60.0, 40.0)), falloff: 30.0, op: Flatten, clear_scatter: true)),
            (position: (0.0, 0.0, 0.0), stamp: (op: Crater(depth: 12.0))),
        ],
        paths: [
            (points: [(0.0, 10.0, 0.0), (100.0, 14.0, 50.0)], width: 7.0, op: Channel(depth: 3.0)),
        ],
    )"#;
    let config = parse_config("world.terrain.ron", text.as_bytes()).expect("a valid file");
    assert_eq!(config.stamps.len(), 2);
    assert_eq!(
        config.stamps[0].stamp.shape,
        StampShape::Rect {
            half_extents: Vec2::new(60.0, 40.0)
        }
    );
    assert_eq!(config.stamps[1].stamp.op, StampOp::Crater { depth: 12.0 });
    assert_eq!(config.paths[0].op, PathOp::Channel { depth: 3.0 });
    let again = parse_config("again", config.to_ron().as_bytes()).expect("its own output");
    assert_eq!(again, config);

    let bad = [
        (
            "(stamps: [(stamp: (shape: Circle(radius: 0.0)))])",
            "stamps[0].stamp.shape.radius",
        ),
        (
            "(stamps: [(position: (1e20, 0.0, 0.0))])",
            "stamps[0].position",
        ),
        ("(paths: [(points: [(0.0, 0.0, 0.0)])])", "paths[0].points"),
        (
            "(paths: [(points: [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)], width: -2.0)])",
            "paths[0].width",
        ),
        (
            "(stamps: [(stamp: (op: Raise(inf)))])",
            "stamps[0].stamp.op.Raise",
        ),
    ];
    for (text, field) in bad {
        let e = parse_config("bad.terrain.ron", text.as_bytes()).expect_err(text);
        let message = e.to_string();
        assert!(
            message.contains("bad.terrain.ron") && message.contains(field),
            "{text}: {message}"
        );
    }
}

#[test]
fn bad_stamps_are_left_out_and_the_terrain_stays() {
    let (mut app, _) = app(small_config(), Vec3::new(0.0, 60.0, 0.0));
    settle(&mut app);
    let before = ground_bits(&mut app);
    drain::<ChunkRemeshed>(&mut app);
    for (stamp, at) in [
        (TerrainStamp::default(), Vec3::new(f32::NAN, 0.0, 0.0)),
        (
            TerrainStamp {
                shape: StampShape::Rect {
                    half_extents: Vec2::new(-3.0, 4.0),
                },
                ..default()
            },
            Vec3::ZERO,
        ),
        (
            TerrainStamp {
                falloff: f32::INFINITY,
                ..default()
            },
            Vec3::ZERO,
        ),
    ] {
        app.world_mut()
            .spawn((stamp, Transform::from_translation(at)));
    }
    app.world_mut().spawn(TerrainPath {
        points: vec![Vec3::ZERO; 5_000],
        ..default()
    });
    for _ in 0..5 {
        app.update();
    }
    assert!(drain::<ChunkRemeshed>(&mut app).is_empty());
    assert_eq!(ground_bits(&mut app), before);
    assert!(app.world().resource::<TerrainSampler>().edits().is_empty());
}

#[test]
fn a_moved_stamp_rebuilds_where_it_was_and_where_it_is() {
    let (mut app, _) = app(small_config(), Vec3::new(0.0, 60.0, 0.0));
    settle(&mut app);
    let before = app.world().resource::<TerrainSampler>().clone();
    let stamp = TerrainStamp {
        shape: StampShape::Circle { radius: 20.0 },
        falloff: 10.0,
        op: StampOp::Raise(8.0),
        clear_scatter: false,
    };
    let (a, b) = (Vec2::new(-90.0, 40.0), Vec2::new(70.0, -50.0));
    let entity = app
        .world_mut()
        .spawn((stamp, Transform::from_xyz(a.x, 0.0, a.y)))
        .id();
    settle(&mut app);
    let raised = |app: &App, p: Vec2| {
        let now = app
            .world()
            .resource::<TerrainSampler>()
            .height(p.x as f64, p.y as f64);
        now - before.height(p.x as f64, p.y as f64)
    };
    assert!((raised(&app, a) - 8.0).abs() < 1e-4);
    drain::<ChunkRemeshed>(&mut app);
    if let Some(mut t) = app.world_mut().get_mut::<Transform>(entity) {
        t.translation = Vec3::new(b.x, 0.0, b.y);
    }
    let (remeshed, _) = collect_until::<ChunkRemeshed>(&mut app, "the stamp moved", settled);
    assert_eq!(raised(&app, a), 0.0);
    assert!((raised(&app, b) - 8.0).abs() < 1e-4);
    let on_screen: Vec<ChunkInfo> = app.world().resource::<ChunkRegistry>().iter().collect();
    let expected: HashSet<(u8, IVec2)> = on_screen
        .iter()
        .filter(|c| meets(c, a, 30.0) || meets(c, b, 30.0))
        .map(|c| (c.lod, c.coord))
        .collect();
    let rebuilt: HashSet<(u8, IVec2)> = remeshed.iter().map(|m| (m.lod, m.coord)).collect();
    assert_eq!(rebuilt, expected);
}

/// The union of the areas of `messages`, which must be finite.
fn covered(messages: &[TerrainGroundChanged]) -> Rect {
    let mut all = messages.iter().flat_map(|m| m.areas.iter().copied());
    let first = all.next().expect("an area");
    all.fold(first, |a, b| a.union(b))
}

#[test]
fn every_change_of_the_ground_is_announced_with_where_and_nothing_else_is() {
    let (mut app, _) = app(small_config(), Vec3::new(0.0, 60.0, 0.0));
    settle(&mut app);
    drain::<TerrainGroundChanged>(&mut app);
    let sampler_height =
        |app: &App, x: f64, z: f64| app.world().resource::<TerrainSampler>().height(x, z);
    let outside = [(300.0, 300.0), (-200.0, 40.0), (100.0, 60.0)];
    let before: Vec<f32> = outside
        .iter()
        .map(|&(x, z)| sampler_height(&app, x, z))
        .collect();

    // A crater 30 m across with a 10 m falloff at (100, -60): one message, over its reach.
    let stamp = app
        .world_mut()
        .spawn((
            TerrainStamp {
                shape: StampShape::Circle { radius: 15.0 },
                falloff: 10.0,
                op: StampOp::Crater { depth: 8.0 },
                clear_scatter: false,
            },
            Transform::from_xyz(100.0, 0.0, -60.0),
        ))
        .id();
    app.update();
    let spawned = drain::<TerrainGroundChanged>(&mut app);
    assert_eq!(spawned.len(), 1, "{spawned:?}");
    let area = covered(&spawned);
    assert!(
        area.contains(Vec2::new(75.0, -85.0)) && area.contains(Vec2::new(125.0, -35.0)),
        "holds the reach: {area:?}"
    );
    assert!(
        area.width() < 80.0 && area.height() < 80.0,
        "and not much more: {area:?}"
    );
    // Outside every area, the ground is what it was.
    for (&(x, z), &h) in outside.iter().zip(&before) {
        assert!(!spawned[0].touches(Rect::new(x as f32, z as f32, x as f32, z as f32)));
        assert_eq!(sampler_height(&app, x, z), h, "({x}, {z})");
    }

    // Moved: where it was and where it is.
    app.world_mut()
        .entity_mut(stamp)
        .insert(Transform::from_xyz(-100.0, 0.0, 60.0));
    app.update();
    let moved = drain::<TerrainGroundChanged>(&mut app);
    let area = covered(&moved);
    assert!(area.contains(Vec2::new(100.0, -60.0)) && area.contains(Vec2::new(-100.0, 60.0)));
    // Despawned: where it was.
    app.world_mut().entity_mut(stamp).despawn();
    app.update();
    let gone = drain::<TerrainGroundChanged>(&mut app);
    assert!(covered(&gone).contains(Vec2::new(-100.0, 60.0)));
    // Idle frames say nothing.
    settle(&mut app);
    drain::<TerrainGroundChanged>(&mut app);
    app.update();
    assert!(drain::<TerrainGroundChanged>(&mut app).is_empty());

    // A config that changes only colors leaves the ground: nothing announced. One that
    // reshapes it announces the whole plane.
    let mut recolored = small_config();
    recolored.colors.rock = [0.9, 0.1, 0.1];
    *app.world_mut().resource_mut::<TerrainConfigSource>() = TerrainConfigSource::Fixed(recolored);
    app.update();
    assert!(drain::<TerrainGroundChanged>(&mut app).is_empty());
    let reshaped = TerrainConfig {
        height_scale: small_config().height_scale * 2.0,
        ..small_config()
    };
    *app.world_mut().resource_mut::<TerrainConfigSource>() = TerrainConfigSource::Fixed(reshaped);
    app.update();
    assert_eq!(
        drain::<TerrainGroundChanged>(&mut app),
        vec![TerrainGroundChanged::everywhere()]
    );
}
