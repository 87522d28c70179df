//! Scatter: the config's [`ScatterLayer`]s placed on the chunks in view,
//! off the main thread, as [`ScatterInstance`] entities under their chunk, looking like what the
//! game registered in [`ScatterLooks`].
//!
//! [`ScatterJob`] and [`place_scatter`] are public for tools and benchmarks that place instances
//! without an `App`.

mod place;
mod systems;

pub use place::{ScatterJob, place_scatter};

use crate::ScatterLayer;
use crate::TerrainSystems;
use crate::chunk::ChunkCoord;
use bevy::ecs::system::EntityCommands;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use bevy::tasks::Task;
use std::sync::Arc;

/// One scattered object: its `Transform` (relative to its chunk, whose child it is) puts its
/// base on the ground. Spawned and despawned with its chunk; a game may take one (reparent it)
/// and the plugin then leaves it alone.
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Component, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "render", require(Transform, Visibility))]
#[cfg_attr(not(feature = "render"), require(Transform))]
pub struct ScatterInstance {
    /// The name of its [`ScatterLayer`].
    pub layer: String,
}

/// A chunk's instances of one layer are in place (their entities exist after this frame's
/// commands): add colliders or gameplay components to them.
#[derive(Message, Clone, Debug, PartialEq, Eq)]
pub struct ScatterSpawned {
    /// The chunk entity, their parent.
    pub chunk: Entity,
    /// Its coordinates.
    pub coord: ChunkCoord,
    /// The layer.
    pub layer: String,
    /// The instance entities.
    pub instances: Vec<Entity>,
}

/// How one layer's instances look.
#[derive(Clone)]
pub enum ScatterLook {
    /// A mesh and a material, shared by every instance (Bevy batches them).
    #[cfg(feature = "render")]
    Mesh {
        /// The mesh, its origin at the instance's base.
        mesh: Handle<Mesh>,
        /// The material.
        material: Handle<StandardMaterial>,
    },
    /// Anything: called on each new instance entity (insert a scene root, several meshes as
    /// children, a collider, ...).
    Custom(Arc<dyn Fn(&mut EntityCommands) + Send + Sync>),
}

impl std::fmt::Debug for ScatterLook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            #[cfg(feature = "render")]
            Self::Mesh { mesh, material } => f
                .debug_struct("Mesh")
                .field("mesh", mesh)
                .field("material", material)
                .finish(),
            Self::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

/// What each scatter layer looks like, by layer name. A layer without a look still gets its
/// instance entities (a `Transform` and [`ScatterInstance`]), for gameplay. Looks apply to
/// instances spawned after they are inserted.
#[derive(Resource, Default, Debug, Clone)]
pub struct ScatterLooks {
    looks: HashMap<String, ScatterLook>,
}

impl ScatterLooks {
    /// Instances of layer `name` show `mesh` with `material`.
    #[cfg(feature = "render")]
    pub fn insert_mesh(
        &mut self,
        name: impl Into<String>,
        mesh: Handle<Mesh>,
        material: Handle<StandardMaterial>,
    ) -> &mut Self {
        self.looks
            .insert(name.into(), ScatterLook::Mesh { mesh, material });
        self
    }

    /// Instances of layer `name` are made by `spawn`, called on each new instance entity.
    pub fn insert_custom(
        &mut self,
        name: impl Into<String>,
        spawn: impl Fn(&mut EntityCommands) + Send + Sync + 'static,
    ) -> &mut Self {
        self.looks
            .insert(name.into(), ScatterLook::Custom(Arc::new(spawn)));
        self
    }

    /// The look of layer `name`.
    pub fn get(&self, name: &str) -> Option<&ScatterLook> {
        self.looks.get(name)
    }
}

/// What a batch of instances was placed on: the ground. A change re-places every batch.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ScatterGround {
    seed: u64,
    noise: perlin_core::Fbm,
    height_scale: f32,
    chunk_size: f32,
    sea_level: f32,
}

/// A chunk's instances of one layer, in place.
struct Placed {
    chunk: Entity,
    instances: Vec<Entity>,
    generation: u64,
    /// The layer as it was when placed: a batch of an edited layer is placed again.
    layer: ScatterLayer,
}

/// A chunk's instances of one layer, being placed.
struct Placing {
    chunk: Entity,
    task: Task<Vec<Transform>>,
    generation: u64,
    layer: ScatterLayer,
}

/// Every chunk's scattered instances, in place and being placed. Read-only outside the plugin.
#[derive(Resource, Reflect, Default)]
#[reflect(Resource, Default)]
pub struct ScatterRegistry {
    /// By chunk and layer index.
    #[reflect(ignore)]
    placed: HashMap<(ChunkCoord, usize), Placed>,
    #[reflect(ignore)]
    placing: HashMap<(ChunkCoord, usize), Placing>,
    /// Bumped when the ground changes.
    generation: u64,
    #[reflect(ignore)]
    ground: Option<ScatterGround>,
    /// The wanted `(chunk, layer)` pairs of the last plan.
    #[reflect(ignore)]
    wanted: HashSet<(ChunkCoord, usize)>,
    /// Whether a plan has run.
    planned: bool,
    dirty: bool,
}

impl ScatterRegistry {
    /// Instances in place.
    pub fn instance_count(&self) -> usize {
        self.placed.values().map(|p| p.instances.len()).sum()
    }

    /// `(chunk, layer)` batches being placed on the async compute pool.
    pub fn tasks_in_flight(&self) -> usize {
        self.placing.len()
    }

    /// Whether every chunk in range of every layer has its instances, up to date, and nothing
    /// is being placed.
    pub fn is_settled(&self) -> bool {
        self.planned
            && !self.dirty
            && self.placing.is_empty()
            && self.wanted.iter().all(|key| {
                self.placed
                    .get(key)
                    .is_some_and(|p| p.generation == self.generation)
            })
    }

    /// The instance entities of layer index `layer` (its place in the config's `scatter`) on
    /// chunk `coord`, if placed.
    pub fn instances(&self, coord: ChunkCoord, layer: usize) -> Option<&[Entity]> {
        self.placed.get(&(coord, layer)).map(|p| &p.instances[..])
    }
}

/// Places the scatter layers on the chunks in view, in [`TerrainSystems::Scatter`].
pub(crate) struct TerrainScatterPlugin;

impl Plugin for TerrainScatterPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ScatterRegistry>()
            .init_resource::<ScatterLooks>()
            .register_type::<ScatterRegistry>()
            .register_type::<ScatterInstance>()
            .add_message::<ScatterSpawned>()
            .add_systems(
                Update,
                (
                    systems::plan_scatter.run_if(systems::scatter_planning_needed),
                    systems::spawn_scatter.run_if(systems::placements_in_flight),
                )
                    .chain_ignore_deferred()
                    .in_set(TerrainSystems::Scatter),
            );
    }
}
