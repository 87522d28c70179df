//! Building one chunk's mesh buffers from the noise, entirely off the main thread: its own
//! heights and normals at its level's detail, and per vertex the surface of its parent level
//! there (the morph target the terrain material blends towards with distance).

use super::ColorRamp;
use super::biomes::{
    ATTRIBUTE_BIOME_WEIGHTS, ATTRIBUTE_BIOME_WEIGHTS_HIGH, ATTRIBUTE_BIOMES, pack_slots,
    slot_weights,
};
use super::job::ChunkJob;
use super::topology::{shared_triangles, skirt_edges};
use crate::ground::with_thread_samples_and_coarse;
use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, Mesh, MeshVertexAttribute, PrimitiveTopology, VertexFormat};
use perlin_core::{Detail, SimdLevel, Vectorised};

/// The morph target of each vertex: the height of the parent level's surface there, then its
/// (not normalised) normal. The terrain material blends a vertex from its own height and
/// normal to these as the camera moves away, so the parent takes over without a jump.
pub const ATTRIBUTE_MORPH: MeshVertexAttribute = MeshVertexAttribute::new(
    "TerrainMorph",
    0x7e22_a1d0_5eed_0001,
    VertexFormat::Float32x4,
);

/// A chunk's mesh buffers, positions relative to the chunk's corner (`coord · size`).
#[derive(Clone, Debug, PartialEq)]
pub struct ChunkMeshData {
    /// Vertex positions: the `(quads + 1)²` grid, then the skirt vertices.
    pub positions: Vec<[f32; 3]>,
    /// Unit normals from the analytic gradient.
    pub normals: Vec<[f32; 3]>,
    /// Texture coordinates, 0 to 1 across the chunk.
    pub uvs: Vec<[f32; 2]>,
    /// Linear RGBA vertex colors by height and slope (with biomes, each biome's colors
    /// blended by its weight); empty for a job without colors.
    pub colors: Vec<[f32; 4]>,
    /// The erosion crease mask (0 on ridges, 1 in gullies) in `x`, `y` unused: Bevy's second
    /// UV channel, so that the terrain material reads it without a custom vertex attribute.
    /// Empty when the noise has no erosion.
    pub creases: Vec<[f32; 2]>,
    /// The morph target of every vertex ([`ATTRIBUTE_MORPH`]): the parent level's height there
    /// and its normal (at the parent's own vertices, the parent's; between them, interpolated
    /// along the parent's triangles, as the parent's mesh draws them). At the top level, the
    /// chunk's own.
    pub morph: Vec<[f32; 4]>,
    /// The biomes whose looks the chunk shows (their index in the config's `biomes`, at most
    /// [`MAX_CHUNK_BIOMES`](super::MAX_CHUNK_BIOMES), in that order): those that weigh in over
    /// it. Empty for a config without biomes.
    pub biomes: Vec<u8>,
    /// Per vertex, the weight of each biome of `biomes` (slot `k` for `biomes[k]`), out of 255:
    /// the weights its ground was blended with, rounded. Empty for a config without biomes.
    pub biome_weights: Vec<[u8; 8]>,
    /// Triangle list: 16-bit when the vertices allow (up to 129² per chunk), else 32-bit.
    pub indices: Indices,
}

impl Default for ChunkMeshData {
    fn default() -> Self {
        Self {
            positions: Vec::new(),
            normals: Vec::new(),
            uvs: Vec::new(),
            colors: Vec::new(),
            creases: Vec::new(),
            morph: Vec::new(),
            biomes: Vec::new(),
            biome_weights: Vec::new(),
            indices: Indices::U16(Vec::new()),
        }
    }
}

