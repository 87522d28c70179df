//! Per-axis work of one octave, done once per column (or row) and reused by every sample on it.

use crate::fade::Fade;
use crate::fbm::Octave;
use crate::lattice::{SMALL, cell, cell_small};

/// The most SIMD lanes a kernel uses (AVX-512: sixteen `f32`).
pub(super) const MAX_LANES: usize = 16;

/// Lattice cells, offsets and fade weights of one octave along one axis.
#[derive(Default)]
pub(super) struct Axis {
    /// Lattice cell of each position.
    pub cell: Vec<i64>,
    /// Offset inside the cell, `t`.
    pub frac: Vec<f32>,
    /// `s(t)`.
    pub fade: Vec<f32>,
    /// `s′(t)`.
    pub dfade: Vec<f32>,
}

impl Axis {
    /// Fills the axis for `positions` (world coordinates), which the octave scales and shifts
    /// into lattice space. Reuses the vectors' memory.
    pub fn rebuild(&mut self, positions: &[f64], octave: &Octave, fade: Fade) {
        let n = positions.len();
        for v in [&mut self.frac, &mut self.fade, &mut self.dfade] {
            v.clear();
            v.resize(n, 0.0);
        }
        self.cell.clear();
        self.cell.resize(n, 0);
        let lattice = |p: f64| p * octave.frequency + octave.shift;
        // The common case in one branch-free, vectorisable pass; huge or non-finite
        // coordinates take the general path.
        let mut small = true;
        for ((c, f), &p) in self
            .cell
            .iter_mut()
            .zip(self.frac.iter_mut())
            .zip(positions)
        {
            let x = lattice(p);
            small &= x.abs() < SMALL;
            let (ci, fi) = cell_small(x);
            (*c, *f) = (ci, fi as f32);
        }
        if !small {
            for ((c, f), &p) in self
                .cell
                .iter_mut()
                .zip(self.frac.iter_mut())
                .zip(positions)
            {
                let (ci, fi) = cell(lattice(p));
                (*c, *f) = (ci, fi as f32);
            }
        }
        // One loop per curve, so each is a straight vectorisable map.
        match fade {
            Fade::Linear => curves(&self.frac, &mut self.fade, &mut self.dfade, |t| (t, 1.0)),
            Fade::Hermite => curves(&self.frac, &mut self.fade, &mut self.dfade, |t| {
                (Fade::Hermite.apply_f32(t), Fade::Hermite.derivative_f32(t))
            }),
            Fade::Quintic => curves(&self.frac, &mut self.fade, &mut self.dfade, |t| {
                (Fade::Quintic.apply_f32(t), Fade::Quintic.derivative_f32(t))
            }),
        }
    }
}

fn curves(t: &[f32], fade: &mut [f32], dfade: &mut [f32], f: impl Fn(f32) -> (f32, f32)) {
    for ((t, s), ds) in t.iter().zip(fade.iter_mut()).zip(dfade.iter_mut()) {
        (*s, *ds) = f(*t);
    }
}

/// A block of `lanes` columns whose cells all fit in one `lanes`-wide window.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Block {
    /// Index of the window's first segment.
    pub base: u32,
    /// Whether every lane's cell `k` lies in `base..base + lanes`.
    pub fits: bool,
}

/// The last, partial block, run as a full block over the final `lanes` columns that only
/// stores its lanes from `keep_from` on (the others belong to the last full block).
#[derive(Clone, Debug)]
pub(super) struct Tail {
    /// First column of the overlapping block, `width − lanes`.
    pub first: usize,
    /// The lane from which results are stored.
    pub keep_from: usize,
    pub block: Block,
    /// `k − block.base` of the block's columns.
    pub lane: Vec<i32>,
}

/// The columns of one octave: their [`Axis`] plus where each column's corners sit in the
/// row's lattice arrays.
#[derive(Default)]
pub(super) struct Columns {
    pub axis: Axis,
    /// First lattice column any sample touches.
    pub kmin: i64,
    /// Lattice columns touched, `kmax − kmin + 2` (cells: one less); zero when sparse.
    pub span: usize,
    /// `cell − kmin` of each column (dense only).
    pub k: Vec<u32>,
    /// `k − block.base` of each column in a full block.
    pub lane: Vec<i32>,
    /// SIMD lanes per block: 8 or 16, as the kernel that will run.
    pub lanes: usize,
    /// One per full block of `lanes` columns.
    pub blocks: Vec<Block>,
    /// The partial block after them, if the width is not a multiple of `lanes` (and at least
    /// `lanes`).
    pub tail: Option<Tail>,
}

impl Columns {
    /// Lays out the octave's lattice columns from `axis`. A grid whose columns touch more than
    /// `4 · width + 64` lattice columns (aliasing steps, or non-finite positions) is sparse:
    /// samples then fetch their corners one by one.
    pub fn rebuild(&mut self, lanes: usize) {
        let lanes = lanes.clamp(1, MAX_LANES);
        let cells = &self.axis.cell;
        let width = cells.len();
        let kmin = cells.iter().copied().min().unwrap_or(0);
        let kmax = cells.iter().copied().max().unwrap_or(0);
        let limit = 4 * width as i128 + 64;
        let span = kmax as i128 - kmin as i128 + 2;
        self.kmin = kmin;
        self.lanes = lanes;
        self.k.clear();
        self.lane.clear();
        self.blocks.clear();
        self.tail = None;
        if width == 0 || span > limit {
            self.span = 0;
            return;
        }
        self.span = span as usize;
        self.k.extend(cells.iter().map(|&c| (c - kmin) as u32));
        // A block's window starts at its lowest cell; each lane indexes its cell from there.
        let layout = |chunk: &[u32], lane: &mut Vec<i32>| {
            let lo = chunk.iter().copied().min().unwrap_or(0);
            let hi = chunk.iter().copied().max().unwrap_or(0);
            lane.extend(chunk.iter().map(|&ki| (ki - lo) as i32));
            Block {
                base: lo,
                fits: hi - lo < lanes as u32,
            }
        };
        for chunk in self.k.chunks_exact(lanes) {
            self.blocks.push(layout(chunk, &mut self.lane));
        }
        let full = self.blocks.len() * lanes;
        if full < width && width >= lanes {
            let first = width - lanes;
            let mut lane = Vec::with_capacity(lanes);
            let block = layout(&self.k[first..], &mut lane);
            self.tail = Some(Tail {
                first,
                keep_from: full - first,
                block,
                lane,
            });
        }
    }

    /// Whether the lattice-row arrays are used (see [`Columns::new`]).
    pub fn dense(&self) -> bool {
        self.span > 0
    }
}
