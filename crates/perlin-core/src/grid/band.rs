//! The band formulation: Perlin and value noise on a regular grid, three multiply–adds per sample.
//!
//! Inside one lattice cell, the noise along a column of samples is a polynomial in the row's
//! offset `ty` whose coefficients depend only on the column:
//!
//! ```text
//! n(ty) = (T0 + ty·T1) + v(ty)·(D0 + ty·D1)
//! ```
//!
//! - **Perlin**: the corner dot products are linear in `ty`, and `v` is the fade curve.
//! - **Value, linear or cosine**: the corner values do not depend on `ty`: `T1 = D1 = 0`.
//! - **Value, cubic**: the cubic through four rows, `S + R·ty + Q·ty² + P·ty³`, is the same form
//!   with `T0 = S`, `T1 = R`, `D0 = Q`, `D1 = P` and `v(ty) = ty²`.
//!
//! So a *band* (the grid rows inside one lattice row) computes the four coefficients, and four
//! more for `∂n/∂tx`, once per column from the lattice data of its cell, then three multiply–adds
//! per sample. The lattice data of the band's lattice rows is fetched once for every column
//! ([`BandRows`]); a block of columns whose cells fit in one register-wide window picks its
//! corners with one permute per corner component.

use super::axis::Axis;
use super::finish::{Unpadded, store_unpadded};
use super::lattice::Lattice;
use super::{Sums, Weights, shape};
use crate::fbm::FractalMode;
use crate::simd::{Kernel, Real, Simd};
use crate::tables::NoiseTables;
use std::ops::Range;

/// Which coefficients a column gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BandBase {
    /// Perlin gradient noise.
    Perlin,
    /// Value noise, linear or cosine blend (the curve is in the axes).
    Value,
    /// Value noise, 4-point cubic.
    Cubic,
}

impl BandBase {
    /// Lattice offsets read along each axis: `0..=1`, or `-1..=2` for the cubic.
    fn taps(self) -> Range<i64> {
        match self {
            BandBase::Perlin | BandBase::Value => 0..2,
            BandBase::Cubic => -1..3,
        }
    }
}

/// A block of lanes' columns whose cells all lie in one lanes-wide window.
#[derive(Clone, Copy, Debug, Default)]
struct Block {
    /// Window index of the block's lowest cell.
    base: u32,
    /// Whether every column's cell is within `base..base + lanes`.
    fits: bool,
}

/// The columns of one layer: where each column's cell sits in the lattice rows, per block.
#[derive(Default)]
pub(super) struct Columns {
    /// Lattice x of window index 0: the lowest cell minus one (room for the cubic's left tap).
    x0: i64,
    /// Window columns, padded for the widest pick; 0 when the layer is sparse.
    span: usize,
    /// `cell − x0` of each column.
    k: Vec<u32>,
    /// `k − block.base` of each column.
    lane: Vec<u32>,
    blocks: Vec<Block>,
    /// The column keys of the window's lattice columns that hold data (see
    /// [`Lattice::column_key`]), and for gradients zeros up to a whole register; the rest of
    /// the window is padding.
    keys: Vec<u32>,
}

