//! Streaming: the chunks of a quadtree around every [`TerrainViewer`], finer near and coarser
//! far, built on the async compute pool as children of one [`TerrainRoot`].
//!
//! Which chunks are wanted, and the steps from the chunks on screen to them, are pure functions
//! (`tree.rs`). The systems (`systems.rs`) plan when a viewer moved a quarter chunk, the config
//! changed or a chunk went, start the most urgent builds within the budget, and swap finished
//! chunks in: a step replaces chunks on screen by chunks covering exactly the same ground, all
//! in one frame, once every replacement is built. So the ground is covered once at every
//! moment, however fast a viewer flies: the old chunks stay until their replacements are
//! ready. [`ChunkRegistry`] knows every chunk on screen and every chunk being built; component
//! hooks keep it in step with whatever a game despawns.

mod systems;
mod tree;

use crate::chunk::{ChunkCoord, ChunkMeshData};
use crate::config::LodLayout;
use crate::ground::{TerrainGroundChanged, rebuild_where_changed};
use crate::sets::TerrainSystems;
use crate::tasks::TaskQueue;
use bevy::ecs::lifecycle::HookContext;
use bevy::ecs::world::DeferredWorld;
use bevy::math::{DVec2, DVec3, Rect};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
pub(crate) use tree::ChunkKey;
use tree::Transition;

/// Put this on any entity with a `Transform` (usually the camera): terrain streams in around
/// it. Several viewers each pull their own surroundings (the quadtree is refined for the
/// nearest). With no viewer, no terrain is kept. A viewer whose position is not finite is
/// ignored (with one warning). Under a floating origin (feature `big_space`) give the viewer the
/// `FloatingOrigin`: the planner reads it from its `GlobalTransform`, exact near the origin.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component, Default, Debug)]
#[require(Transform)]
pub struct TerrainViewer;

/// The entity every chunk is a child of. The plugin spawns it (named "terrain") when it first
/// streams, and again if the game despawns it. Move it to move the whole terrain (positions the
/// [`TerrainSampler`](crate::TerrainSampler) takes are in its space; keep it to translations
/// and turns about the vertical, which the morphing assumes), hide it to hide the terrain (its
/// `Visibility`, with the `render` feature), despawn it to clear the terrain: what the viewers
/// still want is rebuilt under a new root within frames. With the feature `big_space` and a
/// `BigSpace` in the world, it is spawned as a grid of that big space at its origin cell, and its
/// children are placed by cell.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component, Default, Debug)]
#[require(Transform)]
#[component(on_remove = forget_root)]
pub struct TerrainRoot;

/// A chunk entity was spawned (its first mesh is in place).
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct ChunkSpawned {
    /// The chunk entity.
    pub entity: Entity,
    /// Its coordinates, in chunks of its level.
    pub coord: ChunkCoord,
    /// Its level of detail.
    pub lod: u8,
}

/// A chunk got a new mesh in place (a config that reshapes the ground).
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct ChunkRemeshed {
    /// The chunk entity.
    pub entity: Entity,
    /// Its coordinates, in chunks of its level.
    pub coord: ChunkCoord,
    /// Its level of detail.
    pub lod: u8,
}

/// The plugin despawned a chunk entity (replaced by finer or coarser chunks, or out of every
/// viewer's range).
#[derive(Message, Reflect, Clone, Copy, Debug, PartialEq, Eq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct ChunkDespawned {
    /// The entity, now despawned.
    pub entity: Entity,
    /// Its coordinates, in chunks of its level.
    pub coord: ChunkCoord,
    /// Its level of detail.
    pub lod: u8,
}

/// A chunk on screen: what [`ChunkRegistry::iter`] yields.
#[derive(Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct ChunkInfo {
    /// Its coordinates, in chunks of its level.
    pub coord: ChunkCoord,
    /// Its entity.
    pub entity: Entity,
    /// Its level of detail.
    pub lod: u8,
    /// Its side in metres.
    size: f32,
}

impl ChunkInfo {
    /// The chunk's footprint on the XZ plane in the root's space: `min` is its smallest `x`
    /// and `z`, and it is `chunk_size · 2^lod` on a side.
    pub fn rect(&self) -> Rect {
        let min = self.coord.as_vec2() * self.size;
        Rect::from_corners(min, min + Vec2::splat(self.size))
    }

    /// The chunk's corner of smallest `x` and `z` in the root's space, exactly (where its
    /// mesh's vertices are measured from): [`rect`](Self::rect)'s `min` without `f32`'s
    /// rounding far from the origin.
    pub fn corner(&self) -> DVec2 {
        self.coord.as_dvec2() * f64::from(self.size)
    }
}

/// A chunk entity on screen.
#[derive(Clone, Copy, Debug)]
struct Shown {
    entity: Entity,
    generation: u64,
    /// An edit changed its ground since it was built: it is rebuilt, and stays until then.
    stale: bool,
}

/// A built chunk mesh waiting for the rest of its step.
struct Ready {
    mesh: Handle<Mesh>,
    generation: u64,
    /// Lowest and highest height, morph targets included (for the chunk's bounding box, which
    /// only a renderer needs).
    #[cfg_attr(not(feature = "render"), allow(dead_code))]
    heights: (f32, f32),
}

