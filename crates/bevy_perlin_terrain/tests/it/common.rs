//! What the plugin's tests share on top of the workspace's harness (`terrain_test_support`: the
//! headless app, and the waits until the terrain settles, re-exported here): small configs,
//! and helpers that move viewers and read chunks, meshes and messages.

#![allow(dead_code, reason = "each test module uses a part")]

use bevy::mesh::{Mesh, VertexAttributeValues};
use bevy::prelude::*;
use bevy_perlin_terrain::prelude::*;
use terrain_test_support::HeadlessApp;

pub use terrain_test_support::{run_until, settle, settled};

/// The error `parse_config` gives for `ron` read as `terrain/bad.terrain.ron` (a panic if it
/// accepts it).
pub fn error_text(ron: &str) -> String {
    match bevy_perlin_terrain::config::parse_config("terrain/bad.terrain.ron", ron.as_bytes()) {
        Ok(config) => panic!("accepted {config:?}"),
        Err(e) => e.to_string(),
    }
}

/// A small, quick terrain: 32 m chunks of 17 vertices, full detail to 160 m, a 400 m view in
/// three levels (32, 64 and 128 m chunks).
pub fn small_config() -> TerrainConfig {
    TerrainConfig {
        seed: 11,
        chunk_size: 32.0,
        chunk_resolution: 17,
        view_distance: 400.0,
        lod_distance: 160.0,
        max_tasks_in_flight: 6,
        max_uploads_per_frame: 3,
        ..TerrainConfig::default()
    }
}

/// A scatter layer `name` everywhere (every height and slope), `spacing` metres apart at
/// `density` per hectare, out to 100 m.
pub fn layer(name: &str, spacing: f32, density: f32) -> bevy_perlin_terrain::ScatterLayer {
    bevy_perlin_terrain::ScatterLayer {
        name: name.into(),
        spacing,
        density,
        height: bevy_perlin_terrain::SoftRange {
            min: -1e5,
            max: 1e5,
            fade: 0.0,
        },
        view_distance: 100.0,
        ..default()
    }
}

/// The workspace's headless app ([`HeadlessApp`]) with assets from `asset_dir`, the terrain
/// `plugin`, and one viewer at `viewer`.
pub fn app_with(plugin: PerlinTerrainPlugin, asset_dir: &str, viewer: Vec3) -> (App, Entity) {
    HeadlessApp::new()
        .asset_dir(asset_dir)
        .terrain(plugin, viewer)
}

/// The workspace's headless app with the terrain of `config` and one viewer at `viewer`.
pub fn app(config: TerrainConfig, viewer: Vec3) -> (App, Entity) {
    HeadlessApp::new().terrain(PerlinTerrainPlugin::from_config(config), viewer)
}

/// Puts `viewer` at `at`.
pub fn place(app: &mut App, viewer: Entity, at: Vec3) {
    if let Some(mut t) = app.world_mut().get_mut::<Transform>(viewer) {
        t.translation = at;
    }
}

/// Moves `viewer` by `by`.
pub fn shift(app: &mut App, viewer: Entity, by: Vec3) {
    if let Some(mut t) = app.world_mut().get_mut::<Transform>(viewer) {
        t.translation += by;
    }
}

/// `(entity, chunk)` of every chunk entity in the world.
pub fn chunks(app: &mut App) -> Vec<(Entity, TerrainChunk)> {
    let mut q = app.world_mut().query::<(Entity, &TerrainChunk)>();
    let mut all: Vec<_> = q.iter(app.world()).map(|(e, c)| (e, *c)).collect();
    all.sort_by_key(|(_, c)| (c.lod, c.coord.x, c.coord.y));
    all
}

/// The messages of type `M` written since the last call (drains them).
pub fn drain<M: Message>(app: &mut App) -> Vec<M> {
    app.world_mut()
        .resource_mut::<Messages<M>>()
        .drain()
        .collect()
}

/// Positions and normals of a chunk entity's mesh.
pub fn mesh_of(app: &App, entity: Entity) -> (Vec<[f32; 3]>, Vec<[f32; 3]>) {
    let world = app.world();
    let handle = &world.get::<Mesh3d>(entity).expect("chunk has a mesh").0;
    let mesh = world
        .resource::<Assets<Mesh>>()
        .get(handle)
        .expect("mesh asset exists");
    let get = |id| match mesh.try_attribute(id) {
        Ok(VertexAttributeValues::Float32x3(v)) => v.clone(),
        other => panic!("unexpected attribute {other:?}"),
    };
    (get(Mesh::ATTRIBUTE_POSITION), get(Mesh::ATTRIBUTE_NORMAL))
}

/// The messages of type `M` written in every frame until `done` (drained each frame, so none is
/// lost whatever the wall clock), and the frames it took.
pub fn collect_until<M: Message>(
    app: &mut App,
    what: &str,
    mut done: impl FnMut(&mut App) -> bool,
) -> (Vec<M>, usize) {
    let mut all = Vec::new();
    let frames = run_until(app, what, |app| {
        all.extend(drain::<M>(app));
        done(app)
    });
    (all, frames)
}

/// Every chunk on screen as its footprint: `(lod, x, z, size)` in metres.
pub fn footprints(app: &App) -> Vec<(u8, Rect)> {
    app.world()
        .resource::<ChunkRegistry>()
        .iter()
        .map(|c| (c.lod, c.rect()))
        .collect()
}

/// How many chunks on screen cover the terrain-space point `p` (`x`, `z`): 1 where the ground
/// is covered once.
pub fn coverage(rects: &[(u8, Rect)], p: Vec2) -> usize {
    rects
        .iter()
        .filter(|(_, r)| p.x >= r.min.x && p.x < r.max.x && p.y >= r.min.y && p.y < r.max.y)
        .count()
}