impl ChunkMeshData {
    /// Whether the mesh has no vertex (never uploaded: Bevy 0.19's mesh allocator misbehaves
    /// on empty meshes).
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty() || self.indices.is_empty()
    }

    /// The lowest and highest height of the mesh, morph targets included: what it can cover
    /// on screen, whatever its morph.
    pub fn height_range(&self) -> (f32, f32) {
        let own = self.positions.iter().map(|p| p[1]);
        let target = self.morph.iter().map(|m| m[0]);
        own.chain(target)
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), y| {
                (l.min(y), h.max(y))
            })
    }

    /// The Bevy mesh, with `RenderAssetUsages::MAIN_WORLD | RENDER_WORLD`: the buffers stay
    /// readable in the app (for tests and tools). Colors go into `ATTRIBUTE_COLOR`, creases
    /// into `ATTRIBUTE_UV_1`, morph targets into [`ATTRIBUTE_MORPH`] and biome weights into
    /// [`ATTRIBUTE_BIOMES`] and the two weight attributes when there are any.
    pub fn into_mesh(self) -> Mesh {
        let mut mesh = Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
        )
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, self.positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, self.normals)
        .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, self.uvs)
        .with_inserted_indices(self.indices);
        if !self.colors.is_empty() {
            mesh.insert_attribute(Mesh::ATTRIBUTE_COLOR, self.colors);
        }
        if !self.creases.is_empty() {
            mesh.insert_attribute(Mesh::ATTRIBUTE_UV_1, self.creases);
        }
        if !self.morph.is_empty() {
            mesh.insert_attribute(ATTRIBUTE_MORPH, self.morph);
        }
        if !self.biome_weights.is_empty() {
            let slots = pack_slots(&self.biomes);
            let (low, high): (Vec<[u8; 4]>, Vec<[u8; 4]>) = self
                .biome_weights
                .iter()
                .map(|w| ([w[0], w[1], w[2], w[3]], [w[4], w[5], w[6], w[7]]))
                .unzip();
            mesh.insert_attribute(ATTRIBUTE_BIOMES, vec![slots; low.len()]);
            mesh.insert_attribute(
                ATTRIBUTE_BIOME_WEIGHTS,
                bevy::mesh::VertexAttributeValues::Unorm8x4(low),
            );
            mesh.insert_attribute(
                ATTRIBUTE_BIOME_WEIGHTS_HIGH,
                bevy::mesh::VertexAttributeValues::Unorm8x4(high),
            );
        }
        mesh
    }
}

/// The parent level's surface at every vertex of an `n × n` chunk grid (`n − 1` even), from
/// the parent's `m × m` vertices `parent` (heights and normals, `m = (n − 1)/2 + 1`): at a
/// vertex the parent has, its own; between two of them along a row or column, their mean; at
/// the centre of a parent quad, the mean of the two ends of the diagonal the parent's triangles
/// share (from its `+x` corner to its `+z` corner, as [`triangles`](super::topology::triangles)
/// splits quads). A fine triangle lies within one parent triangle, so the fine mesh at these
/// targets is the parent's surface exactly, and so are its interpolated normals.
fn morph_targets(n: usize, parent: &[(f32, [f32; 3])], out: &mut Vec<[f32; 4]>) {
    let m = (n - 1) / 2 + 1;
    let at = |x: usize, z: usize| parent[z * m + x];
    let mean = |(ha, na): (f32, [f32; 3]), (hb, nb): (f32, [f32; 3])| {
        [
            0.5 * (ha + hb),
            0.5 * (na[0] + nb[0]),
            0.5 * (na[1] + nb[1]),
            0.5 * (na[2] + nb[2]),
        ]
    };
    let whole = |(h, n): (f32, [f32; 3])| [h, n[0], n[1], n[2]];
    for j in 0..n {
        for i in 0..n {
            let (x, z) = (i / 2, j / 2);
            out.push(match (i % 2, j % 2) {
                (0, 0) => whole(at(x, z)),
                (1, 0) => mean(at(x, z), at(x + 1, z)),
                (0, 1) => mean(at(x, z), at(x, z + 1)),
                _ => mean(at(x + 1, z), at(x, z + 1)),
            });
        }
    }
}

