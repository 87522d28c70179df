//! Shadow casters kept to the chunks whose shadows some ground a cascade covers can receive.
//!
//! Bevy culls a directional light's casters per cascade by the light-space box around the
//! cascade's slice of the camera's view, open towards the light. That box is wider than the
//! slice and reaches ground the camera never sees: from 900 m up, looking at the horizon, the
//! last cascade's box holds the ground under the camera, dozens of chunks whose shadow maps no
//! visible pixel samples. Here a chunk casts into a cascade only if, seen along the light, it
//! overlaps a visible mesh inside that slice and is not wholly behind it (farther from the
//! light). The tests are on boxes, so they only ever keep too much, never too little.

use crate::stream::TerrainChunk;
use bevy::camera::Projection;
use bevy::camera::primitives::Aabb;
use bevy::camera::visibility::{CascadesVisibleEntities, VisibleEntities};
use bevy::light::{CascadeShadowConfig, NotShadowReceiver};
use bevy::math::{Affine3A, Vec3A};
use bevy::prelude::*;
use std::any::TypeId;

/// Takes out of every directional light's cascades the chunks that cannot shadow any mesh the
/// camera sees inside that cascade's slice of its view ([`casters_needed`]); other casters
/// stay. Runs after Bevy's own culling of the cascades.
pub(crate) fn trim_chunk_casters(
    mut lights: Query<(
        &GlobalTransform,
        &CascadeShadowConfig,
        &mut CascadesVisibleEntities,
    )>,
    cameras: Query<(&GlobalTransform, &Projection, &VisibleEntities)>,
    meshes: Query<(
        &Aabb,
        &GlobalTransform,
        Has<TerrainChunk>,
        Has<NotShadowReceiver>,
    )>,
) {
    let world_box = |entity: Entity| {
        meshes
            .get(entity)
            .ok()
            .map(|(aabb, t, chunk, unlit)| (WorldBox::around(aabb, &t.affine()), chunk, unlit))
    };
    for (light, config, mut visible) in &mut lights {
        let towards_light = light.back().as_vec3();
        let overlap = 1.0 - config.overlap_proportion;
        for (view, cascades) in visible.entities.iter_mut() {
            let Ok((eye, projection, seen)) = cameras.get(*view) else {
                continue;
            };
            let receivers: Vec<WorldBox> = seen
                .get(TypeId::of::<Mesh3d>())
                .iter()
                .filter_map(|&e| world_box(e))
                .filter(|&(_, _, unlit)| !unlit)
                .map(|(b, _, _)| b)
                .collect();
            let nears = std::iter::once(config.minimum_distance)
                .chain(config.bounds.iter().map(|b| overlap * b));
            for ((cascade, near), &far) in cascades.iter_mut().zip(nears).zip(&config.bounds) {
                let corners = projection
                    .get_frustum_corners(-near, -far)
                    .map(|c| eye.transform_point(Vec3::from(c)));
                let slice = Slice::new(corners);
                let (chunks, boxes): (Vec<Entity>, Vec<WorldBox>) = cascade
                    .entities
                    .iter()
                    .filter_map(|&e| world_box(e).filter(|b| b.1).map(|(b, _, _)| (e, b)))
                    .unzip();
                if chunks.is_empty() {
                    continue;
                }
                let needed = casters_needed(&boxes, &receivers, &slice, towards_light);
                let dropped: bevy::platform::collections::HashSet<Entity> = chunks
                    .iter()
                    .zip(&needed)
                    .filter(|(_, n)| !**n)
                    .map(|(&e, _)| e)
                    .collect();
                if !dropped.is_empty() {
                    cascade.entities.retain(|e| !dropped.contains(e));
                }
            }
        }
    }
}

/// A box in world space, axis-aligned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct WorldBox {
    pub min: Vec3,
    pub max: Vec3,
}

impl WorldBox {
    /// The world box around `aabb` (in the local space of `world_from_local`).
    pub fn around(aabb: &Aabb, world_from_local: &Affine3A) -> Self {
        let (c, h) = (aabb.center, aabb.half_extents);
        Self::enclosing((0..8).map(|i| {
            let sign = Vec3A::new(
                if i & 1 == 0 { -1.0 } else { 1.0 },
                if i & 2 == 0 { -1.0 } else { 1.0 },
                if i & 4 == 0 { -1.0 } else { 1.0 },
            );
            Vec3::from(world_from_local.transform_point3a(c + sign * h))
        }))
    }

