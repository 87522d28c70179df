//! Where one layer's instances stand in one cell: a pure function of the seed, the layer and
//! world positions, so every cell (in any run) agrees with its neighbours.
//!
//! The world is cut into square cells of side `spacing`. Each cell holds at most one candidate,
//! at a hashed position in the cell, present with probability `density · spacing² / 10⁴`
//! (density being per hectare). A candidate
//! survives when no candidate within `spacing` has a higher hashed priority; two candidates
//! closer than `spacing` are in neighbouring cells, so looking at the eight neighbours is
//! enough, and of two such candidates at most one survives (dart throwing made local, in the
//! spirit of Cook's 1986 Poisson-disk sampling). The rules (height, slope, creases, with soft
//! edges) then keep each survivor with the probability their weights give, using the
//! [`TerrainSampler`]'s exact height, normal and crease mask at its position, and the weights
//! of the biomes the layer grows in. Rules only remove instances, so the spacing holds.

use crate::chunk::ChunkCoord;
use crate::config::{MAX_SCATTER_PER_CHUNK, ScatterLayer, TerrainConfig};
use crate::ground::TerrainSampler;
use bevy::math::{DVec2, Quat, Vec3};
use bevy::prelude::Transform;

/// Everything a task needs to place one layer in one chunk: plain data, cheap to clone.
#[derive(Clone, Debug)]
pub struct ScatterJob {
    sampler: TerrainSampler,
    layer: ScatterLayer,
    /// The layer's own stream of randomness: the seed and the layer's name.
    salt: u64,
    sea_level: f32,
    chunk_size: f32,
    coord: ChunkCoord,
}

impl ScatterJob {
    /// Layer `layer` of `config` in the cell at `coord` (the `chunk_size` square of level-0
    /// chunk `coord`), on the ground of `sampler` (the sampler of `config`). `None` if `config`
    /// has no such layer.
    pub fn new(
        sampler: TerrainSampler,
        config: &TerrainConfig,
        layer: usize,
        coord: ChunkCoord,
    ) -> Option<Self> {
        let layer = config.scatter.get(layer)?.clone();
        let salt = layer
            .name
            .bytes()
            .fold(mix(config.seed ^ 0x5ca7_7e12), |h, b| mix(h ^ b as u64));
        Some(Self {
            sampler,
            layer,
            salt,
            sea_level: config.sea_level,
            chunk_size: config.chunk_size,
            coord,
        })
    }

    /// Which cell (in level-0 chunks).
    pub fn coord(&self) -> ChunkCoord {
        self.coord
    }
}