/// What the last plan was made for, to tell whether anything changed since.
#[derive(Default)]
struct PlanState {
    /// Whether a plan has run since the terrain (re)started.
    planned: bool,
    /// Something the plan depends on changed outside the planner (a chunk or the root was
    /// despawned, a task finished while others waited): plan on the next frame.
    dirty: bool,
    /// Builds the last plan wanted but could not start (no free task slot).
    backlog: bool,
    /// Viewer positions (terrain space) the last plan was made for.
    viewers: Vec<DVec3>,
    /// Their heights over the ground near them then (see [`ChunkRegistry::viewer_heights`]).
    heights: Vec<f32>,
    /// The config generation it was made for.
    generation: u64,
    /// The layout it was made for.
    layout: Option<LodLayout>,
    /// The chunk size and resolution it was made for (another one retires every chunk).
    geometry: Option<(f32, u32)>,
}

/// Every chunk on screen and every chunk being built, and what the viewers want. Read-only
/// outside the plugin, and only the plugin makes one (a game cannot replace it with an empty
/// one; if it removes it, the plugin makes a new one and rebuilds the terrain).
#[derive(Resource, Reflect)]
#[reflect(Resource)]
pub struct ChunkRegistry {
    #[reflect(ignore)]
    shown: HashMap<ChunkKey, Shown>,
    #[reflect(ignore)]
    ready: HashMap<ChunkKey, Ready>,
    #[reflect(ignore)]
    building: TaskQueue<ChunkKey, ChunkMeshData, u64>,
    /// The steps from the chunks on screen to the wanted tree, not done yet.
    #[reflect(ignore)]
    steps: Vec<Transition>,
    /// How many chunks the last plan wants.
    #[reflect(ignore)]
    wanted: usize,
    /// Chunks of a former chunk size or resolution, on screen until the new tree is complete.
    #[reflect(ignore)]
    retiring: Vec<Entity>,
    #[reflect(ignore)]
    root: Option<Entity>,
    #[reflect(ignore)]
    plan: PlanState,
    /// Chunk size of the chunks on screen, for [`ChunkInfo::rect`].
    #[reflect(ignore)]
    chunk_size: f32,
}

impl ChunkRegistry {
    /// An empty registry (the plugin's own).
    pub(crate) fn new() -> Self {
        Self {
            shown: HashMap::default(),
            ready: HashMap::default(),
            building: TaskQueue::default(),
            steps: Vec::new(),
            wanted: 0,
            retiring: Vec::new(),
            root: None,
            plan: PlanState::default(),
            chunk_size: 1.0,
        }
    }
    /// Chunk entities on screen.
    pub fn loaded_count(&self) -> usize {
        self.shown.len()
    }

    /// Chunk meshes being built on the async compute pool.
    pub fn tasks_in_flight(&self) -> usize {
        self.building.len()
    }

    /// Whether the terrain is complete for the current viewers and config: planned, nothing
    /// being built or waiting to be swapped in, and every wanted chunk on screen, up to date.
    pub fn is_settled(&self) -> bool {
        let p = &self.plan;
        p.planned
            && !p.dirty
            && !p.backlog
            && self.building.is_empty()
            && self.steps.is_empty()
            && self.retiring.is_empty()
    }

