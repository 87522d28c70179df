//! The band formulation: Perlin and value noise on a regular grid, three multiply–adds per sample.
//!
//! Inside one lattice cell, the noise along a column of samples is a polynomial in the row's
//! offset `ty` whose coefficients depend only on the column:
//!
//! ```text
//! n(ty) = (T0 + ty·T1) + v(ty)·(D0 + ty·D1)
//! ```
//!
//! - **Perlin**: the corner dot products are linear in `ty`, and `v` is the fade curve.
//! - **Value, linear or cosine**: the corner values do not depend on `ty`: `T1 = D1 = 0`.
//! - **Value, cubic**: the cubic through four rows, `S + R·ty + Q·ty² + P·ty³`, is the same form
//!   with `T0 = S`, `T1 = R`, `D0 = Q`, `D1 = P` and `v(ty) = ty²`.
//!
//! So a *band* (the grid rows inside one lattice row) computes the four coefficients, and four
//! more for `∂n/∂tx`, once per column from the lattice data of its cell, then three multiply–adds
//! per sample. The lattice data of the band's lattice rows is fetched once for every column
//! ([`BandRows`]); a block of columns whose cells fit in one register-wide window picks its
//! corners with one permute per corner component.
//!
//! The files: this one runs a layer band by band; `layout.rs` lays out the columns' cells in
//! blocks and holds the lattice rows a band reads ([`BandRows`]), and where its taps find them;
//! `coefficients.rs` turns a block's corners into its constants and blends a sample from them;
//! `walk.rs` walks the blocks down a band's rows, adding each sample to the sums or finishing it.

mod coefficients;
mod layout;
mod walk;

pub(super) use layout::{BandRows, Columns};

use super::axis::Axis;
use super::finish::Unpadded;
use super::lattice::Lattice;
use super::{Sums, Weights};
use crate::fbm::FractalMode;
use crate::simd::{Kernel, Simd};
use crate::tables::NoiseTables;
use layout::TapRows;
use std::ops::Range;
use walk::{BandColumns, RowCurve, Walk};

/// Which coefficients a column gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BandBase {
    /// Perlin gradient noise.
    Perlin,
    /// Value noise, linear or cosine blend (the curve is in the axes).
    Value,
    /// Value noise, 4-point cubic.
    Cubic,
}

impl BandBase {
    /// Lattice offsets read along each axis: `0..=1`, or `-1..=2` for the cubic.
    fn taps(self) -> Range<i64> {
        match self {
            BandBase::Perlin | BandBase::Value => 0..2,
            BandBase::Cubic => -1..3,
        }
    }
}

/// One layer of a strip on the band path.
pub(super) struct BandLayer<'a> {
    pub tables: &'a NoiseTables,
    pub lattice: Lattice,
    pub base: BandBase,
    pub mode: FractalMode,
    pub weights: Weights,
    pub columns: &'a Axis,
    pub rows: &'a Axis,
    pub layout: &'a Columns,
    pub band_rows: &'a mut BandRows,
    pub sums: Sums<'a>,
    /// The last layer of a plain fill (values only, no contrast, warp or erosion): its sums,
    /// times this scale, go straight to the caller's rows, with the same bits as the `Finish`
    /// pass would write. The sums themselves are then not stored.
    pub finish: Option<(f32, Unpadded<'a>)>,
}

impl Kernel for BandLayer<'_> {
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(self, s: S) {
        match self.base {
            BandBase::Perlin => self.modes::<S, PERLIN>(s),
            BandBase::Value => self.modes::<S, VALUE>(s),
            BandBase::Cubic => self.modes::<S, CUBIC>(s),
        }
    }
}

/// [`BandBase`] as a const parameter: each base's kernel is compiled on its own, so the
/// block loop holds one base's code and keeps its values in registers.
const PERLIN: u8 = 0;
const VALUE: u8 = 1;
const CUBIC: u8 = 2;

