//! A road or channel over the samples of a grid, one row at a time.
//!
//! A path's centre line is a chain of straight segments. The point of it nearest a sample is
//! either inside a segment the sample lies *beside* (its projection strictly between the ends;
//! the distance is the offset along the segment's normal) or a vertex. A vertex is a candidate
//! only where the sample lies beside neither of its two segments: there the segment is at least
//! as near. So each row is cut into *parts*: for every segment the samples beside it and within
//! reach (its band), for every vertex those within reach and beside neither neighbour. Where a
//! sample has one part, that part is its nearest (the usual case: a run beside one segment,
//! blended in one pass of `f32` arithmetic over eight lanes, which
//! [`GridKernel::vectorise`](perlin_core::GridKernel::vectorise) compiles for the widest vector
//! instructions the CPU has, with the same bits); where parts overlap
//! (the inside of a bend, a hairpin), the nearest of them wins, the first in the path's order
//! on a tie. Every cut is a comparison of the sample's own `x` with bounds that depend only on
//! the row's `z`, so a grid and a single sample at the same place agree bit for bit.
//!
//! The blend is the stamps' (see `modifier.rs`): `w = 1 − S(d / falloff)` from the distance
//! `d` beyond half the width, the height pulled towards the centre line's height there (less
//! the depth, for a channel) with its exact gradient.

use crate::space::Bounds;
use bevy::math::{DVec2, Vec2};
use perlin_core::{GridKernel, Vectorised};
use std::ops::Range;

/// A straight piece of a path's centre line, from `a` (height `ya`) to `b` (height `yb`), and
/// the box within which it can matter (its reach: half the width plus the falloff).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Segment {
    pub a: DVec2,
    pub b: DVec2,
    pub ya: f64,
    pub yb: f64,
    pub bounds: Bounds,
    /// The unit normal of `b − a` (zero for a point), and `1 / |b − a|²` (zero for a point).
    normal: DVec2,
    inv_len2: f64,
    /// The rows (`z` from, to) that can hold a sample beside it within its reach: the `z` span
    /// of that rectangle, with a margin (empty for a point).
    rows: (f64, f64),
    /// Where a row meets it, the quotients worked out once: see [`row_cuts`](Self::row_cuts).
    cuts: Cuts,
}

/// How a row at `z` meets a segment: `beside = (drift, span)` puts the samples beside it from
/// `x = a.x − (z − a.y)·drift` over `span` (`None`: a segment along `z`, or a point);
/// `near = (drift, half)` puts those within `reach` of its line `half` either side of
/// `a.x − (z − a.y)·drift` (`None`: a segment along `x`).
#[derive(Clone, Debug, PartialEq)]
struct Cuts {
    beside: Option<(f64, f64)>,
    near: Option<(f64, f64)>,
    reach: f64,
}

impl Segment {
    /// The segment from `a` (height `ya`) to `b` (height `yb`), mattering within `reach`.
    pub fn new(a: DVec2, b: DVec2, ya: f64, yb: f64, reach: f64) -> Self {
        let u = b - a;
        let len2 = u.length_squared();
        let normal = u.perp().normalize_or_zero();
        Self {
            a,
            b,
            ya,
            yb,
            bounds: Bounds {
                min: a.min(b) - DVec2::splat(reach),
                max: a.max(b) + DVec2::splat(reach),
            },
            normal,
            inv_len2: if len2 > 0.0 { 1.0 / len2 } else { 0.0 },
            rows: if len2 > 0.0 {
                let across = (reach * normal.y).abs();
                let margin = 1e-6 * reach + 1e-9 * a.y.abs().max(b.y.abs());
                (
                    a.y.min(b.y) - across - margin,
                    a.y.max(b.y) + across + margin,
                )
            } else {
                (f64::INFINITY, f64::NEG_INFINITY)
            },
            cuts: Cuts {
                beside: (u.x != 0.0).then(|| (u.y / u.x, len2 / u.x)),
                near: (normal.x != 0.0).then(|| (normal.y / normal.x, reach / normal.x.abs())),
                reach,
            },
        }
    }

