//! Field by field: every value against its range in [`ranges`], each error naming the field's
//! path in the RON file and what is allowed.

use super::ConfigError;
use crate::config::ranges::{self, FieldRange};
use crate::config::{
    Clouds, LayerTexture, MAX_BANDS, MAX_LOD, MIN_MORPH, Navigation, ScatterLayer, SoftRange,
    TerrainColors, TerrainConfig, Water, Waves,
};
use perlin_core::FieldError;

/// `value` within `r`, else the error for `field` allowing `finite, min to max`.
pub(super) fn finite(field: &str, value: f32, r: &FieldRange) -> Result<(), ConfigError> {
    if r.contains_f32(value) {
        return Ok(());
    }
    let allowed = format!("finite, {} to {}", r.min as f32, r.max as f32);
    Err(FieldError::new(field, value, allowed))
}

/// `value` within `r`, else the error for `field` allowing `finite, min to max metres`.
pub(super) fn finite_metres(field: &str, value: f32, r: &FieldRange) -> Result<(), ConfigError> {
    if r.contains_f32(value) {
        return Ok(());
    }
    let allowed = format!("finite, {} to {} metres", r.min as f32, r.max as f32);
    Err(FieldError::new(field, value, allowed))
}

/// `value` within `r` (a share, a slope, a roughness), else the error for `field` allowing
/// `min to max`.
fn unit(field: &str, value: f32, r: &FieldRange) -> Result<(), ConfigError> {
    if r.contains_f32(value) {
        return Ok(());
    }
    let allowed = format!("{} to {}", r.min as f32, r.max as f32);
    Err(FieldError::new(field, value, allowed))
}

/// `value` within `r`, else the error for `field` allowing `min to max degrees`.
fn degrees(field: &str, value: f32, r: &FieldRange) -> Result<(), ConfigError> {
    if r.contains_f32(value) {
        return Ok(());
    }
    let allowed = format!("{} to {} degrees", r.min as f32, r.max as f32);
    Err(FieldError::new(field, value, allowed))
}

/// An integer `value` within `r`, else the error for `field` allowing `min to max`.
fn count(field: &str, value: u32, r: &FieldRange) -> Result<(), ConfigError> {
    if r.contains_u32(value) {
        return Ok(());
    }
    let allowed = format!("{} to {}", r.min as u32, r.max as u32);
    Err(FieldError::new(field, value, allowed))
}

/// A linear RGB color: each channel within [`ranges::COLOR`].
fn color(field: &str, c: [f32; 3]) -> Result<(), ConfigError> {
    if c.iter().all(|&v| ranges::COLOR.contains_f32(v)) {
        return Ok(());
    }
    let allowed = format!(
        "three numbers from {} to {}",
        ranges::COLOR.min as f32,
        ranges::COLOR.max as f32
    );
    Err(FieldError::new(field, format!("{c:?}"), allowed))
}

fn texture(field: &str, texture: &Option<LayerTexture>) -> Result<(), ConfigError> {
    let Some(t) = texture else { return Ok(()) };
    FieldError::require(
        !t.albedo.is_empty(),
        &format!("{field}.albedo"),
        "\"\"",
        "a texture name or asset path",
    )?;
    finite_metres(&format!("{field}.size"), t.size, &ranges::TEXTURE_SIZE)
}

