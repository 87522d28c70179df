//! One chunk without an `App`: levels of detail nest bit for bit, and the sampler's
//! conveniences agree with its plain form and with the mesh.

use bevy::math::{IVec2, Vec2, Vec3};
use bevy_perlin_terrain::chunk::{ChunkJob, build_chunk_mesh};
use bevy_perlin_terrain::perlin_core::{DomainWarp, Erosion, Fbm, NoiseTables};
use bevy_perlin_terrain::{TerrainConfig, TerrainSampler};
use std::sync::Arc;

fn configs() -> Vec<TerrainConfig> {
    let plain = TerrainConfig::default();
    let shaped = TerrainConfig {
        noise: Fbm {
            warp: Some(DomainWarp {
                amplitude: 40.0,
                frequency: 0.003,
            }),
            erosion: Some(Erosion::default()),
            ..plain.noise
        },
        ..plain.clone()
    };
    vec![plain, shaped]
}

#[test]
fn a_coarser_level_keeps_every_other_vertex_bit_for_bit() {
    for config in configs() {
        let tables = Arc::new(NoiseTables::from_seed(config.seed));
        for coord in [IVec2::new(0, 0), IVec2::new(-7, 3), IVec2::new(250, -913)] {
            let fine = build_chunk_mesh(&ChunkJob::new(tables.clone(), &config, coord, 0));
            let n = config.resolution_at(0) as usize;
            for lod in 1..=config.max_lod() {
                let coarse = build_chunk_mesh(&ChunkJob::new(tables.clone(), &config, coord, lod));
                let m = config.resolution_at(lod) as usize;
                let stride = 1usize << lod;
                for j in 0..m {
                    for i in 0..m {
                        let (c, f) = (j * m + i, j * stride * n + i * stride);
                        assert_eq!(
                            coarse.positions[c].map(f32::to_bits),
                            fine.positions[f].map(f32::to_bits),
                            "LOD {lod} vertex ({i}, {j}) of {coord}"
                        );
                        assert_eq!(coarse.normals[c], fine.normals[f]);
                    }
                }
            }
        }
    }
}

#[test]
fn the_sampler_conveniences_agree_with_its_plain_form_and_the_mesh() {
    for config in configs() {
        let tables = Arc::new(NoiseTables::from_seed(config.seed));
        let sampler = TerrainSampler::new(tables.clone(), &config);
        let coord = IVec2::new(3, -2);
        let mesh = build_chunk_mesh(&ChunkJob::new(tables, &config, coord, 0));
        let n = config.resolution_at(0);
        let mut points = Vec::new();
        for (j, i) in [(0, 0), (5, 17), (n - 1, n - 1)] {
            let [x, z] = config.vertex_position(coord, 0, i, j);
            let k = (j * n + i) as usize;
            // At a vertex: the mesh's bits, in every form.
            let (h, normal) = sampler.height_and_normal(x, z);
            assert_eq!(h.to_bits(), mesh.positions[k][1].to_bits());
            assert_eq!(normal.to_array(), mesh.normals[k]);
            let p = Vec2::new(x as f32, z as f32);
            if p.x as f64 == x && p.y as f64 == z {
                assert_eq!(sampler.height_at(p).to_bits(), h.to_bits());
                let (ground, up) = sampler.ground(Vec3::new(p.x, 1000.0, p.y));
                assert_eq!(ground, Vec3::new(p.x, h, p.y));
                assert_eq!(up, normal);
                points.push((p, h));
            }
        }
        assert!(!points.is_empty());
        let (ps, expected): (Vec<Vec2>, Vec<f32>) = points.into_iter().unzip();
        let mut out = vec![0.0; ps.len()];
        sampler.heights_at(&ps, &mut out);
        assert_eq!(out, expected);
        // The grid form gives the point form's values.
        let (mut heights, mut normals) = (vec![0.0; 12], vec![Vec3::ZERO; 12]);
        assert!(sampler.sample_grid([-10.5, 7.25], 0.75, [4, 3], &mut heights, &mut normals));
        for (k, (h, nrm)) in heights.iter().zip(&normals).enumerate() {
            let (x, z) = (-10.5 + (k % 4) as f64 * 0.75, 7.25 + (k / 4) as f64 * 0.75);
            let (ph, pn) = sampler.height_and_normal(x, z);
            assert_eq!((h.to_bits(), *nrm), (ph.to_bits(), pn), "({x}, {z})");
        }
        // A mis-sized buffer writes nothing.
        assert!(!sampler.sample_grid([0.0, 0.0], 1.0, [4, 4], &mut heights, &mut normals));
    }
}
