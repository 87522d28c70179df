//! Navigation (the `navigation` feature): navigation meshes built tile by tile from the
//! full-detail ground around every [`TerrainNavigator`] entity, on the async compute pool,
//! joined into one [`TerrainNavigation`] where a game asks for paths and the
//! [`TerrainAgent`] entities walk.
//!
//! ```toml
//! bevy_perlin_terrain = { version = "0.2", features = ["navigation"] }
//! ```
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_perlin_terrain::prelude::*;
//!
//! fn guard(mut commands: Commands) {
//!     // The tiles around the player are built; a guard walks to the gate.
//!     commands.spawn((TerrainNavigator::default(), Transform::from_xyz(0.0, 0.0, 0.0)));
//!     commands.spawn((
//!         TerrainAgent { target: Some(Vec3::new(300.0, 0.0, -120.0)), ..default() },
//!         Transform::from_xyz(10.0, 0.0, 5.0),
//!     ));
//! }
//!
//! fn scout(navigation: Res<TerrainNavigation>) {
//!     // A game that steers its own characters asks for the points of a way.
//!     if let Some(points) = navigation.find_path(Vec3::ZERO, Vec3::new(800.0, 0.0, 600.0)) {
//!         info!("{} points, {:.0} m", points.len(), points.windows(2).map(|w| w[0].distance(w[1])).sum::<f32>());
//!     }
//! }
//! # App::new().add_plugins(PerlinTerrainPlugin::default()).add_systems(Startup, guard).add_systems(Update, scout);
//! ```
//!
//! - **Tiles**: squares of [`TILE_SIZE`] metres, judged on a grid of [`CELL_SIZE`] metres of the
//!   sampler's own surface (the level-0 ground, stamps and paths included): a cell is walkable
//!   unless it is steeper than `navigation.max_slope`, rises more than a step between two samples,
//!   or lies under more than `navigation.wade_depth` of sea, and walkable ground keeps
//!   `navigation.agent_radius` from what is not (see [`Navigation`](crate::Navigation)). Roads
//!   cost `navigation.road_cost` a metre. Walkable cells merge into rectangles of one kind; each
//!   tile is an island of [landmass](https://docs.rs/landmass), and neighbouring islands join
//!   along their shared edges, so a path crosses any number of tiles.
//! - **Where**: the tiles within the radius of every navigator (its own, or
//!   `navigation.radius`); a tile goes once no navigator is within the radius plus half a tile.
//! - **Following the ground**: a stamp or path added, moved or removed rebuilds the tiles it
//!   touches ([`TerrainGroundChanged`]); a config that reshapes the
//!   ground or changes `navigation` or the sea rebuilds them all. Each old tile stays until its
//!   replacement is in; agents whose way crossed a rebuilt tile plan again.
//! - **Why landmass itself**: bevy_landmass 0.12 (its Bevy plugin) keeps the archipelago in a
//!   component fed from island entities, which a resource's `find_path(&self)` cannot reach;
//!   landmass (the same author's core, which bevy_landmass wraps) gives the archipelago itself,
//!   so [`TerrainNavigation`] owns it and this module does the little syncing its agents need.
//!
//! [`build_navigation_tile`] and [`NavigationTile`] are public for tools and benchmarks that
//! build tiles without an `App`.

mod agents;
mod path;
mod plan;
mod space;
mod systems;
mod tile;

pub use agents::{TerrainAgent, TerrainAgentMotion, TerrainAgentStatus};
pub use space::TerrainSpace;
pub use tile::{CELL_SIZE, NavigationTile, TILE_SIZE, build_navigation_tile, tile_origin};

use crate::ground::{GroundRecipe, TerrainGroundChanged, TerrainSampler, rebuild_where_changed};
use crate::sets::TerrainSystems;
use crate::tasks::TaskQueue;
use bevy::math::DVec2;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use landmass::{
    AgentId, Archipelago, ArchipelagoOptions, FromAgentRadius, IslandId, PathStep,
    PermittedAnimationLinks, PointSampleDistance3d,
};
use tile::{GROUND, ROAD, Walkable};

