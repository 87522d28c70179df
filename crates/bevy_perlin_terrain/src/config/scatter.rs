//! [`ScatterLayer`]: trees, rocks, grass placed on the terrain by rules.

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The most scatter layers in a config.
pub const MAX_SCATTER_LAYERS: usize = 16;

/// The most scatter layers with a [`FarColor`] (the terrain material's table).
pub const MAX_FAR_COLORS: usize = 4;

/// One kind of object scattered over the terrain: where it may stand (height, slope, creases,
/// each with soft edges), how densely and how far apart, how each instance varies, and how far
/// from the viewers it is shown. The game says what it looks like by its `name` (see
/// `ScatterVisuals`).
///
/// ```ron
/// scatter: [(
///     name: "trees",
///     density: 40.0,
///     spacing: 5.0,
///     height: (min: 4.0, max: 160.0, fade: 20.0),
///     slope: (min: 0.0, max: 0.2, fade: 0.05),
///     scale: (0.8, 1.4),
///     view_distance: 500.0,
/// )],
/// ```
#[derive(Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct ScatterLayer {
    /// The layer's name, unique in the config: what the game registers a look for, and what
    /// every instance's `ScatterInstance::layer` says. Required, not blank.
    pub name: String,
    /// Candidates per hectare (10 000 m²) before the spacing and the rules thin them: at most
    /// one per `spacing × spacing` square. Default 50; from 0 to
    /// [`scatter_density_max`](super::ranges::scatter_density_max)`(spacing)`
    /// ([`SCATTER_DENSITY`](super::ranges::SCATTER_DENSITY)).
    pub density: f32,
    /// No two instances of this layer are closer than this many metres, across chunk borders too.
    /// Default 4; within [`SCATTER_SPACING`](super::ranges::SCATTER_SPACING), and at least
    /// `chunk_size / 512`.
    pub spacing: f32,
    /// Where it grows by height above `sea_level` (metres). Default anywhere above the sea;
    /// ends within [`SCATTER_HEIGHT`](super::ranges::SCATTER_HEIGHT).
    pub height: SoftRange,
    /// Where it grows by slope, `1 − normal.y` (0 flat, 1 vertical). Default any slope; ends
    /// within [`SCATTER_SLOPE`](super::ranges::SCATTER_SLOPE).
    pub slope: SoftRange,
    /// Where it grows by the erosion crease mask (0 ridges, 1 gullies; ½ without erosion); `None`
    /// (the default) for anywhere; ends within [`SCATTER_CREASES`](super::ranges::SCATTER_CREASES).
    pub creases: Option<SoftRange>,
    /// Uniform scale of each instance, drawn between these two. Default `(1.0, 1.0)`;
    /// `(min, max)` with `min <= max`, each within
    /// [`SCATTER_SCALE`](super::ranges::SCATTER_SCALE) (above 0).
    pub scale: (f32, f32),
    /// Turn about the vertical, drawn within ± this many degrees (180, the default, for any
    /// heading); within [`SCATTER_ROTATION`](super::ranges::SCATTER_ROTATION).
    pub rotation: f32,
    /// Lean, drawn up to this many degrees off the vertical (or off the ground normal).
    /// Default 0; within [`SCATTER_TILT`](super::ranges::SCATTER_TILT).
    pub tilt: f32,
    /// Whether an instance stands along the ground's normal (rocks) rather than upright
    /// (trees, the default).
    pub align_to_normal: bool,
    /// Metres the base sits below the ground (negative: above it), before scaling. Default 0;
    /// within [`SCATTER_SINK`](super::ranges::SCATTER_SINK).
    pub sink: f32,
    /// The layer is placed on the full-detail cells (`chunk_size` squares) within this many
    /// metres of a viewer. Default 400; from 0 to the terrain's `view_distance`
    /// ([`SCATTER_VIEW_DISTANCE`](super::ranges::SCATTER_VIEW_DISTANCE)).
    pub view_distance: f32,
    /// Beyond `view_distance`, the terrain material paints this color where the layer's rules
    /// (height, slope, creases) would place it, so far hills are not bald (a forest's darker
    /// canopy); `None` (the default) for nothing. At most [`MAX_FAR_COLORS`] layers have one.
    /// With `biomes`, only in those biomes, thinning across their borders by their weight.
    pub far_color: Option<FarColor>,
    /// The biomes it grows in (names of the config's `biomes`), thinning across their borders
    /// with their weight: a candidate is kept with the sum of these biomes' weights there
    /// (times the other rules' weights). Empty (the default): everywhere.
    pub biomes: Vec<String>,
}

/// How a scatter layer shows beyond its view distance: a color over the ground where its
/// rules would place it.
///
/// ```ron
/// far_color: Some((color: (0.02, 0.07, 0.02), cover: 0.85)),
/// ```
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct FarColor {
    /// Linear RGB, each channel within [`COLOR`](super::ranges::COLOR). Default a dark green.
    pub color: [f32; 3],
    /// How much of the ground it covers where the rules hold fully, within
    /// [`FAR_COLOR_COVER`](super::ranges::FAR_COLOR_COVER). Default 0.85.
    pub cover: f32,
}

impl Default for FarColor {
    fn default() -> Self {
        Self {
            color: [0.02, 0.06, 0.02],
            cover: 0.85,
        }
    }
}

impl Default for ScatterLayer {
    fn default() -> Self {
        Self {
            name: String::new(),
            density: 50.0,
            spacing: 4.0,
            height: SoftRange {
                min: 0.0,
                max: 1e6,
                fade: 0.0,
            },
            slope: SoftRange {
                min: 0.0,
                max: 1.0,
                fade: 0.0,
            },
            creases: None,
            scale: (1.0, 1.0),
            rotation: 180.0,
            tilt: 0.0,
            align_to_normal: false,
            sink: 0.0,
            view_distance: 400.0,
            far_color: None,
            biomes: Vec::new(),
        }
    }
}

/// A range with soft edges: full weight from `min` to `max`, fading to none over `fade`
/// beyond each end, so a layer thins out instead of stopping at a line. In a RON file all three
/// fields are required; `min <= max`, and `fade` is at most the span the field allows (1 for a
/// slope: see [`SCATTER_SLOPE_FADE`](super::ranges::SCATTER_SLOPE_FADE) and the other `_FADE`
/// ranges).
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SoftRange {
    /// Lower end of full weight.
    pub min: f32,
    /// Upper end of full weight.
    pub max: f32,
    /// Width of the fade beyond each end (0 for a hard edge).
    pub fade: f32,
}

impl SoftRange {
    /// The weight of `v`: 1 within `min..=max`, falling linearly to 0 at `fade` beyond.
    pub fn weight(&self, v: f32) -> f32 {
        let outside = (self.min - v).max(v - self.max);
        if outside <= 0.0 {
            1.0
        } else if self.fade > 0.0 {
            (1.0 - outside / self.fade).max(0.0)
        } else {
            0.0
        }
    }
}
