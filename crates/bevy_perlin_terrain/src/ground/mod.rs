//! The ground: the config put in force (`apply.rs`, [`TerrainGroundPlugin`]) and what follows
//! from it ([`ActiveTerrainConfig`], [`TerrainTables`], in `state.rs`), what the ground is made
//! of (`recipe.rs`: the noise, or the biomes of `biomes.rs` chosen by the climate of `climate/`
//! and weighed over a grid by `weights/`), the one code path from noise to heights, normals and
//! creases (`samples/`), and the [`TerrainSampler`] that answers height queries with it
//! (`sampler.rs`). Chunk meshes, colliders and scatter all read the ground through this module.
//! The climate and the weights keep their recently computed nodes in the thread-local caches
//! of `node_cache.rs`.

mod apply;
mod biomes;
mod changed;
mod climate;
mod edits;
mod node_cache;
mod recipe;
mod sampler;
mod samples;
mod state;
mod weights;

pub(crate) use apply::ColorsInMesh;
pub use apply::TerrainGroundPlugin;
pub use changed::TerrainGroundChanged;
pub(crate) use changed::{BuiltFromGround, rebuild_where_changed};
pub use edits::GroundEdits;
pub(crate) use edits::{Modifier, config_modifiers, flat_axes, path_modifier_from, stamp_modifier};
pub(crate) use recipe::GroundRecipe;
pub use sampler::TerrainSampler;
pub(crate) use samples::GroundSamples;
// The colliders (with the `avian` feature) fill one grid; chunks fill theirs with the parent's.
#[cfg(feature = "avian")]
pub(crate) use samples::with_thread_samples;
pub(crate) use samples::with_thread_samples_and_coarse;
pub use state::{ActiveTerrainConfig, TerrainTables};
