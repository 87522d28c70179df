//! One chunk without an `App`: its heights are the ground at its level's detail (the sampler's
//! at level 0), its morph targets are its parent's surface exactly, and the sampler's
//! conveniences agree with its plain form and with the mesh.

use bevy::math::{IVec2, Vec2, Vec3};
use bevy_perlin_terrain::chunk::{ChunkJob, ChunkMeshData, build_chunk_mesh};
use bevy_perlin_terrain::perlin_core::{
    Detail, DomainWarp, Erosion, Fbm, GridFill, GridSpec, NoiseTables,
};
use bevy_perlin_terrain::{PathOp, TerrainConfig, TerrainPath, TerrainSampler};
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
    // Gullies down to 5 cm: at a metre's spacing most of them alias, and a grid leaves out
    // what it cannot show by one rule, the same for the sampler and every chunk (it was once
    // decided per strip of rows, so that a chunk and the sampler disagreed).
    let aliasing = TerrainConfig {
        noise: Fbm {
            erosion: Some(Erosion {
                scale: 0.01,
                octaves: 8,
                ..Erosion::default()
            }),
            ..plain.noise
        },
        ..plain.clone()
    };
    vec![plain, shaped, aliasing]
}

fn build(
    config: &TerrainConfig,
    tables: &Arc<NoiseTables>,
    coord: IVec2,
    lod: u8,
) -> ChunkMeshData {
    build_chunk_mesh(&ChunkJob::new(tables.clone(), config, coord, lod))
}

#[test]
fn a_chunks_heights_are_the_ground_at_its_levels_detail() {
    for config in configs() {
        let tables = Arc::new(NoiseTables::from_seed(config.seed));
        let sampler = TerrainSampler::new(tables.clone(), &config);
        let n = config.chunk_resolution as usize;
        let coord = IVec2::new(-3, 5);
        let mut differs = false;
        for lod in 0..=3 {
            let mesh = build(&config, &tables, coord, lod);
            let spacing = config.vertex_spacing(lod);
            let spec = GridSpec::new([0.0, 0.0], spacing, [n, n]).with_start([
                coord.x as i64 * (n as i64 - 1),
                coord.y as i64 * (n as i64 - 1),
            ]);
            let mut values = vec![0.0; n * n];
            let fill = GridFill::new(&mut values).detail(Detail::at_spacing(spacing));
            config
                .noise
                .fill(&tables, &spec, fill)
                .expect("a chunk's grid");
            for (k, v) in values.iter().enumerate() {
                let h = v * config.height_scale;
                assert_eq!(
                    mesh.positions[k][1].to_bits(),
                    h.to_bits(),
                    "level {lod}, vertex {k}"
                );
                let (i, j) = ((k % n) as u32, (k / n) as u32);
                let [x, z] = config.vertex_position(coord, lod, i, j);
                let full = sampler.height(x, z);
                if lod == 0 {
                    // Level 0 is the full-detail ground, the sampler's.
                    assert_eq!(h.to_bits(), full.to_bits(), "({x}, {z})");
                } else {
                    differs |= (h - full).abs() > 1e-3;
                }
            }
        }
        // Far levels leave out the octaves they cannot show.
        assert!(differs, "every level equals the full detail");
    }
}

/// The height of `parent`'s mesh (its grid of `n × n`, `size` metres) at chunk-local `(x, z)`,
/// on the triangle that contains it (each quad split from its `+x` corner to its `+z` corner).
fn parent_surface(parent: &ChunkMeshData, n: usize, size: f32, x: f32, z: f32) -> f32 {
    let step = size / (n - 1) as f32;
    let (u, v) = (x / step, z / step);
    let (i, j) = (
        (u.floor() as usize).min(n - 2),
        (v.floor() as usize).min(n - 2),
    );
    let (fu, fv) = (u - i as f32, v - j as f32);
    let h = |a: usize, b: usize| parent.positions[b * n + a][1];
    if fu + fv <= 1.0 {
        h(i, j) + fu * (h(i + 1, j) - h(i, j)) + fv * (h(i, j + 1) - h(i, j))
    } else {
        h(i + 1, j + 1)
            + (1.0 - fu) * (h(i, j + 1) - h(i + 1, j + 1))
            + (1.0 - fv) * (h(i + 1, j) - h(i + 1, j + 1))
    }
}

