//! Applying the config: [`TerrainGroundPlugin`] loads the [`TerrainConfigSource`] (the asset,
//! hot-reloaded, or a config set in code), validates it, and puts it in force with its tables
//! and sampler (`state.rs`), whatever path it came by.

use super::changed::TerrainGroundChanged;
use super::state::{ActiveTerrainConfig, NextGround, TerrainTables, next_state};
use crate::config::{TerrainConfig, TerrainConfigLoader, TerrainConfigSource};
use crate::sets::TerrainSystems;
use bevy::asset::{AssetEvent, AssetServer, Assets, Handle};
use bevy::ecs::system::SystemState;
use bevy::log::error;
use bevy::prelude::*;

/// The part of [`PerlinTerrainPlugin`](crate::PerlinTerrainPlugin) every other part needs:
/// orders the [`TerrainSystems`], registers the config asset and loader, and keeps
/// [`ActiveTerrainConfig`], [`TerrainTables`] and [`TerrainSampler`](crate::TerrainSampler) in
/// step with [`TerrainConfigSource`].
pub struct TerrainGroundPlugin {
    pub(crate) source: TerrainConfigSource,
    /// Whether chunk meshes carry vertex colors (then colors reshape them).
    pub(crate) colors_in_mesh: bool,
}

/// Whether chunk meshes carry vertex colors, for [`next_state`].
#[derive(Resource, Clone, Copy)]
pub(crate) struct ColorsInMesh(pub bool);

impl Plugin for TerrainGroundPlugin {
    fn build(&self, app: &mut App) {
        app.configure_sets(
            Update,
            (
                TerrainSystems::Config,
                TerrainSystems::Edits,
                TerrainSystems::Stream,
                TerrainSystems::Upload,
                TerrainSystems::Colliders,
                TerrainSystems::Navigation,
                TerrainSystems::Scatter,
                TerrainSystems::Materials,
            )
                .chain_ignore_deferred(),
        )
        .add_message::<TerrainGroundChanged>()
        .register_type::<TerrainGroundChanged>()
        .register_type::<super::TerrainSampler>()
        .register_type::<TerrainConfig>()
        .register_type::<TerrainConfigSource>()
        .register_type::<ActiveTerrainConfig>()
        .register_type::<TerrainTables>()
        .insert_resource(ColorsInMesh(self.colors_in_mesh));
        let source = match &self.source {
            TerrainConfigSource::Fixed(config) => {
                // A config set in code is in force (with its tables and sampler) from the first
                // frame.
                if let Some(config) = validated(config, "terrain config set in code") {
                    next_state(config, None, self.colors_in_mesh).apply_now(app.world_mut());
                }
                TerrainConfigSource::Fixed(config.clone())
            }
            // A path is loaded when the terrain's systems first run.
            other => other.clone(),
        };
        app.insert_resource(source);
    }

    /// The config asset needs Bevy's asset server, which exists by now whatever order the
    /// plugins were added in.
    fn finish(&self, app: &mut App) {
        if !app.world().contains_resource::<AssetServer>() {
            if !matches!(self.source, TerrainConfigSource::Fixed(_)) {
                error!(
                    "PerlinTerrainPlugin: a .terrain.ron config needs Bevy's AssetPlugin (DefaultPlugins has it); no terrain"
                );
            }
            app.add_systems(
                Update,
                apply_fixed_config
                    .run_if(resource_changed::<TerrainConfigSource>)
                    .in_set(TerrainSystems::Config),
            );
            return;
        }
        if !app.world().contains_resource::<Assets<TerrainConfig>>() {
            app.init_asset::<TerrainConfig>()
                .init_asset_loader::<TerrainConfigLoader>();
        }
        app.add_systems(
            Update,
            apply_config
                .run_if(
                    resource_changed::<TerrainConfigSource>
                        .or_eager(on_message::<AssetEvent<TerrainConfig>>),
                )
                .in_set(TerrainSystems::Config),
        );
    }
}

