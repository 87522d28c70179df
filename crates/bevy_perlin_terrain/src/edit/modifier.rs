//! One stamp or path placed in the terrain's space, and what it does to the ground at a point:
//! a new height and its exact gradient from the noise's height and gradient there.
//!
//! Every modifier measures a signed distance `d` from its flat part (negative inside: the
//! stamp's shape, or the path's width around its centre line) and blends over `falloff` metres
//! beyond it with the weight `w = 1 − S(d / falloff)`, `S` the cubic smoothstep, whose slope is
//! zero at both ends, so the edited ground has no crease where the blend starts or ends. Heights
//! and gradients follow by the product rule: flattening to `t` gives `h' = h(1 − w) + t·w` and
//! `∇h' = ∇h(1 − w) + (t − h)∇w + w∇t`, so normals stay exact.

use crate::space::Bounds;
use bevy::math::DVec2;

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
}

impl Segment {
    /// The segment from `a` (height `ya`) to `b` (height `yb`), mattering within `reach`.
    pub fn new(a: DVec2, b: DVec2, ya: f64, yb: f64, reach: f64) -> Self {
        let u = b - a;
        let len2 = u.length_squared();
        Self {
            a,
            b,
            ya,
            yb,
            bounds: Bounds {
                min: a.min(b) - DVec2::splat(reach),
                max: a.max(b) + DVec2::splat(reach),
            },
            normal: u.perp().normalize_or_zero(),
            inv_len2: if len2 > 0.0 { 1.0 / len2 } else { 0.0 },
        }
    }

    /// The `x` interval of the row at `z` within `reach` of the segment (a capsule cut by a
    /// line: the union of the two end discs' and the middle band's cuts), widened by a
    /// millimetre's millionth so that rounding never leaves out a segment within reach; `None`
    /// if the row passes farther away.
    pub fn row_interval(&self, z: f64, reach: f64) -> Option<(f64, f64)> {
        let mut low = f64::INFINITY;
        let mut high = f64::NEG_INFINITY;
        for end in [self.a, self.b] {
            let dz = z - end.y;
            if dz.abs() <= reach {
                let w = (reach * reach - dz * dz).max(0.0).sqrt();
                (low, high) = (low.min(end.x - w), high.max(end.x + w));
            }
        }
        // The band: 0 ≤ (p − a)·u ≤ |u|² and |(p − a) × u| ≤ reach·|u|, both linear in x.
        let u = self.b - self.a;
        let dz = z - self.a.y;
        let along = cut(u.x, dz * u.y - self.a.x * u.x, 0.0, u.length_squared());
        let beside = cut(
            u.y,
            -self.a.x * u.y - dz * u.x,
            -reach * u.length(),
            reach * u.length(),
        );
        if let (Some(a), Some(b), true) = (along, beside, u != DVec2::ZERO) {
            let (l, h) = (a.0.max(b.0), a.1.min(b.1));
            if l <= h {
                (low, high) = (low.min(l), high.max(h));
            }
        }
        let slack = 1e-9 * (1.0 + low.abs().max(high.abs()));
        (low <= high).then_some((low - slack, high + slack))
    }
}

/// The `x` where `c·x + k` lies in `[lo, hi]`: an interval, everything (`c = 0` and `k` in it),
/// or nothing.
fn cut(c: f64, k: f64, lo: f64, hi: f64) -> Option<(f64, f64)> {
    if c > 0.0 {
        Some(((lo - k) / c, (hi - k) / c))
    } else if c < 0.0 {
        Some(((hi - k) / c, (lo - k) / c))
    } else {
        (k >= lo && k <= hi).then_some((f64::NEG_INFINITY, f64::INFINITY))
    }
}

/// Where a modifier's flat part is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Footprint {
    Circle {
        centre: DVec2,
        radius: f64,
    },
    /// A rectangle turned so that its local `x` runs along `axis_x` and `z` along `axis_z`.
    Rect {
        centre: DVec2,
        axis_x: DVec2,
        axis_z: DVec2,
        half: DVec2,
    },
    /// A centre line (its segments) and half the width around it.
    Path {
        segments: Vec<Segment>,
        half_width: f64,
    },
}

