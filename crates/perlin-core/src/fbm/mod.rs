//! Fractal Brownian motion: octaves of a base noise summed with rising frequency and falling
//! amplitude (Perlin 1985; Musgrave's ridged and billow variants in Ebert et al., "Texturing &
//! Modeling: A Procedural Approach"), then an optional erosion filter.
//!
//! ```text
//! FBM(p) = erode(size · shape(Σᵢ Aᵢ · mode(noise(w(p) · Fᵢ + i·shift)) / Σᵢ Aᵢ))
//!          Fᵢ = frequency · lacunarityⁱ,  Aᵢ = amplitude · persistenceⁱ
//!          shape(v) = sign(v) · |v|^contrast,  w(p) = p + warp.amplitude · noise₂(p · warp.frequency)
//! ```

pub(crate) mod erosion;
mod validate;

pub use erosion::{Erosion, MAX_EROSION_OCTAVES};
pub use validate::MAX_OCTAVES;

use crate::fade::Fade;
use crate::lattice::Hashing;
use crate::perlin::Perlin;
use crate::simplex::Simplex;
use crate::tables::NoiseTables;
use crate::value::{Interpolation, Value};
#[cfg(feature = "bevy_reflect")]
use bevy_reflect::std_traits::ReflectDefault;
use serde::{Deserialize, Serialize};

/// The generator each octave samples.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(
    feature = "bevy_reflect",
    derive(bevy_reflect::Reflect),
    reflect(Default, Debug, Clone, PartialEq)
)]
pub enum BaseNoise {
    /// Perlin gradient noise (uses `fade`).
    #[default]
    Perlin,
    /// Simplex noise.
    Simplex,
    /// Value noise (uses `interpolation`).
    Value,
}

/// How each octave's noise is reshaped before it is summed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(
    feature = "bevy_reflect",
    derive(bevy_reflect::Reflect),
    reflect(Default, Debug, Clone, PartialEq)
)]
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
/// bends the fractal into flowing shapes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(
    feature = "bevy_reflect",
    derive(bevy_reflect::Reflect),
    reflect(Default, Debug, Clone, PartialEq)
)]
pub struct DomainWarp {
    /// How far, in input units, the point may be pushed. Default 4; 0 to 10⁶.
    pub amplitude: f64,
    /// The frequency of the pushing noise. Default 0.25; above 0, at most 10⁹.
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

/// Lattice offsets `[x, y]` of the two warp noises, so x and y are pushed independently.
pub(crate) const WARP_OFFSETS: [[f64; 2]; 2] = [[17.13, 61.97], [113.31, 7.77]];

/// A fractal noise configuration: the whole recipe for a height field, serialisable to RON.
///
/// `Default` is 6 octaves of quintic Perlin noise at frequency 1, lacunarity 2, persistence ½,
/// hashed by [`Hashing::Integer`] so that it never visibly repeats.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(
    feature = "bevy_reflect",
    derive(bevy_reflect::Reflect),
    reflect(Default, Debug, Clone, PartialEq)
)]
pub struct Fbm {
    /// The generator every octave samples.
    pub base: BaseNoise,
    /// Perlin fade curve.
    pub fade: Fade,
    /// Value-noise interpolation.
    pub interpolation: Interpolation,
    /// Lattice hashing: integer hash (no visible period; the default) or permutation table
    /// (period 256 cells).
    pub hashing: Hashing,
    /// Number of layers, 1 to 32. Default 6.
    pub octaves: u32,
    /// Frequency of the first octave, in lattice cells per input unit. Default 1; above 0, at
    /// most 10⁹.
    pub frequency: f64,
    /// Amplitude of the first octave; it cancels in the normalisation unless octaves differ.
    /// Default 1; above 0, at most 10⁹.
    pub amplitude: f64,
    /// Frequency factor from one octave to the next. Default 2; above 0, at most 16, and the
    /// last octave's frequency (`frequency · lacunarity^(octaves − 1)`) at most 10¹².
    pub lacunarity: f64,
    /// Amplitude factor from one octave to the next. Default ½; 0 to 4.
    pub persistence: f64,
    /// Contrast: the normalised value's magnitude is raised to this power, sign kept. Above 1
    /// flattens lowlands and sharpens peaks; below 1 does the opposite, and its slope is
    /// infinite where the value crosses 0, so every zero contour becomes a visible crease.
    /// Default 1 (unchanged); above 0, at most 16.
    pub contrast: f64,
    /// Noise size: the final multiplier, applied after contrast. Default 1; ±10⁹.
    pub noise_size: f64,
    /// Octave `i` is translated by `i · octave_shift` lattice cells on both axes, so the octaves
    /// do not share a centre of homothety (features would otherwise line up along rays from the
    /// origin). Default 131.7, not a multiple of 256, which table hashing would cancel; ±10⁶.
    pub octave_shift: f64,
    /// How each octave is reshaped.
    pub mode: FractalMode,
    /// Optional domain warp; `None` by default. In RON, `warp: Some(())` is the default warp.
    pub warp: Option<DomainWarp>,
    /// Optional erosion filter, applied to the final height (see [`Erosion`]).
    pub erosion: Option<Erosion>,
}

