//! `TerrainConfig::validate`: every out-of-range value is reported with its field's path in the
//! RON file and the allowed range, and so is every config that would ask for more work than a
//! frame or the memory can hold.

use super::{
    Biome, CLIMATE_AXES, LayerTexture, MAX_BANDS, MAX_BIOMES, MAX_FAR_COLORS, MAX_LOD,
    MAX_SCATTER_LAYERS, MIN_MORPH, ScatterLayer, SoftRange, TerrainColors, TerrainConfig, Water,
};
use perlin_core::FieldError;

/// A field of a [`TerrainConfig`] outside its allowed range: the same error as
/// [`perlin_core::Fbm::validate`]'s, with the field's full path (`noise.octaves`).
pub type ConfigError = FieldError;

/// The most chunks the quadtree around one viewer may hold ([`LodLayout::most_chunks`], an
/// upper bound). The planner walks them whenever a viewer moves a quarter of a chunk.
///
/// [`LodLayout::most_chunks`]: super::LodLayout::most_chunks
pub const MAX_VIEW_CHUNKS: usize = 16_384;

/// The most memory the chunk meshes around one viewer may take, in bytes (2 GiB): the tree's
/// chunks, each with its vertices (72 bytes each at most) and indices.
pub const MAX_MESH_BYTES: u64 = 2 << 30;

/// The most memory chunk meshes being built at once may hold, in bytes (512 MiB): a full-detail
/// chunk per task in flight.
pub const MAX_IN_FLIGHT_BYTES: u64 = 512 << 20;

/// The most bytes of mesh turned into entities in one frame (64 MiB): a full-detail chunk per
/// upload.
pub const MAX_UPLOAD_BYTES: u64 = 64 << 20;

/// The most chunks that may have a collider around one `TerrainColliderAnchor` entity (about
/// π · (radius / chunk_size + 1.5)²).
pub const MAX_COLLIDER_CHUNKS: usize = 1024;

/// The most memory the colliders around one `TerrainColliderAnchor` entity may take, in bytes
/// (256 MiB; about 8 bytes per height sample).
pub const MAX_COLLIDER_BYTES: u64 = 256 << 20;

/// The most instance candidates of one scatter layer in one chunk (`(chunk_size / spacing)²`):
/// what one placement task looks at.
pub const MAX_SCATTER_PER_CHUNK: usize = 1 << 18;

/// The most instances (candidates) all scatter layers may put in view around one viewer (each
/// layer's density over the disc of its view distance): entities the app keeps.
pub const MAX_SCATTER_IN_VIEW: usize = 400_000;

/// Bytes of a chunk mesh of `n × n` vertices with skirts, at most: 72 per vertex (position,
/// normal, UV, crease mask, morph target, color), and 2 or 4 per index.
pub(crate) fn chunk_mesh_bytes(n: u64) -> u64 {
    let vertices = n * n + 4 * n;
    let indices = 6 * (n - 1) * (n - 1) + 48 * (n - 1);
    let index_bytes = if vertices <= u16::MAX as u64 { 2 } else { 4 };
    vertices * 72 + indices * index_bytes
}

fn range(field: &str, value: f32, low: f32, high: f32, allowed: &str) -> Result<(), ConfigError> {
    FieldError::require(
        value.is_finite() && value >= low && value <= high,
        field,
        value,
        allowed,
    )
}

/// Climate lattice nodes a side of the coarsest chunk, at most.
const MAX_CLIMATE_NODES: f64 = 256.0;

