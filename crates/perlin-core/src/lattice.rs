//! Lattice coordinates and the two ways of hashing them: Perlin's permutation table (period 256
//! cells) or an integer hash of the whole coordinate (period 2³² cells).

use crate::tables::{GRADIENTS_3D, GRADIENTS_4D, NoiseTables};
#[cfg(feature = "bevy_reflect")]
use bevy_reflect::std_traits::ReflectDefault;
use serde::{Deserialize, Serialize};

/// Splits a coordinate into its lattice cell and the offset inside it, with a true floor so that
/// negative coordinates land in the right cell (truncating casts put −0.5 in cell 0).
///
/// Never panics: NaN maps to cell 0 and ±∞ to the extreme cells (the cast saturates); their
/// offsets are NaN, so the noise of a non-finite coordinate is NaN.
#[inline(always)]
pub(crate) fn cell(x: f64) -> (i64, f64) {
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
///
/// The point generators ([`Perlin`](crate::Perlin), [`Simplex`](crate::Simplex),
/// [`Value`](crate::Value)) default to `Table`, Perlin's own scheme; [`Fbm`](crate::Fbm)
/// defaults to `Integer`, because a table's period shows in terrain: with lacunarity 2 every
/// octave's period divides the first's, so the whole terrain repeats every `256 / frequency`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(
    feature = "bevy_reflect",
    derive(bevy_reflect::Reflect),
    reflect(Default, Debug, Clone, PartialEq)
)]
pub enum Hashing {
    /// `P[P[x & 255] + (y & 255)]` through the seeded permutation (Perlin 1985/2002). The
    /// noise repeats every 256 lattice cells along each axis.
    #[default]
    Table,
    /// A multiply–xor–rotate hash of the whole 32-bit lattice coordinates, keyed by the seed (the
    /// `randomGradient` mixing of the Wikipedia article "Perlin noise"), picks one of the seed's
    /// 256 gradients: period 2³² cells, as fast as `Table` on the grid path. (The article turns
    /// the hash into an angle with a sine and a cosine; a lookup among 256 random directions is
    /// many times cheaper and looks the same.) Value noise hashes with Hugo Elias's `rand_noise`
    /// chain instead.
    Integer,
}

/// The `randomGradient` mixing of two 32-bit coordinates (Wikipedia, "Perlin noise"), with seed
/// keys folded in.
#[inline(always)]
pub(crate) fn mix2(keys: [u32; 4], ix: i64, iy: i64) -> u32 {
    mix2_row(keys, mix2_column(keys, ix), iy)
}

/// The part of [`mix2`] that depends on `ix` alone: the grid path computes it once per column.
#[inline(always)]
pub(crate) fn mix2_column(keys: [u32; 4], ix: i64) -> u32 {
    ((ix as u32) ^ keys[0]).wrapping_mul(MIX2_COLUMN)
}

/// The rest of [`mix2`], from the column part `a`.
#[inline(always)]
pub(crate) fn mix2_row(keys: [u32; 4], mut a: u32, iy: i64) -> u32 {
    let mut b = (iy as u32) ^ keys[1];
    b ^= a.rotate_left(16);
    b = b.wrapping_mul(MIX2_ROW);
    a ^= b.rotate_left(16);
    a.wrapping_mul(MIX2_FINAL)
}

