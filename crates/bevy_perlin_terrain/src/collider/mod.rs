//! Physics (the `avian` feature): static avian3d heightfield colliders on the chunks around
//! every [`TerrainColliderAnchor`] entity, built on the async compute pool from the same samples as
//! the meshes, planned ahead of moving bodies, and kept in [`ColliderRegistry`].
//!
//! ```toml
//! bevy_perlin_terrain = { version = "0.2", features = ["avian"] }
//! avian3d = "0.7"
//! ```
//!
//! The game adds avian's `PhysicsPlugins` itself; the plugin only adds colliders:
//!
//! ```no_run
//! use avian3d::prelude::*;
//! use bevy::prelude::*;
//! use bevy_perlin_terrain::prelude::*;
//!
//! App::new()
//!     .add_plugins((DefaultPlugins, PhysicsPlugins::default(), PerlinTerrainPlugin::default()))
//!     .add_systems(Startup, |mut commands: Commands| {
//!         // Any body that needs ground under it:
//!         commands.spawn((
//!             RigidBody::Dynamic,
//!             Collider::sphere(0.5),
//!             TerrainColliderAnchor,
//!             Transform::from_xyz(0.0, 80.0, 0.0),
//!         ));
//!     })
//!     .run();
//! ```
//!
//! - **Where**: the chunks within [`Collision::radius`](crate::Collision::radius) of every
//!   `TerrainColliderAnchor` entity, and of where it will be half a second ahead (by its
//!   `LinearVelocity`, or by how it moved since the last frame), whether or not a viewer is
//!   near. They go once no body is within the radius plus a chunk.
//! - **What**: a [`TerrainColliderChunk`] entity per chunk, a child of the root, with
//!   `RigidBody::Static` and a parry heightfield at full detail (see [`build_chunk_collider`]),
//!   whatever level of detail is drawn there.
//! - **Never a fall-through**: a body that gets `TerrainColliderAnchor` after this frame's plan
//!   (spawned later in the frame, or between two updates) has the chunks within a few metres of
//!   it built at once by an observer; a collider still missing within 4 m of where a body will
//!   be in the next two frames is built on the main thread rather than waited for. A new ground
//!   or resolution rebuilds every collider, each old one staying until its replacement swaps
//!   in; a new chunk size keeps the old colliders until every new one is in place.
//! - **Not covered**: scatter instances have no colliders of their own (the walk example gives
//!   trees a capsule from [`ScatterSpawned`](crate::ScatterSpawned)).
//!
//! [`ColliderJob`] and [`build_chunk_collider`] are public for tools and benchmarks that build
//! colliders without an `App`.

#[cfg(feature = "big_space")]
mod floating;
mod heightfield;
mod plan;
mod systems;

pub use heightfield::{ColliderJob, build_chunk_collider};

use crate::chunk::ChunkCoord;
use crate::config::TerrainConfig;
use crate::ground::{GroundRecipe, TerrainGroundChanged, TerrainSampler, rebuild_where_changed};
use crate::sets::TerrainSystems;
use crate::tasks::TaskQueue;
use avian3d::prelude::Collider;
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;

/// Put this on every body that should have ground under it (a character, a vehicle, a ball):
/// the chunks within [`Collision::radius`](crate::Collision::radius) of it, and ahead of it by
/// the faster of its `LinearVelocity` and how it moved since the last frame (a kinematic body
/// moved by its transform), get static heightfield colliders, whether or not a
/// [`TerrainViewer`](crate::TerrainViewer) is near. Colliders go again when no such entity is
/// near.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component, Default, Debug)]
#[require(Transform)]
pub struct TerrainColliderAnchor;

/// Marks a collider entity of the terrain: a child of the [`TerrainRoot`](crate::TerrainRoot)
/// with `RigidBody::Static` and a heightfield `Collider` spanning chunk `coord`. The plugin
/// spawns, replaces and despawns them; a game may despawn one, and it is built again if still
/// wanted.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Component, Debug, Clone, PartialEq)]
#[component(on_remove = forget_collider)]
pub struct TerrainColliderChunk {
    /// The chunk it spans.
    pub coord: ChunkCoord,
}

/// What a collider was built from: colliders of another shape are rebuilt.
#[derive(Clone, Debug, PartialEq)]
struct ColliderShape {
    seed: u64,
    ground: GroundRecipe,
    chunk_size: f32,
    chunk_resolution: u32,
    resolution: u32,
}

/// A collider entity in place.
#[derive(Clone, Copy, Debug)]
struct Built {
    entity: Entity,
    generation: u64,
}

/// What is kept beside a collider being built.
struct Pending {
    job: ColliderJob,
    generation: u64,
}

/// Every terrain collider in place and being built. Read-only outside the plugin, and only the
/// plugin makes one.
#[derive(Resource, Reflect)]
#[reflect(Resource)]
pub struct ColliderRegistry {
    #[reflect(ignore)]
    built: HashMap<ChunkCoord, Built>,
    #[reflect(ignore)]
    pending: TaskQueue<ChunkCoord, Option<Collider>, Pending>,
    /// Chunks the last plan wants colliders on.
    #[reflect(ignore)]
    wanted: HashSet<ChunkCoord>,
    /// Colliders of another chunk size, kept until the new ones are all in place.
    #[reflect(ignore)]
    retiring: Vec<Entity>,
    #[reflect(ignore)]
    shape: Option<ColliderShape>,
    /// Bumped whenever the shape changes.
    #[reflect(ignore)]
    generation: u64,
    /// Where each body was at the last plan, for the velocity of bodies without one.
    #[reflect(ignore)]
    last_seen: HashMap<Entity, bevy::math::DVec3>,
    /// The swept positions the last plan was made for, by body.
    #[reflect(ignore)]
    planned_for: Vec<(Entity, [Vec3; 2])>,
    /// Whether a plan has run.
    #[reflect(ignore)]
    planned: bool,
    /// Whether something changed outside the planner (a collider was despawned, a task slot
    /// freed up for a chunk that waited).
    #[reflect(ignore)]
    dirty: bool,
}

