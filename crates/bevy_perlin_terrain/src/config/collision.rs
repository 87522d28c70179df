//! [`Collision`]: where the terrain gets physics colliders, and how fine they are.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The terrain's physics colliders (with the `avian` feature): static heightfields on the
/// chunks within `radius` of every entity with a `TerrainColliderAnchor`, whatever the viewers see.
///
/// ```ron
/// collision: (radius: 32.0, resolution: Some(33)),
/// ```
#[derive(Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Collision {
    /// Metres around each `TerrainColliderAnchor` entity (and ahead of it, by its velocity) in which
    /// every chunk has a collider. Colliders go again beyond `radius` plus a chunk. Default
    /// 24; within [`COLLISION_RADIUS`](crate::config::ranges::COLLISION_RADIUS), and at most
    /// [`MAX_COLLIDER_CHUNKS`](crate::config::MAX_COLLIDER_CHUNKS) chunks around one entity.
    pub radius: f32,
    /// Height samples per chunk side, `2^k + 1` within
    /// [`COLLISION_RESOLUTION`](crate::config::ranges::COLLISION_RESOLUTION); `None` for
    /// `chunk_resolution`, so that the collider is exactly the full-detail mesh, whatever
    /// detail is on screen (the default).
    pub resolution: Option<u32>,
}

impl Default for Collision {
    fn default() -> Self {
        Self {
            radius: 24.0,
            resolution: None,
        }
    }
}