impl Columns {
    /// Lays out the columns of `axis` in blocks of `lanes`. A layer whose columns touch more than
    /// `4 · width + 64` lattice columns (an aliasing octave, or non-finite positions) is
    /// sparse: its columns fetch their cells' data lane by lane.
    #[inline(always)]
    pub fn rebuild(&mut self, tables: &NoiseTables, lattice: Lattice, axis: &Axis, lanes: usize) {
        let cells = &axis.cell;
        let width = cells.len();
        let (lo, hi) = extremes(cells, axis.monotone);
        let used = hi as i128 - lo as i128 + 1;
        self.k.clear();
        self.lane.clear();
        self.blocks.clear();
        self.keys.clear();
        self.x0 = lo.wrapping_sub(1);
        if width == 0 || used > 4 * width as i128 + 64 {
            self.span = 0;
            return;
        }
        // Columns −1 … used + 1 of the cubic hold data; a whole register past the last base
        // more is padding, so that every pick stays in bounds.
        let data = used as usize + 3;
        self.span = data + lanes;
        let x0 = self.x0;
        self.keys
            .extend((0..data).map(|i| lattice.column_key(tables, x0.wrapping_add(i as i64))));
        if let Lattice::Gradients(_) = lattice {
            // Whole registers of keys, so that every lattice row hashes in lanes (the padding's
            // data is never picked).
            self.keys.resize(data.next_multiple_of(lanes.max(1)), 0);
        }
        self.k
            .extend(cells.iter().map(|&c| c.wrapping_sub(x0) as u32));
        self.lane.extend_from_slice(&self.k);
        // Whole registers as arrays, so that each block's arithmetic is a few lane operations.
        let blocks = &mut self.blocks;
        let monotone = axis.monotone;
        match lanes {
            8 => {
                let (whole, tail) = self.lane.as_chunks_mut::<8>();
                let whole = whole.iter_mut().map(|b| &mut b[..]);
                push_blocks(blocks, whole.chain([tail]), lanes, monotone);
            }
            16 => {
                let (whole, tail) = self.lane.as_chunks_mut::<16>();
                let whole = whole.iter_mut().map(|b| &mut b[..]);
                push_blocks(blocks, whole.chain([tail]), lanes, monotone);
            }
            _ => push_blocks(blocks, self.lane.chunks_mut(lanes.max(1)), lanes, monotone),
        }
    }

    fn dense(&self) -> bool {
        self.span > 0
    }
}

/// Splits `lane` (a copy of `k`) into `blocks` of `lanes` columns: each block's lowest cell, and
/// its columns' lanes from there. Monotone cells span a block's first to its last.
#[inline(always)]
fn push_blocks<'a>(
    blocks: &mut Vec<Block>,
    lane: impl Iterator<Item = &'a mut [u32]>,
    lanes: usize,
    monotone: bool,
) {
    for block in lane.filter(|block| !block.is_empty()) {
        let (base, top) = extremes(block, monotone);
        for lane in block.iter_mut() {
            *lane -= base;
        }
        blocks.push(Block {
            base,
            fits: (top - base) < lanes as u32,
        });
    }
}

/// The lowest and highest of `values` (zeros for none). `monotone` values span their first to
/// their last.
#[inline(always)]
fn extremes<T: Ord + Copy + Default>(values: &[T], monotone: bool) -> (T, T) {
    match (monotone, values.first(), values.last()) {
        (true, Some(&first), Some(&last)) => (first.min(last), first.max(last)),
        _ => (
            values.iter().copied().min().unwrap_or_default(),
            values.iter().copied().max().unwrap_or_default(),
        ),
    }
}

/// The lattice data of the rows a band reads (2, or 4 for the cubic), over the window's columns,
/// in one buffer: a ring of [`RING`] slots, lattice row `y` in slot `y mod RING`, each slot one
/// `span`-long array per component. Walking down the grid, a band fetches only the row the
/// previous band did not hold.
#[derive(Default)]
pub(super) struct BandRows {
    data: Vec<f32>,
    span: usize,
    /// The lattice row each slot holds.
    held: [Option<i64>; RING],
}

/// Slots of the [`BandRows`] ring: the cubic's four rows.
const RING: usize = 4;

impl BandRows {
    /// Forgets what the rows held (a new layer or config).
    pub fn reset(&mut self) {
        self.held = [None; RING];
    }

    /// Where component `comp` of lattice row `y` starts in the buffer.
    #[inline(always)]
    fn start(&self, y: i64, comp: usize) -> usize {
        (y.rem_euclid(RING as i64) as usize * 2 + comp) * self.span
    }

    /// Makes the ring hold lattice rows `first .. first + count` over `cols`.
    #[inline(always)]
    fn load<S: Simd>(
        &mut self,
        s: S,
        tables: &NoiseTables,
        lattice: Lattice,
        cols: &Columns,
        first: i64,
        count: usize,
    ) {
        if self.span != cols.span {
            self.span = cols.span;
            self.data.clear();
            self.data.resize(RING * 2 * cols.span, 0.0);
            self.reset();
        }
        for y in (0..count.min(RING)).map(|j| first.wrapping_add(j as i64)) {
            let slot = y.rem_euclid(RING as i64) as usize;
            if self.held[slot] == Some(y) {
                continue;
            }
            self.held[slot] = Some(y);
            let row = &mut self.data[slot * 2 * self.span..(slot + 1) * 2 * self.span];
            let (a, b) = row.split_at_mut(self.span);
            lattice.fill_row(s, tables, &cols.keys, y, a, b);
        }
    }
}