    /// The box around `points` (empty, min above max, for none).
    pub fn enclosing(points: impl IntoIterator<Item = Vec3>) -> Self {
        points.into_iter().fold(
            Self {
                min: Vec3::INFINITY,
                max: Vec3::NEG_INFINITY,
            },
            |b, p| Self {
                min: b.min.min(p),
                max: b.max.max(p),
            },
        )
    }

    /// Its eight corners.
    fn corners(&self) -> impl Iterator<Item = Vec3> + '_ {
        (0..8).map(|i| {
            Vec3::new(
                if i & 1 == 0 { self.min.x } else { self.max.x },
                if i & 2 == 0 { self.min.y } else { self.max.y },
                if i & 4 == 0 { self.min.z } else { self.max.z },
            )
        })
    }

    /// Its part inside `other`, if any.
    fn clipped_to(&self, other: &WorldBox) -> Option<WorldBox> {
        let (min, max) = (self.min.max(other.min), self.max.min(other.max));
        min.cmple(max).all().then_some(WorldBox { min, max })
    }
}

/// A slice of a camera's view between two depths: its eight world corners, the near face
/// first, in the order Bevy's `get_frustum_corners` gives (bottom right, top right, top left,
/// bottom left), then the far face alike.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slice {
    corners: [Vec3; 8],
    /// Outward face normals and offsets: inside where `n · p <= d` for all six.
    faces: [(Vec3, f32); 6],
}

impl Slice {
    /// The slice with these corners.
    pub fn new(corners: [Vec3; 8]) -> Self {
        let centre = corners.iter().copied().sum::<Vec3>() / 8.0;
        let face = |[a, b, c]: [usize; 3]| {
            let mut n = (corners[b] - corners[a])
                .cross(corners[c] - corners[a])
                .normalize_or_zero();
            if n.dot(centre - corners[a]) > 0.0 {
                n = -n;
            }
            (n, n.dot(corners[a]))
        };
        Self {
            corners,
            faces: [
                face([0, 1, 2]),
                face([4, 5, 6]),
                face([0, 1, 5]),
                face([1, 2, 6]),
                face([2, 3, 7]),
                face([3, 0, 4]),
            ],
        }
    }

    /// Whether `b` may meet the slice: no face of the slice and no axis of the box separates
    /// them (the edge-against-edge axes are not tried, so a box near an edge may pass).
    fn meets(&self, b: &WorldBox) -> bool {
        let outside_a_face = self.faces.iter().any(|&(n, d)| {
            // The box's corner farthest against the normal.
            let nearest = Vec3::select(n.cmpge(Vec3::ZERO), b.min, b.max);
            n.dot(nearest) > d
        });
        !outside_a_face && {
            let hull = WorldBox::enclosing(self.corners);
            hull.clipped_to(b).is_some()
        }
    }

    /// The world box around the slice.
    fn bounds(&self) -> WorldBox {
        WorldBox::enclosing(self.corners)
    }
}

/// A box seen along the light: its rectangle across the light (`u`, `v`) and how far towards
/// the light it reaches (`w`, its least and greatest).
#[derive(Clone, Copy, Debug)]
struct AlongLight {
    low: [f32; 3],
    high: [f32; 3],
}

impl AlongLight {
    fn new(b: &WorldBox, axes: &[Vec3; 3]) -> Self {
        let mut low = [f32::INFINITY; 3];
        let mut high = [f32::NEG_INFINITY; 3];
        for p in b.corners() {
            for (k, axis) in axes.iter().enumerate() {
                let x = axis.dot(p);
                low[k] = low[k].min(x);
                high[k] = high[k].max(x);
            }
        }
        Self { low, high }
    }

    /// Whether a caster here can shadow some of `receiver`: their rectangles across the light
    /// overlap and the caster reaches at least as far towards the light as the receiver's
    /// lowest point.
    fn can_shadow(&self, receiver: &AlongLight) -> bool {
        (0..2).all(|k| self.low[k] <= receiver.high[k] && receiver.low[k] <= self.high[k])
            && self.high[2] >= receiver.low[2]
    }
}

