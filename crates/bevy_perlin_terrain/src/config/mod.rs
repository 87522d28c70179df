//! [`TerrainConfig`]: everything that shapes the terrain and how it streams, as a Bevy asset
//! loaded from `.terrain.ron` files (or built in code), with validation that names the bad field
//! and bounds the work a config can ask for.
//!
//! [`parse_config`] is the loader's whole work without an `App`, for tools: it never panics,
//! whatever the bytes. A malformed or out-of-range file is reported with the file, the field
//! and what is allowed, e.g.
//! ``terrain/alps.terrain.ron:4:14: `noise.octaves`: invalid type: string "six", expected u32``
//! or ``terrain/alps.terrain.ron: `chunk_resolution` is 100, allowed: 2^k + 1 for k from 2 to
//! 10 (…)``. A config that reaches the terrain by any other path (set in code, added to or
//! edited in `Assets<TerrainConfig>`) is validated the same way, and an invalid one keeps the
//! terrain on screen.
//!
//! # Limits
//!
//! [`TerrainConfig::validate`] also bounds the work and memory a config can ask for, naming the
//! field to change and the bound it breaks:
//!
//! | constant | bound | reported on |
//! | --- | --- | --- |
//! | [`MAX_VIEW_CHUNKS`] | chunks of the quadtree around one viewer ([`LodLayout::most_chunks`], an upper bound) | `view_distance` |
//! | [`MAX_MESH_BYTES`] | their meshes (72 bytes a vertex at most, plus indices) | `view_distance` |
//! | [`MAX_IN_FLIGHT_BYTES`] | meshes being built at once | `max_tasks_in_flight` |
//! | [`MAX_UPLOAD_BYTES`] | meshes sent to the GPU in one frame | `max_uploads_per_frame` |
//! | [`MAX_COLLIDER_CHUNKS`], [`MAX_COLLIDER_BYTES`] | colliders around one body | `collision.radius`, `collision.resolution` |
//! | [`MAX_SCATTER_PER_CHUNK`] | candidates of one scatter layer in one cell | `scatter[i].spacing` |
//! | [`MAX_SCATTER_IN_VIEW`] | instances in view over all layers | `scatter[i].density` |
//! | [`MAX_SCATTER_LAYERS`], [`MAX_FAR_COLORS`], [`MAX_BANDS`] | layers, far colors, height bands | `scatter`, `colors.bands` |
//!
//! At the defaults a view of 100 km validates (chunk size 64 m, 65 vertices a side).
//!
//! # Ranges
//!
//! Every numeric field's allowed range is a constant of [`ranges`] (e.g.
//! [`ranges::HEIGHT_SCALE`]), listed in [`FIELD_RANGES`] by the field's path; validation checks
//! against them, and [`markdown_table`] renders them for `docs/configuration.md`.

mod biome;
mod collision;
mod edits;
mod loader;
mod lod;
mod look;
mod navigation;
pub mod ranges;
mod save;
mod scatter;
mod source;
mod validate;
mod weather;

pub use biome::{Biome, Climate, MAX_BIOMES};
pub(crate) use biome::{CLIMATE_AXES, NODES_PER_SCALE};
pub use collision::Collision;
pub use edits::{
    FixedStamp, MAX_PATH_POINTS, MAX_PATHS, MAX_STAMPS, PathOp, StampOp, StampShape, TerrainPath,
    TerrainStamp,
};
pub(crate) use edits::{validate_fixed_stamp, validate_path, validate_position, validate_stamp};
pub(crate) use loader::TerrainConfigLoader;
pub use loader::{TerrainConfigLoadError, parse_config};
pub(crate) use lod::{HYSTERESIS, REPLAN};
pub use lod::{LodLayout, MAX_LOD, MIN_MORPH};
pub use look::{EdgeNoise, Grain, HeightBand, LayerTexture, MAX_BANDS, Snow, TerrainColors, Water};
pub use navigation::Navigation;
pub use ranges::{FIELD_RANGES, FieldRange, markdown_table};
pub use scatter::{FarColor, MAX_FAR_COLORS, MAX_SCATTER_LAYERS, ScatterLayer, SoftRange};
pub use source::TerrainConfigSource;
pub use validate::{
    ConfigError, MAX_COLLIDER_BYTES, MAX_COLLIDER_CHUNKS, MAX_IN_FLIGHT_BYTES, MAX_MESH_BYTES,
    MAX_SCATTER_IN_VIEW, MAX_SCATTER_PER_CHUNK, MAX_UPLOAD_BYTES, MAX_VIEW_CHUNKS,
};
pub use weather::{Clouds, Waves};

