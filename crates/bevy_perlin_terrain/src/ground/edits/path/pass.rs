//! The pass of one path over a grid ([`PathPass`]): each row cut down to the segments that
//! reach it, then blended `L` samples at a time, all compiled for the kernel's vectors.

use super::nearest::{Nearest, SegmentRow};
use super::segment::Segment;
use super::{NARROW, WIDE};
use bevy::math::DVec2;
use perlin_core::{SimdLevel, Vectorised};

/// The first index of ascending `xs` where `holds` (a test false below some `x`, true from it
/// on), starting the search near `value`, where it turns.
#[inline]
fn first_where(xs: &[f64], inv_step: f64, value: f64, holds: impl Fn(f64) -> bool) -> usize {
    let n = xs.len();
    // A cast saturates: below the first sample (and NaN) is 0.
    let mut i = (((value - xs[0]) * inv_step) as i64).clamp(0, n as i64) as usize;
    while i > 0 && holds(xs[i - 1]) {
        i -= 1;
    }
    while i < n && !holds(xs[i]) {
        i += 1;
    }
    i
}

/// What the blend needs besides the geometry, in the `f32` it computes in.
#[derive(Clone, Copy, Debug)]
struct Blend {
    half_width: f32,
    falloff: f32,
    inv_falloff: f32,
    /// A channel never raises the ground.
    never_raise: bool,
}

impl Blend {
    /// The ground `h`, `g` of `L` samples pulled towards the centre line's height at their
    /// nearest point by the weight of their distance beyond half the width. Beyond the falloff
    /// (and, for a channel, `NEVER_RAISE`, below its bed) the ground keeps its bits.
    #[allow(clippy::needless_range_loop, reason = "lanes of arrays side by side")]
    #[inline(always)]
    fn lanes<const L: usize, const NEVER_RAISE: bool>(
        &self,
        near: &Nearest<L>,
        h: &mut [f32; L],
        g: &mut [[f32; L]; 2],
    ) {
        for l in 0..L {
            let r = near.d2[l].sqrt();
            // Off the centre line, the distance's gradient; on it, where no weight changes,
            // nothing.
            let inv_r = 1.0 / r.max(f32::MIN_POSITIVE);
            let dir = [near.off[0][l] * inv_r, near.off[1][l] * inv_r];
            let d = r - self.half_width;
            let target = near.target[l];
            let k = (d * self.inv_falloff).clamp(0.0, 1.0);
            let w = (-(k * k)).mul_add((-2.0f32).mul_add(k, 3.0), 1.0);
            let dw = -6.0 * k * (1.0 - k) * self.inv_falloff;
            let rest = 1.0 - w;
            let lift = (target - h[l]) * dw;
            // `w = 1` gives `target` exactly: `h·0 + target`, rounded once.
            let h1 = h[l].mul_add(rest, target * w);
            let gx1 = g[0][l].mul_add(rest, lift.mul_add(dir[0], w * near.grade[0][l]));
            let gz1 = g[1][l].mul_add(rest, lift.mul_add(dir[1], w * near.grade[1][l]));
            let keep = (d >= self.falloff) | (NEVER_RAISE & (h[l] <= target));
            // All ones where the ground keeps its bits.
            let mask = 0u32.wrapping_sub(u32::from(keep));
            let pick = |old: f32, new: f32| {
                f32::from_bits((old.to_bits() & mask) | (new.to_bits() & !mask))
            };
            h[l] = pick(h[l], h1);
            g[0][l] = pick(g[0][l], gx1);
            g[1][l] = pick(g[1][l], gz1);
        }
    }
}

/// A path's segments (those a grid's region can meet), ready for its rows.
pub(crate) struct PathPass<'a> {
    segments: Vec<&'a Segment>,
    /// Their constants (for no row yet), in the same order.
    constants: Vec<SegmentRow>,
    blend: Blend,
    /// Whose vector instructions the rows are compiled for.
    kernel: SimdLevel,
    /// The segments as the last row cut sees them.
    rows: Vec<SegmentRow>,
}

