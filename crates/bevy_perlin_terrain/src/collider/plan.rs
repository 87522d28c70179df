//! Which chunks need colliders: pure functions of where the bodies are and where they are going,
//! tested without an `App`.

use crate::chunk::ChunkCoord;
use crate::space::distance_to_square;
use bevy::math::{IVec2, Vec2, Vec3, Vec3Swizzles};
use bevy::platform::collections::HashSet;

/// Seconds of travel ahead of a moving body that get colliders before it arrives: several
/// frames even at 10 fps, time for the tasks to finish.
pub(crate) const LOOKAHEAD: f32 = 0.5;

/// Metres around the path of the next frames in which a missing collider is built at once, on
/// the main thread, rather than waited for (capped by the collision radius).
pub(crate) const URGENT_MARGIN: f32 = 4.0;

/// Horizontal distance from `p` to the square of chunk `coord` (0 inside it).
pub(crate) fn distance_to_chunk(p: Vec2, coord: ChunkCoord, size: f32) -> f32 {
    let size = size as f64;
    distance_to_square(p.as_dvec2(), coord.as_dvec2() * size, size) as f32
}

/// Adds to `out` every chunk whose square lies within `radius` of the segment from `from` to
/// `to` (horizontally), walking the segment in steps of at most half a chunk.
pub(crate) fn chunks_along(
    from: Vec3,
    to: Vec3,
    radius: f32,
    size: f32,
    out: &mut HashSet<ChunkCoord>,
) {
    let (a, b) = (from.xz(), to.xz());
    if !(a.is_finite() && b.is_finite() && radius.is_finite() && size > 0.0) {
        return;
    }
    let steps = ((b - a).length() / (0.5 * size)).ceil().min(4096.0) as usize;
    for k in 0..=steps {
        let p = a.lerp(b, k as f32 / steps.max(1) as f32);
        let low = ((p - Vec2::splat(radius)) / size).floor().as_ivec2();
        let high = ((p + Vec2::splat(radius)) / size).floor().as_ivec2();
        for z in low.y..=high.y {
            for x in low.x..=high.x {
                let coord = IVec2::new(x, z);
                if distance_to_chunk(p, coord, size) <= radius {
                    out.insert(coord);
                }
            }
        }
    }
}

/// Whether chunk `coord` lies within `reach` of any of the swept segments.
pub(crate) fn near_any(paths: &[[Vec3; 2]], coord: ChunkCoord, size: f32, reach: f32) -> bool {
    paths.iter().any(|[from, to]| {
        let (a, b) = (from.xz(), to.xz());
        let centre = (coord.as_vec2() + Vec2::splat(0.5)) * size;
        // The nearest point of the segment to the chunk's centre, then the square's distance.
        let ab = b - a;
        let t = if ab.length_squared() > 0.0 {
            ((centre - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
        } else {
            0.0
        };
        distance_to_chunk(a + ab * t, coord, size) <= reach
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distance itself is `space::distance_to_square`'s (tested there); this is the chunk's
    /// square: chunk `(1, -1)` of 32 m spans `x` 32 to 64 and `z` -32 to 0, corners included.
    #[test]
    fn a_chunk_is_the_square_from_its_coordinate_times_its_size() {
        let c = IVec2::new(1, -1);
        assert_eq!(distance_to_chunk(Vec2::new(32.0, -32.0), c, 32.0), 0.0);
        assert_eq!(distance_to_chunk(Vec2::new(64.0, 0.0), c, 32.0), 0.0);
        assert_eq!(distance_to_chunk(Vec2::new(29.0, -36.0), c, 32.0), 5.0);
        assert_eq!(distance_to_chunk(Vec2::new(64.0, 2.0), c, 32.0), 2.0);
    }

    #[test]
    fn a_body_at_a_corner_gets_all_four_chunks_and_a_moving_one_its_path() {
        let mut near = HashSet::default();
        let corner = Vec3::new(64.0, 10.0, 64.0);
        chunks_along(corner, corner, 1.0, 32.0, &mut near);
        let mut got: Vec<_> = near.iter().map(|c| (c.x, c.y)).collect();
        got.sort();
        assert_eq!(got, [(1, 1), (1, 2), (2, 1), (2, 2)]);

        let mut path = HashSet::default();
        chunks_along(
            Vec3::ZERO + 1.0,
            Vec3::new(200.0, 0.0, 1.0),
            0.5,
            32.0,
            &mut path,
        );
        // Every chunk the path crosses, from x = 0 to x = 6, and no other row.
        let mut xs: Vec<_> = path.iter().map(|c| c.x).collect();
        xs.sort();
        assert_eq!(xs, (0..=6).collect::<Vec<_>>());
        assert!(path.iter().all(|c| c.y == 0));
        assert!(near_any(
            &[[Vec3::ZERO, Vec3::new(200.0, 0.0, 0.0)]],
            IVec2::new(4, 0),
            32.0,
            0.0
        ));
        assert!(!near_any(
            &[[Vec3::ZERO, Vec3::new(200.0, 0.0, 0.0)]],
            IVec2::new(4, 2),
            32.0,
            10.0
        ));
    }
}
