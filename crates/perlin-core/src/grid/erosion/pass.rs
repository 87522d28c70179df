//! The erosion filter over a strip of finished heights and gradients, one sample per lane: each
//! octave's stripes blended from the 2×2 cells around the sample (read from the strip's
//! [`CellWindow`]s), faded in by the slope mask and added up as [`ErosionPlan::apply`] does.

use super::{CellAxis, CellWindow, ErosionScratch, T_X, T_Y, XI_X, XI_Y};
use crate::fbm::erosion::{
    BELL_RADIUS, CREASE_WIDTH, ErosionOctave, ErosionPlan, JITTER, PHASE, SOFT,
};
use crate::grid::maths;
use crate::simd::{Int, Kernel, Real, Simd};
use std::ops::Range;

/// The filter over a strip of samples (padded width, row-major), in place.
pub(in crate::grid) struct ErosionPass<'a> {
    pub plan: &'a ErosionPlan,
    pub scratch: &'a ErosionScratch,
    pub width: usize,
    pub strip: Range<usize>,
    /// `[value, ∂/∂x, ∂/∂y]`, replaced by the eroded ones.
    pub samples: [&'a mut [f32]; 3],
    pub creases: &'a mut [f32],
}

/// One octave's numbers on lanes.
pub(super) struct Constants<S: Simd> {
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
    pub(super) fn new(s: S, floor: f64, o: &ErosionOctave) -> Self {
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
pub(super) struct Stripe<F> {
    pub value: F,
    pub sine: F,
    pub gradient: [F; 2],
    pub sine_gradient: [F; 2],
}

/// The stripes at column block `c` of row `r` of a [`CellAxis`] layout, reading the cells from
/// `window`: picked where the block's cells fit one register, gathered otherwise.
#[inline(always)]
pub(super) fn stripe_at<S: Simd>(
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
/// [`crate::fbm::erosion::bell`]).
#[inline(always)]
fn bell<S: Simd>(k: &Constants<S>, t: S::F) -> (S::F, S::F) {
    let b = (k.one - t * t * k.r2).max(k.zero);
    let b2 = b * b;
    (b2 * b, k.minus_six_r2 * t * b2)
}

/// `Ĉ`, `Ŝ` and their gradients from a blend's sums (see [`crate::fbm::erosion`]).
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
    // Renormalised by m = (ρ⁴ + floor⁴)^¼ (see `crate::fbm::erosion`).
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
                    // |Ŝ| smoothed, √(Ŝ² + ε²) − ε (see `crate::fbm::erosion`).
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
