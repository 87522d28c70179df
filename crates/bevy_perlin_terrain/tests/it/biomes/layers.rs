//! Scatter layers in a world of biomes: a layer grows only in the biomes it names, and thins
//! across their borders.

use super::sampler;
use bevy::math::IVec2;
use bevy_perlin_terrain::scatter::{ScatterJob, place_scatter};
use terrain_test_support::preset;

#[test]
fn a_layer_grows_only_in_its_biomes_and_thins_across_their_borders() {
    let config = preset("world");
    let sampler = sampler(&config);
    let trees = config
        .scatter
        .iter()
        .position(|l| l.name == "trees")
        .expect("the world's trees");
    assert_eq!(config.scatter[trees].biomes, ["forest"]);
    let forest = |x: f64, z: f64| {
        sampler
            .biome_weights(x, z)
            .iter()
            .find(|(name, _)| *name == "forest")
            .map_or(0.0, |(_, w)| *w)
    };
    // Cells along a line that crosses forest borders: 6 km east in 64 m cells.
    let size = config.chunk_size as f64;
    let (mut inside, mut border, mut outside_cells) = (0, 0, 0);
    for k in 0..100 {
        let coord = IVec2::new(-40 + k, 120);
        let job = ScatterJob::new(sampler.clone(), &config, trees, coord).expect("the layer");
        let placed = place_scatter(&job);
        let corner = (coord.x as f64 * size, coord.y as f64 * size);
        let centre_weight = forest(corner.0 + size / 2.0, corner.1 + size / 2.0);
        if centre_weight == 0.0 && forest(corner.0, corner.1) == 0.0 {
            outside_cells += 1;
        }
        for t in placed {
            let (x, z) = (
                corner.0 + t.translation.x as f64,
                corner.1 + t.translation.z as f64,
            );
            let w = forest(x, z);
            assert!(w > 0.0, "a tree at ({x}, {z}), outside the forest");
            if w < 1.0 {
                border += 1;
            } else {
                inside += 1;
            }
        }
    }
    assert!(inside > 100, "{inside} trees inside the forest");
    assert!(border > 0, "no tree in a border");
    assert!(outside_cells > 10, "the line stays in the forest");
}