/// The ground's look (the config's `colors`, or a biome's).
pub(super) fn validate_colors(c: &TerrainColors) -> Result<(), ConfigError> {
    color("colors.sea_bed", c.sea_bed)?;
    FieldError::require(
        c.bands.len() <= MAX_BANDS,
        "colors.bands",
        c.bands.len(),
        &format!("at most {MAX_BANDS} bands"),
    )?;
    let mut previous = f32::NEG_INFINITY;
    for (i, band) in c.bands.iter().enumerate() {
        let field = format!("colors.bands[{i}]");
        FieldError::require(
            band.up_to.is_finite() && band.up_to > previous,
            &format!("{field}.up_to"),
            band.up_to,
            "finite and increasing",
        )?;
        previous = band.up_to;
        color(&format!("{field}.color"), band.color)?;
        unit(
            &format!("{field}.roughness"),
            band.roughness,
            &ranges::ROUGHNESS,
        )?;
        texture(&format!("{field}.texture"), &band.texture)?;
    }
    finite("colors.band_blend", c.band_blend, &ranges::BAND_BLEND)?;
    color("colors.rock", c.rock)?;
    unit("colors.rock_slope", c.rock_slope, &ranges::ROCK_SLOPE)?;
    unit("colors.rock_blend", c.rock_blend, &ranges::ROCK_BLEND)?;
    unit(
        "colors.rock_roughness",
        c.rock_roughness,
        &ranges::ROUGHNESS,
    )?;
    texture("colors.rock_texture", &c.rock_texture)?;
    if let Some(snow) = &c.snow {
        color("colors.snow.color", snow.color)?;
        finite("colors.snow.from", snow.from, &ranges::SNOW_FROM)?;
        finite("colors.snow.blend", snow.blend, &ranges::SNOW_BLEND)?;
        unit(
            "colors.snow.max_slope",
            snow.max_slope,
            &ranges::SNOW_MAX_SLOPE,
        )?;
        unit(
            "colors.snow.slope_blend",
            snow.slope_blend,
            &ranges::SNOW_SLOPE_BLEND,
        )?;
        unit("colors.snow.roughness", snow.roughness, &ranges::ROUGHNESS)?;
        texture("colors.snow.texture", &snow.texture)?;
    }
    let edge = &c.edge_noise;
    finite(
        "colors.edge_noise.height",
        edge.height,
        &ranges::EDGE_NOISE_HEIGHT,
    )?;
    unit(
        "colors.edge_noise.slope",
        edge.slope,
        &ranges::EDGE_NOISE_SLOPE,
    )?;
    finite_metres(
        "colors.edge_noise.size",
        edge.size,
        &ranges::EDGE_NOISE_SIZE,
    )?;
    unit("colors.creases", c.creases, &ranges::CREASES)?;
    unit(
        "colors.grain.strength",
        c.grain.strength,
        &ranges::GRAIN_STRENGTH,
    )?;
    finite_metres("colors.grain.size", c.grain.size, &ranges::GRAIN_SIZE)?;
    finite(
        "colors.grain.fade_distance",
        c.grain.fade_distance,
        &ranges::GRAIN_FADE_DISTANCE,
    )?;
    unit("colors.height_blend", c.height_blend, &ranges::HEIGHT_BLEND)
}

/// The sea's look (the config's `water`, or a biome's).
pub(super) fn validate_water(w: &Water) -> Result<(), ConfigError> {
    color("water.shallow", w.shallow)?;
    color("water.deep", w.deep)?;
    finite_metres("water.depth", w.depth, &ranges::WATER_DEPTH)?;
    finite("water.foam", w.foam, &ranges::WATER_FOAM)?;
    unit("water.ripples", w.ripples, &ranges::WATER_RIPPLES)?;
    color("water.sky", w.sky)
}

/// A soft range: `min` and `max` within `ends`, `min <= max`, and `fade` within `fade`.
fn soft_range(
    field: &str,
    r: &SoftRange,
    ends: &FieldRange,
    fade: &FieldRange,
) -> Result<(), ConfigError> {
    let allowed = || {
        format!(
            "finite, {} to {}, min <= max",
            ends.min as f32, ends.max as f32
        )
    };
    for (name, v) in [("min", r.min), ("max", r.max)] {
        if !ends.contains_f32(v) {
            return Err(FieldError::new(format!("{field}.{name}"), v, allowed()));
        }
    }
    if r.min > r.max {
        return Err(FieldError::new(format!("{field}.max"), r.max, allowed()));
    }
    finite(&format!("{field}.fade"), r.fade, fade)
}

/// Every field of one scatter layer (`field` is its path, `scatter[i]`), its view distance
/// within the terrain's.
pub(super) fn validate_scatter_layer(
    field: &str,
    l: &ScatterLayer,
    view_distance: f32,
) -> Result<(), ConfigError> {
    FieldError::require(
        !l.name.trim().is_empty(),
        &format!("{field}.name"),
        format!("{:?}", l.name),
        "a non-empty name",
    )?;
    finite_metres(
        &format!("{field}.spacing"),
        l.spacing,
        &ranges::SCATTER_SPACING,
    )?;
    let least = ranges::SCATTER_DENSITY.min as f32;
    let most = ranges::scatter_density_max(l.spacing);
    FieldError::require(
        l.density.is_finite() && (least..=most).contains(&l.density),
        &format!("{field}.density"),
        l.density,
        &format!(
            "finite, {least} to {most} per hectare (one per spacing² at spacing {})",
            l.spacing
        ),
    )?;
    soft_range(
        &format!("{field}.height"),
        &l.height,
        &ranges::SCATTER_HEIGHT,
        &ranges::SCATTER_HEIGHT_FADE,
    )?;
    soft_range(
        &format!("{field}.slope"),
        &l.slope,
        &ranges::SCATTER_SLOPE,
        &ranges::SCATTER_SLOPE_FADE,
    )?;
    if let Some(creases) = &l.creases {
        soft_range(
            &format!("{field}.creases"),
            creases,
            &ranges::SCATTER_CREASES,
            &ranges::SCATTER_CREASES_FADE,
        )?;
    }
    let (low, high) = l.scale;
    let scale = &ranges::SCATTER_SCALE;
    FieldError::require(
        scale.contains_f32(low) && scale.contains_f32(high) && low <= high,
        &format!("{field}.scale"),
        format!("({low}, {high})"),
        &format!(
            "(min, max) with {} < min <= max <= {}",
            scale.min as f32, scale.max as f32
        ),
    )?;
    degrees(
        &format!("{field}.rotation"),
        l.rotation,
        &ranges::SCATTER_ROTATION,
    )?;
    degrees(&format!("{field}.tilt"), l.tilt, &ranges::SCATTER_TILT)?;
    finite_metres(&format!("{field}.sink"), l.sink, &ranges::SCATTER_SINK)?;
    let nearest = ranges::SCATTER_VIEW_DISTANCE.min as f32;
    FieldError::require(
        l.view_distance.is_finite() && (nearest..=view_distance).contains(&l.view_distance),
        &format!("{field}.view_distance"),
        l.view_distance,
        &format!("finite, {nearest} to the terrain's view_distance ({view_distance})"),
    )?;
    if let Some(far) = &l.far_color {
        color(&format!("{field}.far_color.color"), far.color)?;
        unit(
            &format!("{field}.far_color.cover"),
            far.cover,
            &ranges::FAR_COLOR_COVER,
        )?;
    }
    Ok(())
}

