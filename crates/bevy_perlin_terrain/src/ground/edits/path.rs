//! A road or channel over the samples of a grid, one row at a time.
//!
//! A path's centre line is a chain of straight segments. A sample's distance to it is the
//! smallest of its distances to the segments: for each, the sample's projection on the
//! segment's line, clamped to its ends (`t = (p − a)·u / |u|²` in `[0, 1]`), is the segment's
//! point nearest it. So the nearest point is inside a segment where the projection falls
//! between the ends (the ground there follows the segment's grade) and a vertex elsewhere (the
//! outside of a bend, the path's ends). The first segment in the path's order wins a tie.
//! Where two segments meet, a sample whose nearest point of one is the vertex they share is
//! left to the other (except on the outside of the bend, where the vertex is nearest):
//! about a vertex, most samples look at one segment instead of two.
//!
//! A row asks each segment whose box (its reach: half the width plus the falloff, about it)
//! holds the row for the columns its band can reach, then works sixteen samples at a time
//! (eight without AVX-512): every segment whose columns meet them, then the blend, in `f32`
//! lanes that
//! [`GridKernel::vectorise`](perlin_core::GridKernel::vectorise) compiles for the widest vector
//! instructions the CPU has (the same bits on every build). Whether a segment counts for a
//! sample is decided by comparing the sample's own `x` with bounds that depend only on the row's
//! `z`, and a lane's arithmetic never looks at another lane, so a grid and a single sample at
//! the same place agree bit for bit.
//!
//! The blend is the stamps' (see `modifier.rs`): `w = 1 − S(d / falloff)` from the distance
//! `d` beyond half the width, the height pulled towards the centre line's height there (less
//! the depth, for a channel) with its exact gradient.

use crate::space::Bounds;
use bevy::math::{DVec2, Vec2};
use perlin_core::{GridKernel, Vectorised};

/// A straight piece of a path's centre line, from `a` (height `ya`) to `b` (height `yb`), and
/// the box within which it can matter (its reach: half the width plus the falloff).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Segment {
    pub a: DVec2,
    pub b: DVec2,
    pub ya: f64,
    pub yb: f64,
    pub bounds: Bounds,
    /// `1 / |b − a|²` (zero for a point).
    inv_len2: f64,
    /// Where the row at `z` holds the samples within reach of the segment's line: `half`
    /// either side of `a.x − (z − a.y)·drift`, as `(drift, half)`; `None` for a segment along
    /// `x` (the rows within `reach` of its line hold it whole) or a point.
    band: Option<(f64, f64)>,
    /// The reach, with the band's margin.
    reach: f64,
    /// Which samples its neighbours in the chain take instead (see [`Segment::in_chain`]):
    /// it looks at none behind the half-plane `behind`, and beyond its end only at those in
    /// one of the half-planes `ahead`.
    behind: Option<HalfPlane>,
    ahead: Option<[HalfPlane; 2]>,
}

/// The points `p` with `(p − origin)·dir ≤ margin` (`dir` a unit vector), as rows see them: in
/// the row at `z`, the samples at most or at least `x = edge − (z − z0)·drift`, or, for a `dir`
/// along `z`, the whole row where `dir.y·(z − z0) ≤ margin` and none elsewhere.
#[derive(Clone, Copy, Debug, PartialEq)]
enum HalfPlane {
    AtMost { edge: f64, z0: f64, drift: f64 },
    AtLeast { edge: f64, z0: f64, drift: f64 },
    Rows { dy: f64, z0: f64, margin: f64 },
}

/// Where a half-plane holds the samples of a row.
#[derive(Clone, Copy, Debug, PartialEq)]
enum RowCut {
    All,
    Nothing,
    AtMost(f64),
    AtLeast(f64),
}

impl HalfPlane {
    fn new(origin: DVec2, dir: DVec2, margin: f64) -> Self {
        if dir.x.abs() > 1e-12 {
            let (edge, z0, drift) = (origin.x + margin / dir.x, origin.y, dir.y / dir.x);
            if dir.x > 0.0 {
                HalfPlane::AtMost { edge, z0, drift }
            } else {
                HalfPlane::AtLeast { edge, z0, drift }
            }
        } else {
            HalfPlane::Rows {
                dy: dir.y,
                z0: origin.y,
                margin,
            }
        }
    }

