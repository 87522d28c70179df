//! The game shapes the ground: [`TerrainStamp`]s (a flat site, a mound, a pit, a crater) and
//! [`TerrainPath`]s (a road with gentle grades, a channel for a river), as components spawned at
//! run time or written in a `.terrain.ron` ([`TerrainConfig::stamps`],
//! [`TerrainConfig::paths`]).
//!
//! They apply on the one path from noise to ground (`ground/edits/`, called from
//! `ground/samples/`), so the chunk meshes of every level, their morph targets, the
//! [`TerrainSampler`](crate::TerrainSampler), the colliders and the scatter all see the same
//! edited surface, with exact normals. This module holds the system (`systems.rs`) that
//! collects them into the ground's [`GroundEdits`](crate::GroundEdits) and announces the areas
//! that changed ([`TerrainGroundChanged`](crate::TerrainGroundChanged)), so that only the chunks,
//! colliders and scatter cells there are rebuilt (the old ones stay on screen until their
//! replacements are ready).
//!
//! # Order
//!
//! Edits apply one after another, each to the ground the earlier ones left: first every path,
//! then every stamp; within each kind, those of the config in the file's order, then the
//! components in the order they were added (an edited component keeps its place). So a crater
//! digs into a road, and a later flat site overrides an earlier one where they overlap.
//!
//! [`TerrainConfig::stamps`]: crate::TerrainConfig::stamps
//! [`TerrainConfig::paths`]: crate::TerrainConfig::paths

mod systems;

use crate::config::{FixedStamp, TerrainPath, TerrainStamp};
use crate::sets::TerrainSystems;
use bevy::prelude::*;

/// The part of [`PerlinTerrainPlugin`](crate::PerlinTerrainPlugin) that collects the stamps
/// and paths (components and config) into the ground, in [`TerrainSystems::Edits`]. Left out,
/// no stamp or path shapes the ground, neither the config's nor the components'.
pub struct TerrainEditPlugin;

impl Plugin for TerrainEditPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<TerrainStamp>()
            .register_type::<TerrainPath>()
            .register_type::<FixedStamp>()
            .init_resource::<systems::EditState>()
            .add_systems(
                Update,
                systems::update_edits
                    .run_if(systems::edits_may_have_changed)
                    .in_set(TerrainSystems::Edits),
            );
    }
}
