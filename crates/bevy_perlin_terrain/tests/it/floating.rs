//! A floating origin (big_space), headless: a viewer 10 000 km out on both axes gets the same
//! exact ground as at home. Chunks are placed by grid cell, every vertex near the viewer is the
//! sampler's surface at its true position, what is drawn is where it belongs relative to the
//! floating origin, a 300 m/s flight keeps the ground covered once, and stamps placed by cell
//! cut the ground where they stand.

use crate::common::*;
use bevy::app::Plugins;
use bevy::math::{DVec2, DVec3};
use bevy::prelude::*;
use bevy_perlin_terrain::prelude::*;
use big_space::plugin::BigSpaceMinimalPlugins;
use big_space::prelude::*;
use terrain_test_support::HeadlessApp;

/// Where the viewer flies: 10 000 km from the origin on both axes, 300 m up.
const FAR: DVec3 = DVec3::new(1e7, 300.0, -1e7);

/// A headless app with big_space's propagation (instead of Bevy's), `plugins`, a big space and
/// a viewer carrying its floating origin at `at`: the app, the viewer and the big space.
fn far_app<M>(plugins: impl Plugins<M>, at: DVec3) -> (App, Entity, Entity) {
    let mut app = HeadlessApp::new()
        .without_transform_plugin()
        .build((BigSpaceMinimalPlugins, plugins));
    let (viewer, space) = spawn_far_viewer(&mut app, at);
    (app, viewer, space)
}

/// A big space and a viewer carrying its floating origin at `at`, placed by cell: the viewer
/// and the big space.
fn spawn_far_viewer(app: &mut App, at: DVec3) -> (Entity, Entity) {
    let world = app.world_mut();
    let space = world.spawn(BigSpaceRootBundle::default()).id();
    let (cell, offset) = Grid::default().translation_to_grid(at);
    let viewer = world
        .spawn((
            TerrainViewer,
            FloatingOrigin,
            cell,
            Transform::from_translation(offset),
            ChildOf(space),
        ))
        .id();
    (viewer, space)
}

/// Where the viewer truly is: its cell and offset in the big space's grid.
fn true_position(app: &App, entity: Entity) -> DVec3 {
    let world = app.world();
    let cell = world.get::<CellCoord>(entity).expect("a cell");
    let transform = world.get::<Transform>(entity).expect("a transform");
    Grid::default().grid_position_double(cell, transform)
}

/// The terrain's root, which must be a grid of `space` at its origin.
fn root_grid(app: &App, space: Entity) -> (Entity, Grid) {
    let registry = app.world().resource::<ChunkRegistry>();
    let root = registry.root().expect("a root");
    let world = app.world();
    assert_eq!(world.get::<ChildOf>(root).map(|c| c.parent()), Some(space));
    assert_eq!(world.get::<CellCoord>(root), Some(&CellCoord::ZERO));
    let grid = world.get::<Grid>(root).expect("the root is a grid").clone();
    (root, grid)
}

#[test]
fn far_out_every_vertex_near_the_viewer_is_the_surface_at_its_true_position() {
    let config = small_config();
    let (mut app, viewer, space) = far_app(PerlinTerrainPlugin::from_config(config.clone()), FAR);
    app.update();
    // Low enough over the ground for full detail under the viewer.
    let sampler = app.world().resource::<TerrainSampler>().clone();
    let low = f64::from(sampler.height(FAR.x, FAR.z)) + 30.0;
    shift(&mut app, viewer, Vec3::Y * (low - FAR.y) as f32);
    settle(&mut app);
    let (_, grid) = root_grid(&app, space);
    let registry = app.world().resource::<ChunkRegistry>();
    let planned = registry.viewer_positions()[0];
    let eye = true_position(&app, viewer);
    assert!(
        planned.distance(eye) < 1e-3 && eye.xz().distance(FAR.xz()) < 1e-3,
        "the planner saw the viewer at {planned}, not {eye}"
    );
    let infos: Vec<_> = registry.iter().filter(|c| c.lod == 0).collect();
    let (mut checked, mut vertices, mut worst, mut worst_drawn) = (0, 0, 0.0f64, 0.0f64);
    for info in infos {
        let corner = info.corner();
        let near = (corner + 0.5 * f64::from(info.rect().width()) - eye.xz())
            .abs()
            .max_element();
        if near > 150.0 {
            continue;
        }
        let world = app.world();
        let cell = world.get::<CellCoord>(info.entity).expect("a chunk's cell");
        let transform = world.get::<Transform>(info.entity).expect("a transform");
        // Placed through its cell, exactly at its corner.
        let placed = grid.grid_position_double(cell, transform);
        assert!(
            placed.distance(DVec3::new(corner.x, 0.0, corner.y)) < 1e-3,
            "chunk {:?} of level {} placed at {placed}, its corner is {corner}",
            info.coord,
            info.lod
        );
        // Drawn where it belongs relative to the floating origin (the viewer's cell).
        let global = world.get::<GlobalTransform>(info.entity).expect("drawn");
        let origin_cell = world.get::<CellCoord>(viewer).expect("the viewer's cell");
        let drawn_at = global.translation().as_dvec3() + Grid::default().cell_to_float(origin_cell);
        let (positions, _) = mesh_of(&app, info.entity);
        // The grid's vertices (the skirts after them hang below on purpose).
        let n = config.chunk_resolution as usize;
        for p in positions.into_iter().take(n * n) {
            let at = DVec2::new(placed.x + f64::from(p[0]), placed.z + f64::from(p[2]));
            let surface = f64::from(sampler.height(at.x, at.y));
            worst = worst.max((f64::from(p[1]) - surface).abs());
            let drawn = drawn_at + DVec3::new(f64::from(p[0]), f64::from(p[1]), f64::from(p[2]));
            worst_drawn = worst_drawn.max(drawn.distance(DVec3::new(at.x, surface, at.y)));
            vertices += 1;
        }
        checked += 1;
    }
    eprintln!(
        "{checked} chunks, {vertices} vertices near the viewer: {worst:e} m from the surface, drawn within {worst_drawn:e} m"
    );
    assert!(checked >= 16, "only {checked} chunks near the viewer");
    assert!(worst < 1e-3, "a vertex {worst} m off the surface");
    assert!(worst_drawn < 1e-3, "a vertex drawn {worst_drawn} m off");
}

