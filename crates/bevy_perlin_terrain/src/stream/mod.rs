//! Streaming: chunks appear around every [`TerrainViewer`], nearest first, built on the async
//! compute pool, as children of one [`TerrainRoot`], and go away beyond the view distance.
//! [`ChunkRegistry`] knows every chunk on screen and every chunk being built; component hooks
//! keep it in step with whatever a game despawns.

mod plan;
mod systems;

use crate::TerrainSystems;
use crate::chunk::{ChunkCoord, ChunkMeshData, TerrainChunk};
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::tasks::Task;
use plan::Want;
#[cfg(feature = "avian")]
pub(crate) use systems::current_affine;

/// Put this on any entity with a `Transform` (usually the camera): terrain streams in around
/// it. Several viewers each pull their own surroundings. With no viewer, no terrain is kept.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component, Default, Debug)]
#[require(Transform)]
pub struct TerrainViewer;

/// The entity every chunk is a child of. The plugin spawns it (named "terrain") when it first
/// streams, and again if the game despawns it. Move it to move the whole terrain (positions the
/// [`TerrainSampler`](crate::TerrainSampler) takes are in its space), hide it to hide the
/// terrain (its `Visibility`, with the `render` feature), despawn it to clear the terrain: what
/// the viewers still want is rebuilt under a new root within frames.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component, Default, Debug)]
#[require(Transform)]
#[component(on_remove = forget_root)]
pub struct TerrainRoot;

/// A chunk entity was spawned (its first mesh is in place).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkSpawned {
    /// The chunk entity.
    pub entity: Entity,
    /// Its coordinates.
    pub coord: ChunkCoord,
    /// Level of detail of its mesh.
    pub lod: u8,
}

/// A chunk got a new mesh (another level of detail, or a config that reshapes the ground).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkRemeshed {
    /// The chunk entity.
    pub entity: Entity,
    /// Its coordinates.
    pub coord: ChunkCoord,
    /// Level of detail of its new mesh.
    pub lod: u8,
}

/// The plugin despawned a chunk entity (it fell out of every viewer's range).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkDespawned {
    /// The entity, now despawned.
    pub entity: Entity,
    /// Its coordinates.
    pub coord: ChunkCoord,
}

/// A chunk on screen: what [`ChunkRegistry::iter`] yields.
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Debug, Clone, PartialEq)]
pub struct ChunkInfo {
    /// Its coordinates.
    pub coord: ChunkCoord,
    /// Its entity.
    pub entity: Entity,
    /// Level of detail of its mesh.
    pub lod: u8,
}

/// A chunk entity on screen.
#[derive(Clone, Copy, Debug)]
struct Loaded {
    entity: Entity,
    lod: u8,
    generation: u64,
}

/// A chunk mesh being built.
struct Pending {
    task: Task<ChunkMeshData>,
    lod: u8,
    generation: u64,
}

/// What the last plan was made for, to tell whether anything changed since.
#[derive(Default)]
struct PlanState {
    /// Whether a plan has run since the terrain (re)started.
    planned: bool,
    /// Something the plan depends on changed outside the planner (a chunk or the root was
    /// despawned, a task finished while others waited): plan on the next frame.
    dirty: bool,
    /// Jobs the last plan wanted but could not start (no free task slot).
    backlog: bool,
    /// Viewer positions (terrain space) the last plan was made for.
    viewers: Vec<Vec3>,
    /// The config generation it was made for.
    generation: u64,
}

/// Every chunk on screen and every chunk being built (at most one task per chunk), and what the
/// viewers want. Read-only outside the plugin.
#[derive(Resource, Reflect, Default)]
#[reflect(Resource, Default)]
pub struct ChunkRegistry {
    #[reflect(ignore)]
    loaded: HashMap<ChunkCoord, Loaded>,
    #[reflect(ignore)]
    pending: HashMap<ChunkCoord, Pending>,
    /// The chunks the last plan wants, at the level of detail it wants them.
    #[reflect(ignore)]
    wanted: HashMap<ChunkCoord, Want>,
    #[reflect(ignore)]
    root: Option<Entity>,
    #[reflect(ignore)]
    plan: PlanState,
}

impl ChunkRegistry {
    /// Chunk entities on screen.
    pub fn loaded_count(&self) -> usize {
        self.loaded.len()
    }

