//! The erosion filter on lanes: [`ErosionPlan::apply`] written once over [`Simd`], one sample
//! per lane, applied to a strip of finished heights and gradients.
//!
//! Per strip, each octave's cells that the strip can reach get their jitter and steering
//! direction once ([`CellWindow`]): octave 0's directions from the coarse terrain's gradient at
//! the cells' lattice points (a small grid fill), each later octave's from that plus the earlier
//! octaves' gullies there ([`StripesAt`] over the lattice points). Then every sample blends its
//! 2×2 cells reading them from the windows. Sample cell coordinates come split exactly from
//! `f64` (`p / cell` floored, per column and row), so nothing loses precision far from the origin.
//!
//! This file works out the windows of cells a strip reads; `pass.rs` is the filter itself, over
//! a strip's samples.

mod pass;

pub(super) use pass::ErosionPass;

use super::maths;
use crate::fbm::erosion::{ErosionOctave, ErosionPlan};
use crate::grid::{GridFill, GridSpec};
use crate::simd::{Int, Kernel, Real, Scalar, Simd};
use crate::tables::NoiseTables;
use pass::{Constants, stripe_at};
use std::ops::Range;

/// Cells of margin each octave's window keeps around the cells its samples sit in, finest
/// octave last. The finest needs one, above, for the taps (`n` and `n + 1`). A coarser octave
/// also holds the steering of every lattice point of the next finer window, whose `M` cells of
/// margin (size `c`) reach `(M + 1)·c` below its samples (their cells are floored) and `M·c`
/// above: `⌈(M + 1)·c/cᵢ⌉` of its own cells below, and `⌈M·c/cᵢ⌉` plus one for the taps above
/// (each with a hundredth of a cell to spare, against rounding).
fn margins(plan: &ErosionPlan) -> Vec<i64> {
    let mut margins = vec![1i64; plan.octaves.len()];
    for i in (0..plan.octaves.len().saturating_sub(1)).rev() {
        let ratio = plan.octaves[i + 1].cell / plan.octaves[i].cell;
        let finer = margins[i + 1] as f64;
        let below = ((finer + 1.0) * ratio + 0.01).ceil();
        let above = (finer * ratio + 0.01).ceil() + 1.0;
        margins[i] = below.max(above).clamp(1.0, 64.0) as i64;
    }
    margins
}

/// One erosion octave's cells along one axis: `floor(p / cell)` and the rest, and, per block of
/// lanes, the lowest cell and each lane's offset from it (for register-wide picks).
#[derive(Default)]
pub(super) struct CellAxis {
    pub cell: Vec<i64>,
    pub low: Vec<u32>,
    pub frac: Vec<f32>,
    /// `cell − min` of each column, `min` the lowest cell of its block.
    lane: Vec<u32>,
    /// Per block: its lowest cell, and whether its cells fit one pick (`max − min < lanes`).
    blocks: Vec<(i64, bool)>,
}

impl CellAxis {
    /// The cells of `positions` for cells of size `cell`, in blocks of `lanes`.
    pub fn rebuild(&mut self, positions: &[f64], cell: f64, lanes: usize) {
        self.cell.clear();
        self.low.clear();
        self.frac.clear();
        for &p in positions {
            let u = p / cell;
            let n = u.floor();
            // `as i64` saturates for huge or non-finite values; the offset is then NaN or
            // meaningless, never out of bounds.
            self.cell.push(n as i64);
            self.low.push(n as i64 as u32);
            self.frac.push((u - n) as f32);
        }
        self.lane.clear();
        self.blocks.clear();
        for chunk in self.cell.chunks(lanes) {
            let min = chunk.iter().copied().min().unwrap_or(0);
            let max = chunk.iter().copied().max().unwrap_or(0);
            self.lane
                .extend(chunk.iter().map(|&c| c.wrapping_sub(min) as u32));
            self.blocks
                .push((min, (max as i128 - min as i128) < lanes as i128));
        }
    }

    /// The lowest and highest cell of `range`.
    fn bounds(&self, range: Range<usize>) -> (i64, i64) {
        let cells = &self.cell[range];
        (
            cells.iter().copied().min().unwrap_or(0),
            cells.iter().copied().max().unwrap_or(0),
        )
    }
}

/// Channels of a [`CellWindow`].
const XI_X: usize = 0;
const XI_Y: usize = 1;
const T_X: usize = 2;
const T_Y: usize = 3;

/// An octave's cells around a strip: jitter `ξ` and stripe direction `t` (the steering direction
/// turned a quarter) of each, and for octave 0 the coarse terrain's gradient too. Row-major,
/// rows padded by a register so that a pick at any held column stays in its row.
#[derive(Default)]
pub(super) struct CellWindow {
    x0: i64,
    y0: i64,
    held: usize,
    stride: usize,
    rows: usize,
    data: [Vec<f32>; 4],
    coarse: [Vec<f32>; 2],
}

