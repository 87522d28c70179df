//! The look of the ground and the sea: [`TerrainColors`] (layers by height, slope, snow and
//! the erosion crease mask, with optional textures) and [`Water`]. Both the terrain material and
//! the vertex-color fallback read them; none of them shapes the mesh.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// How the ground is colored: bands by height above sea level, rock where the ground is steep,
/// snow that settles on flat high ground, every boundary broken up by world-space noise; the
/// erosion crease mask (when the noise has erosion) darkens gullies and lightens ridges.
///
/// With a [`Water`], the ground within about a metre and a half of the waterline is wet:
/// darker and glossier (the material only).
///
/// Every color is linear RGB, each channel within [`COLOR`](super::ranges::COLOR). The terrain
/// material evaluates these rules per pixel; the vertex-color fallback
/// ([`TerrainRenderMode::VertexColors`]) per vertex, without the edge noise, creases, detail and
/// textures.
///
/// [`TerrainRenderMode::VertexColors`]: crate::TerrainRenderMode::VertexColors
#[derive(Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct TerrainColors {
    /// Sea bed, below `sea_level`. Default a dark silt.
    pub sea_bed: [f32; 3],
    /// Bands above sea level, in increasing `up_to` (at most [`MAX_BANDS`]); above the last,
    /// its color. Default sand to 3 m, grass to 60 m, heath above; bands must rise and be
    /// finite.
    pub bands: Vec<HeightBand>,
    /// Metres over which neighbouring bands (and the sea bed and the first band) blend.
    /// Default 2; within [`BAND_BLEND`](super::ranges::BAND_BLEND).
    pub band_blend: f32,
    /// Color of steep ground. Default a grey brown.
    pub rock: [f32; 3],
    /// Slope, as `1 − normal.y` (0 flat, 1 vertical), where ground is fully rock. Default
    /// 0.35; within [`ROCK_SLOPE`](super::ranges::ROCK_SLOPE).
    pub rock_slope: f32,
    /// Slope over which rock fades in below `rock_slope`. Default 0.07; within
    /// [`ROCK_BLEND`](super::ranges::ROCK_BLEND).
    pub rock_blend: f32,
    /// Perceptual roughness of rock, 0 (mirror) to 1 ([`ROUGHNESS`](super::ranges::ROUGHNESS)).
    /// Default 0.8.
    pub rock_roughness: f32,
    /// An optional texture for rock (the material only).
    pub rock_texture: Option<LayerTexture>,
    /// Snow on high ground that is flat enough to hold it; `None` for none. Default
    /// [`Snow::default`].
    pub snow: Option<Snow>,
    /// World-space noise that moves every boundary (band, rock, snow) so that none follows
    /// the triangles or a contour line (the material only).
    pub edge_noise: EdgeNoise,
    /// How strongly the erosion crease mask shows ([`CREASES`](super::ranges::CREASES)): gullies
    /// darker and wetter, ridges lighter (the material only, when the noise has erosion). Default
    /// 0.7.
    pub creases: f32,
    /// The close-up grain of the surface (the material only).
    pub grain: Grain,
    /// How much a textured layer's height (its albedo's alpha) sharpens its blend with its
    /// neighbour, 0 (plain blend) to 1 ([`HEIGHT_BLEND`](super::ranges::HEIGHT_BLEND)): stones poke
    /// through sand before the sand fades. Default 0.5.
    pub height_blend: f32,
}

/// The most height bands in [`TerrainColors::bands`] (the material's layer table).
pub const MAX_BANDS: usize = 8;