/// One layer of a strip on the band path.
pub(super) struct BandLayer<'a> {
    pub tables: &'a NoiseTables,
    pub lattice: Lattice,
    pub base: BandBase,
    pub mode: FractalMode,
    pub weights: Weights,
    pub columns: &'a Axis,
    pub rows: &'a Axis,
    pub layout: &'a Columns,
    pub band_rows: &'a mut BandRows,
    pub sums: Sums<'a>,
    /// The last layer of a plain fill (values only, no contrast, warp or erosion): its sums,
    /// times this scale, go straight to the caller's rows, with the same bits as the `Finish`
    /// pass would write. The sums themselves are then not stored.
    pub finish: Option<(f32, Unpadded<'a>)>,
}

impl Kernel for BandLayer<'_> {
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(self, s: S) {
        match self.base {
            BandBase::Perlin => self.modes::<S, PERLIN>(s),
            BandBase::Value => self.modes::<S, VALUE>(s),
            BandBase::Cubic => self.modes::<S, CUBIC>(s),
        }
    }
}

/// [`BandBase`] as a const parameter: each base's kernel is compiled on its own, so the
/// block loop holds one base's code and keeps its values in registers.
const PERLIN: u8 = 0;
const VALUE: u8 = 1;
const CUBIC: u8 = 2;

