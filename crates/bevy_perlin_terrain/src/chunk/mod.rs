//! Chunks: where they are ([`ChunkCoord`]), what they look like ([`ChunkMeshData`]) and the
//! component their entities carry ([`TerrainChunk`]).

mod colour;
mod mesh;

pub use colour::ColourRamp;
pub use mesh::{ChunkJob, ChunkMeshData, build_chunk_mesh};

use bevy::math::{IVec2, Vec2, Vec3};
use bevy::prelude::Component;

/// A chunk's integer coordinates: chunk `(x, z)` covers world
/// `[x·size, (x+1)·size) × [z·size, (z+1)·size)`.
pub type ChunkCoord = IVec2;

/// Marks a terrain chunk entity: which chunk it is and at which level of detail its mesh was
/// built (0 = full detail; each level halves the vertices per side).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TerrainChunk {
    /// The chunk's coordinates.
    pub coord: IVec2,
    /// Level of detail of the current mesh.
    pub lod: u8,
}

/// The chunk containing world position `p` (its `x` and `z`).
pub fn chunk_at(p: Vec3, chunk_size: f32) -> ChunkCoord {
    IVec2::new(
        (p.x / chunk_size)
            .floor()
            .clamp(i32::MIN as f32, i32::MAX as f32) as i32,
        (p.z / chunk_size)
            .floor()
            .clamp(i32::MIN as f32, i32::MAX as f32) as i32,
    )
}

/// The world-space `(x, z)` centre of chunk `coord`.
pub fn chunk_centre(coord: ChunkCoord, chunk_size: f32) -> Vec2 {
    (coord.as_vec2() + Vec2::splat(0.5)) * chunk_size
}
