//! [`TerrainGroundChanged`]: the one announcement that the ground changed somewhere, which the
//! chunks, colliders and scatter (and a game's own caches) rebuild from.

use crate::space::Bounds;
use bevy::ecs::component::Mutable;
use bevy::math::{Rect, Vec2};
use bevy::prelude::*;

/// The ground changed under `areas`: written whenever stamps or paths come, go, change or move
/// (the areas they covered and cover), and whenever a config that reshapes the ground goes into
/// force (the first one included: then one area over the whole plane).
///
/// Each area is an XZ rectangle in the [`TerrainRoot`](crate::TerrainRoot)'s space (`x` is
/// x, `y` is z), at least as large as what changed: outside every area the
/// [`TerrainSampler`](crate::TerrainSampler) answers as before. The chunk streaming, the scatter
/// and the colliders rebuild what touches the areas; a game reads it for its own caches of the
/// ground (navigation meshes, decals, AI), with a `MessageReader<TerrainGroundChanged>` after
/// [`TerrainSystems::Edits`](crate::TerrainSystems::Edits).
#[derive(Message, Reflect, Clone, Debug, PartialEq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct TerrainGroundChanged {
    /// Where the ground changed, in the root's XZ plane.
    pub areas: Vec<Rect>,
}

impl TerrainGroundChanged {
    /// The whole plane: what a config that reshapes the ground announces.
    pub fn everywhere() -> Self {
        Self {
            areas: vec![Rect {
                min: Vec2::NEG_INFINITY,
                max: Vec2::INFINITY,
            }],
        }
    }

    /// Whether the ground may have changed anywhere in `rect` (edges included).
    pub fn touches(&self, rect: Rect) -> bool {
        self.areas.iter().any(|a| {
            a.min.x <= rect.max.x
                && rect.min.x <= a.max.x
                && a.min.y <= rect.max.y
                && rect.min.y <= a.max.y
        })
    }

    /// The areas as the planners measure them.
    pub(crate) fn bounds(&self) -> Vec<Bounds> {
        self.areas.iter().map(Bounds::from_rect).collect()
    }
}

/// What keeps something built from the ground (chunk meshes, colliders, scatter placements)
/// and rebuilds it where the ground changed.
pub(crate) trait BuiltFromGround: Resource + Component<Mutability = Mutable> {
    /// Has what touches `areas` rebuilt, each old one staying until its replacement is ready,
    /// and drops builds under way there (they saw the old ground).
    fn invalidate(&mut self, areas: &[Bounds]);
}

/// Has `R` rebuild what touches the areas of every [`TerrainGroundChanged`] since it last ran.
/// Run it with `on_message::<TerrainGroundChanged>`, before `R`'s planner.
pub(crate) fn rebuild_where_changed<R: BuiltFromGround>(
    registry: Option<ResMut<R>>,
    mut changed: MessageReader<TerrainGroundChanged>,
) {
    let Some(mut registry) = registry else {
        changed.clear();
        return;
    };
    for message in changed.read() {
        registry.invalidate(&message.bounds());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::math::DVec2;

    #[test]
    fn the_rectangles_hold_the_bounds_they_were_made_from() {
        // f64 bounds that f32 cannot hold exactly round outwards, never in.
        let exact = Bounds {
            min: DVec2::new(-1.0e7 - 0.3, 12.1),
            max: DVec2::new(1.0e7 + 0.3, 1.0e9 + 7.0),
        };
        let rect = exact.covering_rect();
        let back = Bounds::from_rect(&rect);
        assert!(
            back.min.x <= exact.min.x && back.min.y <= exact.min.y,
            "{back:?}"
        );
        assert!(
            back.max.x >= exact.max.x && back.max.y >= exact.max.y,
            "{back:?}"
        );
        // And by no more than one step of f32 each way.
        assert_eq!(rect.min.x, (exact.min.x as f32).next_down());
        assert_eq!(rect.max.x, (exact.max.x as f32).next_up());
        // Exact values stay as they are.
        let whole = Bounds {
            min: DVec2::new(-64.0, 32.0),
            max: DVec2::new(0.5, 96.0),
        };
        assert_eq!(whole.covering_rect(), Rect::new(-64.0, 32.0, 0.5, 96.0));
        let everywhere = TerrainGroundChanged::everywhere();
        assert!(everywhere.touches(Rect::new(1e30, -1e30, 1e30, -1e30)));
        let here = TerrainGroundChanged {
            areas: vec![whole.covering_rect()],
        };
        assert!(
            here.touches(Rect::new(0.5, 96.0, 10.0, 100.0)),
            "edges count"
        );
        assert!(!here.touches(Rect::new(0.6, 0.0, 10.0, 31.0)));
    }
}
