//! The allowed range of every numeric field of a [`TerrainConfig`](super::TerrainConfig), in one
//! table: [`TerrainConfig::validate`](super::TerrainConfig::validate) checks against these
//! constants, [`markdown_table`] renders them for `docs/configuration.md`, and a settings panel
//! can take its sliders' spans from them ([`FieldRange::typical`]).
//!
//! Each field has its constant, named after the field (`colors.snow.blend` is [`SNOW_BLEND`]);
//! fields that mean the same thing share one (every color channel is [`COLOR`], every roughness
//! [`ROUGHNESS`]). [`FIELD_RANGES`] lists them all by the field's path as a `.terrain.ron` writes
//! it, `[i]` standing for any index. A biome's `noise`, `colors` and `water` have the ranges of
//! the config's own. The noise's ranges are those [`Fbm::validate`](perlin_core::Fbm::validate)
//! checks (a test holds the two together).
//!
//! Some bounds also depend on other fields (`view_distance` is at least `chunk_size / 2`): the
//! constant then holds the widest range any config allows, and [`FieldRange::also`] says the rest.

use perlin_core::{MAX_EROSION_OCTAVES, MAX_OCTAVES};
use std::fmt::Write;
use std::ops::RangeInclusive;

/// The allowed values of one numeric config field, what they are in and what they do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FieldRange {
    /// The least value allowed (with [`FieldRange::min_open`], the bound the value must be above).
    pub min: f64,
    /// The greatest value allowed.
    pub max: f64,
    /// Whether `min` itself is refused: the value must be above it.
    pub min_open: bool,
    /// What the values are in (`m`, `°`, `per ha`, …); empty for a plain number.
    pub unit: &'static str,
    /// What the field does, in a few words.
    pub meaning: &'static str,
    /// The bounds that depend on other fields, in words; empty when `min` and `max` are all.
    pub also: &'static str,
    /// The values most terrains use, `(low, high)`, within `min` to `max`: what a settings
    /// slider spans (the fly example's panel). Anything from `min` to `max` validates.
    pub typical: (f64, f64),
}

impl FieldRange {
    /// `min` to `max`, both allowed, typically anywhere in them.
    const fn new(min: f64, max: f64, unit: &'static str, meaning: &'static str) -> Self {
        Self {
            min,
            max,
            min_open: false,
            unit,
            meaning,
            also: "",
            typical: (min, max),
        }
    }

    /// The same range without `min` itself.
    const fn open_below(self) -> Self {
        Self {
            min_open: true,
            ..self
        }
    }

    /// The same range, typically from `low` to `high`.
    const fn typically(self, low: f64, high: f64) -> Self {
        Self {
            typical: (low, high),
            ..self
        }
    }

    /// The same range with a bound that depends on other fields, in words.
    const fn and_also(self, also: &'static str) -> Self {
        Self { also, ..self }
    }

    /// Whether `value` is allowed: finite, at least `min` (above it if `min_open`) and at most
    /// `max`.
    pub fn contains(&self, value: f64) -> bool {
        let above_min = if self.min_open {
            value > self.min
        } else {
            value >= self.min
        };
        value.is_finite() && above_min && value <= self.max
    }

    /// [`FieldRange::contains`] for an `f32` field, compared in `f32` (the bounds rounded to the
    /// nearest `f32`, as the same literals written for an `f32` would be).
    pub fn contains_f32(&self, value: f32) -> bool {
        let (min, max) = (self.min as f32, self.max as f32);
        let above_min = if self.min_open {
            value > min
        } else {
            value >= min
        };
        value.is_finite() && above_min && value <= max
    }

    /// [`FieldRange::contains`] for an integer field.
    pub fn contains_u32(&self, value: u32) -> bool {
        self.contains(f64::from(value))
    }

    /// [`FieldRange::typical`] for an `f32` field's slider.
    pub fn typical_f32(&self) -> RangeInclusive<f32> {
        self.typical.0 as f32..=self.typical.1 as f32
    }

    /// [`FieldRange::typical`] for an `f64` field's slider.
    pub fn typical_f64(&self) -> RangeInclusive<f64> {
        self.typical.0..=self.typical.1
    }

    /// [`FieldRange::typical`] for an integer field's slider.
    pub fn typical_u32(&self) -> RangeInclusive<u32> {
        self.typical.0 as u32..=self.typical.1 as u32
    }

    /// `min` and `max` in words, e.g. `0.001 to 100000` or `above 0, up to 16`.
    pub fn allowed(&self) -> String {
        if self.min_open {
            format!("above {}, up to {}", self.min, self.max)
        } else {
            format!("{} to {}", self.min, self.max)
        }
    }
}

/// `view_distance` is at least this many times `chunk_size`.
pub const VIEW_DISTANCE_MIN_CHUNKS: f32 = 0.5;

/// `lod_distance` is at least this many times `chunk_size`: full detail reaches far enough that
/// neighbouring chunks differ by at most one level and each level has room to morph into the
/// next.
pub const LOD_DISTANCE_MIN_CHUNKS: f32 = 4.5;

/// Square metres in a hectare: a scatter layer's density is per hectare.
const SQUARE_METRES_PER_HECTARE: f32 = 1e4;

/// The share of the smaller climate scale that `climate.blend` may reach.
const CLIMATE_BLEND_SHARE: f32 = 0.25;

/// The greatest `scatter[i].density` at `spacing`: one candidate per `spacing × spacing` square,
/// in candidates per hectare.
pub fn scatter_density_max(spacing: f32) -> f32 {
    SQUARE_METRES_PER_HECTARE / (spacing * spacing)
}

