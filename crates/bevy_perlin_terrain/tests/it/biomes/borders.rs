//! Across a border the ground blends both biomes' without seams (neighbours, levels, the
//! sampler, grids), its normals are its heights' slope, and it is no steeper than its steepest
//! biome and its step over the blend.

use super::{alone, border, build, sampler};
use bevy::math::IVec2;
use bevy_perlin_terrain::TerrainSampler;
use std::collections::HashMap;
use terrain_test_support::preset;

#[test]
fn a_border_blends_both_grounds_and_chunks_agree_on_it() {
    let config = preset("world");
    let sampler = sampler(&config);
    let ((x, z), west, east) = border(&sampler, (1000.0, 3000.0));
    let (a, b) = (
        self::sampler(&alone(&config, &west)),
        self::sampler(&alone(&config, &east)),
    );
    let size = config.chunk_size as f64;
    let coord = IVec2::new((x / size).floor() as i32, (z / size).floor() as i32);
    let n = config.chunk_resolution;
    let mesh = build(&config, coord, 0);
    // The chunk is in the blend: its heights are neither biome's alone.
    let mut between = 0;
    for j in (0..n).step_by(4) {
        for i in (0..n).step_by(4) {
            let [px, pz] = config.vertex_position(coord, 0, i, j);
            let k = (j * n + i) as usize;
            let h = mesh.positions[k][1];
            // The sampler: the mesh's bits at a vertex.
            let (sh, sn) = sampler.height_and_normal(px, pz);
            assert_eq!(h.to_bits(), sh.to_bits(), "({px}, {pz})");
            assert_eq!(sn.to_array(), mesh.normals[k]);
            let (ha, hb) = (a.height(px, pz), b.height(px, pz));
            if (h - ha).abs() > 1e-3 && (h - hb).abs() > 1e-3 {
                between += 1;
            }
        }
    }
    assert!(
        between > 200,
        "{between} of 289 vertices blend {west} and {east}"
    );
    // Grids of 6 km around the border (each biome computed over its own part of a grid):
    // where one biome weighs all, they are that biome's own grid, bit for bit; and they equal
    // single samples bit for bit (every fifth checked).
    let (size, step) = (40, 150.0);
    let (mut pure, mut blended) = (0, 0);
    let grid = |s: &TerrainSampler, origin: [f64; 2]| {
        let (mut heights, mut normals) = (
            vec![0.0f32; size * size],
            vec![Default::default(); size * size],
        );
        assert!(s.sample_grid(origin, step, [size, size], &mut heights, &mut normals));
        (heights, normals)
    };
    let own: Vec<_> = config
        .biomes
        .iter()
        .map(|b| (b.name.as_str(), self::sampler(&alone(&config, &b.name))))
        .collect();
    for origin in [
        [x - 6000.0, z - 6000.0],
        [x, z - 6000.0],
        [x - 6000.0, z],
        [x, z],
        [x - 3000.0, z - 3000.0],
    ] {
        let (heights, normals) = grid(&sampler, origin);
        let own_grids: Vec<_> = own.iter().map(|(_, s)| grid(s, origin)).collect();
        for k in (0..size * size).step_by(5) {
            let (px, pz) = (
                origin[0] + (k % size) as f64 * step,
                origin[1] + (k / size) as f64 * step,
            );
            match sampler.biome_weights(px, pz)[..] {
                [(only, weight)] => {
                    assert_eq!(weight, 1.0);
                    let b = own.iter().position(|(name, _)| *name == only);
                    let (own_heights, own_normals) = &own_grids[b.expect("a biome")];
                    assert_eq!(
                        (heights[k].to_bits(), normals[k]),
                        (own_heights[k].to_bits(), own_normals[k]),
                        "{only} at ({px}, {pz})"
                    );
                    pure += 1;
                }
                _ => blended += 1,
            }
            let (sh, sn) = sampler.height_and_normal(px, pz);
            assert_eq!(
                (heights[k].to_bits(), normals[k]),
                (sh.to_bits(), sn),
                "({px}, {pz})"
            );
        }
    }
    assert!(
        pure > 300 && blended > 20,
        "{pure} single, {blended} blended"
    );
    // Same-level neighbours share their edges bit for bit, at full detail and coarser.
    // Levels 5 and 6 (2 and 4 km chunks) span several biomes, each computed over its own part.
    for lod in [0u8, 1, 2, 5, 6] {
        let c = IVec2::new(coord.x >> lod, coord.y >> lod);
        let here = build(&config, c, lod);
        let (east_chunk, north) = (
            build(&config, c + IVec2::X, lod),
            build(&config, c + IVec2::Y, lod),
        );
        let n = n as usize;
        for t in 0..n {
            let (edge, across) = (t * n + n - 1, t * n);
            assert_eq!(here.positions[edge][1], east_chunk.positions[across][1]);
            assert_eq!(here.normals[edge], east_chunk.normals[across]);
            let (edge, across) = ((n - 1) * n + t, t);
            assert_eq!(here.positions[edge][1], north.positions[across][1]);
            assert_eq!(here.normals[edge], north.normals[across]);
        }
        // The morph targets at the parent's vertices are the parent's bits.
        let parent_coord = c.div_euclid(IVec2::splat(2));
        let parent = build(&config, parent_coord, lod + 1);
        let half = (n - 1) / 2;
        let offset = (c - parent_coord * 2).as_uvec2();
        for j in (0..n).step_by(2) {
            for i in (0..n).step_by(2) {
                let p = (j / 2 + offset.y as usize * half) * n + i / 2 + offset.x as usize * half;
                assert_eq!(
                    here.morph[j * n + i][0].to_bits(),
                    parent.positions[p][1].to_bits()
                );
            }
        }
    }
}

