//! Chunk meshes: where a chunk is ([`ChunkCoord`]) and how its mesh is built off the main
//! thread. Knows nothing of streaming (which chunks exist is `stream/`'s business). A chunk's
//! [`ChunkJob`] (`job.rs`) is what its task needs; `mesh.rs` builds its buffers, with the
//! triangle list and skirts of `topology.rs`.
//!
//! [`ChunkJob`] and [`build_chunk_mesh`] are the plugin's own mesh builder, public for tools and
//! benchmarks that build chunks without an `App`: `build_chunk_mesh(&ChunkJob::new(tables,
//! &config, coord, lod))` gives exactly the buffers the plugin uploads for that chunk (with the
//! terrain material, `.without_colors()`).
//! [`ColorRamp`] is the vertex-color ramp, for tools that color heights the way the
//! fallback look does.

mod biomes;
mod color;
mod job;
mod mesh;
mod topology;
#[cfg(feature = "render")]
pub(crate) use topology::grid_triangles;

pub use biomes::{
    ATTRIBUTE_BIOME_WEIGHTS, ATTRIBUTE_BIOME_WEIGHTS_HIGH, ATTRIBUTE_BIOMES, MAX_CHUNK_BIOMES,
};
pub use color::ColorRamp;
pub use job::ChunkJob;
pub use mesh::{ATTRIBUTE_MORPH, ChunkMeshData, build_chunk_mesh};

use bevy::math::IVec2;
use bevy::prelude::*;
use perlin_core::GridSpec;

/// A chunk's integer coordinates in chunks of its level: chunk `(x, z)` of level `lod` covers
/// terrain-space `[x·s, (x+1)·s) × [z·s, (z+1)·s)` with `s = chunk_size · 2^lod`.
pub type ChunkCoord = IVec2;

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

/// How the chunks are shaded, chosen when the plugin is added
/// ([`PerlinTerrainPlugin::with_render_mode`](crate::PerlinTerrainPlugin::with_render_mode)).
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[reflect(Default, Debug, Clone, PartialEq)]
pub enum TerrainRenderMode {
    /// The terrain material: per-pixel layers by height, slope, snow and creases, world-space
    /// edge noise and close-up detail, optional texture layers, and the water surface.
    #[default]
    Material,
    /// The cheap fallback: colors per vertex in the mesh and one `StandardMaterial` (no water
    /// surface). A change of colors then rebuilds every chunk.
    VertexColors,
}
