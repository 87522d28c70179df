//! What a layer reads at lattice points: two gradient components (Perlin, simplex) or one value
//! (value noise). Kernels read it from a precomputed [`Window`] of lattice points where one
//! fits, or hash it lane by lane; every path goes through [`Lattice::at_keyed`], so they give
//! the same bits.

use super::maths::mix2_row;
use crate::lattice::Hashing;
use crate::simd::{Int, Real, Simd};
use crate::tables::NoiseTables;
use crate::value::Value;

/// A layer's lattice data.
#[derive(Clone, Copy, Debug)]
pub(super) enum Lattice {
    /// Unit gradients `[x, y]`.
    Gradients(Hashing),
    /// Values in [−1, 1], in component 0.
    Values(Value),
}

impl Lattice {
    /// Components per lattice point.
    pub fn components(self) -> usize {
        match self {
            Lattice::Gradients(_) => 2,
            Lattice::Values(_) => 1,
        }
    }

    /// The part of the hash that depends on the column `x` alone.
    #[inline]
    pub fn column_key(self, tables: &NoiseTables, x: i64) -> u32 {
        match self {
            Lattice::Gradients(hashing) => hashing.column_key(tables, x),
            Lattice::Values(value) => value.column_key(tables, x),
        }
    }

    /// The data at lattice point `(x, y)` from `x`'s column key.
    #[inline]
    pub fn at_keyed(self, tables: &NoiseTables, key: u32, y: i64) -> [f32; 2] {
        match self {
            Lattice::Gradients(hashing) => hashing.gradient_2d_f32_keyed(tables, key, y),
            Lattice::Values(value) => [value.lattice_keyed(tables, key, y) as f32, 0.0],
        }
    }

    /// The data at lattice point `(x, y)`.
    #[inline]
    pub fn at(self, tables: &NoiseTables, x: i64, y: i64) -> [f32; 2] {
        self.at_keyed(tables, self.column_key(tables, x), y)
    }

    /// Lattice row `y` over the columns whose keys are `keys`, into `first` (and `second`).
    /// Gradients are hashed a register of columns at a time (integer operations and table
    /// reads: the same bits as [`Lattice::at_keyed`]); values, whose hash ends in `f64`, one
    /// column at a time.
    #[inline(always)]
    pub fn fill_row<S: Simd>(
        self,
        s: S,
        tables: &NoiseTables,
        keys: &[u32],
        y: i64,
        first: &mut [f32],
        second: &mut [f32],
    ) {
        let Lattice::Gradients(hashing) = self else {
            if let Lattice::Values(value) = self {
                for (key, a) in keys.iter().zip(first) {
                    *a = value.lattice_keyed(tables, *key, y) as f32;
                }
            }
            return;
        };
        let lanes = S::LANES;
        let full = keys.len().min(first.len()).min(second.len()) / lanes * lanes;
        let mut index = [0u32; crate::simd::MAX_LANES];
        for c in (0..full).step_by(lanes) {
            // The hashes a register at a time; the table reads lane by lane (two gathers cost
            // more than one 8-byte read per lane).
            let key = s.load_int(&keys[c..]);
            match hashing {
                crate::Hashing::Table => key.add(s.splat_int((y & 255) as u32)),
                crate::Hashing::Integer => {
                    mix2_row(s, tables.keys()[1], key, s.splat_int(y as u32)).shr(24)
                }
            }
            .store(&mut index);
            let (first, second) = (&mut first[c..c + lanes], &mut second[c..c + lanes]);
            for ((a, b), &i) in first.iter_mut().zip(second).zip(&index) {
                [*a, *b] = hashing.gradient_2d_f32_at(tables, i);
            }
        }
        for ((key, a), b) in keys.iter().zip(first).zip(second).skip(full) {
            [*a, *b] = hashing.gradient_2d_f32_keyed(tables, *key, y);
        }
    }
}

/// `⌊3u/8⌋` in two's complement: the shear of a simplex window (see [`Window`]).
#[inline(always)]
fn shear(u: i32) -> i32 {
    u.wrapping_mul(3) >> 3
}