/// The greatest `climate.blend` for these climate scales: a quarter of the smaller.
pub fn climate_blend_max(scale: f32, continent_scale: f32) -> f32 {
    CLIMATE_BLEND_SHARE * scale.min(continent_scale)
}

/// `min` to `max` metres.
const fn metres(min: f64, max: f64, meaning: &'static str) -> FieldRange {
    FieldRange::new(min, max, "m", meaning)
}

/// `min` to `max`, a plain number (a share, a factor, a slope).
const fn plain(min: f64, max: f64, meaning: &'static str) -> FieldRange {
    FieldRange::new(min, max, "", meaning)
}

// The noise: `noise.*` (and every biome's `noise.*`), as `Fbm::validate` checks them.

/// `noise.octaves`.
pub const NOISE_OCTAVES: FieldRange =
    plain(1.0, MAX_OCTAVES as f64, "layers of noise summed").typically(1.0, 12.0);
/// `noise.frequency`.
pub const NOISE_FREQUENCY: FieldRange = FieldRange::new(
    0.0,
    1e9,
    "cells per m",
    "lattice cells per metre of the first octave",
)
.open_below()
.typically(1e-4, 0.05);
/// `noise.amplitude`.
pub const NOISE_AMPLITUDE: FieldRange = plain(
    0.0,
    1e9,
    "amplitude of the first octave (it cancels in the normalisation)",
)
.open_below()
.typically(0.05, 4.0);
/// `noise.lacunarity`.
pub const NOISE_LACUNARITY: FieldRange =
    plain(0.0, 16.0, "frequency factor from one octave to the next")
        .open_below()
        .and_also("frequency · lacunarity^(octaves − 1) at most 10^12")
        .typically(1.1, 4.0);
/// `noise.persistence`.
pub const NOISE_PERSISTENCE: FieldRange =
    plain(0.0, 4.0, "amplitude factor from one octave to the next").typically(0.0, 1.0);
/// `noise.contrast`.
pub const NOISE_CONTRAST: FieldRange = plain(
    0.0,
    16.0,
    "power the normalised value is raised to: above 1 flattens lowlands and sharpens peaks",
)
.open_below()
.typically(0.25, 4.0);
/// `noise.noise_size`.
pub const NOISE_SIZE: FieldRange =
    plain(-1e9, 1e9, "the final multiplier, after contrast").typically(-4.0, 4.0);
/// `noise.octave_shift`.
pub const NOISE_OCTAVE_SHIFT: FieldRange = FieldRange::new(
    -1e6,
    1e6,
    "cells",
    "how far each octave is moved from the one before",
)
.typically(-1000.0, 1000.0);
/// `noise.warp.amplitude`.
pub const NOISE_WARP_AMPLITUDE: FieldRange =
    metres(0.0, 1e6, "how far the domain warp may push a point").typically(0.0, 500.0);
/// `noise.warp.frequency`.
pub const NOISE_WARP_FREQUENCY: FieldRange = FieldRange::new(
    0.0,
    1e9,
    "cells per m",
    "frequency of the noise that pushes the points",
)
.open_below()
.typically(1e-4, 0.1);
/// `noise.erosion.strength`.
pub const EROSION_STRENGTH: FieldRange = plain(
    0.0,
    1.0,
    "depth of the first octave's gullies, as a share of half the noise's amplitude",
);
/// `noise.erosion.scale`.
pub const EROSION_SCALE: FieldRange = plain(
    0.01,
    4.0,
    "cell of the largest gullies, as a share of the noise's lattice cell",
);
/// `noise.erosion.octaves`.
pub const EROSION_OCTAVES: FieldRange = plain(
    1.0,
    MAX_EROSION_OCTAVES as f64,
    "octaves of gullies, each finer by the erosion's lacunarity",
);
/// `noise.erosion.lacunarity`.
pub const EROSION_LACUNARITY: FieldRange = plain(
    1.5,
    4.0,
    "cell divisor from one octave of gullies to the next",
);
/// `noise.erosion.gain`.
pub const EROSION_GAIN: FieldRange = plain(
    0.0,
    1.0,
    "depth factor from one octave of gullies to the next",
);
/// `noise.erosion.sharpness`.
pub const EROSION_SHARPNESS: FieldRange = plain(
    0.0,
    1.0,
    "how crisp blended gullies stay, 0 soft to 1 at full depth",
);
/// `noise.erosion.detail`.
pub const EROSION_DETAIL: FieldRange = plain(
    0.5,
    4.0,
    "how much finer gullies survive on the ridges and in the creases of coarser ones",
);
/// `noise.erosion.slope_onset`.
pub const EROSION_SLOPE_ONSET: FieldRange = plain(
    0.01,
    100.0,
    "slope, relative to the noise's, at which gullies are fully cut",
);
/// `noise.erosion.preserve`.
pub const EROSION_PRESERVE: FieldRange = plain(
    0.0,
    1.0,
    "how much peaks and valley floors keep their shape",
);

// The ground and its chunks.

/// `height_scale` and `biomes[i].height_scale`.
pub const HEIGHT_SCALE: FieldRange =
    metres(1e-3, 1e5, "metres of height per unit of noise").typically(1.0, 2000.0);
