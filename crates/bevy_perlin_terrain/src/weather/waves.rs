//! The sea's surface: three octaves of wave trains along the wind's direction, each a 3D
//! Perlin noise over the position along and across the trains and time, moving at the speed of
//! deep-water waves of its length, full height where the water is deep and none at the shore.

use super::clouds::smoothstep;
use super::{Octave, wrap};
use crate::config::Waves;
use perlin_core::{NoiseTables, Perlin};

/// Octaves of the waves.
pub(crate) const WAVE_OCTAVES: usize = 3;

/// Wave length from one octave to the next, divided.
const WAVE_LACUNARITY: f64 = 1.9;

/// Amplitude from one octave to the next, times.
const WAVE_GAIN: f64 = 0.5;

/// The lattice across the trains is this much coarser than along them: crests run longer than
/// they are apart.
pub(crate) const WAVE_STRETCH: f64 = 0.4;

/// Lattice cells of the time axis per wave period: how fast the crests change shape as they go.
const WAVE_CHANGE: f64 = 0.15;

/// Metres a second squared.
const GRAVITY: f64 = 9.81;

/// Lattice offsets that keep the octaves from lining up.
const WAVE_SHIFT: [[f64; 3]; WAVE_OCTAVES] =
    [[0.0, 0.0, 0.0], [37.7, 91.1, 13.3], [119.3, 57.9, 201.5]];

/// The unit vectors along the waves' travel and across it, in `(x, z)`: `direction` 0 travels
/// towards −Z, 90 towards +X.
pub(crate) fn wave_direction(waves: &Waves) -> ([f64; 2], [f64; 2]) {
    let (sin, cos) = f64::from(waves.direction).to_radians().sin_cos();
    ([sin, -cos], [cos, sin])
}

/// The octaves of `waves` at time `t`: along the trains (the first coordinate) each moves at
/// `√(g·L / 2π)` for its own length `L`.
pub(crate) fn wave_octaves(waves: &Waves, t: f64) -> [Octave; WAVE_OCTAVES] {
    let mut octaves = [Octave {
        frequency: 0.0,
        offset: [0.0; 3],
        amplitude: 0.0,
    }; WAVE_OCTAVES];
    let mut length = f64::from(waves.length);
    let mut amplitude = 1.0;
    let mut total = 0.0;
    for (k, octave) in octaves.iter_mut().enumerate() {
        let frequency = 1.0 / length;
        let speed = (GRAVITY * length / std::f64::consts::TAU).sqrt();
        // Wave periods passed at `t`.
        let periods = t * speed * frequency;
        let shift = WAVE_SHIFT[k];
        *octave = Octave {
            frequency,
            offset: [
                wrap(shift[0] - periods),
                wrap(shift[1]),
                wrap(shift[2] + periods * WAVE_CHANGE),
            ],
            amplitude,
        };
        total += amplitude;
        amplitude *= WAVE_GAIN;
        length /= WAVE_LACUNARITY;
    }
    for octave in &mut octaves {
        octave.amplitude /= total;
    }
    octaves
}

/// The waves' shape at `(x, z)` and time `t`, about −1 to 1, and its slope along `x` and `z`
/// (per metre): the surface is `sea_level + height · shore · shape`.
pub(crate) fn wave_surface(
    tables: &NoiseTables,
    waves: &Waves,
    x: f64,
    z: f64,
    t: f64,
) -> (f64, [f64; 2]) {
    let perlin = Perlin::default();
    let (along, across) = wave_direction(waves);
    let a = x * along[0] + z * along[1];
    let b = x * across[0] + z * across[1];
    let (mut n, mut da, mut db) = (0.0, 0.0, 0.0);
    for o in wave_octaves(waves, t) {
        let fb = o.frequency * WAVE_STRETCH;
        let (value, g) = perlin.sample3_with_gradient(
            tables,
            a * o.frequency + o.offset[0],
            b * fb + o.offset[1],
            o.offset[2],
        );
        n += o.amplitude * value;
        da += o.amplitude * g[0] * o.frequency;
        db += o.amplitude * g[1] * fb;
    }
    let slope = [
        da * along[0] + db * across[0],
        da * along[1] + db * across[1],
    ];
    (n, slope)
}

/// Metres of water the waves need to start.
pub(crate) const SHORE_DRY: f32 = 0.25;

/// How tall the waves are over ground at `ground` metres: 0 on land and in the first
/// [`SHORE_DRY`] of water, rising to 1 where the water is `shore_depth` deeper (a smoothstep of
/// the depth under `sea_level`). Over the ground's own height at a point, so the sea never rises
/// above dry land.
pub(crate) fn shore_factor(ground: f32, sea_level: f32, shore_depth: f32) -> f32 {
    smoothstep(SHORE_DRY, SHORE_DRY + shore_depth, sea_level - ground)
}
