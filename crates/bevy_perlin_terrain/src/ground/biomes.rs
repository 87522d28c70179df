//! The biomes of a config, ready to weigh: which biomes weigh in over a grid (from the climate
//! nodes around it), and each one's weight and its gradient at every sample.
//!
//! A biome's membership is a product over the climate axes of two smooth steps, one per side of
//! its range, each ½ on the range's edge and 0 half a blend width outside it (1 as far inside):
//! neighbours that touch share a border where both are ½. The steps run over the distance in
//! metres to the edge, to first order: `(c − edge) / G` with `G = √(|∇c|² + g₀²)`, so a border
//! is `blend` metres wide where the climate changes fast and wider where it changes slowly
//! (`g₀` is half the climate's mean gradient), never a cliff where the climate happens to be
//! steep. The weights are the memberships divided by their sum; every sample lies in some
//! biome's ranges, so the sum is at least ⅛. Memberships are exactly 0 beyond the blend, so a
//! biome that no sample of a grid can reach is left out of the grid without changing a bit of
//! it.

use super::climate::{ClimateField, ClimateSample, ClimateWindow, FIELDS, MEAN_GRADIENT};
use crate::config::{Biome, Climate, NODES_PER_SCALE};
use perlin_core::{Fbm, GridSpec, NoiseTables};

/// How far beyond the nodes' range a B-spline's value may round (and, relatively, its
/// gradient beyond its bound).
const ROUNDING: f32 = 1e-4;

/// A config's biomes and its climate, compiled.
#[derive(Clone, Debug)]
pub(crate) struct Biomes {
    climate: ClimateField,
    biomes: Vec<BiomeGround>,
    /// What they were compiled from (two configs with the same are the same ground).
    source: (Climate, Vec<Biome>),
}

impl PartialEq for Biomes {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

/// One biome's ground and where it lives.
#[derive(Clone, Debug)]
pub(crate) struct BiomeGround {
    pub name: String,
    pub noise: Fbm,
    pub height_scale: f32,
    /// Its height offset (`+ 0.0`: never −0, so that a sum that starts at +0 keeps its bits).
    pub height_offset: f32,
    /// Per climate axis, the range's sides; an open side is infinite.
    sides: [(f32, f32); FIELDS],
    /// Metres over which it blends into a neighbour.
    blend: f32,
    /// Per climate axis, the squared gradient `g₀²` that widens borders where the climate is
    /// flat (climate units per metre, squared).
    flat: [f32; FIELDS],
}

impl Biomes {
    /// The biomes of a config (`None` without any: the single-recipe ground).
    pub fn new(climate: &Climate, biomes: &[Biome]) -> Option<Self> {
        if biomes.is_empty() {
            return None;
        }
        let field = ClimateField::new(climate);
        let flat = std::array::from_fn(|axis| {
            let scale = field.spacing(axis) * NODES_PER_SCALE;
            let g0 = 0.5 * MEAN_GRADIENT / scale;
            (g0 * g0) as f32
        });
        let open = |low: f32, high: f32| {
            (
                if low <= -1.0 { f32::NEG_INFINITY } else { low },
                if high >= 1.0 { f32::INFINITY } else { high },
            )
        };
        Some(Self {
            biomes: biomes
                .iter()
                .map(|b| BiomeGround {
                    name: b.name.clone(),
                    noise: b.noise,
                    height_scale: b.height_scale,
                    height_offset: b.height_offset + 0.0,
                    sides: b.ranges().map(|(low, high)| open(low, high)),
                    blend: climate.blend,
                    flat,
                })
                .collect(),
            climate: field,
            source: (climate.clone(), biomes.to_vec()),
        })
    }

    /// The biomes, in the config's order.
    pub fn list(&self) -> &[BiomeGround] {
        &self.biomes
    }

    /// The climate fields.
    pub fn climate(&self) -> &ClimateField {
        &self.climate
    }

    /// Indices of the biomes that may weigh in somewhere in the grid whose climate `window`
    /// holds, into `out` (in the config's order); every other biome weighs exactly 0 at each
    /// of its samples.
    ///
    /// A side's step is 0 beyond `G · blend / 2` climate units outside the range, and the
    /// window bounds the climate and its gradient over the grid (so `G` by
    /// `√(steepest² + g₀²)`).
    pub fn candidates(&self, window: &ClimateWindow, out: &mut Vec<usize>) {
        out.clear();
        let steepest: [f32; FIELDS] = window.steepest.map(|[gx, gz]| gx * gx + gz * gz);
        out.extend(self.biomes.iter().enumerate().filter_map(|(k, b)| {
            let reaches = (0..FIELDS).all(|axis| {
                let (low, high) = window.range[axis];
                let (side_low, side_high) = b.sides[axis];
                let reach =
                    (steepest[axis] + b.flat[axis]).sqrt() * (1.0 + ROUNDING) * 0.5 * b.blend;
                high + ROUNDING > side_low - reach && low - ROUNDING < side_high + reach
            });
            reaches.then_some(k)
        }));
    }