/// Builds chunk `job`: heights and exact normals from the grid path at its level's detail,
/// UVs, colors and crease mask (when the job has them), the parent's surface as each vertex's
/// morph target, two triangles per quad, and a skirt hanging from every edge so that no crack
/// shows while a neighbour of another level is being replaced.
pub fn build_chunk_mesh(job: &ChunkJob) -> ChunkMeshData {
    let n = job.quads as usize + 1;
    let m = job.quads as usize / 2 + 1;
    // The chunk's grid and, below the top level, its parent's vertices inside it.
    with_thread_samples_and_coarse(|samples, coarse| {
        let grid = (&job.grid(), job.detail());
        let filled = match job.parent_spacing {
            Some(spacing) => samples.fill_with_coarse(
                coarse,
                &job.tables,
                &job.ground,
                &job.edits,
                grid,
                (&job.parent_grid(spacing), Detail::at_spacing(spacing)),
            ),
            None => samples.fill(&job.tables, &job.ground, &job.edits, grid.0, grid.1),
        };
        let parent_filled = job.parent_spacing.is_none() || coarse.len() == m * m;
        if filled.is_err() || samples.len() != n * n || n < 3 || !parent_filled {
            return ChunkMeshData::default();
        }
        let parent = job.parent_spacing.map(|_| {
            (0..m * m)
                .map(|k| {
                    let (h, n) = coarse.ground(k).unwrap_or((0.0, bevy::math::Vec3::Y));
                    (h, n.to_array())
                })
                .collect::<Vec<_>>()
        });
        let vertices = n * n + 4 * n;
        let mut mesh = ChunkMeshData {
            positions: Vec::with_capacity(vertices),
            normals: Vec::with_capacity(vertices),
            uvs: Vec::with_capacity(vertices),
            colors: Vec::with_capacity(if job.ramp.is_some() { vertices } else { 0 }),
            creases: Vec::with_capacity(if job.creases { vertices } else { 0 }),
            morph: Vec::with_capacity(vertices),
            biomes: Vec::new(),
            biome_weights: Vec::new(),
            indices: match u16::try_from(vertices) {
                Ok(_) => Indices::U16(shared_triangles(n)),
                Err(_) => Indices::U32(shared_triangles(n)),
            },
        };
        let rows = GridRows {
            job,
            samples,
            mesh: &mut mesh,
            n,
        };
        SimdLevel::Auto
            .vectorise(rows)
            .unwrap_or_else(Vectorised::run);
        (mesh.biomes, mesh.biome_weights) = slot_weights(samples, n * n, vertices);
        match parent {
            Some(parent) => morph_targets(n, &parent, &mut mesh.morph),
            None => mesh.morph.extend(
                mesh.positions
                    .iter()
                    .zip(&mesh.normals)
                    .map(|(p, n)| [p[1], n[0], n[1], n[2]]),
            ),
        }
        // Skirts: each edge's vertices again, lowered (the order `triangles` expects).
        for v in skirt_edges(n).into_iter().flatten() {
            let [x, y, z] = mesh.positions[v];
            mesh.positions.push([x, y - job.skirt_depth, z]);
            mesh.normals.push(mesh.normals[v]);
            mesh.uvs.push(mesh.uvs[v]);
            let [h, nx, ny, nz] = mesh.morph[v];
            mesh.morph.push([h - job.skirt_depth, nx, ny, nz]);
            if let Some(&color) = mesh.colors.get(v) {
                mesh.colors.push(color);
            }
            if let Some(&crease) = mesh.creases.get(v) {
                mesh.creases.push(crease);
            }
            if let Some(&weights) = mesh.biome_weights.get(v) {
                mesh.biome_weights.push(weights);
            }
        }
        mesh
    })
}

/// The `n × n` grid vertices of a chunk, row by row, one attribute at a time: positions,
/// normals and UVs, then colors and crease masks when the job has them. A kernel so that
/// [`SimdLevel::vectorise`] compiles its loops for the widest vector instructions the CPU has
/// (the same bits on every build).
struct GridRows<'a> {
    job: &'a ChunkJob,
    samples: &'a crate::ground::GroundSamples,
    mesh: &'a mut ChunkMeshData,
    n: usize,
}

