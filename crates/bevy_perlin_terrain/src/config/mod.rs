//! `TerrainConfig`: everything that shapes the terrain, as a Bevy asset loaded from
//! `.terrain.ron` files (or built in code), with validation that names the bad field.

mod loader;
mod plugin;
mod validate;

pub use loader::{TerrainConfigLoadError, TerrainConfigLoader, parse_config};
pub(crate) use plugin::checked;
pub use plugin::{ActiveTerrainConfig, TerrainConfigPlugin, TerrainConfigSource, TerrainTables};
pub use validate::ConfigError;

use bevy::asset::Asset;
use bevy::reflect::TypePath;
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
#[derive(Asset, TypePath, Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// Vertex colours by height and slope.
    pub colours: TerrainColours,
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
        }
    }
}

/// A colour for the vertices up to a height.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeightBand {
    /// The band covers heights up to this many metres above `sea_level`.
    pub up_to: f32,
    /// Linear RGB, each 0 to 1.
    pub colour: [f32; 3],
}

impl HeightBand {
    /// The band up to `up_to` metres above sea level, in linear RGB `colour`.
    pub const fn new(up_to: f32, colour: [f32; 3]) -> Self {
        Self { up_to, colour }
    }
}

/// How vertices are coloured: bands by height above sea level, and a rock colour where the
/// ground is steep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TerrainColours {
    /// Sea bed, below `sea_level`.
    pub sea_bed: [f32; 3],
    /// Bands above sea level, in increasing `up_to`; above the last, its colour.
    pub bands: Vec<HeightBand>,
    /// Metres over which neighbouring bands (and the sea bed and the first band) blend, so
    /// that a band edge runs smoothly across triangles instead of in steps.
    pub band_blend: f32,
    /// Colour of steep ground.
    pub rock: [f32; 3],
    /// Slope, as `1 − normal.y` (0 flat, 1 vertical), where ground turns fully to rock.
    pub rock_slope: f32,
}

impl Default for TerrainColours {
    fn default() -> Self {
        // Linear RGB (vertex colours are linear): sand, grass, heath, snow, rock.
        Self {
            sea_bed: [0.171, 0.133, 0.073],
            bands: vec![
                HeightBand::new(3.0, [0.604, 0.507, 0.263]),
                HeightBand::new(60.0, [0.073, 0.196, 0.027]),
                HeightBand::new(95.0, [0.147, 0.163, 0.055]),
                HeightBand::new(1.0e9, [0.89, 0.911, 0.955]),
            ],
            band_blend: 2.0,
            rock: [0.214, 0.187, 0.163],
            rock_slope: 0.35,
        }
    }
}

impl TerrainConfig {
    /// Vertices per chunk side at `lod`: `(chunk_resolution − 1) / 2^lod + 1`.
    pub fn resolution_at(&self, lod: u8) -> u32 {
        ((self.chunk_resolution - 1) >> lod.min(31)).max(1) + 1
    }

    /// Metres between neighbouring vertices at `lod`.
    pub fn vertex_spacing(&self, lod: u8) -> f64 {
        self.chunk_size as f64 / (self.chunk_resolution - 1) as f64 * (1u64 << lod.min(31)) as f64
    }

    /// The coarsest level of detail, `lod_distances.len()`.
    pub fn max_lod(&self) -> u8 {
        self.lod_distances.len().min(u8::MAX as usize) as u8
    }

    /// The level of detail for a chunk whose centre is `distance` metres from the viewer.
    pub fn lod_for(&self, distance: f32) -> u8 {
        self.lod_distances.iter().filter(|&&d| distance > d).count() as u8
    }

    /// Skirt depth in metres (see [`TerrainConfig::skirt_depth`]).
    pub fn skirt_depth_or_auto(&self) -> f32 {
        self.skirt_depth
            .unwrap_or(0.05 * self.height_scale + 2.0 * self.vertex_spacing(0) as f32)
    }
}