/// `chunk_size`.
pub const CHUNK_SIZE: FieldRange = metres(
    0.5,
    1e5,
    "side of a full-detail chunk (powers of two keep its corners exact)",
)
.typically(8.0, 512.0);
/// `chunk_resolution`.
pub const CHUNK_RESOLUTION: FieldRange = FieldRange::new(
    5.0,
    1025.0,
    "vertices",
    "vertices per chunk side, at every level",
)
.and_also("2^k + 1: 5, 9, 17, 33, 65, 129, 257, 513 or 1025")
.typically(17.0, 257.0);
/// `view_distance`.
pub const VIEW_DISTANCE: FieldRange = metres(
    VIEW_DISTANCE_MIN_CHUNKS as f64 * CHUNK_SIZE.min,
    1e6,
    "distance from the nearest viewer within which the terrain is drawn",
)
.and_also("from chunk_size / 2 to lod_distance · 2^24, within MAX_VIEW_CHUNKS and MAX_MESH_BYTES")
.typically(1000.0, 60_000.0);
/// `lod_distance`.
pub const LOD_DISTANCE: FieldRange = metres(
    LOD_DISTANCE_MIN_CHUNKS as f64 * CHUNK_SIZE.min,
    1e6,
    "distance out to which full detail is drawn; each coarser level reaches twice as far",
)
.and_also("at least 4.5 × chunk_size, and every level morphs over MIN_MORPH of its chunk")
.typically(300.0, 4000.0);
/// `max_tasks_in_flight`.
pub const MAX_TASKS_IN_FLIGHT: FieldRange = FieldRange::new(
    1.0,
    256.0,
    "chunks",
    "chunk meshes, placements and colliders built at once",
)
.and_also("meshes being built within MAX_IN_FLIGHT_BYTES")
.typically(1.0, 64.0);
/// `max_uploads_per_frame`.
pub const MAX_UPLOADS_PER_FRAME: FieldRange = FieldRange::new(
    1.0,
    256.0,
    "chunks",
    "finished chunk meshes sent to the GPU in one frame",
)
.and_also("meshes sent in one frame within MAX_UPLOAD_BYTES")
.typically(1.0, 64.0);
/// `sea_level`.
pub const SEA_LEVEL: FieldRange = metres(
    -1e6,
    1e6,
    "height of the water surface; the ground below takes the sea-bed color",
)
.typically(-1000.0, 1000.0);
/// `skirt_depth` (when `Some`).
pub const SKIRT_DEPTH: FieldRange = metres(
    0.0,
    1e5,
    "depth of the skirts that hide cracks between levels (None: automatic)",
)
.typically(0.0, 200.0);

// The look: `colors.*` (and every biome's `colors.*`), `water.*`.

/// Each channel of every linear RGB color: `colors.sea_bed`, `colors.rock`, a band's, the snow's,
/// the water's, a far color's.
pub const COLOR: FieldRange = plain(0.0, 1.0, "a channel of a linear RGB color");
/// Every perceptual roughness: a band's, `colors.rock_roughness`, `colors.snow.roughness`.
pub const ROUGHNESS: FieldRange = plain(0.0, 1.0, "perceptual roughness, 0 a mirror to 1 matte");
/// Every layer texture's `size`: a band's, `colors.rock_texture`'s, `colors.snow.texture`'s.
pub const TEXTURE_SIZE: FieldRange =
    metres(0.01, 1e4, "ground covered by one repeat of the image").typically(0.5, 20.0);
/// `colors.band_blend`.
pub const BAND_BLEND: FieldRange =
    metres(0.0, 1e4, "height over which neighbouring bands blend").typically(0.0, 100.0);
/// `colors.rock_slope`.
pub const ROCK_SLOPE: FieldRange = plain(
    0.0,
    1.0,
    "slope (1 − normal.y) where the ground is fully rock",
);
/// `colors.rock_blend`.
pub const ROCK_BLEND: FieldRange =
    plain(0.0, 1.0, "slope over which rock fades in below rock_slope");
/// `colors.snow.from`.
pub const SNOW_FROM: FieldRange =
    metres(-1e6, 1e6, "height above sea level where snow is half in").typically(-500.0, 3000.0);
/// `colors.snow.blend`.
pub const SNOW_BLEND: FieldRange =
    metres(0.0, 1e4, "height over which snow fades in around from").typically(0.0, 200.0);
/// `colors.snow.max_slope`.
pub const SNOW_MAX_SLOPE: FieldRange = plain(
    0.0,
    1.0,
    "slope where snow is half gone: steeper ground sheds it",
);
/// `colors.snow.slope_blend`.
pub const SNOW_SLOPE_BLEND: FieldRange =
    plain(0.0, 1.0, "slope over which snow fades out around max_slope");
/// `colors.edge_noise.height`.
pub const EDGE_NOISE_HEIGHT: FieldRange = metres(
    0.0,
    1e4,
    "how far a height boundary (bands, snow line) moves up or down",
)
.typically(0.0, 100.0);
/// `colors.edge_noise.slope`.
pub const EDGE_NOISE_SLOPE: FieldRange = plain(
    0.0,
    1.0,
    "how far a slope boundary (rock, snow) moves, in slope",
)
.typically(0.0, 0.5);
/// `colors.edge_noise.size`.
pub const EDGE_NOISE_SIZE: FieldRange =
    metres(0.1, 1e5, "size of the boundary noise's largest feature").typically(1.0, 500.0);
/// `colors.creases`.
pub const CREASES: FieldRange = plain(0.0, 1.0, "how strongly the erosion crease mask shows");
/// `colors.grain.strength`.
pub const GRAIN_STRENGTH: FieldRange = plain(
    0.0,
    1.0,
    "how much the close-up grain tilts the normal and varies the albedo",
);
/// `colors.grain.size`.
pub const GRAIN_SIZE: FieldRange =
    metres(0.01, 100.0, "size of the finest grain bumps").typically(0.05, 10.0);