impl<'a> PathPass<'a> {
    /// The pass of a path with `all` its segments, looking at `listed` (indices, ascending).
    pub fn new(
        all: &'a [Segment],
        listed: &[u32],
        half_width: f64,
        falloff: f64,
        depth: f64,
        never_raise: bool,
    ) -> Self {
        let segments: Vec<&Segment> = listed.iter().filter_map(|&s| all.get(s as usize)).collect();
        Self {
            constants: segments
                .iter()
                .map(|seg| SegmentRow::new(seg, depth))
                .collect(),
            segments,
            blend: Blend {
                half_width: half_width as f32,
                falloff: falloff as f32,
                inv_falloff: (1.0 / falloff) as f32,
                never_raise,
            },
            kernel: SimdLevel::Auto,
            rows: Vec::new(),
        }
    }

    /// The pass with its rows compiled for `kernel`'s vector instructions (the same bits as
    /// any other kernel; `Auto`, the widest the CPU has, unless told).
    pub fn using(mut self, kernel: SimdLevel) -> Self {
        self.kernel = kernel;
        self
    }

    /// The segments as the row at `z` (its samples' `x` in `xs`, ascending, about
    /// `1 / inv_step` apart) sees them, those that reach none of its samples left out.
    fn cut_row(&mut self, z: f64, xs: &[f64], inv_step: f64) {
        self.rows.clear();
        for (seg, constants) in self.segments.iter().zip(&self.constants) {
            let Some((low, high)) = seg.row_span(z) else {
                continue;
            };
            let cols = (
                first_where(xs, inv_step, low, |x| x >= low),
                first_where(xs, inv_step, high, |x| x > high),
            );
            if cols.0 < cols.1 {
                self.rows.push(constants.at(z, cols));
            }
        }
    }

    /// The row at `z` cut sample by sample: for samples whose `x` are not ascending at a known
    /// step.
    fn each_sample(&mut self, z: f64, xs: &[f64], heights: &mut [f32], slopes: &mut [[f32; 2]]) {
        for i in 0..xs.len() {
            let k = i..i + 1;
            let sample = (&mut heights[k.clone()], &mut slopes[k.clone()]);
            self.apply_rows_with_coarse(&xs[k], 1.0, &[], std::iter::once((z, sample, None)));
        }
    }

    /// Applies the path to the rows of a grid: each `(z, (heights, slopes))` of `rows` holds
    /// the heights and slopes of the row at `z`, its samples' `x` in `xs` (ascending when
    /// `inv_step` is positive and finite, otherwise each sample is cut on its own). Each row is
    /// cut, then blended, all in one pass compiled for the kernel's vector instructions.
    pub fn apply_rows<'r>(
        &mut self,
        xs: &[f64],
        inv_step: f64,
        rows: impl Iterator<Item = (f64, GridRow<'r>)>,
    ) {
        let rows = rows.map(|(z, row)| (z, row, None));
        self.apply_rows_with_coarse(xs, inv_step, &[], rows);
    }