    /// The `x` interval (open) of the row at `z` whose samples lie beside the segment, and the
    /// one (closed) within the reach it was made with of its line; `None` for either where the
    /// row has none.
    fn row_cuts(&self, z: f64) -> (Option<(f64, f64)>, Option<(f64, f64)>) {
        let dz = z - self.a.y;
        // Beside: 0 < t < 1.
        let beside = match self.row_t(z) {
            RowT::Point => None,
            RowT::Crossing { at0, span } => {
                let at1 = at0 + span;
                Some((at0.min(at1), at0.max(at1)))
            }
            RowT::Constant(t) => (t > 0.0 && t < 1.0).then_some(ALL),
        };
        // Within reach: |(x − a.x)·n.x + dz·n.y| ≤ reach.
        let near = match self.cuts.near {
            Some((drift, half)) => {
                let centre = self.a.x - dz * drift;
                Some((centre - half, centre + half))
            }
            None => ((dz * self.normal.y).abs() <= self.cuts.reach).then_some(ALL),
        };
        (beside, near)
    }

    /// The closed `x` intervals of the row at `z` whose samples lie before the segment's start
    /// (`t ≤ 0`) and past its end (`t ≥ 1`): what [`row_cuts`](Self::row_cuts)' beside
    /// interval leaves on either side. A point has every sample on both.
    fn row_ends(&self, z: f64) -> ((f64, f64), (f64, f64)) {
        const NONE: (f64, f64) = (f64::INFINITY, f64::NEG_INFINITY);
        match self.row_t(z) {
            RowT::Point => (ALL, ALL),
            RowT::Crossing { at0, span } => {
                let at1 = at0 + span;
                if span > 0.0 {
                    ((f64::NEG_INFINITY, at0), (at1, f64::INFINITY))
                } else {
                    ((at0, f64::INFINITY), (f64::NEG_INFINITY, at1))
                }
            }
            RowT::Constant(t) => (
                if t <= 0.0 { ALL } else { NONE },
                if t >= 1.0 { ALL } else { NONE },
            ),
        }
    }

    /// How the segment's parameter `t = ((x − a.x)·u.x + dz·u.y) / |u|²` runs along the row
    /// at `z`: the one reading of it behind [`row_cuts`](Self::row_cuts) and
    /// [`row_ends`](Self::row_ends).
    fn row_t(&self, z: f64) -> RowT {
        let dz = z - self.a.y;
        match self.cuts.beside {
            _ if self.inv_len2 == 0.0 => RowT::Point,
            Some((drift, span)) => RowT::Crossing {
                at0: self.a.x - dz * drift,
                span,
            },
            None => RowT::Constant(dz * (self.b.y - self.a.y) * self.inv_len2),
        }
    }
}

/// The whole row, as an `x` interval.
const ALL: (f64, f64) = (f64::NEG_INFINITY, f64::INFINITY);

/// How a segment's parameter `t` runs along one row of samples.
enum RowT {
    /// A segment of length zero: no sample is beside it; every one is at both of its ends.
    Point,
    /// `t` changes along the row: 0 at `x = at0` and 1 at `x = at0 + span` (`span` < 0 where
    /// `t` falls with `x`).
    Crossing { at0: f64, span: f64 },
    /// The segment runs across the rows (`u.x = 0`): `t` is the same at every sample.
    Constant(f64),
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

/// The columns of a row in the open interval `beside` and the closed one `near`.
fn band_columns(xs: &[f64], inv_step: f64, beside: (f64, f64), near: (f64, f64)) -> Range<usize> {
    let (low, high) = (beside.0.max(near.0), beside.1.min(near.1));
    // No `x` in both: no search.
    if low > high {
        return 0..0;
    }
    let start = first_where(xs, inv_step, low, |x| x > beside.0 && x >= near.0);
    let end = first_where(xs, inv_step, high, |x| x >= beside.1 || x > near.1);
    start..end.max(start)
}

/// The columns of a row in the closed interval `[low, high]`.
fn closed_columns(xs: &[f64], inv_step: f64, (low, high): (f64, f64)) -> Range<usize> {
    first_where(xs, inv_step, low, |x| x >= low)..first_where(xs, inv_step, high, |x| x > high)
}

/// What a part of the centre line is: a segment (`2s`) or a vertex (`2k + 1`; vertex `k` starts
/// segment `k`, the last ends the last). Smaller keys win ties.
type Key = u32;

/// Whether `key` names a segment (not a vertex).
fn is_segment(key: Key) -> bool {
    key.is_multiple_of(2)
}

/// A vertex of the centre line and the segments on either side of it (among all the path's,
/// whether the pass looks at them or not: their ends bound the vertex's wedge).
#[derive(Clone, Copy, Debug)]
struct Vertex<'a> {
    at: DVec2,
    y: f64,
    key: Key,
    /// The segments ending and starting here (of all the path's).
    before: Option<&'a Segment>,
    after: Option<&'a Segment>,
    /// The rows (`z` from, to) that can hold a sample nearest the vertex: see
    /// [`wedge_rows`](Self::wedge_rows).
    rows: (f64, f64),
}