    /// The row at `z` as the half-plane cuts it.
    fn on_row(self, z: f64) -> RowCut {
        match self {
            HalfPlane::AtMost { edge, z0, drift } => RowCut::AtMost(edge - (z - z0) * drift),
            HalfPlane::AtLeast { edge, z0, drift } => RowCut::AtLeast(edge - (z - z0) * drift),
            HalfPlane::Rows { dy, z0, margin } if dy * (z - z0) <= margin => RowCut::All,
            HalfPlane::Rows { .. } => RowCut::Nothing,
        }
    }
}

impl RowCut {
    /// The closed interval `(low, high)` cut down to where this holds (empty as `low > high`).
    fn within(self, (low, high): (f64, f64)) -> (f64, f64) {
        match self {
            RowCut::All => (low, high),
            RowCut::Nothing => (f64::INFINITY, f64::NEG_INFINITY),
            RowCut::AtMost(edge) => (low, at_most(high, edge)),
            RowCut::AtLeast(edge) => (at_least(low, edge), high),
        }
    }

    /// The least cut that holds both (a row's interval holding the samples of either).
    fn or(self, other: Self) -> Self {
        match (self, other) {
            (RowCut::Nothing, cut) | (cut, RowCut::Nothing) => cut,
            (RowCut::AtMost(a), RowCut::AtMost(b)) => RowCut::AtMost(at_least(a, b)),
            (RowCut::AtLeast(a), RowCut::AtLeast(b)) => RowCut::AtLeast(at_most(a, b)),
            _ => RowCut::All,
        }
    }
}

/// The larger of `a` and `b` (`a` where `b` is NaN, which a row's bounds never are): one
/// instruction, where `f64::max` spends three on NaNs.
#[inline(always)]
fn at_least(a: f64, b: f64) -> f64 {
    if b > a { b } else { a }
}

/// The smaller of `a` and `b` (`a` where `b` is NaN), as [`at_least`].
#[inline(always)]
fn at_most(a: f64, b: f64) -> f64 {
    if b < a { b } else { a }
}

/// How much wider than the reach a row's band is taken: samples just outside it (by rounding)
/// are still looked at, and gain nothing there.
const BAND_MARGIN: f64 = 1e-6;

impl Segment {
    /// The segment from `a` (height `ya`) to `b` (height `yb`), mattering within `reach`.
    pub fn new(a: DVec2, b: DVec2, ya: f64, yb: f64, reach: f64) -> Self {
        let u = b - a;
        let len2 = u.length_squared();
        let normal = u.perp().normalize_or_zero();
        let wide = reach * (1.0 + BAND_MARGIN) + BAND_MARGIN;
        Self {
            a,
            b,
            ya,
            yb,
            bounds: Bounds {
                min: a.min(b) - DVec2::splat(reach),
                max: a.max(b) + DVec2::splat(reach),
            },
            inv_len2: if len2 > 0.0 { 1.0 / len2 } else { 0.0 },
            band: (normal.x != 0.0).then(|| (normal.y / normal.x, wide / normal.x.abs())),
            reach: wide,
            behind: None,
            ahead: None,
        }
    }

