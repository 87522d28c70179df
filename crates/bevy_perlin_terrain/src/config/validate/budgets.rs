//! The work and memory a config may ask for: the chunks and meshes around a viewer, the meshes
//! built and uploaded at once, the colliders around a body, the scatter instances. Each error
//! names the field to change and the bound it breaks.

use super::ConfigError;
use super::fields::{finite, grid_resolution, validate_scatter_layer};
use crate::config::ranges;
use crate::config::{MAX_FAR_COLORS, MAX_SCATTER_LAYERS, TerrainConfig};
use perlin_core::FieldError;

/// The most chunks the quadtree around one viewer may hold ([`LodLayout::most_chunks`], an
/// upper bound). The planner walks them whenever a viewer moves a quarter of a chunk.
///
/// [`LodLayout::most_chunks`]: crate::config::LodLayout::most_chunks
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
fn chunk_mesh_bytes(n: u64) -> u64 {
    let vertices = n * n + 4 * n;
    let indices = 6 * (n - 1) * (n - 1) + 48 * (n - 1);
    let index_bytes = if vertices <= u16::MAX as u64 { 2 } else { 4 };
    vertices * 72 + indices * index_bytes
}

/// `2^k` for the human-readable limit messages.
fn mib(bytes: u64) -> String {
    format!("{} MiB", bytes >> 20)
}

impl TerrainConfig {
    /// The collision radius and resolution, and the colliders they ask for around one entity.
    pub(super) fn validate_collision(&self) -> Result<(), ConfigError> {
        let c = &self.collision;
        finite("collision.radius", c.radius, &ranges::COLLISION_RADIUS)?;
        if let Some(n) = c.resolution {
            grid_resolution(
                "collision.resolution",
                n,
                &ranges::COLLISION_RESOLUTION,
                "None (chunk_resolution) or ",
            )?;
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
    pub(super) fn validate_scatter(&self) -> Result<(), ConfigError> {
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
    pub(super) fn validate_limits(&self) -> Result<(), ConfigError> {
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
