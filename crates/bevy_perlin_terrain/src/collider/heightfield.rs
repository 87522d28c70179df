//! Building one chunk's heightfield collider from the noise, entirely off the main thread.

use crate::chunk::ChunkCoord;
use crate::config::TerrainConfig;
use crate::ground::GroundEdits;
use crate::ground::TerrainSampler;
use crate::ground::{GroundRecipe, with_thread_samples};
use avian3d::parry::math::Vector;
use avian3d::parry::shape::{HeightFieldFlags, SharedShape};
use avian3d::parry::utils::Array2;
use avian3d::prelude::Collider;
use bevy::math::DVec3;
use perlin_core::{Detail, GridSpec, NoiseTables};
use std::sync::Arc;

/// Everything a task needs to build one chunk's collider: plain data, cheap to clone (the
/// tables are shared). Build one with [`ColliderJob::new`].
#[derive(Clone, Debug)]
pub struct ColliderJob {
    tables: Arc<NoiseTables>,
    /// The noise and height scale, or the biomes.
    ground: GroundRecipe,
    /// The stamps and paths.
    edits: Arc<GroundEdits>,
    chunk_size: f32,
    /// Quads per side.
    quads: u32,
    /// The full detail of the sampler and of level-0 chunks, whatever the collider's spacing.
    detail: Detail,
    coord: ChunkCoord,
}

impl ColliderJob {
    /// The collider of chunk `coord` under `config`, with
    /// [`TerrainConfig::collision_resolution`] samples per side, on the ground of the config's
    /// own stamps and paths (see [`with_edits`](Self::with_edits)).
    pub fn new(tables: Arc<NoiseTables>, config: &TerrainConfig, coord: ChunkCoord) -> Self {
        Self::on_ground(&TerrainSampler::new(tables, config), config, coord)
    }

    /// The job on the ground of `sampler` (its tables, ground and edits) instead of the
    /// config's own.
    pub(crate) fn on_ground(
        sampler: &TerrainSampler,
        config: &TerrainConfig,
        coord: ChunkCoord,
    ) -> Self {
        Self {
            tables: sampler.tables().clone(),
            ground: sampler.ground_recipe().clone(),
            edits: sampler.edits().clone(),
            chunk_size: config.chunk_size,
            quads: config.collision_resolution().max(2) - 1,
            detail: Detail::at_spacing(config.vertex_spacing(0)),
            coord,
        }
    }

    /// The same job on ground with `edits` (e.g. a
    /// [`TerrainSampler`](crate::TerrainSampler)'s: the config's and the components' stamps and
    /// paths).
    pub fn with_edits(mut self, edits: Arc<GroundEdits>) -> Self {
        self.edits = edits;
        self
    }

    /// Which chunk.
    pub fn coord(&self) -> ChunkCoord {
        self.coord
    }

    /// Where the collider's entity goes, in the terrain root's space: the chunk's centre at
    /// height 0 (a heightfield's origin is its centre).
    pub fn translation(&self) -> DVec3 {
        let size = f64::from(self.chunk_size);
        let centre = (self.coord.as_dvec2() + 0.5) * size;
        DVec3::new(centre.x, 0.0, centre.y)
    }
}

/// Whether some quad of the `n × n` field `heights` is level (its four corners at one height).
fn has_level_quad(heights: &[f32], n: usize) -> bool {
    (0..n.saturating_sub(1)).any(|x| {
        let (a, b) = (
            &heights[x * n..(x + 1) * n],
            &heights[(x + 1) * n..(x + 2) * n],
        );
        (0..n - 1).any(|z| a[z] == a[z + 1] && a[z] == b[z] && a[z] == b[z + 1])
    })
}

/// Builds the collider of `job`: the heights of the chunk's grid (the same grid path, the same
/// positions and so the same values as [`TerrainSampler::height`](crate::TerrainSampler::height)
/// and the full-detail mesh) as a parry heightfield, with internal-edge fixing so that balls
/// roll over triangle edges without bumps (except on a field with a level patch, where parry
/// loses contacts with it: a flattened site or road). Its triangles split each quad along the
/// same diagonal as the mesh's.
///
/// The heightfield reaches one cell past the chunk on every side, over its neighbours' first
/// cells (the same heights, so the surfaces coincide): parry can only fix the edges it sees
/// both sides of, and drops contacts on a heightfield's own border edges, so a ball landing on
/// the line between two chunks would fall through two fields that merely meet there. The cost:
/// a ball on a seam touches both fields (a second contact manifold). parry's vertical ray casts
/// can miss a heightfield exactly along a cell edge; cast a little off the grid lines.
///
/// `None` if the grid cannot be sampled (a chunk beyond the addressable range).
pub fn build_chunk_collider(job: &ColliderJob) -> Option<Collider> {
    let quads = job.quads as i64;
    // The chunk's samples plus one on every side.
    let n = job.quads as usize + 3;
    let spacing = job.chunk_size as f64 / job.quads as f64;
    let grid = GridSpec {
        origin: [0.0, 0.0],
        step: [spacing, spacing],
        start: [
            job.coord.x as i64 * quads - 1,
            job.coord.y as i64 * quads - 1,
        ],
        size: [n, n],
    };
    let heights = with_thread_samples(|samples| {
        samples
            .fill(&job.tables, &job.ground, &job.edits, &grid, job.detail)
            .ok()?;
        // Our samples run x fastest (`x + z·n`); a parry heightfield is column-major with rows
        // along z and columns along x (`z + x·n`).
        let mut heights = vec![0.0; n * n];
        for z in 0..n {
            for (x, h) in samples.heights(z * n..(z + 1) * n).enumerate() {
                heights[z + x * n] = h;
            }
        }
        Some(heights)
    })?;
    let span = (spacing * (n - 1) as f64) as f32;
    let extent = Vector::new(span, 1.0, span);
    // parry 0.27's internal-edge fixing loses every contact on a level patch (a quad whose four
    // corners have one height, as a flattened site or road has): a ball falls through it. Such
    // a field goes without the fixing (balls may feel its triangle edges).
    let flags = if has_level_quad(&heights, n) {
        HeightFieldFlags::empty()
    } else {
        HeightFieldFlags::FIX_INTERNAL_EDGES
    };
    let shape = SharedShape::heightfield_with_flags(Array2::new(n, n, heights), extent, flags);
    Some(Collider::from(shape))
}