/// Lattice data over a band of lattice points, kept from one strip to the next: `stride`
/// columns from `x0`, and `mask + 1` rows used as a ring (row `y` in slot `y & mask`), so a
/// strip only computes the rows the previous one did not hold.
///
/// A square lattice indexes it by `(x, y)`. A simplex lattice indexes it by the sheared
/// `(u, v) = (i − j, j − ⌊3(i − j)/8⌋)`: the cells a strip of samples touches lie along a
/// diagonal of `(i, j)` but in a narrow band of `(u, v)`.
#[derive(Default)]
pub(super) struct Window {
    sheared: bool,
    x0: i64,
    /// Columns holding data; each row is padded to `stride` so that a register-wide pick at
    /// any held column stays inside its row.
    held: usize,
    stride: usize,
    mask: u64,
    /// Column keys of the square lattice's columns.
    keys: Vec<u32>,
    /// The lattice row each slot holds.
    slots: Vec<Option<i64>>,
    data: [Vec<f32>; 2],
}

impl Window {
    /// Forgets everything (a new layer or fill).
    pub fn reset(&mut self) {
        self.stride = 0;
        self.slots.clear();
    }

    /// Makes the window hold columns `x.0 ..= x.1` of rows `y.0 ..= y.1` (`(x, y) = bounds`);
    /// `false` (and the window unusable) if that is more than `limit` lattice points.
    #[inline(always)]
    pub fn cover<S: Simd>(
        &mut self,
        s: S,
        tables: &NoiseTables,
        lattice: Lattice,
        sheared: bool,
        bounds: ((i64, i64), (i64, i64)),
        limit: usize,
    ) -> bool {
        let (x, y) = bounds;
        let columns = x.1.saturating_sub(x.0).saturating_add(1);
        let rows = y.1.saturating_sub(y.0).saturating_add(1);
        if columns <= 0 || rows <= 0 || columns as u128 * rows as u128 > limit as u128 {
            self.reset();
            return false;
        }
        let fits = self.sheared == sheared
            && self.stride > 0
            && x.0 >= self.x0
            && x.1 < self.x0 + self.held as i64
            && rows as u64 <= self.mask + 1;
        if !fits {
            // Room for the columns with a little slack, and a power of two of rows.
            let slack = 2;
            self.sheared = sheared;
            self.x0 = x.0 - slack;
            self.held = (columns + 2 * slack) as usize;
            self.stride = self.held + crate::simd::MAX_LANES;
            let slots = (rows as u64 + 4).next_power_of_two().max(4);
            self.mask = slots - 1;
            self.slots.clear();
            self.slots.resize(slots as usize, None);
            let comps = lattice.components();
            for (c, v) in self.data.iter_mut().enumerate() {
                v.clear();
                v.resize(
                    if c < comps {
                        slots as usize * self.stride
                    } else {
                        0
                    },
                    0.0,
                );
            }
            self.keys.clear();
            if !sheared {
                let x0 = self.x0;
                self.keys
                    .extend((0..self.held).map(|i| lattice.column_key(tables, x0 + i as i64)));
            }
        }
        for row in y.0..=y.1 {
            let slot = (row as u64 & self.mask) as usize;
            if self.slots[slot] == Some(row) {
                continue;
            }
            self.slots[slot] = Some(row);
            let span = slot * self.stride..slot * self.stride + self.held;
            let [first, second] = &mut self.data;
            let second = second.get_mut(span.clone()).unwrap_or(&mut []);
            let first = &mut first[span];
            if sheared {
                // Row v: lattice points (u + j, j) with j = v + shear(u).
                for (k, a) in first.iter_mut().enumerate() {
                    let u = self.x0 + k as i64;
                    let j = row.wrapping_add(shear(u as i32) as i64);
                    let d = lattice.at(tables, u.wrapping_add(j), j);
                    *a = d[0];
                    if let Some(b) = second.get_mut(k) {
                        *b = d[1];
                    }
                }
            } else {
                lattice.fill_row(s, tables, &self.keys, row, first, second);
            }
        }
        true
    }
}

