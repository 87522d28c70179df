//! [`PerlinTerrainPlugin`], the plugin group a game adds: one plugin per part, so a game can
//! leave a part out.

use crate::chunk::TerrainRenderMode;
use crate::config::{TerrainConfig, TerrainConfigSource};
use crate::edit::TerrainEditPlugin;
use crate::ground::TerrainGroundPlugin;
use crate::scatter::TerrainScatterPlugin;
use crate::stream::TerrainStreamingPlugin;
use crate::weather::TerrainClockPlugin;
use bevy::app::PluginGroupBuilder;
use bevy::prelude::*;

/// The terrain plugin: add it once, before or after `DefaultPlugins` (it needs Bevy's
/// `AssetPlugin` and `MeshPlugin`, and renders with `RenderPlugin` where there is one; what it
/// needs of them is set up once every plugin is in).
///
/// - [`PerlinTerrainPlugin::default`]: the built-in default config, no asset needed.
/// - [`PerlinTerrainPlugin::from_config`]: a config built in code, validated: its
///   [`TerrainSampler`](crate::TerrainSampler) exists from the first frame; an invalid one is
///   reported (field and allowed range) and there is no terrain, never some other world, until
///   the game sets a valid [`TerrainConfigSource`].
/// - [`PerlinTerrainPlugin::from_asset`]: a `.terrain.ron` asset, hot-reloaded when Bevy's
///   `file_watcher` feature is on; a broken file is reported (file, field, allowed range) and
///   the terrain already on screen stays.
///
/// Works without a renderer (`MinimalPlugins` + `AssetPlugin` + `TransformPlugin` +
/// `MeshPlugin`), where chunks get `Mesh3d` but no material.
///
/// A [`PluginGroup`] of one plugin per part, in data-path order:
/// [`TerrainGroundPlugin`] (the config put in force, its tables and the sampler; every other
/// part needs it), [`TerrainClockPlugin`] (the time the clouds and waves are drawn at),
/// [`TerrainEditPlugin`] (stamps and paths), [`TerrainStreamingPlugin`] (the chunks),
/// [`TerrainScatterPlugin`] (the scatter layers), `TerrainRenderPlugin` (feature `render`: the
/// materials and the sea), `TerrainColliderPlugin` (feature `avian`: the colliders) and
/// `TerrainNavigationPlugin` (feature `navigation`: the navigation tiles and agents). A game
/// leaves a part out as with Bevy's own groups:
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_perlin_terrain::prelude::*;
/// App::new().add_plugins(PerlinTerrainPlugin::default().build().disable::<TerrainScatterPlugin>());
/// ```
#[derive(Clone, Debug)]
pub struct PerlinTerrainPlugin {
    source: TerrainConfigSource,
    render_mode: TerrainRenderMode,
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
            render_mode: TerrainRenderMode::default(),
        }
    }

    /// Terrain from a `.terrain.ron` asset path (relative to the asset folder).
    pub fn from_asset(path: impl Into<String>) -> Self {
        Self {
            source: TerrainConfigSource::Path(path.into()),
            render_mode: TerrainRenderMode::default(),
        }
    }

    /// The same plugin drawing the terrain in `render_mode`.
    pub fn with_render_mode(mut self, render_mode: TerrainRenderMode) -> Self {
        self.render_mode = render_mode;
        self
    }
}

impl PluginGroup for PerlinTerrainPlugin {
    fn build(self) -> PluginGroupBuilder {
        let group = PluginGroupBuilder::start::<Self>()
            .add(TerrainGroundPlugin {
                source: self.source,
                colors_in_mesh: self.render_mode == TerrainRenderMode::VertexColors,
            })
            .add(TerrainClockPlugin)
            .add(TerrainEditPlugin)
            .add(TerrainStreamingPlugin)
            .add(TerrainScatterPlugin);
        #[cfg(feature = "render")]
        let group = group.add(crate::render::TerrainRenderPlugin {
            render_mode: self.render_mode,
        });
        #[cfg(feature = "avian")]
        let group = group.add(crate::collider::TerrainColliderPlugin);
        #[cfg(feature = "navigation")]
        let group = group.add(crate::navigation::TerrainNavigationPlugin);
        group
    }
}