/// Put this on every entity that needs navigation around it (the player, a squad's leader, a
/// camera): the navigation tiles within its `radius` (and a quarter tile more, which it may
/// move before the tiles are planned again) are built and kept, whether or not a viewer is
/// near, and go again when no navigator is near.
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug)]
#[require(Transform)]
pub struct TerrainNavigator {
    /// Metres around it with tiles; `None` (the default) for the config's
    /// `navigation.radius`. Taken within [`NAVIGATION_RADIUS`](crate::config::ranges::NAVIGATION_RADIUS).
    pub radius: Option<f32>,
}

/// What the tiles were built from: tiles of another shape are rebuilt.
#[derive(Clone, Debug, PartialEq)]
struct NavigationShape {
    seed: u64,
    ground: GroundRecipe,
    walk: Walkable,
    agent_radius: f32,
    max_slope: f32,
}

/// A tile in place.
#[derive(Clone, Copy, Debug)]
struct Tile {
    /// Its island; `None` for a tile with nowhere to walk.
    island: Option<IslandId>,
    generation: u64,
    polygons: usize,
    bytes: usize,
}

/// The navigation over the streamed ground: the tiles built around the [`TerrainNavigator`]
/// entities, joined into one landmass archipelago, and the paths across them. Only the plugin
/// makes one (with the `navigation` feature).
#[derive(Resource)]
pub struct TerrainNavigation {
    archipelago: Archipelago<TerrainSpace>,
    tiles: HashMap<IVec2, Tile>,
    pending: TaskQueue<IVec2, Option<NavigationTile>, u64>,
    /// Tiles the last plan wants.
    wanted: HashSet<IVec2>,
    /// The ground the tiles are built from and the paths follow.
    sampler: Option<TerrainSampler>,
    shape: Option<NavigationShape>,
    /// Bumped whenever the shape changes.
    generation: u64,
    /// The navigators the last plan was made for: where, and how far.
    planned_for: Vec<(Vec3, f32)>,
    planned: bool,
    /// Whether something changed outside the planner (the ground, a finished task).
    dirty: bool,
    /// Whether islands came or went since the archipelago last joined them.
    islands_changed: bool,
    /// The most the ground may stray from a path's leg.
    step_height: f32,
    /// The cost a metre the road type has now (0 before it has one).
    road_cost: f32,
    agents: HashMap<Entity, AgentId>,
    /// Tiles put in place since the plugin started, rebuilt ones included.
    built: u64,
}

impl TerrainNavigation {
    /// An empty navigation (the plugin's own).
    fn new() -> Self {
        Self {
            archipelago: Archipelago::new(ArchipelagoOptions::from_agent_radius(0.5)),
            tiles: HashMap::default(),
            pending: TaskQueue::default(),
            wanted: HashSet::default(),
            sampler: None,
            shape: None,
            generation: 0,
            planned_for: Vec::new(),
            planned: false,
            dirty: false,
            islands_changed: false,
            step_height: 0.5,
            road_cost: 0.0,
            agents: HashMap::default(),
            built: 0,
        }
    }

    /// A way on foot from `from` to `to` (in the root's space; their heights are not used:
    /// both are taken on the ground under them): points on the ground, the first at the
    /// walkable point nearest `from` (within `navigation.agent_radius` and a 2 m cell), the last
    /// likewise at `to`, at most 8 m apart and closer where the ground bends away from the
    /// straight line by more than half of `navigation.step_height`. It keeps to walkable ground
    /// and prefers roads. `None` while the tiles under either end are not built, where
    /// either end is not walkable or no way joins them, or for a point that is not finite.
    pub fn find_path(&self, from: Vec3, to: Vec3) -> Option<Vec<Vec3>> {
        if !(from.is_finite() && to.is_finite()) {
            return None;
        }
        let sampler = self.sampler.as_ref()?;
        let ends = &self.archipelago.archipelago_options.point_sample_distance;
        let start = (self.archipelago)
            .sample_point(sampler.ground(from).0, ends)
            .ok()?;
        let end = (self.archipelago)
            .sample_point(sampler.ground(to).0, ends)
            .ok()?;
        let steps = self
            .archipelago
            .find_path(
                &start,
                &end,
                &std::collections::HashMap::new(),
                PermittedAnimationLinks::All,
            )
            .ok()?;
        let mut corners = vec![start.point()];
        for step in steps {
            match step {
                PathStep::Waypoint(p) => corners.push(p),
                PathStep::AnimationLink {
                    start_point,
                    end_point,
                    ..
                } => corners.extend([start_point, end_point]),
            }
        }
        Some(path::along_the_ground(
            sampler,
            &corners,
            0.5 * self.step_height,
        ))
    }