/// Where a point kernel finds a layer's lattice data.
pub(super) enum PointSource<'a> {
    /// A window around every lattice point the strip's samples touch.
    Window(&'a Window),
    /// Too many lattice points for a window (aliasing octaves, huge warps): hash lane by lane.
    Direct(&'a NoiseTables, Lattice),
}

impl PointSource<'_> {
    /// The data at the four corners `(x, y)`, `(x + 1, y)`, `(x, y + 1)`, `(x + 1, y + 1)` of
    /// every lane's cell, on a square lattice. Where the lanes' cells lie in two neighbouring
    /// rows and within one register's width, permutes read them from the window (and a select
    /// picks each lane's row); else gathers (or hashes) do. Both read the same numbers.
    #[inline(always)]
    pub fn fetch_quad<S: Simd>(&self, s: S, x: S::I, y: S::I, comps: usize) -> [[S::F; 2]; 4] {
        if let PointSource::Window(w) = self
            && !w.sheared
        {
            let first = s.first_lane(y);
            let column = x.sub(s.splat_int(w.x0 as u32));
            // Lanes may sit a few cells left of lane 0 (a warp can bend a row backwards).
            let base = s.first_lane(column).wrapping_sub(4);
            let lanes = column.sub(s.splat_int(base));
            let row_offset = y.sub(s.splat_int(first));
            if s.all_below(row_offset, 2)
                && (base as usize) + S::LANES <= w.stride
                && s.all_below(lanes, S::LANES as u32 - 1)
            {
                let (base, stride) = (base as usize, w.stride);
                let r0 = (first as u64 & w.mask) as usize * stride + base;
                let r1 = (first.wrapping_add(1) as u64 & w.mask) as usize * stride + base;
                let r2 = (first.wrapping_add(2) as u64 & w.mask) as usize * stride + base;
                let lower = row_offset.to_real().lt(s.splat(0.5));
                let next = lanes.add(s.splat_int(1));
                let mut out = [[s.splat(0.0); 2]; 4];
                for (c, data) in w.data.iter().enumerate().take(comps) {
                    let (a, b, d) = (&data[r0..], &data[r1..], &data[r2..]);
                    out[0][c] = S::F::select(lower, s.pick(a, lanes), s.pick(b, lanes));
                    out[1][c] = S::F::select(lower, s.pick(a, next), s.pick(b, next));
                    out[2][c] = S::F::select(lower, s.pick(b, lanes), s.pick(d, lanes));
                    out[3][c] = S::F::select(lower, s.pick(b, next), s.pick(d, next));
                }
                return out;
            }
        }
        let one = s.splat_int(1);
        let (x1, y1) = (x.add(one), y.add(one));
        [
            self.fetch(s, x, y, comps),
            self.fetch(s, x1, y, comps),
            self.fetch(s, x, y1, comps),
            self.fetch(s, x1, y1, comps),
        ]
    }

    /// The data at lattice points `(x, y)` (low 32 bits of the coordinates) of every lane.
    #[inline(always)]
    pub fn fetch<S: Simd>(&self, s: S, x: S::I, y: S::I, comps: usize) -> [S::F; 2] {
        match self {
            PointSource::Window(w) => {
                let (column, row) = if w.sheared {
                    let u = x.sub(y);
                    (u, y.sub(u.mul(s.splat_int(3)).sar(3)))
                } else {
                    (x, y)
                };
                let index = column
                    .sub(s.splat_int(w.x0 as u32))
                    .add((row & s.splat_int(w.mask as u32)).mul(s.splat_int(w.stride as u32)));
                let first = index.gather(&w.data[0]);
                let second = if comps > 1 {
                    index.gather(&w.data[1])
                } else {
                    first
                };
                [first, second]
            }
            PointSource::Direct(tables, lattice) => {
                let mut xs = [0u32; 16];
                let mut ys = [0u32; 16];
                x.store(&mut xs);
                y.store(&mut ys);
                let mut a = [0f32; 16];
                let mut b = [0f32; 16];
                for lane in 0..S::LANES {
                    // Low 32 bits are all a hash reads; sign-extend to stay within i64.
                    let d = lattice.at(tables, xs[lane] as i32 as i64, ys[lane] as i32 as i64);
                    (a[lane], b[lane]) = (d[0], d[1]);
                }
                [s.load(&a), s.load(&b)]
            }
        }
    }
}
