//! A pointwise erosion filter: gullies that run downhill and branch, sharp ridges between them,
//! peaks and valley floors kept, computed at each point from its position and the height field
//! alone, so chunks of a streamed terrain stay seamless.
//!
//! Simulated erosion needs the whole map; this filter only imitates its look. It follows the
//! published line of slope-steered stripe noise: Quilez's derivative-damped FBM, de Carpentier's
//! Swiss turbulence (2012), Clay John's eroded terrain noise (2018), and Rune Skovbo Johansen's
//! erosion filter on "Phacelle" directional noise (2026). This is our own formulation of that
//! idea, written from the published descriptions, and chosen so that **the gradient it outputs
//! is the exact derivative of the height it outputs**:
//!
//! - **Cells with a direction each.** Octave `i` tiles the plane with cells of size `sᵢ`; cell
//!   `n` has a jittered centre `cₙ` and a downhill direction `dₙ` fixed at its lattice point.
//!   It holds a cosine wave whose crests run along `dₙ`: `cos 2π(⟨q, tₙ⟩ + ¼)`, `q = p/sᵢ − cₙ`,
//!   `tₙ = dₙ⊥`. Within a cell the phase is linear in `p`, so its gradient is exact. The 2×2 cells
//!   whose lattice points surround `p` are blended by a separable bell,
//!   `w = b(q_x)·b(q_y)`, `b(t) = (1 − t²/R²)₊³` (`R = 0.85`, jitter ≤ 0.15: every other cell is
//!   at least `1 − 0.15 = R` away along one axis, so it never reaches `p`, and the nearest cell is
//!   at most `0.5 + 0.15 < R` away along both, so the weights never all vanish). Blending cosine
//!   and sine alike gives a phasor `(C, S)`, renormalised towards unit length (`sharpness`) so
//!   blended stripes keep their depth: `Ĉ = C / m`, `m = (|(C, S)|⁴ + (1 − sharpness)⁴)^¼` (a
//!   smooth maximum), +1 on a ridge, −1 in a gully.
//! - **Steering.** The direction of octave 0's cells is the gradient of a *coarse* version of
//!   the terrain (its octaves at least four cells long), at the cell's lattice point; each later
//!   octave adds the gullies of the octaves before it there, so finer gullies branch off the
//!   coarser ones.
//! - **Faded in by slope, towards the peaks and valleys.** A mask `μ` grows from 0 on flat ground
//!   to 1 on slopes (`slope_onset`, on the coarse slope interpolated between octave 0's lattice
//!   points); each octave fades from the "target" `τ` (the height relative to half the noise's
//!   amplitude, ±1 at peaks and valleys, times `preserve`) towards the gully value,
//!   `f = τ + μ(Ĉ − τ)`, and adds `aᵢ(f − τ₀)`. Flat ground is
//!   unchanged, peaks are only cut down, valley floors only filled. Each octave's ridges and
//!   creases (where `|Ŝ|` is small) lower the next octave's mask (`detail`).
//! - **Creases.** A parallel chain `R` starts at the height and moves towards each octave's `Ĉ`:
//!   `crease = (1 − R)/2` is 1 in gullies and valley floors, 0 on ridges and peaks, ½ on neutral
//!   ground.
//! - **Detail.** Under a [`Detail`] (a grid's spacing) an octave whose cells the spacing cannot
//!   show adds only part of its gullies, `wᵢ·aᵢ(f − τ₀)` with `wᵢ = Detail::weight(sᵢ)`, and its
//!   crease step likewise; at `wᵢ = 0` it is left out. It still steers the finer octaves whole,
//!   so gullies keep their directions whatever the detail. With every octave out, the height is
//!   unchanged and the crease is `(1 − relief)/2`, the limit of the weighted chain.
//!
//! Every step is differentiated exactly, masks included, so the output gradient is the true
//! derivative of the output height wherever that exists (it does not at the kinks of the clamps
//! and of the slope mask's onset); `tests/it/erosion.rs` holds it to finite differences.
//!
//! Known: faint straight lines can show along the edges of the largest gully cells, where the
//! slope mask is interpolated bilinearly between those cells' corners.

