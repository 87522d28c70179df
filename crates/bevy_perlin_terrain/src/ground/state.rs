//! The terrain's state that follows from the config in force: the config and its generation,
//! the seeded tables, the sampler. They change together, in [`next_state`], so they never
//! disagree; outside the crate they are read-only.

use super::changed::TerrainGroundChanged;
use super::sampler::TerrainSampler;
use crate::config::{ConfigChanges, TerrainConfig};
use bevy::prelude::*;
use perlin_core::NoiseTables;
use std::sync::Arc;

/// The config the terrain is built from, and a counter that changes with every config that
/// reshapes the mesh: chunk results computed for an older generation are dropped. Read-only:
/// switch configs through [`TerrainConfigSource`](crate::TerrainConfigSource) (inspectors see
/// the resource, not its fields: an edit there would bypass validation and put the tables, the
/// sampler and the meshes out of step).
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(Resource, Debug)]
pub struct ActiveTerrainConfig {
    #[reflect(ignore)]
    config: TerrainConfig,
    #[reflect(ignore)]
    generation: u64,
    #[reflect(ignore)]
    changes: ConfigChanges,
}

impl ActiveTerrainConfig {
    /// The config in force.
    pub fn config(&self) -> &TerrainConfig {
        &self.config
    }

    /// Bumped by every applied config that reshapes the mesh (see [`TerrainConfig`]); streaming
    /// changes keep it.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// What the last applied config changed from the one before.
    pub fn last_changes(&self) -> ConfigChanges {
        self.changes
    }
}

/// The seeded tables of the active config, shared with chunk tasks without copying. Rebuilt
/// only when the seed changes. Read-only.
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(Resource, Debug)]
pub struct TerrainTables {
    #[reflect(ignore)]
    seed: u64,
    #[reflect(ignore)]
    tables: Arc<NoiseTables>,
}

impl TerrainTables {
    /// The seed they were built from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The tables.
    pub fn tables(&self) -> &Arc<NoiseTables> {
        &self.tables
    }
}

/// What applying a config puts in force; `None` for a resource that stays as it is.
pub(crate) struct NextGround {
    pub active: ActiveTerrainConfig,
    pub tables: Option<TerrainTables>,
    pub sampler: Option<TerrainSampler>,
}

/// The state after `config` replaces `previous` (or starts the terrain). `colors_in_mesh`:
/// whether the chunk meshes carry vertex colors, so that a change of colors reshapes them.
pub(crate) fn next_state(
    config: TerrainConfig,
    previous: Option<(&ActiveTerrainConfig, &TerrainTables)>,
    colors_in_mesh: bool,
) -> NextGround {
    let Some((active, tables)) = previous else {
        let tables = Arc::new(NoiseTables::from_seed(config.seed));
        return NextGround {
            sampler: Some(TerrainSampler::new(tables.clone(), &config)),
            tables: Some(TerrainTables {
                seed: config.seed,
                tables,
            }),
            active: ActiveTerrainConfig {
                config,
                generation: 1,
                changes: ConfigChanges {
                    mesh: true,
                    look: true,
                    streaming: true,
                    scatter: true,
                    navigation: true,
                },
            },
        };
    };
    let changes = config.changes_from(&active.config);
    let reshaped = changes.mesh || (changes.look && colors_in_mesh);
    let new_tables = (config.seed != tables.seed).then(|| TerrainTables {
        seed: config.seed,
        tables: Arc::new(NoiseTables::from_seed(config.seed)),
    });
    let shared = new_tables.as_ref().unwrap_or(tables).tables.clone();
    NextGround {
        sampler: changes.mesh.then(|| TerrainSampler::new(shared, &config)),
        tables: new_tables,
        active: ActiveTerrainConfig {
            generation: active.generation + u64::from(reshaped),
            config,
            changes,
        },
    }
}

impl NextGround {
    /// Puts the state in force in `world` at once.
    pub fn apply_now(self, world: &mut World) {
        if let Some(tables) = self.tables {
            world.insert_resource(tables);
        }
        if let Some(sampler) = self.sampler {
            world.insert_resource(sampler);
            // A new sampler: the config reshaped the ground (or it is the first).
            world.write_message(TerrainGroundChanged::everywhere());
        } else if self.active.changes.look
            && let Some(mut sampler) = world.get_resource_mut::<TerrainSampler>()
        {
            // The same ground under another sea or sky.
            sampler.set_weather(&self.active.config);
        }
        world.insert_resource(self.active);
    }
}