#[test]
fn far_out_a_300_m_per_s_flight_keeps_the_ground_covered_once_across_cells() {
    let config = TerrainConfig {
        view_distance: 1500.0,
        max_tasks_in_flight: 16,
        max_uploads_per_frame: 16,
        ..small_config()
    };
    let (mut app, viewer, _) = far_app(PerlinTerrainPlugin::from_config(config.clone()), FAR);
    settle(&mut app);
    let start = app.world().get::<CellCoord>(viewer).copied();
    let inner = config.view_distance - config.lod_layout().size(config.lod_layout().top()) as f32;
    let mut holes = 0;
    // 300 m/s at 60 frames a second: 3 km east, through at least one cell of the grid.
    for _ in 0..600 {
        shift(&mut app, viewer, Vec3::new(5.0, 0.0, 0.0));
        app.update();
        let at = true_position(&app, viewer);
        let chunks: Vec<_> = app.world().resource::<ChunkRegistry>().iter().collect();
        let covering = |p: DVec2| {
            chunks
                .iter()
                .filter(|c| {
                    let min = c.corner();
                    let size = f64::from(c.rect().width());
                    p.x >= min.x && p.x < min.x + size && p.y >= min.y && p.y < min.y + size
                })
                .count()
        };
        let hole = (0..300).any(|k| {
            let angle = k as f64 * 2.399;
            let r = f64::from(inner) * ((k as f64 + 0.5) / 300.0).sqrt();
            covering(at.xz() + r * DVec2::new(angle.cos(), angle.sin())) != 1
        });
        holes += usize::from(hole);
    }
    let moved = true_position(&app, viewer) - FAR;
    assert!(
        moved.distance(DVec3::new(3000.0, 0.0, 0.0)) < 0.01,
        "{moved}"
    );
    assert_ne!(
        app.world().get::<CellCoord>(viewer).copied(),
        start,
        "the viewer stayed in its cell"
    );
    assert_eq!(holes, 0, "frames with a hole or an overlap");
}

#[test]
fn a_stamp_placed_by_cell_far_out_cuts_the_ground_where_it_stands() {
    let config = small_config();
    let (mut app, _, space) = far_app(PerlinTerrainPlugin::from_config(config), FAR);
    settle(&mut app);
    let at = FAR.xz() + DVec2::new(20.0, 10.0);
    let before = app.world().resource::<TerrainSampler>().height(at.x, at.y);
    let beyond = app
        .world()
        .resource::<TerrainSampler>()
        .height(at.x + 21.0, at.y);
    let (cell, offset) = Grid::default().translation_to_grid(DVec3::new(at.x, 0.0, at.y));
    app.world_mut().spawn((
        TerrainStamp {
            shape: StampShape::Circle { radius: 15.0 },
            falloff: 5.0,
            op: StampOp::Flatten,
            ..default()
        },
        cell,
        Transform::from_translation(offset + Vec3::Y * (before - 12.0)),
        ChildOf(space),
    ));
    settle(&mut app);
    let sampler = app.world().resource::<TerrainSampler>().clone();
    let after = sampler.height(at.x, at.y);
    assert!(
        (after - (before - 12.0)).abs() < 1e-3,
        "the ground at the stamp's centre is {after}, the stamp's height {}",
        before - 12.0
    );
    // Its edge is where it stands, to the millimetre: 15 m out the ground is flat, 21 m out
    // it is the ground's own.
    let inside = sampler.height(at.x + 14.9, at.y);
    assert!((inside - after).abs() < 1e-3, "{inside} inside the stamp");
    let outside = (sampler.height(at.x + 21.0, at.y) - beyond).abs();
    assert!(outside < 1e-6, "the ground 21 m out moved by {outside}");
}

