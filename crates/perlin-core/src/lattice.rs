//! Lattice coordinates and the two ways of hashing them: Perlin's permutation table (period 256)
//! or a table-free integer hash (seed 001, period 2³²).

use crate::tables::{GRADIENTS_3D, GRADIENTS_4D, NoiseTables};
use serde::{Deserialize, Serialize};

/// Splits a coordinate into its lattice cell and the offset inside it, with a true floor so that
/// negative coordinates land in the right cell (seed 004 §4.2).
///
/// Never panics: NaN maps to cell 0 and ±∞ to the extreme cells (the cast saturates); their
/// offsets are NaN, so the noise of a non-finite coordinate is NaN.
#[inline(always)]
pub fn cell(x: f64) -> (i64, f64) {
    if x.abs() < SMALL {
        cell_small(x)
    } else {
        let floor = x.floor();
        (floor as i64, x - floor)
    }
}

/// Below this magnitude [`cell_small`] is exact.
pub(crate) const SMALL: f64 = 2_251_799_813_685_248.0;

/// [`cell`] for `|x| <` [`SMALL`] (2⁵¹): adding 1.5·2⁵² rounds x to the nearest integer, which
/// then sits in the low mantissa bits. Branch-free and vectorisable, and no libm `floor` on
/// CPUs without SSE4.1. Outside that range the result is meaningless (but never a panic).
#[inline(always)]
pub(crate) fn cell_small(x: f64) -> (i64, f64) {
    const ROUND: f64 = 6_755_399_441_055_744.0;
    let shifted = x + ROUND;
    let nearest = shifted - ROUND;
    let above = (nearest > x) as i64;
    let floor = (shifted.to_bits() as i64)
        .wrapping_sub(ROUND.to_bits() as i64)
        .wrapping_sub(above);
    // `+ 0.0` turns a −0.0 offset into +0.0, as `x − floor(x)` gives.
    (floor, x - (nearest - above as f64) + 0.0)
}

/// How a lattice point picks its gradient or value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Hashing {
    /// `P[P[x & 255] + (y & 255)]` through the seeded permutation (seed 000 §3.2.1). Fast, but
    /// the noise repeats every 256 lattice cells along each axis.
    #[default]
    Table,
    /// Seed 001's multiply–rotate hash of the raw integer coordinates, keyed by the seed: no
    /// table, period 2³² cells. 2D gradients are unit vectors of the hashed angle.
    Integer,
}

/// Seed 001's `randomGradient` mixing of two 32-bit coordinates, with seed keys folded in.
#[inline(always)]
pub(crate) fn mix2(keys: [u32; 4], ix: i64, iy: i64) -> u32 {
    let mut a = (ix as u32) ^ keys[0];
    let mut b = (iy as u32) ^ keys[1];
    a = a.wrapping_mul(3_284_157_443);
    b ^= a.rotate_left(16);
    b = b.wrapping_mul(1_911_520_717);
    a ^= b.rotate_left(16);
    a.wrapping_mul(2_048_419_325)
}

/// `mix2` chained over more coordinates: `mix2(mix2(x, y), z)`.
#[inline(always)]
pub(crate) fn mix_n(keys: [u32; 4], coords: &[i64]) -> u32 {
    let mut h = keys[2];
    for &c in coords {
        h = mix2(keys, h as i64, c);
    }
    h
}

impl Hashing {
    /// The unit gradient of 2D lattice point `(ix, iy)`.
    #[inline(always)]
    pub fn gradient_2d(self, t: &NoiseTables, ix: i64, iy: i64) -> [f64; 2] {
        match self {
            Hashing::Table => t.grad2(t.hash2((ix & 255) as usize, (iy & 255) as usize)),
            Hashing::Integer => {
                // Seed 001: the hash scaled to an angle in [0, 2π).
                let angle =
                    mix2(t.keys(), ix, iy) as f64 * (std::f64::consts::PI / 2_147_483_648.0);
                let (s, c) = angle.sin_cos();
                [c, s]
            }
        }
    }