    /// The weights of `candidates` and their gradients at each climate sample, candidate by
    /// candidate (`weights[c · n + s]` for candidate `c` and sample `s` of `n`).
    pub fn weigh(
        &self,
        candidates: &[usize],
        climate: &[ClimateSample],
        weights: &mut Vec<f32>,
        gradients: &mut Vec<[f32; 2]>,
    ) {
        let n = climate.len();
        weights.clear();
        gradients.clear();
        weights.resize(n * candidates.len(), 0.0);
        gradients.resize(n * candidates.len(), [0.0; 2]);
        for (s, c) in climate.iter().enumerate() {
            let mut sum = 0.0f32;
            let mut sum_gradient = [0.0f32; 2];
            for (slot, &k) in candidates.iter().enumerate() {
                let (m, g) = self.biomes[k].membership(c);
                sum += m;
                sum_gradient = [sum_gradient[0] + g[0], sum_gradient[1] + g[1]];
                weights[slot * n + s] = m;
                gradients[slot * n + s] = g;
            }
            if sum <= 0.0 {
                // Every climate point lies in a biome's ranges (the config's validation): not
                // reached. The first candidate takes the sample rather than a division by 0.
                weights[s] = 1.0;
                gradients[s] = [0.0; 2];
                continue;
            }
            for slot in 0..candidates.len() {
                let (m, g) = (weights[slot * n + s], gradients[slot * n + s]);
                let w = m / sum;
                weights[slot * n + s] = w;
                gradients[slot * n + s] = [
                    (g[0] - w * sum_gradient[0]) / sum,
                    (g[1] - w * sum_gradient[1]) / sum,
                ];
            }
        }
    }

    /// The climate at `(x, z)`: one sample of a grid of one, as a chunk computes it.
    pub fn climate_at(&self, tables: &NoiseTables, x: f64, z: f64) -> ClimateSample {
        let spec = GridSpec::new([x, z], 1.0, [1, 1]);
        let mut window = ClimateWindow::default();
        self.climate.window(tables, &spec, &mut window);
        let mut out = Vec::with_capacity(1);
        self.climate.fill(&spec, &window, &mut out);
        out.first().copied().unwrap_or_default()
    }

    /// The biomes that weigh in at climate `c`, with their weights, in the config's order.
    pub fn weights_at(&self, c: &ClimateSample) -> Vec<(&str, f32)> {
        let all: Vec<usize> = (0..self.biomes.len()).collect();
        let (mut weights, mut gradients) = (Vec::new(), Vec::new());
        self.weigh(&all, std::slice::from_ref(c), &mut weights, &mut gradients);
        (self.biomes.iter().zip(weights))
            .filter(|(_, w)| *w > 0.0)
            .map(|(b, w)| (b.name.as_str(), w))
            .collect()
    }

    /// The biome that weighs most at the climate `c` (the first of equals).
    pub fn strongest(&self, c: &ClimateSample) -> Option<&BiomeGround> {
        let mut best: Option<(&BiomeGround, f32)> = None;
        for b in &self.biomes {
            let (m, _) = b.membership(c);
            if best.is_none_or(|(_, top)| m > top) {
                best = Some((b, m));
            }
        }
        best.map(|(b, _)| b)
    }
}

impl BiomeGround {
    /// Its membership at climate `c`, and the membership's gradient over the ground.
    fn membership(&self, c: &ClimateSample) -> (f32, [f32; 2]) {
        // Per axis: the factor and its gradient over the ground.
        let mut factor = [1.0f32; FIELDS];
        let mut slope = [[0.0f32; 2]; FIELDS];
        for axis in 0..FIELDS {
            let (low, high) = self.sides[axis];
            if low.is_infinite() && high.is_infinite() {
                continue;
            }
            let v = c.value[axis];
            let [gx, gz] = c.gradient[axis];
            let [xx, xz, zz] = c.curvature[axis];
            // G and its gradient (the curvature times the gradient, over G).
            let g = (gx * gx + gz * gz + self.flat[axis]).sqrt();
            let dg = [(xx * gx + xz * gz) / g, (xz * gx + zz * gz) / g];
            // A side's step over `t = d / blend + ½`, `d = ±(v − edge) / G` metres inside.
            let side = |inside: f32, sign: f32| {
                let d = inside / g;
                let (s, ds) = step(d / self.blend + 0.5);
                let k = ds / (self.blend * g);
                (
                    s,
                    [k * (sign * gx - d * dg[0]), k * (sign * gz - d * dg[1])],
                )
            };
            let (mut f, mut df) = (1.0f32, [0.0f32; 2]);
            if low.is_finite() {
                (f, df) = side(v - low, 1.0);
            }
            if high.is_finite() {
                let (s, ds) = side(high - v, -1.0);
                df = [df[0] * s + f * ds[0], df[1] * s + f * ds[1]];
                f *= s;
            }
            factor[axis] = f;
            slope[axis] = df;
        }
        let m = factor[0] * factor[1] * factor[2];
        let others = [
            factor[1] * factor[2],
            factor[0] * factor[2],
            factor[0] * factor[1],
        ];
        let mut gradient = [0.0f32; 2];
        for axis in 0..FIELDS {
            gradient[0] += slope[axis][0] * others[axis];
            gradient[1] += slope[axis][1] * others[axis];
        }
        (m, gradient)
    }
}

/// The smooth step `3t² − 2t³` of `t` clamped to 0..1, and its derivative (0 outside).
#[inline]
fn step(t: f32) -> (f32, f32) {
    if t <= 0.0 {
        (0.0, 0.0)
    } else if t >= 1.0 {
        (1.0, 0.0)
    } else {
        (t * t * (3.0 - 2.0 * t), 6.0 * t * (1.0 - t))
    }
}