/// Which of `casters` can shadow some part of `receivers` inside `slice`, under a light
/// shining from `towards_light` (a direction, from the ground to the light): one flag each.
/// A receiver counts only with its part inside the slice's box, and only if it meets the
/// slice; with no receiver in the slice, no caster is needed.
pub(crate) fn casters_needed(
    casters: &[WorldBox],
    receivers: &[WorldBox],
    slice: &Slice,
    towards_light: Vec3,
) -> Vec<bool> {
    let w = towards_light.normalize_or_zero();
    if w == Vec3::ZERO {
        return vec![true; casters.len()];
    }
    let u = w.any_orthonormal_vector();
    let axes = [u, w.cross(u), w];
    let bounds = slice.bounds();
    let lit: Vec<AlongLight> = receivers
        .iter()
        .filter(|r| slice.meets(r))
        .filter_map(|r| r.clipped_to(&bounds))
        .map(|r| AlongLight::new(&r, &axes))
        .collect();
    casters
        .iter()
        .map(|c| {
            let c = AlongLight::new(c, &axes);
            lit.iter().any(|r| c.can_shadow(r))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cube(centre: Vec3, half: f32) -> WorldBox {
        WorldBox {
            min: centre - Vec3::splat(half),
            max: centre + Vec3::splat(half),
        }
    }

    /// A box-shaped slice (an orthographic view) from `min` to `max`.
    fn box_slice(min: Vec3, max: Vec3) -> Slice {
        let b = WorldBox { min, max };
        let c: Vec<Vec3> = b.corners().collect();
        // Near face (z = max, looking towards −z), then far, each going round.
        Slice::new([c[5], c[7], c[6], c[4], c[1], c[3], c[2], c[0]])
    }

    #[test]
    fn a_slice_meets_the_boxes_inside_it_and_not_those_beside_it() {
        let s = box_slice(Vec3::new(-10.0, 0.0, -100.0), Vec3::new(10.0, 20.0, -50.0));
        assert!(s.meets(&cube(Vec3::new(0.0, 10.0, -70.0), 1.0)));
        assert!(
            s.meets(&cube(Vec3::new(10.5, 10.0, -70.0), 1.0)),
            "straddling"
        );
        assert!(!s.meets(&cube(Vec3::new(12.0, 10.0, -70.0), 1.0)));
        assert!(!s.meets(&cube(Vec3::new(0.0, 10.0, -20.0), 1.0)), "nearer");
        assert!(!s.meets(&cube(Vec3::new(0.0, 40.0, -70.0), 1.0)), "above");
    }

    #[test]
    fn only_casters_between_the_light_and_seen_ground_in_the_slice_are_needed() {
        // Ground from −30 to 30 m in z seen by the slice; a sun straight up.
        let s = box_slice(Vec3::new(-30.0, -5.0, -30.0), Vec3::new(30.0, 50.0, 30.0));
        let ground = WorldBox {
            min: Vec3::new(-1000.0, -1.0, -1000.0),
            max: Vec3::new(1000.0, 0.0, 1000.0),
        };
        let casters = [
            cube(Vec3::new(0.0, 20.0, 0.0), 2.0),   // over the seen ground
            cube(Vec3::new(200.0, 20.0, 0.0), 2.0), // over ground the slice does not hold
            cube(Vec3::new(0.0, -20.0, 0.0), 2.0),  // under the ground
            cube(Vec3::new(31.0, 100.0, 0.0), 2.0), // over the slice's edge
        ];
        let needed = casters_needed(&casters, &[ground], &s, Vec3::Y);
        assert_eq!(needed, vec![true, false, false, true]);
        // A low sun from +x: the far caster's shadow reaches the seen ground, the one over it
        // falls 200 m beyond the slice and the one over the edge a kilometre beyond.
        let needed = casters_needed(&casters, &[ground], &s, Vec3::new(1.0, 0.1, 0.0));
        assert_eq!(needed, vec![false, true, false, false]);
        // No receiver in the slice: nothing is needed.
        let high = box_slice(Vec3::new(-30.0, 400.0, -30.0), Vec3::new(30.0, 500.0, 30.0));
        assert!(
            casters_needed(&casters, &[ground], &high, Vec3::Y)
                .iter()
                .all(|&n| !n)
        );
        // A degenerate light keeps every caster.
        assert!(
            casters_needed(&casters, &[], &s, Vec3::ZERO)
                .iter()
                .all(|&n| n)
        );
    }
}