/// A splitmix64 step: a well-mixed 64-bit hash of `x`.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Uniform in `[0, 1)` from the top 53 bits of `h`.
fn unit(h: u64) -> f64 {
    (h >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// The candidate of one cell.
#[derive(Clone, Copy)]
struct Candidate {
    position: DVec2,
    priority: u64,
    /// The cell's hash, the seed of the instance's own draws.
    hash: u64,
}

impl ScatterJob {
    fn cell_hash(&self, cell: [i64; 2]) -> u64 {
        mix(mix(self.salt ^ cell[0] as u64) ^ (cell[1] as u64).rotate_left(32))
    }

    /// The candidate of `cell`, if it has one.
    fn candidate(&self, cell: [i64; 2]) -> Option<Candidate> {
        let spacing = self.layer.spacing as f64;
        let chance = self.layer.density as f64 * 1e-4 * spacing * spacing;
        let h = self.cell_hash(cell);
        if unit(h) >= chance {
            return None;
        }
        let (u, v) = (unit(mix(h ^ 1)), unit(mix(h ^ 2)));
        Some(Candidate {
            position: DVec2::new(
                (cell[0] as f64 + u) * spacing,
                (cell[1] as f64 + v) * spacing,
            ),
            priority: mix(h ^ 3),
            hash: h,
        })
    }

    /// Whether `c` (of `cell`) wins against every candidate within `spacing` of it.
    fn survives(&self, cell: [i64; 2], c: &Candidate) -> bool {
        let spacing = self.layer.spacing as f64;
        for dz in -1..=1 {
            for dx in -1..=1 {
                let other = [cell[0] + dx, cell[1] + dz];
                if (dx, dz) == (0, 0) {
                    continue;
                }
                if let Some(o) = self.candidate(other)
                    && o.position.distance(c.position) < spacing
                    && (o.priority, other) > (c.priority, cell)
                {
                    return false;
                }
            }
        }
        true
    }
}

/// Places `job`: the transforms of its instances, relative to the cell's corner
/// `(x·size, 0, z·size)`, each with its base on the full-detail ground (less the layer's
/// `sink`, scaled) and its draws of scale, turn and lean. Instances belong to the cell their
/// position falls in, so every position is placed by exactly one cell.
pub fn place_scatter(job: &ScatterJob) -> Vec<Transform> {
    let layer = &job.layer;
    let spacing = layer.spacing as f64;
    let size = job.chunk_size as f64;
    let corner = DVec2::new(job.coord.x as f64, job.coord.y as f64) * size;
    let first = (corner / spacing).floor();
    let last = ((corner + size) / spacing).floor();
    // A layer in force has at most its budget of candidates a chunk (a row and a column more
    // where cells straddle its edges); an unchecked layer with no spacing, or one far too
    // fine, places nothing rather than loop without end.
    let cells = (last - first + DVec2::ONE).element_product();
    if !(spacing > 0.0 && cells.is_finite() && cells <= 4.0 * MAX_SCATTER_PER_CHUNK as f64) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut cz = first.y as i64;
    while cz <= last.y as i64 {
        let mut cx = first.x as i64;
        while cx <= last.x as i64 {
            let cell = [cx, cz];
            cx += 1;
            let Some(c) = job.candidate(cell) else {
                continue;
            };
            let local = c.position - corner;
            let inside = (0.0..size).contains(&local.x) && (0.0..size).contains(&local.y);
            if !inside
                || !job.survives(cell, &c)
                || job.sampler.is_cleared(c.position.x, c.position.y)
            {
                continue;
            }
            let (height, normal, crease) = job.sampler.sample(c.position.x, c.position.y);
            let slope = 1.0 - normal.y;
            let mut weight =
                layer.height.weight(height - job.sea_level) * layer.slope.weight(slope);
            if let Some(creases) = &layer.creases {
                weight *= creases.weight(crease);
            }
            if !layer.biomes.is_empty() && weight > 0.0 {
                // Its biomes' share of the ground there: thinning across their borders.
                weight *= job
                    .sampler
                    .biome_weights(c.position.x, c.position.y)
                    .iter()
                    .filter(|(name, _)| layer.biomes.iter().any(|b| b == name))
                    .map(|(_, w)| w)
                    .sum::<f32>();
            }
            let draw = |k: u64| unit(mix(c.hash ^ (k << 8))) as f32;
            if draw(4) >= weight {
                continue;
            }
            let scale = layer.scale.0 + (layer.scale.1 - layer.scale.0) * draw(5);
            let yaw = (draw(6) * 2.0 - 1.0) * layer.rotation.to_radians();
            let lean_axis = Quat::from_rotation_y(draw(7) * std::f32::consts::TAU) * Vec3::X;
            let lean = Quat::from_axis_angle(lean_axis, draw(8) * layer.tilt.to_radians());
            let up = if layer.align_to_normal {
                Quat::from_rotation_arc(Vec3::Y, normal)
            } else {
                Quat::IDENTITY
            };
            out.push(Transform {
                translation: Vec3::new(local.x as f32, height - layer.sink * scale, local.y as f32),
                rotation: up * lean * Quat::from_rotation_y(yaw),
                scale: Vec3::splat(scale),
            });
        }
        cz += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SoftRange;
    use perlin_core::NoiseTables;
    use std::sync::Arc;

    fn job(layer: ScatterLayer, coord: ChunkCoord) -> ScatterJob {
        let config = TerrainConfig {
            scatter: vec![layer],
            ..TerrainConfig::default()
        };
        let sampler = TerrainSampler::new(Arc::new(NoiseTables::from_seed(config.seed)), &config);
        ScatterJob::new(sampler, &config, 0, coord).expect("the layer")
    }

    #[test]
    fn soft_ranges_fade_linearly() {
        let r = SoftRange {
            min: 10.0,
            max: 20.0,
            fade: 4.0,
        };
        assert_eq!(r.weight(15.0), 1.0);
        assert_eq!(r.weight(22.0), 0.5);
        assert_eq!(r.weight(7.0), 0.25);
        assert_eq!(r.weight(30.0), 0.0);
    }

    #[test]
    fn density_without_rules_is_close_to_the_candidates_that_survive() {
        let layer = ScatterLayer {
            name: "a".into(),
            density: 100.0,
            spacing: 2.0,
            height: SoftRange {
                min: -1e6,
                max: 1e6,
                fade: 0.0,
            },
            ..ScatterLayer::default()
        };
        let placed = place_scatter(&job(layer, ChunkCoord::new(3, -2)));
        // 100 candidates per hectare on 64 m × 64 m: 41; at 4 % of the cells, nearly all
        // survive their neighbours.
        assert!((30..=52).contains(&placed.len()), "{}", placed.len());
    }
}
