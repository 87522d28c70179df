//! # bevy_perlin_terrain
//!
//! Endless, seamless procedural terrain for Bevy 0.19, from our own noise library
//! ([`perlin_core`]). Add one plugin, mark the camera as a [`TerrainViewer`], fly:
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_perlin_terrain::prelude::*;
//!
//! App::new()
//!     .add_plugins((DefaultPlugins, PerlinTerrainPlugin::from_asset("terrain/alps.terrain.ron")))
//!     .add_systems(Startup, |mut commands: Commands| {
//!         // In a game this is the camera: `(Camera3d::default(), TerrainViewer, …)`.
//!         commands.spawn((TerrainViewer, Transform::from_xyz(0.0, 200.0, 0.0)));
//!     })
//!     .run();
//! ```
//!
//! The data path, one folder a stage: a [`TerrainConfig`] (from code, or a hot-reloaded
//! `.terrain.ron` asset; `config/`) → the seeded [`TerrainTables`] and the [`TerrainSampler`],
//! and the one code path from noise to heights, normals and creases that everything below
//! shares (`ground/`) → the quadtree of chunks the viewers want, finer near and coarser far,
//! and the builds on the async compute pool (`stream/`, with the task queue of `tasks.rs`) →
//! each chunk's heights, exact normals, morph targets and mesh, off the main thread (`chunk/`)
//! → the game's stamps and paths ([`TerrainStamp`], [`TerrainPath`]) applied on that same path,
//! with a grid index so a chunk finds the few touching it (`edit/`)
//! → chunk entities with [`TerrainChunk`] and `Mesh3d` under one [`TerrainRoot`] → their
//! material, which morphs each level into the next, and the sea (`render/`); the scatter
//! layers' instances on their own full-detail grid around the viewers (`scatter/`); with the
//! `avian` feature, heightfield colliders around every `TerrainColliderAnchor` body (`collider/`);
//! with the `navigation` feature, navigation tiles around every `TerrainNavigator` and the agents
//! that walk them (`navigation/`).
//! The clouds and the sea's waves are functions of position and time from the same seeded
//! noise (`weather/`, at the [`TerrainClock`]'s time), which the sampler answers and the
//! shaders draw (`render/weather.wgsl`).
//! `sets.rs` and `space.rs` are the leaves every stage shares: the system sets and looks, and
//! the terrain's own space.
//!
//! ## Features
//!
//! - `render` (default): the terrain material, the sea, and scatter looks of a mesh and a
//!   material. Without it (`default-features = false`: a server, a tool, a test) the plugin
//!   still streams chunks with their `Mesh3d`, scatter instances with their `Transform`, and
//!   colliders; with it, the materials are added only when the app has Bevy's `RenderPlugin`.
//! - `avian`: static heightfield colliders for avian3d 0.7 around every `TerrainColliderAnchor` body
//!   (see `collider`).
//! - `navigation`: navigation meshes built tile by tile around every `TerrainNavigator`, paths
//!   across them (`TerrainNavigation::find_path`) and agents that walk them (`TerrainAgent`),
//!   on landmass 0.9 (see `navigation`).
//! - `big_space`: a floating origin (big_space 0.13). When the world has a `BigSpace`, the
//!   terrain's root joins it as a grid of its own (2 km cells) at its origin cell, and the
//!   chunks, colliders, scatter cells, sea, waves and cloud layer are placed by cell and offset:
//!   what the floating origin's cell is drawn around stays exact however far out. Viewers,
//!   anchors and navigators are read through their `GlobalTransform` (exact near the floating
//!   origin); stamps and paths placed by cell in the big space (or the root's grid) are read
//!   from their cell, exactly, and a path's points there are offsets from its entity. The
//!   shaders get the origin's offset, so the clouds, waves and textures stay where the sampler
//!   says. With `avian` too, rigid bodies placed by cell are kept in their cells around avian's
//!   steps (avian alone counts a grid body's cell twice when it writes its place back). Paths and
//!   agents stay `f32` (an agent placed by cell is not walked). Under a floating origin an
//!   entity outside the big space is in the floating world: put stamps, paths, anchors and
//!   navigators in the big space, by cell. The shaders see the root's space within 65 536 m
//!   horizontally: the material's textures and grain shift once where the origin's cell
//!   crosses such a line (the clouds and waves do not, their offsets hold the rest); the root
//!   must not be turned. The root joins the `BigSpace` there is when it is spawned (the terrain's
//!   first plan); despawn it to have it join one spawned later. Without a `BigSpace`, or
//!   without the feature, nothing changes. The app
//!   disables Bevy's `TransformPlugin` and adds big_space's plugins, as big_space asks; the
//!   `fly` example shows it.
//!
//! The config, the state resources and the components derive `Reflect` and are registered, for
//! inspectors; the plugin's own state is hidden from reflection.
//!
//! Everything a game uses is re-exported here and in [`prelude`]; [`chunk`], `collider`,
//! [`scatter`] and [`config`] are public for tools that build chunks, colliders or placements,
//! or parse configs, without an `App`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// As in Bevy's own crates: systems take many parameters and nested query filters.
#![allow(clippy::too_many_arguments, clippy::type_complexity)]