impl Default for Fbm {
    fn default() -> Self {
        Self {
            base: BaseNoise::Perlin,
            fade: Fade::Quintic,
            interpolation: Interpolation::Cosine,
            hashing: Hashing::Integer,
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
            erosion: None,
        }
    }
}

/// How fine the detail of a fill (or a point sample) goes: the sample spacing that every octave
/// is judged against, so that a grid sums only what its samples can show.
///
/// An octave whose wavelength (a noise octave's `1 / frequency`, an erosion octave's cell)
/// spans at least [`Detail::WHOLE`] spacings counts whole; one spanning at most
/// [`Detail::GONE`] (two samples a wavelength, the Nyquist limit) is left out and costs
/// nothing; in between it fades linearly. The sum keeps its normalisation (the amplitudes of
/// every octave), so leaving octaves out removes exactly their terms: a far, coarse grid is the
/// near one without its finest ripples, and does not alias.
///
/// [`Detail::FULL`] (spacing 0) keeps every octave.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Detail {
    /// Metres (input units) between samples; 0 for every octave whole.
    pub spacing: f64,
}

impl Detail {
    /// Every octave whole.
    pub const FULL: Detail = Detail { spacing: 0.0 };
    /// Wavelengths of at least this many spacings count whole.
    pub const WHOLE: f64 = 4.0;
    /// Wavelengths of at most this many spacings are left out.
    pub const GONE: f64 = 2.0;

    /// The detail samples `spacing` apart can show.
    pub fn at_spacing(spacing: f64) -> Self {
        Self { spacing }
    }

    /// The weight, 0 to 1, of an octave of `wavelength`.
    pub fn weight(&self, wavelength: f64) -> f64 {
        if !(self.spacing > 0.0 && self.spacing.is_finite()) {
            return 1.0;
        }
        ((wavelength / self.spacing - Self::GONE) / (Self::WHOLE - Self::GONE)).clamp(0.0, 1.0)
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

/// A point of the fractal: its value, gradient, and crease mask.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The noise value (about ±`noise_size`).
    pub value: f64,
    /// `[∂/∂x, ∂/∂y]`.
    pub gradient: [f64; 2],
    /// 0 on ridges and peaks, 1 in gullies and valley floors (see [`Erosion`]); ½ without
    /// erosion.
    pub crease: f64,
}

/// The base generator of an [`Fbm`], built from its fields.
#[derive(Clone, Copy, Debug)]
enum Base {
    Perlin(Perlin),
    Simplex(Simplex),
    Value(Value),
}

impl Base {
    fn sample2_with_gradient(self, tables: &NoiseTables, x: f64, y: f64) -> (f64, [f64; 2]) {
        match self {
            Base::Perlin(n) => n.sample2_with_gradient(tables, x, y),
            Base::Simplex(n) => n.sample2_with_gradient(tables, x, y),
            Base::Value(n) => n.sample2_with_gradient(tables, x, y),
        }
    }