/// One biome's fields, and that its climate ranges overlap none of `before`'s.
fn validate_biome(b: &Biome, before: &[Biome]) -> Result<(), ConfigError> {
    FieldError::require(
        !b.name.is_empty() && b.name.chars().count() <= 64,
        "name",
        format!("{:?}", b.name),
        "1 to 64 characters",
    )?;
    if let Some(j) = before.iter().position(|o| o.name == b.name) {
        return Err(FieldError::new(
            "name",
            format!("{:?}", b.name),
            format!("a name of its own (biomes[{j}] has it)"),
        ));
    }
    for (axis, (low, high)) in CLIMATE_AXES.iter().zip(b.ranges()) {
        FieldError::require(
            low.is_finite()
                && high.is_finite()
                && (-1.0..=1.0).contains(&low)
                && (-1.0..=1.0).contains(&high)
                && low < high,
            axis,
            format!("({low}, {high})"),
            "(low, high) with -1 <= low < high <= 1 (a range that is not empty)",
        )?;
    }
    b.noise.validate().map_err(|e| e.within("noise"))?;
    range(
        "height_scale",
        b.height_scale,
        1e-3,
        1e5,
        "finite, 0.001 to 100000",
    )?;
    range(
        "height_offset",
        b.height_offset,
        -1e5,
        1e5,
        "finite, -100000 to 100000",
    )?;
    if let Some(colors) = &b.colors {
        validate_colors(colors)?;
    }
    if let Some(water) = &b.water {
        validate_water(water)?;
    }
    for (j, other) in before.iter().enumerate() {
        let overlap = b
            .ranges()
            .into_iter()
            .zip(other.ranges())
            .map(|((a0, a1), (b0, b1))| a1.min(b1) - a0.max(b0))
            .collect::<Vec<_>>();
        if overlap.iter().all(|&o| o > 0.0) {
            // The axis where the overlap is thinnest: the easiest to move apart.
            let axis = (0..3)
                .min_by(|&a, &b| overlap[a].total_cmp(&overlap[b]))
                .unwrap_or(0);
            let (low, high) = b.ranges()[axis];
            let (o0, o1) = other.ranges()[axis];
            return Err(FieldError::new(
                CLIMATE_AXES[axis],
                format!("({low}, {high})"),
                format!(
                    "a range that does not overlap biomes[{j}] ({:?}, {} ({o0}, {o1})) where their other ranges overlap too: the ranges of two biomes may touch but not overlap",
                    other.name, CLIMATE_AXES[axis]
                ),
            ));
        }
    }
    Ok(())
}

/// A climate point in no biome's ranges, reported on `biomes`. The ranges' ends cut each axis
/// into intervals; the biomes cover climate space when they cover the centre of every cell.
fn climate_gap(biomes: &[Biome]) -> Result<(), ConfigError> {
    let cuts: [Vec<f32>; 3] = std::array::from_fn(|axis| {
        let mut cut: Vec<f32> = biomes
            .iter()
            .flat_map(|b| {
                let (low, high) = b.ranges()[axis];
                [low, high]
            })
            .chain([-1.0, 1.0])
            .collect();
        cut.sort_by(f32::total_cmp);
        cut.dedup();
        cut
    });
    let centres = |axis: usize| {
        cuts[axis]
            .windows(2)
            .map(|w| 0.5 * (w[0] + w[1]))
            .collect::<Vec<_>>()
    };
    let [ts, ms, cs] = [centres(0), centres(1), centres(2)];
    for &t in &ts {
        for &m in &ms {
            for &c in &cs {
                let inside = |b: &Biome| {
                    b.ranges()
                        .iter()
                        .zip([t, m, c])
                        .all(|(&(low, high), v)| low <= v && v <= high)
                };
                if !biomes.iter().any(inside) {
                    return Err(FieldError::new(
                        "biomes",
                        format!(
                            "no biome at temperature {t:.3}, moisture {m:.3}, continentalness {c:.3}"
                        ),
                        "biomes whose climate ranges cover every climate point (-1 to 1 on each axis): widen a biome's range or add one there",
                    ));
                }
            }
        }
    }
    Ok(())
}

fn color(field: &str, c: [f32; 3]) -> Result<(), ConfigError> {
    FieldError::require(
        c.iter().all(|v| v.is_finite() && (0.0..=1.0).contains(v)),
        field,
        format!("{c:?}"),
        "three numbers from 0 to 1",
    )
}

fn unit(field: &str, value: f32) -> Result<(), ConfigError> {
    range(field, value, 0.0, 1.0, "0 to 1")
}

fn metres(field: &str, value: f32, high: f32) -> Result<(), ConfigError> {
    range(field, value, 0.0, high, &format!("finite, 0 to {high}"))
}

fn texture(field: &str, texture: &Option<LayerTexture>) -> Result<(), ConfigError> {
    let Some(t) = texture else { return Ok(()) };
    FieldError::require(
        !t.albedo.is_empty(),
        &format!("{field}.albedo"),
        "\"\"",
        "a texture name or asset path",
    )?;
    range(
        &format!("{field}.size"),
        t.size,
        0.01,
        1e4,
        "finite, 0.01 to 10000 metres",
    )
}

