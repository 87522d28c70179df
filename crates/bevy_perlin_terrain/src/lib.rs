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
//! `avian` feature, heightfield colliders around every `TerrainCollider` body (`collider/`).
//! `sets.rs` and `space.rs` are the leaves every stage shares: the system sets and looks, and
//! the terrain's own space.
//!
//! ## Features
//!
//! - `render` (default): the terrain material, the sea, and scatter looks of a mesh and a
//!   material. Without it (`default-features = false`: a server, a tool, a test) the plugin
//!   still streams chunks with their `Mesh3d`, scatter instances with their `Transform`, and
//!   colliders; with it, the materials are added only when the app has Bevy's `RenderPlugin`.
//! - `avian`: static heightfield colliders for avian3d 0.7 around every `TerrainCollider` body
//!   (see `collider`).
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
mod plugin;
mod recover;
#[cfg(feature = "render")]
mod render;
pub mod scatter;
mod sets;
mod space;
mod stream;
mod tasks;

pub use perlin_core;

pub use chunk::{ChunkCoord, TerrainChunk};
#[cfg(feature = "avian")]
pub use collider::{TerrainChunkCollider, TerrainCollider, TerrainColliders};
pub use config::MAX_BIOMES;
pub use config::{
    Biome, Climate, Collision, ConfigChanges, ConfigError, EdgeNoise, FarColour, GroundDetail,
    HeightBand, LayerTexture, LodLayout, ScatterLayer, Snow, SoftRange, TerrainColours,
    TerrainConfig, TerrainConfigLoadError, TerrainConfigSource, Water,
};
pub use edit::{
    FixedStamp, GroundEdits, MAX_PATH_POINTS, MAX_PATHS, MAX_STAMPS, PathOp, StampOp, StampShape,
    TerrainPath, TerrainStamp,
};
pub use ground::{ActiveTerrainConfig, TerrainSampler, TerrainTables};
pub use plugin::PerlinTerrainPlugin;
#[cfg(feature = "render")]
pub use render::{
    ATTRIBUTE_WATER_DEEP, ATTRIBUTE_WATER_SHALLOW, ATTRIBUTE_WATER_SKY, GroundLook,
    TerrainMaterial, TerrainMaterialExtension, TerrainMaterials, TerrainShading, TerrainTextures,
    TerrainWater, WaterMaterial, WaterMaterialExtension, WaterShading,
};
pub use scatter::{
    ScatterCell, ScatterInstance, ScatterLook, ScatterLooks, ScatterRegistry, ScatterSpawned,
};
pub use sets::{TerrainLook, TerrainSystems};
pub use stream::{
    ChunkDespawned, ChunkInfo, ChunkRegistry, ChunkRemeshed, ChunkSpawned, TerrainRoot,
    TerrainViewer,
};

/// Everything a game needs, in one `use`.
pub mod prelude {
    pub use crate::{
        ActiveTerrainConfig, Biome, ChunkDespawned, ChunkInfo, ChunkRegistry, ChunkRemeshed,
        ChunkSpawned, PathOp, PerlinTerrainPlugin, ScatterCell, ScatterInstance, ScatterLooks,
        ScatterRegistry, ScatterSpawned, StampOp, StampShape, TerrainChunk, TerrainConfig,
        TerrainConfigSource, TerrainLook, TerrainPath, TerrainRoot, TerrainSampler, TerrainStamp,
        TerrainSystems, TerrainViewer,
    };
    #[cfg(feature = "avian")]
    pub use crate::{TerrainChunkCollider, TerrainCollider, TerrainColliders};
    #[cfg(feature = "render")]
    pub use crate::{TerrainMaterial, TerrainMaterials, TerrainTextures, TerrainWater};
}
