//! From what a game or a file writes ([`TerrainStamp`], [`TerrainPath`], [`FixedStamp`]) to
//! [`Modifier`]s in the terrain's space: the stamp's turned footprint, the path's curve cut
//! into segments. (The checks that keep absurd values out are the config's, `config/edits.rs`.)

use super::modifier::{Action, Footprint, Modifier};
use super::path::Segment;
use crate::config::{
    FixedStamp, PathOp, StampOp, StampShape, TerrainConfig, TerrainPath, TerrainStamp,
    validate_fixed_stamp, validate_path,
};
use crate::space::Bounds;
use bevy::math::{DVec2, DVec3, Quat, Vec3};

/// The most segments one span of a path's curve is cut into.
const MOST_PIECES: usize = 32;
/// How far a path's segments may stray from its curve (across, or in height), as a share of
/// its width; and at most, in metres.
const STRAY_OF_WIDTH: f64 = 0.04;
const MOST_STRAY: f64 = 0.5;

/// `stamp` centred on `centre` (its height `height`), its local axes along `axis_x` and
/// `axis_z` (unit vectors on the XZ plane).
pub(crate) fn stamp_modifier(
    stamp: &TerrainStamp,
    centre: DVec2,
    height: f64,
    axis_x: DVec2,
    axis_z: DVec2,
) -> Modifier {
    let falloff = stamp.falloff as f64;
    let (footprint, extent, inner) = match stamp.shape {
        StampShape::Circle { radius } => {
            let radius = radius as f64;
            (
                Footprint::Circle { centre, radius },
                DVec2::splat(radius),
                radius,
            )
        }
        StampShape::Rect { half_extents } => {
            let half = half_extents.as_dvec2();
            (
                Footprint::Rect {
                    centre,
                    axis_x,
                    axis_z,
                    half,
                },
                axis_x.abs() * half.x + axis_z.abs() * half.y,
                half.min_element(),
            )
        }
    };
    let action = match stamp.op {
        StampOp::Flatten => Action::Flatten { height },
        StampOp::Raise(m) => Action::Raise(m as f64),
        StampOp::Lower(m) => Action::Lower(m as f64),
        StampOp::Crater { depth } => Action::Crater {
            depth: depth as f64,
            rim: 0.25 * depth as f64,
            inner,
        },
    };
    Modifier {
        footprint,
        falloff,
        action,
        clear_scatter: stamp.clear_scatter,
        bounds: Bounds::around(centre, extent + DVec2::splat(falloff)),
    }
}

/// The horizontal unit axes of a rotation: where it turns `x` and `z`, flattened onto the XZ
/// plane (a tilted stamp keeps its yaw).
pub(crate) fn flat_axes(rotation: Quat) -> (DVec2, DVec2) {
    let flat = |v: Vec3| {
        let v = DVec2::new(v.x as f64, v.z as f64);
        v.try_normalize()
    };
    match (flat(rotation * Vec3::X), flat(rotation * Vec3::Z)) {
        (Some(x), Some(z)) => (x, z),
        // Turned on its side: only the yaw of the one axis still on the plane counts.
        (Some(x), None) => (x, x.perp()),
        (None, Some(z)) => (-z.perp(), z),
        (None, None) => (DVec2::X, DVec2::Y),
    }
}

/// A stamp of the config.
fn fixed_stamp_modifier(fixed: &FixedStamp) -> Modifier {
    let (axis_x, axis_z) = flat_axes(Quat::from_rotation_y(fixed.yaw.to_radians()));
    let p = fixed.position.as_dvec3();
    stamp_modifier(&fixed.stamp, DVec2::new(p.x, p.z), p.y, axis_x, axis_z)
}

/// Point `t` (0 to 1) of the uniform Catmull-Rom span from `p1` to `p2`.
fn catmull_rom(p0: DVec3, p1: DVec3, p2: DVec3, p3: DVec3, t: f64) -> DVec3 {
    let (t2, t3) = (t * t, t * t * t);
    0.5 * (2.0 * p1
        + (p2 - p0) * t
        + (2.0 * p0 - 5.0 * p1 + 4.0 * p2 - p3) * t2
        + (3.0 * p1 - p0 - 3.0 * p2 + p3) * t3)
}

