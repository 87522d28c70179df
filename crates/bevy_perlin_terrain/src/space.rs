//! The terrain's own space: where entities are relative to the [`TerrainRoot`](crate::TerrainRoot),
//! which every planner (chunks, scatter, colliders) measures in. A leaf module.

use bevy::math::{Affine3A, DVec2, IVec2};
use bevy::prelude::*;

/// What [`current_affine`] reads of an entity.
pub(crate) type Placement<'a> = (&'a Transform, &'a GlobalTransform, bool);

/// The query of the entities [`current_affine`] places: `Transform`, `GlobalTransform` and
/// whether they have a parent.
pub(crate) type PlacementQuery<'w, 's, F> =
    Query<'w, 's, (&'static Transform, &'static GlobalTransform, Has<ChildOf>), F>;

/// Where an entity is now: an entity without a parent is where its `Transform` says
/// (`GlobalTransform` would lag a frame behind a move made this frame), a child where its
/// `GlobalTransform` says.
pub(crate) fn current_affine((local, global, parented): Placement) -> Affine3A {
    if parented {
        global.affine()
    } else {
        local.compute_affine()
    }
}

/// From world space into the space of `root` (the identity while there is none).
pub(crate) fn root_space<F: bevy::ecs::query::QueryFilter>(
    root: Option<Entity>,
    roots: &PlacementQuery<F>,
) -> Affine3A {
    root.and_then(|root| roots.get(root).ok())
        .map_or(Affine3A::IDENTITY, |root| current_affine(root).inverse())
}

/// Horizontal distance from `p` to the axis-aligned square `[min, min + size]²` (0 inside).
pub(crate) fn distance_to_square(p: DVec2, min: DVec2, size: f64) -> f64 {
    let outside = (min - p)
        .max(p - (min + DVec2::splat(size)))
        .max(DVec2::ZERO);
    outside.length()
}

/// The cells of side `size` (a grid through the origin) that the square of half-side `reach`
/// around `at` touches: their lowest and highest coordinates, or `None` where those leave `i32`
/// (beyond the addressable plane, about 2³¹ cells out).
pub(crate) fn cells_around(at: DVec2, reach: f64, size: f64) -> Option<(IVec2, IVec2)> {
    let low = ((at - DVec2::splat(reach)) / size).floor();
    let high = ((at + DVec2::splat(reach)) / size).floor();
    let range = i32::MIN as f64..=i32::MAX as f64;
    [low.x, low.y, high.x, high.y]
        .iter()
        .all(|c| range.contains(c))
        .then(|| (low.as_ivec2(), high.as_ivec2()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_to_a_square_is_zero_inside_and_euclidean_outside() {
        let min = DVec2::new(32.0, -32.0);
        assert_eq!(distance_to_square(DVec2::new(40.0, -10.0), min, 32.0), 0.0);
        assert_eq!(distance_to_square(DVec2::new(70.0, -10.0), min, 32.0), 6.0);
        assert_eq!(distance_to_square(DVec2::new(67.0, 4.0), min, 32.0), 5.0);
        assert_eq!(
            cells_around(DVec2::new(70.0, -10.0), 20.0, 32.0),
            Some((IVec2::new(1, -1), IVec2::new(2, 0)))
        );
        assert_eq!(cells_around(DVec2::splat(1e12), 10.0, 32.0), None);
    }
}
