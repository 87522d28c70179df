//! Per-axis work of one octave, done once per column (or row) and reused by every sample on it.

use crate::fade::Fade;
use crate::fbm::Octave;
use crate::lattice::cell;

/// SIMD lanes per block of columns.
pub(super) const LANES: usize = 8;

/// Lattice cells, offsets and fade weights of one octave along one axis.
pub(super) struct Axis {
    /// Lattice cell of each position.
    pub cell: Vec<i64>,
    /// Offset inside the cell, `t`.
    pub frac: Vec<f32>,
    /// `t − 1`, the offset from the far corner.
    pub frac_m1: Vec<f32>,
    /// `s(t)`.
    pub fade: Vec<f32>,
    /// `s′(t)`.
    pub dfade: Vec<f32>,
}

impl Axis {
    /// `positions` are world coordinates; the octave scales and shifts them into lattice space.
    pub fn new(positions: &[f64], octave: &Octave, fade: Fade) -> Self {
        let n = positions.len();
        let mut axis = Axis {
            cell: Vec::with_capacity(n),
            frac: Vec::with_capacity(n),
            frac_m1: Vec::with_capacity(n),
            fade: Vec::with_capacity(n),
            dfade: Vec::with_capacity(n),
        };
        for &p in positions {
            let (c, f) = cell(p * octave.frequency + octave.shift);
            let t = f as f32;
            axis.cell.push(c);
            axis.frac.push(t);
            axis.frac_m1.push(t - 1.0);
            axis.fade.push(fade.apply_f32(t));
            axis.dfade.push(fade.derivative_f32(t));
        }
        axis
    }
}

/// A block of [`LANES`] columns whose corners all fit in one 8-wide window of lattice values.
#[derive(Clone, Copy, Debug)]
pub(super) struct Block {
    /// Index of the window's first lattice value.
    pub base: u32,
    /// Whether every lane's `k` and `k + 1` lie in `base..base + 8`.
    pub fits: bool,
}

/// The columns of one octave: their [`Axis`] plus where each column's corners sit in the
/// row's lattice arrays.
pub(super) struct Columns {
    pub axis: Axis,
    /// First lattice column any sample touches.
    pub kmin: i64,
    /// Lattice columns touched, `kmax − kmin + 2`; zero when the grid is sparse.
    pub span: usize,
    /// `cell − kmin` of each column (dense only).
    pub k: Vec<u32>,
    /// `k − block.base` of each column in a full block.
    pub lane: Vec<i32>,
    /// One per full block of [`LANES`] columns.
    pub blocks: Vec<Block>,
}

impl Columns {
    /// Lays out the octave's lattice columns. A grid whose columns touch more than
    /// `4 · width + 64` lattice columns (aliasing steps, or non-finite positions) is sparse:
    /// samples then fetch their corners one by one.
    pub fn new(axis: Axis) -> Self {
        let width = axis.cell.len();
        let kmin = axis.cell.iter().copied().min().unwrap_or(0);
        let kmax = axis.cell.iter().copied().max().unwrap_or(0);
        let limit = 4 * width as i128 + 64;
        let span = kmax as i128 - kmin as i128 + 2;
        if width == 0 || span > limit {
            return Columns {
                axis,
                kmin,
                span: 0,
                k: Vec::new(),
                lane: Vec::new(),
                blocks: Vec::new(),
            };
        }
        let k: Vec<u32> = axis.cell.iter().map(|&c| (c - kmin) as u32).collect();
        let mut lane = Vec::with_capacity(width);
        let mut blocks = Vec::with_capacity(width / LANES);
        for chunk in k.chunks_exact(LANES) {
            let lo = chunk.iter().copied().min().unwrap_or(0);
            let hi = chunk.iter().copied().max().unwrap_or(0);
            blocks.push(Block {
                base: lo,
                fits: hi + 1 - lo < LANES as u32,
            });
            lane.extend(chunk.iter().map(|&ki| (ki - lo) as i32));
        }
        Columns {
            axis,
            kmin,
            span: span as usize,
            k,
            lane,
            blocks,
        }
    }

    /// Whether the lattice-row arrays are used (see [`Columns::new`]).
    pub fn dense(&self) -> bool {
        self.span > 0
    }
}
