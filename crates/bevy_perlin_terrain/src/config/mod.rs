//! [`TerrainConfig`]: everything that shapes the terrain and how it streams, as a Bevy asset
//! loaded from `.terrain.ron` files (or built in code), with validation that names the bad field
//! and bounds the work a config can ask for.
//!
//! [`parse_config`] is the loader's whole work without an `App`, for tools.

mod collision;
mod loader;
mod look;
mod save;
mod scatter;
mod source;
mod validate;

pub use collision::Collision;
pub(crate) use loader::TerrainConfigLoader;
pub use loader::{TerrainConfigLoadError, parse_config};
pub use look::{
    EdgeNoise, GroundDetail, HeightBand, LayerTexture, MAX_BANDS, Snow, TerrainColours, Water,
};
pub use scatter::{MAX_SCATTER_LAYERS, ScatterLayer, SoftRange};
pub use source::TerrainConfigSource;
pub(crate) use source::{ColoursInMesh, TerrainConfigPlugin};
pub use validate::{
    ConfigError, MAX_COLLIDER_BYTES, MAX_COLLIDER_CHUNKS, MAX_IN_FLIGHT_BYTES, MAX_MESH_BYTES,
    MAX_SCATTER_IN_VIEW, MAX_SCATTER_PER_CHUNK, MAX_UPLOAD_BYTES, MAX_VIEW_CHUNKS,
};

use bevy::asset::Asset;
use bevy::prelude::*;
use perlin_core::Fbm;
use serde::{Deserialize, Serialize};

/// The whole recipe of a terrain: noise, scale, chunking, streaming limits and colours.
///
/// Every field has a default, so a `.terrain.ron` file names only what it changes:
///
/// ```ron
/// (
///     seed: 7,
///     noise: (octaves: 7, frequency: 0.002, mode: Ridged),
///     height_scale: 220.0,
/// )
/// ```
///
/// The fields fall in four groups, and a change applies accordingly:
/// - **what shapes the mesh**: `seed`, `noise`, `height_scale`, `chunk_size`,
///   `chunk_resolution`, `skirt_depth`: changing one rebuilds every chunk (a new
///   [`ActiveTerrainConfig::generation`]);
/// - **the look**: `colours`, `sea_level`, `water`: the material follows at once (with
///   [`TerrainLook::VertexColours`](crate::TerrainLook::VertexColours) they are in the mesh, and
///   a change rebuilds every chunk);
/// - **what is scattered**: `scatter`: the instances of the chunks in view are placed again;
/// - **how it streams**: `view_distance`, `lod_distances`, `max_tasks_in_flight`,
///   `max_uploads_per_frame`, `collision`: changing one applies at once, and only chunks whose
///   level of detail changes are rebuilt (a new collision resolution rebuilds the colliders,
///   each old one staying until its replacement is in place).
///
/// [`ActiveTerrainConfig::generation`]: crate::ActiveTerrainConfig::generation
#[derive(Asset, Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct TerrainConfig {
    /// Seed of the permutation and gradient tables. Changing it rebuilds the tables.
    pub seed: u64,
    /// The fractal noise, in world units: `noise.frequency` is lattice cells per metre.
    /// Its output (about ±1) is multiplied by `height_scale`.
    pub noise: Fbm,
    /// Metres of height per unit of noise (> 0).
    pub height_scale: f32,
    /// Side of a chunk in metres (> 0). Powers of two keep chunk corners exact in `f32`.
    pub chunk_size: f32,
    /// Vertices per chunk side at full detail: 2ᵏ + 1 for k from 2 to 10 (5, 9, …, 129, …, 1025).
    pub chunk_resolution: u32,
    /// Chunks whose centre is within this many metres of a viewer are kept (> 0).
    pub view_distance: f32,
    /// Distances in metres, increasing, where detail halves: a chunk beyond `lod_distances[i]`
    /// uses LOD `i + 1` (half the vertices per side of LOD `i`).
    pub lod_distances: Vec<f32>,
    /// The most chunk meshes generated at once on the async compute pool (1 to 256).
    pub max_tasks_in_flight: u32,
    /// The most finished chunk meshes turned into entities per frame (1 to 256).
    pub max_uploads_per_frame: u32,
    /// Height of the water surface in metres; below it vertices take the sea-bed colour.
    pub sea_level: f32,
    /// Depth in metres of the skirts hung from chunk edges to hide cracks between levels of
    /// detail; `None` picks 5% of `height_scale` plus two vertex spacings.
    pub skirt_depth: Option<f32>,
    /// Ground colours by height, slope, snow and creases.
    pub colours: TerrainColours,
    /// The sea surface at `sea_level`; `None` for dry land (the sea bed colour still shows
    /// below `sea_level`).
    pub water: Option<Water>,
    /// The physics colliders around `TerrainCollider` entities (with the `avian` feature;
    /// ignored without it).
    pub collision: Collision,
    /// Objects placed on the ground by rules (at most [`MAX_SCATTER_LAYERS`] layers).
    pub scatter: Vec<ScatterLayer>,
}