pub mod chunk;
#[cfg(feature = "avian")]
pub mod collider;
pub mod config;
mod edit;
mod ground;
#[cfg(feature = "navigation")]
pub mod navigation;
mod plugin;
mod recover;
#[cfg(feature = "render")]
mod render;
pub mod scatter;
mod sets;
mod space;
mod stream;
mod tasks;
mod weather;

pub use perlin_core;

pub use chunk::{ChunkCoord, TerrainRenderMode};
#[cfg(feature = "avian")]
pub use collider::{
    ColliderRegistry, TerrainColliderAnchor, TerrainColliderChunk, TerrainColliderPlugin,
};
pub use config::MAX_BIOMES;
pub use config::{
    Biome, Climate, Collision, ConfigChanges, ConfigError, EdgeNoise, FarColor, FixedStamp, Grain,
    HeightBand, LayerTexture, LodLayout, MAX_PATH_POINTS, MAX_PATHS, MAX_STAMPS, PathOp,
    ScatterLayer, Snow, SoftRange, StampOp, StampShape, TerrainColors, TerrainConfig,
    TerrainConfigLoadError, TerrainConfigSource, TerrainPath, TerrainStamp, Water,
};
pub use config::{Clouds, Navigation, Waves};
pub use edit::TerrainEditPlugin;
pub use ground::{
    ActiveTerrainConfig, GroundEdits, TerrainGroundChanged, TerrainGroundPlugin, TerrainSampler,
    TerrainTables,
};
#[cfg(feature = "navigation")]
pub use navigation::{
    TerrainAgent, TerrainAgentMotion, TerrainAgentStatus, TerrainNavigation,
    TerrainNavigationPlugin, TerrainNavigator,
};
pub use plugin::PerlinTerrainPlugin;
#[cfg(feature = "render")]
pub use render::{
    ATTRIBUTE_WATER_DEEP, ATTRIBUTE_WATER_SHALLOW, ATTRIBUTE_WATER_SKY, ATTRIBUTE_WAVE_SHARE,
    CloudLook, CloudMaterial, CloudMaterialExtension, GroundLook, ScatterMaterial,
    ScatterMaterialExtension, ScatterMaterials, TerrainClouds, TerrainMaterial,
    TerrainMaterialExtension, TerrainMaterials, TerrainRenderPlugin, TerrainShading,
    TerrainTextures, TerrainWater, TerrainWaves, WaterMaterial, WaterMaterialExtension,
    WaterShading, WeatherUniform,
};
pub use scatter::{
    ScatterCell, ScatterInstance, ScatterRegistry, ScatterSpawned, ScatterVisual, ScatterVisuals,
    TerrainScatterPlugin,
};
pub use sets::TerrainSystems;
pub use stream::{
    ChunkDespawned, ChunkInfo, ChunkRegistry, ChunkRemeshed, ChunkSpawned, TerrainChunk,
    TerrainRoot, TerrainStreamingPlugin, TerrainViewer,
};
pub use weather::{TerrainClock, TerrainClockPlugin};

/// Everything a game needs, in one `use`: the plugin group and its parts, the components and
/// resources a game touches, the messages, and every type a config is written with.
pub mod prelude {
    pub use crate::{
        ActiveTerrainConfig, Biome, ChunkDespawned, ChunkInfo, ChunkRegistry, ChunkRemeshed,
        ChunkSpawned, Climate, Collision, EdgeNoise, FarColor, FixedStamp, Grain, HeightBand,
        LayerTexture, PathOp, PerlinTerrainPlugin, ScatterCell, ScatterInstance, ScatterLayer,
        ScatterRegistry, ScatterSpawned, ScatterVisual, ScatterVisuals, Snow, SoftRange, StampOp,
        StampShape, TerrainChunk, TerrainColors, TerrainConfig, TerrainConfigSource,
        TerrainEditPlugin, TerrainGroundChanged, TerrainGroundPlugin, TerrainPath,
        TerrainRenderMode, TerrainRoot, TerrainSampler, TerrainScatterPlugin, TerrainStamp,
        TerrainStreamingPlugin, TerrainSystems, TerrainViewer, Water,
    };
    pub use crate::{Clouds, Navigation, TerrainClock, TerrainClockPlugin, Waves};
    #[cfg(feature = "avian")]
    pub use crate::{
        ColliderRegistry, TerrainColliderAnchor, TerrainColliderChunk, TerrainColliderPlugin,
    };
    #[cfg(feature = "navigation")]
    pub use crate::{
        TerrainAgent, TerrainAgentMotion, TerrainAgentStatus, TerrainNavigation,
        TerrainNavigationPlugin, TerrainNavigator,
    };
    #[cfg(feature = "render")]
    pub use crate::{
        TerrainClouds, TerrainMaterial, TerrainMaterials, TerrainRenderPlugin, TerrainTextures,
        TerrainWater, TerrainWaves,
    };
}