impl Vertex<'_> {
    /// The `z` span of the vertex's wedge within `reach`: the samples past the end of the
    /// segment before it and before the start of the one after it lie in a sector of the disc
    /// about it, between the normals of the two segments (a half disc at the path's ends, a
    /// sliver where the path runs straight on). Its lowest and highest points are the apex, the
    /// ends of its two edges, and the disc's own top and bottom where the sector holds them; a
    /// margin keeps rounding inside.
    fn wedge_rows(
        at: DVec2,
        before: Option<&Segment>,
        after: Option<&Segment>,
        reach: f64,
    ) -> (f64, f64) {
        // Directions `d` from the vertex into the wedge: `d·u ≥ 0` past the end of the segment
        // before (`u` its direction), `d·u ≤ 0` before the start of the one after.
        let slack = 1e-9;
        let sides: [Option<(DVec2, f64)>; 2] = [
            before.map(|s| ((s.b - s.a).normalize_or_zero(), 1.0)),
            after.map(|s| ((s.b - s.a).normalize_or_zero(), -1.0)),
        ];
        let inside = |d: DVec2| {
            sides
                .iter()
                .flatten()
                .all(|&(u, sign)| u == DVec2::ZERO || sign * d.dot(u) >= -slack)
        };
        let (mut low, mut high) = (0.0f64, 0.0f64);
        let edges = sides
            .iter()
            .flatten()
            .flat_map(|&(u, _)| [u.perp(), -u.perp()]);
        for d in edges.chain([DVec2::Y, DVec2::NEG_Y]) {
            if d != DVec2::ZERO && inside(d) {
                (low, high) = (low.min(d.y), high.max(d.y));
            }
        }
        let margin = 1e-6 * reach + 1e-9 * at.y.abs();
        (at.y + low * reach - margin, at.y + high * reach + margin)
    }

    /// Whether the vertex can lie nearer than `seg`'s line to some sample beside `seg` within
    /// `reach` of it (nearer, or as near, with a margin for rounding). Samples nearer a point
    /// than a line lie inside a parabola about the point; this asks whether it dips into the
    /// band. A vertex on the segment's line, past its ends, never does: that spares a road's
    /// bends, cut into pieces no longer than its reach, the comparisons in the lens where a
    /// vertex's disc crosses the next segment's band.
    fn rivals(&self, seg: &Segment, reach: f64) -> bool {
        let u = seg.b - seg.a;
        let length = u.length();
        if length == 0.0 {
            return true;
        }
        let along = (self.at - seg.a).dot(u) / length;
        let across = (self.at - seg.a).dot(seg.normal).abs();
        let gap = along - along.clamp(0.0, length);
        // Nearer than the line at a sample `y` off it: `gap² + across² < 2·y·across`, y ≤ reach.
        gap * gap + across * across <= 2.0 * reach * across * (1.0 + 1e-9) + 1e-9
    }
}

/// The samples of a row (`cols`) for which part `key` is a candidate.
#[derive(Clone, Debug)]
struct Part {
    cols: Range<usize>,
    key: Key,
}

/// What the blend needs besides the geometry, in the `f32` it computes in.
#[derive(Clone, Copy, Debug)]
struct Blend {
    half_width: f32,
    falloff: f32,
    inv_falloff: f32,
    depth: f32,
    /// A channel never raises the ground.
    never_raise: bool,
}

