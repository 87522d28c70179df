//! The moving parts of the world above the ground: the cloud layer ([`Clouds`]) and the waves
//! of the sea ([`Waves`]), both from the world seed's Perlin noise (see
//! [`TerrainSampler::cloud_cover`](crate::TerrainSampler::cloud_cover) and
//! [`TerrainSampler::water_height`](crate::TerrainSampler::water_height)).

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// A layer of clouds: its density over a point is a fractal sum of 3D Perlin noise over the
/// ground position, carried by the wind and slowly changing shape, cut to the coverage with a
/// soft edge. The sky draws it at `altitude` with volume; its shadows fall on the ground, the
/// water and the scatter.
///
/// ```ron
/// clouds: Some((altitude: 2400.0, coverage: 0.5, wind: (12.0, 4.0))),
/// ```
#[derive(Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Clouds {
    /// Height of the cloud base above the terrain's zero, in metres
    /// ([`CLOUD_ALTITUDE`](super::ranges::CLOUD_ALTITUDE)). Default 2 200.
    pub altitude: f32,
    /// Metres from the base to the tops of the thickest clouds
    /// ([`CLOUD_THICKNESS`](super::ranges::CLOUD_THICKNESS)). Default 600.
    pub thickness: f32,
    /// The share of the sky under cloud, 0 (clear) to 1 (overcast)
    /// ([`CLOUD_COVERAGE`](super::ranges::CLOUD_COVERAGE)). Default 0.45.
    pub coverage: f32,
    /// Metres across the largest clouds: the first octave's lattice cell
    /// ([`CLOUD_SCALE`](super::ranges::CLOUD_SCALE)). Default 3 000.
    pub scale: f32,
    /// The wind that carries the clouds, metres a second along `x` and `z`
    /// ([`CLOUD_WIND`](super::ranges::CLOUD_WIND) each). Default (9, 3).
    pub wind: [f32; 2],
    /// How soft a cloud's edge is: the span of noise over which the density rises from clear to
    /// full, 0.01 (hard edges) to 1 ([`CLOUD_SOFTNESS`](super::ranges::CLOUD_SOFTNESS)).
    /// Default 0.3.
    pub softness: f32,
}

impl Default for Clouds {
    fn default() -> Self {
        Self {
            altitude: 2200.0,
            thickness: 600.0,
            coverage: 0.45,
            scale: 3000.0,
            wind: [9.0, 3.0],
            softness: 0.3,
        }
    }
}

/// Waves on the sea: trains of crests travelling along `direction`, their shape a fractal sum
/// of 3D Perlin noise over the position along and across the trains and time, each octave
/// moving at the speed of deep-water waves of its length (`√(g·L / 2π)`). They are full height
/// where the water is `shore_depth` deep or more, and fade to nothing at the shore, so a sea
/// with waves never floods the land above it; lakes and lagoons, being shallow, move less.
///
/// ```ron
/// waves: Some((height: 1.5, length: 60.0, direction: 40.0)),
/// ```
#[derive(Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Waves {
    /// Metres from trough to crest of the largest waves on open water
    /// ([`WAVE_HEIGHT`](super::ranges::WAVE_HEIGHT)). Default 1.2.
    pub height: f32,
    /// Metres from crest to crest of the largest waves
    /// ([`WAVE_LENGTH`](super::ranges::WAVE_LENGTH)). Default 40.
    pub length: f32,
    /// Where the waves travel, in degrees: 0 towards −Z, growing towards +X (as a camera's yaw)
    /// ([`WAVE_DIRECTION`](super::ranges::WAVE_DIRECTION)). Default 30.
    pub direction: f32,
    /// Metres of water under which the waves are full height (past the quarter metre they need
    /// to start); shallower, they are smaller, and none at the shore
    /// ([`WAVE_SHORE_DEPTH`](super::ranges::WAVE_SHORE_DEPTH)). Default 6.
    pub shore_depth: f32,
    /// How much of the crests foam, 0 (none) to 1
    /// ([`WAVE_FOAM`](super::ranges::WAVE_FOAM)). Default 0.5.
    pub foam: f32,
}

impl Default for Waves {
    fn default() -> Self {
        Self {
            height: 1.2,
            length: 40.0,
            direction: 30.0,
            shore_depth: 6.0,
            foam: 0.5,
        }
    }
}