use super::{Detail, Fbm, Sample};
use crate::lattice::mix2;
use crate::tables::NoiseTables;
#[cfg(feature = "bevy_reflect")]
use bevy_reflect::std_traits::ReflectDefault;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Settings of the erosion filter. Every field has a default, so `erosion: Some(())` in RON turns
/// on a good default look.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(
    feature = "bevy_reflect",
    derive(bevy_reflect::Reflect),
    reflect(Default, Debug, Clone, PartialEq),
    // The reflected path it had before the module moved under `fbm`.
    type_path = "perlin_core::erosion"
)]
pub struct Erosion {
    /// Depth of the first octave's gullies, as a fraction of half the noise's amplitude
    /// (`|noise_size| / 2`), 0 to 1. Default 0.1.
    pub strength: f64,
    /// Cell size of the first octave, as a fraction of the base noise's lattice cell
    /// (`1 / frequency`), 0.01 to 4: the spacing of the largest gullies. Default 0.12.
    pub scale: f64,
    /// Octaves of gullies, each finer by `lacunarity`, 1 to 8. Default 4.
    pub octaves: u32,
    /// Cell size divisor from one octave to the next, 1.5 to 4. Default 2.
    pub lacunarity: f64,
    /// Depth factor from one octave to the next, 0 to 1 (½ with lacunarity 2 keeps every
    /// octave's gullies equally steep; the default).
    pub gain: f64,
    /// How crisp blended gullies stay, 0 (soft, shallow where cells disagree) to 1 (every gully
    /// at full depth). Default 0.6.
    pub sharpness: f64,
    /// How much finer gullies survive on the ridges and in the creases of coarser ones, 0.5 to 4.
    /// Default 1.5.
    pub detail: f64,
    /// Slope, relative to the base noise's (`frequency × |noise_size|`), at which gullies are
    /// fully cut, 0.01 to 100 (default 1.5). Flatter ground gets shallower gullies.
    pub slope_onset: f64,
    /// How much peaks and valley floors keep their shape, 0 (gullies everywhere) to 1 (the
    /// default).
    pub preserve: f64,
}

impl Default for Erosion {
    fn default() -> Self {
        Self {
            strength: 0.1,
            scale: 0.12,
            octaves: 4,
            lacunarity: 2.0,
            gain: 0.5,
            sharpness: 0.6,
            detail: 1.5,
            slope_onset: 1.5,
            preserve: 1.0,
        }
    }
}

/// How far a cell centre may move from its lattice point along each axis, in cells (below ¼, so
/// that a bell of radius `1 − JITTER` still covers the plane).
pub(crate) const JITTER: f64 = 0.15;
/// Half-width of the bell along each axis, in cells: `1 − JITTER`, so only the 2×2 cells around
/// a point reach it.
pub(crate) const BELL_RADIUS: f64 = 1.0 - JITTER;
/// Phase of a cell's centre, in turns: mid-flank, not on a ridge.
pub(crate) const PHASE: f64 = 0.25;
/// `|Ŝ|` at which the next octave's mask is whole again.
pub(crate) const CREASE_WIDTH: f64 = 0.5;
/// The softening of `|Ŝ|` in the next octave's mask.
pub(crate) const SOFT: f64 = 0.05;
/// The most octaves.
pub const MAX_EROSION_OCTAVES: u32 = 8;
/// The coarse field that steers the gullies keeps the noise octaves at least this many
/// first-octave cells long.
pub(crate) const COARSE_CELLS: f64 = 4.0;

/// What an octave of the filter needs, computed once per filter and shared by the point and grid
/// paths so that both use the same numbers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ErosionOctave {
    /// Cell size in input units.
    pub cell: f64,
    /// Gully amplitude in output units.
    pub amplitude: f64,
    /// Keys of the cell-jitter hash.
    pub keys: [u32; 2],
    /// How much of its gullies the filter adds, 0 to 1 ([`Detail::weight`] of its cell): the
    /// octave still steers the finer ones whole, so gully directions do not change with detail.
    pub weight: f64,
}