/// What a modifier does inside its footprint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Action {
    Flatten {
        height: f64,
    },
    Raise(f64),
    Lower(f64),
    /// A bowl `depth` deep at the centre, rising to a rim `rim` high at the footprint's edge
    /// (`inner` metres from the centre for a circle, the nearer side for a rectangle), which
    /// falls back to the ground over the falloff.
    Crater {
        depth: f64,
        rim: f64,
        inner: f64,
    },
    /// Flat across at the centre line's height.
    Road,
    /// Flat across `depth` below the centre line's height, never raising the ground.
    Channel {
        depth: f64,
    },
}

/// A stamp or path, resolved into the terrain's space: ready to apply.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Modifier {
    pub footprint: Footprint,
    pub falloff: f64,
    pub action: Action,
    pub clear_scatter: bool,
    /// Everything it can change: the footprint and the falloff around it.
    pub bounds: Bounds,
}

/// The signed distance from a footprint at a point, its gradient, and for a path the centre
/// line's height there and its gradient.
struct Distance {
    d: f64,
    grad: DVec2,
    line: (f64, DVec2),
}

/// The cubic smoothstep on `[0, 1]` and its derivative.
#[inline]
fn smoothstep(s: f64) -> (f64, f64) {
    let s = s.clamp(0.0, 1.0);
    (s * s * (3.0 - 2.0 * s), 6.0 * s * (1.0 - s))
}

/// The unit vector along `v`, zero for a zero vector.
#[inline]
fn unit_or_zero(v: DVec2, length: f64) -> DVec2 {
    if length > 0.0 {
        v / length
    } else {
        DVec2::ZERO
    }
}

impl Modifier {
    /// The signed distance at `p`; for a path the nearest of `segments` (indices into its own,
    /// ascending; the first of equals wins); `None` when none is given, or beyond a circle's
    /// reach (where nothing changes).
    #[inline(always)]
    fn distance(&self, p: DVec2, segments: &[u32]) -> Option<Distance> {
        let flat = (0.0, DVec2::ZERO);
        match &self.footprint {
            Footprint::Circle { centre, radius } => {
                let v = p - *centre;
                let reach = radius + self.falloff;
                if v.length_squared() > reach * reach {
                    return None;
                }
                let r = v.length();
                Some(Distance {
                    d: r - radius,
                    grad: unit_or_zero(v, r),
                    line: flat,
                })
            }
            Footprint::Rect {
                centre,
                axis_x,
                axis_z,
                half,
            } => {
                let v = p - *centre;
                let q = DVec2::new(v.dot(*axis_x), v.dot(*axis_z));
                let k = q.abs() - *half;
                let outside = k.max(DVec2::ZERO);
                let out = outside.length();
                let local = if out > 0.0 {
                    outside / out * q.signum()
                } else if k.x > k.y {
                    DVec2::new(q.x.signum(), 0.0)
                } else {
                    DVec2::new(0.0, q.y.signum())
                };
                Some(Distance {
                    d: out + k.x.max(k.y).min(0.0),
                    grad: local.x * *axis_x + local.y * *axis_z,
                    line: flat,
                })
            }
            Footprint::Path {
                segments: all,
                half_width,
            } => {
                let mut best: Option<(f64, &Segment, f64, DVec2, bool)> = None;
                for &s in segments {
                    let Some(seg) = all.get(s as usize) else {
                        continue;
                    };
                    let ap = p - seg.a;
                    let t = ap.dot(seg.b - seg.a) * seg.inv_len2;
                    // Beside the segment the distance is the offset along its normal (no square
                    // root); past an end, the distance to the end.
                    let beside = t > 0.0 && t < 1.0;
                    let along = if beside {
                        ap.dot(seg.normal) * seg.normal
                    } else if t <= 0.0 {
                        ap
                    } else {
                        p - seg.b
                    };
                    let d2 = along.length_squared();
                    if best.is_none_or(|(b, ..)| d2 < b) {
                        best = Some((d2, seg, t.clamp(0.0, 1.0), along, beside));
                    }
                }
                let (d2, seg, t, along, beside) = best?;
                let rise = seg.yb - seg.ya;
                // Beside the segment: the offset along its normal, and the line's height changes
                // with the projection; past an end, the distance to the end and its height.
                let (r, grad, grad_y) = if beside {
                    let offset = along.dot(seg.normal);
                    let grad_y = rise * (seg.b - seg.a) * seg.inv_len2;
                    (offset.abs(), offset.signum() * seg.normal, grad_y)
                } else {
                    let r = d2.sqrt();
                    (r, unit_or_zero(along, r), DVec2::ZERO)
                };
                Some(Distance {
                    d: r - half_width,
                    grad,
                    line: (seg.ya + t * rise, grad_y),
                })
            }
        }
    }