impl BandLayer<'_> {
    /// Which sums the layer writes: slopes too, or the finished values (the two exclude each
    /// other: a fill with gradients finishes apart), or the values alone.
    #[inline(always)]
    fn modes<S: Simd, const BASE: u8>(self, s: S) {
        match (self.sums.slopes(), self.finish.is_some()) {
            (true, _) => self.shaped::<S, BASE, true, false>(s),
            (false, true) => self.shaped::<S, BASE, false, true>(s),
            (false, false) => self.shaped::<S, BASE, false, false>(s),
        }
    }

    /// The fractal mode as a const parameter ([`shape`]'s `MODE`).
    #[inline(always)]
    fn shaped<S: Simd, const BASE: u8, const SLOPES: bool, const FINISH: bool>(self, s: S) {
        match self.mode {
            FractalMode::Standard => self.bands::<S, BASE, 0, SLOPES, FINISH>(s),
            FractalMode::Ridged => self.bands::<S, BASE, 1, SLOPES, FINISH>(s),
            FractalMode::Billow => self.bands::<S, BASE, 2, SLOPES, FINISH>(s),
            FractalMode::Turbulence => self.bands::<S, BASE, 3, SLOPES, FINISH>(s),
        }
    }

    /// Every band of the strip: runs of rows inside one lattice row.
    #[inline(always)]
    fn bands<S: Simd, const BASE: u8, const MODE: u8, const SLOPES: bool, const FINISH: bool>(
        mut self,
        s: S,
    ) {
        let strip = self.sums.rows.clone();
        let taps = self.base.taps();
        let mut start = strip.start;
        while start < strip.end {
            let y0 = self.rows.cell[start];
            let end = if self.rows.monotone {
                // The band's rows are the rest's first rows in its lattice row.
                let rest = &self.rows.cell[start..strip.end];
                start + rest.partition_point(|&y| y == y0)
            } else {
                (start + 1..strip.end)
                    .find(|&r| self.rows.cell[r] != y0)
                    .unwrap_or(strip.end)
            };
            if self.layout.dense() {
                self.band_rows.load(
                    s,
                    self.tables,
                    self.lattice,
                    self.layout,
                    y0.wrapping_add(taps.start),
                    taps.clone().count(),
                );
            }
            self.band::<S, BASE, MODE, SLOPES, FINISH>(s, start..end, y0);
            start = end;
        }
    }

    /// One band: rows `rows` in lattice row `y0`. Columns go in groups of [`group`] blocks:
    /// each block of a group computes its constants once, then the group walks down the band's
    /// rows together (one row's `ty` and curve serve every block of the group). The blocks
    /// left over, and a last block that runs past the caller's row, walk alone.
    #[inline(always)]
    fn band<S: Simd, const BASE: u8, const MODE: u8, const SLOPES: bool, const FINISH: bool>(
        &mut self,
        s: S,
        rows: Range<usize>,
        y0: i64,
    ) {
        let width = self.sums.width;
        // The band's part of everything the rows loop reads, sliced once.
        let ry = self.rows;
        let curve = RowCurve {
            frac: &ry.frac[rows.clone()],
            fade: &ry.fade[rows.clone()],
            dfade: if SLOPES { &ry.dfade[rows.clone()] } else { &[] },
        };
        let band = self.sums.at(rows.start, 0)..self.sums.at(rows.end, 0);
        let (dx, dy) = if SLOPES {
            (
                &mut self.sums.dx[band.clone()],
                &mut self.sums.dy[band.clone()],
            )
        } else {
            (&mut [][..], &mut [][..])
        };
        // Finishing: the caller's rows of the band, and the scale.
        let (scale, finished, finished_width) = match &mut self.finish {
            Some((scale, to)) if FINISH => {
                let first = (rows.start - self.sums.rows.start) * to.width;
                let last = (rows.end - self.sums.rows.start) * to.width;
                (*scale, &mut to.rows[first..last], to.width)
            }
            _ => (1.0, &mut [][..], 0),
        };
        // A finishing layer into fresh sums (the only octave) reads none: the strip may hold
        // none.
        let value = if FINISH && self.sums.fresh {
            &mut [][..]
        } else {
            &mut self.sums.value[band]
        };
        let mut walk = Walk {
            value,
            dx,
            dy,
            width,
            finished,
            finished_width,
            amplitude: s.splat(self.weights.amplitude),
            amplitude_frequency: s.splat(self.weights.amplitude_frequency),
            scale: s.splat(scale),
        };
        let taps = TapRows::of(
            self.layout,
            self.columns,
            self.lattice,
            self.tables,
            self.band_rows,
            self.base,
            y0,
        );
        // Groups end inside the padded row, and inside the caller's row when finishing.
        let reach = if FINISH {
            finished_width.min(width)
        } else {
            width
        };
        let columns = BandColumns {
            taps: &taps,
            axis: self.columns,
            y0,
            curve,
            width,
            reach,
        };
        // The only octave, of weight 1, finished at scale 1: its terms are the values.
        let unit = FINISH && self.weights.amplitude == 1.0 && scale == 1.0;
        match (self.sums.fresh, unit) {
            (true, true) => columns.walk::<S, BASE, MODE, SLOPES, FINISH, true, true>(s, &mut walk),
            (true, false) => {
                columns.walk::<S, BASE, MODE, SLOPES, FINISH, true, false>(s, &mut walk)
            }
            (false, _) => columns.walk::<S, BASE, MODE, SLOPES, FINISH, false, false>(s, &mut walk),
        }
    }
}

/// The columns of one band, and what their constants come from.
struct BandColumns<'a> {
    taps: &'a TapRows<'a>,
    axis: &'a Axis,
    y0: i64,
    curve: RowCurve<'a>,
    /// Padded samples per row.
    width: usize,
    /// Where groups of blocks must end: the padded row, or the caller's row when finishing.
    reach: usize,
}

