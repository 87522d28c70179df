//! `TerrainConfig::validate`: every out-of-range value is reported with its field's path in the
//! RON file and the allowed range, and so is every config that would ask for more work than a
//! frame or the memory can hold.
//!
//! The ranges are [`ranges`](super::ranges)'s; `fields` checks every field against them,
//! `budgets` bounds the work and memory, `biomes` checks the climate and the biomes.

mod biomes;
mod budgets;
mod fields;

pub use budgets::{
    MAX_COLLIDER_BYTES, MAX_COLLIDER_CHUNKS, MAX_IN_FLIGHT_BYTES, MAX_MESH_BYTES,
    MAX_SCATTER_IN_VIEW, MAX_SCATTER_PER_CHUNK, MAX_UPLOAD_BYTES, MAX_VIEW_CHUNKS,
};

use super::TerrainConfig;
use perlin_core::FieldError;

/// A field of a [`TerrainConfig`] outside its allowed range: the same error as
/// [`perlin_core::Fbm::validate`]'s, with the field's full path (`noise.octaves`).
pub type ConfigError = FieldError;

impl TerrainConfig {
    /// Returns the first field that makes no sense, with its allowed range (see
    /// [`ranges`](super::ranges)); then the first limit the config would break
    /// ([`MAX_VIEW_CHUNKS`], [`MAX_MESH_BYTES`], [`MAX_IN_FLIGHT_BYTES`], [`MAX_UPLOAD_BYTES`]),
    /// naming the field to change and the bound. The chunk bounds are those of the quadtree, so
    /// views of 50 km and more validate at the default chunk size.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.validate_fields()?;
        self.validate_limits()?;
        self.validate_collision()?;
        self.validate_scatter()?;
        self.validate_edits()?;
        self.validate_biomes()
    }
}
