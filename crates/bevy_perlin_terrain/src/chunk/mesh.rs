//! Building one chunk's mesh buffers from the noise, entirely off the main thread.

use super::ChunkCoord;
use crate::config::{TerrainColours, TerrainConfig};
use crate::heights::heights_and_normals;
use bevy::asset::RenderAssetUsages;
use bevy::math::Vec3;
use bevy::mesh::{Indices, Mesh, PrimitiveTopology};
use perlin_core::{Fbm, GridSpec, NoiseTables};
use std::sync::Arc;

/// Everything a task needs to build one chunk: plain data, cheap to clone (the tables are
/// shared).
#[derive(Clone, Debug)]
pub struct ChunkJob {
    /// Shared seeded tables.
    pub tables: Arc<NoiseTables>,
    /// The fractal noise.
    pub noise: Fbm,
    /// Metres per unit of noise.
    pub height_scale: f32,
    /// Quads per chunk side at this level of detail.
    pub quads: u32,
    /// Metres between vertices at this level of detail.
    pub spacing: f64,
    /// Skirt depth in metres.
    pub skirt_depth: f32,
    /// Water height, for colouring.
    pub sea_level: f32,
    /// Vertex colours.
    pub colours: TerrainColours,
    /// Which chunk.
    pub coord: ChunkCoord,
    /// Level of detail.
    pub lod: u8,
}

impl ChunkJob {
    /// The job for chunk `coord` at `lod` under `config`.
    pub fn new(
        tables: Arc<NoiseTables>,
        config: &TerrainConfig,
        coord: ChunkCoord,
        lod: u8,
    ) -> Self {
        Self {
            tables,
            noise: config.noise,
            height_scale: config.height_scale,
            quads: config.resolution_at(lod) - 1,
            spacing: config.vertex_spacing(lod),
            skirt_depth: config.skirt_depth_or_auto(),
            sea_level: config.sea_level,
            colours: config.colours.clone(),
            coord,
            lod,
        }
    }

    /// The grid of this chunk's vertices: global sample indices `coord · quads + (0..=quads)`,
    /// so neighbours compute their shared edge from the same integers.
    pub fn grid(&self) -> GridSpec {
        let q = self.quads as i64;
        let n = self.quads as usize + 1;
        GridSpec {
            origin: [0.0, 0.0],
            step: [self.spacing, self.spacing],
            start: [self.coord.x as i64 * q, self.coord.y as i64 * q],
            size: [n, n],
        }
    }
}

/// A chunk's mesh buffers, positions relative to the chunk's corner `(x·size, 0, z·size)`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChunkMeshData {
    /// Vertex positions: the `(quads + 1)²` grid, then the skirt vertices.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals from the analytic gradient.
    pub normals: Vec<[f32; 3]>,
    /// Texture coordinates, 0 to 1 across the chunk.
    pub uvs: Vec<[f32; 2]>,
    /// Linear RGBA vertex colours by height and slope.
    pub colors: Vec<[f32; 4]>,
    /// Triangle list.
    pub indices: Vec<u32>,
}

impl ChunkMeshData {
    /// Whether the mesh has no vertex (never uploaded: Bevy 0.19's mesh allocator misbehaves
    /// on empty meshes).
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty() || self.indices.is_empty()
    }

    /// The Bevy mesh. `RENDER_WORLD | MAIN_WORLD` keeps the buffers readable in the app.
    pub fn into_mesh(self) -> Mesh {
        Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::default(),
        )
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, self.positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, self.normals)
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, self.uvs)
        .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, self.colors)
        .with_inserted_indices(Indices::U32(self.indices))
    }
}

/// The colour of ground at `height` metres with unit normal `normal`.
pub fn ground_colour(
    colours: &TerrainColours,
    sea_level: f32,
    height: f32,
    normal: Vec3,
) -> [f32; 4] {
    // From the sea bed up, each band edge mixes in the colour above it over `band_blend` metres.
    let above = height - sea_level;
    let half = 0.5 * colours.band_blend;
    let mut band = Vec3::from(colours.sea_bed);
    let mut edge = 0.0;
    for b in &colours.bands {
        let t = if half > 0.0 {
            ((above - edge + half) / (2.0 * half)).clamp(0.0, 1.0)
        } else {
            f32::from(above >= edge)
        };
        band = band.lerp(Vec3::from(b.colour), t);
        edge = b.up_to;
    }
    // Blend towards rock as the slope passes rock_slope, over a fifth of that slope.
    let slope = 1.0 - normal.y;
    let start = colours.rock_slope * 0.8;
    let t = ((slope - start) / (colours.rock_slope - start).max(1e-6)).clamp(0.0, 1.0);
    let c = band.lerp(Vec3::from(colours.rock), t);
    [c.x, c.y, c.z, 1.0]
}