impl Default for TerrainColors {
    fn default() -> Self {
        // Sand, grass, heath; rock; snow on the hill tops.
        Self {
            sea_bed: [0.171, 0.133, 0.073],
            bands: vec![
                HeightBand::new(3.0, [0.604, 0.507, 0.263]),
                HeightBand::new(60.0, [0.073, 0.196, 0.027]),
                HeightBand::new(1.0e9, [0.147, 0.163, 0.055]),
            ],
            band_blend: 2.0,
            rock: [0.214, 0.187, 0.163],
            rock_slope: 0.35,
            rock_blend: 0.07,
            rock_roughness: 0.8,
            rock_texture: None,
            snow: Some(Snow::default()),
            edge_noise: EdgeNoise::default(),
            creases: 0.7,
            grain: Grain::default(),
            height_blend: 0.5,
        }
    }
}

/// A color for the ground up to a height.
#[derive(Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HeightBand {
    /// The band covers heights up to this many metres above `sea_level`.
    pub up_to: f32,
    /// Linear RGB, each channel within [`COLOR`](super::ranges::COLOR).
    pub color: [f32; 3],
    /// Perceptual roughness, 0 (mirror) to 1 ([`ROUGHNESS`](super::ranges::ROUGHNESS)). Default
    /// 0.9.
    #[serde(default = "HeightBand::default_roughness")]
    pub roughness: f32,
    /// An optional texture (the material only).
    #[serde(default)]
    pub texture: Option<LayerTexture>,
}

impl HeightBand {
    /// The band up to `up_to` metres above sea level, in linear RGB `color`, untextured.
    pub const fn new(up_to: f32, color: [f32; 3]) -> Self {
        Self {
            up_to,
            color,
            roughness: Self::default_roughness(),
            texture: None,
        }
    }

    const fn default_roughness() -> f32 {
        0.9
    }
}

/// Snow: it settles above `from` metres over the sea on ground flatter than `max_slope`.
#[derive(Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Snow {
    /// Linear RGB, each channel within [`COLOR`](super::ranges::COLOR). Default a blue-white.
    pub color: [f32; 3],
    /// Metres above sea level where snow is half in. Default 95; within
    /// [`SNOW_FROM`](super::ranges::SNOW_FROM).
    pub from: f32,
    /// Metres over which it fades in around `from`. Default 8; within
    /// [`SNOW_BLEND`](super::ranges::SNOW_BLEND).
    pub blend: f32,
    /// Slope (`1 − normal.y`) where snow is half gone: steeper ground sheds it. Default 0.25;
    /// within [`SNOW_MAX_SLOPE`](super::ranges::SNOW_MAX_SLOPE).
    pub max_slope: f32,
    /// Slope over which it fades out around `max_slope`. Default 0.08; within
    /// [`SNOW_SLOPE_BLEND`](super::ranges::SNOW_SLOPE_BLEND).
    pub slope_blend: f32,
    /// Perceptual roughness, within [`ROUGHNESS`](super::ranges::ROUGHNESS). Default 0.6.
    pub roughness: f32,
    /// An optional texture (the material only).
    pub texture: Option<LayerTexture>,
}

impl Default for Snow {
    fn default() -> Self {
        Self {
            color: [0.89, 0.911, 0.955],
            from: 95.0,
            blend: 8.0,
            max_slope: 0.25,
            slope_blend: 0.08,
            roughness: 0.6,
            texture: None,
        }
    }
}

/// An image drawn on a layer instead of its flat color (multiplied by the color, so white
/// keeps the image as it is).
///
/// `albedo` and `normal` name images: first the names a game registered in
/// [`TerrainTextures`](crate::TerrainTextures) (e.g. textures made in code), else asset paths.
/// Every layer texture must be square, of the same size, in an 8-bit RGBA format; the albedo's
/// alpha is the surface height used by [`TerrainColors::height_blend`] (opaque images blend
/// plainly).
#[derive(Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LayerTexture {
    /// The color image (sRGB). Required, not empty.
    pub albedo: String,
    /// An optional tangent-space normal map (linear, +Y up in the image's green channel).
    #[serde(default)]
    pub normal: Option<String>,
    /// Metres of ground one repeat of the image covers. Default 4; within
    /// [`TEXTURE_SIZE`](super::ranges::TEXTURE_SIZE).
    #[serde(default = "LayerTexture::default_size")]
    pub size: f32,
}