    /// The ground at `p` after this modifier, from height `h` and gradient `g` before it
    /// (`segments`: as for [`distance`](Self::distance)). Untouched (the same bits) outside the
    /// footprint and its falloff.
    // Always inlined: the grid pass calls it once a sample, and a call returning its tuple through
    // memory cost a third of the time of a road's samples.
    #[inline(always)]
    pub fn apply(&self, p: DVec2, segments: &[u32], h: f32, g: [f32; 2]) -> (f32, [f32; 2]) {
        if let Footprint::Circle { centre, radius } = &self.footprint
            && (p - *centre).length_squared() <= radius * radius
        {
            // Inside a disc: no distance needed but for a crater.
            match self.action {
                Action::Flatten { height } => return (height as f32, [0.0, 0.0]),
                Action::Raise(m) => return ((h as f64 + m) as f32, g),
                Action::Lower(m) => return ((h as f64 - m) as f32, g),
                _ => {}
            }
        }
        let Some(Distance { d, grad, line }) = self.distance(p, segments) else {
            return (h, g);
        };
        let falloff = self.falloff;
        if d >= falloff && d > 0.0 {
            return (h, g);
        }
        // The blend weight and its gradient.
        let (w, dw) = if d <= 0.0 {
            (1.0, DVec2::ZERO)
        } else {
            let (s, ds) = smoothstep(d / falloff);
            (1.0 - s, -ds / falloff * grad)
        };
        let (h0, g0) = (h as f64, DVec2::new(g[0] as f64, g[1] as f64));
        let towards = |t: f64, dt: DVec2| {
            // `w = 1` gives `t` exactly: `h·0 + t`.
            (
                h0 * (1.0 - w) + t * w,
                g0 * (1.0 - w) + (t - h0) * dw + w * dt,
            )
        };
        let (h1, g1) = match self.action {
            Action::Flatten { height } => towards(height, DVec2::ZERO),
            Action::Raise(m) => (h0 + m * w, g0 + m * dw),
            Action::Lower(m) => (h0 - m * w, g0 - m * dw),
            Action::Crater { depth, rim, inner } => {
                let (offset, slope) = if d <= 0.0 {
                    let u = 1.0 + d / inner;
                    let (s, ds) = smoothstep(u);
                    let ds = if u > 0.0 { ds } else { 0.0 };
                    (
                        -depth + (depth + rim) * s,
                        (depth + rim) * ds / inner * grad,
                    )
                } else {
                    (rim * w, rim * dw)
                };
                (h0 + offset, g0 + slope)
            }
            Action::Road => towards(line.0, line.1),
            Action::Channel { depth } => {
                let bed = line.0 - depth;
                if h0 <= bed {
                    return (h, g);
                }
                towards(bed, line.1)
            }
        };
        (h1 as f32, [g1.x as f32, g1.y as f32])
    }

