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
    cells_covering(&Bounds::around(at, DVec2::splat(reach)), size)
}

/// The cells of side `size` (a grid through the origin) that `bounds` touches, as
/// [`cells_around`].
pub(crate) fn cells_covering(bounds: &Bounds, size: f64) -> Option<(IVec2, IVec2)> {
    let low = (bounds.min / size).floor();
    let high = (bounds.max / size).floor();
    let range = i32::MIN as f64..=i32::MAX as f64;
    [low.x, low.y, high.x, high.y]
        .iter()
        .all(|c| range.contains(c))
        .then(|| (low.as_ivec2(), high.as_ivec2()))
}

/// How many cells the range from `low` to `high` (both included) holds.
pub(crate) fn cell_count((low, high): (IVec2, IVec2)) -> i64 {
    (high.x as i64 - low.x as i64 + 1) * (high.y as i64 - low.y as i64 + 1)
}

/// An axis-aligned box on the terrain's XZ plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bounds {
    pub min: DVec2,
    pub max: DVec2,
}

impl Bounds {
    /// The box around `centre` reaching `reach` each way.
    pub fn around(centre: DVec2, reach: DVec2) -> Self {
        Self {
            min: centre - reach,
            max: centre + reach,
        }
    }

    /// The smallest box holding both.
    pub fn union(self, other: Self) -> Self {
        Self {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The square `[min, min + size]²`.
    pub fn square(min: DVec2, size: f64) -> Self {
        Self {
            min,
            max: min + DVec2::splat(size),
        }
    }

    /// The smallest `f32` rectangle holding the box: each edge rounded outwards.
    pub fn covering_rect(&self) -> Rect {
        let down = |v: f64| {
            let f = v as f32;
            if f as f64 > v { f.next_down() } else { f }
        };
        let up = |v: f64| {
            let f = v as f32;
            if (f as f64) < v { f.next_up() } else { f }
        };
        Rect {
            min: Vec2::new(down(self.min.x), down(self.min.y)),
            max: Vec2::new(up(self.max.x), up(self.max.y)),
        }
    }

    /// The box of `rect`, exactly.
    pub fn from_rect(rect: &Rect) -> Self {
        Self {
            min: rect.min.as_dvec2(),
            max: rect.max.as_dvec2(),
        }
    }

    /// Whether the two boxes share a point (edges included).
    pub fn intersects(&self, other: &Self) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }
}

/// Whether the square `[min, min + size]²` shares a point with any of `areas`: what an edit
/// there makes the chunks, colliders and scatter cells of that square rebuild.
pub(crate) fn square_touches(areas: &[Bounds], min: DVec2, size: f64) -> bool {
    let square = Bounds::square(min, size);
    areas.iter().any(|a| a.intersects(&square))
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
