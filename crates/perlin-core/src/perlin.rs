//! Perlin (gradient) noise in 1 to 4 dimensions (Perlin 1985, "An Image Synthesizer"; Perlin
//! 2002, "Improving Noise").
//!
//! A lattice point carries a pseudo-random gradient; a sample takes the dot product of each
//! corner's gradient with the vector from that corner to the sample, and blends the products
//! with a [`Fade`] curve, one axis after the other.
//!
//! Output ranges: 1D within ±0.5, 2D within ±√2/2 (unit gradients), 3D within about ±1.04 and
//! 4D within about ±1.4 (cube-edge gradients, as ImprovedNoise). Table mode repeats every 256
//! cells per axis (see [`Hashing`]).
//!
//! **Where the maths lives.** This file is the reference, in `f64`, one point at a time
//! (`sample2_with_gradient` is the 2D form the terrain uses). The grid path computes the same 2D
//! noise a band of rows at a time (`grid/band/coefficients.rs`: `perlin_constants` folds the
//! four corner dot products of a cell row into three coefficients, `sample` blends them), with
//! the fade of every column and row worked out once (`grid/axis.rs`, `grid/maths.rs::fade`);
//! warped grids take it one point per lane (`grid/point.rs`, the Perlin arm of `square`).
//! Lattice hashing is shared by all of them (`lattice.rs`, `grid/lattice.rs`).

use crate::fade::{Fade, lerp};
use crate::lattice::{Hashing, cell};
use crate::tables::NoiseTables;
use serde::{Deserialize, Serialize};

/// Perlin noise settings: the fade curve and the lattice hashing. `Default` is Perlin's 2002
/// noise: quintic fade, permutation table.
///
/// ```
/// use perlin_core::{NoiseTables, Perlin};
///
/// let tables = NoiseTables::reference();
/// // Ken Perlin's ImprovedNoise: `noise(3.14, 42, 7)`.
/// let n = Perlin::default().sample3(&tables, 3.14, 42.0, 7.0);
/// assert!((n - 0.136_919_958_784).abs() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Perlin {
    /// Blend curve between corners.
    pub fade: Fade,
    /// How corners pick their gradients.
    pub hashing: Hashing,
}

#[inline(always)]
fn dot2(g: [f64; 2], x: f64, y: f64) -> f64 {
    g[0] * x + g[1] * y
}

#[inline(always)]
fn dot3(g: [f64; 3], x: f64, y: f64, z: f64) -> f64 {
    g[0] * x + g[1] * y + g[2] * z
}

impl Perlin {
    /// 1D Perlin noise: slopes at the integers, blended by the fade curve.
    pub fn sample1(&self, tables: &NoiseTables, x: f64) -> f64 {
        let (ix, fx) = cell(x);
        let g0 = self.hashing.gradient_1d(tables, ix);
        let g1 = self.hashing.gradient_1d(tables, ix.wrapping_add(1));
        lerp(g0 * fx, g1 * (fx - 1.0), self.fade.apply(fx))
    }

    /// 2D Perlin noise: the four corner gradients' dot products with the offsets to the
    /// sample, blended along x and then y by the fade curve.
    pub fn sample2(&self, tables: &NoiseTables, x: f64, y: f64) -> f64 {
        self.sample2_with_gradient(tables, x, y).0
    }

    /// 2D Perlin noise with its analytic gradient `(n, ∂n/∂x, ∂n/∂y)`, for exact terrain normals.
    pub fn sample2_with_gradient(&self, tables: &NoiseTables, x: f64, y: f64) -> (f64, [f64; 2]) {
        let (ix, fx) = cell(x);
        let (iy, fy) = cell(y);
        let (ix1, iy1) = (ix.wrapping_add(1), iy.wrapping_add(1));
        let h = self.hashing;
        let g00 = h.gradient_2d(tables, ix, iy);
        let g10 = h.gradient_2d(tables, ix1, iy);
        let g01 = h.gradient_2d(tables, ix, iy1);
        let g11 = h.gradient_2d(tables, ix1, iy1);
        let (n00, n10) = (dot2(g00, fx, fy), dot2(g10, fx - 1.0, fy));
        let (n01, n11) = (dot2(g01, fx, fy - 1.0), dot2(g11, fx - 1.0, fy - 1.0));
        let (u, du) = (self.fade.apply(fx), self.fade.derivative(fx));
        let (v, dv) = (self.fade.apply(fy), self.fade.derivative(fy));
        let a = lerp(n00, n10, u);
        let b = lerp(n01, n11, u);
        let value = lerp(a, b, v);
        // Each dot product is linear: ∂n00/∂x = g00.x, and so on.
        let da_dx = lerp(g00[0], g10[0], u) + du * (n10 - n00);
        let db_dx = lerp(g01[0], g11[0], u) + du * (n11 - n01);
        let da_dy = lerp(g00[1], g10[1], u);
        let db_dy = lerp(g01[1], g11[1], u);
        let dx = lerp(da_dx, db_dx, v);
        let dy = lerp(da_dy, db_dy, v) + dv * (b - a);
        (value, [dx, dy])
    }

