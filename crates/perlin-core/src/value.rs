//! Value noise in any dimension: a pseudo-random value at every lattice point, interpolated
//! linearly, with a cosine, or with a 4-point cubic, one axis after the other (the classic
//! scheme of Hugo Elias's "Perlin Noise" tutorial, 1998, generalised to n dimensions by
//! recursion over the axes).
//!
//! **Where the maths lives.** This file is the reference (`recurse` over the axes,
//! `Interpolation::blend` for the three blends). The grid path computes 2D value noise a band
//! of rows at a time (`grid/band/coefficients.rs`: `value_constants` for linear and cosine
//! blends, with the cosine curve of every column and row worked out once in
//! `grid/maths.rs::cosine_fade`; `cubic_constants` for the 4-point cubic), and warped grids one
//! point per lane (`grid/point.rs`, the value and cubic arms of `square`).

use crate::lattice::{Hashing, cell, mix_n};
use crate::tables::NoiseTables;
#[cfg(feature = "bevy_reflect")]
use bevy_reflect::std_traits::ReflectDefault;
use serde::{Deserialize, Serialize};

/// The most dimensions [`Value::sample_n`] accepts.
pub const MAX_DIMENSIONS: usize = 8;

/// How value noise blends lattice values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(
    feature = "bevy_reflect",
    derive(bevy_reflect::Reflect),
    reflect(Default, Debug, Clone, PartialEq)
)]
pub enum Interpolation {
    /// `a·(1 − t) + b·t` between the two nearest points: continuous, creased.
    Linear,
    /// `c = (1 − cos πt)/2`, then linear: smooth slopes, flat at the lattice points.
    #[default]
    Cosine,
    /// The 4-point cubic through the two points before and after (`p t³ + q t² + r t + s`
    /// with `p = (v₃ − v₂) − (v₀ − v₁)`, Elias's form).
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
    /// Where lattice values come from: the permutation (`P[…]/127.5 − 1`, 256 levels) or the
    /// `rand_noise` integer hash chained over the coordinates, keyed by the seed.
    pub hashing: Hashing,
}

/// Hugo Elias's integer noise `1 − ((t·(t²·15731 + 789221) + 1376312589) & 0x7fffffff) /
/// 1073741824` after `t ← (t << 13) ^ t`: a value in (−1, 1] from an integer.
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
    fn lattice(&self, tables: &NoiseTables, coords: &[i64]) -> f64 {
        match self.hashing {
            Hashing::Table => self.hashing.hash_byte(tables, coords) as f64 / 127.5 - 1.0,
            Hashing::Integer => {
                // Feed each coordinate through rand_noise, scaled by 850000 back to an integer.
                let mut tmp = mix_n(tables.keys(), &[]) as i32;
                let (last, rest) = coords.split_last().unwrap_or((&0, &[]));
                for &c in rest {
                    tmp = (rand_noise(tmp.wrapping_add(c as i32)) * 850_000.0) as i32;
                }
                rand_noise(tmp.wrapping_add(*last as i32))
            }
        }
    }

    /// The part of the 2D lattice value that depends on the column `x` alone: the grid path
    /// computes it once per column.
    #[inline]
    pub(crate) fn column_key(&self, tables: &NoiseTables, x: i64) -> u32 {
        match self.hashing {
            Hashing::Table => self.hashing.hash_byte(tables, &[x]) as u32,
            Hashing::Integer => {
                let seed = mix_n(tables.keys(), &[]) as i32;
                (rand_noise(seed.wrapping_add(x as i32)) * 850_000.0) as i32 as u32
            }
        }
    }

    /// The value at 2D lattice point `(x, y)` from `x`'s [`column_key`](Self::column_key): the
    /// same bits as [`Value::lattice`] (the tests check it).
    #[inline]
    pub(crate) fn lattice_keyed(&self, tables: &NoiseTables, key: u32, y: i64) -> f64 {
        match self.hashing {
            Hashing::Table => tables.p(key as usize + (y & 255) as usize) as f64 / 127.5 - 1.0,
            Hashing::Integer => rand_noise((key as i32).wrapping_add(y as i32)),
        }
    }

    /// Blends axis `axis` and everything below it, with the coordinates above fixed in
    /// `lattice`; returns the value and its partial derivatives along axes `0..=axis`.
    fn recurse(
        &self,
        tables: &NoiseTables,
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
                (self.lattice(tables, &lattice[..n]), [0.0; MAX_DIMENSIONS])
            } else {
                self.recurse(tables, cells, lattice, axis - 1)
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
    pub fn sample_n_with_gradient(
        &self,
        tables: &NoiseTables,
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
        Some(self.recurse(tables, &cells[..p.len()], &mut lattice, p.len() - 1))
    }

    /// Value noise at a point of 1 to [`MAX_DIMENSIONS`] dimensions; `None` for other lengths.
    pub fn sample_n(&self, tables: &NoiseTables, p: &[f64]) -> Option<f64> {
        self.sample_n_with_gradient(tables, p).map(|(v, _)| v)
    }

    /// 1D value noise.
    pub fn sample1(&self, tables: &NoiseTables, x: f64) -> f64 {
        self.sample_n(tables, &[x]).unwrap_or(f64::NAN)
    }

    /// 2D value noise.
    pub fn sample2(&self, tables: &NoiseTables, x: f64, y: f64) -> f64 {
        self.sample_n(tables, &[x, y]).unwrap_or(f64::NAN)
    }

    /// 2D value noise with its analytic gradient.
    pub fn sample2_with_gradient(&self, tables: &NoiseTables, x: f64, y: f64) -> (f64, [f64; 2]) {
        match self.sample_n_with_gradient(tables, &[x, y]) {
            Some((v, g)) => (v, [g[0], g[1]]),
            None => (f64::NAN, [f64::NAN; 2]),
        }
    }

    /// 3D value noise.
    pub fn sample3(&self, tables: &NoiseTables, x: f64, y: f64, z: f64) -> f64 {
        self.sample_n(tables, &[x, y, z]).unwrap_or(f64::NAN)
    }

    /// 4D value noise.
    pub fn sample4(&self, tables: &NoiseTables, x: f64, y: f64, z: f64, w: f64) -> f64 {
        self.sample_n(tables, &[x, y, z, w]).unwrap_or(f64::NAN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyed_lattice_values_are_the_lattice_values() {
        let tables = NoiseTables::from_seed(31);
        for hashing in [Hashing::Table, Hashing::Integer] {
            let value = Value {
                hashing,
                ..Value::default()
            };
            for x in [-70_000i64, -256, -1, 0, 1, 255, 256, 123_456_789] {
                let key = value.column_key(&tables, x);
                for y in [-300i64, -1, 0, 7, 256, 99_999] {
                    assert_eq!(
                        value.lattice_keyed(&tables, key, y).to_bits(),
                        value.lattice(&tables, &[x, y]).to_bits(),
                        "{hashing:?} ({x}, {y})"
                    );
                }
            }
        }
    }
}