    /// The segment as a link of a path's chain: its start the end of `before`'s, its end the
    /// start of `after`'s (`None` at the path's ends). Its neighbours then take some of the
    /// samples it would look at, for the same distance:
    /// - behind its start (`t < 0`), the segment's nearest point is its start, which the one
    ///   before offers too, as near or nearer;
    /// - beyond its end (`t > 1`), its nearest point is its end, which the one after offers
    ///   too: only where that one leaves the sample out, behind its own start (the outside of
    ///   the bend), must this one look.
    ///
    /// Following the samples left out from segment to segment (backwards from one behind a
    /// start, forwards from one beyond an end) ends at a segment that looks, as near as any.
    /// Every half-plane is taken a millionth of the reach (and of a metre) wider, so that
    /// rounding never leaves a sample to no one.
    pub fn in_chain(mut self, before: bool, after: Option<&Segment>) -> Self {
        let Some(dir) = (self.b - self.a).try_normalize() else {
            return self;
        };
        let margin = BAND_MARGIN * (1.0 + self.reach);
        if before {
            self.behind = Some(HalfPlane::new(self.a, -dir, margin));
        }
        let next = after.and_then(|next| (next.b - next.a).try_normalize());
        self.ahead = next.and_then(|next| {
            let ahead = [
                HalfPlane::new(self.b, dir, margin),
                HalfPlane::new(self.b, next, margin),
            ];
            // Kept on opposite sides, the two hold every row's samples between them.
            match ahead {
                [HalfPlane::AtMost { .. }, HalfPlane::AtLeast { .. }]
                | [HalfPlane::AtLeast { .. }, HalfPlane::AtMost { .. }] => None,
                _ => Some(ahead),
            }
        });
        self
    }

    /// The closed `x` interval of the row at `z` that can hold samples within reach: the
    /// segment's box cut down to the band about its line; `None` where the row has none.
    fn row_span(&self, z: f64) -> Option<(f64, f64)> {
        if z < self.bounds.min.y || z > self.bounds.max.y {
            return None;
        }
        let (mut low, mut high) = (self.bounds.min.x, self.bounds.max.x);
        let dz = z - self.a.y;
        match self.band {
            Some((drift, half)) => {
                let centre = self.a.x - dz * drift;
                (low, high) = (at_least(low, centre - half), at_most(high, centre + half));
            }
            // Along `x` (or a point, whose box is its disc's): the band is the box's rows.
            None if self.inv_len2 > 0.0 && dz.abs() > self.reach => return None,
            None => {}
        }
        if let Some(behind) = &self.behind {
            (low, high) = behind.on_row(z).within((low, high));
        }
        if let Some([to_end, next]) = &self.ahead {
            (low, high) = to_end.on_row(z).or(next.on_row(z)).within((low, high));
        }
        (low <= high).then_some((low, high))
    }
}

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

/// Samples side by side (`L` below): sixteen where the rows are compiled for AVX-512 (one
/// register of `f32` lanes), eight elsewhere (one AVX2 register, or plain code). Lanes never
/// mix, so the width changes no bit.
const WIDE: usize = 16;
const NARROW: usize = 8;

/// The nearest point of the centre line for `L` samples, as far as the segments looked at
/// so far go: its squared distance, the offset from it to the sample, the centre line's height
/// there and that height's gradient (zero at a vertex).
#[derive(Clone, Copy, Debug)]
struct Nearest<const L: usize> {
    d2: [f32; L],
    off: [[f32; L]; 2],
    target: [f32; L],
    grade: [[f32; L]; 2],
}

impl<const L: usize> Nearest<L> {
    /// No point yet: every lane infinitely far.
    const NONE: Self = Self {
        d2: [f32::INFINITY; L],
        off: [[0.0; L]; 2],
        target: [0.0; L],
        grade: [[0.0; L]; 2],
    };
}

/// A segment as a row sees it: the columns it can reach and its constants, relative to its
/// start (so `f32` keeps millimetres far from the origin). A pass works them out once for each
/// segment; a row then only sets its columns and its distance along `z`.
#[derive(Clone, Copy, Debug)]
struct SegmentRow {
    cols: (usize, usize),
    /// The segment's start, and `u.y / |u|²`, for the row's constants.
    ax: f64,
    ay: f64,
    ty: f64,
    /// `t = x'·tx + t0` along the segment for `x' = x − a.x` (`t0` the row's); `u` and the
    /// row's `z − a.y`, to step back from the sample to the nearest point.
    tx: f32,
    t0: f32,
    u: Vec2,
    dz: f32,
    /// The centre line's height at `t = 0` less the depth, its rise to `t = 1`, its gradient.
    base: f32,
    rise: f32,
    grade: Vec2,
}

