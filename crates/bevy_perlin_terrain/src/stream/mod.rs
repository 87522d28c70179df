//! Streaming: chunks appear around every [`TerrainViewer`], nearest first, built on the async
//! compute pool, and go away beyond the view distance.

mod plan;
mod systems;

pub use plan::{Want, chunks_within, lod_with_hysteresis, nearest_distance};

use crate::TerrainSet;
use crate::chunk::{ChunkCoord, ChunkMeshData};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::tasks::Task;

/// Put this on any entity with a `Transform` (usually the camera): terrain streams in around
/// it. Several viewers each pull their own surroundings.
#[derive(Component, Clone, Copy, Debug, Default)]
#[require(Transform)]
pub struct TerrainViewer;

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

/// A chunk got a new mesh (another level of detail, or a new config).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkRemeshed {
    /// The chunk entity.
    pub entity: Entity,
    /// Its coordinates.
    pub coord: ChunkCoord,
    /// Level of detail of its new mesh.
    pub lod: u8,
}

/// A chunk entity was despawned (it fell out of every viewer's range).
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkDespawned {
    /// The entity, now despawned.
    pub entity: Entity,
    /// Its coordinates.
    pub coord: ChunkCoord,
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

/// Every chunk on screen and every chunk being built. At most one task per chunk.
#[derive(Resource, Default)]
pub struct ChunkRegistry {
    loaded: HashMap<ChunkCoord, Loaded>,
    pending: HashMap<ChunkCoord, Pending>,
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

    /// The entity and level of detail of chunk `coord`, if it is on screen.
    pub fn chunk(&self, coord: ChunkCoord) -> Option<(Entity, u8)> {
        self.loaded.get(&coord).map(|l| (l.entity, l.lod))
    }

    /// Whether chunk `coord` is being built.
    pub fn is_pending(&self, coord: ChunkCoord) -> bool {
        self.pending.contains_key(&coord)
    }
}

/// Streams chunks around [`TerrainViewer`]s: plans in [`TerrainSet::Stream`], uploads
/// finished meshes in [`TerrainSet::Upload`].
pub struct TerrainStreamingPlugin;

impl Plugin for TerrainStreamingPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ChunkRegistry>()
            .add_message::<ChunkSpawned>()
            .add_message::<ChunkRemeshed>()
            .add_message::<ChunkDespawned>()
            .add_systems(Update, systems::plan_chunks.in_set(TerrainSet::Stream))
            .add_systems(Update, systems::upload_chunks.in_set(TerrainSet::Upload));
    }
}
