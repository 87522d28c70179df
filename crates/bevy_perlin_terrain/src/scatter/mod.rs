//! Scatter: the config's [`ScatterLayer`]s placed off the main thread on a full-detail grid
//! of cells (`chunk_size` squares, whatever level of detail is drawn there) around the viewers,
//! as [`ScatterInstance`] entities under their [`ScatterCell`], looking like what the game
//! registered in [`ScatterVisuals`]. Beyond each layer's view distance, the terrain material
//! paints its [`FarColor`](crate::FarColor) instead.
//!
//! [`ScatterJob`] and [`place_scatter`] are public for tools and benchmarks that place instances
//! without an `App`.

mod place;
mod systems;

pub use place::{ScatterJob, place_scatter};

use crate::chunk::ChunkCoord;
use crate::config::ScatterLayer;
use crate::ground::{TerrainGroundChanged, rebuild_where_changed};
use crate::sets::TerrainSystems;
use crate::tasks::TaskQueue;
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::system::EntityCommands;
use bevy::ecs::world::DeferredWorld;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use std::sync::Arc;

/// One scattered object: its `Transform` (relative to its [`ScatterCell`], whose child it is)
/// puts its base on the ground. Spawned and despawned with its cell's batch; a game may take
/// one (reparent it) and the plugin then leaves it alone.
#[derive(Component, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Component, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "render", require(Transform, Visibility))]
#[cfg_attr(not(feature = "render"), require(Transform))]
pub struct ScatterInstance {
    /// The name of its [`ScatterLayer`] (shared by every instance of the layer: cloning it
    /// copies no text).
    pub layer: Arc<str>,
}

/// A cell of the scatter grid: the `chunk_size` square at `coord` (in level-0 chunks), a child
/// of the [`TerrainRoot`](crate::TerrainRoot) at the square's corner, and the parent of the
/// instances placed in it. The plugin spawns and despawns them; a game may despawn one, and
/// what is still wanted in it is placed again.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Component, Debug, Clone, PartialEq)]
#[cfg_attr(feature = "render", require(Transform, Visibility))]
#[cfg_attr(not(feature = "render"), require(Transform))]
#[component(on_remove = forget_cell)]
pub struct ScatterCell {
    /// Its coordinates, in level-0 chunks.
    pub coord: ChunkCoord,
}

/// A cell's instances of one layer are in place (their entities exist after this frame's
/// commands): add colliders or gameplay components to them.
#[derive(Message, Reflect, Clone, Debug, PartialEq, Eq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct ScatterSpawned {
    /// The [`ScatterCell`] entity, their parent.
    pub cell: Entity,
    /// Its coordinates, in level-0 chunks.
    pub coord: ChunkCoord,
    /// The layer.
    pub layer: Arc<str>,
    /// The instance entities.
    pub instances: Vec<Entity>,
}

/// How one layer's instances visual.
#[derive(Clone)]
pub enum ScatterVisual {
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

impl std::fmt::Debug for ScatterVisual {
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

/// What each scatter layer visuals like, by layer name. A layer without a visual still gets its
/// instance entities (a `Transform` and [`ScatterInstance`]), for gameplay. Looks apply to
/// instances spawned after they are inserted.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_perlin_terrain::prelude::*;
/// #[derive(Component)]
/// struct MyRock;
///
/// fn visuals(
///     mut visuals: ResMut<ScatterVisuals>,
///     mut meshes: ResMut<Assets<Mesh>>,
///     mut materials: ResMut<Assets<StandardMaterial>>,
/// ) {
///     // One mesh and material shared by the layer (Bevy batches them; the `render` feature).
///     let cone = meshes.add(Cone::new(1.5, 6.0));
///     visuals.insert_mesh("trees", cone, materials.add(Color::srgb(0.05, 0.2, 0.05)));
///     // Anything else: a scene, a collider, a marker of the game's.
///     visuals.insert_custom("rocks", |entity| {
///         entity.insert(MyRock);
///     });
/// }
/// ```
///
/// Finished batches become entities whole, up to 20 000 instances a frame (at least one
/// batch).
#[derive(Resource, Default, Debug, Clone)]
pub struct ScatterVisuals {
    visuals: HashMap<String, ScatterVisual>,
}

impl ScatterVisuals {
    /// Instances of layer `name` show `mesh` with `material`.
    #[cfg(feature = "render")]
    pub fn insert_mesh(
        &mut self,
        name: impl Into<String>,
        mesh: Handle<Mesh>,
        material: Handle<StandardMaterial>,
    ) -> &mut Self {
        self.visuals
            .insert(name.into(), ScatterVisual::Mesh { mesh, material });
        self
    }

    /// Instances of layer `name` are made by `spawn`, called on each new instance entity.
    pub fn insert_custom(
        &mut self,
        name: impl Into<String>,
        spawn: impl Fn(&mut EntityCommands) + Send + Sync + 'static,
    ) -> &mut Self {
        self.visuals
            .insert(name.into(), ScatterVisual::Custom(Arc::new(spawn)));
        self
    }

    /// The visual of layer `name`.
    pub fn get(&self, name: &str) -> Option<&ScatterVisual> {
        self.visuals.get(name)
    }

