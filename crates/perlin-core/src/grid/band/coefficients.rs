//! A block's constants from its corners' lattice data (see the module docs of `band`), and one
//! sample blended from them: the taps each base reads, and its constants.

use crate::simd::{Real, Simd};

/// Perlin's taps: the four corners' `[x, y]` gradients, in the order of [`perlin_constants`].
pub(super) const PERLIN_TAPS: [(i64, i64, usize); 8] = [
    (0, 0, 0),
    (0, 0, 1),
    (1, 0, 0),
    (1, 0, 1),
    (0, 1, 0),
    (0, 1, 1),
    (1, 1, 0),
    (1, 1, 1),
];

/// Value noise's taps: the four corners' values `[v00, v10, v01, v11]`.
pub(super) const VALUE_TAPS: [(i64, i64, usize); 4] = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)];

/// The cubic's taps: four rows `y0 − 1 … y0 + 2` of four columns `x0 − 1 … x0 + 2`.
pub(super) const CUBIC_TAPS: [(i64, i64, usize); 16] = {
    let mut taps = [(0, 0, 0); 16];
    let mut i = 0;
    while i < 16 {
        taps[i] = ((i % 4) as i64 - 1, (i / 4) as i64 - 1, 0);
        i += 1;
    }
    taps
};

/// `[T0, T1, D0, D1, ∂T0, ∂T1, ∂D0, ∂D1]` (∂ = `∂/∂tx`) of a Perlin column with offset `tx`,
/// fade `u` and fade slope `du`, in the cell whose corner gradients are
/// `g = [g00x, g00y, g10x, g10y, g01x, g01y, g11x, g11y]` (`g10` one column right, `g01` one
/// row up).
#[inline(always)]
pub(super) fn perlin_constants<S: Simd>(
    s: S,
    g: [S::F; 8],
    tx: S::F,
    u: S::F,
    du: S::F,
) -> [S::F; 8] {
    let txm1 = tx - s.splat(1.0);
    let (a00, a10) = (g[0] * tx, g[2] * txm1);
    let (a01, a11) = (g[4] * tx, g[6] * txm1);
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

/// The constants of a value-noise column with corner values `[v00, v10, v01, v11]`.
#[inline(always)]
pub(super) fn value_constants<S: Simd>(s: S, v: [S::F; 4], u: S::F, du: S::F) -> [S::F; 8] {
    let zero = s.splat(0.0);
    let (lower, upper) = (v[1] - v[0], v[3] - v[2]);
    let t0 = u.mul_add(lower, v[0]);
    let t0x = du * lower;
    [
        t0,
        zero,
        u.mul_add(upper, v[2]) - t0,
        zero,
        t0x,
        zero,
        du * upper - t0x,
        zero,
    ]
}

/// The cubic `p·t³ + q·t² + r·t + s` through `v[0..4]` at `t = −1, 0, 1, 2`, as `[s, r, q, p]`.
#[inline(always)]
fn cubic<S: Simd>(v: [S::F; 4]) -> [S::F; 4] {
    let p = (v[3] - v[2]) - (v[0] - v[1]);
    let q = (v[0] - v[1]) - p;
    [v[1], v[2] - v[0], q, p]
}

/// The constants of a cubic value-noise column: four rows of four values (row-major, rows
/// `y0 − 1 … y0 + 2`, columns `x0 − 1 … x0 + 2`).
#[inline(always)]
pub(super) fn cubic_constants<S: Simd>(s: S, v: [S::F; 16], tx: S::F) -> [S::F; 8] {
    let (two, three) = (s.splat(2.0), s.splat(3.0));
    let mut rows = [s.splat(0.0); 4];
    let mut slopes = [s.splat(0.0); 4];
    for m in 0..4 {
        let [c0, c1, c2, c3] = cubic::<S>([v[4 * m], v[4 * m + 1], v[4 * m + 2], v[4 * m + 3]]);
        rows[m] = tx.mul_add(tx.mul_add(tx.mul_add(c3, c2), c1), c0);
        slopes[m] = tx.mul_add(tx.mul_add(three * c3, two * c2), c1);
    }
    let [s0, r0, q0, p0] = cubic::<S>(rows);
    let [s1, r1, q1, p1] = cubic::<S>(slopes);
    [s0, r0, q0, p0, s1, r1, q1, p1]
}

/// One sample of a band column at row offset `ty` with curve `v`, `v′`: `[n, ∂n/∂tx, ∂n/∂ty]`.
#[inline(always)]
pub(super) fn sample<F: Real>(k: [F; 8], ty: F, v: F, dv: F) -> [F; 3] {
    let top = ty.mul_add(k[1], k[0]);
    let dif = ty.mul_add(k[3], k[2]);
    let n = v.mul_add(dif, top);
    let dx = v.mul_add(ty.mul_add(k[7], k[6]), ty.mul_add(k[5], k[4]));
    let dy = dv.mul_add(dif, v.mul_add(k[3], k[1]));
    [n, dx, dy]
}
