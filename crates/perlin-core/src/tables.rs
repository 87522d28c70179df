//! Seeded permutation and gradient tables, as in Perlin's reference implementations (Perlin
//! 1985, "An Image Synthesizer"; Perlin 2002, "Improving Noise", whose Java reference is
//! `ImprovedNoise`).
//!
//! Everything a table-mode generator looks up lives here: the doubled permutation that hashes
//! lattice points, the 256 random unit vectors of 2D Perlin noise, and the fixed gradient sets of
//! 3D and 4D Perlin noise. Building the tables costs a few microseconds; share one `NoiseTables`
//! (behind an `Arc` if threads need it) instead of rebuilding it per sample.
//!
//! **Period.** Table mode reduces every lattice coordinate modulo 256 (`& 255`), so every
//! table-mode generator repeats itself every 256 lattice cells along each axis. Use
//! [`Hashing::Integer`](crate::Hashing::Integer) for a period of 2³².

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Ken Perlin's published permutation (the `ImprovedNoise` reference, 2002).
pub const KEN_PERLIN_PERMUTATION: [u8; 256] = [
    151, 160, 137, 91, 90, 15, 131, 13, 201, 95, 96, 53, 194, 233, 7, 225, 140, 36, 103, 30, 69,
    142, 8, 99, 37, 240, 21, 10, 23, 190, 6, 148, 247, 120, 234, 75, 0, 26, 197, 62, 94, 252, 219,
    203, 117, 35, 11, 32, 57, 177, 33, 88, 237, 149, 56, 87, 174, 20, 125, 136, 171, 168, 68, 175,
    74, 165, 71, 134, 139, 48, 27, 166, 77, 146, 158, 231, 83, 111, 229, 122, 60, 211, 133, 230,
    220, 105, 92, 41, 55, 46, 245, 40, 244, 102, 143, 54, 65, 25, 63, 161, 1, 216, 80, 73, 209, 76,
    132, 187, 208, 89, 18, 169, 200, 196, 135, 130, 116, 188, 159, 86, 164, 100, 109, 198, 173,
    186, 3, 64, 52, 217, 226, 250, 124, 123, 5, 202, 38, 147, 118, 126, 255, 82, 85, 212, 207, 206,
    59, 227, 47, 16, 58, 17, 182, 189, 28, 42, 223, 183, 170, 213, 119, 248, 152, 2, 44, 154, 163,
    70, 221, 153, 101, 155, 167, 43, 172, 9, 129, 22, 39, 253, 19, 98, 108, 110, 79, 113, 224, 232,
    178, 185, 112, 104, 218, 246, 97, 228, 251, 34, 242, 193, 238, 210, 144, 12, 191, 179, 162,
    241, 81, 51, 145, 235, 249, 14, 239, 107, 49, 192, 214, 31, 181, 199, 106, 157, 184, 84, 204,
    176, 115, 121, 50, 45, 127, 4, 150, 254, 138, 236, 205, 93, 222, 114, 67, 29, 24, 72, 243, 141,
    128, 195, 78, 66, 215, 61, 156, 180,
];

/// The 12 cube-edge midpoints plus 4 repeats that make the set 16 long (Perlin 2002), in the
/// order Ken Perlin's ImprovedNoise `grad()` produces them for `hash & 15`, so that 3D Perlin
/// noise with [`NoiseTables::reference`] reproduces it exactly. (Some published transcriptions swap
/// entries 13 and 14.)
pub const GRADIENTS_3D: [[f64; 3]; 16] = [
    [1.0, 1.0, 0.0],
    [-1.0, 1.0, 0.0],
    [1.0, -1.0, 0.0],
    [-1.0, -1.0, 0.0],
    [1.0, 0.0, 1.0],
    [-1.0, 0.0, 1.0],
    [1.0, 0.0, -1.0],
    [-1.0, 0.0, -1.0],
    [0.0, 1.0, 1.0],
    [0.0, -1.0, 1.0],
    [0.0, 1.0, -1.0],
    [0.0, -1.0, -1.0],
    [1.0, 1.0, 0.0],
    [0.0, -1.0, 1.0],
    [-1.0, 1.0, 0.0],
    [0.0, -1.0, -1.0],
];

