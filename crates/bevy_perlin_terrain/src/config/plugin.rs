//! Which config is in force: the asset (hot-reloaded), or one set in code; and the seeded
//! tables and sampler that follow it.

use super::{TerrainConfig, TerrainConfigLoader};
use crate::TerrainSet;
use crate::sampler::TerrainSampler;
use bevy::asset::{AssetEvent, AssetServer, Assets, Handle};
use bevy::log::error;
use bevy::prelude::*;
use perlin_core::NoiseTables;
use std::sync::Arc;

/// Where the terrain's config comes from. Replace it (or its handle) to switch configs at
/// run time, e.g. between presets.
#[derive(Resource, Clone, Debug)]
pub enum TerrainConfigSource {
    /// A config built in code (or the embedded default).
    Fixed(TerrainConfig),
    /// A `.terrain.ron` asset; every successful (re)load applies.
    Asset(Handle<TerrainConfig>),
    /// A path to load as an asset at start-up.
    Path(String),
}

/// The config the terrain is built from, and a counter that changes with every new config:
/// results computed for an older generation are dropped.
#[derive(Resource, Clone, Debug)]
pub struct ActiveTerrainConfig {
    /// The config in force.
    pub config: TerrainConfig,
    /// Bumped by every applied config.
    pub generation: u64,
}

/// The seeded tables of the active config, shared with chunk tasks without copying. Rebuilt
/// only when the seed changes.
#[derive(Resource, Clone, Debug)]
pub struct TerrainTables {
    /// The seed they were built from.
    pub seed: u64,
    /// The tables.
    pub tables: Arc<NoiseTables>,
}

/// Registers the config asset and loader and keeps [`ActiveTerrainConfig`],
/// [`TerrainTables`] and [`TerrainSampler`] in step with [`TerrainConfigSource`].
pub struct TerrainConfigPlugin;

impl Plugin for TerrainConfigPlugin {
    fn build(&self, app: &mut App) {
        app.init_asset::<TerrainConfig>()
            .init_asset_loader::<TerrainConfigLoader>()
            .add_systems(Update, apply_config.in_set(TerrainSet::Config));
    }
}

/// Validates a config set in code; an invalid one is reported and replaced by the default.
pub(crate) fn checked(config: TerrainConfig) -> TerrainConfig {
    match config.validate() {
        Ok(()) => config,
        Err(e) => {
            error!("terrain config set in code: {e}; using the default config");
            TerrainConfig::default()
        }
    }
}

/// Puts `config` in force: a new generation, new tables if the seed changed, a new sampler.
pub(crate) fn activate(
    commands: &mut Commands,
    config: TerrainConfig,
    previous: Option<(&ActiveTerrainConfig, &TerrainTables)>,
) {
    let generation = previous.map_or(1, |(a, _)| a.generation + 1);
    let tables = match previous {
        Some((_, t)) if t.seed == config.seed => t.clone(),
        _ => TerrainTables {
            seed: config.seed,
            tables: Arc::new(NoiseTables::from_seed(config.seed)),
        },
    };
    commands.insert_resource(TerrainSampler::new(tables.tables.clone(), &config));
    commands.insert_resource(tables);
    commands.insert_resource(ActiveTerrainConfig { config, generation });
}

fn apply_config(
    mut commands: Commands,
    source: Option<ResMut<TerrainConfigSource>>,
    active: Option<Res<ActiveTerrainConfig>>,
    tables: Option<Res<TerrainTables>>,
    assets: Option<Res<Assets<TerrainConfig>>>,
    server: Option<Res<AssetServer>>,
    mut events: MessageReader<AssetEvent<TerrainConfig>>,
) {
    let Some(mut source) = source else { return };
    let previous = active.as_deref().zip(tables.as_deref());
    // A path becomes an asset handle once there is an asset server to load it.
    if let TerrainConfigSource::Path(path) = &*source {
        let path = path.clone();
        *source = match &server {
            Some(server) => TerrainConfigSource::Asset(server.load(path)),
            None => {
                error!(
                    "terrain config `{path}`: no AssetServer (add AssetPlugin); using the default config"
                );
                TerrainConfigSource::Fixed(TerrainConfig::default())
            }
        };
    }
    let handle = match &*source {
        TerrainConfigSource::Fixed(config) => {
            if source.is_changed() || previous.is_none() {
                activate(&mut commands, checked(config.clone()), previous);
            }
            events.clear();
            return;
        }
        TerrainConfigSource::Asset(handle) => handle.clone(),
        TerrainConfigSource::Path(_) => return,
    };
    let Some(assets) = assets else { return };
    // Look when our asset (re)loaded or the source switched to another asset; apply only a
    // config that differs from the one in force, so the several events of one load (or a save
    // that changed nothing) never rebuild the terrain twice.
    let ours = events.read().any(|e| match e {
        AssetEvent::LoadedWithDependencies { id }
        | AssetEvent::Modified { id }
        | AssetEvent::Added { id } => *id == handle.id(),
        _ => false,
    });
    if (ours || source.is_changed())
        && let Some(config) = assets.get(&handle)
        && active.as_ref().is_none_or(|a| a.config != *config)
    {
        activate(&mut commands, config.clone(), previous);
    }
}
