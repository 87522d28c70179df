//! The sky's clouds and the sea's waves as functions of position and time, from the world
//! seed's Perlin noise: what [`TerrainSampler::cloud_cover`], [`TerrainSampler::water_height`]
//! and [`TerrainSampler::water_normal`] answer, and what the shaders draw (`weather.wgsl`
//! evaluates the same sums in `f32` from the octave offsets [`cloud_octaves`] and
//! [`wave_octaves`] give, with the same permutation).
//!
//! Time enters only through those per-octave offsets, which are taken modulo the noise's period
//! (Perlin's table repeats every 256 lattice cells), in `f64`: a game that runs for days sees
//! the same smooth motion as in its first minute, and no shader clock wraps.
//!
//! [`TerrainSampler::cloud_cover`]: crate::TerrainSampler::cloud_cover
//! [`TerrainSampler::water_height`]: crate::TerrainSampler::water_height
//! [`TerrainSampler::water_normal`]: crate::TerrainSampler::water_normal

mod clock;
mod clouds;
mod waves;

pub use clock::{TerrainClock, TerrainClockPlugin};
pub(crate) use clouds::cloud_cover;
#[cfg(feature = "render")]
pub(crate) use clouds::{CLOUD_OCTAVES, cloud_octaves, cloud_threshold, smoothstep};
#[cfg(feature = "render")]
pub(crate) use waves::{WAVE_OCTAVES, WAVE_STRETCH, wave_direction, wave_octaves};
pub(crate) use waves::{shore_factor, wave_surface};

use crate::config::{Clouds, TerrainConfig, Waves};

/// One octave of a time-varying noise sum: the noise at
/// `(a · frequency + offset[0], b · frequency · stretch + offset[1], offset[2])`, where `a` and
/// `b` are the two horizontal coordinates the sum uses, weighed by `amplitude`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Octave {
    /// Lattice cells per metre.
    pub frequency: f64,
    /// The lattice offsets at this time, each within `[0, 256)`.
    pub offset: [f64; 3],
    /// The octave's share of the sum (the amplitudes of a sum add up to 1).
    pub amplitude: f64,
}

/// `x` modulo Perlin's table period (256 lattice cells), in `[0, 256)`: the noise is the same
/// at `x` and at this.
pub(crate) fn wrap(x: f64) -> f64 {
    let w = x.rem_euclid(256.0);
    // `rem_euclid` of a tiny negative number can round up to 256 itself.
    if w >= 256.0 { 0.0 } else { w }
}

/// What the sampler needs of a config to answer for the sky and the sea.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Weather {
    /// The sea level, when the config has water.
    pub sea_level: Option<f32>,
    /// The waves, when the config has water and waves.
    pub waves: Option<Waves>,
    /// The cloud layer.
    pub clouds: Option<Clouds>,
}

impl Weather {
    /// The weather of `config`.
    pub fn of(config: &TerrainConfig) -> Self {
        let sea_level = config.water.as_ref().map(|_| config.sea_level);
        Self {
            sea_level,
            waves: sea_level.and(config.waves.clone()),
            clouds: config.clouds.clone(),
        }
    }
}