impl BandColumns<'_> {
    /// Every block of the band's columns, in groups where they fit (see [`group`]).
    #[inline(always)]
    fn walk<
        S: Simd,
        const BASE: u8,
        const MODE: u8,
        const SLOPES: bool,
        const FINISH: bool,
        const FRESH: bool,
        const UNIT: bool,
    >(
        &self,
        s: S,
        walk: &mut Walk<S>,
    ) {
        let lanes = S::LANES;
        let stride = group::<S>(SLOPES) * lanes;
        let grouped = self.reach / stride * stride;
        if FINISH {
            // The blocks past the groups first, right to left: a row's lanes past the caller's
            // row land on the next row's first columns, which the blocks left of it and the
            // groups write afterwards (see `Walk::finish_alone`).
            for c in (grouped..self.reach).step_by(lanes).rev() {
                let k = self.constants::<S, BASE, SLOPES, UNIT>(s, c);
                walk.finish_alone::<MODE, FRESH, UNIT>(s, c, k, self.curve);
            }
        }
        for c in (0..grouped).step_by(stride) {
            match group::<S>(SLOPES) {
                1 => walk.rows::<MODE, SLOPES, FINISH, FRESH, UNIT, 1>(
                    s,
                    c,
                    [self.constants::<S, BASE, SLOPES, UNIT>(s, c)],
                    self.curve,
                ),
                2 => walk.rows::<MODE, SLOPES, FINISH, FRESH, UNIT, 2>(
                    s,
                    c,
                    [
                        self.constants::<S, BASE, SLOPES, UNIT>(s, c),
                        self.constants::<S, BASE, SLOPES, UNIT>(s, c + lanes),
                    ],
                    self.curve,
                ),
                _ => walk.rows::<MODE, SLOPES, FINISH, FRESH, UNIT, 4>(
                    s,
                    c,
                    [
                        self.constants::<S, BASE, SLOPES, UNIT>(s, c),
                        self.constants::<S, BASE, SLOPES, UNIT>(s, c + lanes),
                        self.constants::<S, BASE, SLOPES, UNIT>(s, c + 2 * lanes),
                        self.constants::<S, BASE, SLOPES, UNIT>(s, c + 3 * lanes),
                    ],
                    self.curve,
                ),
            }
        }
        if !FINISH {
            for c in (grouped..self.width).step_by(lanes) {
                let k = [self.constants::<S, BASE, SLOPES, UNIT>(s, c)];
                walk.rows::<MODE, SLOPES, FINISH, FRESH, UNIT, 1>(s, c, k, self.curve);
            }
        }
    }

    /// The constants of the block at column `c`. For a `UNIT` layer, `T0 + 0`: then no sample
    /// is −0, and each is already what `n · 1 + 0` would round to (the sign of a zero `T0`
    /// matters only where `ty · T1` is zero too, and there only to the sign of a zero sample).
    #[inline(always)]
    fn constants<S: Simd, const BASE: u8, const SLOPES: bool, const UNIT: bool>(
        &self,
        s: S,
        c: usize,
    ) -> [S::F; 8] {
        let mut k = self
            .taps
            .constants::<S, BASE, SLOPES>(s, self.axis, c, self.y0);
        if UNIT {
            k[0] = k[0] + s.splat(0.0);
        }
        k
    }
}

/// A band's rows of the per-row curve: offset `ty`, curve `v(ty)` and its slope.
#[derive(Clone, Copy)]
struct RowCurve<'a> {
    frac: &'a [f32],
    fade: &'a [f32],
    dfade: &'a [f32],
}

/// Blocks of columns a band walks down at once: as many as keep their constants (four
/// registers a block, eight with slopes) in registers beside the row's numbers.
#[inline(always)]
const fn group<S: Simd>(slopes: bool) -> usize {
    let per_block = if slopes { 8 } else { 4 };
    let blocks = S::REGISTERS / (2 * per_block);
    if blocks >= 4 {
        4
    } else if blocks >= 2 {
        2
    } else {
        1
    }
}

/// Where a band's samples go, and the layer's weights.
struct Walk<'a, S: Simd> {
    /// The sums of the band's rows, `width` apart.
    value: &'a mut [f32],
    dx: &'a mut [f32],
    dy: &'a mut [f32],
    width: usize,
    /// When finishing: the caller's rows of the band, `finished_width` apart.
    finished: &'a mut [f32],
    finished_width: usize,
    amplitude: S::F,
    amplitude_frequency: S::F,
    scale: S::F,
}