impl Blend {
    /// The ground `h`, `g` of `N` samples pulled towards `target` (gradient `dt`) by the weight
    /// of their distance `d` beyond half the width, `dir` the gradient of `d` (its `x` and `z`
    /// parts). Beyond the falloff (and, for a channel, `NEVER_RAISE`, below its bed) the ground
    /// keeps its bits. Each step is one operation over the `N` lanes, and the choice is made on
    /// the bits, without a jump, so that eight lanes vectorise; one lane gives the same bits.
    #[allow(clippy::needless_range_loop, reason = "lanes of arrays side by side")]
    #[inline(always)]
    fn lanes<const N: usize, const NEVER_RAISE: bool>(
        &self,
        d: &[f32; N],
        dir: [&[f32; N]; 2],
        target: &[f32; N],
        dt: Vec2,
        h: &mut [f32; N],
        g: [&mut [f32; N]; 2],
    ) {
        let [gx, gz] = g;
        for l in 0..N {
            let k = (d[l] * self.inv_falloff).clamp(0.0, 1.0);
            let w = 1.0 - k * k * (3.0 - 2.0 * k);
            let dw = -6.0 * k * (1.0 - k) * self.inv_falloff;
            let rest = 1.0 - w;
            let lift = (target[l] - h[l]) * dw;
            // `w = 1` gives `target` exactly: `h·0 + target`.
            let h1 = h[l] * rest + target[l] * w;
            let gx1 = gx[l] * rest + lift * dir[0][l] + w * dt.x;
            let gz1 = gz[l] * rest + lift * dir[1][l] + w * dt.y;
            let keep = (d[l] >= self.falloff) | (NEVER_RAISE & (h[l] <= target[l]));
            // All ones where the ground keeps its bits.
            let mask = 0u32.wrapping_sub(u32::from(keep));
            let pick = |old: f32, new: f32| {
                f32::from_bits((old.to_bits() & mask) | (new.to_bits() & !mask))
            };
            h[l] = pick(h[l], h1);
            gx[l] = pick(gx[l], gx1);
            gz[l] = pick(gz[l], gz1);
        }
    }

    /// [`lanes`](Self::lanes) for one sample, a road or a channel as the path is.
    #[inline]
    fn one(&self, d: f32, dir: Vec2, target: f32, dt: Vec2, h: &mut f32, g: &mut [f32; 2]) {
        let (d, dir, target) = ([d], [[dir.x], [dir.y]], [target]);
        let (h, [gx, gz]) = (std::array::from_mut(h), g);
        let g = [std::array::from_mut(gx), std::array::from_mut(gz)];
        if self.never_raise {
            self.lanes::<1, true>(&d, [&dir[0], &dir[1]], &target, dt, h, g);
        } else {
            self.lanes::<1, false>(&d, [&dir[0], &dir[1]], &target, dt, h, g);
        }
    }
}

/// Segment `s` seen from the row at `z`: the constants of the blend beside it, relative to its
/// start (so `f32` keeps millimetres far from the origin).
#[derive(Clone, Copy, Debug)]
struct BandRow {
    ax: f64,
    /// `t = x'·tx + t0` along the segment, `offset = x'·nx + o0` across it, for `x' = x − a.x`.
    tx: f32,
    t0: f32,
    o0: f32,
    normal: Vec2,
    /// The centre line's height at `t = 0` less the depth, its rise to `t = 1`, its gradient.
    base: f32,
    rise: f32,
    grade: Vec2,
}

impl BandRow {
    fn new(seg: &Segment, z: f64, depth: f64) -> Self {
        let u = seg.b - seg.a;
        let dz = z - seg.a.y;
        let rise = seg.yb - seg.ya;
        Self {
            ax: seg.a.x,
            tx: (u.x * seg.inv_len2) as f32,
            t0: (dz * u.y * seg.inv_len2) as f32,
            o0: (dz * seg.normal.y) as f32,
            normal: seg.normal.as_vec2(),
            base: (seg.ya - depth) as f32,
            rise: rise as f32,
            grade: (rise * u * seg.inv_len2).as_vec2(),
        }
    }

    /// The blend at `N` samples at `x`, their slopes' `x` and `z` parts apart (one lane gives
    /// the bits of eight).
    #[allow(clippy::needless_range_loop, reason = "lanes of arrays side by side")]
    #[inline(always)]
    fn lanes<const N: usize, const NEVER_RAISE: bool>(
        &self,
        blend: &Blend,
        x: &[f64; N],
        h: &mut [f32; N],
        g: [&mut [f32; N]; 2],
    ) {
        let (mut d, mut target) = ([0.0f32; N], [0.0f32; N]);
        let (mut dir_x, mut dir_z) = ([0.0f32; N], [0.0f32; N]);
        for l in 0..N {
            let xl = (x[l] - self.ax) as f32;
            let offset = xl * self.normal.x + self.o0;
            let side = 1.0f32.copysign(offset);
            d[l] = offset.abs() - blend.half_width;
            dir_x[l] = side * self.normal.x;
            dir_z[l] = side * self.normal.y;
            target[l] = self.base + (xl * self.tx + self.t0) * self.rise;
        }
        blend.lanes::<N, NEVER_RAISE>(&d, [&dir_x, &dir_z], &target, self.grade, h, g);
    }

