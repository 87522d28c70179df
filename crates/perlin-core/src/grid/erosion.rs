//! The erosion filter on lanes: [`ErosionPlan::apply`](crate::erosion::ErosionPlan) written once
//! over [`Simd`], one sample per lane, applied to a strip of finished heights and gradients.
//!
//! Per strip, each octave's cells that the strip can reach get their jitter and steering
//! direction once ([`CellWindow`]): octave 0's directions from the coarse terrain's gradient at
//! the cells' lattice points (a small grid fill), each later octave's from that plus the earlier
//! octaves' gullies there ([`StripesAt`] over the lattice points). Then every sample blends its
//! 2×2 cells reading them from the windows. Sample cell coordinates come split exactly from
//! `f64` (`p / cell` floored, per column and row), so nothing loses precision far from the origin.

use super::maths;
use crate::erosion::{BELL_RADIUS, CREASE_WIDTH, ErosionOctave, ErosionPlan, JITTER, PHASE, SOFT};
use crate::grid::GridSpec;
use crate::simd::{Int, Kernel, Real, Scalar, Simd};
use crate::tables::NoiseTables;
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
            if plan
                .coarse
                .fill_grid_with_gradient(tables, &spec, &mut self.coarse_values, &mut self.coarse)
                .is_err()
            {
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

/// The jitter `ξ ∈ [−1, 1]²` of cells `(x, y)` (the numbers of [`crate::erosion::jitter`], in
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

/// The filter over a strip of samples (padded width, row-major), in place.
pub(super) struct ErosionPass<'a> {
    pub plan: &'a ErosionPlan,
    pub scratch: &'a ErosionScratch,
    pub width: usize,
    pub strip: Range<usize>,
    /// `[value, ∂/∂x, ∂/∂y]`, replaced by the eroded ones.
    pub samples: [&'a mut [f32]; 3],
    pub creases: &'a mut [f32],
}

/// One octave's numbers on lanes.
struct Constants<S: Simd> {
    floor4: S::F,
    inverse_cell: S::F,
    r2: S::F,
    minus_six_r2: S::F,
    jitter: S::F,
    phase: S::F,
    k: S::F,
    zero: S::F,
    one: S::F,
}

impl<S: Simd> Constants<S> {
    #[inline(always)]
    fn new(s: S, floor: f64, o: &ErosionOctave) -> Self {
        Self {
            floor4: s.splat(floor.powi(4) as f32),
            inverse_cell: s.splat((1.0 / o.cell) as f32),
            r2: s.splat((1.0 / (BELL_RADIUS * BELL_RADIUS)) as f32),
            minus_six_r2: s.splat((-6.0 / (BELL_RADIUS * BELL_RADIUS)) as f32),
            jitter: s.splat(JITTER as f32),
            phase: s.splat(PHASE as f32),
            k: s.splat(std::f64::consts::TAU as f32),
            zero: s.splat(0.0),
            one: s.splat(1.0),
        }
    }
}

/// One octave's blended stripes on lanes: `Ĉ`, `Ŝ` and their gradients (input units).
struct Stripe<F> {
    value: F,
    sine: F,
    gradient: [F; 2],
    sine_gradient: [F; 2],
}

/// The stripes at column block `c` of row `r` of a [`CellAxis`] layout, reading the cells from
/// `window`: picked where the block's cells fit one register, gathered otherwise.
#[inline(always)]
fn stripe_at<S: Simd>(
    s: S,
    k: &Constants<S>,
    window: &CellWindow,
    columns: &CellAxis,
    rows: &CellAxis,
    c: usize,
    r: usize,
) -> Stripe<S::F> {
    let frac = [s.load(&columns.frac[c..]), s.splat(rows.frac[r])];
    let (min, fits) = columns.blocks[c / S::LANES];
    // The window row of the sample row's cell (the taps are it and the next).
    let row = rows.cell[r].wrapping_sub(window.y0);
    // The window column of the block's lowest cell.
    let column = min.wrapping_sub(window.x0);
    let picked = fits
        && (0..=window.rows as i64 - 2).contains(&row)
        && (0..=window.held as i64 - 2).contains(&column);
    let (w_sum, c_sum, s_sum, sums) = if picked {
        let source = Picked {
            window,
            row: row as usize,
            column: column as usize,
            lanes: s.load_int(&columns.lane[c..]),
        };
        blend(s, k, frac, &source)
    } else {
        let source = Gathered {
            window,
            x: s.load_int(&columns.low[c..])
                .sub(s.splat_int(window.x0 as u32)),
            y: s.splat_int(rows.low[r].wrapping_sub(window.y0 as u32)),
            stride: s.splat_int(window.stride as u32),
        };
        blend(s, k, frac, &source)
    };
    finish_stripe(k, w_sum, c_sum, s_sum, sums)
}

/// Where a block of lanes finds its cells' `[ξx, ξy, tx, ty]`. A trait, not a closure: closures
/// are not always inlined into the target-feature function, and every lane operation in one
/// would become a call.
trait CellSource<S: Simd> {
    /// The data of the cells at offset `(dx, dy)` (each 0 or 1) from every lane's cell.
    fn cell(&self, s: S, dx: usize, dy: usize) -> [S::F; 4];
}

/// Cells picked from one window row per tap: the block's cells fit a register.
struct Picked<'a, S: Simd> {
    window: &'a CellWindow,
    /// Window row of the samples' cell row.
    row: usize,
    /// Window column of the block's lowest cell.
    column: usize,
    lanes: S::I,
}