/// The erosion scratch of one fill: per octave, the cells of the columns and rows, and the
/// windows of the current strip; plus buffers for working out the windows.
#[derive(Default)]
pub(super) struct ErosionScratch {
    pub columns: Vec<CellAxis>,
    pub rows: Vec<CellAxis>,
    pub windows: Vec<CellWindow>,
    /// Positions of lattice points, and their cells in a coarser octave.
    lattice_x: Vec<f64>,
    lattice_y: Vec<f64>,
    at_columns: CellAxis,
    at_rows: CellAxis,
    /// Steering vectors and coarse gradients at lattice points.
    steer: [Vec<f32>; 2],
    coarse_values: Vec<f32>,
    coarse: Vec<[f32; 2]>,
    /// Octave 0's cell size.
    cell0: f64,
    /// Each octave's window margin (see [`margins`]).
    margins: Vec<i64>,
}

impl ErosionScratch {
    /// Lays out the cells of every octave for the grid's columns `xs` (padded to whole
    /// registers; `real` are the grid's own) and rows `ys`. `false` if the positions are too far
    /// out for the cell arithmetic (non-finite, or cells beyond what `i64` and the windows
    /// address): the whole fill is then left uneroded.
    pub fn prepare(
        &mut self,
        plan: &ErosionPlan,
        real: &[f64],
        xs: &[f64],
        ys: &[f64],
        lanes: usize,
    ) -> bool {
        let count = plan.octaves.len();
        self.columns.resize_with(count, CellAxis::default);
        self.rows.resize_with(count, CellAxis::default);
        self.windows.resize_with(count, CellWindow::default);
        self.cell0 = plan.octaves.first().map_or(1.0, |o| o.cell);
        self.margins = margins(plan);
        let addressable = |positions: &[f64], cell: f64| {
            let (lo, hi) = positions
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &p| {
                    (l.min(p), h.max(p))
                });
            let limit = (1u64 << 52) as f64;
            positions.iter().all(|p| p.is_finite())
                && (lo / cell).abs() < limit
                && (hi / cell).abs() < limit
                && (hi - lo) / cell < (1u64 << 21) as f64
        };
        for (k, o) in plan.octaves.iter().enumerate() {
            if !(addressable(real, o.cell) && addressable(ys, o.cell)) {
                return false;
            }
            self.columns[k].rebuild(xs, o.cell, lanes);
            self.rows[k].rebuild(ys, o.cell, 1);
        }
        true
    }

    /// Works out every octave's window for the grid rows `strip`: jitter, then steering
    /// directions, coarsest octave first. The plan holds only octaves whose cells are at least
    /// an eighth of the grid's step ([`EROSION_CELLS_PER_STEP`](super::EROSION_CELLS_PER_STEP)),
    /// so a window holds at most about 64 cells per sample, plus its margins.
    pub fn windows_for(
        &mut self,
        isa: crate::simd::Isa,
        tables: &NoiseTables,
        plan: &ErosionPlan,
        strip: Range<usize>,
    ) {
        for i in 0..plan.octaves.len() {
            let (x_lo, x_hi) = self.columns[i].bounds(0..self.columns[i].cell.len());
            let (y_lo, y_hi) = self.rows[i].bounds(strip.clone());
            let margin = self.margins[i];
            let (x0, y0) = (x_lo.saturating_sub(margin), y_lo.saturating_sub(margin));
            let w = &mut self.windows[i];
            (w.x0, w.y0) = (x0, y0);
            w.held =
                (x_hi.saturating_add(margin) as i128 - x0 as i128 + 1).clamp(0, 1 << 22) as usize;
            w.rows =
                (y_hi.saturating_add(margin) as i128 - y0 as i128 + 1).clamp(0, 1 << 22) as usize;
        }
        for i in 0..plan.octaves.len() {
            let o = plan.octaves[i];
            let w = &mut self.windows[i];
            let (x0, y0, held, rows) = (w.x0, w.y0, w.held, w.rows);
            let points = held * rows;
            w.stride = held + crate::simd::MAX_LANES;
            for v in &mut w.data {
                v.clear();
                v.resize(w.stride * rows, 0.0);
            }
            // Jitter, from the same lane code as the samples would hash it with.
            for j in 0..rows {
                let y = y0.wrapping_add(j as i64) as u32;
                for k in 0..held {
                    let x = x0.wrapping_add(k as i64) as u32;
                    let [a, b] = jitter(Scalar, o.keys, x, y);
                    w.data[XI_X][j * w.stride + k] = a;
                    w.data[XI_Y][j * w.stride + k] = b;
                }
            }
            // The coarse gradient at the lattice points `n · cell`.
            let spec = GridSpec {
                origin: [0.0, 0.0],
                step: [o.cell, o.cell],
                start: [x0, y0],
                size: [held, rows],
            };
            self.coarse_values.resize(points, 0.0);
            self.coarse.resize(points, [0.0; 2]);
            let fill = GridFill::new(&mut self.coarse_values).gradients(&mut self.coarse);
            if plan.coarse.fill(tables, &spec, fill).is_err() {
                self.coarse.fill([0.0; 2]);
            }
            // Steering: the coarse direction at octave 0's steepness...
            for s in &mut self.steer {
                s.clear();
                s.resize(points, 0.0);
            }
            let steer = plan.steer as f32;
            for (p, g) in self.coarse.iter().enumerate() {
                let length = g[0].mul_add(g[0], g[1] * g[1]).sqrt();
                let (dx, dy) = if length > 0.0 {
                    (g[0] / length, g[1] / length)
                } else {
                    (1.0, 0.0)
                };
                self.steer[0][p] = dx * steer;
                self.steer[1][p] = dy * steer;
            }
            if i == 0 {
                for (c, v) in w.coarse.iter_mut().enumerate() {
                    v.clear();
                    v.resize(w.stride * rows, 0.0);
                    for j in 0..rows {
                        for k in 0..held {
                            v[j * w.stride + k] = self.coarse[j * held + k][c];
                        }
                    }
                }
            }
            // ...plus the gullies of every coarser octave there.
            if i > 0 {
                // Padded to whole registers; the padding's results are dropped.
                let padded = held.div_ceil(isa.lanes()) * isa.lanes();
                self.lattice_x.clear();
                self.lattice_x
                    .extend((0..padded).map(|k| x0.wrapping_add(k as i64) as f64 * o.cell));
                self.lattice_y.clear();
                self.lattice_y
                    .extend((0..rows).map(|j| y0.wrapping_add(j as i64) as f64 * o.cell));
                for m in 0..i {
                    let om = plan.octaves[m];
                    let lanes = isa.lanes();
                    self.at_columns.rebuild(&self.lattice_x, om.cell, lanes);
                    self.at_rows.rebuild(&self.lattice_y, om.cell, 1);
                    let (windows, _) = self.windows.split_at(i);
                    isa.run(StripesAt {
                        plan,
                        octave: om,
                        window: &windows[m],
                        columns: &self.at_columns,
                        rows: &self.at_rows,
                        held,
                        steer: &mut self.steer,
                    });
                }
            }
            // The stripe direction: the steering direction turned a quarter.
            let w = &mut self.windows[i];
            for j in 0..rows {
                for k in 0..held {
                    let p = j * held + k;
                    let (sx, sy) = (self.steer[0][p], self.steer[1][p]);
                    let length = sx.mul_add(sx, sy * sy).sqrt();
                    let (dx, dy) = if length > 0.0 {
                        (sx / length, sy / length)
                    } else {
                        (1.0, 0.0)
                    };
                    w.data[T_X][j * w.stride + k] = -dy;
                    w.data[T_Y][j * w.stride + k] = dx;
                }
            }
        }
    }
}

