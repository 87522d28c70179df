//! The biomes of a config, ready to weigh.
//!
//! A biome's membership is a product over the climate axes of two smooth steps, one per side of
//! its range, each ½ on the range's edge and 0 half a blend width outside it (1 as far inside):
//! neighbours that touch share a border where both are ½. The steps run over the distance in
//! metres to the edge, to first order: `(c − edge) / G` with `G = √(|∇c|² + g₀²)`, so a border
//! is `blend` metres wide where the climate changes fast and wider where it changes slowly
//! (`g₀` is half the climate's mean gradient), never a cliff where the climate happens to be
//! steep. A point's weights are the memberships divided by their sum (every point lies in some
//! biome's ranges, so the sum is at least ⅛).
//!
//! The ground takes these weights at the nodes of a square lattice finer than a border
//! (`weights/`) and smooths them with a cubic B-spline: smooth to the second derivative, so
//! heights and exact normals follow, and exactly 0 wherever a biome weighs nothing at the nodes
//! around, so a grid computes only the biomes that weigh in somewhere inside it.

use super::climate::{ClimateField, ClimateSample, FIELDS, FieldBounds, MEAN_GRADIENT};
use crate::config::{Biome, Climate, MAX_BIOMES, NODES_PER_SCALE};
use perlin_core::{Fbm, SimdLevel, Vectorised};
use std::sync::atomic::{AtomicU64, Ordering};

/// A config's biomes and its climate, compiled.
#[derive(Clone, Debug)]
pub(crate) struct Biomes {
    climate: ClimateField,
    biomes: Vec<BiomeGround>,
    /// Metres over which a biome blends into a neighbour.
    blend: f32,
    /// Per climate axis, the squared gradient `g₀²` that widens borders where the climate is
    /// flat (climate units per metre, squared).
    flat: [f32; FIELDS],
    /// Tells these biomes' weight nodes apart in the thread's cache.
    pub(super) id: u64,
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
}