use bevy::asset::Asset;
use bevy::prelude::*;
use perlin_core::Fbm;
use serde::{Deserialize, Serialize};

/// The whole recipe of a terrain: noise, scale, chunking, streaming limits and colors.
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
///   `chunk_resolution`, `skirt_depth`, `climate`, `biomes`: changing one rebuilds every chunk (a new
///   [`ActiveTerrainConfig::generation`]);
/// - **the look**: `colors`, `sea_level`, `water`, `waves`, `clouds`: the material follows at once (with
///   [`TerrainRenderMode::VertexColors`](crate::TerrainRenderMode::VertexColors) they are in the mesh, and
///   a change rebuilds every chunk);
/// - **what is scattered**: `scatter`: the instances of the chunks in view are placed again;
/// - **where agents walk**: `navigation`: every navigation tile is built again (feature
///   `navigation`);
/// - **how it streams**: `view_distance`, `lod_distance`, `max_tasks_in_flight`,
///   `max_uploads_per_frame`, `collision`: changing one applies at once, and only chunks that
///   the new layout splits or merges are rebuilt (a new collision resolution rebuilds the
///   colliders, each old one staying until its replacement is in place).
///
/// [`ActiveTerrainConfig::generation`]: crate::ActiveTerrainConfig::generation
#[derive(Asset, Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct TerrainConfig {
    /// Seed of the permutation and gradient tables. Changing it rebuilds the tables.
    /// Default 2026.
    pub seed: u64,
    /// The fractal noise, in world units: `noise.frequency` is lattice cells per metre.
    /// Its output (about ±1) is multiplied by `height_scale`. Its fields are [`Fbm`]'s, within
    /// the `NOISE_` and `EROSION_` ranges of [`ranges`] (e.g. [`ranges::NOISE_OCTAVES`]).
    /// Default: 7 octaves of Perlin noise from a 600 m cell, lacunarity 2, persistence ½.
    pub noise: Fbm,
    /// Metres of height per unit of noise, within [`ranges::HEIGHT_SCALE`]. Default 160.
    pub height_scale: f32,
    /// Side of a full-detail (level-0) chunk in metres, within [`ranges::CHUNK_SIZE`]. Powers
    /// of two keep chunk corners exact in `f32`. Default 64.
    pub chunk_size: f32,
    /// Vertices per chunk side, at every level: 2ᵏ + 1 within [`ranges::CHUNK_RESOLUTION`]
    /// (5, 9, …, 129, …, 1025). Default 65.
    pub chunk_resolution: u32,
    /// Metres from the nearest viewer within which the terrain is drawn, within
    /// [`ranges::VIEW_DISTANCE`]: from [`ranges::VIEW_DISTANCE_MIN_CHUNKS`] × `chunk_size` (the
    /// bounds on chunks and memory, [`MAX_VIEW_CHUNKS`] and [`MAX_MESH_BYTES`], cap it for a
    /// given layout: 100 km and more at the defaults). Default 12 000.
    pub view_distance: f32,
    /// Metres from the nearest viewer out to which full detail (level 0: chunks of
    /// `chunk_size`) is drawn. Each coarser level reaches twice as far with chunks twice as
    /// large, so the chunk count grows with the logarithm of the view distance (see
    /// [`LodLayout`]). At least [`ranges::LOD_DISTANCE_MIN_CHUNKS`] × `chunk_size` (within
    /// [`ranges::LOD_DISTANCE`]), so that neighbouring chunks differ by at most one level and
    /// each level has room to morph into the next. Default 320.
    ///
    /// This replaces the `lod_distances` list of 0.1 (where each level halved the vertices of
    /// a chunk of fixed size); a file that still has it is refused with what to write instead.
    pub lod_distance: f32,
    /// The most chunk meshes (and scatter placements, and colliders) built at once on the
    /// async compute pool, within [`ranges::MAX_TASKS_IN_FLIGHT`] (and at most
    /// [`MAX_IN_FLIGHT_BYTES`] of meshes). Default 8.
    pub max_tasks_in_flight: u32,
    /// The most finished chunk meshes added to the mesh assets (sent to the GPU) per frame,
    /// within [`ranges::MAX_UPLOADS_PER_FRAME`] (and at most [`MAX_UPLOAD_BYTES`]). Default 4.
    pub max_uploads_per_frame: u32,
    /// Height of the water surface in metres, within [`ranges::SEA_LEVEL`]; below it the ground
    /// takes the sea-bed color. Default −12.
    pub sea_level: f32,
    /// Depth in metres of the skirts hung from chunk edges, which hide any crack between levels
    /// of detail while chunks are being replaced; `None` picks 5% of `height_scale` plus two
    /// vertex spacings of the chunk's level (the default); otherwise within
    /// [`ranges::SKIRT_DEPTH`].
    pub skirt_depth: Option<f32>,
    /// Ground colors by height, slope, snow and creases.
    pub colors: TerrainColors,
    /// The sea surface at `sea_level`; `None` for dry land (the sea bed color still shows
    /// below `sea_level`).
    pub water: Option<Water>,
    /// Waves on the sea (with `water`); `None` (the default) for a calm sea whose only motion is
    /// the ripples of `water.ripples`.
    pub waves: Option<Waves>,
    /// The cloud layer; `None` (the default) for a clear sky.
    pub clouds: Option<Clouds>,
    /// The physics colliders around `TerrainColliderAnchor` entities (with the `avian` feature;
    /// ignored without it).
    pub collision: Collision,
    /// What the navigation meshes around `TerrainNavigator` entities treat as walkable (with the
    /// `navigation` feature; ignored without it).
    pub navigation: Navigation,
    /// Objects placed on the ground by rules (at most [`MAX_SCATTER_LAYERS`] layers).
    pub scatter: Vec<ScatterLayer>,
    /// A designer's fixed stamps: flat sites, mounds, pits, craters (at most
    /// [`MAX_STAMPS`]), each with its position and yaw (see
    /// [`FixedStamp`], [`TerrainStamp`]). A change
    /// rebuilds only the chunks, colliders and scatter of the areas of the stamps that changed.
    /// Default none.
    pub stamps: Vec<FixedStamp>,
    /// A designer's fixed roads and channels (at most [`MAX_PATHS`]; see
    /// [`TerrainPath`]). Rebuilt like `stamps`. Default none.
    pub paths: Vec<TerrainPath>,
    /// The climate fields that choose the biomes (unused without `biomes`).
    pub climate: Climate,
    /// The biomes (at most [`MAX_BIOMES`]): each brings its own ground (noise, height scale,
    /// offset) to its part of climate space, and heights blend across their borders. Empty
    /// (the default): one recipe everywhere, `noise` times `height_scale`; with biomes, those
    /// two fields are not used. See [`Biome`].
    pub biomes: Vec<Biome>,
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
            view_distance: 12_000.0,
            lod_distance: 320.0,
            max_tasks_in_flight: 8,
            max_uploads_per_frame: 4,
            sea_level: -12.0,
            skirt_depth: None,
            colors: TerrainColors::default(),
            water: Some(Water::default()),
            waves: None,
            clouds: None,
            collision: Collision::default(),
            navigation: Navigation::default(),
            scatter: Vec::new(),
            stamps: Vec::new(),
            paths: Vec::new(),
            climate: Climate::default(),
            biomes: Vec::new(),
        }
    }
}

