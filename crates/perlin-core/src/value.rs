//! Value noise in any dimension (seed 004 §2–3): a pseudo-random value at every lattice point,
//! interpolated linearly, with a cosine, or with a 4-point cubic, one axis after the other
//! (the recursive n-dimensional scheme of seed 004's listing 13).

use crate::lattice::{Hashing, cell, mix_n};
use crate::tables::NoiseTables;
use serde::{Deserialize, Serialize};

/// The most dimensions [`Value::get_n`] accepts.
pub const MAX_DIMENSIONS: usize = 8;

/// How value noise blends lattice values (seed 004 §3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Interpolation {
    /// `a·(1 − t) + b·t` between the two nearest points: continuous, creased.
    Linear,
    /// `c = (1 − cos πt)/2`, then linear: smooth slopes, flat at the lattice points.
    #[default]
    Cosine,
    /// The 4-point cubic of seed 004 §3.4 through the two points before and after.
    Cubic,
}

impl Interpolation {
    /// How many lattice points one axis reads.
    fn taps(self) -> usize {
        match self {
            Interpolation::Linear | Interpolation::Cosine => 2,
            Interpolation::Cubic => 4,
        }
    }

    /// The blended value and its derivative in `t`, from the points at offsets −1, 0, 1, 2
    /// (cubic) or 0, 1 (`v[0]`, `v[1]`, the 2-point curves).
    #[inline(always)]
    fn blend(self, v: [f64; 4], t: f64) -> (f64, f64) {
        match self {
            Interpolation::Linear => (v[0] + t * (v[1] - v[0]), v[1] - v[0]),
            Interpolation::Cosine => {
                let c = (1.0 - (t * std::f64::consts::PI).cos()) * 0.5;
                let dc = (t * std::f64::consts::PI).sin() * std::f64::consts::FRAC_PI_2;
                ((1.0 - c) * v[0] + c * v[1], dc * (v[1] - v[0]))
            }
            Interpolation::Cubic => {
                let p = (v[3] - v[2]) - (v[0] - v[1]);
                let q = (v[0] - v[1]) - p;
                let r = v[2] - v[0];
                let s = v[1];
                (
                    ((p * t + q) * t + r) * t + s,
                    (3.0 * p * t + 2.0 * q) * t + r,
                )
            }
        }
    }
}

/// Value noise settings. `Default` is cosine interpolation over the permutation table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Value {
    /// How lattice values are blended.
    pub interpolation: Interpolation,
    /// Where lattice values come from: the permutation (`P[…]/127.5 − 1`, 256 levels) or seed
    /// 004's `rand_noise` chain (listing 4), keyed by the seed.
    pub hashing: Hashing,
}

/// Seed 004's `rand_noise`: a value in (−1, 1] from an integer.
#[inline(always)]
fn rand_noise(t: i32) -> f64 {
    let t = (t << 13) ^ t;
    let t = t
        .wrapping_mul(t.wrapping_mul(t).wrapping_mul(15731).wrapping_add(789_221))
        .wrapping_add(1_376_312_589);
    1.0 - (t & 0x7fff_ffff) as f64 / 1_073_741_824.0
}

impl Value {
    /// The value at a lattice point, in [−1, 1].
    #[inline(always)]
    fn lattice(&self, t: &NoiseTables, coords: &[i64]) -> f64 {
        match self.hashing {
            Hashing::Table => self.hashing.hash_byte(t, coords) as f64 / 127.5 - 1.0,
            Hashing::Integer => {
                // Listing 4: feed each coordinate through rand_noise, scaled by 850000.
                let mut tmp = mix_n(t.keys(), &[]) as i32;
                let (last, rest) = coords.split_last().unwrap_or((&0, &[]));
                for &c in rest {
                    tmp = (rand_noise(tmp.wrapping_add(c as i32)) * 850_000.0) as i32;
                }
                rand_noise(tmp.wrapping_add(*last as i32))
            }
        }
    }

