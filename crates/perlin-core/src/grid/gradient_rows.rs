//! The gradients of two neighbouring lattice rows, for one octave, over every lattice column the
//! grid touches. A band of grid rows inside one lattice row reads them for all its samples.

use super::axis::{Columns, MAX_LANES};
use crate::lattice::Hashing;
use crate::tables::NoiseTables;

/// Gradients at `(kmin + k, y₀)` (`lower`) and `(kmin + k, y₀ + 1)` (`upper`), x and y parts
/// apart, padded so a full-width SIMD load at any block base, and one column further, is in
/// bounds.
#[derive(Default)]
pub(super) struct GradientRows {
    /// `[x, y]` parts of lattice row `y₀`.
    pub lower: [Vec<f32>; 2],
    /// `[x, y]` parts of lattice row `y₀ + 1`.
    pub upper: [Vec<f32>; 2],
    /// `P[(kmin + k) & 255]`: the first half of seed 000's hash, the same on every row.
    column_hash: Vec<u8>,
    /// The lattice row `y₀` held now.
    cached: Option<i64>,
}

impl GradientRows {
    /// Sizes the rows for `columns` and forgets what they held; reuses their memory.
    pub fn reset(&mut self, tables: &NoiseTables, columns: &Columns) {
        let len = columns.span + MAX_LANES + 1;
        for v in self.lower.iter_mut().chain(self.upper.iter_mut()) {
            v.clear();
            v.resize(len, 0.0);
        }
        self.column_hash.clear();
        self.column_hash.extend(
            (0..columns.span)
                .map(|k| tables.p((columns.kmin.wrapping_add(k as i64) & 255) as usize) as u8),
        );
        self.cached = None;
    }

    /// Gradients of lattice row `y` into `out`.
    fn fetch(
        &self,
        tables: &NoiseTables,
        hashing: Hashing,
        kmin: i64,
        y: i64,
        out: &mut [Vec<f32>; 2],
    ) {
        let [gx, gy] = out;
        match hashing {
            Hashing::Table => {
                let row = (y & 255) as usize;
                for ((gx, gy), hash) in gx.iter_mut().zip(gy.iter_mut()).zip(&self.column_hash) {
                    [*gx, *gy] = tables.perm_grad2_f32(*hash as usize + row);
                }
            }
            Hashing::Integer => {
                for (k, (gx, gy)) in gx
                    .iter_mut()
                    .zip(gy.iter_mut())
                    .take(self.column_hash.len())
                    .enumerate()
                {
                    [*gx, *gy] = hashing.gradient_2d_f32(tables, kmin.wrapping_add(k as i64), y);
                }
            }
        }
    }

    /// Makes the rows hold lattice rows `y0` and `y0 + 1`.
    pub fn load(&mut self, tables: &NoiseTables, hashing: Hashing, columns: &Columns, y0: i64) {
        let kmin = columns.kmin;
        match self.cached {
            Some(c) if c == y0 => {}
            // Walking down the grid, the old upper row becomes the new lower one.
            Some(c) if c.wrapping_add(1) == y0 => {
                std::mem::swap(&mut self.lower, &mut self.upper);
                let mut upper = std::mem::take(&mut self.upper);
                self.fetch(tables, hashing, kmin, y0.wrapping_add(1), &mut upper);
                self.upper = upper;
            }
            _ => {
                let (mut lower, mut upper) = (
                    std::mem::take(&mut self.lower),
                    std::mem::take(&mut self.upper),
                );
                self.fetch(tables, hashing, kmin, y0, &mut lower);
                self.fetch(tables, hashing, kmin, y0.wrapping_add(1), &mut upper);
                (self.lower, self.upper) = (lower, upper);
            }
        }
        self.cached = Some(y0);
    }

    /// The four corner gradients of lattice column `k`'s cell (see [`super::kernel::Corners`]).
    #[inline(always)]
    pub fn corners(&self, k: usize) -> [f32; 8] {
        let ([lx, ly], [ux, uy]) = (&self.lower, &self.upper);
        [
            lx[k],
            ly[k],
            lx[k + 1],
            ly[k + 1],
            ux[k],
            uy[k],
            ux[k + 1],
            uy[k + 1],
        ]
    }
}