impl<S: Simd> Walk<'_, S> {
    /// Walks `N` blocks of columns from column `c` down the band's rows, with the blocks'
    /// constants `k`. When finishing, the blocks lie inside the caller's row.
    #[inline(always)]
    fn rows<
        const MODE: u8,
        const SLOPES: bool,
        const FINISH: bool,
        const FRESH: bool,
        const UNIT: bool,
        const N: usize,
    >(
        &mut self,
        s: S,
        c: usize,
        k: [[S::F; 8]; N],
        curve: RowCurve,
    ) {
        let lanes = S::LANES;
        let span = c..c + N * lanes;
        let amplitude = self.amplitude;
        if FINISH && FRESH {
            // The only octave: no sums to read.
            let scale = self.scale;
            let out = self.finished.chunks_exact_mut(self.finished_width.max(1));
            for ((&ty, &v), out) in curve.frac.iter().zip(curve.fade).zip(out) {
                let (ty, v) = (s.splat(ty), s.splat(v));
                for (b, k) in k.iter().enumerate() {
                    let [n, ..] = sample(*k, ty, v, v);
                    let (shaped, _) = shape::<S, MODE>(s, n);
                    let value = finished::<S, FRESH, UNIT>(s, &[], shaped, amplitude, scale);
                    value.store(&mut out[span.clone()][b * lanes..]);
                }
            }
        } else if FINISH {
            let scale = self.scale;
            let rows = self.value.chunks_exact(self.width);
            let out = self.finished.chunks_exact_mut(self.finished_width.max(1));
            for ((&ty, &v), (sums, out)) in curve.frac.iter().zip(curve.fade).zip(rows.zip(out)) {
                let (ty, v) = (s.splat(ty), s.splat(v));
                let sums = &sums[span.clone()];
                for (b, k) in k.iter().enumerate() {
                    let [n, ..] = sample(*k, ty, v, v);
                    let (shaped, _) = shape::<S, MODE>(s, n);
                    let sums = &sums[b * lanes..];
                    let value = finished::<S, FRESH, UNIT>(s, sums, shaped, amplitude, scale);
                    value.store(&mut out[span.clone()][b * lanes..]);
                }
            }
        } else if SLOPES {
            let amplitude_frequency = self.amplitude_frequency;
            let rows = self
                .value
                .chunks_exact_mut(self.width)
                .zip(self.dx.chunks_exact_mut(self.width))
                .zip(self.dy.chunks_exact_mut(self.width));
            let curve = curve.frac.iter().zip(curve.fade).zip(curve.dfade);
            for (((&ty, &v), &dv), ((value, dx), dy)) in curve.zip(rows) {
                let (ty, v, dv) = (s.splat(ty), s.splat(v), s.splat(dv));
                let (value, dx, dy) = (
                    &mut value[span.clone()],
                    &mut dx[span.clone()],
                    &mut dy[span.clone()],
                );
                for (b, k) in k.iter().enumerate() {
                    let at = b * lanes;
                    let [n, dn_dx, dn_dy] = sample(*k, ty, v, dv);
                    let (shaped, slope) = shape::<S, MODE>(s, n);
                    let kk = slope * amplitude_frequency;
                    add::<S, FRESH>(s, &mut value[at..], shaped, amplitude);
                    add::<S, FRESH>(s, &mut dx[at..], dn_dx, kk);
                    add::<S, FRESH>(s, &mut dy[at..], dn_dy, kk);
                }
            }
        } else {
            let rows = self.value.chunks_exact_mut(self.width);
            for ((&ty, &v), value) in curve.frac.iter().zip(curve.fade).zip(rows) {
                let (ty, v) = (s.splat(ty), s.splat(v));
                let value = &mut value[span.clone()];
                for (b, k) in k.iter().enumerate() {
                    let [n, ..] = sample(*k, ty, v, v);
                    let (shaped, _) = shape::<S, MODE>(s, n);
                    add::<S, FRESH>(s, &mut value[b * lanes..], shaped, amplitude);
                }
            }
        }
    }

    /// A finishing block walked on its own down the band (one of the few past the groups, the
    /// last of which may run past the caller's row), before the groups and the lone blocks
    /// left of it. Each row's lanes are stored whole: those past the caller's row land on the
    /// first columns of the next rows, which those write afterwards. Only on the band's last
    /// row, where they would land past its end, are they dropped.
    #[inline(always)]
    fn finish_alone<const MODE: u8, const FRESH: bool, const UNIT: bool>(
        &mut self,
        s: S,
        c: usize,
        k: [S::F; 8],
        curve: RowCurve,
    ) {
        let (lanes, to_width) = (S::LANES, self.finished_width.max(1));
        let end = self.finished.len();
        // Rows `..whole` store their lanes whole (`r · to_width + c + lanes <= end`).
        let whole = match end.checked_sub(c + lanes) {
            Some(room) => room / to_width + 1,
            None => 0,
        };
        let rows = curve.frac.iter().zip(curve.fade).enumerate();
        for (r, (&ty, &v)) in rows.clone().take(whole) {
            let value = self.finished_at::<MODE, FRESH, UNIT>(s, k, r, c, ty, v);
            value.store(&mut self.finished[r * to_width + c..]);
        }
        for (r, (&ty, &v)) in rows.skip(whole) {
            let value = self.finished_at::<MODE, FRESH, UNIT>(s, k, r, c, ty, v);
            store_unpadded::<S>(value, &mut self.finished[r * to_width..], c);
        }
    }

    /// The finished value of the block at column `c` (constants `k`) on the band's row `r`
    /// (offset `ty`, curve `v`): its shaped term on top of the row's sums (see [`finished`]).
    #[inline(always)]
    fn finished_at<const MODE: u8, const FRESH: bool, const UNIT: bool>(
        &self,
        s: S,
        k: [S::F; 8],
        r: usize,
        c: usize,
        ty: f32,
        v: f32,
    ) -> S::F {
        let sums = if FRESH {
            &[][..]
        } else {
            &self.value[r * self.width + c..]
        };
        let [n, ..] = sample(k, s.splat(ty), s.splat(v), s.splat(v));
        let (shaped, _) = shape::<S, MODE>(s, n);
        finished::<S, FRESH, UNIT>(s, sums, shaped, self.amplitude, self.scale)
    }
}