impl Default for TerrainConfig {
    fn default() -> Self {
        Self {
            seed: 2026,
            noise: Fbm {
                octaves: 7,
                frequency: 1.0 / 600.0,
                ..Fbm::default()
            },
            height_scale: 160.0,
            chunk_size: 64.0,
            chunk_resolution: 65,
            view_distance: 900.0,
            lod_distances: vec![200.0, 400.0, 700.0],
            max_tasks_in_flight: 8,
            max_uploads_per_frame: 4,
            sea_level: -12.0,
            skirt_depth: None,
            colours: TerrainColours::default(),
            water: Some(Water::default()),
            collision: Collision::default(),
            scatter: Vec::new(),
        }
    }
}

/// Which groups of a config differ between two configs (see [`TerrainConfig`]).
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Default, Debug, Clone, PartialEq)]
pub struct ConfigChanges {
    /// What shapes the mesh: seed, noise, heights, chunk geometry, skirts.
    pub mesh: bool,
    /// The ground's colours and the sea level.
    pub look: bool,
    /// View distance, levels of detail, budgets, collision.
    pub streaming: bool,
    /// The scatter layers.
    pub scatter: bool,
}

impl ConfigChanges {
    /// Whether anything differs.
    pub fn any(self) -> bool {
        self.mesh || self.look || self.streaming || self.scatter
    }
}

impl TerrainConfig {
    /// Which groups of fields differ from `old`. Every field is named here, so a new field must
    /// be put in a group before the crate compiles.
    pub fn changes_from(&self, old: &TerrainConfig) -> ConfigChanges {
        let TerrainConfig {
            seed,
            noise,
            height_scale,
            chunk_size,
            chunk_resolution,
            view_distance,
            lod_distances,
            max_tasks_in_flight,
            max_uploads_per_frame,
            sea_level,
            skirt_depth,
            colours,
            water,
            collision,
            scatter,
        } = self;
        ConfigChanges {
            mesh: *seed != old.seed
                || *noise != old.noise
                || *height_scale != old.height_scale
                || *chunk_size != old.chunk_size
                || *chunk_resolution != old.chunk_resolution
                || *skirt_depth != old.skirt_depth,
            look: *colours != old.colours || *sea_level != old.sea_level || *water != old.water,
            scatter: *scatter != old.scatter,
            streaming: *view_distance != old.view_distance
                || *lod_distances != old.lod_distances
                || *max_tasks_in_flight != old.max_tasks_in_flight
                || *max_uploads_per_frame != old.max_uploads_per_frame
                || *collision != old.collision,
        }
    }

    /// Vertices per chunk side at `lod`: `(chunk_resolution − 1) / 2^lod + 1`, at least 2.
    pub fn resolution_at(&self, lod: u8) -> u32 {
        (self.chunk_resolution.saturating_sub(1) >> lod.min(31)).max(1) + 1
    }

    /// Metres between neighbouring vertices at `lod`: `chunk_size / (resolution_at(lod) − 1)`.
    pub fn vertex_spacing(&self, lod: u8) -> f64 {
        self.chunk_size as f64 / (self.resolution_at(lod) - 1) as f64
    }

    /// The world position (`x`, `z`) of vertex `(i, j)` of chunk `coord` at `lod`: global sample
    /// indices `coord · quads + (i, j)` times the vertex spacing, so neighbouring chunks compute
    /// their shared edge from the same integers.
    pub fn vertex_position(&self, coord: IVec2, lod: u8, i: u32, j: u32) -> [f64; 2] {
        let quads = (self.resolution_at(lod) - 1) as i64;
        let spacing = self.vertex_spacing(lod);
        [
            (coord.x as i64 * quads + i as i64) as f64 * spacing,
            (coord.y as i64 * quads + j as i64) as f64 * spacing,
        ]
    }

    /// The coarsest level of detail, `lod_distances.len()`.
    pub fn max_lod(&self) -> u8 {
        self.lod_distances.len().min(u8::MAX as usize) as u8
    }

    /// The level of detail for a chunk whose centre is `distance` metres from the viewer.
    pub fn lod_for(&self, distance: f32) -> u8 {
        self.lod_distances.iter().filter(|&&d| distance > d).count() as u8
    }

    /// Height samples per side of a chunk's collider (see [`Collision::resolution`]).
    pub fn collision_resolution(&self) -> u32 {
        self.collision.resolution.unwrap_or(self.chunk_resolution)
    }

    /// Skirt depth in metres (see [`TerrainConfig::skirt_depth`]).
    pub fn skirt_depth_or_auto(&self) -> f32 {
        self.skirt_depth
            .unwrap_or(0.05 * self.height_scale + 2.0 * self.vertex_spacing(0) as f32)
    }
}