    /// Tiles in place (including those with nowhere to walk).
    pub fn tile_count(&self) -> usize {
        self.tiles.len()
    }

    /// Whether tile `coord` (see [`tile_origin`]) is in place.
    pub fn has_tile(&self, coord: IVec2) -> bool {
        self.tiles.contains_key(&coord)
    }

    /// Every tile in place.
    pub fn tiles(&self) -> impl Iterator<Item = IVec2> + '_ {
        self.tiles.keys().copied()
    }

    /// The tile whose square holds `p` (in the root's space).
    pub fn tile_at(p: Vec3) -> IVec2 {
        (p.xz() / TILE_SIZE).floor().as_ivec2()
    }

    /// Tiles put in place since the plugin started, each rebuild counted: what a change of the
    /// ground cost.
    pub fn tiles_built(&self) -> u64 {
        self.built
    }

    /// Tiles being built on the async compute pool.
    pub fn tiles_in_flight(&self) -> usize {
        self.pending.len()
    }

    /// The polygons of every tile in place.
    pub fn polygon_count(&self) -> usize {
        self.tiles.values().map(|t| t.polygons).sum()
    }

    /// What a metre of road costs the search now, against 1 for open ground: the config's
    /// `navigation.road_cost` while the ground has a road, 1 without one (1 is also what keeps
    /// the search's distance estimate, scaled by the cheapest cost, at its strongest); 0 before
    /// the first config.
    pub fn road_cost(&self) -> f32 {
        self.road_cost
    }

    /// Bytes of the meshes of every tile in place (see [`NavigationTile::bytes`]).
    pub fn mesh_bytes(&self) -> usize {
        self.tiles.values().map(|t| t.bytes).sum()
    }

    /// Whether every wanted tile is in place and up to date, and nothing is being built.
    pub fn is_settled(&self) -> bool {
        self.planned
            && !self.dirty
            && self.pending.is_empty()
            && self.wanted.iter().all(|coord| {
                self.tiles
                    .get(coord)
                    .is_some_and(|t| t.generation == self.generation)
            })
    }

    /// Takes the ground of `sampler` and the walkable ground of `config`: a new shape bumps
    /// the generation (every tile is rebuilt, each staying until its replacement is in). Whether
    /// it changed.
    fn follow_shape(&mut self, config: &crate::TerrainConfig, sampler: &TerrainSampler) -> bool {
        // Landmass's search scales its distance heuristic by the cheapest type's cost: a road's
        // cost, with no road on the ground, would only weaken it (about twice the polygons
        // explored at the default 0.5). Without roads the road type costs what open ground does.
        let road_cost = if sampler.edits().has_roads() {
            config.navigation.road_cost.max(0.01)
        } else {
            1.0
        };
        if road_cost != self.road_cost {
            // Positive (the config's range): setting it cannot fail.
            let _ = self.archipelago.set_type_index_cost(ROAD, road_cost);
            self.road_cost = road_cost;
        }
        let shape = NavigationShape {
            seed: sampler.tables().seed(),
            ground: sampler.ground_recipe().clone(),
            walk: Walkable::of(config),
            agent_radius: config.navigation.agent_radius,
            max_slope: config.navigation.max_slope,
        };
        if self.shape.as_ref() == Some(&shape) {
            return false;
        }
        let radius = config.navigation.agent_radius;
        self.archipelago.archipelago_options = ArchipelagoOptions::from_agent_radius(radius);
        self.archipelago.archipelago_options.point_sample_distance =
            ends(radius, config.navigation.max_slope);
        self.step_height = config.navigation.step_height;
        // Positive: setting it cannot fail.
        let _ = self.archipelago.set_type_index_cost(GROUND, 1.0);
        self.shape = Some(shape);
        self.generation += 1;
        self.pending.clear();
        true
    }

    /// Puts `tile` in place at `coord`, replacing the island there.
    fn place(&mut self, coord: IVec2, tile: NavigationTile, generation: u64) {
        let island = match (self.tiles.get(&coord).and_then(|t| t.island), &tile.mesh) {
            (Some(id), Some(mesh)) => match self.archipelago.get_island_mut(id) {
                Some(mut island) => {
                    island.set_nav_mesh(mesh.clone());
                    Some(id)
                }
                None => Some(self.archipelago.add_island(island_of(mesh))),
            },
            (None, Some(mesh)) => Some(self.archipelago.add_island(island_of(mesh))),
            (Some(id), None) => {
                self.archipelago.remove_island(id);
                None
            }
            (None, None) => None,
        };
        self.islands_changed = true;
        self.built += 1;
        self.tiles.insert(
            coord,
            Tile {
                island,
                generation,
                polygons: tile.polygons(),
                bytes: tile.bytes(),
            },
        );
    }

    /// Takes tile `coord` away.
    fn drop_tile(&mut self, coord: IVec2) {
        if let Some(Tile {
            island: Some(id), ..
        }) = self.tiles.remove(&coord)
        {
            self.archipelago.remove_island(id);
            self.islands_changed = true;
        }
    }
}