impl Biomes {
    /// The biomes of a config (`None` without any: the single-recipe ground). A config in
    /// force has at most [`MAX_BIOMES`]; of an unchecked one's, the first that many.
    pub fn new(climate: &Climate, biomes: &[Biome]) -> Option<Self> {
        if biomes.is_empty() {
            return None;
        }
        let biomes = &biomes[..biomes.len().min(MAX_BIOMES)];
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
                })
                .collect(),
            blend: climate.blend,
            flat,
            id: {
                static NEXT: AtomicU64 = AtomicU64::new(1);
                NEXT.fetch_add(1, Ordering::Relaxed)
            },
            climate: field,
            source: (climate.clone(), biomes.to_vec()),
        })
    }

    /// The biomes, in the config's order.
    pub fn list(&self) -> &[BiomeGround] {
        &self.biomes
    }

    /// The climate fields.
    pub fn climate_field(&self) -> &ClimateField {
        &self.climate
    }

    /// Metres between the weight nodes of a grid whose samples are `spacing` apart: an eighth
    /// of the blend (borders keep their shape), or four spacings if that is wider (a far,
    /// coarse chunk reads a node every four vertices: its borders are softer, not costlier), as
    /// a power of two.
    pub fn weight_spacing(&self, spacing: f64) -> f64 {
        let wanted = (self.blend as f64 / 8.0).max(4.0 * spacing);
        wanted.log2().floor().clamp(-6.0, 24.0).exp2()
    }

    /// The weights of every biome at the climate `c` (memberships over their sum), in the
    /// config's order, into the first entries of `out`: one climate at a time, the reference
    /// that [`weigh_climates`](Self::weigh_climates) is held to, bit for bit.
    #[cfg(test)]
    pub fn weigh_climate(&self, c: &ClimateSample, out: &mut [f32; MAX_BIOMES]) {
        let inverse_g: [f32; FIELDS] = std::array::from_fn(|axis| {
            let [gx, gz] = c.gradient[axis];
            1.0 / (gx * gx + gz * gz + self.flat[axis]).sqrt()
        });
        let inverse_blend = 1.0 / self.blend;
        let mut sum = 0.0f32;
        for (w, b) in out.iter_mut().zip(&self.biomes) {
            *w = b.membership(&c.value, &inverse_g, inverse_blend);
            sum += *w;
        }
        if sum > 0.0 {
            for w in out.iter_mut().take(self.biomes.len()) {
                *w /= sum;
            }
        } else {
            // Every climate point lies in a biome's ranges (the config's validation): not
            // reached. The first biome takes the point rather than a division by 0.
            out[0] = 1.0;
        }
    }

    /// The weights of every biome (memberships over their sum, in the config's order) at each
    /// of `climate`, biome by biome into `out` (biome `b`'s weight at climate `i` of `n` is
    /// `out[b · n + i]`): the climates side by side in the CPU's widest vectors
    /// ([`WeighClimates`]), each with the bits of the one-climate reference `weigh_climate`
    /// (in the tests).
    pub fn weigh_climates(&self, climate: &[ClimateSample], out: &mut Vec<f32>) {
        self.weigh_climates_with(SimdLevel::Auto, climate, out);
    }

    /// [`weigh_climates`](Self::weigh_climates) with the vectors of `kernel` (the scalar code
    /// where the CPU lacks them).
    fn weigh_climates_with(
        &self,
        kernel: SimdLevel,
        climate: &[ClimateSample],
        out: &mut Vec<f32>,
    ) {
        let n = climate.len();
        out.clear();
        out.resize(self.biomes.len() * n, 0.0);
        // Per field, the values and the gradients' two components, one slice each.
        let mut fields = vec![0.0f32; 3 * FIELDS * n];
        for (i, c) in climate.iter().enumerate() {
            for axis in 0..FIELDS {
                let at = 3 * axis * n + i;
                let [gx, gz] = c.gradient[axis];
                (fields[at], fields[at + n], fields[at + 2 * n]) = (c.value[axis], gx, gz);
            }
        }
        let work = WeighClimates {
            biomes: self,
            fields: &mut fields,
            out,
        };
        kernel.vectorise(work).unwrap_or_else(Vectorised::run);
    }

    /// The biome that weighs exactly 1, and every other exactly 0, wherever the climate lies
    /// within `bounds` (per field: its range and its gradient's largest length), if one does.
    /// A side's step moves off 0 or 1 only within `blend · G / 2` climate units of its edge
    /// ([`weigh_climates`](Self::weigh_climates)), so the biome must lie inside each of its sides
    /// by more than that reach at the largest `G` the bounds allow, and every other biome
    /// outside one of its sides by as much. [`ROUNDING`] keeps the test on the safe side of
    /// `f32` rounding, so that the weights computed point by point are exactly 1 and 0. Only a
    /// blend of normal positive width is tested (a config in force has at least 1 m): none
    /// flips or overflows the steps.
    pub fn sole_biome(&self, bounds: &[FieldBounds; FIELDS]) -> Option<usize> {
        let known = |b: &FieldBounds| b.low <= b.high && b.gradient.is_finite();
        if !(self.blend.is_normal() && self.blend > 0.0 && bounds.iter().all(known)) {
            return None;
        }
        let reach: [f64; FIELDS] = std::array::from_fn(|axis| {
            let g = bounds[axis].gradient;
            let widest = 0.5 * f64::from(self.blend) * (g * g + f64::from(self.flat[axis])).sqrt();
            widest * (1.0 + ROUNDING) + 0.1 * ROUNDING
        });
        let mut sole = None;
        for (k, biome) in self.biomes.iter().enumerate() {
            if biome.everywhere_inside(bounds, &reach) {
                if sole.replace(k).is_some() {
                    return None;
                }
            } else if !biome.everywhere_outside(bounds, &reach) {
                return None;
            }
        }
        sole
    }
}

/// [`Biomes::weigh_climates`]' work: per field, `n` values, then the gradients' `x` and `z`
/// components (`fields`, whose gradients' `x` slices become `1 / G` on the way); the biomes'
/// weights into `out`. Each climate's arithmetic is the one-climate reference's
/// (`Biomes::weigh_climate`, in the tests), in every lane.
struct WeighClimates<'a> {
    biomes: &'a Biomes,
    fields: &'a mut [f32],
    out: &'a mut [f32],
}

