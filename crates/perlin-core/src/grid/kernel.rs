//! The scalar twin of the SIMD kernel: per sample, the same operations in the same order, so
//! both produce bit-identical grids. Also the only kernel on CPUs without AVX2.

use super::axis::Columns;
use super::lattice_row::{LatticeRow, lattice_line};
use crate::fbm::FractalMode;
use crate::lattice::Hashing;
use crate::tables::NoiseTables;
use std::ops::Range;

/// One octave's weights in the sum: `amplitude` for values, `amplitude · frequency` for slopes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Weights {
    pub amplitude: f32,
    pub amplitude_frequency: f32,
}

/// The sums one row accumulates over the octaves.
pub(super) struct RowSums {
    pub value: Vec<f32>,
    pub dx: Vec<f32>,
    pub dy: Vec<f32>,
}

impl RowSums {
    pub fn new(width: usize, slopes: bool) -> Self {
        let slope_len = if slopes { width } else { 0 };
        RowSums {
            value: vec![0.0; width],
            dx: vec![0.0; slope_len],
            dy: vec![0.0; slope_len],
        }
    }

    pub fn clear(&mut self) {
        self.value.fill(0.0);
        self.dx.fill(0.0);
        self.dy.fill(0.0);
    }

    pub fn slopes(&self) -> bool {
        !self.dx.is_empty()
    }
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

/// One sample from the lines of its two lattice columns: `[n, ∂n/∂t_x, ∂n/∂t_y]`.
#[inline(always)]
pub(super) fn sample(l0: [f32; 4], l1: [f32; 4], t: f32, tm1: f32, u: f32, du: f32) -> [f32; 3] {
    let a = l0[0] * t + l0[1];
    let b = l1[0] * tm1 + l1[1];
    let d = b - a;
    let n = a + u * d;
    let dx = l0[0] + u * (l1[0] - l0[0]) + du * d;
    let ay = l0[2] * t + l0[3];
    let by = l1[2] * tm1 + l1[3];
    let dy = ay + u * (by - ay);
    [n, dx, dy]
}

/// Adds one sample's octave contribution to the sums at column `c`.
#[inline(always)]
fn add(sums: &mut RowSums, c: usize, mode: FractalMode, w: Weights, s: [f32; 3]) {
    let (v, slope) = shape(mode, s[0]);
    sums.value[c] += v * w.amplitude;
    if sums.slopes() {
        let k = slope * w.amplitude_frequency;
        sums.dx[c] += s[1] * k;
        sums.dy[c] += s[2] * k;
    }
}

/// Accumulates columns `range` of a dense octave from its lattice row.
pub(super) fn accumulate(
    cols: &Columns,
    row: &LatticeRow,
    mode: FractalMode,
    w: Weights,
    range: Range<usize>,
    sums: &mut RowSums,
) {
    let ax = &cols.axis;
    for c in range {
        let k = cols.k[c] as usize;
        let line = |k: usize| [row.p[k], row.q[k], row.r[k], row.s[k]];
        let s = sample(
            line(k),
            line(k + 1),
            ax.frac[c],
            ax.frac_m1[c],
            ax.fade[c],
            ax.dfade[c],
        );
        add(sums, c, mode, w, s);
    }
}

/// Accumulates a sparse octave: each sample fetches its four corner gradients itself.
#[allow(clippy::too_many_arguments)]
pub(super) fn accumulate_sparse(
    tables: &NoiseTables,
    hashing: Hashing,
    cols: &Columns,
    y0: i64,
    [t, tm1, v, dv]: [f32; 4],
    mode: FractalMode,
    w: Weights,
    sums: &mut RowSums,
) {
    let ax = &cols.axis;
    let y1 = y0.wrapping_add(1);
    for c in 0..ax.cell.len() {
        let x0 = ax.cell[c];
        let x1 = x0.wrapping_add(1);
        let g = |x, y| hashing.gradient_2d_f32(tables, x, y);
        let l0 = lattice_line(g(x0, y0), g(x0, y1), t, tm1, v, dv);
        let l1 = lattice_line(g(x1, y0), g(x1, y1), t, tm1, v, dv);
        let s = sample(l0, l1, ax.frac[c], ax.frac_m1[c], ax.fade[c], ax.dfade[c]);
        add(sums, c, mode, w, s);
    }
}