impl Vectorised for GridRows<'_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        let GridRows {
            job,
            samples,
            mesh,
            n,
        } = self;
        let spacing = job.spacing as f32;
        let inv = 1.0 / job.quads as f32;
        let row_of = |j: usize| j * n..(j + 1) * n;
        // The one ramp that colors every vertex, if one does: the config's, or a biome's that
        // weighs all over the chunk (its weight of 1 times a color, added to +0, is that
        // color).
        let single = if job.biome_ramps.is_empty() {
            job.ramp.as_ref()
        } else {
            let mut weighing = samples.biome_weights();
            match (weighing.next(), weighing.next()) {
                (Some((biome, None)), None) => job.biome_ramps.get(biome),
                _ => None,
            }
        };
        // One biome's colors of a row, when biomes blend theirs.
        let mut one_biome = Vec::new();
        // Row by row, one attribute at a time: each pass is a plain loop over the row.
        for j in 0..n {
            let row = row_of(j);
            let (first, z) = (row.start, j as f32);
            let heights = samples.heights(row.clone()).enumerate();
            mesh.positions
                .extend(heights.map(|(i, h)| [i as f32 * spacing, h, z * spacing]));
            mesh.normals
                .extend(samples.normals(row).map(|v| v.to_array()));
            mesh.uvs.extend((0..n).map(|i| [i as f32 * inv, z * inv]));
            if job.ramp.is_some() {
                let (positions, normals) = (&mesh.positions[first..], &mesh.normals[first..]);
                match single {
                    Some(ramp) => ramp.fill(positions, normals, &mut mesh.colors),
                    None => blend_biome_colors(
                        &job.biome_ramps,
                        samples,
                        (first, positions, normals),
                        &mut one_biome,
                        &mut mesh.colors,
                    ),
                }
            }
            if job.creases {
                mesh.creases
                    .extend(samples.creases(row_of(j)).iter().map(|&c| [c, 0.0]));
            }
        }
    }
}

