//! [`GroundRecipe`]: what the ground is made of, in one value that every job carries (chunk
//! meshes, colliders, scatter, the sampler): the config's noise and height scale, or its
//! biomes.

use super::biomes::Biomes;
use crate::config::TerrainConfig;
use perlin_core::Fbm;
use std::sync::Arc;

/// The ground of a config before any stamp or path: the noise times the height scale, or with
/// biomes, their grounds blended by climate. Cheap to clone (the biomes are shared); two recipes
/// are equal when they make the same ground.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GroundRecipe {
    /// The single recipe's noise (unused with biomes).
    pub noise: Fbm,
    /// The single recipe's metres per unit of noise.
    pub height_scale: f32,
    /// The biomes; `None` for the single-recipe ground.
    pub biomes: Option<Arc<Biomes>>,
}

impl GroundRecipe {
    /// The ground of `config`.
    pub fn of(config: &TerrainConfig) -> Self {
        Self {
            noise: config.noise,
            height_scale: config.height_scale,
            biomes: Biomes::new(&config.climate, &config.biomes).map(Arc::new),
        }
    }

    /// Whether some of the ground has erosion (and so a crease mask worth drawing).
    pub fn has_erosion(&self) -> bool {
        match &self.biomes {
            None => self.noise.erosion.is_some(),
            Some(biomes) => biomes.list().iter().any(|b| b.noise.erosion.is_some()),
        }
    }
}

impl Default for GroundRecipe {
    /// The ground of the default config.
    fn default() -> Self {
        Self::of(&TerrainConfig::default())
    }
}