    /// Every layer's visual.
    pub fn iter(&self) -> impl Iterator<Item = &ScatterVisual> {
        self.visuals.values()
    }
}

/// What a batch of instances was placed on: the ground. A change re-places every batch.
#[derive(Clone, Debug, PartialEq)]
struct ScatterGround {
    seed: u64,
    ground: crate::ground::GroundRecipe,
    chunk_size: f32,
    chunk_resolution: u32,
    sea_level: f32,
}

/// A cell's instances of one layer, in place.
struct Placed {
    instances: Vec<Entity>,
    generation: u64,
    /// The layer as it was when placed: a batch of an edited layer is placed again.
    layer: ScatterLayer,
}

/// What is kept beside a placement being computed.
struct Placing {
    generation: u64,
    layer: ScatterLayer,
}

/// A batch: a cell and a layer (its index in the config's `scatter`).
type Batch = (ChunkCoord, usize);

/// Every cell's scattered instances, in place and being placed. Read-only outside the plugin,
/// and only the plugin makes one.
#[derive(Resource, Reflect)]
#[reflect(Resource)]
pub struct ScatterRegistry {
    /// The cell entities, by coordinates.
    #[reflect(ignore)]
    cells: HashMap<ChunkCoord, Entity>,
    #[reflect(ignore)]
    placed: HashMap<Batch, Placed>,
    #[reflect(ignore)]
    placing: TaskQueue<Batch, Vec<Transform>, Placing>,
    /// Bumped when the ground changes.
    #[reflect(ignore)]
    generation: u64,
    #[reflect(ignore)]
    ground: Option<ScatterGround>,
    /// The batches of the last plan.
    #[reflect(ignore)]
    wanted: HashSet<Batch>,
    /// The root the cells are children of.
    #[reflect(ignore)]
    root: Option<Entity>,
    /// Whether a plan has run.
    #[reflect(ignore)]
    planned: bool,
    #[reflect(ignore)]
    dirty: bool,
}

impl ScatterRegistry {
    /// An empty registry (the plugin's own).
    pub(crate) fn new() -> Self {
        Self {
            cells: HashMap::default(),
            placed: HashMap::default(),
            placing: TaskQueue::default(),
            generation: 0,
            ground: None,
            wanted: HashSet::default(),
            root: None,
            planned: false,
            dirty: false,
        }
    }

    /// Instances in place.
    pub fn instance_count(&self) -> usize {
        self.placed.values().map(|p| p.instances.len()).sum()
    }

    /// `(cell, layer)` batches being placed on the async compute pool.
    pub fn tasks_in_flight(&self) -> usize {
        self.placing.len()
    }

    /// Whether every cell in range of every layer has its instances, up to date, and nothing
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

    /// The instance entities of layer index `layer` (its place in the config's `scatter`) in
    /// the cell at `coord`, if placed.
    pub fn instances(&self, coord: ChunkCoord, layer: usize) -> Option<&[Entity]> {
        self.placed.get(&(coord, layer)).map(|p| &p.instances[..])
    }

    /// The [`ScatterCell`] entity at `coord`, if it has one.
    pub fn cell(&self, coord: ChunkCoord) -> Option<Entity> {
        self.cells.get(&coord).copied()
    }
    /// Forgets the cell at `coord` if `entity` is it (it is being despawned): its batches went
    /// with it, and are placed again if still wanted.
    fn forget(&mut self, entity: Entity, coord: ChunkCoord) {
        if self.cells.get(&coord) == Some(&entity) {
            self.cells.remove(&coord);
            self.placed.retain(|&(c, _), _| c != coord);
            self.dirty = true;
        }
    }
}

impl crate::ground::BuiltFromGround for ScatterRegistry {
    fn invalidate(&mut self, areas: &[crate::space::Bounds]) {
        let Some(size) = self.ground.as_ref().map(|g| g.chunk_size as f64) else {
            return;
        };
        let touched =
            |coord: &ChunkCoord| crate::space::square_touches(areas, coord.as_dvec2() * size, size);
        for ((coord, _), placed) in &mut self.placed {
            if touched(coord) {
                // Outdated (generations start at 1): the next plan places it again.
                placed.generation = 0;
            }
        }
        self.placing.retain(|(coord, _), _| !touched(coord));
        self.dirty = true;
    }
}

/// `on_remove` hook of [`ScatterCell`].
fn forget_cell(mut world: DeferredWorld, context: HookContext) {
    let Some(cell) = world.get::<ScatterCell>(context.entity).copied() else {
        return;
    };
    if let Some(mut registry) = world.get_resource_mut::<ScatterRegistry>() {
        registry.forget(context.entity, cell.coord);
    }
}

/// The part of [`PerlinTerrainPlugin`](crate::PerlinTerrainPlugin) that places the scatter
/// layers around the viewers, in [`TerrainSystems::Scatter`]. Left out, no instance is placed.
pub struct TerrainScatterPlugin;

impl Plugin for TerrainScatterPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ScatterRegistry::new())
            .init_resource::<ScatterVisuals>()
            .register_type::<ScatterRegistry>()
            .register_type::<ScatterInstance>()
            .register_type::<ScatterCell>()
            .register_type::<ScatterSpawned>()
            .add_message::<ScatterSpawned>()
            .add_systems(
                Last,
                systems::recover_registry.run_if(not(resource_exists::<ScatterRegistry>)),
            )
            .add_systems(
                Update,
                (
                    rebuild_where_changed::<ScatterRegistry>
                        .run_if(on_message::<TerrainGroundChanged>),
                    systems::plan_scatter.run_if(systems::scatter_planning_needed),
                    systems::spawn_scatter.run_if(systems::placements_in_flight),
                )
                    .chain_ignore_deferred()
                    .in_set(TerrainSystems::Scatter),
            );
    }
}