/// The 32 edge midpoints of the 4D hypercube: one coordinate zero, the other three ±1.
pub const GRADIENTS_4D: [[f64; 4]; 32] = gradients_4d();

const fn gradients_4d() -> [[f64; 4]; 32] {
    let mut out = [[0.0; 4]; 32];
    let mut zero_axis = 0;
    while zero_axis < 4 {
        let mut signs = 0;
        while signs < 8 {
            let mut v = [0.0; 4];
            let mut bit = 0;
            let mut axis = 0;
            while axis < 4 {
                if axis != zero_axis {
                    v[axis] = if (signs >> bit) & 1 == 0 { 1.0 } else { -1.0 };
                    bit += 1;
                }
                axis += 1;
            }
            out[zero_axis * 8 + signs] = v;
            signs += 1;
        }
        zero_axis += 1;
    }
    out
}

/// The seeded lookup tables every table-mode generator reads: a doubled permutation of 0..=255
/// and 256 random 2D unit gradients.
///
/// Build it once per seed with [`NoiseTables::from_seed`] and pass `&NoiseTables` to the generators.
#[derive(Clone, PartialEq)]
pub struct NoiseTables {
    seed: u64,
    /// `perm[i] == perm[i + 256]`: the doubling lets `perm[perm[x] + y]` skip the second `& 255`.
    perm: [u8; 512],
    /// 256 unit vectors `(cos θ, sin θ)` at random angles θ.
    grad2: [[f64; 2]; 256],
    /// `grad2` in single precision, for the grid path.
    grad2_f32: [[f32; 2]; 256],
    /// `grad2[perm[i]]` in single precision, for the grid path: one lookup per lattice point.
    perm_grad2_f32: [[f32; 2]; 512],
    /// Seed-derived keys mixed into the table-free integer hashes.
    keys: [u32; 4],
}

impl NoiseTables {
    /// Builds the tables for `seed` with a ChaCha8 generator: first 256 gradient angles, uniform
    /// in `[0, 2π)`, then a Fisher–Yates shuffle of 0..=255 for the permutation.
    pub fn from_seed(seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut grad2 = [[0.0; 2]; 256];
        for g in &mut grad2 {
            // An angle in [0, 2π), turned into a unit vector.
            let angle = rng.random::<f64>() * std::f64::consts::TAU;
            *g = [angle.cos(), angle.sin()];
        }
        // Fisher–Yates: for i = 255 down to 1, swap P[i] with P[next() mod (i + 1)].
        let mut perm = [0u8; 256];
        for (i, p) in perm.iter_mut().enumerate() {
            *p = i as u8;
        }
        for i in (1..256usize).rev() {
            let j = rng.next_u32() as usize % (i + 1);
            perm.swap(i, j);
        }
        Self::from_parts(seed, perm, grad2)
    }

    /// Tables with Ken Perlin's published permutation, so that
    /// [`Perlin::sample3`](crate::Perlin::sample3) with the default settings reproduces
    /// ImprovedNoise bit for bit. The 2D gradients are 256 evenly spaced unit vectors.
    pub fn reference() -> Self {
        let mut grad2 = [[0.0; 2]; 256];
        for (i, g) in grad2.iter_mut().enumerate() {
            let angle = i as f64 * std::f64::consts::TAU / 256.0;
            *g = [angle.cos(), angle.sin()];
        }
        Self::from_parts(0, KEN_PERLIN_PERMUTATION, grad2)
    }

    fn from_parts(seed: u64, perm256: [u8; 256], grad2: [[f64; 2]; 256]) -> Self {
        let mut perm = [0u8; 512];
        perm[..256].copy_from_slice(&perm256);
        perm[256..].copy_from_slice(&perm256);
        let grad2_f32 = grad2.map(|[x, y]| [x as f32, y as f32]);
        let perm_grad2_f32 = perm.map(|h| grad2_f32[h as usize]);
        let mixed = splitmix64(seed);
        let keys = [
            mixed as u32,
            (mixed >> 32) as u32,
            splitmix64(mixed) as u32,
            (splitmix64(mixed) >> 32) as u32,
        ];
        Self {
            seed,
            perm,
            grad2,
            grad2_f32,
            perm_grad2_f32,
            keys,
        }
    }

