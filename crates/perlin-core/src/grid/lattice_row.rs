//! One row of lattice values for one octave.
//!
//! For a fixed row, 2D Perlin noise blended along y first leaves, at each lattice column `k`,
//! a straight line in the sample's x offset: `A_k(t) = P_k·t + Q_k`. Samples then only blend
//! `A_k(t)` and `A_{k+1}(t − 1)` along x. `R_k`, `S_k` are the same line for `∂/∂y`.

use super::axis::{Columns, LANES};
use crate::lattice::Hashing;
use crate::tables::NoiseTables;

/// The y-blended line of one lattice column: `[P, Q, R, S]`.
///
/// `g0`, `g1` are the gradients at `(k, y₀)` and `(k, y₀ + 1)`; `t`, `t − 1` the sample's
/// y offsets from them; `v`, `dv` the fade and its slope at `t`.
#[inline(always)]
pub(super) fn lattice_line(
    g0: [f32; 2],
    g1: [f32; 2],
    t: f32,
    tm1: f32,
    v: f32,
    dv: f32,
) -> [f32; 4] {
    let n0 = g0[1] * t;
    let n1 = g1[1] * tm1;
    let gx = g1[0] - g0[0];
    let dn = n1 - n0;
    [
        g0[0] + v * gx,
        n0 + v * dn,
        dv * gx,
        g0[1] + dv * dn + v * (g1[1] - g0[1]),
    ]
}

/// The row's lattice lines as four arrays, padded so an 8-wide load at any block base is in
/// bounds, plus the gradients of the two lattice rows they came from.
pub(super) struct LatticeRow {
    pub p: Vec<f32>,
    pub q: Vec<f32>,
    pub r: Vec<f32>,
    pub s: Vec<f32>,
    /// Lattice row `y₀` the gradients below belong to.
    cached: Option<i64>,
    g0: Vec<[f32; 2]>,
    g1: Vec<[f32; 2]>,
}

impl LatticeRow {
    pub fn new(columns: &Columns) -> Self {
        let len = columns.span + LANES;
        LatticeRow {
            p: vec![0.0; len],
            q: vec![0.0; len],
            r: vec![0.0; len],
            s: vec![0.0; len],
            cached: None,
            g0: vec![[0.0; 2]; columns.span],
            g1: vec![[0.0; 2]; columns.span],
        }
    }

    /// Fills the lines for a row at lattice row `y0` with offset `t`; `slopes` also fills R, S.
    #[allow(clippy::too_many_arguments)]
    pub fn fill(
        &mut self,
        tables: &NoiseTables,
        hashing: Hashing,
        columns: &Columns,
        y0: i64,
        [t, tm1, v, dv]: [f32; 4],
        slopes: bool,
    ) {
        let gradient = |k: usize, y: i64| {
            hashing.gradient_2d_f32(tables, columns.kmin.wrapping_add(k as i64), y)
        };
        // Walking down the grid, the old upper lattice row becomes the new lower one.
        match self.cached {
            Some(c) if c == y0 => {}
            Some(c) if c.wrapping_add(1) == y0 => {
                std::mem::swap(&mut self.g0, &mut self.g1);
                for (k, g) in self.g1.iter_mut().enumerate() {
                    *g = gradient(k, y0.wrapping_add(1));
                }
            }
            _ => {
                for k in 0..columns.span {
                    self.g0[k] = gradient(k, y0);
                    self.g1[k] = gradient(k, y0.wrapping_add(1));
                }
            }
        }
        self.cached = Some(y0);
        for k in 0..columns.span {
            let [p, q, r, s] = lattice_line(self.g0[k], self.g1[k], t, tm1, v, dv);
            self.p[k] = p;
            self.q[k] = q;
            if slopes {
                self.r[k] = r;
                self.s[k] = s;
            }
        }
    }
}
