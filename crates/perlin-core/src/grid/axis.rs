//! Per-axis work of one octave, done once per column (or row) and reused by every sample on it.

use crate::fade::Fade;
use crate::fbm::Octave;
use crate::lattice::cell;

/// The most SIMD lanes a kernel uses (AVX-512: sixteen `f32`).
pub(super) const MAX_LANES: usize = 16;

/// Lattice cells, offsets and fade weights of one octave along one axis.
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
    /// `positions` are world coordinates; the octave scales and shifts them into lattice space.
    pub fn new(positions: &[f64], octave: &Octave, fade: Fade) -> Self {
        let (cells, frac): (Vec<i64>, Vec<f32>) = positions
            .iter()
            .map(|&p| {
                let (c, f) = cell(p * octave.frequency + octave.shift);
                (c, f as f32)
            })
            .unzip();
        // One loop per curve, so each is a straight vectorisable map.
        let (fade, dfade) = match fade {
            Fade::Linear => (frac.clone(), vec![1.0; frac.len()]),
            Fade::Hermite => (
                curve(&frac, |t| Fade::Hermite.apply_f32(t)),
                curve(&frac, |t| Fade::Hermite.derivative_f32(t)),
            ),
            Fade::Quintic => (
                curve(&frac, |t| Fade::Quintic.apply_f32(t)),
                curve(&frac, |t| Fade::Quintic.derivative_f32(t)),
            ),
        };
        Axis {
            cell: cells,
            frac,
            fade,
            dfade,
        }
    }
}

fn curve(t: &[f32], f: impl Fn(f32) -> f32) -> Vec<f32> {
    t.iter().map(|&t| f(t)).collect()
}

/// A block of `lanes` columns whose cells all fit in one `lanes`-wide window.
#[derive(Clone, Copy, Debug)]
pub(super) struct Block {
    /// Index of the window's first segment.
    pub base: u32,
    /// Whether every lane's cell `k` lies in `base..base + lanes`.
    pub fits: bool,
}

/// The columns of one octave: their [`Axis`] plus where each column's corners sit in the
/// row's lattice arrays.
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
}

impl Columns {
    /// Lays out the octave's lattice columns. A grid whose columns touch more than
    /// `4 · width + 64` lattice columns (aliasing steps, or non-finite positions) is sparse:
    /// samples then fetch their corners one by one.
    pub fn new(axis: Axis, lanes: usize) -> Self {
        let lanes = lanes.clamp(1, MAX_LANES);
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
                lanes,
                blocks: Vec::new(),
            };
        }
        let k: Vec<u32> = axis.cell.iter().map(|&c| (c - kmin) as u32).collect();
        let mut lane = Vec::with_capacity(width);
        let mut blocks = Vec::with_capacity(width / lanes);
        for chunk in k.chunks_exact(lanes) {
            let lo = chunk.iter().copied().min().unwrap_or(0);
            let hi = chunk.iter().copied().max().unwrap_or(0);
            blocks.push(Block {
                base: lo,
                fits: hi - lo < lanes as u32,
            });
            lane.extend(chunk.iter().map(|&ki| (ki - lo) as i32));
        }
        Columns {
            axis,
            kmin,
            span: span as usize,
            k,
            lane,
            lanes,
            blocks,
        }
    }

    /// Whether the lattice-row arrays are used (see [`Columns::new`]).
    pub fn dense(&self) -> bool {
        self.span > 0
    }
}
