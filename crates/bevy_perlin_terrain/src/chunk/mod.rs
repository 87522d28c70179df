//! Chunks: where they are ([`ChunkCoord`]), the component their entities carry
//! ([`TerrainChunk`]), and how one chunk's mesh is built off the main thread.
//!
//! [`ChunkJob`] and [`build_chunk_mesh`] are the plugin's own mesh builder, public for tools and
//! benchmarks that build chunks without an `App`: `build_chunk_mesh(&ChunkJob::new(tables,
//! &config, coord, lod))` gives exactly the buffers the plugin uploads for that chunk (with the
//! terrain material, `.without_colours()`).
//! [`ColourRamp`] is the vertex-colour ramp, for tools that colour heights the way the
//! fallback look does.

mod biomes;
mod colour;
mod mesh;

pub use biomes::{
    ATTRIBUTE_BIOME_WEIGHTS, ATTRIBUTE_BIOME_WEIGHTS_HIGH, ATTRIBUTE_BIOMES, MAX_CHUNK_BIOMES,
};
pub use colour::ColourRamp;
pub use mesh::{ATTRIBUTE_MORPH, ChunkJob, ChunkMeshData, build_chunk_mesh};

use bevy::math::IVec2;
use bevy::prelude::*;
use perlin_core::GridSpec;

/// A chunk's integer coordinates in chunks of its level: chunk `(x, z)` of level `lod` covers
/// terrain-space `[x·s, (x+1)·s) × [z·s, (z+1)·s)` with `s = chunk_size · 2^lod`.
pub type ChunkCoord = IVec2;

/// Marks a terrain chunk entity: which chunk it is, at which level of detail (0 = full detail,
/// `chunk_size` on a side; each level doubles the side at the same vertex count). Chunk
/// entities are children of the [`TerrainRoot`](crate::TerrainRoot); the plugin spawns,
/// remeshes and despawns them. A game may despawn one (or the root): the plugin notices and
/// builds what is still wanted again.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[reflect(Component, Debug, Clone, PartialEq)]
#[component(on_remove = crate::stream::forget_chunk)]
pub struct TerrainChunk {
    /// The chunk's coordinates, in chunks of its level.
    pub coord: ChunkCoord,
    /// Its level of detail.
    pub lod: u8,
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