/// Heights and slopes (`|∇h|`) of the grid of `size × size` samples `step` apart around
/// `(x, z)`.
fn ground(s: &TerrainSampler, (x, z): (f64, f64), step: f64, size: usize) -> (Vec<f32>, Vec<f32>) {
    let (mut heights, mut normals) = (
        vec![0.0; size * size],
        vec![Default::default(); size * size],
    );
    let half = step * size as f64 / 2.0;
    assert!(s.sample_grid(
        [x - half, z - half],
        step,
        [size, size],
        &mut heights,
        &mut normals
    ));
    let slopes = normals
        .iter()
        .map(|n: &bevy::math::Vec3| (1.0 / (n.y * n.y) - 1.0).max(0.0).sqrt())
        .collect();
    (heights, slopes)
}

#[test]
fn normals_are_the_slope_of_the_heights_in_a_border() {
    let config = preset("world");
    let sampler = sampler(&config);
    let h = 0.01;
    let mut blended = 0;
    for start in [(-3000.0, -9000.0), (1000.0, 3000.0), (20_000.0, 41_000.0)] {
        let ((x, z), ..) = border(&sampler, start);
        for k in 0..100 {
            let (px, pz) = (
                x + (k % 10) as f64 * 123.0 - 600.0,
                z + (k / 10) as f64 * 131.0 - 600.0,
            );
            if sampler.biome_weights(px, pz).len() < 2 {
                continue;
            }
            let (h0, n) = sampler.height_and_normal(px, pz);
            let slope = |h: f64| {
                [
                    (sampler.height(px + h, pz) - sampler.height(px - h, pz)) as f64 / (2.0 * h),
                    (sampler.height(px, pz + h) - sampler.height(px, pz - h)) as f64 / (2.0 * h),
                ]
            };
            let (gx, gz) = (-n.x as f64 / n.y as f64, -n.z as f64 / n.y as f64);
            // The heights' rounding (f32) over the step, and a hundredth of the slope.
            let tolerance =
                1e-3 + 0.005 * (gx.abs() + gz.abs()) + 4.0 * h0.abs() as f64 * 1.2e-7 / h;
            let ([dx, dz], [wx, wz]) = (slope(h), slope(4.0 * h));
            // A crease of the ridged noise within 4 cm: the differences do not settle there.
            if (dx - wx).abs().max((dz - wz).abs()) > tolerance {
                continue;
            }
            blended += 1;
            assert!(
                (gx - dx).abs() < tolerance && (gz - dz).abs() < tolerance,
                "({px}, {pz}): normal's slope ({gx}, {gz}), heights' ({dx}, {dz})"
            );
        }
    }
    assert!(blended > 100, "{blended} points in borders");
}

#[test]
fn a_border_is_no_steeper_than_its_steepest_biome_and_its_step_over_the_blend() {
    let config = preset("world");
    let sampler = sampler(&config);
    let alone: HashMap<&str, TerrainSampler> = config
        .biomes
        .iter()
        .map(|b| (b.name.as_str(), self::sampler(&alone(&config, &b.name))))
        .collect();
    let mut starts = vec![(1000.0, 3000.0), (-3000.0, -9000.0), (20_000.0, 41_000.0)];
    starts.extend((0..12).map(|k| {
        (
            k as f64 * 17_000.0 - 90_000.0,
            k as f64 * -23_000.0 + 60_000.0,
        )
    }));
    let mut worst = 0.0f32;
    let mut blended_points = 0;
    for start in starts {
        let (at, ..) = border(&sampler, start);
        // 1.2 km square around the border point, 8 m apart.
        let (size, step) = (150, 8.0);
        let (_, slopes) = ground(&sampler, at, step, size);
        let grounds: HashMap<&str, (Vec<f32>, Vec<f32>)> = alone
            .iter()
            .map(|(name, s)| (*name, ground(s, at, step, size)))
            .collect();
        let half = step * size as f64 / 2.0;
        for (k, slope) in slopes.iter().enumerate() {
            let (x, z) = (
                at.0 - half + (k % size) as f64 * step,
                at.1 - half + (k / size) as f64 * step,
            );
            let weights = sampler.biome_weights(x, z);
            if weights.len() < 2 {
                continue;
            }
            blended_points += 1;
            let (mut steepest, mut low, mut high) = (0.0f32, f32::INFINITY, f32::NEG_INFINITY);
            for (name, _) in &weights {
                let (h, s) = &grounds[name];
                steepest = steepest.max(s[k]);
                (low, high) = (low.min(h[k]), high.max(h[k]));
            }
            // The blend's own slope: at most 1.5 (the smooth step's steepest) times the spread of
            // the grounds over the blend width, and then some where the climate curves.
            let over = (slope - steepest).max(0.0) / ((high - low) / config.climate.blend);
            worst = worst.max(over);
        }
    }
    assert!(
        blended_points > 20_000,
        "{blended_points} points in borders"
    );
    // The margin `Climate::blend` documents.
    assert!(
        worst <= 2.0,
        "a border's slope exceeds its biomes' by {worst} × spread / blend"
    );
}