/// [`Erosion`] resolved against the noise it filters.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ErosionPlan {
    pub octaves: Vec<ErosionOctave>,
    /// Half the noise's amplitude, `|noise_size| / 2`: the height that counts as a peak.
    pub half_range: f64,
    /// The slope at which gullies are fully cut, in output units per input unit.
    pub onset_slope: f64,
    /// `max(1 − sharpness, 0.05)`: the phasor length below which blended stripes are scaled
    /// rather than renormalised (smoothly: the divisor is `(ρ⁴ + floor⁴)^¼`).
    pub floor: f64,
    pub detail: f64,
    pub preserve: f64,
    /// Length of octave 0's steering vector: the steepness of its gullies, `a₀ · 2πν/s₀`.
    pub steer: f64,
    /// The coarse terrain whose gradient steers octave 0 and sets the slope mask.
    pub coarse: Fbm,
}

impl Erosion {
    /// The per-octave numbers for the noise `fbm` (whose `erosion` is ignored), under `detail`:
    /// octaves whose cells `detail` cannot show are weighted down and, at weight 0, left out
    /// (the finest go first: cells shrink from one octave to the next).
    pub(crate) fn plan(&self, tables: &NoiseTables, fbm: &Fbm, detail: Detail) -> ErosionPlan {
        // Fractal sums rarely leave ±½ of their range: heights beyond count as peaks and
        // valley floors.
        let half_range = (0.5 * fbm.noise_size.abs()).max(1e-12);
        let keys = tables.keys();
        let octave = |i: u32| ErosionOctave {
            cell: self.scale / fbm.frequency / self.lacunarity.powi(i as i32),
            amplitude: self.strength * half_range * self.gain.powi(i as i32),
            keys: [
                keys[2] ^ (i + 1).wrapping_mul(0x9E37_79B9),
                keys[3].wrapping_add((i + 1).wrapping_mul(0x85EB_CA6B)),
            ],
            weight: 1.0,
        };
        let octaves: Vec<ErosionOctave> = (0..self.octaves.min(MAX_EROSION_OCTAVES))
            .map(octave)
            .collect();
        // The first octave steers and sizes the coarse terrain (an unchecked `octaves: 0` cuts
        // no gully, and the plan applies none).
        let first = octave(0);
        // The noise octaves at least COARSE_CELLS first-octave cells long, and at least one.
        let longest = COARSE_CELLS * first.cell;
        let coarse_octaves = fbm
            .octave_list()
            .take_while(|o| 1.0 / o.frequency >= longest)
            .count()
            .max(1) as u32;
        let mut plan = ErosionPlan {
            steer: first.amplitude * std::f64::consts::TAU / first.cell,
            octaves,
            half_range,
            onset_slope: self.slope_onset * fbm.frequency * half_range,
            floor: (1.0 - self.sharpness).max(0.05),
            detail: self.detail,
            preserve: self.preserve,
            coarse: Fbm {
                octaves: coarse_octaves,
                erosion: None,
                ..*fbm
            },
        };
        plan.keep(|o| detail.weight(o.cell));
        plan
    }

    /// Applies the filter at input position `(x, y)` to the height `height` (with gradient
    /// `gradient`) of the noise `fbm`: the eroded height, its gradient and the crease mask. This
    /// is what [`Fbm::sample2_full`] does when `fbm.erosion` is set; it is public for heights
    /// that come from elsewhere but are shaped like `fbm`'s.
    pub fn filter(
        &self,
        tables: &NoiseTables,
        fbm: &Fbm,
        [x, y]: [f64; 2],
        height: f64,
        gradient: [f64; 2],
    ) -> Sample {
        let plan = self.plan(tables, fbm, Detail::FULL);
        let e = plan.apply(tables, x, y, height, gradient);
        Sample {
            value: e.value,
            gradient: e.gradient,
            crease: e.crease,
        }
    }
}

/// `(easeOut(t), easeOut′(t))`: `1 − (1 − t)²` for `t` clamped to 0..1, and its slope.
pub(crate) fn ease_out(t: f64) -> (f64, f64) {
    if t >= 1.0 {
        (1.0, 0.0)
    } else if t <= 0.0 {
        (0.0, 0.0)
    } else {
        let r = 1.0 - t;
        (1.0 - r * r, 2.0 * r)
    }
}

/// The cell-jitter of lattice cell `(x, y)`: two numbers in [−1, 1].
pub(crate) fn jitter(keys: [u32; 2], x: i64, y: i64) -> [f64; 2] {
    let h = mix2([keys[0], keys[1], 0, 0], x, y);
    let unit = |bits: u32| bits as f64 * (2.0 / 65535.0) - 1.0;
    [unit(h & 0xffff), unit(h >> 16)]
}

