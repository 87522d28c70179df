//! [`Biome`] and [`Climate`]: one world of several recipes. Three low-frequency climate fields
//! (temperature, moisture, continentalness) cover the plane; each biome claims a box of climate
//! space and brings its own ground there, and heights blend across the borders.

use super::{TerrainColors, Water};
use bevy::prelude::*;
use perlin_core::Fbm;
use serde::{Deserialize, Serialize};

/// The most biomes a config may have: every chunk in a border evaluates the recipes of the
/// biomes that weigh in there, and the validation of climate coverage grows with the cube of
/// the count.
pub const MAX_BIOMES: usize = 16;

/// The climate fields that choose the biomes: smooth fields from the world seed with values
/// from −1 to 1, as large as the scales say.
///
/// ```ron
/// climate: (scale: 6000.0, continent_scale: 16000.0, blend: 600.0),
/// ```
#[derive(Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Climate {
    /// Metres across a typical warm or cold, wet or dry region (the temperature and moisture
    /// fields), within [`CLIMATE_SCALE`](super::ranges::CLIMATE_SCALE). Default 6 000.
    pub scale: f32,
    /// Metres across a typical continent or sea (the continentalness field), within
    /// [`CLIMATE_CONTINENT_SCALE`](super::ranges::CLIMATE_CONTINENT_SCALE). Default 16 000.
    pub continent_scale: f32,
    /// Metres over which one biome's ground turns into its neighbour's: the width of a border
    /// where the climate changes fast, wider where it changes slowly (up to about 1.4 times at
    /// the climate's mean rate of change). The biomes' weights are taken every eighth of
    /// `blend` (or every four vertex spacings of a coarser level) and smoothed between, so
    /// borders keep this shape at every level of detail. A border's slope is at most the
    /// steepest slope of the biomes that weigh in there plus twice the spread of their heights
    /// divided by `blend` (1.40 times at worst over 199 000 border points of the world preset,
    /// 1.78 with a 700 m blend): a wider blend softens borders between grounds of very
    /// different heights. From 1 to a quarter of the smaller scale
    /// ([`CLIMATE_BLEND`](super::ranges::CLIMATE_BLEND)). Default 600.
    pub blend: f32,
}

impl Default for Climate {
    fn default() -> Self {
        Self {
            scale: 6_000.0,
            continent_scale: 16_000.0,
            blend: 600.0,
        }
    }
}

/// One biome: where it lives in climate space and the ground it brings there.
///
/// Each climate range is `(low, high)` within [`CLIMATE_RANGE`](super::ranges::CLIMATE_RANGE)
/// (−1 to 1); a range that reaches −1 or 1 is open on that side. The biomes of a config tile
/// climate space: ranges of two biomes may touch but not overlap, and every climate point lies
/// in some biome's ranges (the validation names the gap or the overlap). Heights blend across each border over
/// [`Climate::blend`] metres: a sample's height is the weighted mean of the biomes that weigh in
/// there, each weight a smooth step of the climate's distance to the biome's box, so slopes and
/// normals stay continuous.
///
/// ```ron
/// (
///     name: "mountains",
///     continentalness: (0.35, 1.0),
///     temperature: (-1.0, 0.4),
///     noise: (octaves: 8, frequency: 0.0012, mode: Ridged),
///     height_scale: 700.0,
///     height_offset: 250.0,
/// )
/// ```
#[derive(Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Biome {
    /// What [`TerrainSampler::biome`](crate::TerrainSampler::biome) answers: 1 to 64
    /// characters, unique among the biomes.
    pub name: String,
    /// Its range of temperature. Default (−1, 1): any.
    pub temperature: (f32, f32),
    /// Its range of moisture. Default (−1, 1): any.
    pub moisture: (f32, f32),
    /// Its range of continentalness (low: sea, high: inland). Default (−1, 1): any.
    pub continentalness: (f32, f32),
    /// Its ground's noise, as [`TerrainConfig::noise`](crate::TerrainConfig::noise). Default:
    /// the config's default noise.
    pub noise: Fbm,
    /// Metres of height per unit of its noise, within
    /// [`HEIGHT_SCALE`](super::ranges::HEIGHT_SCALE). Default 160.
    pub height_scale: f32,
    /// Metres added to its heights, within [`HEIGHT_OFFSET`](super::ranges::HEIGHT_OFFSET)
    /// (e.g. a sea floor below the sea level, a plateau). Default 0.
    pub height_offset: f32,
    /// Its look: the colors, bands, rock, snow, creases and textures of its ground, as
    /// [`TerrainConfig::colors`](crate::TerrainConfig::colors). The terrain material blends
    /// the looks of the biomes that weigh in at a pixel by their weights, so a look changes
    /// across a border as the ground does. `None` (the default): the config's `colors`. The
    /// close-up `detail` is the config's everywhere.
    pub colors: Option<TerrainColors>,
    /// Its sea's look: colors, depth, foam, waves, as [`TerrainConfig::water`](crate::TerrainConfig::water).
    /// The sea is where the config has `water`; over each biome it takes that biome's look,
    /// blended across the borders (over the sea surface's grid, a 128th of its width: about
    /// 500 m at a 30 km view). `None` (the default): the config's `water`.
    pub water: Option<Water>,
}

impl Default for Biome {
    fn default() -> Self {
        let config = super::TerrainConfig::default();
        Self {
            name: String::new(),
            temperature: (-1.0, 1.0),
            moisture: (-1.0, 1.0),
            continentalness: (-1.0, 1.0),
            noise: config.noise,
            height_scale: config.height_scale,
            height_offset: 0.0,
            colors: None,
            water: None,
        }
    }
}

impl Biome {
    /// Its climate ranges, in the order of the climate axes (temperature, moisture,
    /// continentalness).
    pub fn ranges(&self) -> [(f32, f32); 3] {
        [self.temperature, self.moisture, self.continentalness]
    }

    /// Whether `other` brings the same ground to the same climate (its looks aside).
    pub(crate) fn same_ground(&self, other: &Biome) -> bool {
        let Biome {
            name,
            temperature,
            moisture,
            continentalness,
            noise,
            height_scale,
            height_offset,
            colors: _,
            water: _,
        } = self;
        *name == other.name
            && *temperature == other.temperature
            && *moisture == other.moisture
            && *continentalness == other.continentalness
            && *noise == other.noise
            && *height_scale == other.height_scale
            && *height_offset == other.height_offset
    }
}

/// Climate lattice nodes per climate scale (a field's node spacing is its scale divided by
/// this).
pub(crate) const NODES_PER_SCALE: f64 = 6.0;

/// The names of the climate axes, in the order of [`Biome::ranges`].
pub(crate) const CLIMATE_AXES: [&str; 3] = ["temperature", "moisture", "continentalness"];