    /// The blend at one sample.
    fn one(&self, blend: &Blend, x: f64, h: &mut f32, g: &mut [f32; 2]) {
        let (h, [gx, gz]) = (std::array::from_mut(h), g);
        let g = [std::array::from_mut(gx), std::array::from_mut(gz)];
        if blend.never_raise {
            self.lanes::<1, true>(blend, &[x], h, g);
        } else {
            self.lanes::<1, false>(blend, &[x], h, g);
        }
    }

    /// The blend over a run of samples beside the segment, eight at a time, compiled for
    /// `kernel`'s vector instructions (the plain build where the CPU lacks them).
    fn apply_run(
        &self,
        blend: &Blend,
        kernel: GridKernel,
        xs: &[f64],
        heights: &mut [f32],
        slopes: &mut [[f32; 2]],
    ) {
        let run = Run {
            row: self,
            blend,
            xs,
            heights,
            slopes,
        };
        kernel.vectorise(run).unwrap_or_else(Vectorised::run);
    }

    #[allow(clippy::needless_range_loop, reason = "lanes of arrays side by side")]
    #[inline(always)]
    fn run<const NEVER_RAISE: bool>(
        &self,
        blend: &Blend,
        xs: &[f64],
        heights: &mut [f32],
        slopes: &mut [[f32; 2]],
    ) {
        const L: usize = 8;
        let mut x8 = xs.chunks_exact(L);
        let mut h8 = heights.chunks_exact_mut(L);
        let mut g8 = slopes.chunks_exact_mut(L);
        for ((x, h), g) in (&mut x8).zip(&mut h8).zip(&mut g8) {
            let (Ok(x), Ok(h)) = (<&[f64; L]>::try_from(x), <&mut [f32; L]>::try_from(h)) else {
                continue;
            };
            let (mut gx, mut gz) = ([0.0f32; L], [0.0f32; L]);
            for l in 0..L {
                [gx[l], gz[l]] = g[l];
            }
            self.lanes::<L, NEVER_RAISE>(blend, x, h, [&mut gx, &mut gz]);
            for l in 0..L {
                g[l] = [gx[l], gz[l]];
            }
        }
        // The last few samples as eight lanes too, the unused ones repeating the last sample
        // (lanes do not mix, so each sample gets the bits it would alone).
        let (x, h, g) = (x8.remainder(), h8.into_remainder(), g8.into_remainder());
        let n = x.len().min(h.len()).min(g.len());
        if n == 0 {
            return;
        }
        let (mut xl, mut hl) = ([x[n - 1]; L], [h[n - 1]; L]);
        let (mut gx, mut gz) = ([g[n - 1][0]; L], [g[n - 1][1]; L]);
        for l in 0..n {
            (xl[l], hl[l], gx[l], gz[l]) = (x[l], h[l], g[l][0], g[l][1]);
        }
        self.lanes::<L, NEVER_RAISE>(blend, &xl, &mut hl, [&mut gx, &mut gz]);
        for l in 0..n {
            (h[l], g[l]) = (hl[l], [gx[l], gz[l]]);
        }
    }
}

/// A run of samples beside one segment: plain `f32` lanes, which [`GridKernel::vectorise`]
/// compiles for the widest vector instructions the CPU has (the same bits on every build).
struct Run<'r> {
    row: &'r BandRow,
    blend: &'r Blend,
    xs: &'r [f64],
    heights: &'r mut [f32],
    slopes: &'r mut [[f32; 2]],
}

impl Vectorised for Run<'_> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let Run {
            row,
            blend,
            xs,
            heights,
            slopes,
        } = self;
        if blend.never_raise {
            row.run::<true>(blend, xs, heights, slopes);
        } else {
            row.run::<false>(blend, xs, heights, slopes);
        }
    }
}

/// The blend towards vertex `v` at the sample at `(x, z)`.
#[inline]
fn apply_vertex(blend: &Blend, v: &Vertex, x: f64, z: f64, h: &mut f32, g: &mut [f32; 2]) {
    let off = Vec2::new((x - v.at.x) as f32, (z - v.at.y) as f32);
    let r = off.length();
    let dir = if r > 0.0 { off / r } else { Vec2::ZERO };
    let target = (v.y - blend.depth as f64) as f32;
    blend.one(r - blend.half_width, dir, target, Vec2::ZERO, h, g);
}

