//! Where agents may walk: [`Navigation`], read by the navigation meshes of the `navigation`
//! feature.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// What the navigation meshes (feature `navigation`) treat as walkable, and how far around each
/// `TerrainNavigator` they reach. Ground steeper than `max_slope`, with a step up or down taller
/// than `step_height` between two neighbouring samples beyond what the slope allows, or under
/// more than `wade_depth` of sea is not walkable, and walkable ground keeps `agent_radius` from
/// it; a road ([`PathOp::Road`](crate::PathOp::Road)) costs `road_cost` of open ground a metre,
/// so agents prefer it. A change of any field but `radius` rebuilds every tile.
///
/// ```ron
/// navigation: (radius: 600.0, max_slope: 30.0, agent_radius: 0.6),
/// ```
#[derive(Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Navigation {
    /// Metres around each `TerrainNavigator` within which the tiles are built (a navigator may
    /// ask for its own), ([`NAVIGATION_RADIUS`](super::ranges::NAVIGATION_RADIUS)). Default 400.
    pub radius: f32,
    /// The steepest walkable ground, in degrees from level
    /// ([`NAVIGATION_MAX_SLOPE`](super::ranges::NAVIGATION_MAX_SLOPE)). Default 35.
    pub max_slope: f32,
    /// Metres an agent steps up or down at once: the most the ground between two samples 2 m
    /// apart may rise beyond what `max_slope` allows
    /// ([`NAVIGATION_STEP_HEIGHT`](super::ranges::NAVIGATION_STEP_HEIGHT)). Default 0.5.
    pub step_height: f32,
    /// Metres from an agent's centre to its side: how far walkable ground keeps from steep
    /// ground and deep water ([`NAVIGATION_AGENT_RADIUS`](super::ranges::NAVIGATION_AGENT_RADIUS)).
    /// Default 0.5.
    pub agent_radius: f32,
    /// The deepest sea an agent wades through, in metres below `sea_level`
    /// ([`NAVIGATION_WADE_DEPTH`](super::ranges::NAVIGATION_WADE_DEPTH)). Default 0.5.
    pub wade_depth: f32,
    /// What a metre of road costs against a metre of open ground
    /// ([`NAVIGATION_ROAD_COST`](super::ranges::NAVIGATION_ROAD_COST)). Default 0.5.
    pub road_cost: f32,
}

impl Default for Navigation {
    fn default() -> Self {
        Self {
            radius: 400.0,
            max_slope: 35.0,
            step_height: 0.5,
            agent_radius: 0.5,
            wade_depth: 0.5,
            road_cost: 0.5,
        }
    }
}
