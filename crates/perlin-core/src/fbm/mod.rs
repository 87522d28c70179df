//! Fractal Brownian motion: octaves of a base noise summed with rising frequency and falling
//! amplitude (seed 000 §5, seed 004 §4).
//!
//! ```text
//! FBM(p) = size · shape(Σᵢ Aᵢ · mode(noise(p · Fᵢ + i·shift)) / Σᵢ Aᵢ)
//!          Fᵢ = frequency · lacunarityⁱ,  Aᵢ = amplitude · persistenceⁱ
//!          shape(v) = sign(v) · |v|^contrast
//! ```

mod validate;

pub use validate::FbmError;

use crate::fade::Fade;
use crate::lattice::Hashing;
use crate::perlin::Perlin;
use crate::simplex::Simplex;
use crate::tables::NoiseTables;
use crate::value::{Interpolation, Value};
use serde::{Deserialize, Serialize};

/// The generator each octave samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BaseNoise {
    /// Perlin gradient noise (uses `fade`); the only base the fast grid path accelerates.
    #[default]
    Perlin,
    /// Simplex noise.
    Simplex,
    /// Value noise (uses `interpolation`).
    Value,
}

/// How each octave's noise is reshaped before it is summed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FractalMode {
    /// `n`: rolling hills.
    #[default]
    Standard,
    /// `2(1 − |n|)² − 1`: sharp crests where the noise crosses zero (mountain ridges).
    Ridged,
    /// `2|n| − 1`: rounded bumps with creased valleys (dunes, clouds).
    Billow,
    /// `|n|`: Perlin's turbulence, never negative.
    Turbulence,
}

impl FractalMode {
    /// The reshaped value and its derivative with respect to `n`.
    #[inline(always)]
    pub fn shape(self, n: f64) -> (f64, f64) {
        let sign = 1f64.copysign(n);
        match self {
            FractalMode::Standard => (n, 1.0),
            FractalMode::Ridged => {
                let r = 1.0 - n.abs();
                (2.0 * r * r - 1.0, -4.0 * r * sign)
            }
            FractalMode::Billow => (2.0 * n.abs() - 1.0, 2.0 * sign),
            FractalMode::Turbulence => (n.abs(), sign),
        }
    }
}

/// Domain warping: the sample point is first pushed by a single octave of the base noise, which
/// bends the fractal into flowing, eroded-looking shapes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DomainWarp {
    /// How far, in input units, the point may be pushed.
    pub amplitude: f64,
    /// The frequency of the pushing noise.
    pub frequency: f64,
}

impl Default for DomainWarp {
    fn default() -> Self {
        Self {
            amplitude: 4.0,
            frequency: 0.25,
        }
    }
}

/// Lattice offsets of the two warp noises, so x and y are pushed independently.
const WARP_OFFSET_X: [f64; 2] = [17.13, 61.97];
const WARP_OFFSET_Y: [f64; 2] = [113.31, 7.77];

/// A fractal noise configuration: the whole recipe for a height field, serialisable to RON.
///
/// `Default` is 6 octaves of quintic Perlin noise at frequency 1, lacunarity 2, persistence ½.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Fbm {
    /// The generator every octave samples.
    pub base: BaseNoise,
    /// Perlin fade curve.
    pub fade: Fade,
    /// Value-noise interpolation.
    pub interpolation: Interpolation,
    /// Lattice hashing: permutation table (period 256 cells) or integer hash.
    pub hashing: Hashing,
    /// Number of layers, 1 to 32.
    pub octaves: u32,
    /// Frequency of the first octave, in lattice cells per input unit (> 0).
    pub frequency: f64,
    /// Amplitude of the first octave (> 0); it cancels in the normalisation unless octaves differ.
    pub amplitude: f64,
    /// Frequency factor from one octave to the next (usually 2).
    pub lacunarity: f64,
    /// Amplitude factor from one octave to the next (usually ½).
    pub persistence: f64,
    /// Seed 000's contrast: the normalised value's magnitude is raised to this power, sign kept.
    /// Above 1 flattens lowlands and sharpens peaks; below 1 does the opposite, and its slope
    /// is infinite where the value crosses 0, so every zero contour becomes a visible crease.
    pub contrast: f64,
    /// Seed 000's noise size: the final multiplier, applied after contrast.
    pub noise_size: f64,
    /// Octave `i` is translated by `i · octave_shift` lattice cells on both axes, so the octaves
    /// do not share a centre of homothety (seed 004 §4.3). Seed 004 uses 4096, a multiple of the
    /// table period 256 that table mode would cancel; the default 131.7 is not.
    pub octave_shift: f64,
    /// How each octave is reshaped.
    pub mode: FractalMode,
    /// Optional domain warp.
    pub warp: Option<DomainWarp>,
}

impl Default for Fbm {
    fn default() -> Self {
        Self {
            base: BaseNoise::Perlin,
            fade: Fade::Quintic,
            interpolation: Interpolation::Cosine,
            hashing: Hashing::Table,
            octaves: 6,
            frequency: 1.0,
            amplitude: 1.0,
            lacunarity: 2.0,
            persistence: 0.5,
            contrast: 1.0,
            noise_size: 1.0,
            octave_shift: 131.7,
            mode: FractalMode::Standard,
            warp: None,
        }
    }
}

/// One octave's frequency, amplitude and translation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Octave {
    /// Lattice cells per input unit.
    pub frequency: f64,
    /// Weight in the sum.
    pub amplitude: f64,
    /// Translation in lattice cells, on both axes.
    pub shift: f64,
}