    /// Blends axis `axis` and everything below it, with the coordinates above fixed in
    /// `lattice`; returns the value and its partial derivatives along axes `0..=axis`.
    fn recurse(
        &self,
        t: &NoiseTables,
        cells: &[(i64, f64)],
        lattice: &mut [i64; MAX_DIMENSIONS],
        axis: usize,
    ) -> (f64, [f64; MAX_DIMENSIONS]) {
        let n = cells.len();
        let (base, frac) = cells[axis];
        let taps = self.interpolation.taps();
        let first = if taps == 4 { -1 } else { 0 };
        let mut values = [0.0; 4];
        let mut grads = [[0.0; MAX_DIMENSIONS]; 4];
        for tap in 0..taps {
            lattice[axis] = base.wrapping_add(first + tap as i64);
            let (v, g) = if axis == 0 {
                (self.lattice(t, &lattice[..n]), [0.0; MAX_DIMENSIONS])
            } else {
                self.recurse(t, cells, lattice, axis - 1)
            };
            values[tap] = v;
            grads[tap] = g;
        }
        let (value, slope) = self.interpolation.blend(values, frac);
        let mut grad = [0.0; MAX_DIMENSIONS];
        for (lower, g) in grad.iter_mut().enumerate().take(axis) {
            // The blend is linear in its inputs, so lower-axis derivatives blend the same way.
            *g = self
                .interpolation
                .blend(std::array::from_fn(|i| grads[i][lower]), frac)
                .0;
        }
        grad[axis] = slope;
        (value, grad)
    }

    /// Value noise at a point of 1 to [`MAX_DIMENSIONS`] dimensions, with its gradient in the
    /// first `p.len()` entries; `None` for an empty or longer `p`.
    pub fn get_n_with_gradient(
        &self,
        t: &NoiseTables,
        p: &[f64],
    ) -> Option<(f64, [f64; MAX_DIMENSIONS])> {
        if p.is_empty() || p.len() > MAX_DIMENSIONS {
            return None;
        }
        let mut cells = [(0i64, 0.0); MAX_DIMENSIONS];
        for (c, &x) in cells.iter_mut().zip(p) {
            *c = cell(x);
        }
        let mut lattice = [0i64; MAX_DIMENSIONS];
        Some(self.recurse(t, &cells[..p.len()], &mut lattice, p.len() - 1))
    }

    /// Value noise at a point of 1 to [`MAX_DIMENSIONS`] dimensions; `None` for other lengths.
    pub fn get_n(&self, t: &NoiseTables, p: &[f64]) -> Option<f64> {
        self.get_n_with_gradient(t, p).map(|(v, _)| v)
    }

    /// 1D value noise.
    pub fn get1(&self, t: &NoiseTables, x: f64) -> f64 {
        self.get_n(t, &[x]).unwrap_or(f64::NAN)
    }

    /// 2D value noise.
    pub fn get2(&self, t: &NoiseTables, x: f64, y: f64) -> f64 {
        self.get_n(t, &[x, y]).unwrap_or(f64::NAN)
    }

    /// 2D value noise with its analytic gradient.
    pub fn get2_with_gradient(&self, t: &NoiseTables, x: f64, y: f64) -> (f64, [f64; 2]) {
        match self.get_n_with_gradient(t, &[x, y]) {
            Some((v, g)) => (v, [g[0], g[1]]),
            None => (f64::NAN, [f64::NAN; 2]),
        }
    }

    /// 3D value noise.
    pub fn get3(&self, t: &NoiseTables, x: f64, y: f64, z: f64) -> f64 {
        self.get_n(t, &[x, y, z]).unwrap_or(f64::NAN)
    }

    /// 4D value noise.
    pub fn get4(&self, t: &NoiseTables, x: f64, y: f64, z: f64, w: f64) -> f64 {
        self.get_n(t, &[x, y, z, w]).unwrap_or(f64::NAN)
    }
}
