//! A path's corners laid on the ground: each straight leg cut where the ground leaves the line.

use crate::ground::TerrainSampler;
use bevy::math::{Vec3, Vec3Swizzles};

/// The longest leg that is checked whole, in metres: its middle becomes a point of the path,
/// so no leg of the laid path is longer than half of it.
const MAX_LEG: f32 = 16.0;
/// The shortest leg that is still cut, in metres.
const MIN_LEG: f32 = 0.25;

/// The path through `corners` (their `x`, `z`) as points on the ground of `sampler`: the
/// corners, and between each two the middles of legs halved until each is at most `MAX_LEG`
/// long with the ground at its middle within `tolerance` of the line (down to `MIN_LEG`); the
/// middle that passed is kept, so every sample taken is a point. Repeated corners are left out.
pub(super) fn along_the_ground(
    sampler: &TerrainSampler,
    corners: &[Vec3],
    tolerance: f32,
) -> Vec<Vec3> {
    let mut out: Vec<Vec3> = Vec::with_capacity(4 * corners.len());
    let mut legs = Vec::new();
    for &corner in corners {
        let next = sampler.ground(corner).0;
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
            let on = sampler.ground(mid).0;
            // Far from the origin two neighbouring `f32`s can be farther apart than the
            // shortest leg: a middle that rounds onto an end cannot be cut again.
            let cuttable = on.xz() != a.xz() && on.xz() != b.xz();
            let split = cuttable
                && (length > MAX_LEG || (length > MIN_LEG && (on.y - mid.y).abs() > tolerance));
            if split {
                legs.push((on, b));
                legs.push((a, on));
            } else {
                out.extend([on, b]);
            }
        }
    }
    out
}
