//! [`PerlinTerrainPlugin`], the one plugin a game adds, and the [`TerrainSystems`] it runs in.

use crate::config::{TerrainConfig, TerrainConfigPlugin, TerrainConfigSource};
use crate::edit::TerrainEditPlugin;
use crate::ground::TerrainSampler;
use crate::scatter::TerrainScatterPlugin;
use crate::sets::{TerrainLook, TerrainSystems};
use crate::stream::TerrainStreamingPlugin;
use bevy::prelude::*;

/// The terrain plugin: add it once, before or after `DefaultPlugins` (it needs Bevy's
/// `AssetPlugin` and `MeshPlugin`, and renders with `RenderPlugin` where there is one; what it
/// needs of them is set up once every plugin is in).
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
                TerrainSystems::Edits,
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
            TerrainEditPlugin,
            TerrainStreamingPlugin,
            TerrainScatterPlugin,
        ));
        #[cfg(feature = "render")]
        app.add_plugins(crate::render::TerrainRenderPlugin { look: self.look });
        #[cfg(feature = "avian")]
        app.add_plugins(crate::collider::TerrainColliderPlugin);
    }

    fn finish(&self, app: &mut App) {
        if !app.world().contains_resource::<Assets<Mesh>>() {
            error!(
                "PerlinTerrainPlugin needs Bevy's MeshPlugin (DefaultPlugins has it) for the chunk meshes; no chunk will show"
            );
        }
    }
}