/// The filter's output at one point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Eroded {
    pub value: f64,
    pub gradient: [f64; 2],
    pub crease: f64,
}

/// One octave's blended stripes at a point: `Ĉ`, `Ŝ` and their gradients (input units).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stripe {
    pub value: f64,
    pub sine: f64,
    pub gradient: [f64; 2],
    pub sine_gradient: [f64; 2],
}

/// The bell along one axis at offset `t` (cells) from a cell centre, and its slope:
/// `(1 − t²/R²)₊³`.
pub(crate) fn bell(t: f64) -> (f64, f64) {
    let r2 = 1.0 / (BELL_RADIUS * BELL_RADIUS);
    let b = (1.0 - t * t * r2).max(0.0);
    (b * b * b, -6.0 * r2 * t * b * b)
}

/// `v` scaled to unit length, or `(1, 0)` for the zero vector.
pub(crate) fn unit(v: [f64; 2]) -> [f64; 2] {
    let l = v[0].hypot(v[1]);
    if l > 0.0 {
        [v[0] / l, v[1] / l]
    } else {
        [1.0, 0.0]
    }
}

/// The steering directions of lattice points already worked out: `(octave, x, y)` → unit.
type Directions = HashMap<(usize, i64, i64), [f64; 2]>;

impl ErosionPlan {
    /// Weights every octave by `weight` (on top of its own) and leaves out those that end at
    /// weight 0 (or NaN). With a valid `lacunarity` cells shrink from one octave to the next,
    /// so those are the finest, a tail; an unchecked one below 1 grows them, and an invisible
    /// fine octave first in the list would otherwise size a grid's windows by cells far
    /// smaller than its step.
    pub(crate) fn keep(&mut self, weight: impl Fn(&ErosionOctave) -> f64) {
        for o in &mut self.octaves {
            o.weight *= weight(o);
        }
        self.octaves.retain(|o| o.weight > 0.0);
    }

    /// The gradient of the coarse terrain at `(x, y)`.
    fn coarse_gradient(&self, tables: &NoiseTables, x: f64, y: f64) -> [f64; 2] {
        self.coarse.sample2_with_gradient(tables, x, y).1
    }

    /// The unit steering direction of octave `i`'s lattice point `n`: the coarse gradient
    /// there (scaled to octave 0's gully steepness) plus the gullies of octaves `0..i`.
    fn direction(
        &self,
        tables: &NoiseTables,
        memo: &mut Directions,
        i: usize,
        n: [i64; 2],
    ) -> [f64; 2] {
        if let Some(d) = memo.get(&(i, n[0], n[1])) {
            return *d;
        }
        let cell = self.octaves[i].cell;
        let (x, y) = (n[0] as f64 * cell, n[1] as f64 * cell);
        let coarse = unit(self.coarse_gradient(tables, x, y));
        let mut g = [coarse[0] * self.steer, coarse[1] * self.steer];
        for m in 0..i {
            let s = self.stripe(tables, memo, m, x, y);
            let a = self.octaves[m].amplitude;
            g[0] += a * s.gradient[0];
            g[1] += a * s.gradient[1];
        }
        let d = unit(g);
        memo.insert((i, n[0], n[1]), d);
        d
    }