impl Vectorised for WeighClimates<'_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        let WeighClimates {
            biomes,
            fields,
            out,
        } = self;
        let count = biomes.biomes.len();
        let n = fields.len() / (3 * FIELDS);
        if n == 0 || out.len() < count * n {
            return;
        }
        // `1 / G` per field, in place of the gradients' `x` components.
        for (field, flat) in fields.chunks_exact_mut(3 * n).zip(biomes.flat) {
            let (_, gradient) = field.split_at_mut(n);
            let (gx, gz) = gradient.split_at_mut(n);
            inverse_lengths(gx, gz, flat);
        }
        let fields: [(&[f32], &[f32]); FIELDS] = std::array::from_fn(|axis| {
            let field = &fields[3 * axis * n..3 * (axis + 1) * n];
            (&field[..n], &field[n..2 * n])
        });
        let inverse_blend = 1.0 / biomes.blend;
        let mut sums = vec![0.0f32; n];
        for (b, (m, biome)) in out.chunks_exact_mut(n).zip(&biomes.biomes).enumerate() {
            m.fill(1.0);
            for (axis, &(value, inverse_g)) in fields.iter().enumerate() {
                let (low, high) = biome.sides[axis];
                let sides = (
                    low.is_finite().then_some(low),
                    high.is_finite().then_some(high),
                );
                membership_axis(m, value, inverse_g, inverse_blend, sides);
            }
            add_to_sums(&mut sums, m, b == 0);
        }
        for (b, m) in out.chunks_exact_mut(n).take(count).enumerate() {
            normalise_memberships(m, &sums, b == 0);
        }
    }
}

/// `1 / √(x² + z² + flat)` of each gradient, into its `x` slice.
#[inline(always)]
fn inverse_lengths(gx: &mut [f32], gz: &[f32], flat: f32) {
    let gz = &gz[..gx.len()];
    for (x, &z) in gx.iter_mut().zip(gz) {
        *x = 1.0 / (*x * *x + z * z + flat).sqrt();
    }
}

/// One climate axis's two sides (`None`: open) of a biome's memberships `m` at each climate
/// (its `value` there and `1 / G`), each a smooth step (see the module's documentation): a
/// membership that fell to 0 on an earlier axis stays 0, and one that falls to 0 or below here
/// becomes 0.
#[inline(always)]
fn membership_axis(
    m: &mut [f32],
    value: &[f32],
    inverse_g: &[f32],
    inverse_blend: f32,
    sides: (Option<f32>, Option<f32>),
) {
    let n = m.len();
    let (value, inverse_g) = (&value[..n], &inverse_g[..n]);
    let side = |inside: f32, inverse_g: f32| step(inside * inverse_g * inverse_blend + 0.5);
    let kept = |before: f32, next: f32| {
        if before <= 0.0 || next <= 0.0 {
            0.0
        } else {
            next
        }
    };
    // Each case a loop of its own, without a branch inside.
    match sides {
        (Some(low), Some(high)) => {
            for i in 0..n {
                let (v, g) = (value[i], inverse_g[i]);
                m[i] = kept(m[i], m[i] * side(v - low, g) * side(high - v, g));
            }
        }
        (Some(low), None) => {
            for i in 0..n {
                m[i] = kept(m[i], m[i] * side(value[i] - low, inverse_g[i]));
            }
        }
        (None, Some(high)) => {
            for i in 0..n {
                m[i] = kept(m[i], m[i] * side(high - value[i], inverse_g[i]));
            }
        }
        (None, None) => {}
    }
}

/// Adds the memberships `m` to `sums` (`first`: writes `0 + m`).
#[inline(always)]
fn add_to_sums(sums: &mut [f32], m: &[f32], first: bool) {
    let sums = &mut sums[..m.len()];
    for (sum, &m) in sums.iter_mut().zip(m) {
        *sum = if first { 0.0 + m } else { *sum + m };
    }
}