/// What [`apply_config`] reads.
type ConfigParams<'w, 's> = (
    ResMut<'w, TerrainConfigSource>,
    Option<Res<'w, ActiveTerrainConfig>>,
    Option<Res<'w, TerrainTables>>,
    Res<'w, Assets<TerrainConfig>>,
    Res<'w, AssetServer>,
    Res<'w, ColorsInMesh>,
    MessageReader<'w, 's, AssetEvent<TerrainConfig>>,
);

/// The config that would go live, validated: whatever path it came by (set in code, loaded
/// from a file, added to or edited in `Assets<TerrainConfig>`), an invalid one is reported as
/// a file's is (its name, the field, the allowed range) and `None` keeps the terrain on screen.
/// At start-up there is none on screen: an invalid config then gives no terrain at all (never
/// some other world) until a valid one is set.
fn validated(config: &TerrainConfig, name: impl std::fmt::Display) -> Option<TerrainConfig> {
    match config.validate() {
        Ok(()) => Some(config.clone()),
        Err(e) => {
            error!("{name}: {e}; the terrain on screen stays (none at start-up)");
            None
        }
    }
}

/// The name an asset's errors go by: its path, or its id for one added in code.
fn asset_name(handle: &Handle<TerrainConfig>) -> String {
    handle.path().map_or_else(
        || format!("terrain config asset {:?}", handle.id()),
        |p| p.to_string(),
    )
}

/// Puts a new config in force: one set in code (when [`TerrainConfigSource`] changes) or a
/// loaded, reloaded or edited asset. Runs only in frames where the source changed or a config
/// asset event came. An exclusive system, so that the streaming sees the new config in the same
/// frame without a sync point that every other frame would pay for.
fn apply_config(world: &mut World, params: &mut SystemState<ConfigParams>) {
    let Ok((mut source, active, tables, assets, server, colors_in_mesh, mut events)) =
        params.get_mut(world)
    else {
        return;
    };
    // Every event is read (none waits for the next frame); only whether ours is among them
    // counts.
    let loaded: Vec<AssetId<TerrainConfig>> = events
        .read()
        .filter_map(|e| match e {
            AssetEvent::LoadedWithDependencies { id }
            | AssetEvent::Modified { id }
            | AssetEvent::Added { id } => Some(*id),
            _ => None,
        })
        .collect();
    let switched = source.is_changed();
    if let TerrainConfigSource::Path(path) = &*source {
        let handle = server.load(path.clone());
        *source = TerrainConfigSource::Asset(handle);
    }
    let candidate = match &*source {
        TerrainConfigSource::Fixed(config) if switched => {
            validated(config, "terrain config set in code")
        }
        TerrainConfigSource::Asset(handle) if switched || loaded.contains(&handle.id()) => assets
            .get(handle)
            .and_then(|config| validated(config, asset_name(handle))),
        _ => None,
    };
    let next = next_ground(
        candidate,
        active.as_deref(),
        tables.as_deref(),
        colors_in_mesh.0,
    );
    if let Some(next) = next {
        next.apply_now(world);
    }
}

/// What `candidate` puts in force, if it differs from the config in force (the several events
/// of one load, or a save that changed nothing, never rebuild anything).
fn next_ground(
    candidate: Option<TerrainConfig>,
    active: Option<&ActiveTerrainConfig>,
    tables: Option<&TerrainTables>,
    colors_in_mesh: bool,
) -> Option<NextGround> {
    candidate
        .filter(|config| active.is_none_or(|a| a.config() != config))
        .map(|config| next_state(config, active.zip(tables), colors_in_mesh))
}

/// [`apply_config`] in an app without assets: only configs set in code.
fn apply_fixed_config(
    world: &mut World,
    params: &mut SystemState<(
        Res<TerrainConfigSource>,
        Option<Res<ActiveTerrainConfig>>,
        Option<Res<TerrainTables>>,
        Res<ColorsInMesh>,
    )>,
) {
    let Ok((source, active, tables, colors_in_mesh)) = params.get(world) else {
        return;
    };
    let TerrainConfigSource::Fixed(config) = &*source else {
        return;
    };
    let candidate = validated(config, "terrain config set in code");
    let next = next_ground(
        candidate,
        active.as_deref(),
        tables.as_deref(),
        colors_in_mesh.0,
    );
    if let Some(next) = next {
        next.apply_now(world);
    }
}