    /// [`apply_rows`](Self::apply_rows) to a grid and to a coarser one whose samples are every
    /// other sample of it: `coarse_xs[i]` is `xs[2·i]` (the same bits), and the coarse grid's
    /// rows come with this one's even rows, as the `Option` of each item. A row's columns,
    /// halved, are exactly the ones the coarse row would find, so each row is cut once for
    /// both.
    pub fn apply_rows_with_coarse<'r>(
        &mut self,
        xs: &[f64],
        inv_step: f64,
        coarse_xs: &[f64],
        rows: impl Iterator<Item = (f64, GridRow<'r>, Option<GridRow<'r>>)>,
    ) {
        if self.segments.is_empty() || xs.is_empty() {
            return;
        }
        if !(inv_step > 0.0 && inv_step.is_finite()) {
            // Not cut as whole rows: each sample on its own.
            for (z, (heights, slopes), coarse) in rows {
                self.each_sample(z, xs, heights, slopes);
                if let Some((heights, slopes)) = coarse {
                    self.each_sample(z, coarse_xs, heights, slopes);
                }
            }
            return;
        }
        let kernel = self.kernel;
        let work = GridRows {
            pass: self,
            wide: kernel.lanes() == Some(WIDE),
            xs,
            inv_step,
            coarse_xs,
            rows,
        };
        kernel.vectorise(work).unwrap_or_else(Vectorised::run);
    }

    /// One row of [`GridRows`] in `L` lanes: cut, blended, and its coarse row blended with
    /// the columns halved.
    #[inline(always)]
    fn grid_row<const L: usize>(
        &mut self,
        (xs, inv_step, coarse_xs): (&[f64], f64, &[f64]),
        z: f64,
        (heights, slopes): GridRow,
        coarse: Option<GridRow>,
    ) {
        self.cut_row(z, xs, inv_step);
        self.blend_cut::<L>(xs, heights, slopes);
        let Some((heights, slopes)) = coarse else {
            return;
        };
        // Column `i` of the coarse row is column `2·i` of this one.
        let n = coarse_xs.len();
        for row in &mut self.rows {
            row.cols = (row.cols.0.div_ceil(2).min(n), row.cols.1.div_ceil(2).min(n));
        }
        self.rows.retain(|row| row.cols.0 < row.cols.1);
        self.blend_cut::<L>(coarse_xs, heights, slopes);
    }

    /// Applies the segments of the last cut to a row in `L` lanes, inlined into the caller's
    /// vector code.
    #[inline(always)]
    fn blend_cut<const L: usize>(&self, xs: &[f64], heights: &mut [f32], slopes: &mut [[f32; 2]]) {
        let Some(start) = self.rows.iter().map(|r| r.cols.0).min() else {
            return;
        };
        let n = xs.len().min(heights.len()).min(slopes.len());
        let end = self
            .rows
            .iter()
            .map(|r| r.cols.1)
            .max()
            .unwrap_or(start)
            .min(n);
        if start >= end {
            return;
        }
        // Whole blocks where the row has the samples (those no segment reaches keep their
        // bits), so that only a row shorter than its blocks has a tail.
        let whole = (end - start).next_multiple_of(L);
        let (start, n) = if whole <= n {
            let start = start.min(n - whole);
            (start, start + whole)
        } else {
            (start, end)
        };
        let row = Row::<L> {
            pass: self,
            first: start,
            xs: &xs[start..n],
            heights: &mut heights[start..n],
            slopes: &mut slopes[start..n],
        };
        if self.blend.never_raise {
            row.blend::<true>();
        } else {
            row.blend::<false>();
        }
    }

    /// The lanes' nearest points among the segments of the last cut (columns
    /// `first..first + L`, at `x`).
    #[inline(always)]
    fn nearest<const L: usize>(&self, first: usize, x: &[f64; L]) -> Nearest<L> {
        let mut best = Nearest::NONE;
        for row in &self.rows {
            // Sixteen lanes work out their columns in every block: that costs less than
            // choosing, block by block, whether a segment covers them all. Eight lanes cover
            // all more often, and AVX2 has no mask registers: they choose.
            if L < WIDE && row.cols.0 <= first && row.cols.1 >= first + L {
                row.nearer::<L, false>(first, x, &mut best);
            } else if row.cols.0 < first + L && row.cols.1 > first {
                row.nearer::<L, true>(first, x, &mut best);
            }
        }
        best
    }

    /// The distance from `p` to the path's centre line (among the listed segments), the
    /// nearest point chosen as a grid's row chooses it; `None` where no segment's band
    /// reaches `p`.
    pub fn distance(&mut self, p: DVec2) -> Option<f64> {
        if self.segments.is_empty() {
            return None;
        }
        self.cut_row(p.y, &[p.x], 1.0);
        let d2 = self
            .kernel
            .vectorise(Nearest1 { pass: self, x: p.x })
            .unwrap_or_else(Vectorised::run);
        d2.is_finite().then(|| f64::from(d2).sqrt())
    }
}

/// The squared distance of one sample, at `x` in the row of the last cut, to its nearest
/// point ([`PathPass::distance`]), compiled as the rows are (the same bits).
struct Nearest1<'r, 'a> {
    pass: &'r PathPass<'a>,
    x: f64,
}

impl Vectorised for Nearest1<'_, '_> {
    type Output = f32;
    #[inline(always)]
    fn run(self) -> f32 {
        self.pass.nearest::<NARROW>(0, &[self.x; NARROW]).d2[0]
    }
}

/// The `[∂h/∂x, ∂h/∂z]` pairs of `L` samples as two arrays of `L`: read as two registers'
/// worth of whole lanes each, then split lane by lane (the compiler's shuffles), instead of
/// gathered one element at a time.
#[allow(clippy::needless_range_loop, reason = "lanes of arrays side by side")]
#[inline(always)]
fn deinterleave<const L: usize>(pairs: &[[f32; 2]; L]) -> [[f32; L]; 2] {
    let flat = pairs.as_flattened();
    let (Ok(low), Ok(high)) = (
        <&[f32; L]>::try_from(&flat[..L]),
        <&[f32; L]>::try_from(&flat[L..]),
    ) else {
        return [[0.0; L]; 2];
    };
    let (low, high) = (*low, *high);
    let mut out = [[0.0f32; L]; 2];
    for l in 0..L {
        let k = 2 * l;
        out[0][l] = if k < L { low[k] } else { high[k - L] };
        out[1][l] = if k + 1 < L {
            low[k + 1]
        } else {
            high[k + 1 - L]
        };
    }
    out
}

