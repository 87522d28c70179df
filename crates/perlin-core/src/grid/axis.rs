//! Per-axis work of one noise layer, done once per column (or row) and reused by every sample on
//! it: the lattice cell, the offset inside it, and the blend curve of that offset.

use super::maths;
use crate::fade::Fade;
use crate::lattice::{SMALL, cell, cell_small};
use crate::simd::Scalar;

/// The blend curve an axis needs, `(c(t), c′(t))`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Curve {
    /// Perlin's fade curve.
    Fade(Fade),
    /// Value noise's `(1 − cos πt)/2`.
    Cosine,
    /// `(t, 1)`: cubic value noise along x, whose polynomial is evaluated in `t` itself.
    Identity,
    /// `(t², 2t)`: cubic value noise along y (see [`super::band`]).
    Squared,
    /// No curve: the point kernels blend per sample.
    None,
}

/// The skew of 2D simplex noise, `(√3 − 1)/2`.
pub(super) const SKEW: f64 = 0.366_025_403_784_438_6;
/// The unskew of 2D simplex noise, `(3 − √3)/6`.
pub(super) const UNSKEW: f64 = 0.211_324_865_405_187_13;

/// Lattice cells, offsets and curves of one layer along one axis.
#[derive(Default)]
pub(super) struct Axis {
    /// Lattice cell of each position.
    pub cell: Vec<i64>,
    /// The cell's low 32 bits: all a hash reads.
    pub low: Vec<u32>,
    /// Offset inside the cell, `t ∈ [0, 1)`.
    pub frac: Vec<f32>,
    /// `c(t)` of the layer's [`Curve`].
    pub fade: Vec<f32>,
    /// `c′(t)`.
    pub dfade: Vec<f32>,
    /// Simplex only: the low 32 bits of `⌊cell · SKEW⌋`.
    pub skew_low: Vec<u32>,
    /// Simplex only: `cell · SKEW − ⌊cell · SKEW⌋`.
    pub skew_frac: Vec<f32>,
}

impl Axis {
    /// Fills the axis for world `positions`, which the layer maps to lattice coordinates
    /// `p · frequency + shift`. Reuses the vectors' memory.
    #[inline(always)]
    pub fn rebuild(
        &mut self,
        positions: &[f64],
        frequency: f64,
        shift: f64,
        curve: Curve,
        simplex: bool,
    ) {
        let n = positions.len();
        self.cell.clear();
        self.cell.resize(n, 0);
        self.frac.clear();
        self.frac.resize(n, 0.0);
        let lattice = |p: f64| p * frequency + shift;
        // The common case in one branch-free, vectorisable pass; huge or non-finite
        // coordinates take the general floor.
        let mut small = true;
        for ((c, f), &p) in self.cell.iter_mut().zip(&mut self.frac).zip(positions) {
            let x = lattice(p);
            small &= x.abs() < SMALL;
            let (ci, fi) = cell_small(x);
            (*c, *f) = (ci, fi as f32);
        }
        if !small {
            for ((c, f), &p) in self.cell.iter_mut().zip(&mut self.frac).zip(positions) {
                let (ci, fi) = cell(lattice(p));
                (*c, *f) = (ci, fi as f32);
            }
        }
        self.low.clear();
        self.low.extend(self.cell.iter().map(|&c| c as u32));
        // One loop per curve, each a straight map.
        let (fade, dfade) = (&mut self.fade, &mut self.dfade);
        for v in [&mut *fade, &mut *dfade] {
            v.clear();
            v.resize(if curve == Curve::None { 0 } else { n }, 0.0);
        }
        let t = &self.frac;
        match curve {
            // One closure per curve, so no curve is chosen per element.
            Curve::Fade(Fade::Quintic) => {
                curves(t, fade, dfade, |t| maths::fade(Scalar, Fade::Quintic, t))
            }
            Curve::Fade(Fade::Hermite) => {
                curves(t, fade, dfade, |t| maths::fade(Scalar, Fade::Hermite, t))
            }
            Curve::Fade(Fade::Linear) => {
                curves(t, fade, dfade, |t| maths::fade(Scalar, Fade::Linear, t))
            }
            Curve::Cosine => curves(t, fade, dfade, |t| maths::cosine_fade(Scalar, t)),
            Curve::Identity => curves(t, fade, dfade, |t| (t, 1.0)),
            Curve::Squared => curves(t, fade, dfade, |t| (t * t, 2.0 * t)),
            Curve::None => {}
        }
        self.skew_low.clear();
        self.skew_frac.clear();
        if simplex {
            for &c in &self.cell {
                let skewed = c as f64 * SKEW;
                let whole = skewed.floor();
                self.skew_low.push(whole as i64 as u32);
                self.skew_frac.push((skewed - whole) as f32);
            }
        }
    }

    /// The smallest and largest lattice coordinate (cell + offset) on the axis, in `f64`.
    pub fn bounds(&self) -> (f64, f64) {
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for (&c, &f) in self.cell.iter().zip(&self.frac) {
            let x = c as f64 + f as f64;
            lo = lo.min(x);
            hi = hi.max(x);
        }
        (lo, hi)
    }
}

/// `(c(t), c′(t))` of every offset `t`, into `fade` and `dfade`.
#[inline(always)]
fn curves(t: &[f32], fade: &mut [f32], dfade: &mut [f32], curve: impl Fn(f32) -> (f32, f32)) {
    for ((t, c), dc) in t.iter().zip(fade).zip(dfade) {
        (*c, *dc) = curve(*t);
    }
}