/// The three odd multipliers of [`mix2`], in the order they are applied.
pub(crate) const MIX2_COLUMN: u32 = 3_284_157_443;
pub(crate) const MIX2_ROW: u32 = 1_911_520_717;
pub(crate) const MIX2_FINAL: u32 = 2_048_419_325;

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
    /// The index of 2D lattice point `(ix, iy)`'s gradient among the tables' 256.
    #[inline(always)]
    fn gradient_index_2d(self, tables: &NoiseTables, ix: i64, iy: i64) -> usize {
        match self {
            Hashing::Table => tables.hash2((ix & 255) as usize, (iy & 255) as usize),
            Hashing::Integer => (mix2(tables.keys(), ix, iy) >> 24) as usize,
        }
    }

    /// The part of a 2D lattice hash that depends on the column `ix` alone (`P[ix & 255]`, or
    /// the first step of the integer mix): the grid path computes it once per column.
    #[inline(always)]
    pub(crate) fn column_key(self, tables: &NoiseTables, ix: i64) -> u32 {
        match self {
            Hashing::Table => tables.p((ix & 255) as usize) as u32,
            Hashing::Integer => mix2_column(tables.keys(), ix),
        }
    }

    /// [`gradient_2d`](Self::gradient_2d) of `(ix, iy)` in single precision, from `ix`'s
    /// [`column_key`](Self::column_key), for the grid path.
    #[inline(always)]
    pub(crate) fn gradient_2d_f32_keyed(self, tables: &NoiseTables, key: u32, iy: i64) -> [f32; 2] {
        let index = match self {
            Hashing::Table => key.wrapping_add((iy & 255) as u32),
            Hashing::Integer => mix2_row(tables.keys(), key, iy) >> 24,
        };
        self.gradient_2d_f32_at(tables, index)
    }

    /// The gradient at a 2D lattice point's table `index`: `P[P[x] + y]` into the permuted
    /// gradients, or the integer mix's top byte into the gradients (the last step of
    /// [`gradient_2d_f32_keyed`](Self::gradient_2d_f32_keyed), for the grid path's lanes).
    #[inline(always)]
    pub(crate) fn gradient_2d_f32_at(self, tables: &NoiseTables, index: u32) -> [f32; 2] {
        match self {
            Hashing::Table => tables.perm_grad2_f32(index as usize),
            Hashing::Integer => tables.grad2_f32(index as usize),
        }
    }

    /// The unit gradient of 2D lattice point `(ix, iy)`.
    #[inline(always)]
    pub fn gradient_2d(self, tables: &NoiseTables, ix: i64, iy: i64) -> [f64; 2] {
        tables.grad2(self.gradient_index_2d(tables, ix, iy))
    }

    /// A hash in 0..=255 of a lattice point of any dimension: `P[…P[P[x] + y]… + w]`.
    #[inline(always)]
    pub fn hash_byte(self, tables: &NoiseTables, coords: &[i64]) -> usize {
        match self {
            Hashing::Table => coords
                .iter()
                .fold(0usize, |h, &c| tables.p(h + (c & 255) as usize)),
            Hashing::Integer => (mix_n(tables.keys(), coords) >> 24) as usize,
        }
    }

    /// The gradient of 3D lattice point `c`: one of the 16 of [`GRADIENTS_3D`].
    #[inline(always)]
    pub fn gradient_3d(self, tables: &NoiseTables, c: [i64; 3]) -> [f64; 3] {
        GRADIENTS_3D[self.hash_byte(tables, &c) & 15]
    }

    /// The gradient of 4D lattice point `c`: one of the 32 of [`GRADIENTS_4D`].
    #[inline(always)]
    pub fn gradient_4d(self, tables: &NoiseTables, c: [i64; 4]) -> [f64; 4] {
        GRADIENTS_4D[self.hash_byte(tables, &c) & 31]
    }

    /// The slope of 1D lattice point `x`: one of ±1/8, ±2/8, …, ±8/8 (16 slopes, as in Perlin's
    /// 1D noise).
    #[inline(always)]
    pub fn gradient_1d(self, tables: &NoiseTables, x: i64) -> f64 {
        let h = self.hash_byte(tables, &[x]);
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
        // Nor periodic at any power of two below 2³²; at 2³² it wraps.
        for shift in [8, 12, 16, 20, 24, 31] {
            let far = 5 + (1i64 << shift);
            assert_ne!(
                Hashing::Integer.gradient_2d(&t, far, 9),
                a,
                "period 2^{shift}"
            );
        }
        assert_eq!(Hashing::Integer.gradient_2d(&t, 5 + (1i64 << 32), 9), a);
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
    fn table_hash_is_perlins_hash() {
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
