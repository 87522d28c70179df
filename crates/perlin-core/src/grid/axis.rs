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

/// What a layer needs of its axes besides the cells, offsets and curves.
#[derive(Clone, Copy, Debug)]
pub(super) struct AxisNeeds {
    /// The skewed cells of a simplex lattice ([`Axis::skew_low`], [`Axis::skew_frac`]).
    pub simplex: bool,
    /// The cells' low bits ([`Axis::low`]): the point path hashes them.
    pub low: bool,
    /// The curve's slope ([`Axis::dfade`]): a fill with gradients.
    pub slopes: bool,
}

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
    /// `c′(t)`, when the layer's fill wants slopes (empty otherwise).
    pub dfade: Vec<f32>,
    /// Whether every lattice coordinate is finite and below [`SMALL`]: the cells of a grid's
    /// positions (monotone along the axis) are then monotone too, and a run of them spans its
    /// first to its last.
    pub monotone: bool,
    /// Simplex only: the low 32 bits of `⌊cell · SKEW⌋`.
    pub skew_low: Vec<u32>,
    /// Simplex only: `cell · SKEW − ⌊cell · SKEW⌋`.
    pub skew_frac: Vec<f32>,
}

impl Axis {
    /// Fills the axis for world `positions`, which the layer maps to lattice coordinates
    /// `p · frequency + shift`, and what else `needs` asks for. Reuses the vectors' memory.
    #[inline(always)]
    pub fn rebuild(
        &mut self,
        positions: &[f64],
        frequency: f64,
        shift: f64,
        curve: Curve,
        needs: AxisNeeds,
    ) {
        let AxisNeeds {
            simplex,
            low,
            slopes,
        } = needs;
        let lattice = |p: f64| p * frequency + shift;
        let n = positions.len();
        let curved = if curve == Curve::None { 0 } else { n };
        self.cell.resize(n, 0);
        self.frac.resize(n, 0.0);
        self.fade.resize(curved, 0.0);
        self.dfade.resize(if slopes { curved } else { 0 }, 0.0);
        // Branch-free, vectorisable passes, one set per curve; huge or non-finite coordinates
        // take the general floor. A grid's positions are monotone (an exact integer index
        // times the step, plus the origin, each rounded once), and so are their lattice
        // coordinates: the largest magnitude is at an end, and a non-finite coordinate anywhere
        // puts one at an end too (an infinite step gives ±∞ or NaN at every position).
        let small = |p: Option<&f64>| p.is_none_or(|&p| lattice(p).abs() < SMALL);
        let small = small(positions.first()) && small(positions.last());
        self.monotone = small;
        let mut out = Out {
            cell: &mut self.cell,
            frac: &mut self.frac,
            fade: &mut self.fade,
            dfade: &mut self.dfade,
        };
        if small {
            out.fill_by(curve, positions, |p| cell_small(lattice(p)));
        } else {
            out.fill_by(curve, positions, |p| cell(lattice(p)));
        }
        self.low.clear();
        if low {
            self.low.extend(self.cell.iter().map(|&c| c as u32));
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

/// An axis's buffers, each `positions` long (the curves empty for [`Curve::None`], the slopes
/// when none are wanted).
struct Out<'a> {
    cell: &'a mut [i64],
    frac: &'a mut [f32],
    fade: &'a mut [f32],
    dfade: &'a mut [f32],
}

impl Out<'_> {
    /// Cell, offset and `curve` of every position, `point` splitting its lattice coordinate.
    #[inline(always)]
    fn fill_by(&mut self, curve: Curve, positions: &[f64], point: impl Fn(f64) -> (i64, f64)) {
        match curve {
            // One closure per curve, so no curve is chosen per element.
            Curve::Fade(Fade::Quintic) => {
                self.fill(positions, point, |t| maths::fade(Scalar, Fade::Quintic, t))
            }
            Curve::Fade(Fade::Hermite) => {
                self.fill(positions, point, |t| maths::fade(Scalar, Fade::Hermite, t))
            }
            Curve::Fade(Fade::Linear) => {
                self.fill(positions, point, |t| maths::fade(Scalar, Fade::Linear, t))
            }
            Curve::Cosine => self.fill(positions, point, |t| maths::cosine_fade(Scalar, t)),
            Curve::Identity => self.fill(positions, point, |t| (t, 1.0)),
            Curve::Squared => self.fill(positions, point, |t| (t * t, 2.0 * t)),
            Curve::None => self.fill_cells(positions, point),
        }
    }

    /// Cell, offset and curve of every position: a pass in `f64` for the cells and offsets,
    /// then one over the offsets in `f32` (twice the lanes) for the curve, and its slope where
    /// the buffer wants it.
    #[inline(always)]
    fn fill(
        &mut self,
        positions: &[f64],
        point: impl Fn(f64) -> (i64, f64),
        curve: impl Fn(f32) -> (f32, f32),
    ) {
        self.fill_cells(positions, point);
        if self.dfade.is_empty() {
            for (&t, v) in self.frac.iter().zip(self.fade.iter_mut()) {
                *v = curve(t).0;
            }
        } else {
            let curves = self.fade.iter_mut().zip(self.dfade.iter_mut());
            for (&t, (v, dv)) in self.frac.iter().zip(curves) {
                (*v, *dv) = curve(t);
            }
        }
    }

    /// Cell and offset of every position.
    #[inline(always)]
    fn fill_cells(&mut self, positions: &[f64], point: impl Fn(f64) -> (i64, f64)) {
        let cells = self.cell.iter_mut().zip(self.frac.iter_mut());
        for (&p, (c, f)) in positions.iter().zip(cells) {
            let (whole, offset) = point(p);
            (*c, *f) = (whole, offset as f32);
        }
    }
}
