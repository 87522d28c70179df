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
//! The data path: a [`TerrainConfig`] (from code, or a hot-reloaded `.terrain.ron` asset;
//! `config/`) → the seeded [`TerrainTables`] and the [`TerrainSampler`] (`state.rs`,
//! `sampler.rs`) → which chunks the viewers want and their tasks on the async compute pool
//! (`stream/`) → each chunk's heights, exact normals and mesh, off the main thread (`chunk/`,
//! through `ground.rs`, the one code path from noise to ground that the sampler shares) → chunk
//! entities with [`TerrainChunk`] and `Mesh3d` under one [`TerrainRoot`] → their material and
//! the sea surface (`render/`); the scatter layers' instances under their chunks, placed off
//! the main thread from the sampler's exact ground (`scatter/`); with the `avian` feature, heightfield colliders on the chunks
//! around every `TerrainCollider` body, built from the same samples (`collider/`).
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
mod ground;
mod plugin;
#[cfg(feature = "render")]
mod render;
mod sampler;
pub mod scatter;
mod state;
mod stream;

pub use perlin_core;

pub use chunk::{ChunkCoord, TerrainChunk};
#[cfg(feature = "avian")]
pub use collider::{TerrainChunkCollider, TerrainCollider, TerrainColliders};
pub use config::{
    Collision, ConfigChanges, ConfigError, EdgeNoise, GroundDetail, HeightBand, LayerTexture,
    ScatterLayer, Snow, SoftRange, TerrainColours, TerrainConfig, TerrainConfigLoadError,
    TerrainConfigSource, Water,
};
pub use plugin::{PerlinTerrainPlugin, TerrainLook, TerrainSystems};
#[cfg(feature = "render")]
pub use render::{
    TerrainMaterial, TerrainMaterialExtension, TerrainMaterials, TerrainShading, TerrainTextures,
    TerrainWater, WaterMaterial, WaterMaterialExtension, WaterShading,
};
pub use sampler::TerrainSampler;
pub use scatter::{ScatterInstance, ScatterLook, ScatterLooks, ScatterRegistry, ScatterSpawned};
pub use state::{ActiveTerrainConfig, TerrainTables};
pub use stream::{
    ChunkDespawned, ChunkInfo, ChunkRegistry, ChunkRemeshed, ChunkSpawned, TerrainRoot,
    TerrainViewer,
};

/// Everything a game needs, in one `use`.
pub mod prelude {
    pub use crate::{
        ActiveTerrainConfig, ChunkDespawned, ChunkInfo, ChunkRegistry, ChunkRemeshed, ChunkSpawned,
        PerlinTerrainPlugin, ScatterInstance, ScatterLooks, ScatterRegistry, ScatterSpawned,
        TerrainChunk, TerrainConfig, TerrainConfigSource, TerrainLook, TerrainRoot, TerrainSampler,
        TerrainSystems, TerrainViewer,
    };
    #[cfg(feature = "avian")]
    pub use crate::{TerrainChunkCollider, TerrainCollider, TerrainColliders};
    #[cfg(feature = "render")]
    pub use crate::{TerrainMaterial, TerrainMaterials, TerrainTextures, TerrainWater};
}