/// The finished value of a sample whose shaped term is `term`: its sum with `sum[..LANES]`
/// (see [`total`]) times `scale`, or for a `UNIT` layer the term itself (see
/// `BandColumns::constants`).
#[inline(always)]
fn finished<S: Simd, const FRESH: bool, const UNIT: bool>(
    s: S,
    sum: &[f32],
    term: S::F,
    weight: S::F,
    scale: S::F,
) -> S::F {
    if UNIT {
        term
    } else {
        total::<S, FRESH>(s, sum, term, weight) * scale
    }
}

/// `sum[..LANES] += term · weight`, rounded once; into `FRESH` sums, `term · weight + 0` (the
/// same bits as adding to zeroed sums, without reading them).
#[inline(always)]
fn add<S: Simd, const FRESH: bool>(s: S, sum: &mut [f32], term: S::F, weight: S::F) {
    total::<S, FRESH>(s, sum, term, weight).store(sum);
}

/// `sum[..LANES] + term · weight` (or `term · weight + 0` into `FRESH` sums), rounded once.
#[inline(always)]
fn total<S: Simd, const FRESH: bool>(s: S, sum: &[f32], term: S::F, weight: S::F) -> S::F {
    if FRESH {
        term.mul_add(weight, s.splat(0.0))
    } else {
        term.mul_add(weight, s.load(sum))
    }
}

/// Where a band's blocks find their corners: the band's rows in [`BandRows`], and for each tap
/// where its lattice row starts there, one window column left of the tap's own column (so that
/// `base − 1` is the tap's column for a block based at `base`); or, for a sparse layer, the
/// lattice itself.
struct TapRows<'a> {
    /// Whether the layer is dense (the rows hold data); a sparse layer hashes lane by lane.
    dense: bool,
    data: &'a [f32],
    starts: [usize; 16],
    /// The largest of `starts`.
    reach: usize,
    layout: &'a Columns,
    columns: &'a Axis,
    lattice: Lattice,
    tables: &'a NoiseTables,
}

impl<'a> TapRows<'a> {
    /// The eight constants of the block of columns `c..c + LANES` (see [`sample`]).
    #[inline(always)]
    fn constants<S: Simd, const BASE: u8, const SLOPES: bool>(
        &self,
        s: S,
        ax: &Axis,
        c: usize,
        y0: i64,
    ) -> [S::F; 8] {
        let tx = s.load(&ax.frac[c..]);
        let u = s.load(&ax.fade[c..]);
        let du = if SLOPES {
            s.load(&ax.dfade[c..])
        } else {
            s.splat(0.0)
        };
        match BASE {
            PERLIN => {
                let g = self.corners::<S, 8>(s, c, y0, PERLIN_TAPS);
                perlin_constants(s, g, tx, u, du)
            }
            VALUE => {
                let v = self.corners::<S, 4>(s, c, y0, VALUE_TAPS);
                value_constants(s, v, u, du)
            }
            _ => {
                let v = self.corners::<S, 16>(s, c, y0, CUBIC_TAPS);
                cubic_constants(s, v, tx)
            }
        }
    }