impl<S: Simd> CellSource<S> for Picked<'_, S> {
    #[inline(always)]
    fn cell(&self, s: S, dx: usize, dy: usize) -> [S::F; 4] {
        let w = self.window;
        let at = (self.row + dy) * w.stride + self.column + dx;
        [
            s.pick(&w.data[XI_X][at..], self.lanes),
            s.pick(&w.data[XI_Y][at..], self.lanes),
            s.pick(&w.data[T_X][at..], self.lanes),
            s.pick(&w.data[T_Y][at..], self.lanes),
        ]
    }
}

/// Cells gathered lane by lane from the window.
struct Gathered<'a, S: Simd> {
    window: &'a CellWindow,
    /// The lanes' window column and row.
    x: S::I,
    y: S::I,
    stride: S::I,
}

impl<S: Simd> CellSource<S> for Gathered<'_, S> {
    #[inline(always)]
    fn cell(&self, s: S, dx: usize, dy: usize) -> [S::F; 4] {
        let index = self
            .x
            .add(s.splat_int(dx as u32))
            .add(self.y.add(s.splat_int(dy as u32)).mul(self.stride));
        let w = self.window;
        [
            index.gather(&w.data[XI_X]),
            index.gather(&w.data[XI_Y]),
            index.gather(&w.data[T_X]),
            index.gather(&w.data[T_Y]),
        ]
    }
}

/// The running sums of a blend: `[Σ∇w, Σ∇w·cos, Σ∇w·sin, Σw·sin·t, Σw·cos·t]`, each a vector.
type Sums<F> = [[F; 2]; 5];

/// Blends the 2×2 cells around `frac`, reading each cell's `[ξx, ξy, tx, ty]` from `source`.
#[inline(always)]
fn blend<S: Simd>(
    s: S,
    k: &Constants<S>,
    frac: [S::F; 2],
    source: &impl CellSource<S>,
) -> (S::F, S::F, S::F, Sums<S::F>) {
    let zero = k.zero;
    let (mut w_sum, mut c_sum, mut s_sum) = (zero, zero, zero);
    let mut sums = [[zero; 2]; 5];
    for dy in 0..=1 {
        let qy0 = frac[1] - s.splat(dy as f32);
        for dx in 0..=1 {
            let [xi_x, xi_y, tx, ty] = source.cell(s, dx, dy);
            let q = [
                k.jitter.mul_add(-xi_x, frac[0] - s.splat(dx as f32)),
                k.jitter.mul_add(-xi_y, qy0),
            ];
            let ((wx, dwx), (wy, dwy)) = (bell(k, q[0]), bell(k, q[1]));
            let w = wx * wy;
            let dw = [dwx * wy, wx * dwy];
            let x = q[0].mul_add(tx, q[1] * ty) + k.phase;
            let (sn, cs) = maths::sin_cos_turns(s, x);
            w_sum = w_sum + w;
            c_sum = w.mul_add(cs, c_sum);
            s_sum = w.mul_add(sn, s_sum);
            let (ws, wc) = (w * sn, w * cs);
            let t = [tx, ty];
            for a in 0..2 {
                sums[0][a] = sums[0][a] + dw[a];
                sums[1][a] = dw[a].mul_add(cs, sums[1][a]);
                sums[2][a] = dw[a].mul_add(sn, sums[2][a]);
                sums[3][a] = ws.mul_add(t[a], sums[3][a]);
                sums[4][a] = wc.mul_add(t[a], sums[4][a]);
            }
        }
    }
    (w_sum, c_sum, s_sum, sums)
}

/// The bell along one axis at offset `t` from a cell centre and its slope (the numbers of
/// [`crate::erosion::bell`]).
#[inline(always)]
fn bell<S: Simd>(k: &Constants<S>, t: S::F) -> (S::F, S::F) {
    let b = (k.one - t * t * k.r2).max(k.zero);
    let b2 = b * b;
    (b2 * b, k.minus_six_r2 * t * b2)
}