/// A biome's memberships `m` over their `sums` (where a sum is not above 0, the `first` biome
/// takes the climate).
#[inline(always)]
fn normalise_memberships(m: &mut [f32], sums: &[f32], first: bool) {
    let sums = &sums[..m.len()];
    for (m, &sum) in m.iter_mut().zip(sums) {
        *m = if sum > 0.0 {
            *m / sum
        } else if first {
            1.0
        } else {
            *m
        };
    }
}

/// The safety margin of [`Biomes::sole_biome`]: relative on a step's reach, and a tenth of it
/// in climate units. `f32` rounding in a point's climate and weights is about 10⁻⁶ of either.
const ROUNDING: f64 = 1e-3;

impl BiomeGround {
    /// Whether every climate within `bounds` lies inside each side of its ranges by at least
    /// `reach`. A side that is not finite is open, as in [`membership_axis`].
    fn everywhere_inside(&self, bounds: &[FieldBounds; FIELDS], reach: &[f64; FIELDS]) -> bool {
        (0..FIELDS).all(|axis| {
            let ((low, high), b) = (self.sides[axis], bounds[axis]);
            (!low.is_finite() || b.low - f64::from(low) >= reach[axis])
                && (!high.is_finite() || f64::from(high) - b.high >= reach[axis])
        })
    }

    /// Whether every climate within `bounds` lies outside one finite side of its ranges by at
    /// least `reach`.
    fn everywhere_outside(&self, bounds: &[FieldBounds; FIELDS], reach: &[f64; FIELDS]) -> bool {
        (0..FIELDS).any(|axis| {
            let ((low, high), b) = (self.sides[axis], bounds[axis]);
            (low.is_finite() && f64::from(low) - b.high >= reach[axis])
                || (high.is_finite() && b.low - f64::from(high) >= reach[axis])
        })
    }

    /// Its membership at climate `value`, where `1 / G` is `inverse_g` per axis (the reference
    /// of [`membership_axis`]).
    #[cfg(test)]
    fn membership(
        &self,
        value: &[f32; FIELDS],
        inverse_g: &[f32; FIELDS],
        inverse_blend: f32,
    ) -> f32 {
        let mut m = 1.0f32;
        for axis in 0..FIELDS {
            let (low, high) = self.sides[axis];
            // A side's step over `t = d / blend + ½`, `d = ±(v − edge) / G` metres inside.
            let side = |inside: f32| step(inside * inverse_g[axis] * inverse_blend + 0.5);
            if low.is_finite() {
                m *= side(value[axis] - low);
            }
            if high.is_finite() {
                m *= side(high - value[axis]);
            }
            if m <= 0.0 {
                return 0.0;
            }
        }
        m
    }
}