/// `colors.grain.fade_distance`.
pub const GRAIN_FADE_DISTANCE: FieldRange = metres(
    0.0,
    1e5,
    "distance from the camera beyond which the fine bumps are gone",
)
.typically(1.0, 1000.0);
/// `colors.height_blend`.
pub const HEIGHT_BLEND: FieldRange = plain(
    0.0,
    1.0,
    "how much a textured layer's height sharpens its blend with its neighbour",
);
/// `water.depth`.
pub const WATER_DEPTH: FieldRange = metres(
    0.01,
    1e4,
    "depth of water that looks deep, hiding the ground",
)
.typically(0.01, 200.0);
/// `water.foam`.
pub const WATER_FOAM: FieldRange =
    metres(0.0, 100.0, "depth along the shore that foams").typically(0.0, 10.0);
/// `water.ripples`.
pub const WATER_RIPPLES: FieldRange =
    plain(0.0, 1.0, "how strongly small ripples bump the surface");

// Clouds and waves.

/// `clouds.altitude`.
pub const CLOUD_ALTITUDE: FieldRange =
    metres(-1e4, 5e4, "height of the cloud base").typically(200.0, 8000.0);
/// `clouds.thickness`.
pub const CLOUD_THICKNESS: FieldRange = metres(
    1.0,
    2e4,
    "from the cloud base to the tops of the thickest clouds",
)
.typically(50.0, 3000.0);
/// `clouds.coverage`.
pub const CLOUD_COVERAGE: FieldRange = plain(0.0, 1.0, "share of the sky under cloud");
/// `clouds.scale`.
pub const CLOUD_SCALE: FieldRange =
    metres(10.0, 1e6, "across the largest clouds").typically(200.0, 20000.0);
/// `clouds.wind`.
pub const CLOUD_WIND: FieldRange = FieldRange::new(
    -200.0,
    200.0,
    "m/s",
    "the wind carrying the clouds, along x and z",
)
.typically(-30.0, 30.0);
/// `clouds.softness`.
pub const CLOUD_SOFTNESS: FieldRange = plain(
    0.01,
    1.0,
    "span of noise over which a cloud's edge goes from clear to full",
);
/// `waves.height`.
pub const WAVE_HEIGHT: FieldRange = metres(
    0.0,
    30.0,
    "trough to crest of the largest waves on open water",
)
.typically(0.0, 6.0);
/// `waves.length`.
pub const WAVE_LENGTH: FieldRange =
    metres(1.0, 1000.0, "crest to crest of the largest waves").typically(5.0, 200.0);
/// `waves.direction`.
pub const WAVE_DIRECTION: FieldRange = FieldRange::new(
    -360.0,
    360.0,
    "°",
    "where the waves travel: 0 towards -Z, growing towards +X",
)
.typically(-180.0, 180.0);
/// `waves.shore_depth`.
pub const WAVE_SHORE_DEPTH: FieldRange = metres(
    0.1,
    1000.0,
    "depth of water under which waves are full height",
)
.typically(0.5, 50.0);
/// `waves.foam`.
pub const WAVE_FOAM: FieldRange = plain(0.0, 1.0, "how much of the crests foam");

// Navigation.

/// `navigation.radius`.
pub const NAVIGATION_RADIUS: FieldRange = metres(
    16.0,
    4096.0,
    "distance around each navigator within which navigation tiles are built",
)
.typically(128.0, 1500.0);
/// `navigation.max_slope`.
pub const NAVIGATION_MAX_SLOPE: FieldRange =
    FieldRange::new(1.0, 80.0, "°", "the steepest walkable ground").typically(20.0, 45.0);
/// `navigation.step_height`.
pub const NAVIGATION_STEP_HEIGHT: FieldRange = metres(
    0.01,
    10.0,
    "what an agent steps up or down at once, beyond the slope",
)
.typically(0.2, 1.0);
/// `navigation.agent_radius`.
pub const NAVIGATION_AGENT_RADIUS: FieldRange = metres(
    0.05,
    10.0,
    "how far walkable ground keeps from steep ground and deep water",
)
.typically(0.3, 2.0);
/// `navigation.wade_depth`.
pub const NAVIGATION_WADE_DEPTH: FieldRange =
    metres(0.0, 100.0, "the deepest sea an agent wades through").typically(0.0, 1.5);
/// `navigation.road_cost`.
pub const NAVIGATION_ROAD_COST: FieldRange = plain(
    0.05,
    1.0,
    "what a metre of road costs against a metre of open ground",
);

// Collision.

/// `collision.radius`.
pub const COLLISION_RADIUS: FieldRange = metres(
    0.0,
    1e5,
    "distance around each collider anchor within which chunks get colliders",
)
.and_also("at most MAX_COLLIDER_CHUNKS chunks around one anchor")
.typically(0.0, 256.0);
/// `collision.resolution` (when `Some`).
pub const COLLISION_RESOLUTION: FieldRange = FieldRange::new(
    CHUNK_RESOLUTION.min,
    CHUNK_RESOLUTION.max,
    "samples",
    "height samples per chunk side of a collider (None: chunk_resolution)",
)
.and_also("2^k + 1, and colliders within MAX_COLLIDER_BYTES")
.typically(5.0, 257.0);

// Scatter: `scatter[i].*`.