    /// Chunk meshes being built on the async compute pool.
    pub fn tasks_in_flight(&self) -> usize {
        self.pending.len()
    }

    /// Whether the terrain is complete for the current viewers and config: planned, nothing
    /// being built, and every wanted chunk on screen at the level of detail it is wanted at
    /// and of the current generation.
    pub fn is_settled(&self) -> bool {
        let p = &self.plan;
        p.planned
            && !p.dirty
            && !p.backlog
            && self.pending.is_empty()
            && self.wanted.iter().all(|(coord, want)| {
                self.loaded
                    .get(coord)
                    .is_some_and(|l| l.lod == want.lod && l.generation == p.generation)
            })
    }

    /// Every chunk on screen.
    pub fn iter(&self) -> impl Iterator<Item = ChunkInfo> + '_ {
        self.loaded.iter().map(|(&coord, l)| ChunkInfo {
            coord,
            entity: l.entity,
            lod: l.lod,
        })
    }

    /// Chunk `coord`, if it is on screen.
    pub fn chunk(&self, coord: ChunkCoord) -> Option<ChunkInfo> {
        self.loaded.get(&coord).map(|l| ChunkInfo {
            coord,
            entity: l.entity,
            lod: l.lod,
        })
    }

    /// Whether chunk `coord` is being built.
    pub fn is_pending(&self, coord: ChunkCoord) -> bool {
        self.pending.contains_key(&coord)
    }

    /// How many chunks the viewers want now.
    pub fn wanted_count(&self) -> usize {
        self.wanted.len()
    }

    /// The terrain's root entity, once it exists.
    pub fn root(&self) -> Option<Entity> {
        self.root
    }

    /// Where the viewers were (in the root's space) when the chunks were last planned: within a
    /// quarter of a chunk of where they are.
    pub fn viewer_positions(&self) -> &[Vec3] {
        &self.plan.viewers
    }

    /// Forgets chunk `coord` if `entity` is its entity (it is being despawned or lost its
    /// [`TerrainChunk`]), so the next plan builds it again if it is still wanted.
    fn forget(&mut self, entity: Entity, coord: ChunkCoord) {
        if self.loaded.get(&coord).is_some_and(|l| l.entity == entity) {
            self.loaded.remove(&coord);
            self.plan.dirty = true;
        }
    }
}

/// `on_remove` hook of [`TerrainChunk`]: a chunk entity is going (despawned by the plugin or
/// the game, or its component removed); the registry lets go of it.
pub(crate) fn forget_chunk(mut world: DeferredWorld, context: HookContext) {
    let Some(chunk) = world.get::<TerrainChunk>(context.entity).copied() else {
        return;
    };
    if let Some(mut registry) = world.get_resource_mut::<ChunkRegistry>() {
        registry.forget(context.entity, chunk.coord);
    }
}

/// `on_remove` hook of [`TerrainRoot`]: the root is going (its chunks with it); the next plan
/// makes a new one.
fn forget_root(mut world: DeferredWorld, context: HookContext) {
    if let Some(mut registry) = world.get_resource_mut::<ChunkRegistry>()
        && registry.root == Some(context.entity)
    {
        registry.root = None;
        registry.plan.dirty = true;
    }
}

/// Streams chunks around [`TerrainViewer`]s: plans in [`TerrainSystems::Stream`], uploads
/// finished meshes in [`TerrainSystems::Upload`]. Works only inside
/// [`PerlinTerrainPlugin`](crate::PerlinTerrainPlugin), which configures the sets.
pub(crate) struct TerrainStreamingPlugin;

impl Plugin for TerrainStreamingPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ChunkRegistry>()
            .register_type::<ChunkRegistry>()
            .register_type::<TerrainViewer>()
            .register_type::<TerrainRoot>()
            .register_type::<TerrainChunk>()
            .add_message::<ChunkSpawned>()
            .add_message::<ChunkRemeshed>()
            .add_message::<ChunkDespawned>()
            .add_systems(
                Update,
                systems::plan_chunks
                    .run_if(systems::planning_needed)
                    .in_set(TerrainSystems::Stream),
            )
            .add_systems(
                Update,
                systems::upload_chunks
                    .run_if(systems::meshes_in_flight)
                    .in_set(TerrainSystems::Upload),
            );
    }
}