/// An island of `mesh`, in place (the mesh is in the root's space).
fn island_of(
    mesh: &std::sync::Arc<landmass::ValidNavigationMesh<TerrainSpace>>,
) -> landmass::Island<TerrainSpace> {
    landmass::Island::new(
        landmass::Transform {
            translation: Vec3::ZERO,
            rotation: 0.0,
        },
        mesh.clone(),
    )
}

/// How far from the mesh an agent or a path's end may be: a cell and the agent's radius across;
/// up or down, two metres and what the steepest walkable ground rises between the height mesh's
/// samples (up to five cells apart in a large rectangle; an end is taken on the ground).
fn ends(agent_radius: f32, max_slope: f32) -> PointSampleDistance3d {
    let vertical = 2.0 + 5.0 * CELL_SIZE * max_slope.to_radians().tan();
    PointSampleDistance3d {
        horizontal_distance: agent_radius + CELL_SIZE,
        distance_above: vertical,
        distance_below: vertical,
        vertical_preference_ratio: 1.0,
        animation_link_max_vertical_distance: 1.0,
    }
}

impl crate::ground::BuiltFromGround for TerrainNavigation {
    fn invalidate(&mut self, areas: &[crate::space::Bounds]) {
        // A tile's cells look a margin beyond its square (the agent's radius): a change that
        // near counts.
        let margin = self.shape.as_ref().map_or(0.0, |s| s.walk.margin_metres());
        let size = f64::from(TILE_SIZE) + 2.0 * margin;
        let touched = |coord: &IVec2| {
            let min = tile_origin(*coord) - DVec2::splat(margin);
            crate::space::square_touches(areas, min, size)
        };
        for (coord, tile) in &mut self.tiles {
            if touched(coord) {
                tile.generation = 0;
            }
        }
        self.pending.retain(|coord, _| !touched(coord));
        self.dirty = true;
    }
}

/// The part of [`PerlinTerrainPlugin`](crate::PerlinTerrainPlugin) that builds the navigation
/// tiles around [`TerrainNavigator`] entities and walks the [`TerrainAgent`] entities, in
/// [`TerrainSystems::Navigation`] (feature `navigation`).
pub struct TerrainNavigationPlugin;

impl Plugin for TerrainNavigationPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(TerrainNavigation::new())
            .register_type::<TerrainNavigator>()
            .register_type::<TerrainAgent>()
            .register_type::<TerrainAgentMotion>()
            .add_systems(
                Update,
                (
                    rebuild_where_changed::<TerrainNavigation>
                        .run_if(on_message::<TerrainGroundChanged>),
                    systems::plan_tiles.run_if(systems::navigators_or_tiles),
                    systems::place_tiles.run_if(systems::tiles_in_flight),
                    agents::walk_agents.run_if(agents::agents_or_new_islands),
                )
                    .chain_ignore_deferred()
                    .in_set(TerrainSystems::Navigation),
            )
            .add_systems(
                Last,
                systems::recover_navigation.run_if(not(resource_exists::<TerrainNavigation>)),
            );
    }
}