    #[inline(always)]
    fn of(
        layout: &'a Columns,
        columns: &'a Axis,
        lattice: Lattice,
        tables: &'a NoiseTables,
        band_rows: &'a BandRows,
        base: BandBase,
        y0: i64,
    ) -> TapRows<'a> {
        let mut out = TapRows {
            dense: layout.dense(),
            data: &band_rows.data,
            starts: [0; 16],
            reach: 0,
            layout,
            columns,
            lattice,
            tables,
        };
        if out.dense {
            let taps: &[(i64, i64, usize)] = match base {
                BandBase::Perlin => &PERLIN_TAPS,
                BandBase::Value => &VALUE_TAPS,
                BandBase::Cubic => &CUBIC_TAPS,
            };
            for (start, &(dx, dy, comp)) in out.starts.iter_mut().zip(taps) {
                *start = band_rows.start(y0.wrapping_add(dy), comp) + (dx + 1) as usize;
                out.reach = out.reach.max(*start);
            }
        }
        out
    }

    /// The lattice data the columns `c..c + LANES` read around their cells in lattice row
    /// `y0`: for each tap `(dx, dy, component)`, lane `l` gets component `component` of lattice
    /// point `(cell[c + l] + dx, y0 + dy)`.
    #[inline(always)]
    fn corners<S: Simd, const T: usize>(
        &self,
        s: S,
        c: usize,
        y0: i64,
        taps: [(i64, i64, usize); T],
    ) -> [S::F; T] {
        // No closures here: a closure is not always inlined into the target-feature function,
        // and every lane operation in it would become a call.
        let mut out = [s.splat(0.0); T];
        let block = self.layout.blocks.get(c / S::LANES).copied();
        match block {
            Some(block) if self.dense && block.fits => {
                // Tap rows start one column left of the window (the cubic's left tap).
                let at = block.base as usize - 1;
                let lanes = s.load_int(&self.layout.lane[c..]);
                s.pick_at(self.data, at, &self.starts, self.reach, lanes, &mut out);
            }
            _ => {
                // Lane by lane from the lattice itself: the same numbers the rows hold.
                let mut lanes = [[0f32; 16]; T];
                for lane in 0..S::LANES {
                    let x = self.columns.cell[c + lane];
                    for (l, &(dx, dy, comp)) in lanes.iter_mut().zip(&taps) {
                        let d =
                            self.lattice
                                .at(self.tables, x.wrapping_add(dx), y0.wrapping_add(dy));
                        l[lane] = d[comp];
                    }
                }
                for (o, l) in out.iter_mut().zip(&lanes) {
                    *o = s.load(l);
                }
            }
        }
        out
    }
}

/// Perlin's taps: the four corners' `[x, y]` gradients, in the order of [`perlin_constants`].
const PERLIN_TAPS: [(i64, i64, usize); 8] = [
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
const VALUE_TAPS: [(i64, i64, usize); 4] = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)];

/// The cubic's taps: four rows `y0 − 1 … y0 + 2` of four columns `x0 − 1 … x0 + 2`.
const CUBIC_TAPS: [(i64, i64, usize); 16] = {
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
fn perlin_constants<S: Simd>(s: S, g: [S::F; 8], tx: S::F, u: S::F, du: S::F) -> [S::F; 8] {
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
fn value_constants<S: Simd>(s: S, v: [S::F; 4], u: S::F, du: S::F) -> [S::F; 8] {
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
fn cubic_constants<S: Simd>(s: S, v: [S::F; 16], tx: S::F) -> [S::F; 8] {
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
fn sample<F: Real>(k: [F; 8], ty: F, v: F, dv: F) -> [F; 3] {
    let top = ty.mul_add(k[1], k[0]);
    let dif = ty.mul_add(k[3], k[2]);
    let n = v.mul_add(dif, top);
    let dx = v.mul_add(ty.mul_add(k[7], k[6]), ty.mul_add(k[5], k[4]));
    let dy = dv.mul_add(dif, v.mul_add(k[3], k[1]));
    [n, dx, dy]
}
