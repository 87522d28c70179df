//! A headless app with the terrain plugin, and helpers to run it until the terrain settles.

#![allow(dead_code)]

use bevy::asset::AssetPlugin;
use bevy::mesh::{Mesh, MeshPlugin, VertexAttributeValues};
use bevy::prelude::*;
use bevy_perlin_terrain::prelude::*;
use std::time::Duration;

/// A small, quick terrain: 32 m chunks of 17 vertices, 160 m view distance, two LOD steps.
pub fn small_config() -> TerrainConfig {
    TerrainConfig {
        seed: 11,
        chunk_size: 32.0,
        chunk_resolution: 17,
        view_distance: 160.0,
        lod_distances: vec![60.0, 110.0],
        max_tasks_in_flight: 6,
        max_uploads_per_frame: 3,
        ..TerrainConfig::default()
    }
}

/// MinimalPlugins + AssetPlugin (assets from `asset_dir`) + TransformPlugin + MeshPlugin + the
/// terrain, and one viewer at `viewer`.
pub fn app_with(plugin: PerlinTerrainPlugin, asset_dir: &str, viewer: Vec3) -> (App, Entity) {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin {
            file_path: asset_dir.to_owned(),
            watch_for_changes_override: Some(false),
            ..default()
        },
        TransformPlugin,
        MeshPlugin,
        plugin,
    ));
    app.finish();
    app.cleanup();
    let viewer = app
        .world_mut()
        .spawn((TerrainViewer, Transform::from_translation(viewer)))
        .id();
    (app, viewer)
}

pub fn app(config: TerrainConfig, viewer: Vec3) -> (App, Entity) {
    app_with(PerlinTerrainPlugin::from_config(config), "assets", viewer)
}

/// Runs updates (letting the background tasks work) until `done`, at most `max` frames;
/// returns the frames it took.
pub fn run_until(
    app: &mut App,
    max: usize,
    mut done: impl FnMut(&mut App) -> bool,
) -> Option<usize> {
    for frame in 1..=max {
        app.update();
        if done(app) {
            return Some(frame);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    None
}

/// Whether every chunk the viewers want is on screen, up to date, and nothing is in flight.
pub fn settled(app: &mut App) -> bool {
    app.world().resource::<ChunkRegistry>().is_settled()
}

/// Runs until the terrain settles, at most 1500 frames (3 s of sleeping); panics otherwise.
pub fn settle(app: &mut App) -> usize {
    run_until(app, 1500, settled).expect("the terrain settles within 1500 frames")
}

/// `(entity, chunk)` of every chunk entity in the world.
pub fn chunks(app: &mut App) -> Vec<(Entity, TerrainChunk)> {
    let mut q = app.world_mut().query::<(Entity, &TerrainChunk)>();
    let mut all: Vec<_> = q.iter(app.world()).map(|(e, c)| (e, *c)).collect();
    all.sort_by_key(|(_, c)| (c.coord.x, c.coord.y));
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
