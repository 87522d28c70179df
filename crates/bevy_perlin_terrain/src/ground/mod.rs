//! The ground: the config in force and what follows from it ([`ActiveTerrainConfig`],
//! [`TerrainTables`], in `state.rs`), the one code path from noise to heights, normals and
//! creases (`samples.rs`), and the [`TerrainSampler`] that answers height queries with it
//! (`sampler.rs`). Chunk meshes, colliders and scatter all read the ground through this module.

mod sampler;
mod samples;
mod state;

pub use sampler::TerrainSampler;
pub(crate) use samples::with_thread_samples;
pub use state::{ActiveTerrainConfig, TerrainTables};
pub(crate) use state::{NextGround, next_state};
