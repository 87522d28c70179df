//! A path's corners laid on the ground: each straight leg cut where the ground leaves the line.

use crate::ground::TerrainSampler;
use bevy::math::{Vec2, Vec3, Vec3Swizzles};

/// The longest leg of a laid path, in metres: two samples of the ground's own detail never
/// fall farther apart than this without one between.
const MAX_LEG: f32 = 8.0;
/// The shortest leg that is still cut, in metres.
const MIN_LEG: f32 = 0.25;

/// The path through `corners` (their `x`, `z`) as points on the ground of `sampler`: the
/// corners, and between each two as many points as keep every leg at most `MAX_LEG` long and
/// the ground at its middle within `tolerance` of the line (a leg is halved until it is, down
/// to `MIN_LEG`). Repeated corners are left out.
pub(super) fn along_the_ground(
    sampler: &TerrainSampler,
    corners: &[Vec3],
    tolerance: f32,
) -> Vec<Vec3> {
    let ground = |x: f32, z: f32| Vec3::new(x, sampler.height_at(Vec2::new(x, z)), z);
    let mut out: Vec<Vec3> = Vec::with_capacity(4 * corners.len());
    let mut legs = Vec::new();
    for &corner in corners {
        let next = ground(corner.x, corner.z);
        let Some(&last) = out.last() else {
            out.push(next);
            continue;
        };
        if last.xz() == next.xz() {
            continue;
        }
        // Depth first, the far half waiting: the points come out in order.
        legs.push((last, next));
        while let Some((a, b)) = legs.pop() {
            let length = a.xz().distance(b.xz());
            let mid = (a + b) * 0.5;
            let on = ground(mid.x, mid.z);
            let split = length > MAX_LEG || (length > MIN_LEG && (on.y - mid.y).abs() > tolerance);
            if split {
                legs.push((on, b));
                legs.push((a, on));
            } else {
                out.push(b);
            }
        }
    }
    out
}
