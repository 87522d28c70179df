//! Chunks: where they are ([`ChunkCoord`]), the component their entities carry
//! ([`TerrainChunk`]), and how one chunk's mesh is built off the main thread.
//!
//! [`ChunkJob`] and [`build_chunk_mesh`] are the plugin's own mesh builder, public for tools and
//! benchmarks that build chunks without an `App`: `build_chunk_mesh(&ChunkJob::new(tables,
//! &config, coord, lod))` gives exactly the buffers the plugin uploads for that chunk.
//! [`ColourRamp`] is the vertex-colour ramp, for tools that colour heights the way the
//! fallback look does.

mod colour;
mod mesh;

pub use colour::ColourRamp;
pub use mesh::{ChunkJob, ChunkMeshData, build_chunk_mesh};

use bevy::math::{IVec2, Vec2, Vec3};
use bevy::prelude::*;
use perlin_core::GridSpec;

/// A chunk's integer coordinates: chunk `(x, z)` covers terrain-space
/// `[x·size, (x+1)·size) × [z·size, (z+1)·size)`.
pub type ChunkCoord = IVec2;

/// Marks a terrain chunk entity: which chunk it is and at which level of detail its mesh was
/// built (0 = full detail; each level halves the vertices per side). Chunk entities are children
/// of the [`TerrainRoot`](crate::TerrainRoot); the plugin spawns, remeshes and despawns them.
/// A game may despawn one (or the root): the plugin notices and builds what is still wanted
/// again.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Component, Debug, Clone, PartialEq)]
#[component(on_remove = crate::stream::forget_chunk)]
pub struct TerrainChunk {
    /// The chunk's coordinates.
    pub coord: ChunkCoord,
    /// Level of detail of the current mesh.
    pub lod: u8,
}

/// The chunk containing terrain-space position `p` (its `x` and `z`).
pub(crate) fn chunk_at(p: Vec3, chunk_size: f32) -> ChunkCoord {
    IVec2::new(
        (p.x / chunk_size)
            .floor()
            .clamp(i32::MIN as f32, i32::MAX as f32) as i32,
        (p.z / chunk_size)
            .floor()
            .clamp(i32::MIN as f32, i32::MAX as f32) as i32,
    )
}

/// The grid of chunk `coord` with `quads` quads per side, `spacing` metres apart: global sample
/// indices `coord · quads + (0..=quads)`, so neighbours compute their shared edge from the same
/// integers (and the [`TerrainSampler`](crate::TerrainSampler) at those positions gives the same
/// heights). Meshes and colliders both sample this grid.
pub(crate) fn chunk_grid(coord: ChunkCoord, quads: u32, spacing: f64) -> GridSpec {
    let q = quads as i64;
    let n = quads as usize + 1;
    GridSpec {
        origin: [0.0, 0.0],
        step: [spacing, spacing],
        start: [coord.x as i64 * q, coord.y as i64 * q],
        size: [n, n],
    }
}

/// The terrain-space `(x, z)` centre of chunk `coord`.
pub(crate) fn chunk_centre(coord: ChunkCoord, chunk_size: f32) -> Vec2 {
    (coord.as_vec2() + Vec2::splat(0.5)) * chunk_size
}