/// A block (a ball that does not turn) dropped 2 m onto the ground 10 000 km out, placed by
/// cell beside the viewer, comes to rest on the ground there, and stays there, to the
/// millimetre, when the floating origin moves 3 km on to another cell.
#[cfg(feature = "avian")]
#[test]
fn far_out_a_body_rests_on_the_ground_and_stays_when_the_origin_moves_on() {
    use avian3d::prelude::*;
    use bevy::time::TimeUpdateStrategy;
    let config = TerrainConfig {
        chunk_size: 16.0,
        view_distance: 60.0,
        ..small_config()
    };
    let mut app = HeadlessApp::new()
        .without_transform_plugin()
        .time(TimeUpdateStrategy::FixedTimesteps(1))
        .build((
            BigSpaceMinimalPlugins,
            PhysicsPlugins::default(),
            PerlinTerrainPlugin::from_config(config),
        ));
    let (viewer, space) = spawn_far_viewer(&mut app, FAR);
    app.update();
    let at = FAR.xz() + DVec2::new(7.3, -4.1);
    let ground = f64::from(app.world().resource::<TerrainSampler>().height(at.x, at.y));
    let r = 0.5;
    let (cell, offset) =
        Grid::default().translation_to_grid(DVec3::new(at.x, ground + r + 2.0, at.y));
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::sphere(r as f32),
            Friction::new(0.8),
            LinearDamping(0.2),
            LockedAxes::ROTATION_LOCKED,
            TerrainColliderAnchor,
            cell,
            Transform::from_translation(offset),
            ChildOf(space),
        ))
        .id();
    let rest = |app: &App| {
        let p = true_position(app, body);
        let sampler = app.world().resource::<TerrainSampler>();
        let (h, n) = sampler.height_and_normal(p.x, p.z);
        (p, p.y - f64::from(h) - r / f64::from(n.y))
    };
    for _ in 0..240 {
        app.update();
    }
    let (resting, gap) = rest(&app);
    let speed = app
        .world()
        .get::<LinearVelocity>(body)
        .expect("a body")
        .0
        .length();
    eprintln!("at rest {gap:e} m over the ground at {resting}, {speed} m/s");
    assert!(gap.abs() < 0.02, "the body is {gap} m over the ground");
    assert!(speed < 0.05, "the body still moves at {speed} m/s");
    assert!(resting.xz().distance(at) < 0.5, "it slid to {resting}");
    // The origin moves on 3 km (another cell): every `GlobalTransform` shifts; the body stays.
    shift(&mut app, viewer, Vec3::new(3000.0, 0.0, 0.0));
    for _ in 0..60 {
        app.update();
    }
    let (after, gap) = rest(&app);
    assert!(
        gap.abs() < 0.02,
        "after the move the body is {gap} m over the ground"
    );
    assert!(
        after.distance(resting) < 1e-3,
        "the body moved from {resting} to {after} when the origin moved"
    );
}

/// Far out, through the floating origin's changes of cell, the morph measures from where the
/// viewers are drawn and the shaders' origin is the origin's cell, in the frame the cell
/// changes (big_space moves the origin in `PostUpdate`).
#[cfg(feature = "render")]
#[test]
fn far_out_the_morph_and_the_shaders_follow_the_origin_in_the_frame_it_moves() {
    use bevy_perlin_terrain::WaterMaterial;
    let config = TerrainConfig {
        clouds: Some(Clouds::default()),
        ..small_config()
    };
    let (mut app, viewer, _) = far_app(PerlinTerrainPlugin::from_config(config), FAR);
    app.init_asset::<Image>()
        .init_asset::<StandardMaterial>()
        .init_asset::<TerrainMaterial>()
        .init_asset::<WaterMaterial>();
    settle(&mut app);
    let mut cells = std::collections::HashSet::new();
    // 60 frames at 50 m: 3 km east, through a cell or two of 2 km.
    for _ in 0..60 {
        shift(&mut app, viewer, Vec3::new(50.0, 0.0, 0.0));
        app.update();
        let world = app.world();
        let cell = *world.get::<CellCoord>(viewer).expect("the viewer's cell");
        cells.insert(cell);
        let origin = Grid::default().cell_to_float(&cell);
        let planned = world.resource::<ChunkRegistry>().viewer_positions()[0];
        let handle = &world.resource::<TerrainMaterials>().terrain;
        let material = world
            .resource::<Assets<TerrainMaterial>>()
            .get(handle)
            .expect("the terrain material");
        let drawn = material.extension.shading.viewers[0];
        let expected = (planned - origin).xz();
        assert!(
            (f64::from(drawn.x) - expected.x).abs() < 1e-3
                && (f64::from(drawn.y) - expected.y).abs() < 1e-3,
            "the morph measures from {drawn:?}, the viewer is drawn at {expected}"
        );
        let shader_origin = material.extension.weather.origin;
        let wanted = origin.x.rem_euclid(65_536.0);
        assert!(
            (f64::from(shader_origin.x) - wanted).abs() < 1e-3,
            "the shaders' origin is {shader_origin:?}, the origin's cell at {origin}"
        );
    }
    assert!(cells.len() >= 2, "the origin stayed in one cell");
}