impl SegmentRow {
    /// The segment's constants, for no row yet.
    fn new(seg: &Segment, depth: f64) -> Self {
        let u = seg.b - seg.a;
        let rise = seg.yb - seg.ya;
        Self {
            cols: (0, 0),
            ax: seg.a.x,
            ay: seg.a.y,
            ty: u.y * seg.inv_len2,
            tx: (u.x * seg.inv_len2) as f32,
            t0: 0.0,
            u: u.as_vec2(),
            dz: 0.0,
            base: (seg.ya - depth) as f32,
            rise: rise as f32,
            grade: (rise * u * seg.inv_len2).as_vec2(),
        }
    }

    /// The segment as the row at `z` sees it, over the columns `cols`.
    #[inline]
    fn at(&self, z: f64, cols: (usize, usize)) -> Self {
        let dz = z - self.ay;
        Self {
            cols,
            t0: (dz * self.ty) as f32,
            dz: dz as f32,
            ..*self
        }
    }

    /// Takes the segment's nearest point for the lanes (columns `first..first + L`, at `x`)
    /// within its columns where it is nearer than `best`. Each step is one operation over the
    /// lanes, the choice made on the bits, so that they vectorise; the arithmetic is fused
    /// multiply–adds, one rounding each on every build (hardware on AVX2 and AVX-512, the
    /// library's otherwise).
    #[allow(clippy::needless_range_loop, reason = "lanes of arrays side by side")]
    #[inline(always)]
    fn nearer<const L: usize, const EDGE: bool>(
        &self,
        first: usize,
        x: &[f64; L],
        best: &mut Nearest<L>,
    ) {
        // The lanes within the segment's columns, `from..to` of the `L`, as bits (all of
        // them unless they hold an `EDGE` of its columns).
        let within = if EDGE {
            let from = self.cols.0.saturating_sub(first).min(L) as u32;
            let to = self.cols.1.saturating_sub(first).min(L) as u32;
            const { assert!(L <= WIDE, "a block's lanes fit in the word's bits") };
            ((1u32 << to) - 1) & !((1u32 << from) - 1)
        } else {
            u32::MAX
        };
        let mut xs = [0.0f32; L];
        for l in 0..L {
            xs[l] = (x[l] - self.ax) as f32;
        }
        for l in 0..L {
            let xl = xs[l];
            let t = xl.mul_add(self.tx, self.t0);
            let tc = t.clamp(0.0, 1.0);
            let ox = (-tc).mul_add(self.u.x, xl);
            let oz = (-tc).mul_add(self.u.y, self.dz);
            let d2 = ox.mul_add(ox, oz * oz);
            let beside = (t > 0.0) & (t < 1.0);
            let take = ((within >> l) & 1 != 0) & (d2 < best.d2[l]);
            // All ones where the segment's point is taken.
            let mask = 0u32.wrapping_sub(u32::from(take));
            let pick = |old: f32, new: f32| {
                f32::from_bits((old.to_bits() & !mask) | (new.to_bits() & mask))
            };
            let only_beside = 0u32.wrapping_sub(u32::from(beside));
            let grade = |g: f32| f32::from_bits(g.to_bits() & only_beside);
            best.d2[l] = pick(best.d2[l], d2);
            best.off[0][l] = pick(best.off[0][l], ox);
            best.off[1][l] = pick(best.off[1][l], oz);
            best.target[l] = pick(best.target[l], tc.mul_add(self.rise, self.base));
            best.grade[0][l] = pick(best.grade[0][l], grade(self.grade.x));
            best.grade[1][l] = pick(best.grade[1][l], grade(self.grade.y));
        }
    }
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
    kernel: GridKernel,
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
            kernel: GridKernel::Auto,
            rows: Vec::new(),
        }
    }

    /// The pass with its rows compiled for `kernel`'s vector instructions (the same bits as
    /// any other kernel; `Auto`, the widest the CPU has, unless told).
    pub fn using(mut self, kernel: GridKernel) -> Self {
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
/// lanes, which [`GridKernel::vectorise`] compiles for the widest vector instructions the CPU
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Reach of the test chains: 15 m, the default road's.
    const REACH: f64 = 15.0;

    /// Segments through `points`, each on its own or linked as `path_modifier` links them.
    fn segments(points: &[(f64, f64)], linked: bool) -> Vec<Segment> {
        let links: Vec<Segment> = points
            .windows(2)
            .map(|w| Segment::new(w[0].into(), w[1].into(), 0.0, 0.0, REACH))
            .collect();
        links
            .iter()
            .enumerate()
            .map(|(i, s)| match linked {
                true => s.clone().in_chain(i > 0, links.get(i + 1)),
                false => s.clone(),
            })
            .collect()
    }

    /// The true distance from `p` to a segment, and where its nearest point is (`t`).
    fn distance(s: &Segment, p: DVec2) -> (f64, f64) {
        let u = s.b - s.a;
        let t = ((p - s.a).dot(u) / u.length_squared()).clamp(0.0, 1.0);
        ((s.a + u * t - p).length(), t)
    }

    /// The segments whose row holds the sample at `p`.
    fn looking(segments: &[Segment], p: DVec2) -> Vec<usize> {
        (0..segments.len())
            .filter(|&i| {
                segments[i]
                    .row_span(p.y)
                    .is_some_and(|(low, high)| low <= p.x && p.x <= high)
            })
            .collect()
    }

    #[test]
    fn linked_segments_leave_a_sample_to_the_ones_that_can_be_nearest() {
        // A straight chain across the grid's rows, a gentle curve (turns of 12° to 25°), a
        // sharp bend and a hairpin's turn (about 150°), on samples 0.37 m apart.
        let chains: [&[(f64, f64)]; 4] = [
            &[
                (-40.0, -31.0),
                (-20.0, -16.0),
                (0.0, -1.0),
                (20.0, 14.0),
                (40.0, 29.0),
            ],
            &[
                (-40.0, -20.0),
                (-25.0, -12.0),
                (-10.0, -7.0),
                (5.0, -5.0),
                (20.0, -8.0),
            ],
            &[(-35.0, -25.0), (5.0, -5.0), (-25.0, 30.0)],
            &[
                (-40.0, -9.0),
                (20.0, -9.0),
                (30.0, 0.0),
                (20.0, 9.0),
                (-40.0, 9.0),
            ],
        ];
        for (k, points) in chains.into_iter().enumerate() {
            let (linked, alone) = (segments(points, true), segments(points, false));
            let (mut looks_linked, mut looks_alone, mut inside) = (0, 0, 0);
            for j in 0..200 {
                for i in 0..260 {
                    let p = DVec2::new(-48.1 + 0.37 * i as f64, -37.3 + 0.37 * j as f64);
                    let (nearest, _) = alone
                        .iter()
                        .map(|s| distance(s, p))
                        .fold((f64::INFINITY, 0.0), |a, b| if b.0 < a.0 { b } else { a });
                    if nearest > REACH {
                        continue;
                    }
                    let looks = looking(&linked, p);
                    // Every sample within reach looks at a segment as near as the nearest.
                    assert!(
                        looks
                            .iter()
                            .any(|&s| distance(&linked[s], p).0 <= nearest + 1e-9),
                        "chain {k}: {p} looks at {looks:?} only"
                    );
                    // Beside one segment of the straight chain, away from its ends, only it.
                    let beside: Vec<usize> = (0..linked.len())
                        .filter(|&s| (0.01..=0.99).contains(&distance(&linked[s], p).1))
                        .collect();
                    if k == 0 && beside.len() == 1 {
                        assert_eq!(looks, beside, "chain {k}: {p}");
                        inside += 1;
                    }
                    looks_linked += looks.len();
                    looks_alone += looking(&alone, p).len();
                }
            }
            assert!(
                k > 0 || inside > 20_000,
                "{inside} samples beside the straight chain"
            );
            // Linked, the segments look at far fewer samples than on their own: about half
            // where the pieces are about as long as the reach and the ends weigh most.
            assert!(
                (looks_linked as f64) < [0.6, 0.6, 0.95, 0.8][k] * looks_alone as f64,
                "chain {k}: {looks_linked} looks linked, {looks_alone} alone"
            );
        }
    }
}
