//! Which config is in force: the asset (hot-reloaded), or one set in code.

use super::TerrainConfig;
use bevy::asset::Handle;
use bevy::prelude::*;

/// Where the terrain's config comes from. Replace it (or its handle) to switch configs at run
/// time, e.g. between presets: writing `TerrainConfigSource::Fixed(config)` applies `config` on
/// the next update (if it is valid; an invalid one is reported and the terrain stays).
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(Resource, Debug)]
#[allow(
    clippy::large_enum_variant,
    reason = "one resource, replaced rarely; `Fixed(config)` is the documented way to set a config"
)]
pub enum TerrainConfigSource {
    /// A config built in code (or the embedded default).
    Fixed(TerrainConfig),
    /// A `.terrain.ron` asset; every successful (re)load that changes it applies.
    Asset(Handle<TerrainConfig>),
    /// A path to load as an asset; becomes [`TerrainConfigSource::Asset`] when the terrain's
    /// systems next run.
    Path(String),
}