    /// 3D Perlin noise; with [`NoiseTables::reference`] and the defaults it is Ken Perlin's
    /// ImprovedNoise, bit for bit.
    pub fn sample3(&self, tables: &NoiseTables, x: f64, y: f64, z: f64) -> f64 {
        let (ix, fx) = cell(x);
        let (iy, fy) = cell(y);
        let (iz, fz) = cell(z);
        let (u, v, w) = (
            self.fade.apply(fx),
            self.fade.apply(fy),
            self.fade.apply(fz),
        );
        let corner = |dx: i64, dy: i64, dz: i64| {
            let g = self.hashing.gradient_3d(
                tables,
                [
                    ix.wrapping_add(dx),
                    iy.wrapping_add(dy),
                    iz.wrapping_add(dz),
                ],
            );
            dot3(g, fx - dx as f64, fy - dy as f64, fz - dz as f64)
        };
        lerp(
            lerp(
                lerp(corner(0, 0, 0), corner(1, 0, 0), u),
                lerp(corner(0, 1, 0), corner(1, 1, 0), u),
                v,
            ),
            lerp(
                lerp(corner(0, 0, 1), corner(1, 0, 1), u),
                lerp(corner(0, 1, 1), corner(1, 1, 1), u),
                v,
            ),
            w,
        )
    }

    /// 3D Perlin noise with its analytic gradient `(n, [∂n/∂x, ∂n/∂y, ∂n/∂z])`: the value is
    /// [`Perlin::sample3`]'s, for surfaces that move through the third axis (waves over time)
    /// and need exact normals.
    pub fn sample3_with_gradient(
        &self,
        tables: &NoiseTables,
        x: f64,
        y: f64,
        z: f64,
    ) -> (f64, [f64; 3]) {
        let cells = [cell(x), cell(y), cell(z)];
        let f = cells.map(|(_, f)| f);
        let u = f.map(|f| self.fade.apply(f));
        let du = f.map(|f| self.fade.derivative(f));
        // The eight corners' gradients and dot products, corner k having bit a set for +1
        // along axis a.
        let mut g = [[0.0; 3]; 8];
        let mut n = [0.0; 8];
        for k in 0..8 {
            let bit = |a: usize| ((k >> a) & 1) as i64;
            let lattice = [0, 1, 2].map(|a| cells[a].0.wrapping_add(bit(a)));
            g[k] = self.hashing.gradient_3d(tables, lattice);
            let d = [0, 1, 2].map(|a| f[a] - bit(a) as f64);
            n[k] = dot3(g[k], d[0], d[1], d[2]);
        }
        // The value blended as `sample3` blends it (the same bits); the gradient of
        // n = Σ_k w_k n_k, with trilinear weights w_k of the faded offsets, is
        // Σ_k (w_k g_k + n_k ∇w_k).
        let value = lerp(
            lerp(lerp(n[0], n[1], u[0]), lerp(n[2], n[3], u[0]), u[1]),
            lerp(lerp(n[4], n[5], u[0]), lerp(n[6], n[7], u[0]), u[1]),
            u[2],
        );
        let mut grad = [0.0; 3];
        for k in 0..8 {
            let mut w = [0.0; 3];
            let mut dw = [0.0; 3];
            for a in 0..3 {
                let one = (k >> a) & 1 == 1;
                w[a] = if one { u[a] } else { 1.0 - u[a] };
                dw[a] = if one { du[a] } else { -du[a] };
            }
            let weight = w[0] * w[1] * w[2];
            let dweight = [
                dw[0] * w[1] * w[2],
                w[0] * dw[1] * w[2],
                w[0] * w[1] * dw[2],
            ];
            for a in 0..3 {
                grad[a] += weight * g[k][a] + n[k] * dweight[a];
            }
        }
        (value, grad)
    }

    /// 4D Perlin noise over the 32 hypercube-edge gradients.
    pub fn sample4(&self, tables: &NoiseTables, x: f64, y: f64, z: f64, w: f64) -> f64 {
        let cells = [cell(x), cell(y), cell(z), cell(w)];
        let fades = cells.map(|(_, f)| self.fade.apply(f));
        // Blend the 16 corners axis by axis, x first.
        let mut values = [0.0; 16];
        for (corner, value) in values.iter_mut().enumerate() {
            let mut lattice = [0i64; 4];
            let mut offset = [0.0; 4];
            for axis in 0..4 {
                let bit = ((corner >> axis) & 1) as i64;
                lattice[axis] = cells[axis].0.wrapping_add(bit);
                offset[axis] = cells[axis].1 - bit as f64;
            }
            let g = self.hashing.gradient_4d(tables, lattice);
            *value = g[0] * offset[0] + g[1] * offset[1] + g[2] * offset[2] + g[3] * offset[3];
        }
        let mut len = 16;
        for fade in fades {
            len /= 2;
            for i in 0..len {
                values[i] = lerp(values[2 * i], values[2 * i + 1], fade);
            }
        }
        values[0]
    }
}