    /// The seed these tables were built from (0 for [`NoiseTables::reference`]).
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The doubled permutation, 512 entries, `perm[i] == perm[i + 256]`.
    pub fn permutation(&self) -> &[u8; 512] {
        &self.perm
    }

    /// The 256 unit gradients of 2D Perlin noise.
    pub fn gradients_2d(&self) -> &[[f64; 2]; 256] {
        &self.grad2
    }

    /// `P[i]` for `i < 512`. Callers pass masked lattice coordinates plus at most 255.
    #[inline(always)]
    pub(crate) fn p(&self, i: usize) -> usize {
        self.perm[i & 511] as usize
    }

    /// Perlin's `hash(x, y) = P[P[x] + y]` for lattice coordinates already masked to 0..=255.
    #[inline(always)]
    pub(crate) fn hash2(&self, x: usize, y: usize) -> usize {
        self.p(self.p(x) + y)
    }

    #[inline(always)]
    pub(crate) fn grad2(&self, hash: usize) -> [f64; 2] {
        self.grad2[hash & 255]
    }

    /// [`grad2`](Self::grad2) in single precision.
    #[inline(always)]
    pub(crate) fn grad2_f32(&self, hash: usize) -> [f32; 2] {
        self.grad2_f32[hash & 255]
    }

    /// `grad2[P[i]]` in single precision, for `i < 512`: the last step of the table hash and
    /// the gradient lookup in one.
    #[inline(always)]
    pub(crate) fn perm_grad2_f32(&self, i: usize) -> [f32; 2] {
        self.perm_grad2_f32[i & 511]
    }

    /// Seed-derived keys for the table-free integer hashes of [`crate::Hashing::Integer`].
    #[inline(always)]
    pub(crate) fn keys(&self) -> [u32; 4] {
        self.keys
    }
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Default for NoiseTables {
    /// The tables of seed 0.
    fn default() -> Self {
        Self::from_seed(0)
    }
}

impl std::fmt::Debug for NoiseTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NoiseTables")
            .field("seed", &self.seed)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutation_is_a_doubled_permutation() {
        for seed in [0, 1, 42, u64::MAX] {
            let t = NoiseTables::from_seed(seed);
            let mut seen = [false; 256];
            for &v in &t.perm[..256] {
                assert!(!seen[v as usize], "seed {seed}: {v} twice");
                seen[v as usize] = true;
            }
            assert_eq!(t.perm[..256], t.perm[256..]);
        }
    }

    #[test]
    fn gradients_are_unit_vectors_and_seeds_differ() {
        let a = NoiseTables::from_seed(1);
        let b = NoiseTables::from_seed(2);
        for g in a.gradients_2d() {
            assert!((g[0].hypot(g[1]) - 1.0).abs() < 1e-12);
        }
        assert_ne!(a.permutation(), b.permutation());
        assert_eq!(NoiseTables::from_seed(1), a, "same seed, same tables");
    }

    #[test]
    fn shuffle_is_fisher_yates() {
        // Replay the textbook 1-based Fisher–Yates shuffle against the same generator stream.
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..256 {
            let _ = rng.random::<f64>();
        }
        let mut p: Vec<usize> = (0..=256).map(|i| i.max(1) - 1).collect(); // p[1..=256] = 0..=255
        for i in (2..=256).rev() {
            let j = (rng.next_u32() as usize % i) + 1;
            p.swap(i, j);
        }
        let t = NoiseTables::from_seed(7);
        let ours: Vec<usize> = t.perm[..256].iter().map(|&v| v as usize).collect();
        assert_eq!(ours, p[1..=256]);
    }

    #[test]
    fn gradient_sets_have_the_documented_shape() {
        for g in GRADIENTS_4D {
            assert_eq!(g.iter().filter(|c| **c == 0.0).count(), 1);
        }
        let mut distinct: Vec<[i8; 4]> = GRADIENTS_4D.map(|g| g.map(|c| c as i8)).to_vec();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 32);
        for g in GRADIENTS_3D {
            assert_eq!(g.iter().filter(|c| **c == 0.0).count(), 1);
        }
    }
}