/// A row's samples from column `first` on, under the segments of the last cut: plain `f32`
/// lanes, which [`SimdLevel::vectorise`] compiles for the widest vector instructions the CPU
/// has (the same bits on every build).
struct Row<'r, 'a, const L: usize> {
    pass: &'r PathPass<'a>,
    first: usize,
    xs: &'r [f64],
    heights: &'r mut [f32],
    slopes: &'r mut [[f32; 2]],
}

/// A row's heights and slopes.
pub(crate) type GridRow<'r> = (&'r mut [f32], &'r mut [[f32; 2]]);

/// A grid's rows under a path, and a coarse grid's with them
/// ([`PathPass::apply_rows_with_coarse`]), as vector code: each row cut, then blended.
struct GridRows<'p, 'a, 'x, I> {
    pass: &'p mut PathPass<'a>,
    /// Whether the kernel is AVX-512's: [`WIDE`] lanes, else [`NARROW`].
    wide: bool,
    xs: &'x [f64],
    inv_step: f64,
    coarse_xs: &'x [f64],
    rows: I,
}

impl<'r, I> Vectorised for GridRows<'_, '_, '_, I>
where
    I: Iterator<Item = (f64, GridRow<'r>, Option<GridRow<'r>>)>,
{
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let GridRows {
            pass,
            wide,
            xs,
            inv_step,
            coarse_xs,
            rows,
        } = self;
        let grid = (xs, inv_step, coarse_xs);
        for (z, row, coarse) in rows {
            if wide {
                pass.grid_row::<WIDE>(grid, z, row, coarse);
            } else {
                pass.grid_row::<NARROW>(grid, z, row, coarse);
            }
        }
    }
}

impl<const L: usize> Row<'_, '_, L> {
    /// `L` samples at a time; the last few as `L` lanes too, the unused ones repeating the
    /// last sample (lanes do not mix, so each sample gets the bits it would alone).
    #[allow(clippy::needless_range_loop, reason = "lanes of arrays side by side")]
    #[inline(always)]
    fn blend<const NEVER_RAISE: bool>(self) {
        let Row {
            pass,
            first,
            xs,
            heights,
            slopes,
        } = self;
        let n = xs.len().min(heights.len()).min(slopes.len());
        let (xs, heights, slopes) = (&xs[..n], &mut heights[..n], &mut slopes[..n]);
        let mut x8 = xs.chunks_exact(L);
        let mut h8 = heights.chunks_exact_mut(L);
        let mut g8 = slopes.chunks_exact_mut(L);
        let mut i = first;
        for ((x, h), g) in (&mut x8).zip(&mut h8).zip(&mut g8) {
            let (Ok(x), Ok(h)) = (<&[f64; L]>::try_from(x), <&mut [f32; L]>::try_from(h)) else {
                continue;
            };
            let Ok(g) = <&mut [[f32; 2]; L]>::try_from(g) else {
                continue;
            };
            let mut gl = deinterleave(g);
            let near = pass.nearest(i, x);
            pass.blend.lanes::<L, NEVER_RAISE>(&near, h, &mut gl);
            for l in 0..L {
                g[l] = [gl[0][l], gl[1][l]];
            }
            i += L;
        }
        let (x, h, g) = (x8.remainder(), h8.into_remainder(), g8.into_remainder());
        let m = x.len().min(h.len()).min(g.len());
        if m == 0 {
            return;
        }
        let (mut xl, mut hl) = ([x[m - 1]; L], [h[m - 1]; L]);
        let mut gl = [[g[m - 1][0]; L], [g[m - 1][1]; L]];
        for l in 0..m {
            (xl[l], hl[l], gl[0][l], gl[1][l]) = (x[l], h[l], g[l][0], g[l][1]);
        }
        let near = pass.nearest(i, &xl);
        pass.blend.lanes::<L, NEVER_RAISE>(&near, &mut hl, &mut gl);
        for l in 0..m {
            (h[l], g[l]) = (hl[l], [gl[0][l], gl[1][l]]);
        }
    }
}
