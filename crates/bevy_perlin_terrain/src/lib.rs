//! # bevy_perlin_terrain
//!
//! Endless, seamless procedural terrain for Bevy 0.19, from our own Perlin noise
//! ([`perlin_core`]). Add one plugin, mark the camera as a [`TerrainViewer`], fly:
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_perlin_terrain::prelude::*;
//!
//! App::new()
//!     .add_plugins((DefaultPlugins, PerlinTerrainPlugin::from_asset("terrain/alps.terrain.ron")))
//!     .add_systems(Startup, |mut commands: Commands| {
//!         commands.spawn((Camera3d::default(), TerrainViewer, Transform::from_xyz(0.0, 200.0, 0.0)));
//!     })
//!     .run();
//! ```
//!
//! The data path, one folder each: [`config`] (a [`TerrainConfig`], from code or a hot-reloaded
//! `.terrain.ron` asset) → [`TerrainTables`] (seeded tables, shared) → [`stream`] (which chunks,
//! tasks on the async compute pool) → [`chunk`] (heights, exact normals, colours, skirts, off the
//! main thread) → entities with [`TerrainChunk`] and `Mesh3d`. [`TerrainSampler`] answers height
//! and normal queries from the same code path as the meshes.

pub mod chunk;
pub mod config;
pub mod heights;
#[cfg(feature = "render")]
pub mod material;
pub mod sampler;
pub mod stream;

pub use perlin_core;

pub use chunk::{ChunkCoord, ChunkMeshData, TerrainChunk};
pub use config::{ActiveTerrainConfig, TerrainConfig, TerrainConfigSource, TerrainTables};
pub use sampler::TerrainSampler;
pub use stream::{ChunkDespawned, ChunkRegistry, ChunkRemeshed, ChunkSpawned, TerrainViewer};

use bevy::prelude::*;

/// Everything a game needs, in one `use`.
pub mod prelude {
    pub use crate::{
        ActiveTerrainConfig, ChunkDespawned, ChunkRegistry, ChunkRemeshed, ChunkSpawned,
        PerlinTerrainPlugin, TerrainChunk, TerrainConfig, TerrainConfigSource, TerrainSampler,
        TerrainSet, TerrainViewer,
    };
}

/// The terrain's systems, in this order in `Update`. Order your own systems against them, e.g.
/// `.after(TerrainSet::Upload)` to see this frame's new chunks.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TerrainSet {
    /// Applies a new or reloaded config: tables, sampler, generation.
    Config,
    /// Unloads far chunks, cancels unneeded tasks, starts tasks for missing chunks.
    Stream,
    /// Turns finished meshes into chunk entities, within the per-frame budget.
    Upload,
}

/// The terrain plugin: add it once.
///
/// - [`PerlinTerrainPlugin::default`]: the embedded default config, no asset needed.
/// - [`PerlinTerrainPlugin::from_config`]: a config built in code (validated; an invalid one is
///   reported and replaced by the default).
/// - [`PerlinTerrainPlugin::from_asset`]: a `.terrain.ron` asset, hot-reloaded when Bevy's
///   `file_watcher` feature is on; a broken file is reported (file, field, allowed range) and
///   the terrain already on screen stays.
///
/// Needs `AssetPlugin` and `MeshPlugin` (both in `DefaultPlugins`); works without a renderer
/// (`MinimalPlugins` + `AssetPlugin` + `TransformPlugin` + `MeshPlugin`), where chunks get
/// `Mesh3d` but no material.
#[derive(Clone, Debug)]
pub struct PerlinTerrainPlugin {
    source: TerrainConfigSource,
}

impl Default for PerlinTerrainPlugin {
    fn default() -> Self {
        Self::from_config(TerrainConfig::default())
    }
}

impl PerlinTerrainPlugin {
    /// Terrain from a config built in code.
    pub fn from_config(config: TerrainConfig) -> Self {
        Self {
            source: TerrainConfigSource::Fixed(config),
        }
    }

    /// Terrain from a `.terrain.ron` asset path (relative to the asset folder).
    pub fn from_asset(path: impl Into<String>) -> Self {
        Self {
            source: TerrainConfigSource::Path(path.into()),
        }
    }
}

impl Plugin for PerlinTerrainPlugin {
    fn build(&self, app: &mut App) {
        let source = match &self.source {
            TerrainConfigSource::Fixed(config) => {
                TerrainConfigSource::Fixed(config::checked(config.clone()))
            }
            other => other.clone(),
        };
        app.insert_resource(source)
            .configure_sets(
                Update,
                (TerrainSet::Config, TerrainSet::Stream, TerrainSet::Upload).chain(),
            )
            .add_plugins((config::TerrainConfigPlugin, stream::TerrainStreamingPlugin));
        #[cfg(feature = "render")]
        app.add_plugins(material::TerrainRenderPlugin);
    }
}
