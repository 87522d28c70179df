//! Simplex noise in 2, 3 and 4 dimensions (Perlin 2001, "Noise hardware"; explained in
//! Gustavson 2005, "Simplex noise demystified").
//!
//! Space is tiled with simplices instead of cubes: skew the sample by
//! `F = (√(n+1) − 1)/n` to find its cell, unskew by `G = (1 − 1/√(n+1))/n`, walk the `n + 1`
//! corners in order of the largest offsets, and sum each corner's radial falloff
//! `(½ − r²)⁴` times its gradient dot product. One generic function serves every dimension.
//!
//! **Where the maths lives.** This file is the reference (`simplex::<N>`, and
//! `sample2_with_gradient` for 2D). The grid path has no band form for a skewed lattice: it
//! takes 2D simplex noise one point per lane (`grid/point.rs`: `simplex`, `simplex_corner`), with
//! the skew of every column and row worked out once (`grid/axis.rs`) and the corner gradients
//! read from a sheared window of lattice points (`grid/lattice.rs`).

use crate::lattice::{Hashing, cell};
use crate::tables::NoiseTables;
use serde::{Deserialize, Serialize};

/// Simplex noise settings. `Default` hashes through the permutation table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Simplex {
    /// How corners pick their gradients.
    pub hashing: Hashing,
}

/// Scales that bring each dimension's output to about ±1 (measured over 10⁶ samples; the test
/// `simplex_ranges_are_close_to_unit` keeps them honest).
pub(crate) const SCALE_2D: f64 = 99.204;
const SCALE_3D: f64 = 76.885;
const SCALE_4D: f64 = 62.795;

/// Value and gradient of n-dimensional simplex noise at `p`, before scaling.
#[inline(always)]
fn simplex<const N: usize>(
    p: [f64; N],
    gradient: impl Fn([i64; N]) -> [f64; N],
) -> (f64, [f64; N]) {
    if p.iter().any(|c| !c.is_finite()) {
        return (f64::NAN, [f64::NAN; N]);
    }
    let n = N as f64;
    let skew = ((n + 1.0).sqrt() - 1.0) / n;
    let unskew = (1.0 - 1.0 / (n + 1.0).sqrt()) / n;
    // Skew into the simplex lattice and find the cell's first corner.
    let s = p.iter().sum::<f64>() * skew;
    let base: [i64; N] = std::array::from_fn(|i| cell(p[i] + s).0);
    let t = base.iter().map(|&b| b as f64).sum::<f64>() * unskew;
    let d: [f64; N] = std::array::from_fn(|i| p[i] - (base[i] as f64 - t));
    // The corners are visited by adding one along the axis with the next largest offset.
    let mut order: [usize; N] = std::array::from_fn(|i| i);
    order.sort_by(|&a, &b| d[b].total_cmp(&d[a]));
    let mut step = [0i64; N];
    let mut value = 0.0;
    let mut grad = [0.0; N];
    for k in 0..=N {
        if k > 0 {
            step[order[k - 1]] += 1;
        }
        let x: [f64; N] = std::array::from_fn(|i| d[i] - step[i] as f64 + k as f64 * unskew);
        let falloff = 0.5 - x.iter().map(|c| c * c).sum::<f64>();
        if falloff > 0.0 {
            let corner: [i64; N] = std::array::from_fn(|i| base[i].wrapping_add(step[i]));
            let g = gradient(corner);
            let dot: f64 = (0..N).map(|i| g[i] * x[i]).sum();
            let f2 = falloff * falloff;
            value += f2 * f2 * dot;
            for i in 0..N {
                grad[i] += f2 * f2 * g[i] - 8.0 * f2 * falloff * dot * x[i];
            }
        }
    }
    (value, grad)
}

impl Simplex {
    /// 2D simplex noise, about ±1; 256 random unit gradients (table) or hashed angles (integer).
    pub fn sample2(&self, tables: &NoiseTables, x: f64, y: f64) -> f64 {
        self.sample2_with_gradient(tables, x, y).0
    }

    /// 2D simplex noise with its analytic gradient.
    pub fn sample2_with_gradient(&self, tables: &NoiseTables, x: f64, y: f64) -> (f64, [f64; 2]) {
        let (v, g) = simplex([x, y], |c| self.hashing.gradient_2d(tables, c[0], c[1]));
        (v * SCALE_2D, g.map(|c| c * SCALE_2D))
    }

    /// 3D simplex noise, about ±1, over the 16 cube-edge gradients.
    pub fn sample3(&self, tables: &NoiseTables, x: f64, y: f64, z: f64) -> f64 {
        simplex([x, y, z], |c| self.hashing.gradient_3d(tables, c)).0 * SCALE_3D
    }

    /// 4D simplex noise, about ±1, over the 32 hypercube-edge gradients.
    pub fn sample4(&self, tables: &NoiseTables, x: f64, y: f64, z: f64, w: f64) -> f64 {
        simplex([x, y, z, w], |c| self.hashing.gradient_4d(tables, c)).0 * SCALE_4D
    }
}
