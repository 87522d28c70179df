//! [`TerrainSpace`]: the terrain's space as landmass sees it. Landmass walks a plane with `z`
//! up; the terrain stands on `x`, `z` with `y` up.

use bevy::math::Vec3;
use landmass::{CoordinateSystem, PointSampleDistance3d};

/// The terrain root's space (`y` up) for landmass (`z` up): `(x, y, z)` is landmass's
/// `(x, −z, y)`, which keeps the turn of every polygon.
pub struct TerrainSpace;

impl CoordinateSystem for TerrainSpace {
    type Coordinate = Vec3;
    type SampleDistance = PointSampleDistance3d;

    const FLIP_POLYGONS: bool = false;

    fn to_landmass(v: &Vec3) -> landmass::Vec3 {
        landmass::Vec3::new(v.x, -v.z, v.y)
    }

    fn from_landmass(v: &landmass::Vec3) -> Vec3 {
        Vec3::new(v.x, v.z, -v.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_comes_back_from_landmass_as_it_went() {
        let p = Vec3::new(1.5, -2.25, 1e6);
        let l = TerrainSpace::to_landmass(&p);
        assert_eq!((l.x, l.y, l.z), (1.5, -1e6, -2.25));
        assert_eq!(TerrainSpace::from_landmass(&l), p);
    }
}