/// `Ĉ`, `Ŝ` and their gradients from a blend's sums (see [`crate::erosion`]).
#[inline(always)]
fn finish_stripe<S: Simd>(
    k: &Constants<S>,
    w_sum: S::F,
    c_sum: S::F,
    s_sum: S::F,
    [bw, bc, bs, st, ct]: Sums<S::F>,
) -> Stripe<S::F> {
    let inverse = k.one / w_sum;
    let (c, sn) = (c_sum * inverse, s_sum * inverse);
    // ∇C, ∇S in cell units.
    let mut grad_c = [k.zero; 2];
    let mut grad_s = [k.zero; 2];
    for a in 0..2 {
        grad_c[a] = (bc[a] - c * bw[a] - k.k * st[a]) * inverse;
        grad_s[a] = (bs[a] - sn * bw[a] + k.k * ct[a]) * inverse;
    }
    // Renormalised by m = (ρ⁴ + floor⁴)^¼ (see `crate::erosion`).
    let rho2 = c.mul_add(c, sn * sn);
    let m4 = rho2.mul_add(rho2, k.floor4);
    let m = m4.sqrt().sqrt();
    let (inverse_m, inverse_m4) = (k.one / m, k.one / m4);
    let mut gradient = [k.zero; 2];
    let mut sine_gradient = [k.zero; 2];
    for a in 0..2 {
        let p = c.mul_add(grad_c[a], sn * grad_s[a]) * rho2 * inverse_m4;
        gradient[a] = (grad_c[a] - c * p) * inverse_m * k.inverse_cell;
        sine_gradient[a] = (grad_s[a] - sn * p) * inverse_m * k.inverse_cell;
    }
    Stripe {
        value: c * inverse_m,
        sine: sn * inverse_m,
        gradient,
        sine_gradient,
    }
}

/// `(easeOut(t), easeOut′(t))` on lanes, `t` clamped to 0..1.
#[inline(always)]
fn ease_out<S: Simd>(s: S, t: S::F) -> (S::F, S::F) {
    let (zero, one) = (s.splat(0.0), s.splat(1.0));
    let r = one - t.max(zero).min(one);
    (
        one - r * r,
        s.splat(2.0) * r * S::F::select(t.lt(one), one, zero),
    )
}

impl Kernel for ErosionPass<'_> {
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(self, s: S) {
        let plan = self.plan;
        let scratch = self.scratch;
        let (zero, one) = (s.splat(0.0), s.splat(1.0));
        let half = s.splat(plan.half_range as f32);
        let preserve = s.splat(plan.preserve as f32);
        let detail = s.splat(plan.detail as f32);
        let inv_onset = s.splat((1.0 / plan.onset_slope) as f32);
        let inv_width = s.splat((1.0 / CREASE_WIDTH) as f32);
        let (soft1, soft2) = (s.splat(SOFT as f32), s.splat((SOFT * SOFT) as f32));
        let [values, gx, gy] = self.samples;
        if plan.octaves.is_empty() {
            // Every octave left out: heights stay, creases are the limit of the weighted
            // filter as the weights go to 0 (see `ErosionPlan::apply`).
            for r in self.strip.clone() {
                for c in (0..self.width).step_by(S::LANES) {
                    let i = (r - self.strip.start) * self.width + c;
                    let relief = (s.load(&values[i..]) / half).max(-one).min(one);
                    (s.splat(0.5) - s.splat(0.5) * relief).store(&mut self.creases[i..]);
                }
            }
            return;
        }
        for r in self.strip.clone() {
            for c in (0..self.width).step_by(S::LANES) {
                let i = (r - self.strip.start) * self.width + c;
                let h = s.load(&values[i..]);
                let g = [s.load(&gx[i..]), s.load(&gy[i..])];
                let relief = (h / half).max(-one).min(one);
                let d_relief = S::F::select(h.abs().lt(half), one / half, zero);
                let tau0 = preserve * relief;
                let dtau0 = [g[0] * preserve * d_relief, g[1] * preserve * d_relief];
                let (mut tau, mut dtau) = (tau0, dtau0);
                let (slope, dslope) = coarse_slope(s, scratch, c, r);
                let (e, de) = ease_out(s, slope * inv_onset);
                let mut mask = e;
                let mut dmask = [de * dslope[0] * inv_onset, de * dslope[1] * inv_onset];
                let (mut ridge, mut ridge_mask) = (relief, mask);
                let (mut value, mut gradient) = (h, g);
                for (m, o) in plan.octaves.iter().enumerate() {
                    let constants = Constants::new(s, plan.floor, o);
                    let st = stripe_at(
                        s,
                        &constants,
                        &scratch.windows[m],
                        &scratch.columns[m],
                        &scratch.rows[m],
                        c,
                        r,
                    );
                    let a = s.splat((o.amplitude * o.weight) as f32);
                    let weight = s.splat(o.weight as f32);
                    // Fade from the target towards the gully, then add it above the first target.
                    let gap = st.value - tau;
                    let f = mask.mul_add(gap, tau);
                    let mut df = [zero; 2];
                    for k in 0..2 {
                        df[k] =
                            dmask[k].mul_add(gap, mask.mul_add(st.gradient[k] - dtau[k], dtau[k]));
                        gradient[k] = a.mul_add(df[k] - dtau0[k], gradient[k]);
                    }
                    value = a.mul_add(f - tau0, value);
                    (tau, dtau) = (f, df);
                    ridge = (ridge_mask * weight).mul_add(st.value - ridge, ridge);
                    if m + 1 == plan.octaves.len() {
                        break; // no next octave to mask
                    }
                    // The next mask: (1 − (1 − μ)^D) · easeOut(|Ŝ| / width).
                    // |Ŝ| smoothed, √(Ŝ² + ε²) − ε (see `crate::erosion`).
                    let soft = st.sine.mul_add(st.sine, soft2).sqrt();
                    let (open, dopen) = ease_out(s, (soft - soft1) * inv_width);
                    let k_open = dopen * st.sine / soft * inv_width;
                    let rest = one - mask;
                    let safe = s.splat(1.0e-30).max(rest);
                    let powered = maths::exp2(s, maths::log2(s, safe) * detail);
                    let kept = one - powered;
                    let dkept = S::F::select(zero.lt(rest), detail * powered / safe, zero);
                    let (carry, opening) = (dkept * open, kept * k_open);
                    let [sx, sy] = st.sine_gradient;
                    dmask = [
                        carry.mul_add(dmask[0], opening * sx),
                        carry.mul_add(dmask[1], opening * sy),
                    ];
                    mask = kept * open;
                    ridge_mask = ridge_mask * open;
                }
                value.store(&mut values[i..]);
                gradient[0].store(&mut gx[i..]);
                gradient[1].store(&mut gy[i..]);
                (s.splat(0.5) - s.splat(0.5) * ridge).store(&mut self.creases[i..]);
            }
        }
    }
}

