//! [`ChunkJob`]: everything a task needs to build one chunk's mesh, taken from a config (and the
//! ground of a sampler) on the main thread.

use super::{ChunkCoord, ColorRamp, chunk_grid};
use crate::config::TerrainConfig;
use crate::ground::{GroundEdits, GroundRecipe, TerrainSampler};
use perlin_core::{Detail, GridSpec, NoiseTables};
use std::sync::Arc;

/// Everything a task needs to build one chunk: plain data, cheap to clone (the tables are
/// shared). Build one with [`ChunkJob::new`].
#[derive(Clone, Debug)]
pub struct ChunkJob {
    pub(super) tables: Arc<NoiseTables>,
    /// The noise and height scale, or the biomes.
    pub(super) ground: GroundRecipe,
    /// The stamps and paths.
    pub(super) edits: Arc<GroundEdits>,
    /// Quads per chunk side (the same at every level).
    pub(super) quads: u32,
    /// Metres between vertices at this level.
    pub(super) spacing: f64,
    /// The parent level's vertex spacing, for the morph target; `None` at the top level.
    pub(super) parent_spacing: Option<f64>,
    pub(super) skirt_depth: f32,
    /// Vertex colors by height above the sea and slope; `None` for a mesh without colors.
    pub(super) ramp: Option<ColorRamp>,
    /// Each biome's vertex colors, when some biome has a look of its own (else `ramp` colors
    /// every biome).
    pub(super) biome_ramps: Arc<[ColorRamp]>,
    /// Whether the mesh carries the erosion crease mask.
    pub(super) creases: bool,
    coord: ChunkCoord,
    lod: u8,
}

impl ChunkJob {
    /// The job for the chunk at `coord` of level `lod` under `config` (`chunk_size · 2^lod`
    /// metres on a side, `chunk_resolution` vertices per side): a mesh with vertex colors, with
    /// the crease mask when the noise has erosion, and with its parent level's surface as the
    /// morph target (below the top level of `config`'s view), and the config's own stamps and
    /// paths (see [`with_edits`](Self::with_edits) for those of the components).
    pub fn new(
        tables: Arc<NoiseTables>,
        config: &TerrainConfig,
        coord: ChunkCoord,
        lod: u8,
    ) -> Self {
        Self::on_ground(&TerrainSampler::new(tables, config), config, coord, lod)
    }

    /// The job on the ground of `sampler` (its tables, ground and edits: the config's and the
    /// components' stamps and paths) instead of the config's own.
    pub(crate) fn on_ground(
        sampler: &TerrainSampler,
        config: &TerrainConfig,
        coord: ChunkCoord,
        lod: u8,
    ) -> Self {
        let ground = sampler.ground_recipe().clone();
        let quads = config.chunk_quads();
        Self {
            tables: sampler.tables().clone(),
            creases: ground.has_erosion(),
            ground,
            edits: sampler.edits().clone(),
            quads,
            spacing: config.vertex_spacing(lod),
            // The parent's vertices are every other vertex of an even number of quads (always,
            // once validated: `2^k + 1` vertices a side); an odd number has none to morph to.
            parent_spacing: (lod < config.max_lod() && quads.is_multiple_of(2))
                .then(|| config.vertex_spacing(lod + 1)),
            skirt_depth: config.skirt_depth_at(lod),
            ramp: Some(ColorRamp::new(&config.colors, config.sea_level)),
            biome_ramps: if config.biomes.iter().any(|b| b.colors.is_some()) {
                let ramp = |b: &crate::config::Biome| {
                    ColorRamp::new(
                        b.colors.as_ref().unwrap_or(&config.colors),
                        config.sea_level,
                    )
                };
                config.biomes.iter().map(ramp).collect()
            } else {
                Arc::new([])
            },
            coord,
            lod,
        }
    }

    /// The same job on ground with `edits` (e.g. `sampler.edits().clone()` of a
    /// [`TerrainSampler`]: the config's and the components' stamps and
    /// paths).
    pub fn with_edits(mut self, edits: Arc<GroundEdits>) -> Self {
        self.edits = edits;
        self
    }

    /// The same job without vertex colors (the terrain material colors the ground itself).
    pub fn without_colors(mut self) -> Self {
        self.ramp = None;
        self.biome_ramps = Arc::new([]);
        self
    }

    /// Which chunk, in chunks of its level.
    pub fn coord(&self) -> ChunkCoord {
        self.coord
    }

    /// Its level of detail.
    pub fn lod(&self) -> u8 {
        self.lod
    }

    /// The detail its heights show: octaves its vertex spacing can resolve (see
    /// [`perlin_core::Detail`]).
    pub fn detail(&self) -> Detail {
        Detail::at_spacing(self.spacing)
    }

    /// The grid of this chunk's vertices: global sample indices `coord · quads + (0..=quads)`
    /// at its level's spacing, so neighbours compute their shared edge from the same integers
    /// (the positions of [`TerrainConfig::vertex_position`]).
    pub fn grid(&self) -> GridSpec {
        chunk_grid(self.coord, self.quads, self.spacing)
    }

    /// The parent's vertices inside this chunk: every other vertex of this chunk, sampled with
    /// the parent's spacing and detail from the parent's own global indices, so they are the
    /// parent's heights bit for bit.
    pub(super) fn parent_grid(&self, spacing: f64) -> GridSpec {
        chunk_grid(self.coord, self.quads / 2, spacing)
    }
}
