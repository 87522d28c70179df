//! The scalar twin of the SIMD kernel: per sample, the same operations in the same order
//! (`mul_add` is one rounding, like the FMA instructions), so both produce bit-identical grids.
//! It is also the whole kernel on CPUs without AVX2 and FMA.
//!
//! Inside one lattice cell, 2D Perlin noise along a column is
//! `n(ty) = (T0 + ty·T1) + v(ty)·(D0 + ty·D1)`: the corner dot products are linear in `ty`.
//! The four constants (and four more for `∂n/∂x`) are computed once per column for a whole
//! band of rows in that cell, leaving three multiply–adds per sample.

use super::axis::{Axis, Columns};
use super::gradient_rows::GradientRows;
use crate::fbm::FractalMode;
use crate::lattice::Hashing;
use crate::tables::NoiseTables;
use std::ops::Range;

/// A cell's corner gradients: `[g00x, g00y, g10x, g10y, g01x, g01y, g11x, g11y]`, where
/// `g10` is one lattice column right and `g01` one lattice row up.
pub(super) type Corners = [f32; 8];

/// One octave's weights in the sum: `amplitude` for values, `amplitude · frequency` for slopes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Weights {
    pub amplitude: f32,
    pub amplitude_frequency: f32,
}

/// The sums of a strip of rows, row-major, accumulated over the octaves.
#[derive(Default)]
pub(super) struct Sums {
    pub width: usize,
    /// First grid row of the strip.
    pub first_row: usize,
    pub value: Vec<f32>,
    pub dx: Vec<f32>,
    pub dy: Vec<f32>,
}

impl Sums {
    /// Sums for strip `rows`, zeroed.
    pub fn reset(&mut self, rows: Range<usize>, slopes: bool) {
        let len = rows.len() * self.width;
        self.first_row = rows.start;
        for (v, on) in [
            (&mut self.value, true),
            (&mut self.dx, slopes),
            (&mut self.dy, slopes),
        ] {
            v.clear();
            v.resize(if on { len } else { 0 }, 0.0);
        }
    }

    pub fn slopes(&self) -> bool {
        !self.dx.is_empty()
    }

    /// Index of grid row `r`, column `c`.
    #[inline(always)]
    pub fn at(&self, r: usize, c: usize) -> usize {
        (r - self.first_row) * self.width + c
    }
}

/// A band of grid rows inside one lattice row, for one octave.
pub(super) struct Band<'a> {
    pub rows: &'a Axis,
    pub range: Range<usize>,
}

/// `[T0, T1, D0, D1, ∂T0, ∂T1, ∂D0, ∂D1]` (∂ = `∂/∂tx`) of a column with offset `tx`, fade
/// `u`, fade slope `du`, in the cell with corner gradients `g`.
#[inline(always)]
pub(super) fn band_constants(g: Corners, tx: f32, u: f32, du: f32) -> [f32; 8] {
    let txm1 = tx - 1.0;
    let a00 = g[0] * tx;
    let a10 = g[2] * txm1;
    let a01 = g[4] * tx;
    let a11 = g[6] * txm1;
    let (lower, upper) = (a10 - a00, a11 - a01);
    let t0 = u.mul_add(lower, a00);
    let t1 = u.mul_add(g[3] - g[1], g[1]);
    let b0 = u.mul_add(upper, a01);
    let b1 = u.mul_add(g[7] - g[5], g[5]);
    let t0x = du.mul_add(lower, u.mul_add(g[2] - g[0], g[0]));
    let t1x = du * (g[3] - g[1]);
    let b0x = du.mul_add(upper, u.mul_add(g[6] - g[4], g[4]));
    let b1x = du * (g[7] - g[5]);
    [
        t0,
        t1,
        b0 - b1 - t0,
        b1 - t1,
        t0x,
        t1x,
        b0x - b1x - t0x,
        b1x - t1x,
    ]
}

/// One sample of a band column at row offset `ty`: `[n, ∂n/∂tx, ∂n/∂ty]`.
#[inline(always)]
pub(super) fn sample(k: &[f32; 8], ty: f32, v: f32, dv: f32) -> [f32; 3] {
    let top = ty.mul_add(k[1], k[0]);
    let dif = ty.mul_add(k[3], k[2]);
    let n = v.mul_add(dif, top);
    let dx = v.mul_add(ty.mul_add(k[7], k[6]), ty.mul_add(k[5], k[4]));
    let dy = dv.mul_add(dif, v.mul_add(k[3], k[1]));
    [n, dx, dy]
}

/// [`FractalMode::shape`] in single precision, in the SIMD kernel's operation order.
#[inline(always)]
pub(super) fn shape(mode: FractalMode, n: f32) -> (f32, f32) {
    let sign = 1f32.copysign(n);
    match mode {
        FractalMode::Standard => (n, 1.0),
        FractalMode::Ridged => {
            let r = 1.0 - n.abs();
            (2.0 * (r * r) - 1.0, -4.0 * r * sign)
        }
        FractalMode::Billow => (2.0 * n.abs() - 1.0, 2.0 * sign),
        FractalMode::Turbulence => (n.abs(), sign),
    }
}

/// Adds a column's samples over a band to the sums.
#[inline(always)]
fn add_column(sums: &mut Sums, band: &Band, c: usize, k: &[f32; 8], mode: FractalMode, w: Weights) {
    let rows = band.rows;
    for r in band.range.clone() {
        let s = sample(k, rows.frac[r], rows.fade[r], rows.dfade[r]);
        let (value, slope) = shape(mode, s[0]);
        let i = sums.at(r, c);
        sums.value[i] = value.mul_add(w.amplitude, sums.value[i]);
        if sums.slopes() {
            let kk = slope * w.amplitude_frequency;
            sums.dx[i] = s[1].mul_add(kk, sums.dx[i]);
            sums.dy[i] = s[2].mul_add(kk, sums.dy[i]);
        }
    }
}

/// Accumulates columns `columns` of a dense octave over a band.
#[inline(always)]
pub(super) fn accumulate(
    cols: &Columns,
    grads: &GradientRows,
    band: &Band,
    columns: Range<usize>,
    mode: FractalMode,
    w: Weights,
    sums: &mut Sums,
) {
    let ax = &cols.axis;
    for c in columns {
        let k = band_constants(
            grads.corners(cols.k[c] as usize),
            ax.frac[c],
            ax.fade[c],
            ax.dfade[c],
        );
        add_column(sums, band, c, &k, mode, w);
    }
}

/// Accumulates a sparse octave over a band: each column fetches its four corners itself.
#[allow(clippy::too_many_arguments)]
pub(super) fn accumulate_sparse(
    tables: &NoiseTables,
    hashing: Hashing,
    cols: &Columns,
    band: &Band,
    y0: i64,
    mode: FractalMode,
    w: Weights,
    sums: &mut Sums,
) {
    let ax = &cols.axis;
    let y1 = y0.wrapping_add(1);
    for c in 0..ax.cell.len() {
        let (x0, x1) = (ax.cell[c], ax.cell[c].wrapping_add(1));
        let g = |x, y| hashing.gradient_2d_f32(tables, x, y);
        let [g00, g10, g01, g11] = [g(x0, y0), g(x1, y0), g(x0, y1), g(x1, y1)];
        let corners = [
            g00[0], g00[1], g10[0], g10[1], g01[0], g01[1], g11[0], g11[1],
        ];
        let k = band_constants(corners, ax.frac[c], ax.fade[c], ax.dfade[c]);
        add_column(sums, band, c, &k, mode, w);
    }
}