fn validate_colors(c: &TerrainColors) -> Result<(), ConfigError> {
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
        unit(&format!("{field}.roughness"), band.roughness)?;
        texture(&format!("{field}.texture"), &band.texture)?;
    }
    metres("colors.band_blend", c.band_blend, 1e4)?;
    color("colors.rock", c.rock)?;
    unit("colors.rock_slope", c.rock_slope)?;
    unit("colors.rock_blend", c.rock_blend)?;
    unit("colors.rock_roughness", c.rock_roughness)?;
    texture("colors.rock_texture", &c.rock_texture)?;
    if let Some(snow) = &c.snow {
        color("colors.snow.color", snow.color)?;
        range(
            "colors.snow.from",
            snow.from,
            -1e6,
            1e6,
            "finite, -1000000 to 1000000",
        )?;
        metres("colors.snow.blend", snow.blend, 1e4)?;
        unit("colors.snow.max_slope", snow.max_slope)?;
        unit("colors.snow.slope_blend", snow.slope_blend)?;
        unit("colors.snow.roughness", snow.roughness)?;
        texture("colors.snow.texture", &snow.texture)?;
    }
    metres("colors.edge_noise.height", c.edge_noise.height, 1e4)?;
    unit("colors.edge_noise.slope", c.edge_noise.slope)?;
    range(
        "colors.edge_noise.size",
        c.edge_noise.size,
        0.1,
        1e5,
        "finite, 0.1 to 100000 metres",
    )?;
    unit("colors.creases", c.creases)?;
    unit("colors.grain.strength", c.grain.strength)?;
    range(
        "colors.grain.size",
        c.grain.size,
        0.01,
        100.0,
        "finite, 0.01 to 100 metres",
    )?;
    metres("colors.grain.fade_distance", c.grain.fade_distance, 1e5)?;
    unit("colors.height_blend", c.height_blend)
}

fn validate_water(w: &Water) -> Result<(), ConfigError> {
    color("water.shallow", w.shallow)?;
    color("water.deep", w.deep)?;
    range(
        "water.depth",
        w.depth,
        0.01,
        1e4,
        "finite, 0.01 to 10000 metres",
    )?;
    metres("water.foam", w.foam, 100.0)?;
    unit("water.waves", w.waves)?;
    color("water.sky", w.sky)
}

fn soft_range(field: &str, r: &SoftRange, low: f32, high: f32) -> Result<(), ConfigError> {
    let allowed = format!("finite, {low} to {high}, min <= max");
    for (name, v) in [("min", r.min), ("max", r.max)] {
        range(&format!("{field}.{name}"), v, low, high, &allowed)?;
    }
    FieldError::require(r.min <= r.max, &format!("{field}.max"), r.max, &allowed)?;
    range(
        &format!("{field}.fade"),
        r.fade,
        0.0,
        high - low,
        &format!("finite, 0 to {}", high - low),
    )
}

fn validate_scatter_layer(
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
    range(
        &format!("{field}.spacing"),
        l.spacing,
        0.1,
        1e4,
        "finite, 0.1 to 10000 metres",
    )?;
    let most = 1e4 / (l.spacing * l.spacing);
    range(
        &format!("{field}.density"),
        l.density,
        0.0,
        most,
        &format!(
            "finite, 0 to {most} per hectare (one per spacing² at spacing {})",
            l.spacing
        ),
    )?;
    soft_range(&format!("{field}.height"), &l.height, -1e6, 1e6)?;
    soft_range(&format!("{field}.slope"), &l.slope, 0.0, 1.0)?;
    if let Some(creases) = &l.creases {
        soft_range(&format!("{field}.creases"), creases, 0.0, 1.0)?;
    }
    let (low, high) = l.scale;
    FieldError::require(
        low.is_finite() && high.is_finite() && low > 0.0 && low <= high && high <= 1e3,
        &format!("{field}.scale"),
        format!("({low}, {high})"),
        "(min, max) with 0 < min <= max <= 1000",
    )?;
    range(
        &format!("{field}.rotation"),
        l.rotation,
        0.0,
        180.0,
        "0 to 180 degrees",
    )?;
    range(
        &format!("{field}.tilt"),
        l.tilt,
        0.0,
        90.0,
        "0 to 90 degrees",
    )?;
    range(
        &format!("{field}.sink"),
        l.sink,
        -1e3,
        1e3,
        "finite, -1000 to 1000 metres",
    )?;
    range(
        &format!("{field}.view_distance"),
        l.view_distance,
        0.0,
        view_distance,
        &format!("finite, 0 to the terrain's view_distance ({view_distance})"),
    )?;
    if let Some(far) = &l.far_color {
        color(&format!("{field}.far_color.color"), far.color)?;
        unit(&format!("{field}.far_color.cover"), far.cover)?;
    }
    Ok(())
}