/// Appends to `out` the vertex colors of one grid row: the samples `first..` of `samples`,
/// at `positions` with `normals`. Each biome's colors (`ramps`, by biome) are blended by its
/// weight there; `one_biome` holds one biome's colors in turn. Always inlined into the rows'
/// kernel, so that it runs in its vectors.
#[inline(always)]
fn blend_biome_colors(
    ramps: &[ColorRamp],
    samples: &crate::ground::GroundSamples,
    (first, positions, normals): (usize, &[[f32; 3]], &[[f32; 3]]),
    one_biome: &mut Vec<[f32; 4]>,
    out: &mut Vec<[f32; 4]>,
) {
    let start = out.len();
    out.resize(start + positions.len(), [0.0, 0.0, 0.0, 1.0]);
    let sums = &mut out[start..];
    for (biome, weights) in samples.biome_weights() {
        let Some(ramp) = ramps.get(biome) else {
            continue;
        };
        one_biome.clear();
        ramp.fill(positions, normals, one_biome);
        let add = |sum: &mut [f32; 4], c: &[f32; 4], w: f32| {
            for (s, c) in sum.iter_mut().zip(c).take(3) {
                *s += w * c;
            }
        };
        let colors = sums.iter_mut().zip(one_biome.iter());
        match weights {
            // The only biome: a weight of 1 everywhere.
            None => colors.for_each(|(sum, c)| add(sum, c, 1.0)),
            // A sample past the weights has none of this biome.
            Some(weights) => {
                let weights = weights.get(first..).unwrap_or_default().iter().copied();
                let weights = weights.chain(std::iter::repeat(0.0));
                colors.zip(weights).for_each(|((sum, c), w)| add(sum, c, w));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::topology::triangles;
    use super::*;
    use crate::config::TerrainConfig;
    use bevy::math::{IVec2, Vec3, Vec3Swizzles};
    use perlin_core::NoiseTables;
    use std::sync::Arc;

    fn job(resolution: u32) -> ChunkJob {
        let config = TerrainConfig {
            chunk_resolution: resolution,
            ..TerrainConfig::default()
        };
        let tables = Arc::new(NoiseTables::from_seed(config.seed));
        ChunkJob::new(tables, &config, IVec2::new(2, -5), 0)
    }

    #[test]
    fn chunks_of_other_resolutions_in_turn_get_their_own_triangles() {
        // One thread, resolutions changing (257² vertices take 32-bit indices).
        for n in [9, 17, 9, 257, 17, 257] {
            let mesh = build_chunk_mesh(&job(n as u32));
            match &mesh.indices {
                Indices::U16(indices) => assert_eq!(indices, &triangles::<u16>(n), "{n}"),
                Indices::U32(indices) => assert_eq!(indices, &triangles::<u32>(n), "{n}"),
            }
        }
    }

    #[test]
    fn vertex_colors_are_the_ramps_color_of_each_vertex_bit_for_bit() {
        // The rows' kernel runs with the CPU's widest instructions; a vertex's color is still
        // what the ramp gives for its height and normal, one at a time in the plain build.
        // A coarse chunk (level 4, 33² vertices 16 m apart) of the default preset: lake shores,
        // hills and rock.
        let config = TerrainConfig {
            chunk_resolution: 33,
            ..TerrainConfig::default()
        };
        let tables = Arc::new(NoiseTables::from_seed(config.seed));
        let job = ChunkJob::new(tables, &config, IVec2::new(1, -1), 4);
        let ramp = job
            .ramp
            .clone()
            .expect("a job colors its vertices by default");
        let mesh = build_chunk_mesh(&job);
        assert_eq!(mesh.colors.len(), mesh.positions.len());
        let mut bands = std::collections::BTreeSet::new();
        // The grid's vertices (a skirt's take its edge vertex's color).
        let grid = mesh.positions.iter().zip(&mesh.normals).zip(&mesh.colors);
        for ((p, n), c) in grid.take(33 * 33) {
            let expected = ramp.color(p[1], Vec3::from(*n));
            assert_eq!(
                c.map(f32::to_bits),
                expected.map(f32::to_bits),
                "vertex at {p:?}"
            );
            bands.insert(c.map(f32::to_bits));
        }
        assert!(bands.len() > 20, "{} colors: the ramp varies", bands.len());
    }

    #[test]
    fn grid_triangles_face_up_and_skirts_hang_below_every_edge() {
        let job = job(9);
        let mesh = build_chunk_mesh(&job);
        let (n, quads) = (9, 8);
        assert_eq!(mesh.positions.len(), n * n + 4 * n);
        let Indices::U16(indices) = &mesh.indices else {
            panic!("a 9² chunk has 16-bit indices");
        };
        assert_eq!(indices.len(), 6 * quads * quads + 4 * 12 * quads);
        let p = |v: u16| Vec3::from(mesh.positions[v as usize]);
        let (grid, skirts) = indices.split_at(6 * quads * quads);
        for t in grid.chunks_exact(3) {
            let up = (p(t[1]) - p(t[0])).cross(p(t[2]) - p(t[0]));
            assert!(up.y > 0.0, "triangle {t:?} faces down");
        }
        // Every skirt triangle is a vertical sliver under one edge segment: its corners stand
        // at two neighbouring edge positions, and each lowered corner sits the skirt depth below
        // the grid vertex there.
        let below = |v: u16| usize::from(v) >= n * n;
        let grid_at = |x: f32, z: f32| {
            (0..n * n)
                .map(|u| Vec3::from(mesh.positions[u]))
                .find(|u| u.x == x && u.z == z)
        };
        for t in skirts.chunks_exact(3) {
            let lowered = t.iter().filter(|&&v| below(v)).count();
            assert!(lowered == 1 || lowered == 2, "skirt triangle {t:?}");
            let (a, b, c) = (p(t[0]).xz(), p(t[1]).xz(), p(t[2]).xz());
            let (one, other) = if a == b { (a, c) } else { (a, b) };
            for q in [a, b, c] {
                assert!(q == one || q == other, "{t:?} stands on two positions");
            }
            assert_eq!(one.distance(other), job.spacing as f32, "{t:?}");
            for &v in t.iter().filter(|&&v| below(v)) {
                let low = p(v);
                let top = grid_at(low.x, low.z).expect("a grid vertex above");
                assert_eq!(top.y - job.skirt_depth, low.y);
            }
        }
        // Each skirt vertex copies its edge vertex's normal, UV and color.
        for (s, v) in (n * n..).zip(skirt_edges(n).into_iter().flatten()) {
            assert_eq!(mesh.normals[s], mesh.normals[v]);
            assert_eq!(mesh.uvs[s], mesh.uvs[v]);
            assert_eq!(mesh.colors[s], mesh.colors[v]);
        }
    }

    #[test]
    fn crease_mask_rides_in_the_second_uv_channel_when_the_noise_erodes() {
        let mut config = TerrainConfig {
            chunk_resolution: 17,
            ..TerrainConfig::default()
        };
        config.noise.erosion = Some(perlin_core::Erosion::default());
        let tables = Arc::new(NoiseTables::from_seed(config.seed));
        let coord = IVec2::new(-1, 3);
        let job = ChunkJob::new(tables.clone(), &config, coord, 0).without_colors();
        let mesh = build_chunk_mesh(&job);
        assert!(mesh.colors.is_empty());
        assert_eq!(mesh.creases.len(), mesh.positions.len());
        // At each grid vertex, the sampler's crease mask; ridges and gullies both present.
        let sampler = crate::ground::TerrainSampler::new(tables, &config);
        let n = 17;
        for j in 0..n {
            for i in 0..n {
                let [x, z] = config.vertex_position(coord, 0, i, j);
                let v = (j * n + i) as usize;
                assert_eq!(mesh.creases[v], [sampler.crease(x, z), 0.0], "({i}, {j})");
            }
        }
        let (low, high) = mesh
            .creases
            .iter()
            .fold((1.0f32, 0.0f32), |(l, h), c| (l.min(c[0]), h.max(c[0])));
        assert!(low < 0.4 && high > 0.6, "creases from {low} to {high}");
        let mesh = mesh.into_mesh();
        assert!(mesh.attribute(Mesh::ATTRIBUTE_UV_1).is_some());
        assert!(mesh.attribute(Mesh::ATTRIBUTE_COLOR).is_none());
        // Without erosion, no mask.
        config.noise.erosion = None;
        let plain = ChunkJob::new(Arc::new(NoiseTables::from_seed(1)), &config, coord, 0);
        let plain = build_chunk_mesh(&plain).into_mesh();
        assert!(plain.attribute(Mesh::ATTRIBUTE_UV_1).is_none());
        assert!(plain.attribute(Mesh::ATTRIBUTE_COLOR).is_some());
    }

    #[test]
    fn a_job_from_an_unchecked_even_resolution_builds_and_its_vertices_morph_to_themselves() {
        // An even number of vertices a side fails validation (2^k + 1 only), and a job made from
        // the config as it stands must still build: an odd number of quads has no parent vertex
        // at every other vertex, so the chunk morphs to its own surface, as a top level does.
        let tables = Arc::new(NoiseTables::from_seed(1));
        for n in [4, 10, 64] {
            let config = TerrainConfig {
                chunk_resolution: n,
                ..TerrainConfig::default()
            };
            let mesh = build_chunk_mesh(&ChunkJob::new(tables.clone(), &config, IVec2::X, 0));
            let n = n as usize;
            assert_eq!(mesh.positions.len(), n * n + 4 * n);
            for ((p, v), target) in mesh.positions.iter().zip(&mesh.normals).zip(&mesh.morph) {
                assert_eq!(*target, [p[1], v[0], v[1], v[2]]);
            }
        }
    }

    #[test]
    fn index_width_follows_the_vertex_count() {
        // 129² + skirts fits 16 bits; 257² does not.
        assert!(matches!(
            build_chunk_mesh(&job(129)).indices,
            Indices::U16(_)
        ));
        let large = build_chunk_mesh(&job(257));
        let Indices::U32(indices) = &large.indices else {
            panic!("a 257² chunk needs 32-bit indices");
        };
        let vertices = large.positions.len() as u32;
        assert_eq!(vertices, 257 * 257 + 4 * 257);
        assert_eq!(indices.iter().max(), Some(&(vertices - 1)));
    }
}
