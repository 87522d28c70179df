//! The edited chunks that the `chunk` and `edit_ratios` benches share: one full-detail chunk of
//! a preset, untouched and under each kind of edit.

use bevy::math::{IVec2, Vec3};
use bevy_perlin_terrain::{FixedStamp, StampShape, TerrainConfig, TerrainPath, TerrainStamp};

/// The chunk: x from 192 to 256 m, z from −128 to −64 m.
pub const CHUNK: IVec2 = IVec2::new(3, -2);

/// `plain` untouched (first), with 10 000 stamps elsewhere in the world (the grid index keeps
/// them out of the chunk's way), crossed by a road (one that runs nearly straight over the
/// chunk, one that winds, one that turns sharply, a hairpin), and inside a flat site.
pub fn edited(plain: &TerrainConfig) -> Vec<(&'static str, TerrainConfig)> {
    let far_stamps = TerrainConfig {
        stamps: (0..10_000)
            .map(|k| FixedStamp {
                position: Vec3::new(
                    2_000.0 + (k % 100) as f32 * 50.0,
                    20.0,
                    (k / 100) as f32 * 50.0,
                ),
                stamp: TerrainStamp::default(),
                ..FixedStamp::default()
            })
            .collect(),
        ..plain.clone()
    };
    let road_through = |points: &[Point]| TerrainConfig {
        paths: vec![TerrainPath {
            points: points.iter().map(|&(x, y, z)| Vec3::new(x, y, z)).collect(),
            ..TerrainPath::default()
        }],
        ..plain.clone()
    };
    let site = TerrainConfig {
        stamps: vec![FixedStamp {
            position: Vec3::new(224.0, 20.0, -96.0),
            stamp: TerrainStamp {
                shape: StampShape::Circle { radius: 40.0 },
                falloff: 20.0,
                ..TerrainStamp::default()
            },
            ..FixedStamp::default()
        }],
        ..plain.clone()
    };
    let roads = ROADS
        .iter()
        .map(|&(label, points)| (label, road_through(points)));
    [
        ("untouched", plain.clone()),
        ("10000 stamps elsewhere", far_stamps),
    ]
    .into_iter()
    .chain(roads)
    .chain([("inside a flat site", site)])
    .collect()
}

/// A road's point: `x`, height, `z`.
type Point = (f32, f32, f32);

/// The roads across the chunk, by their points: one that runs nearly straight over it, two that
/// curve inside it (cut into more pieces), and a hairpin whose legs lie about 20 m apart
/// inside it.
const ROADS: [(&str, &[Point]); 4] = [
    (
        "crossed by a road",
        &[
            (150.0, 20.0, -150.0),
            (224.0, 25.0, -96.0),
            (300.0, 18.0, -40.0),
        ],
    ),
    (
        "crossed by a winding road",
        &[
            (150.0, 20.0, -150.0),
            (200.0, 22.0, -115.0),
            (235.0, 24.0, -100.0),
            (280.0, 21.0, -60.0),
        ],
    ),
    (
        "crossed by a sharp bend",
        &[
            (180.0, 20.0, -140.0),
            (245.0, 23.0, -105.0),
            (205.0, 21.0, -50.0),
        ],
    ),
    (
        "crossed by a hairpin",
        &[
            (190.0, 20.0, -120.0),
            (250.0, 25.0, -100.0),
            (195.0, 18.0, -80.0),
        ],
    ),
];