    /// The gradient of 2D lattice point `(ix, iy)` in single precision (grid path).
    #[inline(always)]
    pub(crate) fn gradient_2d_f32(self, t: &NoiseTables, ix: i64, iy: i64) -> [f32; 2] {
        match self {
            Hashing::Table => t.perm_grad2_f32(t.p((ix & 255) as usize) + (iy & 255) as usize),
            Hashing::Integer => self.gradient_2d(t, ix, iy).map(|c| c as f32),
        }
    }

    /// A hash in 0..=255 of a lattice point of any dimension: `P[…P[P[x] + y]… + w]`.
    #[inline(always)]
    pub fn hash_byte(self, t: &NoiseTables, coords: &[i64]) -> usize {
        match self {
            Hashing::Table => coords
                .iter()
                .fold(0usize, |h, &c| t.p(h + (c & 255) as usize)),
            Hashing::Integer => (mix_n(t.keys(), coords) >> 24) as usize,
        }
    }

    /// The gradient of 3D lattice point `c`: one of the 16 of [`GRADIENTS_3D`].
    #[inline(always)]
    pub fn gradient_3d(self, t: &NoiseTables, c: [i64; 3]) -> [f64; 3] {
        GRADIENTS_3D[self.hash_byte(t, &c) & 15]
    }

    /// The gradient of 4D lattice point `c`: one of the 32 of [`GRADIENTS_4D`].
    #[inline(always)]
    pub fn gradient_4d(self, t: &NoiseTables, c: [i64; 4]) -> [f64; 4] {
        GRADIENTS_4D[self.hash_byte(t, &c) & 31]
    }

    /// The slope of 1D lattice point `x`: one of ±1/8, ±2/8, …, ±8/8 (the 16 slopes of seed 003).
    #[inline(always)]
    pub fn gradient_1d(self, t: &NoiseTables, x: i64) -> f64 {
        let h = self.hash_byte(t, &[x]);
        let magnitude = ((h & 7) + 1) as f64 / 8.0;
        if h & 8 == 0 { magnitude } else { -magnitude }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_is_true_floor() {
        assert_eq!(cell(-0.5), (-1, 0.5));
        assert_eq!(cell(-1.0), (-1, 0.0));
        assert_eq!(cell(2.25), (2, 0.25));
        let (i, f) = cell(f64::NAN);
        assert_eq!(i, 0);
        assert!(f.is_nan());
        assert_eq!(cell(f64::INFINITY).0, i64::MAX);
        assert_eq!(cell(-1e30), (i64::MIN, 0.0));
        assert_eq!(cell(-0.0).1.to_bits(), 0.0f64.to_bits());
        for x in [
            -3.5,
            -3.0,
            -2.9999999999999996,
            1e15 + 0.5,
            -1e15 - 0.5,
            4.6e15,
            -4.6e15,
        ] {
            assert_eq!(cell(x), (x.floor() as i64, x - x.floor()), "{x}");
        }
    }

    #[test]
    fn integer_hash_is_not_256_periodic() {
        let t = NoiseTables::from_seed(3);
        let a = Hashing::Integer.gradient_2d(&t, 5, 9);
        let b = Hashing::Integer.gradient_2d(&t, 5 + 256, 9);
        assert_ne!(a, b);
        assert!((a[0].hypot(a[1]) - 1.0).abs() < 1e-12);
        let ta = Hashing::Table.gradient_2d(&t, 5, 9);
        assert_eq!(ta, Hashing::Table.gradient_2d(&t, 5 + 256, 9 - 512));
        // Seeds change the integer hash too.
        assert_ne!(
            a,
            Hashing::Integer.gradient_2d(&NoiseTables::from_seed(4), 5, 9)
        );
    }

    #[test]
    fn table_hash_is_seed_000s_hash() {
        let t = NoiseTables::from_seed(11);
        let p = t.permutation();
        let expected = p[p[200] as usize + 13] as usize;
        assert_eq!(Hashing::Table.hash_byte(&t, &[200, 13]), expected);
        assert_eq!(
            Hashing::Table.hash_byte(&t, &[200 - 256, 13 + 256 * 3]),
            expected
        );
    }
}