impl ColliderRegistry {
    /// An empty registry (the plugin's own).
    pub(crate) fn new() -> Self {
        Self {
            built: HashMap::default(),
            pending: TaskQueue::default(),
            wanted: HashSet::default(),
            retiring: Vec::new(),
            shape: None,
            generation: 0,
            last_seen: HashMap::default(),
            planned_for: Vec::new(),
            planned: false,
            dirty: false,
        }
    }

    /// Collider entities in place.
    pub fn count(&self) -> usize {
        self.built.len()
    }

    /// Colliders being built on the async compute pool.
    pub fn tasks_in_flight(&self) -> usize {
        self.pending.len()
    }

    /// The collider entity of chunk `coord`, if it has one.
    pub fn get(&self, coord: ChunkCoord) -> Option<Entity> {
        self.built.get(&coord).map(|b| b.entity)
    }

    /// Every chunk with a collider, and its entity.
    pub fn iter(&self) -> impl Iterator<Item = (ChunkCoord, Entity)> + '_ {
        self.built.iter().map(|(&coord, b)| (coord, b.entity))
    }

    /// How many chunks the bodies want colliders on.
    pub fn wanted_count(&self) -> usize {
        self.wanted.len()
    }

    /// Whether every wanted chunk has an up-to-date collider and nothing is being built or
    /// waiting to be replaced.
    pub fn is_settled(&self) -> bool {
        self.planned
            && !self.dirty
            && self.pending.is_empty()
            && self.retiring.is_empty()
            && self.wanted.iter().all(|coord| {
                self.built
                    .get(coord)
                    .is_some_and(|b| b.generation == self.generation)
            })
    }

    /// Takes the shape of `config` on the ground of `sampler`: a new one bumps the generation
    /// (every collider is rebuilt, each staying until its replacement is in place), a new chunk
    /// size retires every collider until the new ones are all in place. Whether it changed.
    fn follow_shape(&mut self, config: &TerrainConfig, sampler: &TerrainSampler) -> bool {
        let shape = ColliderShape {
            seed: sampler.tables().seed(),
            ground: sampler.ground_recipe().clone(),
            chunk_size: config.chunk_size,
            chunk_resolution: config.chunk_resolution,
            resolution: config.collision_resolution(),
        };
        if self.shape.as_ref() == Some(&shape) {
            return false;
        }
        if self
            .shape
            .as_ref()
            .is_some_and(|old| old.chunk_size != shape.chunk_size)
        {
            let old = self.built.drain().map(|(_, b)| b.entity);
            self.retiring.extend(old);
            self.pending.clear();
        }
        self.shape = Some(shape);
        self.generation += 1;
        true
    }
    /// Forgets `entity` (being despawned), so the next plan builds its chunk again if wanted.
    fn forget(&mut self, entity: Entity, coord: ChunkCoord) {
        if self.built.get(&coord).is_some_and(|b| b.entity == entity) {
            self.built.remove(&coord);
            self.dirty = true;
        }
        self.retiring.retain(|&e| e != entity);
    }
}

impl crate::ground::BuiltFromGround for ColliderRegistry {
    fn invalidate(&mut self, areas: &[crate::space::Bounds]) {
        let size = self.shape.as_ref().map_or(0.0, |s| s.chunk_size as f64);
        let touched =
            |coord: &ChunkCoord| crate::space::square_touches(areas, coord.as_dvec2() * size, size);
        for (coord, built) in &mut self.built {
            if touched(coord) {
                // Outdated: the next plan rebuilds it where wanted.
                built.generation = 0;
            }
        }
        self.pending.retain(|coord, _| !touched(coord));
        self.dirty = true;
    }
}

/// `on_remove` hook of [`TerrainColliderChunk`].
fn forget_collider(mut world: DeferredWorld, context: HookContext) {
    let Some(collider) = world.get::<TerrainColliderChunk>(context.entity).copied() else {
        return;
    };
    if let Some(mut colliders) = world.get_resource_mut::<ColliderRegistry>() {
        colliders.forget(context.entity, collider.coord);
    }
}

/// The part of [`PerlinTerrainPlugin`](crate::PerlinTerrainPlugin) that keeps the terrain's
/// colliders around [`TerrainColliderAnchor`] entities, in [`TerrainSystems::Colliders`]
/// (feature `avian`); the app adds avian's `PhysicsPlugins` itself.
pub struct TerrainColliderPlugin;

impl Plugin for TerrainColliderPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ColliderRegistry::new())
            .register_type::<ColliderRegistry>()
            .register_type::<TerrainColliderAnchor>()
            .register_type::<TerrainColliderChunk>()
            .add_systems(
                Update,
                (
                    rebuild_where_changed::<ColliderRegistry>
                        .run_if(on_message::<TerrainGroundChanged>),
                    systems::plan_colliders.run_if(systems::bodies_or_colliders),
                    systems::place_colliders.run_if(systems::colliders_in_flight),
                )
                    .chain_ignore_deferred()
                    .in_set(TerrainSystems::Colliders),
            )
            .add_systems(
                Last,
                systems::recover_registry.run_if(not(resource_exists::<ColliderRegistry>)),
            )
            .add_observer(systems::ground_new_body);
        #[cfg(feature = "big_space")]
        floating::add_systems(app);
    }
}