impl BandLayer<'_> {
    /// Which sums the layer writes: slopes too, or the finished values (the two exclude each
    /// other: a fill with gradients finishes apart), or the values alone.
    #[inline(always)]
    fn modes<S: Simd, const BASE: u8>(self, s: S) {
        match (self.sums.slopes(), self.finish.is_some()) {
            (true, _) => self.shaped::<S, BASE, true, false>(s),
            (false, true) => self.shaped::<S, BASE, false, true>(s),
            (false, false) => self.shaped::<S, BASE, false, false>(s),
        }
    }

    /// The fractal mode as a const parameter ([`shape`](super::shape)'s `MODE`).
    #[inline(always)]
    fn shaped<S: Simd, const BASE: u8, const SLOPES: bool, const FINISH: bool>(self, s: S) {
        match self.mode {
            FractalMode::Standard => self.bands::<S, BASE, 0, SLOPES, FINISH>(s),
            FractalMode::Ridged => self.bands::<S, BASE, 1, SLOPES, FINISH>(s),
            FractalMode::Billow => self.bands::<S, BASE, 2, SLOPES, FINISH>(s),
            FractalMode::Turbulence => self.bands::<S, BASE, 3, SLOPES, FINISH>(s),
        }
    }

    /// Every band of the strip: runs of rows inside one lattice row.
    #[inline(always)]
    fn bands<S: Simd, const BASE: u8, const MODE: u8, const SLOPES: bool, const FINISH: bool>(
        mut self,
        s: S,
    ) {
        let strip = self.sums.rows.clone();
        let taps = self.base.taps();
        let mut start = strip.start;
        while start < strip.end {
            let y0 = self.rows.cell[start];
            let end = if self.rows.monotone {
                // The band's rows are the rest's first rows in its lattice row.
                let rest = &self.rows.cell[start..strip.end];
                start + rest.partition_point(|&y| y == y0)
            } else {
                (start + 1..strip.end)
                    .find(|&r| self.rows.cell[r] != y0)
                    .unwrap_or(strip.end)
            };
            if self.layout.dense() {
                self.band_rows.load(
                    s,
                    self.tables,
                    self.lattice,
                    self.layout,
                    y0.wrapping_add(taps.start),
                    taps.clone().count(),
                );
            }
            self.band::<S, BASE, MODE, SLOPES, FINISH>(s, start..end, y0);
            start = end;
        }
    }

    /// One band: rows `rows` in lattice row `y0`. Columns go in groups of `group` blocks (`walk.rs`):
    /// each block of a group computes its constants once, then the group walks down the band's
    /// rows together (one row's `ty` and curve serve every block of the group). The blocks
    /// left over, and a last block that runs past the caller's row, walk alone.
    #[inline(always)]
    fn band<S: Simd, const BASE: u8, const MODE: u8, const SLOPES: bool, const FINISH: bool>(
        &mut self,
        s: S,
        rows: Range<usize>,
        y0: i64,
    ) {
        let width = self.sums.width;
        // The band's part of everything the rows loop reads, sliced once.
        let ry = self.rows;
        let curve = RowCurve {
            frac: &ry.frac[rows.clone()],
            fade: &ry.fade[rows.clone()],
            dfade: if SLOPES { &ry.dfade[rows.clone()] } else { &[] },
        };
        let band = self.sums.at(rows.start, 0)..self.sums.at(rows.end, 0);
        let (dx, dy) = if SLOPES {
            (
                &mut self.sums.dx[band.clone()],
                &mut self.sums.dy[band.clone()],
            )
        } else {
            (&mut [][..], &mut [][..])
        };
        // Finishing: the caller's rows of the band, and the scale.
        let (scale, finished, finished_width) = match &mut self.finish {
            Some((scale, to)) if FINISH => {
                let first = (rows.start - self.sums.rows.start) * to.width;
                let last = (rows.end - self.sums.rows.start) * to.width;
                (*scale, &mut to.rows[first..last], to.width)
            }
            _ => (1.0, &mut [][..], 0),
        };
        // A finishing layer into fresh sums (the only octave) reads none: the strip may hold
        // none.
        let value = if FINISH && self.sums.fresh {
            &mut [][..]
        } else {
            &mut self.sums.value[band]
        };
        let mut walk = Walk {
            value,
            dx,
            dy,
            width,
            finished,
            finished_width,
            amplitude: s.splat(self.weights.amplitude),
            amplitude_frequency: s.splat(self.weights.amplitude_frequency),
            scale: s.splat(scale),
        };
        let taps = TapRows::of(
            self.layout,
            self.columns,
            self.lattice,
            self.tables,
            self.band_rows,
            self.base,
            y0,
        );
        // Groups end inside the padded row, and inside the caller's row when finishing.
        let reach = if FINISH {
            finished_width.min(width)
        } else {
            width
        };
        let columns = BandColumns {
            taps: &taps,
            axis: self.columns,
            y0,
            curve,
            width,
            reach,
        };
        // The only octave, of weight 1, finished at scale 1: its terms are the values.
        let unit = FINISH && self.weights.amplitude == 1.0 && scale == 1.0;
        match (self.sums.fresh, unit) {
            (true, true) => columns.walk::<S, BASE, MODE, SLOPES, FINISH, true, true>(s, &mut walk),
            (true, false) => {
                columns.walk::<S, BASE, MODE, SLOPES, FINISH, true, false>(s, &mut walk)
            }
            (false, _) => columns.walk::<S, BASE, MODE, SLOPES, FINISH, false, false>(s, &mut walk),
        }
    }
}