impl Fbm {
    /// The octaves in order; the point and grid paths both iterate this, so they agree on every
    /// frequency bit for bit.
    pub fn octave_list(&self) -> impl Iterator<Item = Octave> + '_ {
        let mut frequency = self.frequency;
        let mut amplitude = self.amplitude;
        (0..self.octaves.min(validate::MAX_OCTAVES)).map(move |i| {
            let octave = Octave {
                frequency,
                amplitude,
                shift: i as f64 * self.octave_shift,
            };
            frequency *= self.lacunarity;
            amplitude *= self.persistence;
            octave
        })
    }

    /// Σ amplitudes: the divisor that normalises the sum.
    pub fn amplitude_sum(&self) -> f64 {
        self.octave_list().map(|o| o.amplitude).sum()
    }

    /// Contrast and noise size applied to the normalised sum `v`, with the factor its
    /// derivative is multiplied by.
    #[inline]
    pub fn finish(&self, v: f64) -> (f64, f64) {
        if self.contrast == 1.0 {
            return (v * self.noise_size, self.noise_size);
        }
        let magnitude = v.abs().max(f64::MIN_POSITIVE);
        let shaped = 1f64.copysign(v) * magnitude.powf(self.contrast);
        let slope = self.contrast * magnitude.powf(self.contrast - 1.0);
        (shaped * self.noise_size, slope * self.noise_size)
    }

    fn base2(&self, t: &NoiseTables, x: f64, y: f64) -> (f64, [f64; 2]) {
        match self.base {
            BaseNoise::Perlin => Perlin {
                fade: self.fade,
                hashing: self.hashing,
            }
            .get2_with_gradient(t, x, y),
            BaseNoise::Simplex => Simplex {
                hashing: self.hashing,
            }
            .get2_with_gradient(t, x, y),
            BaseNoise::Value => Value {
                interpolation: self.interpolation,
                hashing: self.hashing,
            }
            .get2_with_gradient(t, x, y),
        }
    }

    /// The warped point and the Jacobian `[[∂x′/∂x, ∂x′/∂y], [∂y′/∂x, ∂y′/∂y]]`.
    fn warp2(&self, t: &NoiseTables, x: f64, y: f64) -> ([f64; 2], [[f64; 2]; 2]) {
        let Some(w) = self.warp else {
            return ([x, y], [[1.0, 0.0], [0.0, 1.0]]);
        };
        let f = w.frequency;
        let (qx, gx) = self.base2(t, x * f + WARP_OFFSET_X[0], y * f + WARP_OFFSET_X[1]);
        let (qy, gy) = self.base2(t, x * f + WARP_OFFSET_Y[0], y * f + WARP_OFFSET_Y[1]);
        let s = w.amplitude * f;
        (
            [x + w.amplitude * qx, y + w.amplitude * qy],
            [[1.0 + s * gx[0], s * gx[1]], [s * gy[0], 1.0 + s * gy[1]]],
        )
    }

    /// 2D fractal noise at `(x, y)`: the reference every faster path is tested against.
    pub fn sample2(&self, t: &NoiseTables, x: f64, y: f64) -> f64 {
        self.sample2_with_gradient(t, x, y).0
    }

    /// 2D fractal noise with its analytic gradient `[∂/∂x, ∂/∂y]`, for exact terrain normals.
    pub fn sample2_with_gradient(&self, t: &NoiseTables, x: f64, y: f64) -> (f64, [f64; 2]) {
        let ([wx, wy], jacobian) = self.warp2(t, x, y);
        let mut sum = 0.0;
        let mut grad = [0.0; 2];
        for o in self.octave_list() {
            let (n, g) = self.base2(t, wx * o.frequency + o.shift, wy * o.frequency + o.shift);
            let (shaped, slope) = self.mode.shape(n);
            sum += shaped * o.amplitude;
            let k = slope * o.amplitude * o.frequency;
            grad[0] += g[0] * k;
            grad[1] += g[1] * k;
        }
        let norm = self.amplitude_sum();
        let (value, slope) = self.finish(sum / norm);
        let k = slope / norm;
        // Chain rule through the warp.
        let gx = (grad[0] * jacobian[0][0] + grad[1] * jacobian[1][0]) * k;
        let gy = (grad[0] * jacobian[0][1] + grad[1] * jacobian[1][1]) * k;
        (value, [gx, gy])
    }

    /// 3D fractal noise (no warp: `warp` applies to the 2D samplers).
    pub fn sample3(&self, t: &NoiseTables, x: f64, y: f64, z: f64) -> f64 {
        let mut sum = 0.0;
        for o in self.octave_list() {
            let p = [x, y, z].map(|c| c * o.frequency + o.shift);
            let n = match self.base {
                BaseNoise::Perlin => Perlin {
                    fade: self.fade,
                    hashing: self.hashing,
                }
                .get3(t, p[0], p[1], p[2]),
                BaseNoise::Simplex => Simplex {
                    hashing: self.hashing,
                }
                .get3(t, p[0], p[1], p[2]),
                BaseNoise::Value => Value {
                    interpolation: self.interpolation,
                    hashing: self.hashing,
                }
                .get3(t, p[0], p[1], p[2]),
            };
            sum += self.mode.shape(n).0 * o.amplitude;
        }
        self.finish(sum / self.amplitude_sum()).0
    }
}