impl LayerTexture {
    const fn default_size() -> f32 {
        4.0
    }
}

/// World-space noise that moves the boundaries between layers.
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct EdgeNoise {
    /// Metres up or down a height boundary (bands, snow line) moves. Default 6; within
    /// [`EDGE_NOISE_HEIGHT`](super::ranges::EDGE_NOISE_HEIGHT).
    pub height: f32,
    /// How far a slope boundary (rock, snow) moves, in units of slope. Default 0.06; within
    /// [`EDGE_NOISE_SLOPE`](super::ranges::EDGE_NOISE_SLOPE).
    pub slope: f32,
    /// Metres across the noise's largest feature. Default 40; within
    /// [`EDGE_NOISE_SIZE`](super::ranges::EDGE_NOISE_SIZE).
    pub size: f32,
}

impl Default for EdgeNoise {
    fn default() -> Self {
        Self {
            height: 6.0,
            slope: 0.06,
            size: 40.0,
        }
    }
}

/// Grain, the close-up surface: a world-space noise that bumps the shading normal and varies the albedo,
/// fading out with distance (no texture, so nothing tiles).
///
/// Four octaves of bumps, from `size` down, each fading out before its cells shrink below a few
/// pixels (so they never shimmer), all of them gone at `fade_distance`; under them a broad
/// variation of brightness and hue, tens of metres across, that does not fade with distance, so
/// that no patch of ground repeats at any distance. `strength` scales both.
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Grain {
    /// How much the normal tilts and the albedo varies, 0 (smooth) to 1
    /// ([`GRAIN_STRENGTH`](super::ranges::GRAIN_STRENGTH)). Default 0.5.
    pub strength: f32,
    /// Metres across the finest bumps. Default 0.6; within
    /// [`GRAIN_SIZE`](super::ranges::GRAIN_SIZE).
    pub size: f32,
    /// Metres from the camera beyond which the fine bumps are gone (it fades in over the nearer
    /// half). Default 150; within [`GRAIN_FADE_DISTANCE`](super::ranges::GRAIN_FADE_DISTANCE).
    pub fade_distance: f32,
}

impl Default for Grain {
    fn default() -> Self {
        Self {
            strength: 0.5,
            size: 0.6,
            fade_distance: 150.0,
        }
    }
}

/// The sea: a surface at `sea_level` that follows the viewers, colored by the depth of water
/// under it, with a soft shoreline.
#[derive(Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Water {
    /// Linear RGB of shallow water, each channel within [`COLOR`](super::ranges::COLOR). Default a
    /// green teal.
    pub shallow: [f32; 3],
    /// Linear RGB of deep water. Default a dark blue.
    pub deep: [f32; 3],
    /// Metres of water that look deep (and through which the ground no longer shows). Default
    /// 12; within [`WATER_DEPTH`](super::ranges::WATER_DEPTH).
    pub depth: f32,
    /// Metres of depth along the shore that foam. Default 0.6; within
    /// [`WATER_FOAM`](super::ranges::WATER_FOAM).
    pub foam: f32,
    /// How strongly small ripples bump the surface, 0 (a mirror) to 1
    /// ([`WATER_RIPPLES`](super::ranges::WATER_RIPPLES)); the sea's waves are the config's
    /// [`waves`](super::TerrainConfig::waves). Default 0.4. Files written before the waves
    /// came call it `waves`, which still reads.
    #[serde(alias = "waves")]
    pub ripples: f32,
    /// Linear RGB of the sky the surface reflects at grazing angles (match the clear color).
    pub sky: [f32; 3],
}

impl Default for Water {
    fn default() -> Self {
        Self {
            shallow: [0.05, 0.3, 0.28],
            deep: [0.005, 0.03, 0.06],
            depth: 12.0,
            foam: 0.6,
            ripples: 0.4,
            sky: [0.3, 0.45, 0.65],
        }
    }
}