/// Samples per side `n` of a chunk grid: `2^k + 1` from `r.min` to `r.max` (5 to 1025;
/// `allowed` goes first in the message).
pub(super) fn grid_resolution(
    field: &str,
    n: u32,
    r: &FieldRange,
    allowed: &str,
) -> Result<(), ConfigError> {
    let (fewest, most) = (r.min as u32 - 1, r.max as u32 - 1);
    let k = n.wrapping_sub(1);
    if k.is_power_of_two() && (fewest..=most).contains(&k) {
        return Ok(());
    }
    let (low, high) = (fewest.trailing_zeros(), most.trailing_zeros());
    let sizes: Vec<String> = (low..=high)
        .map(|k| ((1u32 << k) + 1).to_string())
        .collect();
    Err(FieldError::new(
        field,
        n,
        format!(
            "{allowed}2^k + 1 for k from {low} to {high} ({})",
            sizes.join(", ")
        ),
    ))
}

/// What the navigation meshes treat as walkable.
fn validate_navigation(n: &Navigation) -> Result<(), ConfigError> {
    finite_metres("navigation.radius", n.radius, &ranges::NAVIGATION_RADIUS)?;
    degrees(
        "navigation.max_slope",
        n.max_slope,
        &ranges::NAVIGATION_MAX_SLOPE,
    )?;
    finite_metres(
        "navigation.step_height",
        n.step_height,
        &ranges::NAVIGATION_STEP_HEIGHT,
    )?;
    finite_metres(
        "navigation.agent_radius",
        n.agent_radius,
        &ranges::NAVIGATION_AGENT_RADIUS,
    )?;
    finite_metres(
        "navigation.wade_depth",
        n.wade_depth,
        &ranges::NAVIGATION_WADE_DEPTH,
    )?;
    unit(
        "navigation.road_cost",
        n.road_cost,
        &ranges::NAVIGATION_ROAD_COST,
    )
}

/// The cloud layer.
fn validate_clouds(c: &Clouds) -> Result<(), ConfigError> {
    finite_metres("clouds.altitude", c.altitude, &ranges::CLOUD_ALTITUDE)?;
    finite_metres("clouds.thickness", c.thickness, &ranges::CLOUD_THICKNESS)?;
    unit("clouds.coverage", c.coverage, &ranges::CLOUD_COVERAGE)?;
    finite_metres("clouds.scale", c.scale, &ranges::CLOUD_SCALE)?;
    for (axis, &v) in ["x", "z"].iter().zip(&c.wind) {
        let r = &ranges::CLOUD_WIND;
        FieldError::require(
            r.contains_f32(v),
            "clouds.wind",
            format!("{:?}", c.wind),
            &format!(
                "two numbers from {} to {} metres a second (the {axis} one is {v})",
                r.min as f32, r.max as f32
            ),
        )?;
    }
    unit("clouds.softness", c.softness, &ranges::CLOUD_SOFTNESS)
}

/// The waves of the sea.
fn validate_waves(w: &Waves) -> Result<(), ConfigError> {
    finite_metres("waves.height", w.height, &ranges::WAVE_HEIGHT)?;
    finite_metres("waves.length", w.length, &ranges::WAVE_LENGTH)?;
    degrees("waves.direction", w.direction, &ranges::WAVE_DIRECTION)?;
    finite_metres(
        "waves.shore_depth",
        w.shore_depth,
        &ranges::WAVE_SHORE_DEPTH,
    )?;
    unit("waves.foam", w.foam, &ranges::WAVE_FOAM)
}