/// The smooth step `3t² − 2t³` of `t` clamped to 0..1.
#[inline]
fn step(t: f32) -> f32 {
    if t <= 0.0 {
        0.0
    } else if t >= 1.0 {
        1.0
    } else {
        t * t * (3.0 - 2.0 * t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Biomes of an unchecked config: `open`, every range the whole axis, and `other`, its
    /// temperature range as given; a blend of `blend` metres.
    fn two(other: (f32, f32), blend: f32) -> Biomes {
        let climate = Climate {
            blend,
            ..Climate::default()
        };
        let biomes = [
            Biome::default(),
            Biome {
                temperature: other,
                ..Biome::default()
            },
        ];
        Biomes::new(&climate, &biomes).expect("two biomes")
    }

    /// Each biome's weight at a climate of 0 on every axis, flat.
    fn weights_at_zero(biomes: &Biomes) -> [f32; 2] {
        let mut w = [0.0; MAX_BIOMES];
        biomes.weigh_climate(&ClimateSample::default(), &mut w);
        [w[0], w[1]]
    }

    #[test]
    fn one_biome_is_named_alone_only_where_its_neighbours_weigh_nothing() {
        // Every field within ±0.01 of 0, flat: the second biome's temperature range far away
        // (0.6 to 0.9), then one whose lower side is not finite (open, as its membership
        // reads it, not far outside), then an unchecked blend that is negative, 0 or NaN.
        let bounds = [FieldBounds {
            low: -0.01,
            high: 0.01,
            gradient: 0.0,
        }; FIELDS];
        let far = two((0.6, 0.9), 400.0);
        assert_eq!(weights_at_zero(&far), [1.0, 0.0]);
        assert_eq!(far.sole_biome(&bounds), Some(0));
        // Its upper side 0.02: within a step's reach of the climate, so both weigh in.
        let open_below = two((f32::INFINITY, 0.02), 400.0);
        let [_, w] = weights_at_zero(&open_below);
        assert!(w > 0.1 && w < 0.9, "{w}");
        assert_eq!(open_below.sole_biome(&bounds), None);
        for blend in [-400.0, 0.0, f32::NAN] {
            assert_eq!(two((0.6, 0.9), blend).sole_biome(&bounds), None, "{blend}");
        }
        // Bounds that say nothing: no range, or a gradient without a bound.
        let unknown = FieldBounds {
            low: f64::NAN,
            high: f64::NAN,
            gradient: f64::NAN,
        };
        assert_eq!(far.sole_biome(&[unknown; FIELDS]), None);
    }

    #[test]
    fn every_kernel_weighs_climates_as_one_climate_at_a_time() {
        // The world preset's six biomes (each side open or finite) and two narrow ones, finite
        // on every side (an unchecked config: they overlap the others), at climates across
        // every range and border, flat and steep, and some that are not finite on one axis.
        let bytes = include_bytes!("../../../../assets/terrain/world.terrain.ron");
        let config =
            crate::config::parse_config("world.terrain.ron", bytes).expect("the world parses");
        let mut list = config.biomes.clone();
        for (low, high) in [(-0.2, 0.1), (0.3, 0.45)] {
            list.push(Biome {
                temperature: (low, high),
                moisture: (low + 0.1, high + 0.1),
                continentalness: (low - 0.1, high - 0.1),
                ..Biome::default()
            });
        }
        let biomes = Biomes::new(&config.climate, &list).expect("biomes");
        // Numbers from -1.2 to 1.2 times `s`, spread by a hash (SplitMix64's) of the climate
        // and the slot.
        let t = |k: u64, slot: u64, s: f32| {
            let mut h = (k * 9 + slot).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            h = (h ^ (h >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            h = (h ^ (h >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            let h = (h ^ (h >> 31)) >> 40;
            (h as f32 / (1u64 << 24) as f32 * 2.4 - 1.2) * s
        };
        let mut climates: Vec<ClimateSample> = (0..20_000)
            .map(|k| ClimateSample {
                value: [t(k, 0, 1.0), t(k, 1, 1.0), t(k, 2, 1.0)],
                gradient: [
                    [t(k, 3, 1e-3), t(k, 4, 1e-4)],
                    [t(k, 5, 1e-3), 0.0],
                    [t(k, 6, 1e-3), t(k, 7, 1e-3)],
                ],
            })
            .collect();
        let odd = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
        for (k, c) in climates.iter_mut().step_by(50).enumerate() {
            let (axis, odd) = (k % FIELDS, odd[(k / FIELDS) % odd.len()]);
            if k % 2 == 0 {
                c.value[axis] = odd;
            } else {
                c.gradient[axis][k % 2] = odd;
            }
        }
        let count = biomes.list().len();
        let n = climates.len();
        let (mut partial, mut sole) = (0, 0);
        for kernel in SimdLevel::ALL.into_iter().filter(|k| k.is_available()) {
            let mut out = Vec::new();
            biomes.weigh_climates_with(kernel, &climates, &mut out);
            assert_eq!(out.len(), count * n);
            for (i, c) in climates.iter().enumerate() {
                let mut w = [0.0; MAX_BIOMES];
                biomes.weigh_climate(c, &mut w);
                for b in 0..count {
                    assert_eq!(
                        out[b * n + i].to_bits(),
                        w[b].to_bits(),
                        "{kernel:?}, climate {i} ({c:?}), biome {b}: {} against {}",
                        out[b * n + i],
                        w[b]
                    );
                }
                partial += usize::from(w[..count].iter().any(|&w| w > 0.0 && w < 1.0));
                sole += usize::from(w[..count].contains(&1.0));
            }
        }
        // Climates on borders and inside biomes, many of each.
        assert!(
            partial > 2000 && sole > 2000,
            "{partial} on borders, {sole} inside"
        );
    }
}