    /// Octave `m`'s blended stripes at `(x, y)`.
    fn stripe(
        &self,
        tables: &NoiseTables,
        memo: &mut Directions,
        m: usize,
        x: f64,
        y: f64,
    ) -> Stripe {
        let o = self.octaves[m];
        let u = [x / o.cell, y / o.cell];
        let n = [u[0].floor(), u[1].floor()];
        let frac = [u[0] - n[0], u[1] - n[1]];
        let k = std::f64::consts::TAU;
        // Σw, Σw·cos, Σw·sin; Σ∇w, Σ∇w·cos, Σ∇w·sin; Σw·sin·t, Σw·cos·t.
        let (mut w_sum, mut c_sum, mut s_sum) = (0.0, 0.0, 0.0);
        let (mut bw, mut bc, mut bs, mut st, mut ct) =
            ([0.0; 2], [0.0; 2], [0.0; 2], [0.0; 2], [0.0; 2]);
        for dy in 0..=1 {
            for dx in 0..=1 {
                let cell = [
                    (n[0] as i64).wrapping_add(dx),
                    (n[1] as i64).wrapping_add(dy),
                ];
                let xi = jitter(o.keys, cell[0], cell[1]);
                let d = self.direction(tables, memo, m, cell);
                let t = [-d[1], d[0]];
                let q = [
                    frac[0] - dx as f64 - JITTER * xi[0],
                    frac[1] - dy as f64 - JITTER * xi[1],
                ];
                let ((wx, dwx), (wy, dwy)) = (bell(q[0]), bell(q[1]));
                let w = wx * wy;
                let dw = [dwx * wy, wx * dwy];
                let phase = q[0] * t[0] + q[1] * t[1] + PHASE;
                let (s, c) = (std::f64::consts::TAU * phase).sin_cos();
                w_sum += w;
                c_sum += w * c;
                s_sum += w * s;
                for a in 0..2 {
                    bw[a] += dw[a];
                    bc[a] += dw[a] * c;
                    bs[a] += dw[a] * s;
                    st[a] += w * s * t[a];
                    ct[a] += w * c * t[a];
                }
            }
        }
        let (c, s) = (c_sum / w_sum, s_sum / w_sum);
        // ∇C and ∇S in cell units: the weights' change, and each cell's phase (k·t) change.
        let grad_c = [0, 1].map(|a| (bc[a] - c * bw[a] - k * st[a]) / w_sum);
        let grad_s = [0, 1].map(|a| (bs[a] - s * bw[a] + k * ct[a]) / w_sum);
        // Renormalised by m = (ρ⁴ + floor⁴)^¼, a smooth max(ρ, floor): ∇m = ρ²P/m³ with
        // P = C∇C + S∇S, so ∇Ĉ = (∇C − Cρ²P/m⁴)/m, and the same for Ŝ.
        let rho2 = c * c + s * s;
        let floor4 = self.floor.powi(4);
        let m4 = rho2 * rho2 + floor4;
        let m = m4.sqrt().sqrt();
        let p = [0, 1].map(|a| c * grad_c[a] + s * grad_s[a]);
        let gc = [0, 1].map(|a| (grad_c[a] - c * rho2 * p[a] / m4) / m);
        let gs = [0, 1].map(|a| (grad_s[a] - s * rho2 * p[a] / m4) / m);
        Stripe {
            value: c / m,
            sine: s / m,
            gradient: gc.map(|g| g / o.cell),
            sine_gradient: gs.map(|g| g / o.cell),
        }
    }

    /// The coarse slope (the length of the coarse gradient, interpolated bilinearly between
    /// octave 0's lattice points) and its gradient.
    fn coarse_slope(&self, tables: &NoiseTables, x: f64, y: f64) -> (f64, [f64; 2]) {
        let cell = self.octaves[0].cell;
        let u = [x / cell, y / cell];
        let n = [u[0].floor(), u[1].floor()];
        let (fx, fy) = (u[0] - n[0], u[1] - n[1]);
        let g =
            |dx: f64, dy: f64| self.coarse_gradient(tables, (n[0] + dx) * cell, (n[1] + dy) * cell);
        let (g00, g10, g01, g11) = (g(0.0, 0.0), g(1.0, 0.0), g(0.0, 1.0), g(1.0, 1.0));
        let v = [0, 1].map(|a| {
            let lo = g00[a] + fx * (g10[a] - g00[a]);
            let hi = g01[a] + fx * (g11[a] - g01[a]);
            (lo + fy * (hi - lo), lo, hi)
        });
        let dv_dx = [0, 1].map(|a| {
            let lo = g10[a] - g00[a];
            let hi = g11[a] - g01[a];
            (lo + fy * (hi - lo)) / cell
        });
        let dv_dy = [0, 1].map(|a| (v[a].2 - v[a].1) / cell);
        let slope = v[0].0.hypot(v[1].0);
        if slope == 0.0 {
            return (0.0, [0.0; 2]);
        }
        let grad = [
            (v[0].0 * dv_dx[0] + v[1].0 * dv_dx[1]) / slope,
            (v[0].0 * dv_dy[0] + v[1].0 * dv_dy[1]) / slope,
        ];
        (slope, grad)
    }

