//! Which chunks the viewers want, at which level of detail: pure functions of positions and
//! the config, so they are tested without an `App`.

use crate::chunk::{ChunkCoord, chunk_at, chunk_centre};
use crate::config::TerrainConfig;
use bevy::math::{IVec2, Vec3, Vec3Swizzles};
use bevy::platform::collections::HashMap;

/// A wanted chunk: its level of detail and its distance to the nearest viewer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Want {
    /// Level of detail for that distance.
    pub lod: u8,
    /// Metres from the chunk's centre to the nearest viewer (horizontal).
    pub distance: f32,
}

/// Horizontal distance from the nearest viewer to chunk `coord`'s centre.
pub(crate) fn nearest_distance(viewers: &[Vec3], coord: ChunkCoord, chunk_size: f32) -> f32 {
    let centre = chunk_centre(coord, chunk_size);
    viewers
        .iter()
        .map(|v| (v.xz() - centre).length())
        .fold(f32::INFINITY, f32::min)
}

/// Every chunk whose centre lies within `config.view_distance` of a viewer, with its level of
/// detail: the plain choice for its distance, except that a chunk on screen at `current(coord)`
/// keeps its level within half a chunk of a threshold, so chunks do not flip back and forth as a
/// viewer hovers at the boundary.
pub(crate) fn wanted_chunks(
    viewers: &[Vec3],
    config: &TerrainConfig,
    current: impl Fn(ChunkCoord) -> Option<u8>,
) -> HashMap<ChunkCoord, Want> {
    let size = config.chunk_size;
    let radius = config.view_distance;
    let reach = (radius / size).ceil() as i32 + 1;
    let margin = size * 0.5;
    let mut wanted = HashMap::default();
    for viewer in viewers.iter().filter(|v| v.is_finite()) {
        let here = chunk_at(*viewer, size);
        for dz in -reach..=reach {
            for dx in -reach..=reach {
                let coord = here + IVec2::new(dx, dz);
                if wanted.contains_key(&coord) {
                    continue;
                }
                let distance = nearest_distance(viewers, coord, size);
                if distance <= radius {
                    let lod = match current(coord) {
                        Some(lod) => lod_with_hysteresis(config, lod, distance, margin),
                        None => config.lod_for(distance),
                    };
                    wanted.insert(coord, Want { lod, distance });
                }
            }
        }
    }
    wanted
}

/// The level of detail a chunk showing `current` should switch to at `distance`: the plain
/// choice, except that a chunk within `margin` of a threshold keeps its level.
pub(crate) fn lod_with_hysteresis(
    config: &TerrainConfig,
    current: u8,
    distance: f32,
    margin: f32,
) -> u8 {
    let near = config.lod_for((distance - margin).max(0.0));
    let far = config.lod_for(distance + margin);
    if (near..=far).contains(&current) {
        current
    } else {
        config.lod_for(distance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wanted_chunks_surround_the_viewer_with_detail_falling_off() {
        let config = TerrainConfig::default();
        let wanted = wanted_chunks(&[Vec3::new(10.0, 50.0, -20.0)], &config, |_| None);
        let here = chunk_at(Vec3::new(10.0, 0.0, -20.0), config.chunk_size);
        assert_eq!(wanted[&here].lod, 0);
        let area = std::f32::consts::PI * config.view_distance.powi(2) / config.chunk_size.powi(2);
        assert!(
            (wanted.len() as f32 - area).abs() < area * 0.1,
            "{} vs {area}",
            wanted.len()
        );
        assert!(wanted.values().all(|w| w.distance <= config.view_distance));
        assert_eq!(wanted.values().map(|w| w.lod).max(), Some(config.max_lod()));
    }

    #[test]
    fn hysteresis_keeps_the_level_near_a_threshold() {
        let config = TerrainConfig::default();
        let t = config.lod_distances[0];
        assert_eq!(lod_with_hysteresis(&config, 0, t + 5.0, 20.0), 0);
        assert_eq!(lod_with_hysteresis(&config, 1, t - 5.0, 20.0), 1);
        assert_eq!(lod_with_hysteresis(&config, 0, t + 50.0, 20.0), 1);
        assert_eq!(lod_with_hysteresis(&config, 3, 0.0, 20.0), 0);
    }

    #[test]
    fn no_viewer_wants_nothing() {
        assert!(wanted_chunks(&[], &TerrainConfig::default(), |_| None).is_empty());
        let nowhere = [Vec3::splat(f32::NAN)];
        assert!(wanted_chunks(&nowhere, &TerrainConfig::default(), |_| None).is_empty());
    }
}