/// `scatter[i].density`.
pub const SCATTER_DENSITY: FieldRange = FieldRange::new(
    0.0,
    1e6,
    "per ha",
    "candidates per hectare before the spacing and the rules thin them",
)
.and_also("at most 10000 / spacing², and MAX_SCATTER_IN_VIEW instances in view over all layers")
.typically(0.0, 1000.0);
/// `scatter[i].spacing`.
pub const SCATTER_SPACING: FieldRange = metres(
    0.1,
    1e4,
    "least distance between two instances of the layer",
)
.and_also("at least chunk_size / 512 (MAX_SCATTER_PER_CHUNK candidates a chunk)")
.typically(0.5, 50.0);
/// `scatter[i].height.min` and `.max`.
pub const SCATTER_HEIGHT: FieldRange = metres(
    -1e6,
    1e6,
    "heights above sea level where the layer grows fully",
)
.and_also("min <= max")
.typically(-1000.0, 3000.0);
/// `scatter[i].height.fade`.
pub const SCATTER_HEIGHT_FADE: FieldRange = metres(
    0.0,
    SCATTER_HEIGHT.max - SCATTER_HEIGHT.min,
    "height over which the layer thins out beyond each end",
)
.typically(0.0, 200.0);
/// `scatter[i].slope.min` and `.max`.
pub const SCATTER_SLOPE: FieldRange = plain(
    0.0,
    1.0,
    "slopes (1 − normal.y) where the layer grows fully",
)
.and_also("min <= max");
/// `scatter[i].slope.fade`.
pub const SCATTER_SLOPE_FADE: FieldRange = plain(
    0.0,
    SCATTER_SLOPE.max - SCATTER_SLOPE.min,
    "slope over which the layer thins out beyond each end",
);
/// `scatter[i].creases.min` and `.max` (when `Some`).
pub const SCATTER_CREASES: FieldRange = plain(
    0.0,
    1.0,
    "crease mask values (0 ridges, 1 gullies) where the layer grows fully",
)
.and_also("min <= max");
/// `scatter[i].creases.fade`.
pub const SCATTER_CREASES_FADE: FieldRange = plain(
    0.0,
    SCATTER_CREASES.max - SCATTER_CREASES.min,
    "crease mask over which the layer thins out beyond each end",
);
/// `scatter[i].scale`, both ends.
pub const SCATTER_SCALE: FieldRange = plain(
    0.0,
    1e3,
    "uniform scale of each instance, drawn between the two",
)
.open_below()
.and_also("(min, max) with min <= max")
.typically(0.05, 10.0);
/// `scatter[i].rotation`.
pub const SCATTER_ROTATION: FieldRange = FieldRange::new(
    0.0,
    180.0,
    "°",
    "turn about the vertical, drawn within ± this",
);
/// `scatter[i].tilt`.
pub const SCATTER_TILT: FieldRange =
    FieldRange::new(0.0, 90.0, "°", "lean off the vertical, drawn up to this");
/// `scatter[i].sink`.
pub const SCATTER_SINK: FieldRange = metres(
    -1e3,
    1e3,
    "how far the base sits below the ground, before scaling",
)
.typically(-5.0, 5.0);
/// `scatter[i].view_distance`.
pub const SCATTER_VIEW_DISTANCE: FieldRange = metres(
    0.0,
    VIEW_DISTANCE.max,
    "distance from a viewer within which the layer is placed",
)
.and_also("at most the terrain's view_distance")
.typically(0.0, 2000.0);
/// `scatter[i].far_color.cover`.
pub const FAR_COLOR_COVER: FieldRange = plain(
    0.0,
    1.0,
    "how much of the ground the far color covers where the rules hold fully",
);

// Edits: `stamps[i].*`, `paths[i].*` (and the same fields of `TerrainStamp` and `TerrainPath`
// components).

/// Each coordinate of `stamps[i].position` and of every point of `paths[i].points`.
pub const EDIT_POSITION: FieldRange = metres(
    -1e9,
    1e9,
    "where a stamp or a path's point stands, each coordinate",
)
.typically(-10_000.0, 10_000.0);
/// `stamps[i].yaw`.
pub const STAMP_YAW: FieldRange =
    FieldRange::new(-1e6, 1e6, "°", "the stamp's turn about +Y").typically(-180.0, 180.0);
/// `stamps[i].stamp.shape`: a circle's `radius`, each of a rectangle's `half_extents`.
pub const STAMP_SIZE: FieldRange =
    metres(0.0, 1e5, "radius or half extent of the stamp's footprint")
        .open_below()
        .typically(1.0, 500.0);
/// `stamps[i].stamp.falloff`.
pub const STAMP_FALLOFF: FieldRange = metres(
    0.0,
    1e5,
    "distance beyond the shape over which the stamp blends into the ground",
)
.typically(0.0, 100.0);
/// `stamps[i].stamp.op`: the metres of `Raise` and of `Lower`.
pub const STAMP_HEIGHT: FieldRange =
    metres(0.0, 1e5, "how far the stamp raises or lowers the ground").typically(0.0, 100.0);
/// `stamps[i].stamp.op`: a `Crater`'s `depth`.
pub const CRATER_DEPTH: FieldRange =
    metres(0.0, 1e5, "depth of the crater's bowl below the ground")
        .open_below()
        .typically(1.0, 50.0);
/// `paths[i].width`.
pub const PATH_WIDTH: FieldRange = metres(0.0, 1e4, "width of the path's flat part")
    .open_below()
    .typically(1.0, 50.0);
/// `paths[i].falloff`.
pub const PATH_FALLOFF: FieldRange = metres(
    0.0,
    1e5,
    "distance on each side over which the path blends into the ground",
)
.typically(0.0, 100.0);
/// `paths[i].op`: a `Channel`'s `depth`.
pub const CHANNEL_DEPTH: FieldRange =
    metres(0.0, 1e5, "depth of the channel's bed below the curve").typically(0.0, 20.0);