/// Samples per side `n` of a chunk grid: `2^k + 1` for `k` from 2 to 10 (`allowed` goes first
/// in the message).
fn grid_resolution(field: &str, n: u32, allowed: &str) -> Result<(), ConfigError> {
    let k = n.wrapping_sub(1);
    FieldError::require(
        k.is_power_of_two() && (4..=1024).contains(&k),
        field,
        n,
        &format!("{allowed}2^k + 1 for k from 2 to 10 (5, 9, 17, 33, 65, 129, 257, 513, 1025)"),
    )
}

/// `2^k` for the human-readable limit messages.
fn mib(bytes: u64) -> String {
    format!("{} MiB", bytes >> 20)
}

impl TerrainConfig {
    /// Returns the first field that makes no sense, with its allowed range; then the first limit
    /// the config would break ([`MAX_VIEW_CHUNKS`], [`MAX_MESH_BYTES`], [`MAX_IN_FLIGHT_BYTES`],
    /// [`MAX_UPLOAD_BYTES`]), naming the field to change and the bound. The chunk bounds are
    /// those of the quadtree, so views of 50 km and more validate at the default chunk size.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.noise.validate().map_err(|e| e.within("noise"))?;
        range(
            "height_scale",
            self.height_scale,
            1e-3,
            1e5,
            "finite, 0.001 to 100000",
        )?;
        range(
            "chunk_size",
            self.chunk_size,
            0.5,
            1e5,
            "finite, 0.5 to 100000",
        )?;
        grid_resolution("chunk_resolution", self.chunk_resolution, "")?;
        range(
            "view_distance",
            self.view_distance,
            self.chunk_size * 0.5,
            1e6,
            "finite, from chunk_size / 2 to 1000000",
        )?;
        range(
            "lod_distance",
            self.lod_distance,
            4.5 * self.chunk_size,
            1e6,
            &format!(
                "finite, from 4.5 × chunk_size ({}) to 1000000 metres: full detail reaches far enough that neighbouring chunks differ by at most one level and each level has room to morph into the next",
                4.5 * self.chunk_size
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
        for (field, v) in [
            ("max_tasks_in_flight", self.max_tasks_in_flight),
            ("max_uploads_per_frame", self.max_uploads_per_frame),
        ] {
            FieldError::require((1..=256).contains(&v), field, v, "1 to 256")?;
        }
        range(
            "sea_level",
            self.sea_level,
            -1e6,
            1e6,
            "finite, -1000000 to 1000000",
        )?;
        if let Some(d) = self.skirt_depth {
            range("skirt_depth", d, 0.0, 1e5, "finite, 0 to 100000")?;
        }
        validate_colors(&self.colors)?;
        if let Some(water) = &self.water {
            validate_water(water)?;
        }
        self.validate_limits()?;
        self.validate_collision()?;
        self.validate_scatter()?;
        self.validate_edits()?;
        self.validate_biomes()
    }

    /// The climate and the biomes: each biome's fields, then that their climate ranges tile
    /// climate space (no overlap, no gap), then the climate nodes the coarsest chunk needs.
    fn validate_biomes(&self) -> Result<(), ConfigError> {
        if self.biomes.is_empty() {
            return Ok(());
        }
        FieldError::require(
            self.biomes.len() <= MAX_BIOMES,
            "biomes",
            self.biomes.len(),
            &format!("at most {MAX_BIOMES} biomes"),
        )?;
        let c = &self.climate;
        range(
            "climate.scale",
            c.scale,
            500.0,
            1e6,
            "finite, 500 to 1000000 metres",
        )?;
        range(
            "climate.continent_scale",
            c.continent_scale,
            500.0,
            1e6,
            "finite, 500 to 1000000 metres",
        )?;
        let widest = 0.25 * c.scale.min(c.continent_scale);
        range(
            "climate.blend",
            c.blend,
            1.0,
            widest,
            &format!("finite, 1 to a quarter of the smaller climate scale ({widest} metres)"),
        )?;
        for (i, biome) in self.biomes.iter().enumerate() {
            validate_biome(biome, &self.biomes[..i])
                .map_err(|e| e.within(&format!("biomes[{i}]")))?;
        }
        climate_gap(&self.biomes)?;
        // The coarsest chunk reads the climate nodes over its area: a bounded number.
        let top = self.chunk_size as f64 * f64::from(self.max_lod()).exp2();
        let smaller = c.scale.min(c.continent_scale) as f64;
        let nodes = top * super::biome::NODES_PER_SCALE / smaller;
        let least = (top * super::biome::NODES_PER_SCALE / MAX_CLIMATE_NODES).ceil();
        FieldError::require(
            nodes <= MAX_CLIMATE_NODES,
            if c.scale <= c.continent_scale {
                "climate.scale"
            } else {
                "climate.continent_scale"
            },
            smaller,
            &format!(
                "at least {least} metres for the coarsest chunk of this view ({top:.0} m a side: its climate is read from at most {MAX_CLIMATE_NODES} nodes a side), or a shorter view_distance"
            ),
        )
    }

    /// The stamps and paths: how many, and every field of each.
    fn validate_edits(&self) -> Result<(), ConfigError> {
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
            super::edits::validate_fixed_stamp(stamp)
                .map_err(|e| e.within(&format!("stamps[{i}]")))?;
        }
        for (i, path) in self.paths.iter().enumerate() {
            super::edits::validate_path(path).map_err(|e| e.within(&format!("paths[{i}]")))?;
        }
        Ok(())
    }

