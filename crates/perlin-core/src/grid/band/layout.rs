//! Where a band's samples find their corners: the columns of a layer laid out in blocks of
//! lanes ([`Columns`]), the lattice data of the rows a band reads ([`BandRows`]), and, per band,
//! where each tap's lattice row starts in it ([`TapRows`]).

use super::coefficients::{
    CUBIC_TAPS, PERLIN_TAPS, VALUE_TAPS, cubic_constants, perlin_constants, value_constants,
};
use super::{BandBase, PERLIN, VALUE};
use crate::grid::axis::Axis;
use crate::grid::lattice::Lattice;
use crate::simd::Simd;
use crate::tables::NoiseTables;

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
pub(in crate::grid) struct Columns {
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

    pub(super) fn dense(&self) -> bool {
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
pub(in crate::grid) struct BandRows {
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
    pub(super) fn load<S: Simd>(
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

/// Where a band's blocks find their corners: the band's rows in [`BandRows`], and for each tap
/// where its lattice row starts there, one window column left of the tap's own column (so that
/// `base − 1` is the tap's column for a block based at `base`); or, for a sparse layer, the
/// lattice itself.
pub(super) struct TapRows<'a> {
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
    /// The eight constants of the block of columns `c..c + LANES` (see
    /// [`sample`](super::coefficients::sample)).
    #[inline(always)]
    pub(super) fn constants<S: Simd, const BASE: u8, const SLOPES: bool>(
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

    /// Where the taps of a band in lattice row `y0` find their rows.
    #[inline(always)]
    pub(super) fn of(
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