/// The plain config with a road that bends, a hairpin and a channel over the chunks the morph
/// test builds (a chunk's parent level cuts the path's rows with it).
fn with_paths() -> TerrainConfig {
    let path = |points: &[(f32, f32, f32)], op| TerrainPath {
        points: points.iter().map(|&(x, y, z)| Vec3::new(x, y, z)).collect(),
        width: 6.0,
        falloff: 12.0,
        op,
        ..TerrainPath::default()
    };
    TerrainConfig {
        paths: vec![
            path(
                &[
                    (-20.0, 5.0, -10.0),
                    (30.0, 8.0, 20.0),
                    (70.0, 6.0, -5.0),
                    (40.0, 9.0, 50.0),
                ],
                PathOp::Road,
            ),
            path(
                &[
                    (10.0, 5.0, 40.0),
                    (60.0, 5.0, 40.0),
                    (70.0, 5.0, 50.0),
                    (10.0, 5.0, 58.0),
                ],
                PathOp::Road,
            ),
            path(
                &[
                    (-460.0, 0.0, 200.0),
                    (-400.0, 0.0, 240.0),
                    (-380.0, 0.0, 180.0),
                ],
                PathOp::Channel { depth: 3.0 },
            ),
        ],
        ..TerrainConfig::default()
    }
}

#[test]
fn a_chunks_morph_target_is_its_parents_surface() {
    let tables = Arc::new(NoiseTables::from_seed(TerrainConfig::default().seed));
    let (plain, edited) = (
        build(&TerrainConfig::default(), &tables, IVec2::ZERO, 0),
        build(&with_paths(), &tables, IVec2::ZERO, 0),
    );
    let changed = (plain.morph.iter().zip(&edited.morph)).filter(|(a, b)| a != b);
    assert!(
        changed.count() > 1000,
        "the paths change the parent's surface"
    );
    for config in configs().into_iter().chain([with_paths()]) {
        let tables = Arc::new(NoiseTables::from_seed(config.seed));
        let n = config.chunk_resolution as usize;
        for coord in [IVec2::new(0, 0), IVec2::new(-7, 3), IVec2::new(250, -913)] {
            for lod in 0..3u8 {
                let child = build(&config, &tables, coord, lod);
                let parent_coord = coord.div_euclid(IVec2::splat(2));
                let parent = build(&config, &tables, parent_coord, lod + 1);
                // The child's corner within its parent, in metres.
                let size = (config.chunk_size as f64 * f64::from(lod).exp2()) as f32;
                let offset = (coord - parent_coord * 2).as_vec2() * size;
                let half = (n - 1) / 2;
                for j in 0..n {
                    for i in 0..n {
                        let target = child.morph[j * n + i];
                        let at = (j * n + i, (i, j));
                        if i % 2 == 0 && j % 2 == 0 {
                            // The parent's own vertex there, bit for bit.
                            let (pi, pj) = (
                                i / 2 + (coord.x - parent_coord.x * 2) as usize * half,
                                j / 2 + (coord.y - parent_coord.y * 2) as usize * half,
                            );
                            let p = pj * n + pi;
                            assert_eq!(
                                target[0].to_bits(),
                                parent.positions[p][1].to_bits(),
                                "{at:?}"
                            );
                            assert_eq!([target[1], target[2], target[3]], parent.normals[p]);
                        } else {
                            // Between them, on the parent's triangles.
                            let [x, _, z] = child.positions[j * n + i];
                            let local = Vec2::new(x, z) + offset;
                            let h = parent_surface(&parent, n, 2.0 * size, local.x, local.y);
                            assert!((target[0] - h).abs() < 1e-3, "{at:?}: {} vs {h}", target[0]);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn the_top_level_morphs_to_nothing_but_itself() {
    let config = TerrainConfig::default();
    let tables = Arc::new(NoiseTables::from_seed(config.seed));
    let top = config.max_lod();
    let mesh = build(&config, &tables, IVec2::new(1, -1), top);
    for ((p, n), m) in mesh.positions.iter().zip(&mesh.normals).zip(&mesh.morph) {
        assert_eq!([p[1], n[0], n[1], n[2]], *m);
    }
}

#[test]
fn the_sampler_conveniences_agree_with_its_plain_form_and_the_mesh() {
    for config in configs() {
        let tables = Arc::new(NoiseTables::from_seed(config.seed));
        let sampler = TerrainSampler::new(tables.clone(), &config);
        let coord = IVec2::new(3, -2);
        let mesh = build(&config, &tables, coord, 0);
        let n = config.chunk_resolution;
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