/// Builds chunk `job`: heights and exact normals from the grid path, UVs, colours, two
/// triangles per quad, and a skirt hanging from every edge so no crack shows between levels
/// of detail.
pub fn build_chunk_mesh(job: &ChunkJob) -> ChunkMeshData {
    let spec = job.grid();
    let (heights, normals) = heights_and_normals(&job.tables, &job.noise, job.height_scale, &spec);
    let n = job.quads as usize + 1;
    if heights.len() != n * n || n < 2 {
        return ChunkMeshData::default();
    }
    let mut mesh = ChunkMeshData::default();
    let vertices = n * n + 4 * n;
    mesh.positions.reserve(vertices);
    mesh.normals.reserve(vertices);
    mesh.uvs.reserve(vertices);
    mesh.colors.reserve(vertices);
    let spacing = job.spacing as f32;
    let inv = 1.0 / job.quads as f32;
    let grid = || (0..n).flat_map(move |j| (0..n).map(move |i| (i, j)));
    mesh.positions.extend(
        grid()
            .zip(&heights)
            .map(|((i, j), &h)| [i as f32 * spacing, h, j as f32 * spacing]),
    );
    mesh.normals.extend(normals.iter().map(|v| v.to_array()));
    mesh.uvs
        .extend(grid().map(|(i, j)| [i as f32 * inv, j as f32 * inv]));
    mesh.colors.extend(
        heights
            .iter()
            .zip(&normals)
            .map(|(&h, &normal)| ground_colour(&job.colours, job.sea_level, h, normal)),
    );
    let at = |i: usize, j: usize| (j * n + i) as u32;
    mesh.indices.reserve(6 * (n - 1) * (n - 1) + 24 * (n - 1));
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            let (v00, v10, v01, v11) = (at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
            // Counter-clockwise seen from above (+Y).
            mesh.indices
                .extend_from_slice(&[v00, v01, v10, v10, v01, v11]);
        }
    }
    // Skirts: each edge's vertices again, lowered; both windings so they show from any side.
    let edges: [Vec<u32>; 4] = [
        (0..n).map(|i| at(i, 0)).collect(),
        (0..n).map(|i| at(i, n - 1)).collect(),
        (0..n).map(|j| at(0, j)).collect(),
        (0..n).map(|j| at(n - 1, j)).collect(),
    ];
    for edge in edges {
        let first = mesh.positions.len() as u32;
        for &v in &edge {
            let v = v as usize;
            let [x, y, z] = mesh.positions[v];
            mesh.positions.push([x, y - job.skirt_depth, z]);
            mesh.normals.push(mesh.normals[v]);
            mesh.uvs.push(mesh.uvs[v]);
            mesh.colors.push(mesh.colors[v]);
        }
        for s in 0..n as u32 - 1 {
            let (top0, top1) = (edge[s as usize], edge[s as usize + 1]);
            let (low0, low1) = (first + s, first + s + 1);
            mesh.indices
                .extend_from_slice(&[top0, low0, top1, top1, low0, low1]);
            mesh.indices
                .extend_from_slice(&[top0, top1, low0, top1, low1, low0]);
        }
    }
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::HeightBand;

    fn colours(band_blend: f32) -> TerrainColours {
        TerrainColours {
            sea_bed: [0.0, 0.0, 1.0],
            bands: vec![
                HeightBand::new(10.0, [1.0, 0.0, 0.0]),
                HeightBand::new(1e9, [0.0, 1.0, 0.0]),
            ],
            band_blend,
            rock: [0.5, 0.5, 0.5],
            rock_slope: 0.5,
        }
    }

    #[test]
    fn bands_blend_across_their_edges_and_steep_ground_is_rock() {
        let flat = Vec3::Y;
        let c = colours(2.0);
        // 100 m sea level: inside each band its own colour, half-way at each edge.
        assert_eq!(ground_colour(&c, 100.0, 90.0, flat), [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(ground_colour(&c, 100.0, 100.0, flat), [0.5, 0.0, 0.5, 1.0]);
        assert_eq!(ground_colour(&c, 100.0, 105.0, flat), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(
            ground_colour(&c, 100.0, 110.5, flat),
            [0.25, 0.75, 0.0, 1.0]
        );
        assert_eq!(ground_colour(&c, 100.0, 500.0, flat), [0.0, 1.0, 0.0, 1.0]);
        // Without blending the edges are steps.
        let hard = colours(0.0);
        assert_eq!(ground_colour(&hard, 0.0, -0.01, flat), [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(ground_colour(&hard, 0.0, 0.01, flat), [1.0, 0.0, 0.0, 1.0]);
        // A vertical face is rock whatever its height.
        assert_eq!(ground_colour(&c, 0.0, 500.0, Vec3::X), [0.5, 0.5, 0.5, 1.0]);
    }
}