    /// The collision radius and resolution, and the colliders they ask for around one entity.
    fn validate_collision(&self) -> Result<(), ConfigError> {
        let c = &self.collision;
        metres("collision.radius", c.radius, 1e5)?;
        if let Some(n) = c.resolution {
            grid_resolution("collision.resolution", n, "None (chunk_resolution) or ")?;
        }
        let chunks = self.chunks_within(
            "collision.radius",
            c.radius,
            1.5,
            MAX_COLLIDER_CHUNKS,
            "colliders around one entity",
        )?;
        let n = self.collision_resolution() as f64;
        let bytes = chunks * n * n * 8.0;
        FieldError::require(
            bytes <= MAX_COLLIDER_BYTES as f64,
            "collision.resolution",
            self.collision_resolution(),
            &format!(
                "colliders around one entity of at most {} (about {} MiB here): lower collision.resolution or collision.radius",
                mib(MAX_COLLIDER_BYTES),
                (bytes / (1u64 << 20) as f64) as u64
            ),
        )
    }

    /// Every scatter layer, unique names, and the instances they ask for.
    fn validate_scatter(&self) -> Result<(), ConfigError> {
        FieldError::require(
            self.scatter.len() <= MAX_SCATTER_LAYERS,
            "scatter",
            self.scatter.len(),
            &format!("at most {MAX_SCATTER_LAYERS} layers"),
        )?;
        let far = self
            .scatter
            .iter()
            .filter(|l| l.far_color.is_some())
            .count();
        FieldError::require(
            far <= MAX_FAR_COLORS,
            "scatter",
            format!("{far} layers with a far_color"),
            &format!("at most {MAX_FAR_COLORS} layers with a far_color"),
        )?;
        let mut in_view = 0.0;
        for (i, layer) in self.scatter.iter().enumerate() {
            let field = format!("scatter[{i}]");
            validate_scatter_layer(&field, layer, self.view_distance)?;
            for (j, name) in layer.biomes.iter().enumerate() {
                FieldError::require(
                    self.biomes.iter().any(|b| &b.name == name),
                    &format!("{field}.biomes[{j}]"),
                    format!("{name:?}"),
                    "the name of one of the config's biomes",
                )?;
            }
            FieldError::require(
                self.scatter[..i].iter().all(|l| l.name != layer.name),
                &format!("{field}.name"),
                format!("{:?}", layer.name),
                "a name no other layer has",
            )?;
            let per_chunk = (self.chunk_size as f64 / layer.spacing as f64).powi(2);
            FieldError::require(
                per_chunk <= MAX_SCATTER_PER_CHUNK as f64,
                &format!("{field}.spacing"),
                layer.spacing,
                &format!(
                    "at least {:.3} m at chunk_size {} (at most {MAX_SCATTER_PER_CHUNK} candidates per chunk)",
                    self.chunk_size as f64 / (MAX_SCATTER_PER_CHUNK as f64).sqrt(),
                    self.chunk_size
                ),
            )?;
            let reach = layer.view_distance as f64 + self.chunk_size as f64;
            in_view += std::f64::consts::PI * reach * reach * layer.density as f64 / 1e4;
            if in_view > MAX_SCATTER_IN_VIEW as f64 {
                return Err(FieldError::new(
                    format!("{field}.density"),
                    layer.density,
                    format!(
                        "at most {MAX_SCATTER_IN_VIEW} instances in view over all layers (about {in_view:.0} up to this one): lower the density or the view_distance"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The chunks within `radius` (plus `margin` chunks) of a point, about
    /// π · (radius / chunk_size + margin)², if at most `max`; else the error for `field`.
    fn chunks_within(
        &self,
        field: &str,
        radius: f32,
        margin: f64,
        max: usize,
        what: &str,
    ) -> Result<f64, ConfigError> {
        let size = self.chunk_size as f64;
        let reach = radius as f64 / size + margin;
        let count = std::f64::consts::PI * reach * reach;
        if count <= max as f64 {
            return Ok(count);
        }
        let most = size * ((max as f64 / std::f64::consts::PI).sqrt() - margin);
        Err(FieldError::new(
            field,
            radius,
            format!(
                "at most {max} {what} (about {count:.0} here): {field} up to {most:.0} for chunk_size {}",
                self.chunk_size
            ),
        ))
    }

    /// The bounds on the work a config asks for (see [`TerrainConfig::validate`]).
    fn validate_limits(&self) -> Result<(), ConfigError> {
        // The quadtree around one viewer: its chunks, and their meshes.
        let chunks = self.lod_layout().most_chunks();
        if chunks > MAX_VIEW_CHUNKS as f64 {
            return Err(FieldError::new(
                "view_distance",
                self.view_distance,
                format!(
                    "at most {MAX_VIEW_CHUNKS} chunks in view (about {chunks:.0} here with lod_distance {} and chunk_size {}): shorten view_distance or lengthen lod_distance only as far as needed, or raise chunk_size",
                    self.lod_distance, self.chunk_size
                ),
            ));
        }
        let chunk = chunk_mesh_bytes(self.chunk_resolution as u64);
        let bytes = chunks * chunk as f64;
        if bytes > MAX_MESH_BYTES as f64 {
            return Err(FieldError::new(
                "view_distance",
                self.view_distance,
                format!(
                    "meshes in view of at most {} (about {} MiB here: {chunks:.0} chunks at chunk_resolution {}): shorten view_distance or lower chunk_resolution",
                    mib(MAX_MESH_BYTES),
                    (bytes / (1u64 << 20) as f64) as u64,
                    self.chunk_resolution
                ),
            ));
        }
        let tasks = (MAX_IN_FLIGHT_BYTES / chunk).max(1);
        FieldError::require(
            self.max_tasks_in_flight as u64 <= tasks,
            "max_tasks_in_flight",
            self.max_tasks_in_flight,
            &format!(
                "at most {tasks} at chunk_resolution {} (each chunk being built holds {} KiB; in flight at most {})",
                self.chunk_resolution,
                chunk >> 10,
                mib(MAX_IN_FLIGHT_BYTES)
            ),
        )?;
        let uploads = (MAX_UPLOAD_BYTES / chunk).max(1);
        FieldError::require(
            self.max_uploads_per_frame as u64 <= uploads,
            "max_uploads_per_frame",
            self.max_uploads_per_frame,
            &format!(
                "at most {uploads} at chunk_resolution {} (at most {} of meshes per frame)",
                self.chunk_resolution,
                mib(MAX_UPLOAD_BYTES)
            ),
        )
    }
}