/// The jitter `ξ ∈ [−1, 1]²` of cells `(x, y)` (the numbers of [`crate::fbm::erosion::jitter`], in
/// `f32`).
#[inline(always)]
fn jitter<S: Simd>(s: S, keys: [u32; 2], x: S::I, y: S::I) -> [S::F; 2] {
    let h = maths::mix2(s, keys, x, y);
    let (unit, one) = (s.splat((2.0 / 65535.0) as f32), s.splat(1.0));
    // Multiply, then subtract (no `mul_add`): the windows are filled outside the FMA
    // target-feature functions, where `mul_add` would be a libm call.
    [
        (h & s.splat_int(0xffff)).to_real() * unit - one,
        h.shr(16).to_real() * unit - one,
    ]
}

/// Adds `amplitude · ∇Ĉ` of a coarser octave to the steering vectors of a finer octave's lattice
/// points (laid out as `columns × rows`).
struct StripesAt<'a> {
    plan: &'a ErosionPlan,
    octave: ErosionOctave,
    window: &'a CellWindow,
    columns: &'a CellAxis,
    rows: &'a CellAxis,
    /// Lattice points per row (the columns beyond are padding).
    held: usize,
    steer: &'a mut [Vec<f32>; 2],
}

impl Kernel for StripesAt<'_> {
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(self, s: S) {
        let (width, held) = (self.columns.cell.len(), self.held);
        let constants = Constants::new(s, self.plan.floor, &self.octave);
        let amplitude = s.splat(self.octave.amplitude as f32);
        let mut gx = [0f32; 16];
        let mut gy = [0f32; 16];
        for r in 0..self.rows.cell.len() {
            for c in (0..width).step_by(S::LANES) {
                let stripe = stripe_at(s, &constants, self.window, self.columns, self.rows, c, r);
                (amplitude * stripe.gradient[0]).store(&mut gx);
                (amplitude * stripe.gradient[1]).store(&mut gy);
                let lanes = S::LANES.min(held.saturating_sub(c));
                let at = r * held + c;
                for l in 0..lanes {
                    self.steer[0][at + l] += gx[l];
                    self.steer[1][at + l] += gy[l];
                }
            }
        }
    }
}