    /// A road or channel over the samples of one row (at `z`, their `x` in `xs`) that all lie
    /// beside segment `s` (their projections strictly inside it): the blend of [`apply`]
    /// (Self::apply) in one branch-free pass over the run, the height across the path from the
    /// offset along the segment's normal. `false` (nothing done) for a stamp, a path without
    /// falloff (whose samples go through [`apply`](Self::apply)) or an unknown segment.
    pub fn blend_beside(
        &self,
        s: u32,
        z: f64,
        xs: &[f64],
        heights: &mut [f32],
        slopes: &mut [[f32; 2]],
    ) -> bool {
        let (Footprint::Path { half_width, .. }, Some(seg)) =
            (&self.footprint, self.segment(s as usize))
        else {
            return false;
        };
        let (falloff, half_width) = (self.falloff, *half_width);
        let (depth, never_raise) = match self.action {
            Action::Road => (0.0, false),
            Action::Channel { depth } => (depth, true),
            _ => return false,
        };
        if falloff <= 0.0 {
            return false;
        }
        let inv_falloff = 1.0 / falloff;
        let u = seg.b - seg.a;
        let rise = seg.yb - seg.ya;
        let grad_y = rise * u * seg.inv_len2;
        let dz = z - seg.a.y;
        for ((&x, h), g) in xs.iter().zip(heights.iter_mut()).zip(slopes.iter_mut()) {
            let ap = DVec2::new(x - seg.a.x, dz);
            let t = ap.dot(u) * seg.inv_len2;
            let offset = ap.dot(seg.normal);
            let d = offset.abs() - half_width;
            // The smoothstep blend: 1 on the path, 0 beyond the falloff, and its gradient.
            let k = (d * inv_falloff).clamp(0.0, 1.0);
            let w = 1.0 - k * k * (3.0 - 2.0 * k);
            let dw = (-6.0 * k * (1.0 - k) * inv_falloff * offset.signum()) * seg.normal;
            let target = seg.ya + t * rise - depth;
            let (h0, g0) = (*h as f64, DVec2::new(g[0] as f64, g[1] as f64));
            let h1 = h0 * (1.0 - w) + target * w;
            let g1 = g0 * (1.0 - w) + (target - h0) * dw + w * grad_y;
            // Beyond the falloff (and, for a channel, below its bed) the ground stays as it is.
            let keep = d >= falloff || (never_raise && h0 <= target);
            *h = if keep { *h } else { h1 as f32 };
            *g = if keep { *g } else { [g1.x as f32, g1.y as f32] };
        }
        true
    }

    /// Segment `s` against the samples of a row at `z` (their `x` in `xs`, indices `cols`): each
    /// sample's squared distance to it and whether it lies beside it (projection strictly inside),
    /// offered to `nearest` (indexed from `first`), which keeps the nearer (the earlier segment on
    /// a tie). Where a sample lies follows from one interval per row (its projection is linear in
    /// `x`), so the loops do not branch on it.
    pub fn offer_segment(
        &self,
        s: u32,
        z: f64,
        xs: &[f64],
        cols: std::ops::Range<usize>,
        first: usize,
        nearest: &mut [(f64, u32, bool)],
    ) {
        let Some(seg) = self.segment(s as usize) else {
            return;
        };
        let u = seg.b - seg.a;
        let dz = z - seg.a.y;
        // t(x) = (x − a.x)·u.x·k + dz·u.y·k with k = 1/|u|²: the x where 0 < t < 1.
        let beside = if seg.inv_len2 > 0.0 {
            cut(
                u.x * seg.inv_len2,
                (dz * u.y - seg.a.x * u.x) * seg.inv_len2,
                0.0,
                1.0,
            )
        } else {
            None
        };
        for i in cols {
            let x = xs[i];
            let ap = DVec2::new(x - seg.a.x, dz);
            let inside = beside.is_some_and(|(l, h)| x > l && x < h);
            let t = ap.dot(u) * seg.inv_len2;
            let d2 = if inside {
                ap.dot(seg.normal).powi(2)
            } else if t <= 0.5 {
                ap.length_squared()
            } else {
                DVec2::new(x - seg.b.x, z - seg.b.y).length_squared()
            };
            let best = &mut nearest[i - first];
            if d2 < best.0 {
                *best = (d2, s, inside);
            }
        }
    }