/// A part of the centre line as a row's samples see it.
#[derive(Clone, Copy, Debug)]
enum Nearest<'a> {
    Beside(&'a Segment, BandRow),
    Vertex(Vertex<'a>),
}

impl Nearest<'_> {
    /// The squared distance from `(x, z)`: the offset across a segment, the distance to a
    /// vertex.
    #[inline]
    fn distance2(&self, x: f64, z: f64) -> f64 {
        let p = DVec2::new(x, z);
        match self {
            Nearest::Beside(seg, _) => {
                let offset = (p - seg.a).dot(seg.normal);
                offset * offset
            }
            Nearest::Vertex(v) => p.distance_squared(v.at),
        }
    }
}

/// A path's segments (those a grid's region can meet) and vertices, ready for its rows.
pub(crate) struct PathPass<'a> {
    segments: Vec<&'a Segment>,
    keys: Vec<Key>,
    vertices: Vec<Vertex<'a>>,
    reach: f64,
    depth: f64,
    blend: Blend,
    /// Whose vector instructions the runs beside segments are compiled for.
    kernel: GridKernel,
    // Per row: the parts, and where parts overlap what each piece's samples may take.
    parts: Vec<Part>,
    near: Vec<(Part, Nearest<'a>)>,
    cuts: Vec<usize>,
    here: Vec<usize>,
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
        let mut segments = Vec::with_capacity(listed.len());
        let mut keys = Vec::with_capacity(listed.len());
        let mut vertices: Vec<Vertex> = Vec::with_capacity(listed.len() + 1);
        // Vertex `k` ends segment `k − 1` and starts segment `k`.
        let vertex = |k: usize| {
            let seg = all.get(k).or_else(|| all.get(k.wrapping_sub(1)));
            seg.map(|seg| {
                let at = if k < all.len() { seg.a } else { seg.b };
                let (before, after) = (k.checked_sub(1).and_then(|i| all.get(i)), all.get(k));
                Vertex {
                    at,
                    y: if k < all.len() { seg.ya } else { seg.yb },
                    key: 2 * k as Key + 1,
                    before,
                    after,
                    rows: Vertex::wedge_rows(at, before, after, half_width + falloff),
                }
            })
        };
        for &s in listed {
            let Some(seg) = all.get(s as usize) else {
                continue;
            };
            segments.push(seg);
            keys.push(2 * s);
            for k in [s as usize, s as usize + 1] {
                if vertices.last().is_none_or(|v| v.key < 2 * k as Key + 1) {
                    vertices.extend(vertex(k));
                }
            }
        }
        Self {
            segments,
            keys,
            vertices,
            reach: half_width + falloff,
            depth,
            blend: Blend {
                half_width: half_width as f32,
                falloff: falloff as f32,
                inv_falloff: (1.0 / falloff) as f32,
                depth: depth as f32,
                never_raise,
            },
            kernel: GridKernel::Auto,
            parts: Vec::new(),
            near: Vec::new(),
            cuts: Vec::new(),
            here: Vec::new(),
        }
    }

    /// The pass with its runs compiled for `kernel`'s vector instructions (the same bits as
    /// any other kernel; `Auto`, the widest the CPU has, unless told).
    pub fn using(mut self, kernel: GridKernel) -> Self {
        self.kernel = kernel;
        self
    }

    /// Cuts the row at `z` (its samples' `x` in `xs`, ascending, about `1 / inv_step` apart)
    /// into parts, sorted by their first column.
    fn cut_row(&mut self, z: f64, xs: &[f64], inv_step: f64) {
        self.parts.clear();
        for (seg, &key) in self.segments.iter().zip(&self.keys) {
            if z < seg.rows.0 || z > seg.rows.1 {
                continue;
            }
            let (Some(beside), Some(near)) = seg.row_cuts(z) else {
                continue;
            };
            let cols = band_columns(xs, inv_step, beside, near);
            if !cols.is_empty() {
                self.parts.push(Part { cols, key });
            }
        }
        // A vertex is nearest only where a sample lies past the end of the segment before it
        // and before the start of the one after it (elsewhere a point of those is as near): a
        // thin wedge on the outside of a bend, a cap at the path's ends.
        for v in &self.vertices {
            let dz = z - v.at.y;
            if dz.abs() > self.reach || z < v.rows.0 || z > v.rows.1 {
                continue;
            }
            let (mut low, mut high) = (f64::NEG_INFINITY, f64::INFINITY);
            for (l, h) in [
                v.before.map(|seg| seg.row_ends(z).1),
                v.after.map(|seg| seg.row_ends(z).0),
            ]
            .into_iter()
            .flatten()
            {
                (low, high) = (low.max(l), high.min(h));
            }
            if low > high {
                continue;
            }
            let w = (self.reach * self.reach - dz * dz).sqrt();
            let (low, high) = (low.max(v.at.x - w), high.min(v.at.x + w));
            if low > high {
                continue;
            }
            let cols = closed_columns(xs, inv_step, (low, high));
            if !cols.is_empty() {
                self.parts.push(Part { cols, key: v.key });
            }
        }
        // A handful of parts: insertion sort.
        for i in 1..self.parts.len() {
            let mut k = i;
            while k > 0 && self.parts[k - 1].cols.start > self.parts[k].cols.start {
                self.parts.swap(k - 1, k);
                k -= 1;
            }
        }
    }

    fn segment(&self, key: Key) -> &'a Segment {
        let j = self.keys.partition_point(|&k| k < key);
        self.segments[j.min(self.segments.len() - 1)]
    }

    /// Part `key` as the row at `z` sees it.
    #[inline]
    fn nearest(&self, key: Key, z: f64) -> Option<Nearest<'a>> {
        if is_segment(key) {
            let seg = self.segment(key);
            Some(Nearest::Beside(seg, BandRow::new(seg, z, self.depth)))
        } else {
            self.vertex(key).map(|v| Nearest::Vertex(*v))
        }
    }

    fn vertex(&self, key: Key) -> Option<&Vertex<'a>> {
        self.vertices.iter().find(|v| v.key == key)
    }

    /// Applies the path to the row at `z`: its samples' `x` in `xs` (ascending when `inv_step`
    /// is positive and finite, otherwise each sample is cut on its own), their `heights` and
    /// `slopes`. `true` where it cut the row as a whole: the parts of the cut then describe it.
    pub fn apply_row(
        &mut self,
        z: f64,
        xs: &[f64],
        inv_step: f64,
        heights: &mut [f32],
        slopes: &mut [[f32; 2]],
    ) -> bool {
        if self.segments.is_empty() || xs.is_empty() {
            return false;
        }
        if !(inv_step > 0.0 && inv_step.is_finite()) {
            for i in 0..xs.len() {
                let k = i..i + 1;
                self.apply_row(
                    z,
                    &xs[k.clone()],
                    1.0,
                    &mut heights[k.clone()],
                    &mut slopes[k],
                );
            }
            return false;
        }
        self.cut_row(z, xs, inv_step);
        self.apply_parts(z, xs, heights, slopes);
        true
    }

    /// [`apply_row`](Self::apply_row), then the same to the row at `z` of a coarser grid
    /// (`coarse`: its samples' `x`, heights and slopes) whose samples are every other sample of
    /// this row (`coarse.0[i]` is `xs[2·i]`, the same bits): the row's parts, their columns
    /// halved, are exactly the ones the coarse row would cut.
    pub fn apply_row_with_coarse(
        &mut self,
        z: f64,
        xs: &[f64],
        inv_step: f64,
        heights: &mut [f32],
        slopes: &mut [[f32; 2]],
        coarse: Option<(&[f64], &mut [f32], &mut [[f32; 2]])>,
    ) {
        let cut = self.apply_row(z, xs, inv_step, heights, slopes);
        let Some((coarse_xs, coarse_heights, coarse_slopes)) = coarse else {
            return;
        };
        if !cut {
            // Not cut as a whole row: the coarse row is cut on its own.
            self.apply_row(z, coarse_xs, 0.5 * inv_step, coarse_heights, coarse_slopes);
            return;
        }
        // Column `i` of the coarse row is column `2·i` of this one.
        let n = coarse_xs.len();
        for part in &mut self.parts {
            part.cols = part.cols.start.div_ceil(2).min(n)..part.cols.end.div_ceil(2).min(n);
        }
        self.parts.retain(|part| !part.cols.is_empty());
        self.apply_parts(z, coarse_xs, coarse_heights, coarse_slopes);
    }

    /// Applies the parts of the last cut to the row at `z`: each alone where it is, the nearest
    /// where they overlap.
    fn apply_parts(&mut self, z: f64, xs: &[f64], heights: &mut [f32], slopes: &mut [[f32; 2]]) {
        let mut p = 0;
        while p < self.parts.len() {
            // A cluster: parts whose columns overlap one after another.
            let mut end = self.parts[p].cols.end;
            let mut q = p + 1;
            while q < self.parts.len() && self.parts[q].cols.start < end {
                end = end.max(self.parts[q].cols.end);
                q += 1;
            }
            if q == p + 1 {
                let Part { cols, key } = self.parts[p].clone();
                self.apply_part(key, z, cols, xs, heights, slopes);
            } else {
                self.apply_cluster(p..q, z, xs, heights, slopes);
            }
            p = q;
        }
    }

    /// Part `key` alone over the samples `cols`.
    fn apply_part(
        &self,
        key: Key,
        z: f64,
        cols: Range<usize>,
        xs: &[f64],
        heights: &mut [f32],
        slopes: &mut [[f32; 2]],
    ) {
        if let Some(nearest) = self.nearest(key, z) {
            self.apply_nearest(&nearest, z, cols, xs, heights, slopes);
        }
    }

    /// A part as the row at `z` sees it alone over the samples `cols`.
    #[inline(always)]
    fn apply_nearest(
        &self,
        nearest: &Nearest,
        z: f64,
        cols: Range<usize>,
        xs: &[f64],
        heights: &mut [f32],
        slopes: &mut [[f32; 2]],
    ) {
        let (xs, heights, slopes) = (
            &xs[cols.clone()],
            &mut heights[cols.clone()],
            &mut slopes[cols],
        );
        match nearest {
            Nearest::Beside(_, row) => row.apply_run(&self.blend, self.kernel, xs, heights, slopes),
            Nearest::Vertex(v) => {
                for ((&x, h), g) in xs.iter().zip(heights).zip(slopes) {
                    apply_vertex(&self.blend, v, x, z, h, g);
                }
            }
        }
    }

    /// Overlapping parts (`self.parts[range]`): cut where one starts or ends; a piece with one
    /// part is that part's run, in the others each sample takes its nearest.
    fn apply_cluster(
        &mut self,
        range: Range<usize>,
        z: f64,
        xs: &[f64],
        heights: &mut [f32],
        slopes: &mut [[f32; 2]],
    ) {
        let mut near = std::mem::take(&mut self.near);
        near.clear();
        for part in &self.parts[range] {
            if let Some(nearest) = self.nearest(part.key, z) {
                near.push((part.clone(), nearest));
            }
        }
        let mut cuts = std::mem::take(&mut self.cuts);
        cuts.clear();
        cuts.extend(near.iter().flat_map(|(p, _)| [p.cols.start, p.cols.end]));
        cuts.sort_unstable();
        cuts.dedup();
        let mut here_at = std::mem::take(&mut self.here);
        for piece in cuts.windows(2).map(|w| w[0]..w[1]) {
            here_at.clear();
            here_at.extend((0..near.len()).filter(|&k| near[k].0.cols.contains(&piece.start)));
            let here = || here_at.iter().map(|&k| &near[k]);
            // One segment, and vertices that cannot come nearer than it beside it: the
            // segment's run.
            let mut bands = here_at.iter().filter_map(|&k| match &near[k].1 {
                Nearest::Beside(seg, _) => Some((k, *seg)),
                Nearest::Vertex(_) => None,
            });
            if let (Some((k, seg)), None) = (bands.next(), bands.next())
                && here()
                    .all(|(_, n)| !matches!(n, Nearest::Vertex(v) if v.rivals(seg, self.reach)))
            {
                self.apply_nearest(&near[k].1, z, piece, xs, heights, slopes);
                continue;
            }
            if let [k] = here_at[..] {
                self.apply_nearest(&near[k].1, z, piece, xs, heights, slopes);
                continue;
            }
            for i in piece {
                let best = here().min_by(|a, b| {
                    let (da, db) = (a.1.distance2(xs[i], z), b.1.distance2(xs[i], z));
                    da.total_cmp(&db).then(a.0.key.cmp(&b.0.key))
                });
                let (h, g) = (&mut heights[i], &mut slopes[i]);
                match best {
                    Some((_, Nearest::Beside(_, row))) => row.one(&self.blend, xs[i], h, g),
                    Some((_, Nearest::Vertex(v))) => apply_vertex(&self.blend, v, xs[i], z, h, g),
                    None => {}
                }
            }
        }
        self.here = here_at;
        self.near = near;
        self.cuts = cuts;
    }

    /// The distance from `p` to the path's centre line (among the listed segments and their
    /// vertices), the nearest part chosen as a grid's row chooses it; `None` beyond reach.
    pub fn distance(&mut self, p: DVec2) -> Option<f64> {
        if self.segments.is_empty() {
            return None;
        }
        self.cut_row(p.y, &[p.x], 1.0);
        self.parts
            .iter()
            .filter_map(|part| self.nearest(part.key, p.y))
            .map(|part| part.distance2(p.x, p.y))
            .reduce(f64::min)
            .map(f64::sqrt)
    }
}