    /// Every chunk on screen.
    pub fn iter(&self) -> impl Iterator<Item = ChunkInfo> + '_ {
        self.shown.iter().map(|(&key, s)| self.info(key, s.entity))
    }

    /// The chunk of level `lod` at `coord`, if it is on screen.
    pub fn chunk(&self, lod: u8, coord: ChunkCoord) -> Option<ChunkInfo> {
        let key = ChunkKey::new(lod, coord);
        self.shown.get(&key).map(|s| self.info(key, s.entity))
    }

    /// Whether the chunk of level `lod` at `coord` is being built.
    pub fn is_pending(&self, lod: u8, coord: ChunkCoord) -> bool {
        self.building.get(&ChunkKey::new(lod, coord)).is_some()
    }

    /// How many chunks the viewers want now.
    pub fn wanted_count(&self) -> usize {
        self.wanted
    }

    /// The terrain's root entity, once it exists.
    pub fn root(&self) -> Option<Entity> {
        self.root
    }

    /// Where the viewers were (in the root's space) when the chunks were last planned: within a
    /// quarter of a chunk of where they are. The morphing of the terrain material measures
    /// distances from these, as the planner does.
    pub fn viewer_positions(&self) -> &[DVec3] {
        &self.plan.viewers
    }

    /// Each viewer's height over the highest ground near it (under it and as far around it as
    /// it is high), in metres, at least 0, when the chunks were last planned; one per
    /// [`viewer_positions`](Self::viewer_positions). Levels of detail are chosen, and vertices
    /// morphed, by `max(|dx|, |dz|, height)` from the nearest viewer: a viewer high up gets no
    /// finer level under it than the one whose reach is its height ([`LodLayout::lod_at`]).
    pub fn viewer_heights(&self) -> &[f32] {
        &self.plan.heights
    }

    /// The distance levels of detail are chosen and morphed by at world `xz` (the root's
    /// space): `max(|dx|, |dz|, height)` from the nearest viewer of the last plan (see
    /// [`viewer_heights`](Self::viewer_heights)); what [`LodLayout::morph_at`] takes. Infinite
    /// with no viewer.
    pub fn level_distance(&self, xz: DVec2) -> f64 {
        self.plan
            .viewers
            .iter()
            .zip(&self.plan.heights)
            .map(|(v, &h)| {
                let viewpoint = tree::Viewpoint {
                    xz: v.xz(),
                    height: f64::from(h),
                };
                viewpoint.level_distance(xz)
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// The level-of-detail layout of the last plan.
    pub fn layout(&self) -> Option<LodLayout> {
        self.plan.layout
    }

    fn info(&self, key: ChunkKey, entity: Entity) -> ChunkInfo {
        ChunkInfo {
            coord: key.coord,
            entity,
            lod: key.lod,
            size: self.chunk_size * (key.lod as f32).exp2(),
        }
    }

    /// Forgets the chunk `key` if `entity` is its entity (it is being despawned or lost its
    /// [`TerrainChunk`]), so the next plan builds it again if it is still wanted.
    fn forget(&mut self, entity: Entity, key: ChunkKey) {
        if self.shown.get(&key).is_some_and(|s| s.entity == entity) {
            self.shown.remove(&key);
            self.plan.dirty = true;
        }
        self.retiring.retain(|&e| e != entity);
    }
}

impl crate::ground::BuiltFromGround for ChunkRegistry {
    fn invalidate(&mut self, areas: &[crate::space::Bounds]) {
        let Some(layout) = self.plan.layout else {
            return;
        };
        let touched = |key: &tree::ChunkKey| {
            let (min, size) = key.square(&layout);
            crate::space::square_touches(areas, min, size)
        };
        for (key, shown) in &mut self.shown {
            shown.stale |= touched(key);
        }
        self.ready.retain(|key, _| !touched(key));
        self.building.retain(|key, _| !touched(key));
        self.plan.dirty = true;
    }
}

/// Marks a terrain chunk entity: which chunk it is, at which level of detail (0 = full detail,
/// `chunk_size` on a side; each level doubles the side at the same vertex count). Chunk
/// entities are children of the [`TerrainRoot`](crate::TerrainRoot); the plugin spawns,
/// remeshes and despawns them. A game may despawn one (or the root): the plugin notices and
/// builds what is still wanted again.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Component, Debug, Clone, PartialEq)]
#[component(on_remove = forget_chunk)]
pub struct TerrainChunk {
    /// The chunk's coordinates, in chunks of its level.
    pub coord: ChunkCoord,
    /// Its level of detail.
    pub lod: u8,
}

/// `on_remove` hook of [`TerrainChunk`]: a chunk entity is going (despawned by the plugin or
/// the game, or its component removed); the registry lets go of it.
fn forget_chunk(mut world: DeferredWorld, context: HookContext) {
    let Some(chunk) = world.get::<TerrainChunk>(context.entity).copied() else {
        return;
    };
    if let Some(mut registry) = world.get_resource_mut::<ChunkRegistry>() {
        registry.forget(context.entity, ChunkKey::new(chunk.lod, chunk.coord));
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

/// The part of [`PerlinTerrainPlugin`](crate::PerlinTerrainPlugin) that streams chunks around
/// [`TerrainViewer`]s: plans in [`TerrainSystems::Stream`], swaps finished chunks in in
/// [`TerrainSystems::Upload`]. Needs the group's `TerrainConfigPlugin`.
pub struct TerrainStreamingPlugin;

impl Plugin for TerrainStreamingPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ChunkRegistry::new())
            .register_type::<ChunkRegistry>()
            .register_type::<TerrainViewer>()
            .register_type::<TerrainRoot>()
            .register_type::<TerrainChunk>()
            .register_type::<ChunkSpawned>()
            .register_type::<ChunkRemeshed>()
            .register_type::<ChunkDespawned>()
            .add_message::<ChunkSpawned>()
            .add_message::<ChunkRemeshed>()
            .add_message::<ChunkDespawned>()
            .add_systems(
                Last,
                systems::recover_registry.run_if(not(resource_exists::<ChunkRegistry>)),
            )
            .add_systems(
                Update,
                (
                    (
                        rebuild_where_changed::<ChunkRegistry>
                            .run_if(on_message::<TerrainGroundChanged>),
                        systems::plan_chunks.run_if(systems::planning_needed),
                    )
                        .chain_ignore_deferred()
                        .in_set(TerrainSystems::Stream),
                    systems::upload_chunks
                        .run_if(systems::chunks_in_flight)
                        .in_set(TerrainSystems::Upload),
                ),
            );
    }

    fn finish(&self, app: &mut App) {
        if !app.world().contains_resource::<Assets<Mesh>>() {
            error!(
                "PerlinTerrainPlugin needs Bevy's MeshPlugin (DefaultPlugins has it) for the chunk meshes; no chunk will show"
            );
        }
    }
}