/// The coarse slope at column block `c` of row `r`: the length of the coarse gradient
/// interpolated bilinearly between octave 0's lattice points, and its gradient.
#[inline(always)]
fn coarse_slope<S: Simd>(s: S, scratch: &ErosionScratch, c: usize, r: usize) -> (S::F, [S::F; 2]) {
    let window = &scratch.windows[0];
    let (columns, rows) = (&scratch.columns[0], &scratch.rows[0]);
    let zero = s.splat(0.0);
    // The cell's lower corner is the samples' cell.
    let fx = s.load(&columns.frac[c..]);
    let fy = s.splat(rows.frac[r]);
    let cx = s
        .load_int(&columns.low[c..])
        .sub(s.splat_int(window.x0 as u32));
    let cy = rows.low[r].wrapping_sub(window.y0 as u32);
    let stride = window.stride as u32;
    let row0 = s.splat_int(cy.wrapping_mul(stride));
    let row1 = s.splat_int(cy.wrapping_add(1).wrapping_mul(stride));
    let (i00, i01) = (cx.add(row0), cx.add(row1));
    let (i10, i11) = (i00.add(s.splat_int(1)), i01.add(s.splat_int(1)));
    let [gx, gy] = &window.coarse;
    let g00 = [i00.gather(gx), i00.gather(gy)];
    let g10 = [i10.gather(gx), i10.gather(gy)];
    let g01 = [i01.gather(gx), i01.gather(gy)];
    let g11 = [i11.gather(gx), i11.gather(gy)];
    let inverse_cell = s.splat((1.0 / scratch.cell0) as f32);
    let mut v = [zero; 2];
    let mut dv_dx = [zero; 2];
    let mut dv_dy = [zero; 2];
    for a in 0..2 {
        let lo = fx.mul_add(g10[a] - g00[a], g00[a]);
        let hi = fx.mul_add(g11[a] - g01[a], g01[a]);
        v[a] = fy.mul_add(hi - lo, lo);
        let (dlo, dhi) = (g10[a] - g00[a], g11[a] - g01[a]);
        dv_dx[a] = fy.mul_add(dhi - dlo, dlo) * inverse_cell;
        dv_dy[a] = (hi - lo) * inverse_cell;
    }
    let slope = v[0].mul_add(v[0], v[1] * v[1]).sqrt();
    let inverse = S::F::select(zero.lt(slope), s.splat(1.0) / slope, zero);
    let grad = [
        v[0].mul_add(dv_dx[0], v[1] * dv_dx[1]) * inverse,
        v[0].mul_add(dv_dy[0], v[1] * dv_dy[1]) * inverse,
    ];
    (slope, grad)
}