    /// Whether `p` is on the part of the modifier where nothing grows (with `clear_scatter`):
    /// the footprint and the inner half of its falloff.
    pub fn clears(&self, p: DVec2, segments: &[u32]) -> bool {
        self.clear_scatter
            && self
                .distance(p, segments)
                .is_some_and(|d| d.d <= 0.5 * self.falloff)
    }

    /// The number of path segments (0 for a stamp).
    pub fn segment_count(&self) -> usize {
        match &self.footprint {
            Footprint::Path { segments, .. } => segments.len(),
            _ => 0,
        }
    }

    /// Segment `s`, for a path.
    pub fn segment(&self, s: usize) -> Option<&Segment> {
        match &self.footprint {
            Footprint::Path { segments, .. } => segments.get(s),
            _ => None,
        }
    }

    /// How far from its footprint's flat part it can change the ground: for a path, half the
    /// width plus the falloff from the centre line.
    pub fn reach(&self) -> f64 {
        match &self.footprint {
            Footprint::Path { half_width, .. } => half_width + self.falloff,
            _ => self.falloff,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn circle(action: Action, falloff: f64) -> Modifier {
        Modifier {
            footprint: Footprint::Circle {
                centre: DVec2::new(10.0, -5.0),
                radius: 20.0,
            },
            falloff,
            action,
            clear_scatter: true,
            bounds: Bounds::around(DVec2::new(10.0, -5.0), DVec2::splat(20.0 + falloff)),
        }
    }

    /// A sloping plane `h = 0.3x − 0.1z + 7` under the modifier.
    fn plane(p: DVec2) -> (f32, [f32; 2]) {
        ((0.3 * p.x - 0.1 * p.y + 7.0) as f32, [0.3, -0.1])
    }

    /// The gradient the modifier reports against central differences of its heights, at
    /// points through the footprint and the falloff.
    fn assert_gradients_match_heights(m: &Modifier, segments: &[u32]) {
        let step = 1e-3;
        let at = |p: DVec2| {
            let (h, g) = plane(p);
            m.apply(p, segments, h, g)
        };
        for k in 0..200 {
            let p = DVec2::new(-25.0 + 0.31 * k as f64, -5.0 + 0.07 * k as f64);
            let (_, g) = at(p);
            let dx = (at(p + DVec2::X * step).0 as f64 - at(p - DVec2::X * step).0 as f64)
                / (2.0 * step);
            let dz = (at(p + DVec2::Y * step).0 as f64 - at(p - DVec2::Y * step).0 as f64)
                / (2.0 * step);
            // f32 heights of about 10 m differenced over 2 mm: about 1e-3 of noise.
            assert!(
                (g[0] as f64 - dx).abs() < 5e-3 && (g[1] as f64 - dz).abs() < 5e-3,
                "at {p}: gradient {g:?}, heights say [{dx}, {dz}] ({:?})",
                m.action
            );
        }
    }

    #[test]
    fn every_action_reports_the_gradient_of_its_heights() {
        for action in [
            Action::Flatten { height: 3.0 },
            Action::Raise(4.0),
            Action::Lower(6.0),
            Action::Crater {
                depth: 8.0,
                rim: 2.0,
                inner: 20.0,
            },
        ] {
            assert_gradients_match_heights(&circle(action, 15.0), &[]);
        }
        let rect = Modifier {
            footprint: Footprint::Rect {
                centre: DVec2::new(0.0, -5.0),
                axis_x: DVec2::new(0.8, -0.6),
                axis_z: DVec2::new(0.6, 0.8),
                half: DVec2::new(12.0, 5.0),
            },
            ..circle(Action::Flatten { height: -2.0 }, 9.0)
        };
        assert_gradients_match_heights(&rect, &[]);
        let road = Modifier {
            footprint: Footprint::Path {
                segments: vec![Segment::new(
                    DVec2::new(-40.0, -20.0),
                    DVec2::new(40.0, 10.0),
                    0.0,
                    12.0,
                    60.0,
                )],
                half_width: 3.0,
            },
            ..circle(Action::Road, 10.0)
        };
        assert_gradients_match_heights(&road, &[0]);
    }

    #[test]
    fn a_row_is_within_reach_of_a_segment_exactly_over_its_interval() {
        let segments = [
            (DVec2::new(-7.0, 3.0), DVec2::new(12.0, -9.0)),
            (DVec2::new(0.0, 0.0), DVec2::new(20.0, 0.0)),
            (DVec2::new(5.0, -10.0), DVec2::new(5.0, 10.0)),
            (DVec2::new(1.0, 1.0), DVec2::new(1.0, 1.0)),
        ];
        let reach = 6.0;
        for (a, b) in segments {
            let seg = Segment::new(a, b, 0.0, 0.0, reach);
            for row in -40..=40 {
                let z = row as f64 * 0.5;
                let interval = seg.row_interval(z, reach);
                for col in -120..=120 {
                    let p = DVec2::new(col as f64 * 0.25, z);
                    let ab = b - a;
                    let t = if ab == DVec2::ZERO {
                        0.0
                    } else {
                        ((p - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
                    };
                    let d = p.distance(a + t * ab);
                    let inside = interval.is_some_and(|(l, h)| p.x >= l && p.x <= h);
                    // Exact up to rounding at the edge.
                    if (d - reach).abs() > 1e-9 {
                        assert_eq!(inside, d < reach, "{a}–{b} at {p}: distance {d}");
                    }
                }
            }
        }
    }

    #[test]
    fn flatten_gives_its_height_exactly_inside_and_nothing_changes_beyond_the_falloff() {
        let m = circle(Action::Flatten { height: 37.25 }, 15.0);
        for p in [DVec2::new(10.0, -5.0), DVec2::new(29.9, -5.0)] {
            let (h, g) = plane(p);
            assert_eq!(m.apply(p, &[], h, g), (37.25, [0.0, 0.0]));
        }
        let p = DVec2::new(10.0 + 35.0, -5.0);
        let (h, g) = plane(p);
        let (h1, g1) = m.apply(p, &[], h, g);
        assert_eq!((h1.to_bits(), g1), (h.to_bits(), g));
        // Half way through the falloff: half way between.
        let p = DVec2::new(10.0 + 27.5, -5.0);
        let (h, g) = plane(p);
        let (h1, _) = m.apply(p, &[], h, g);
        assert!((h1 - 0.5 * (h + 37.25)).abs() < 1e-4, "{h1}");
    }

    #[test]
    fn a_crater_is_a_bowl_with_a_rim_and_a_channel_never_raises() {
        let m = circle(
            Action::Crater {
                depth: 8.0,
                rim: 2.0,
                inner: 20.0,
            },
            15.0,
        );
        let h = |x: f64| m.apply(DVec2::new(x, -5.0), &[], 0.0, [0.0, 0.0]).0;
        assert_eq!(h(10.0), -8.0);
        assert_eq!(h(30.0), 2.0);
        assert!(h(20.0) < 0.0 && h(20.0) > -8.0);
        assert!(h(37.0) > 0.0 && h(37.0) < 2.0);
        assert_eq!(h(46.0), 0.0);
        let channel = Modifier {
            footprint: Footprint::Path {
                segments: vec![Segment::new(
                    DVec2::new(-40.0, 0.0),
                    DVec2::new(40.0, 0.0),
                    5.0,
                    5.0,
                    60.0,
                )],
                half_width: 3.0,
            },
            ..circle(Action::Channel { depth: 2.0 }, 10.0)
        };
        // Ground above the bed is cut down to it; ground below it stays.
        assert_eq!(channel.apply(DVec2::ZERO, &[0], 9.0, [0.0, 0.0]).0, 3.0);
        assert_eq!(
            channel.apply(DVec2::ZERO, &[0], 1.0, [0.5, 0.0]),
            (1.0, [0.5, 0.0])
        );
        assert!(channel.clears(DVec2::new(0.0, 7.9), &[0]));
        assert!(!channel.clears(DVec2::new(0.0, 8.1), &[0]));
    }
}