    fn sample3(self, tables: &NoiseTables, x: f64, y: f64, z: f64) -> f64 {
        match self {
            Base::Perlin(n) => n.sample3(tables, x, y, z),
            Base::Simplex(n) => n.sample3(tables, x, y, z),
            Base::Value(n) => n.sample3(tables, x, y, z),
        }
    }
}

impl Fbm {
    /// The octaves in order; the point and grid paths both iterate this, so they agree on every
    /// frequency bit for bit.
    pub fn octave_list(&self) -> impl Iterator<Item = Octave> + '_ {
        let mut frequency = self.frequency;
        let mut amplitude = self.amplitude;
        (0..self.octaves.min(MAX_OCTAVES)).map(move |i| {
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

    /// The octaves a sum under `detail` computes: each weighted (its amplitude scaled by its
    /// [`Detail::weight`]; untouched when whole, so [`Detail::FULL`] gives [`Fbm::octave_list`]
    /// bit for bit), those of weight 0 left out. Shifts keep each octave's own index.
    pub fn detailed_octaves(&self, detail: Detail) -> impl Iterator<Item = Octave> + '_ {
        self.octave_list().filter_map(move |o| {
            let w = detail.weight(1.0 / o.frequency);
            if w >= 1.0 {
                Some(o)
            } else if w > 0.0 {
                Some(Octave {
                    amplitude: o.amplitude * w,
                    ..o
                })
            } else {
                None
            }
        })
    }

    /// Σ amplitudes: the divisor that normalises the sum.
    pub fn amplitude_sum(&self) -> f64 {
        self.octave_list().map(|o| o.amplitude).sum()
    }

    /// Contrast and noise size applied to the normalised sum `v`, with the factor its
    /// derivative is multiplied by.
    #[inline]
    pub(crate) fn contrast_and_size(&self, v: f64) -> (f64, f64) {
        if self.contrast == 1.0 {
            return (v * self.noise_size, self.noise_size);
        }
        // Clamped away from 0 (as the grid path does), but NaN stays NaN.
        let magnitude = if v.abs() < 1.0e-30 { 1.0e-30 } else { v.abs() };
        let shaped = 1f64.copysign(v) * magnitude.powf(self.contrast);
        let slope = self.contrast * magnitude.powf(self.contrast - 1.0);
        (shaped * self.noise_size, slope * self.noise_size)
    }

    fn base(&self) -> Base {
        match self.base {
            BaseNoise::Perlin => Base::Perlin(Perlin {
                fade: self.fade,
                hashing: self.hashing,
            }),
            BaseNoise::Simplex => Base::Simplex(Simplex {
                hashing: self.hashing,
            }),
            BaseNoise::Value => Base::Value(Value {
                interpolation: self.interpolation,
                hashing: self.hashing,
            }),
        }
    }

    /// The warped point and the Jacobian `[[∂x′/∂x, ∂x′/∂y], [∂y′/∂x, ∂y′/∂y]]`.
    fn warp2(&self, tables: &NoiseTables, x: f64, y: f64) -> ([f64; 2], [[f64; 2]; 2]) {
        let Some(w) = self.warp else {
            return ([x, y], [[1.0, 0.0], [0.0, 1.0]]);
        };
        let (f, base) = (w.frequency, self.base());
        let [ox, oy] = WARP_OFFSETS;
        let (qx, gx) = base.sample2_with_gradient(tables, x * f + ox[0], y * f + ox[1]);
        let (qy, gy) = base.sample2_with_gradient(tables, x * f + oy[0], y * f + oy[1]);
        let s = w.amplitude * f;
        (
            [x + w.amplitude * qx, y + w.amplitude * qy],
            [[1.0 + s * gx[0], s * gx[1]], [s * gy[0], 1.0 + s * gy[1]]],
        )
    }

    /// 2D fractal noise at `(x, y)`: the reference every faster path is tested against.
    pub fn sample2(&self, tables: &NoiseTables, x: f64, y: f64) -> f64 {
        self.sample2_full(tables, x, y).value
    }

    /// 2D fractal noise with its analytic gradient `[∂/∂x, ∂/∂y]`, for exact terrain normals.
    pub fn sample2_with_gradient(&self, tables: &NoiseTables, x: f64, y: f64) -> (f64, [f64; 2]) {
        let s = self.sample2_full(tables, x, y);
        (s.value, s.gradient)
    }

    /// 2D fractal noise with its gradient and crease mask: the reference, in `f64`, that the
    /// grid path matches to about 1e−6.
    pub fn sample2_full(&self, tables: &NoiseTables, x: f64, y: f64) -> Sample {
        self.sample2_detailed(tables, x, y, Detail::FULL)
    }

    /// [`Fbm::sample2_full`] with only the detail `detail` can show (noise and erosion octaves
    /// alike): the reference of a grid filled under that detail.
    pub fn sample2_detailed(&self, tables: &NoiseTables, x: f64, y: f64, detail: Detail) -> Sample {
        let base = self.base();
        let ([wx, wy], jacobian) = self.warp2(tables, x, y);
        let mut sum = 0.0;
        let mut grad = [0.0; 2];
        for o in self.detailed_octaves(detail) {
            let (n, g) = base.sample2_with_gradient(
                tables,
                wx * o.frequency + o.shift,
                wy * o.frequency + o.shift,
            );
            let (shaped, slope) = self.mode.shape(n);
            sum += shaped * o.amplitude;
            let k = slope * o.amplitude * o.frequency;
            grad[0] += g[0] * k;
            grad[1] += g[1] * k;
        }
        let norm = self.amplitude_sum();
        let (value, slope) = self.contrast_and_size(sum / norm);
        let k = slope / norm;
        // Chain rule through the warp.
        let gradient = [
            (grad[0] * jacobian[0][0] + grad[1] * jacobian[1][0]) * k,
            (grad[0] * jacobian[0][1] + grad[1] * jacobian[1][1]) * k,
        ];
        match &self.erosion {
            None => Sample {
                value,
                gradient,
                crease: 0.5,
            },
            Some(erosion) => {
                let e = erosion
                    .plan(tables, self, detail)
                    .apply(tables, x, y, value, gradient);
                Sample {
                    value: e.value,
                    gradient: e.gradient,
                    crease: e.crease,
                }
            }
        }
    }

    /// 3D fractal noise (no warp, no erosion: both apply to the 2D samplers).
    pub fn sample3(&self, tables: &NoiseTables, x: f64, y: f64, z: f64) -> f64 {
        let base = self.base();
        let mut sum = 0.0;
        for o in self.octave_list() {
            let p = [x, y, z].map(|c| c * o.frequency + o.shift);
            sum += self.mode.shape(base.sample3(tables, p[0], p[1], p[2])).0 * o.amplitude;
        }
        self.contrast_and_size(sum / self.amplitude_sum()).0
    }
}