// The climate and the biomes.

/// `climate.scale`.
pub const CLIMATE_SCALE: FieldRange = metres(
    500.0,
    1e6,
    "size of a typical warm or cold, wet or dry region",
)
.and_also(
    "large enough for the view's coarsest chunk, which reads a bounded number of climate nodes",
)
.typically(500.0, 50_000.0);
/// `climate.continent_scale`.
pub const CLIMATE_CONTINENT_SCALE: FieldRange = metres(
    500.0,
    1e6,
    "size of a typical continent or sea",
)
.and_also(
    "large enough for the view's coarsest chunk, which reads a bounded number of climate nodes",
)
.typically(500.0, 100_000.0);
/// `climate.blend`.
pub const CLIMATE_BLEND: FieldRange = metres(
    1.0,
    CLIMATE_BLEND_SHARE as f64 * CLIMATE_CONTINENT_SCALE.max,
    "width of the border over which one biome's ground turns into its neighbour's",
)
.and_also("at most a quarter of the smaller climate scale")
.typically(1.0, 2000.0);
/// Both ends of `biomes[i].temperature`, `.moisture` and `.continentalness`.
pub const CLIMATE_RANGE: FieldRange = plain(-1.0, 1.0, "the biome's range of one climate field")
    .and_also("(low, high) with low < high; the biomes tile climate space");
/// `biomes[i].height_offset`.
pub const HEIGHT_OFFSET: FieldRange =
    metres(-1e5, 1e5, "metres added to the biome's heights").typically(-1000.0, 1000.0);