/// Which groups of a config differ between two configs (see [`TerrainConfig`]).
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Default, Debug, Clone, PartialEq)]
pub struct ConfigChanges {
    /// What shapes the mesh: seed, noise, heights, chunk geometry, skirts.
    pub mesh: bool,
    /// The ground's colors, the sea level, the water, its waves and the clouds.
    pub look: bool,
    /// View distance, levels of detail, budgets, collision.
    pub streaming: bool,
    /// The scatter layers.
    pub scatter: bool,
    /// What the navigation meshes treat as walkable.
    pub navigation: bool,
}

impl ConfigChanges {
    /// Whether anything differs.
    pub fn any(self) -> bool {
        self.mesh || self.look || self.streaming || self.scatter || self.navigation
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
            lod_distance,
            max_tasks_in_flight,
            max_uploads_per_frame,
            sea_level,
            skirt_depth,
            colors,
            water,
            waves,
            clouds,
            collision,
            navigation,
            scatter,
            // Edits rebuild only the area they change (the edit system compares them).
            stamps: _,
            paths: _,
            climate,
            biomes,
        } = self;
        ConfigChanges {
            mesh: *seed != old.seed
                || biomes.len() != old.biomes.len()
                || biomes
                    .iter()
                    .zip(&old.biomes)
                    .any(|(a, b)| !a.same_ground(b))
                || (!biomes.is_empty() && *climate != old.climate)
                || *noise != old.noise
                || *height_scale != old.height_scale
                || *chunk_size != old.chunk_size
                || *chunk_resolution != old.chunk_resolution
                || *skirt_depth != old.skirt_depth,
            look: *colors != old.colors
                || *sea_level != old.sea_level
                || *water != old.water
                || *waves != old.waves
                || *clouds != old.clouds
                || biomes
                    .iter()
                    .zip(&old.biomes)
                    .any(|(a, b)| a.colors != b.colors || a.water != b.water),
            scatter: *scatter != old.scatter,
            navigation: *navigation != old.navigation,
            streaming: *view_distance != old.view_distance
                || *lod_distance != old.lod_distance
                || *max_tasks_in_flight != old.max_tasks_in_flight
                || *max_uploads_per_frame != old.max_uploads_per_frame
                || *collision != old.collision,
        }
    }

    /// Where each level of detail is drawn (see [`LodLayout`]).
    pub fn lod_layout(&self) -> LodLayout {
        LodLayout::new(self)
    }

    /// Quads along a chunk's side, `chunk_resolution − 1` (at least 2: an unchecked config's
    /// smaller resolution is taken as 3, as chunk meshes take it).
    pub fn chunk_quads(&self) -> u32 {
        self.chunk_resolution.max(3) - 1
    }

    /// Metres between neighbouring vertices of a chunk of level `lod`:
    /// `chunk_size · 2^lod / (chunk_resolution − 1)`.
    pub fn vertex_spacing(&self, lod: u8) -> f64 {
        self.chunk_size as f64 * f64::from(lod.min(MAX_LOD)).exp2() / self.chunk_quads() as f64
    }

    /// The world position (`x`, `z`) of vertex `(i, j)` of the chunk at `coord` of level `lod`:
    /// global sample indices `coord · quads + (i, j)` times the level's vertex spacing, so
    /// neighbouring chunks compute their shared edge from the same integers.
    pub fn vertex_position(&self, coord: IVec2, lod: u8, i: u32, j: u32) -> [f64; 2] {
        let quads = self.chunk_quads() as i64;
        let spacing = self.vertex_spacing(lod);
        [
            (coord.x as i64 * quads + i as i64) as f64 * spacing,
            (coord.y as i64 * quads + j as i64) as f64 * spacing,
        ]
    }

    /// The coarsest level of detail the view needs.
    pub fn max_lod(&self) -> u8 {
        self.lod_layout().top()
    }

    /// The level of detail drawn `distance` metres from a viewer.
    pub fn lod_for(&self, distance: f32) -> u8 {
        self.lod_layout().lod_at(distance as f64)
    }

    /// Height samples per side of a chunk's collider (see [`Collision::resolution`]).
    pub fn collision_resolution(&self) -> u32 {
        self.collision.resolution.unwrap_or(self.chunk_resolution)
    }

    /// Skirt depth in metres of a chunk of level `lod` (see [`TerrainConfig::skirt_depth`]).
    pub fn skirt_depth_at(&self, lod: u8) -> f32 {
        self.skirt_depth
            .unwrap_or(0.05 * self.height_scale + 2.0 * self.vertex_spacing(lod) as f32)
    }
}
