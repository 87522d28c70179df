//! The cloud layer's density over a point: four octaves of 3D Perlin noise over the ground
//! position, carried by the wind, with time as the third axis (the clouds change shape as they
//! go), cut to the coverage by a smoothstep as wide as the softness.

use super::{Octave, wrap};
use crate::config::Clouds;
use perlin_core::{NoiseTables, Perlin};

/// Octaves of the cloud density.
pub(crate) const CLOUD_OCTAVES: usize = 4;

/// Seconds for the clouds' largest shapes to change into others (one lattice cell of the time
/// axis); each finer octave changes twice as fast.
const CLOUD_CHANGE: f64 = 900.0;

/// Lattice offsets that keep the octaves from lining up (any values; they are part of the
/// octaves' offsets).
const CLOUD_SHIFT: [[f64; 3]; CLOUD_OCTAVES] = [
    [0.0, 0.0, 0.0],
    [71.3, 19.9, 5.7],
    [143.1, 97.4, 33.2],
    [211.7, 163.5, 79.9],
];

/// The octaves of `clouds` at time `t` (seconds): frequency `2^k / scale`, the wind's drift
/// and the time axis folded into the offsets.
pub(crate) fn cloud_octaves(clouds: &Clouds, t: f64) -> [Octave; CLOUD_OCTAVES] {
    let mut amplitude = 1.0;
    let mut total = 0.0;
    let mut octaves = [Octave {
        frequency: 0.0,
        offset: [0.0; 3],
        amplitude: 0.0,
    }; CLOUD_OCTAVES];
    for (k, octave) in octaves.iter_mut().enumerate() {
        let frequency = f64::from(1u32 << k) / f64::from(clouds.scale);
        let drift = [f64::from(clouds.wind[0]) * t, f64::from(clouds.wind[1]) * t];
        let shift = CLOUD_SHIFT[k];
        *octave = Octave {
            frequency,
            offset: [
                wrap(shift[0] - drift[0] * frequency),
                wrap(shift[1] - drift[1] * frequency),
                wrap(shift[2] + t * f64::from(1u32 << k) / CLOUD_CHANGE),
            ],
            amplitude,
        };
        total += amplitude;
        amplitude *= 0.5;
    }
    for octave in &mut octaves {
        octave.amplitude /= total;
    }
    octaves
}

/// The noise value at which a cloud's edge is half dense: from about the noise's top at
/// coverage 0 to its bottom at coverage 1.
pub(crate) fn cloud_threshold(clouds: &Clouds) -> f32 {
    0.6 * (1.0 - 2.0 * clouds.coverage)
}

/// `smoothstep` as WGSL defines it.
pub(crate) fn smoothstep(low: f32, high: f32, x: f32) -> f32 {
    let t = ((x - low) / (high - low)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The density of `clouds` over `(x, z)` at time `t`: 0 clear to 1 overcast.
pub(crate) fn cloud_cover(tables: &NoiseTables, clouds: &Clouds, x: f64, z: f64, t: f64) -> f32 {
    let perlin = Perlin::default();
    let mut n = 0.0;
    for o in cloud_octaves(clouds, t) {
        n += o.amplitude
            * perlin.sample3(
                tables,
                x * o.frequency + o.offset[0],
                z * o.frequency + o.offset[1],
                o.offset[2],
            );
    }
    let threshold = cloud_threshold(clouds);
    let half = 0.5 * clouds.softness;
    smoothstep(threshold - half, threshold + half, n as f32)
}