impl TerrainConfig {
    /// The fields of the ground, its chunks and its look, in the order of the struct: the noise,
    /// heights and chunks, the levels of detail, the budgets' own ranges, the sea level and
    /// skirts, the colors and the water.
    pub(super) fn validate_fields(&self) -> Result<(), ConfigError> {
        self.noise.validate().map_err(|e| e.within("noise"))?;
        finite("height_scale", self.height_scale, &ranges::HEIGHT_SCALE)?;
        finite("chunk_size", self.chunk_size, &ranges::CHUNK_SIZE)?;
        grid_resolution(
            "chunk_resolution",
            self.chunk_resolution,
            &ranges::CHUNK_RESOLUTION,
            "",
        )?;
        let (nearest, farthest) = (
            ranges::VIEW_DISTANCE_MIN_CHUNKS * self.chunk_size,
            ranges::VIEW_DISTANCE.max as f32,
        );
        FieldError::require(
            self.view_distance.is_finite() && (nearest..=farthest).contains(&self.view_distance),
            "view_distance",
            self.view_distance,
            &format!(
                "finite, from chunk_size / {} to {farthest}",
                1.0 / ranges::VIEW_DISTANCE_MIN_CHUNKS
            ),
        )?;
        let (nearest, farthest) = (
            ranges::LOD_DISTANCE_MIN_CHUNKS * self.chunk_size,
            ranges::LOD_DISTANCE.max as f32,
        );
        FieldError::require(
            self.lod_distance.is_finite() && (nearest..=farthest).contains(&self.lod_distance),
            "lod_distance",
            self.lod_distance,
            &format!(
                "finite, from {} × chunk_size ({nearest}) to {farthest} metres: full detail reaches far enough that neighbouring chunks differ by at most one level and each level has room to morph into the next",
                ranges::LOD_DISTANCE_MIN_CHUNKS
            ),
        )?;
        let morph = self.lod_layout().shortest_morph();
        FieldError::require(
            morph >= MIN_MORPH,
            "lod_distance",
            self.lod_distance,
            &format!(
                "long enough that every level morphs over {MIN_MORPH} of its chunk at least (here {morph:.2}): lengthen lod_distance"
            ),
        )?;
        let deepest = self.lod_distance as f64 * f64::from(MAX_LOD).exp2();
        FieldError::require(
            (self.view_distance as f64) <= deepest,
            "view_distance",
            self.view_distance,
            &format!(
                "at most lod_distance · 2^{MAX_LOD} ({deepest:.0} metres): the coarsest level of detail is {MAX_LOD}"
            ),
        )?;
        count(
            "max_tasks_in_flight",
            self.max_tasks_in_flight,
            &ranges::MAX_TASKS_IN_FLIGHT,
        )?;
        count(
            "max_uploads_per_frame",
            self.max_uploads_per_frame,
            &ranges::MAX_UPLOADS_PER_FRAME,
        )?;
        finite("sea_level", self.sea_level, &ranges::SEA_LEVEL)?;
        if let Some(d) = self.skirt_depth {
            finite("skirt_depth", d, &ranges::SKIRT_DEPTH)?;
        }
        validate_colors(&self.colors)?;
        if let Some(water) = &self.water {
            validate_water(water)?;
        }
        if let Some(clouds) = &self.clouds {
            validate_clouds(clouds)?;
        }
        if let Some(waves) = &self.waves {
            validate_waves(waves)?;
        }
        validate_navigation(&self.navigation)
    }

    /// The stamps and paths: how many, and every field of each.
    pub(super) fn validate_edits(&self) -> Result<(), ConfigError> {
        FieldError::require(
            self.stamps.len() <= crate::MAX_STAMPS,
            "stamps",
            self.stamps.len(),
            &format!("at most {} stamps", crate::MAX_STAMPS),
        )?;
        FieldError::require(
            self.paths.len() <= crate::MAX_PATHS,
            "paths",
            self.paths.len(),
            &format!("at most {} paths", crate::MAX_PATHS),
        )?;
        for (i, stamp) in self.stamps.iter().enumerate() {
            crate::config::validate_fixed_stamp(stamp)
                .map_err(|e| e.within(&format!("stamps[{i}]")))?;
        }
        for (i, path) in self.paths.iter().enumerate() {
            crate::config::validate_path(path).map_err(|e| e.within(&format!("paths[{i}]")))?;
        }
        Ok(())
    }
}
