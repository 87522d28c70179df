//! The nearest point of a path's centre line for a block of lanes: each segment, as a row sees
//! it, offers its point to every lane, and a lane takes it where it is nearer, the choice made
//! on the bits so that the lanes vectorise.

use super::WIDE;
use super::segment::Segment;
use bevy::math::Vec2;

/// The nearest point of the centre line for `L` samples, as far as the segments looked at
/// so far go: its squared distance, the offset from it to the sample, the centre line's height
/// there and that height's gradient (zero at a vertex).
#[derive(Clone, Copy, Debug)]
pub(super) struct Nearest<const L: usize> {
    pub(super) d2: [f32; L],
    pub(super) off: [[f32; L]; 2],
    pub(super) target: [f32; L],
    pub(super) grade: [[f32; L]; 2],
}

impl<const L: usize> Nearest<L> {
    /// No point yet: every lane infinitely far.
    pub(super) const NONE: Self = Self {
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
pub(super) struct SegmentRow {
    pub(super) cols: (usize, usize),
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
    pub(super) fn new(seg: &Segment, depth: f64) -> Self {
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
    pub(super) fn at(&self, z: f64, cols: (usize, usize)) -> Self {
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
    pub(super) fn nearer<const L: usize, const EDGE: bool>(
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