/// Every numeric field of a config with its range, by the field's path as a `.terrain.ron`
/// writes it (`[i]`: any index), in the order of [`TerrainConfig`](super::TerrainConfig)'s
/// fields.
pub const FIELD_RANGES: &[(&str, FieldRange)] = &[
    ("noise.octaves", NOISE_OCTAVES),
    ("noise.frequency", NOISE_FREQUENCY),
    ("noise.amplitude", NOISE_AMPLITUDE),
    ("noise.lacunarity", NOISE_LACUNARITY),
    ("noise.persistence", NOISE_PERSISTENCE),
    ("noise.contrast", NOISE_CONTRAST),
    ("noise.noise_size", NOISE_SIZE),
    ("noise.octave_shift", NOISE_OCTAVE_SHIFT),
    ("noise.warp.amplitude", NOISE_WARP_AMPLITUDE),
    ("noise.warp.frequency", NOISE_WARP_FREQUENCY),
    ("noise.erosion.strength", EROSION_STRENGTH),
    ("noise.erosion.scale", EROSION_SCALE),
    ("noise.erosion.octaves", EROSION_OCTAVES),
    ("noise.erosion.lacunarity", EROSION_LACUNARITY),
    ("noise.erosion.gain", EROSION_GAIN),
    ("noise.erosion.sharpness", EROSION_SHARPNESS),
    ("noise.erosion.detail", EROSION_DETAIL),
    ("noise.erosion.slope_onset", EROSION_SLOPE_ONSET),
    ("noise.erosion.preserve", EROSION_PRESERVE),
    ("height_scale", HEIGHT_SCALE),
    ("chunk_size", CHUNK_SIZE),
    ("chunk_resolution", CHUNK_RESOLUTION),
    ("view_distance", VIEW_DISTANCE),
    ("lod_distance", LOD_DISTANCE),
    ("max_tasks_in_flight", MAX_TASKS_IN_FLIGHT),
    ("max_uploads_per_frame", MAX_UPLOADS_PER_FRAME),
    ("sea_level", SEA_LEVEL),
    ("skirt_depth", SKIRT_DEPTH),
    ("colors.sea_bed", COLOR),
    ("colors.bands[i].color", COLOR),
    ("colors.bands[i].roughness", ROUGHNESS),
    ("colors.bands[i].texture.size", TEXTURE_SIZE),
    ("colors.band_blend", BAND_BLEND),
    ("colors.rock", COLOR),
    ("colors.rock_slope", ROCK_SLOPE),
    ("colors.rock_blend", ROCK_BLEND),
    ("colors.rock_roughness", ROUGHNESS),
    ("colors.rock_texture.size", TEXTURE_SIZE),
    ("colors.snow.color", COLOR),
    ("colors.snow.from", SNOW_FROM),
    ("colors.snow.blend", SNOW_BLEND),
    ("colors.snow.max_slope", SNOW_MAX_SLOPE),
    ("colors.snow.slope_blend", SNOW_SLOPE_BLEND),
    ("colors.snow.roughness", ROUGHNESS),
    ("colors.snow.texture.size", TEXTURE_SIZE),
    ("colors.edge_noise.height", EDGE_NOISE_HEIGHT),
    ("colors.edge_noise.slope", EDGE_NOISE_SLOPE),
    ("colors.edge_noise.size", EDGE_NOISE_SIZE),
    ("colors.creases", CREASES),
    ("colors.grain.strength", GRAIN_STRENGTH),
    ("colors.grain.size", GRAIN_SIZE),
    ("colors.grain.fade_distance", GRAIN_FADE_DISTANCE),
    ("colors.height_blend", HEIGHT_BLEND),
    ("water.shallow", COLOR),
    ("water.deep", COLOR),
    ("water.depth", WATER_DEPTH),
    ("water.foam", WATER_FOAM),
    ("water.ripples", WATER_RIPPLES),
    ("water.sky", COLOR),
    ("clouds.altitude", CLOUD_ALTITUDE),
    ("clouds.thickness", CLOUD_THICKNESS),
    ("clouds.coverage", CLOUD_COVERAGE),
    ("clouds.scale", CLOUD_SCALE),
    ("clouds.wind", CLOUD_WIND),
    ("clouds.softness", CLOUD_SOFTNESS),
    ("waves.height", WAVE_HEIGHT),
    ("waves.length", WAVE_LENGTH),
    ("waves.direction", WAVE_DIRECTION),
    ("waves.shore_depth", WAVE_SHORE_DEPTH),
    ("waves.foam", WAVE_FOAM),
    ("navigation.radius", NAVIGATION_RADIUS),
    ("navigation.max_slope", NAVIGATION_MAX_SLOPE),
    ("navigation.step_height", NAVIGATION_STEP_HEIGHT),
    ("navigation.agent_radius", NAVIGATION_AGENT_RADIUS),
    ("navigation.wade_depth", NAVIGATION_WADE_DEPTH),
    ("navigation.road_cost", NAVIGATION_ROAD_COST),
    ("collision.radius", COLLISION_RADIUS),
    ("collision.resolution", COLLISION_RESOLUTION),
    ("scatter[i].density", SCATTER_DENSITY),
    ("scatter[i].spacing", SCATTER_SPACING),
    ("scatter[i].height.min", SCATTER_HEIGHT),
    ("scatter[i].height.max", SCATTER_HEIGHT),
    ("scatter[i].height.fade", SCATTER_HEIGHT_FADE),
    ("scatter[i].slope.min", SCATTER_SLOPE),
    ("scatter[i].slope.max", SCATTER_SLOPE),
    ("scatter[i].slope.fade", SCATTER_SLOPE_FADE),
    ("scatter[i].creases.min", SCATTER_CREASES),
    ("scatter[i].creases.max", SCATTER_CREASES),
    ("scatter[i].creases.fade", SCATTER_CREASES_FADE),
    ("scatter[i].scale", SCATTER_SCALE),
    ("scatter[i].rotation", SCATTER_ROTATION),
    ("scatter[i].tilt", SCATTER_TILT),
    ("scatter[i].sink", SCATTER_SINK),
    ("scatter[i].view_distance", SCATTER_VIEW_DISTANCE),
    ("scatter[i].far_color.color", COLOR),
    ("scatter[i].far_color.cover", FAR_COLOR_COVER),
    ("stamps[i].position", EDIT_POSITION),
    ("stamps[i].yaw", STAMP_YAW),
    ("stamps[i].stamp.shape.radius", STAMP_SIZE),
    ("stamps[i].stamp.shape.half_extents", STAMP_SIZE),
    ("stamps[i].stamp.falloff", STAMP_FALLOFF),
    ("stamps[i].stamp.op.Raise", STAMP_HEIGHT),
    ("stamps[i].stamp.op.Lower", STAMP_HEIGHT),
    ("stamps[i].stamp.op.Crater.depth", CRATER_DEPTH),
    ("paths[i].points", EDIT_POSITION),
    ("paths[i].width", PATH_WIDTH),
    ("paths[i].falloff", PATH_FALLOFF),
    ("paths[i].op.Channel.depth", CHANNEL_DEPTH),
    ("climate.scale", CLIMATE_SCALE),
    ("climate.continent_scale", CLIMATE_CONTINENT_SCALE),
    ("climate.blend", CLIMATE_BLEND),
    ("biomes[i].temperature", CLIMATE_RANGE),
    ("biomes[i].moisture", CLIMATE_RANGE),
    ("biomes[i].continentalness", CLIMATE_RANGE),
    ("biomes[i].height_scale", HEIGHT_SCALE),
    ("biomes[i].height_offset", HEIGHT_OFFSET),
];

