//! [`PerlinTerrainPlugin`], the one plugin a game adds, and the [`TerrainSystems`] it runs in.

use crate::config::{TerrainConfig, TerrainConfigPlugin, TerrainConfigSource};
use crate::sampler::TerrainSampler;
use crate::scatter::TerrainScatterPlugin;
use crate::stream::TerrainStreamingPlugin;
use bevy::prelude::*;

/// The terrain's systems, in this order in `Update`. Order your own systems against them, e.g.
/// `.after(TerrainSystems::Upload)` to see this frame's new chunks (Bevy applies the commands
/// of the sets before your system; between its own sets the plugin needs no such sync point,
/// so an idle terrain adds none to the frame).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TerrainSystems {
    /// Applies a new or reloaded config: tables, sampler, generation.
    Config,
    /// Makes the root if needed, unloads far chunks, cancels unneeded tasks, starts tasks for
    /// missing chunks.
    Stream,
    /// Turns finished meshes into chunk entities, within the per-frame budget. After it, this
    /// frame's chunks exist.
    Upload,
    /// Keeps physics colliders around `TerrainCollider` entities (the `avian` feature): plans,
    /// builds and places them. After it, every body has ground under it for the next physics
    /// steps.
    Colliders,
    /// Places the scatter layers on the chunks in view and spawns their instances.
    Scatter,
    /// Gives new chunks their look (material) and keeps it in step with the config.
    Look,
}

/// The terrain plugin: add it once, after `DefaultPlugins` (or at least `AssetPlugin`).
///
/// - [`PerlinTerrainPlugin::default`]: the built-in default config, no asset needed.
/// - [`PerlinTerrainPlugin::from_config`]: a config built in code (validated; an invalid one is
///   reported and replaced by the default). Its [`TerrainSampler`] exists from the first frame.
/// - [`PerlinTerrainPlugin::from_asset`]: a `.terrain.ron` asset, hot-reloaded when Bevy's
///   `file_watcher` feature is on; a broken file is reported (file, field, allowed range) and
///   the terrain already on screen stays.
///
/// Works without a renderer (`MinimalPlugins` + `AssetPlugin` + `TransformPlugin` +
/// `MeshPlugin`), where chunks get `Mesh3d` but no material.
#[derive(Clone, Debug)]
pub struct PerlinTerrainPlugin {
    source: TerrainConfigSource,
    look: TerrainLook,
}

/// How the chunks are shaded, chosen when the plugin is added
/// ([`PerlinTerrainPlugin::with_look`]).
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[reflect(Default, Debug, Clone, PartialEq)]
pub enum TerrainLook {
    /// The terrain material: per-pixel layers by height, slope, snow and creases, world-space
    /// edge noise and close-up detail, optional texture layers, and the water surface.
    #[default]
    Material,
    /// The cheap fallback: colours per vertex in the mesh and one `StandardMaterial` (no water
    /// surface). A change of colours then rebuilds every chunk.
    VertexColours,
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
            look: TerrainLook::default(),
        }
    }

    /// Terrain from a `.terrain.ron` asset path (relative to the asset folder).
    pub fn from_asset(path: impl Into<String>) -> Self {
        Self {
            source: TerrainConfigSource::Path(path.into()),
            look: TerrainLook::default(),
        }
    }

    /// The same plugin shading the terrain with `look`.
    pub fn with_look(mut self, look: TerrainLook) -> Self {
        self.look = look;
        self
    }
}

impl Plugin for PerlinTerrainPlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(
            Update,
            (
                TerrainSystems::Config,
                TerrainSystems::Stream,
                TerrainSystems::Upload,
                TerrainSystems::Colliders,
                TerrainSystems::Scatter,
                TerrainSystems::Look,
            )
                .chain_ignore_deferred(),
        )
        .register_type::<TerrainSampler>()
        .add_plugins((
            TerrainConfigPlugin {
                source: self.source.clone(),
                colours_in_mesh: self.look == TerrainLook::VertexColours,
            },
            TerrainStreamingPlugin,
            TerrainScatterPlugin,
        ));
        #[cfg(feature = "render")]
        app.add_plugins(crate::render::TerrainRenderPlugin { look: self.look });
        #[cfg(feature = "avian")]
        app.add_plugins(crate::collider::TerrainColliderPlugin);
    }
}