/// How far the curve `at` (a span, `t` from 0 to 1) strays from the chords of `pieces` equal
/// steps of `t`: the largest distance, across on the ground or in height, at seven points
/// inside each piece.
fn stray(at: impl Fn(f64) -> DVec3, pieces: usize) -> f64 {
    let mut worst: f64 = 0.0;
    for k in 0..pieces {
        let t = |j: f64| (k as f64 + j) / pieces as f64;
        let (a, b) = (at(t(0.0)), at(t(1.0)));
        let chord = DVec2::new(b.x - a.x, b.z - a.z);
        let len2 = chord.length_squared();
        for j in 1..8 {
            let p = at(t(j as f64 / 8.0));
            let off = DVec2::new(p.x - a.x, p.z - a.z);
            let s = if len2 > 0.0 {
                (off.dot(chord) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let across = (off - chord * s).length();
            let up = (p.y - (a.y + s * (b.y - a.y))).abs();
            worst = worst.max(across).max(up);
        }
    }
    worst
}

/// `path` as segments along its curve: each span cut into as few pieces as keep the segments
/// within a 25th of the width (at most 0.5 m) of the curve, across and in height, and never
/// into more than pieces about as long on the ground as the path's reach (half the width plus
/// the falloff; 4 to 24 m, at most [`MOST_PIECES`] a span). A straight, evenly graded span is
/// one segment; a bend keeps the reach-long pieces.
pub(crate) fn path_modifier(path: &TerrainPath) -> Modifier {
    path_modifier_from(path, DVec3::ZERO)
}

/// [`path_modifier`] of a path whose points are offsets from `origin` (a path entity placed by
/// cell in a floating-origin grid).
pub(crate) fn path_modifier_from(path: &TerrainPath, origin: DVec3) -> Modifier {
    let points: Vec<DVec3> = path.points.iter().map(|p| origin + p.as_dvec3()).collect();
    let half_width = 0.5 * path.width as f64;
    let falloff = path.falloff as f64;
    let reach = half_width + falloff;
    let piece = reach.clamp(4.0, 24.0);
    let tolerance = (STRAY_OF_WIDTH * path.width as f64).min(MOST_STRAY);
    let mut line: Vec<DVec3> = points.first().copied().into_iter().collect();
    for i in 0..points.len().saturating_sub(1) {
        let at = |k: isize| points[(i as isize + k).clamp(0, points.len() as isize - 1) as usize];
        let (p0, p1, p2, p3) = (at(-1), at(0), at(1), at(2));
        let curve = |t| catmull_rom(p0, p1, p2, p3, t);
        let chord = DVec2::new(p2.x - p1.x, p2.z - p1.z).length();
        let most = ((chord / piece).ceil() as usize).clamp(1, MOST_PIECES);
        // A chord's stray falls about as the square of the pieces: start from that guess.
        let guess = (stray(curve, 1) / tolerance).sqrt().ceil();
        let mut pieces = (guess as usize).clamp(1, most);
        while pieces < most && stray(curve, pieces) > tolerance {
            pieces += 1;
        }
        for k in 1..=pieces {
            let t = k as f64 / pieces as f64;
            line.push(if k == pieces { p2 } else { curve(t) });
        }
    }
    let links: Vec<Segment> = line
        .windows(2)
        .map(|w| {
            let (a, b) = (DVec2::new(w[0].x, w[0].z), DVec2::new(w[1].x, w[1].z));
            Segment::new(a, b, w[0].y, w[1].y, reach)
        })
        .collect();
    let segments: Vec<Segment> = links
        .iter()
        .enumerate()
        .map(|(i, link)| link.clone().in_chain(i > 0, links.get(i + 1)))
        .collect();
    let bounds = segments
        .iter()
        .map(|s| s.bounds)
        .reduce(Bounds::union)
        .unwrap_or(Bounds::around(DVec2::ZERO, DVec2::ZERO));
    let action = match path.op {
        PathOp::Road => Action::Road,
        PathOp::Channel { depth } => Action::Channel {
            depth: depth as f64,
        },
    };
    Modifier {
        footprint: Footprint::Path {
            segments,
            half_width,
        },
        falloff,
        action,
        clear_scatter: path.clear_scatter,
        bounds,
    }
}

/// The config's own edits, in the order they apply: its paths, then its stamps (ones that do
/// not validate are left out; a config in force has been validated).
pub(crate) fn config_modifiers(config: &TerrainConfig) -> (Vec<Modifier>, Vec<Modifier>) {
    let paths = config
        .paths
        .iter()
        .filter(|p| validate_path(p).is_ok())
        .map(path_modifier)
        .collect();
    let stamps = config
        .stamps
        .iter()
        .filter(|s| validate_fixed_stamp(s).is_ok())
        .map(fixed_stamp_modifier)
        .collect();
    (paths, stamps)
}

/// The default stamp centred on (`x`, `z`) at height 0, unturned: the edits' tests' stamp.
#[cfg(test)]
pub(super) fn stamp_at(x: f64, z: f64) -> Modifier {
    stamp_modifier(
        &TerrainStamp::default(),
        DVec2::new(x, z),
        0.0,
        DVec2::X,
        DVec2::Y,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segments_of(modifier: &Modifier) -> &[Segment] {
        match &modifier.footprint {
            Footprint::Path { segments, .. } => segments,
            _ => panic!("a path"),
        }
    }

    #[test]
    fn a_path_passes_through_its_points_and_stays_within_its_tolerance_of_the_curve() {
        let path = TerrainPath {
            points: vec![
                Vec3::new(0.0, 1.0, 0.0),
                Vec3::new(60.0, 4.0, 0.0),
                Vec3::new(120.0, 7.0, 6.0),
            ],
            width: 5.0,
            ..TerrainPath::default()
        };
        let modifier = path_modifier(&path);
        let segments = segments_of(&modifier);
        // Reach 2.5 + 12 = 14.5 m: each span in at most 5 pieces; this gentle curve needs 3.
        assert_eq!(segments.len(), 6);
        assert_eq!((segments[0].a, segments[0].ya), (DVec2::ZERO, 1.0));
        assert!(
            segments
                .iter()
                .any(|s| (s.b, s.yb) == (DVec2::new(60.0, 0.0), 4.0))
        );
        assert_eq!(segments.last().map(|s| s.b), Some(DVec2::new(120.0, 6.0)));
        // The curve is continuous: each segment starts where the last ended.
        for w in segments.windows(2) {
            assert_eq!((w[0].b, w[0].yb), (w[1].a, w[1].ya));
        }
        // Every point of the curve within a 25th of the width (0.2 m) of the segments.
        let p: Vec<DVec3> = path.points.iter().map(|p| p.as_dvec3()).collect();
        for (p0, p1, p2, p3) in [(p[0], p[0], p[1], p[2]), (p[0], p[1], p[2], p[2])] {
            for k in 0..=200 {
                let c = catmull_rom(p0, p1, p2, p3, k as f64 / 200.0);
                let c = DVec2::new(c.x, c.z);
                let near = modifier.centre_line_distance(c);
                assert!(near <= 0.2 + 1e-9, "{near} m off at {c}");
            }
        }
    }

    #[test]
    fn a_straight_span_is_one_segment_and_a_bend_keeps_pieces_as_long_as_the_reach() {
        let through = |points: [[f32; 3]; 3]| TerrainPath {
            points: points.map(Vec3::from_array).to_vec(),
            ..TerrainPath::default()
        };
        let straight = through([[0.0, 0.0, 0.0], [50.0, 5.0, 0.0], [100.0, 10.0, 0.0]]);
        assert_eq!(segments_of(&path_modifier(&straight)).len(), 2);
        // Reach 3 + 12 = 15 m: a right angle of two 30 m spans in 2 + 2 pieces.
        let bend = through([[0.0, 0.0, 0.0], [30.0, 0.0, 0.0], [30.0, 0.0, 30.0]]);
        assert_eq!(segments_of(&path_modifier(&bend)).len(), 4);
    }
}