/// [`FIELD_RANGES`] as a Markdown table: one row a field, with its allowed values (and the
/// bounds that depend on other fields), unit, typical values and meaning. What
/// `docs/configuration.md` shows; a test keeps the two the same.
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| field | allowed | unit | typical | meaning |\n| --- | --- | --- | --- | --- |\n",
    );
    for (path, range) in FIELD_RANGES {
        let mut allowed = range.allowed();
        if !range.also.is_empty() {
            allowed = format!("{allowed}; {}", range.also);
        }
        let _ = writeln!(
            out,
            "| `{path}` | {allowed} | {} | {} to {} | {} |",
            range.unit, range.typical.0, range.typical.1, range.meaning
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use perlin_core::{DomainWarp, Erosion, Fbm};

    #[test]
    fn every_range_is_sound_and_its_typical_values_allowed() {
        for (path, r) in FIELD_RANGES {
            assert!(r.min < r.max, "{path}: {r:?}");
            assert!(r.typical.0 <= r.typical.1, "{path}: {r:?}");
            assert!(
                r.typical.0 >= r.min && r.typical.1 <= r.max,
                "{path}: typical values outside {r:?}"
            );
            assert!(r.contains(r.typical.1), "{path}: {r:?}");
            for text in [r.unit, r.meaning, r.also] {
                assert!(!text.contains('|'), "{path}: `|` in {text:?}");
            }
            let twice = FIELD_RANGES.iter().filter(|(p, _)| p == path).count();
            assert_eq!(twice, 1, "{path} is listed {twice} times");
        }
    }

    /// The bounds that follow other fields, and the words that quote them.
    #[test]
    fn the_bounds_that_follow_others_agree_with_them() {
        let quotes = [
            (
                VIEW_DISTANCE.also,
                format!("chunk_size / {}", 1.0 / VIEW_DISTANCE_MIN_CHUNKS),
            ),
            (VIEW_DISTANCE.also, format!("2^{}", crate::config::MAX_LOD)),
            (
                LOD_DISTANCE.also,
                format!("{LOD_DISTANCE_MIN_CHUNKS} × chunk_size"),
            ),
            (
                SCATTER_DENSITY.also,
                format!("{SQUARE_METRES_PER_HECTARE} / spacing²"),
            ),
            (
                SCATTER_SPACING.also,
                format!(
                    "chunk_size / {}",
                    (crate::config::MAX_SCATTER_PER_CHUNK as f64).sqrt()
                ),
            ),
        ];
        for (also, quote) in quotes {
            assert!(also.contains(&quote), "{also:?} does not say {quote:?}");
        }
        let grid: Vec<String> = (2..=10).map(|k| ((1u32 << k) + 1).to_string()).collect();
        assert_eq!(1u32 << 2, CHUNK_RESOLUTION.min as u32 - 1);
        assert_eq!(1u32 << 10, CHUNK_RESOLUTION.max as u32 - 1);
        assert!(
            CHUNK_RESOLUTION
                .also
                .ends_with(&grid.join(", ").replace(", 1025", " or 1025"))
        );
        assert_eq!(COLLISION_RESOLUTION.min, CHUNK_RESOLUTION.min);
        assert_eq!(COLLISION_RESOLUTION.max, CHUNK_RESOLUTION.max);
        // The messages and the table say "a quarter of the smaller climate scale".
        assert_eq!(CLIMATE_BLEND_SHARE, 0.25);
        let spacing = SCATTER_SPACING.min as f32;
        assert_eq!(
            (scatter_density_max(spacing) as f64).round(),
            SCATTER_DENSITY.max
        );
        assert_eq!(
            climate_blend_max(1e6, 1e6) as f64,
            CLIMATE_BLEND.max,
            "climate.blend"
        );
    }

    /// A change of one field of a noise, by the field's name as `Fbm::validate` reports it.
    type Set = fn(&mut Fbm, f64);

    /// Every noise field of the table, and how to set it.
    const NOISE: &[(&str, bool, Set)] = &[
        ("octaves", true, |n, v| n.octaves = v as u32),
        ("frequency", false, |n, v| n.frequency = v),
        ("amplitude", false, |n, v| n.amplitude = v),
        ("lacunarity", false, |n, v| n.lacunarity = v),
        ("persistence", false, |n, v| n.persistence = v),
        ("contrast", false, |n, v| n.contrast = v),
        ("noise_size", false, |n, v| n.noise_size = v),
        ("octave_shift", false, |n, v| n.octave_shift = v),
        ("warp.amplitude", false, |n, v| {
            n.warp = Some(DomainWarp {
                amplitude: v,
                ..DomainWarp::default()
            })
        }),
        ("warp.frequency", false, |n, v| {
            n.warp = Some(DomainWarp {
                frequency: v,
                ..DomainWarp::default()
            })
        }),
        ("erosion.strength", false, |n, v| erosion(n).strength = v),
        ("erosion.scale", false, |n, v| erosion(n).scale = v),
        ("erosion.octaves", true, |n, v| {
            erosion(n).octaves = v as u32
        }),
        ("erosion.lacunarity", false, |n, v| {
            erosion(n).lacunarity = v
        }),
        ("erosion.gain", false, |n, v| erosion(n).gain = v),
        ("erosion.sharpness", false, |n, v| erosion(n).sharpness = v),
        ("erosion.detail", false, |n, v| erosion(n).detail = v),
        ("erosion.slope_onset", false, |n, v| {
            erosion(n).slope_onset = v
        }),
        ("erosion.preserve", false, |n, v| erosion(n).preserve = v),
    ];

    fn erosion(n: &mut Fbm) -> &mut Erosion {
        n.erosion.get_or_insert_default()
    }

    /// The noise's ranges in the table are the ones `Fbm::validate` checks: each end is
    /// allowed unless open, and the next value beyond it is refused, naming the field.
    #[test]
    fn the_noise_ranges_are_those_the_noise_checks() {
        let listed = FIELD_RANGES
            .iter()
            .filter(|(path, _)| path.starts_with("noise."))
            .count();
        assert_eq!(listed, NOISE.len(), "a noise field without its check here");
        for &(field, integer, set) in NOISE {
            let path = format!("noise.{field}");
            let (_, range) = FIELD_RANGES
                .iter()
                .find(|(p, _)| *p == path)
                .unwrap_or_else(|| panic!("{path} is not in FIELD_RANGES"));
            let check = |v: f64| {
                let mut n = Fbm::default();
                set(&mut n, v);
                n.validate()
            };
            let (below, above) = if integer {
                (range.min - 1.0, range.max + 1.0)
            } else {
                (range.min.next_down(), range.max.next_up())
            };
            assert_eq!(check(range.max), Ok(()), "{path} at {}", range.max);
            if range.min_open {
                assert_eq!(
                    check(range.min).map_err(|e| e.field),
                    Err(field.to_string()),
                    "{path} at {}",
                    range.min
                );
            } else {
                assert_eq!(check(range.min), Ok(()), "{path} at {}", range.min);
            }
            for v in [below, above] {
                assert_eq!(
                    check(v).map_err(|e| e.field),
                    Err(field.to_string()),
                    "{path} at {v}"
                );
            }
        }
    }
}