    /// The reference filter, in `f64`: height `h` with gradient `grad` at input position
    /// `(x, y)` in; eroded height, its gradient and the crease mask out.
    pub fn apply(&self, tables: &NoiseTables, x: f64, y: f64, h: f64, grad: [f64; 2]) -> Eroded {
        let mut memo = Directions::new();
        let half = self.half_range;
        let inside = h.abs() < half;
        let relief = (h / half).clamp(-1.0, 1.0);
        let d_relief = if inside { 1.0 / half } else { 0.0 };
        if self.octaves.is_empty() {
            // Every octave left out: the limit of the weighted filter as the weights go to 0.
            return Eroded {
                value: h,
                gradient: grad,
                crease: 0.5 - 0.5 * relief,
            };
        }
        let tau0 = self.preserve * relief;
        let dtau0 = grad.map(|g| g * self.preserve * d_relief);
        let (mut tau, mut dtau) = (tau0, dtau0);
        let (slope, dslope) = self.coarse_slope(tables, x, y);
        let (e, de) = ease_out(slope / self.onset_slope);
        let mut mask = e;
        let mut dmask = dslope.map(|g| de * g / self.onset_slope);
        let (mut ridge, mut ridge_mask) = (relief, mask);
        let (mut value, mut gradient) = (h, grad);
        for (m, o) in self.octaves.iter().enumerate() {
            let s = self.stripe(tables, &mut memo, m, x, y);
            // Fade from the target towards the gully, then add it above the first target.
            let f = tau + mask * (s.value - tau);
            let df = [0, 1]
                .map(|a| dtau[a] + dmask[a] * (s.value - tau) + mask * (s.gradient[a] - dtau[a]));
            let a = o.amplitude * o.weight;
            value += a * (f - tau0);
            gradient[0] += a * (df[0] - dtau0[0]);
            gradient[1] += a * (df[1] - dtau0[1]);
            (tau, dtau) = (f, df);
            // The next mask: (1 − (1 − μ)^D) · easeOut(|Ŝ| / width).
            // |Ŝ| smoothed, √(Ŝ² + ε²) − ε, so the mask has no kink on the ridge and crease lines.
            let soft = (s.sine * s.sine + SOFT * SOFT).sqrt();
            let (open, dopen) = ease_out((soft - SOFT) / CREASE_WIDTH);
            let dopen = s
                .sine_gradient
                .map(|g| dopen * g * s.sine / soft / CREASE_WIDTH);
            let rest = 1.0 - mask;
            let kept = 1.0 - rest.powf(self.detail);
            let dkept = if rest > 0.0 {
                self.detail * rest.powf(self.detail - 1.0)
            } else {
                0.0
            };
            dmask = [0, 1].map(|a| dkept * dmask[a] * open + kept * dopen[a]);
            mask = kept * open;
            ridge += ridge_mask * o.weight * (s.value - ridge);
            ridge_mask *= open;
        }
        Eroded {
            value,
            gradient,
            crease: 0.5 - 0.5 * ridge,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_keeps_no_invisible_octave_even_when_an_unchecked_lacunarity_grows_the_cells() {
        let tables = NoiseTables::from_seed(3);
        let fbm = Fbm {
            frequency: 1.0 / 256.0,
            ..Fbm::default()
        };
        let cells = |plan: &ErosionPlan| plan.octaves.iter().map(|o| o.cell).collect::<Vec<_>>();
        let cell = |e: &Erosion, i: i32| e.scale / fbm.frequency / e.lacunarity.powi(i);
        // Cells of about 31, 61, 123 and 246 m: at a 31 m spacing the first two show no
        // wavelength (at most two spacings), the others do.
        let growing = Erosion {
            lacunarity: 0.5,
            ..Erosion::default()
        };
        let plan = growing.plan(&tables, &fbm, Detail::at_spacing(31.0));
        assert_eq!(cells(&plan), [cell(&growing, 2), cell(&growing, 3)]);
        assert!(plan.octaves.iter().all(|o| o.weight > 0.0));
        // A valid lacunarity shrinks them (31, 15, 7.7 and 3.8 m): at a 4 m spacing the
        // finest two go, a tail.
        let valid = Erosion::default();
        let plan = valid.plan(&tables, &fbm, Detail::at_spacing(4.0));
        assert_eq!(cells(&plan), [cell(&valid, 0), cell(&valid, 1)]);
    }
}
