//! Which tiles the navigators want: pure functions over positions, radii and tile squares.

use super::tile::{TILE_SIZE, tile_origin};
use crate::space::distance_to_square;
use bevy::math::{IVec2, Vec2};
use bevy::platform::collections::HashSet;

/// Metres from `p` to tile `coord`'s square (0 inside).
pub(super) fn distance_to_tile(p: Vec2, coord: IVec2) -> f32 {
    distance_to_square(p.as_dvec2(), tile_origin(coord), f64::from(TILE_SIZE)) as f32
}

/// Adds to `out` every tile whose square comes within `radius` of `p`.
pub(super) fn tiles_within(p: Vec2, radius: f32, out: &mut HashSet<IVec2>) {
    let low = ((p - radius) / TILE_SIZE).floor().as_ivec2();
    let high = ((p + radius) / TILE_SIZE).floor().as_ivec2();
    for y in low.y..=high.y {
        for x in low.x..=high.x {
            let coord = IVec2::new(x, y);
            if distance_to_tile(p, coord) <= radius {
                out.insert(coord);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tiles_within_a_radius_are_those_whose_square_it_reaches() {
        let mut out = HashSet::default();
        // 10 m into tile (0, 0) from its corner at the origin, 100 m around.
        tiles_within(Vec2::new(10.0, 10.0), 100.0, &mut out);
        let mut found: Vec<_> = out.into_iter().collect();
        found.sort_by_key(|c| (c.y, c.x));
        let want = [(-1, -1), (0, -1), (-1, 0), (0, 0)].map(|(x, y)| IVec2::new(x, y));
        assert_eq!(found, want);
        // 300 m reaches the tile beyond (256 m to 512 m) along x, and not the corner one past
        // it diagonally (246 m and 246 m away: 348 m).
        let mut out = HashSet::default();
        tiles_within(Vec2::new(10.0, 10.0), 300.0, &mut out);
        assert!(out.contains(&IVec2::new(1, 0)));
        assert!(!out.contains(&IVec2::new(1, 1)));
        assert!(!out.contains(&IVec2::new(2, 0)));
    }
}
