//! One stamp or path placed in the terrain's space, and what it does to the ground at a point:
//! a new height and its exact gradient from the noise's height and gradient there.
//!
//! Every modifier measures a signed distance `d` from its flat part (negative inside: the
//! stamp's shape, or the path's width around its centre line) and blends over `falloff` metres
//! beyond it with the weight `w = 1 − S(d / falloff)`, `S` the cubic smoothstep, whose slope is
//! zero at both ends, so the edited ground has no crease where the blend starts or ends. Heights
//! and gradients follow by the product rule: flattening to `t` gives `h' = h(1 − w) + t·w` and
//! `∇h' = ∇h(1 − w) + (t − h)∇w + w∇t`, so normals stay exact.

use super::path::{PathPass, Segment};
use crate::space::Bounds;
use bevy::math::DVec2;

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

/// The signed distance from a stamp's footprint at a point, and its gradient.
struct Distance {
    d: f64,
    grad: DVec2,
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
    /// The signed distance from a stamp's footprint at `p`; `None` for a path (see
    /// [`path_pass`](Self::path_pass)) and beyond a circle's reach (where nothing changes).
    #[inline(always)]
    fn distance(&self, p: DVec2) -> Option<Distance> {
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
                })
            }
            Footprint::Path { .. } => None,
        }
    }

    /// The ground at `p` after this modifier, from height `h` and gradient `g` before it
    /// (`segments`: for a path, the indices of its segments to look at, ascending). Untouched
    /// (the same bits) outside the footprint and its falloff.
    // The grid pass calls `path_pass` and `apply_stamp` itself; this is the one-point view.
    #[cfg(test)]
    pub fn apply(&self, p: DVec2, segments: &[u32], h: f32, g: [f32; 2]) -> (f32, [f32; 2]) {
        match self.path_pass(segments) {
            Some(mut pass) => {
                let (mut h, mut g) = ([h], [g]);
                let sample = (p.y, (&mut h[..], &mut g[..]));
                pass.apply_rows(&[p.x], 1.0, std::iter::once(sample));
                (h[0], g[0])
            }
            None => self.apply_stamp(p, h, g),
        }
    }

    /// What the tests' one-point `apply` gives for a stamp (a path leaves the ground as it is
    /// here).
    // Always inlined: the grid pass calls it once a sample, and a call returning its tuple through
    // memory cost a third of the time of a stamp's samples.
    #[inline(always)]
    pub fn apply_stamp(&self, p: DVec2, h: f32, g: [f32; 2]) -> (f32, [f32; 2]) {
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
        let Some(Distance { d, grad }) = self.distance(p) else {
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
            // Paths went through their pass.
            Action::Road | Action::Channel { .. } => return (h, g),
        };
        (h1 as f32, [g1.x as f32, g1.y as f32])
    }

    /// Whether `p` is on the part of the modifier where nothing grows (with `clear_scatter`):
    /// the footprint and the inner half of its falloff.
    pub fn clears(&self, p: DVec2, segments: &[u32]) -> bool {
        let d = match (&self.footprint, self.path_pass(segments)) {
            (Footprint::Path { half_width, .. }, Some(mut pass)) => {
                pass.distance(p).map(|r| r - half_width)
            }
            _ => self.distance(p).map(|d| d.d),
        };
        self.clear_scatter && d.is_some_and(|d| d <= 0.5 * self.falloff)
    }

    /// Whether this is a road: a path with [`Action::Road`].
    #[cfg(feature = "navigation")]
    pub fn is_road(&self) -> bool {
        matches!(self.footprint, Footprint::Path { .. }) && matches!(self.action, Action::Road)
    }

    /// For a road, its pass over `segments` and half its width: a point within that distance of
    /// the centre line is on the road. `None` for anything else.
    #[cfg(feature = "navigation")]
    pub fn road_pass(&self, segments: &[u32]) -> Option<(PathPass<'_>, f64)> {
        let Footprint::Path { half_width, .. } = &self.footprint else {
            return None;
        };
        if !self.is_road() {
            return None;
        }
        Some((self.path_pass(segments)?, *half_width))
    }

    /// For a path, its pass over `segments` (indices into its own, ascending): what applies it
    /// to a row of samples.
    pub fn path_pass(&self, segments: &[u32]) -> Option<PathPass<'_>> {
        let Footprint::Path {
            segments: all,
            half_width,
        } = &self.footprint
        else {
            return None;
        };
        let (depth, never_raise) = match self.action {
            Action::Channel { depth } => (depth, true),
            _ => (0.0, false),
        };
        Some(PathPass::new(
            all,
            segments,
            *half_width,
            self.falloff,
            depth,
            never_raise,
        ))
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

    /// For the tests: the distance from `p` to a path's centre line, by brute force over its
    /// segments (infinite for a stamp).
    #[cfg(test)]
    pub fn centre_line_distance(&self, p: DVec2) -> f64 {
        (0..self.segment_count())
            .filter_map(|s| self.segment(s))
            .map(|seg| {
                let ab = seg.b - seg.a;
                let t = if ab == DVec2::ZERO {
                    0.0
                } else {
                    ((p - seg.a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
                };
                p.distance(seg.a + t * ab)
            })
            .fold(f64::INFINITY, f64::min)
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
