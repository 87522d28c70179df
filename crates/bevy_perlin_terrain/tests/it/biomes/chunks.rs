//! Chunks of biomes: one biome everywhere is the single recipe bit for bit; a chunk carries the
//! weights its ground blends and the colors follow; at most eight biomes a chunk, the eight that
//! weigh most; inside one biome and across borders, morph targets are the parent's bits.

use super::{border, build, sampler};
use bevy::math::{IVec2, Vec3};
use bevy::mesh::VertexAttributeValues;
use bevy_perlin_terrain::chunk::{ATTRIBUTE_BIOMES, ChunkMeshData, ColorRamp};
use bevy_perlin_terrain::config::parse_config;
use bevy_perlin_terrain::{Biome, Climate, TerrainConfig, TerrainSampler};
use terrain_test_support::preset;

#[test]
fn one_biome_everywhere_is_the_single_recipe_bit_for_bit() {
    let plain = TerrainConfig::default();
    let one = TerrainConfig {
        biomes: vec![Biome {
            name: "everywhere".into(),
            noise: plain.noise,
            height_scale: plain.height_scale,
            ..Biome::default()
        }],
        ..plain.clone()
    };
    for (coord, lod) in [(IVec2::new(3, -2), 0), (IVec2::new(-40, 17), 2)] {
        // The same mesh, and the one biome's look everywhere.
        let mut everywhere = build(&one, coord, lod);
        assert_eq!(everywhere.biomes, [0]);
        assert_eq!(everywhere.biome_weights.len(), everywhere.positions.len());
        assert!(
            everywhere
                .biome_weights
                .iter()
                .all(|w| *w == [255, 0, 0, 0, 0, 0, 0, 0])
        );
        (everywhere.biomes, everywhere.biome_weights) = (Vec::new(), Vec::new());
        assert!(
            build(&plain, coord, lod) == everywhere,
            "{coord} at level {lod}"
        );
    }
    let (a, b) = (sampler(&plain), sampler(&one));
    assert_eq!(a.biome(10.0, 20.0), None);
    assert_eq!(b.biome(10.0, 20.0), Some("everywhere"));
    for (x, z) in [(0.5, -3.25), (1e5, 7.0)] {
        assert_eq!(a.height(x, z).to_bits(), b.height(x, z).to_bits());
        assert_eq!(a.normal(x, z), b.normal(x, z));
    }
}

/// Each biome's weight at a point, by its index in `config`'s biomes.
fn weights_by_index(config: &TerrainConfig, s: &TerrainSampler, x: f64, z: f64) -> Vec<f32> {
    let mut out = vec![0.0; config.biomes.len()];
    for (name, w) in s.biome_weights(x, z) {
        let k = config.biomes.iter().position(|b| b.name == name);
        out[k.expect("a biome of the config")] = w;
    }
    out
}

/// A vertex's weights by biome index, from a mesh's slots.
fn mesh_weights(config: &TerrainConfig, mesh: &ChunkMeshData, vertex: usize) -> Vec<f32> {
    let mut out = vec![0.0; config.biomes.len()];
    for (&b, &w) in mesh.biomes.iter().zip(&mesh.biome_weights[vertex]) {
        out[b as usize] = f32::from(w) / 255.0;
    }
    out
}

#[test]
fn chunks_carry_the_weights_their_ground_blends_and_the_colors_follow() {
    let config = preset("world");
    let sampler = sampler(&config);
    let index = |name: &str| config.biomes.iter().position(|b| b.name == name).unwrap() as u8;
    // A border between two biomes of different looks.
    let ((x, z), west, east) = (0..40)
        .map(|k| border(&sampler, (1000.0, 3000.0 + 2500.0 * k as f64)))
        .find(|(_, w, e)| {
            config.biomes[index(w) as usize].colors != config.biomes[index(e) as usize].colors
        })
        .expect("a border between two looks");
    let size = config.chunk_size as f64;
    let coord = IVec2::new((x / size).floor() as i32, (z / size).floor() as i32);
    let n = config.chunk_resolution as usize;
    let mesh = build(&config, coord, 0);
    // The looks save and read back the same.
    let again = parse_config("again.terrain.ron", config.to_ron().as_bytes());
    assert_eq!(again.ok().as_ref(), Some(&config));
    assert!(mesh.biomes.contains(&index(&west)) && mesh.biomes.contains(&index(&east)));
    assert_eq!(mesh.biome_weights.len(), mesh.positions.len(), "skirts too");
    let ramps: Vec<ColorRamp> = config
        .biomes
        .iter()
        .map(|b| {
            ColorRamp::new(
                b.colors.as_ref().unwrap_or(&config.colors),
                config.sea_level,
            )
        })
        .collect();
    let mut blended = 0;
    for j in (0..n).step_by(4) {
        for i in (0..n).step_by(4) {
            let [px, pz] = config.vertex_position(coord, 0, i as u32, j as u32);
            let k = j * n + i;
            // The ground's weights, to the nearest 255th.
            let expected = weights_by_index(&config, &sampler, px, pz);
            let got = mesh_weights(&config, &mesh, k);
            for (b, (e, g)) in expected.iter().zip(&got).enumerate() {
                assert!(
                    (e - g).abs() <= 0.6 / 255.0,
                    "biome {b} at ({px}, {pz}): {e} vs {g}"
                );
            }
            // The vertex color: each biome's ramp, blended by its weight.
            let (h, normal) = (mesh.positions[k][1], Vec3::from(mesh.normals[k]));
            let mut color = Vec3::ZERO;
            for (ramp, w) in ramps.iter().zip(&expected) {
                color += *w * Vec3::from_slice(&ramp.color(h, normal)[..3]);
            }
            let c = Vec3::from_slice(&mesh.colors[k][..3]);
            assert!(c.abs_diff_eq(color, 1e-5), "({px}, {pz}): {c} vs {color}");
            blended += usize::from(expected.iter().filter(|&&w| w > 0.05).count() > 1);
        }
    }
    assert!(blended > 100, "{blended} of 289 vertices blend two looks");
    // The slots, packed in the mesh for the material: four bits a biome.
    let packed = mesh
        .biomes
        .iter()
        .enumerate()
        .fold(0u32, |p, (k, &b)| p | u32::from(b) << (4 * k));
    match mesh.clone().into_mesh().attribute(ATTRIBUTE_BIOMES) {
        Some(VertexAttributeValues::Uint32(slots)) => {
            assert!(slots.iter().all(|&s| s == packed));
        }
        other => panic!("no biome slots: {other:?}"),
    }
    // The neighbour to the east gives the shared edge the same weights, biome by biome.
    let east_chunk = build(&config, coord + IVec2::X, 0);
    for t in 0..n {
        assert_eq!(
            mesh_weights(&config, &mesh, t * n + n - 1),
            mesh_weights(&config, &east_chunk, t * n)
        );
    }
    // Inside one biome: one slot, all of the weight.
    let inside = (0..200)
        .map(|k| build(&config, coord + IVec2::new(40 + 3 * k, 0), 0))
        .find(|m| m.biomes.len() == 1)
        .expect("a chunk inside one biome within 40 km");
    assert!(
        inside
            .biome_weights
            .iter()
            .all(|w| *w == [255, 0, 0, 0, 0, 0, 0, 0])
    );
    // A chunk inside a biome of a look of its own (not the config's) has that look at every
    // vertex, bit for bit.
    let own_look = |b: u8| config.biomes[usize::from(b)].colors.is_some();
    let inside = (0..400)
        .map(|k| build(&config, coord + IVec2::new(40 + 3 * k, 5 * k - 1000), 0))
        .find(|m| m.biomes.len() == 1 && own_look(m.biomes[0]))
        .expect("a chunk inside a biome of its own look");
    let look = &ramps[usize::from(inside.biomes[0])];
    assert_eq!(inside.colors.len(), inside.positions.len());
    let grid = inside.positions.iter().zip(&inside.normals);
    for ((p, normal), c) in grid.zip(&inside.colors).take(n * n) {
        let expected = look.color(p[1], Vec3::from(*normal));
        assert_eq!(c.map(f32::to_bits), expected.map(f32::to_bits), "at {p:?}");
    }
    // No biomes, no weights.
    let plain = build(&TerrainConfig::default(), coord, 0);
    assert!(plain.biomes.is_empty() && plain.biome_weights.is_empty());
    assert!(plain.into_mesh().attribute(ATTRIBUTE_BIOMES).is_none());
}

#[test]
fn a_chunk_where_more_than_eight_biomes_weigh_in_shows_the_eight_that_weigh_most() {
    // Sixteen biomes in stripes of temperature, on small climate regions.
    let biomes = (0..16)
        .map(|k| Biome {
            name: format!("b{k}"),
            temperature: (-1.0 + k as f32 / 8.0, -1.0 + (k + 1) as f32 / 8.0),
            height_offset: 10.0 * k as f32,
            ..Biome::default()
        })
        .collect();
    let config = TerrainConfig {
        biomes,
        climate: Climate {
            scale: 1000.0,
            continent_scale: 1000.0,
            blend: 100.0,
        },
        ..TerrainConfig::default()
    };
    config.validate().expect("a valid config");
    let (mut most, mut checked) = (0, 0);
    for k in 0..6 {
        let mesh = build(&config, IVec2::new(k, -k), config.max_lod());
        most = most.max(mesh.biomes.len());
        if mesh.biomes.len() < 8 {
            continue;
        }
        checked += 1;
        assert_eq!(mesh.biomes.len(), 8);
        assert!(mesh.biomes.windows(2).all(|p| p[0] < p[1]));
        // The kept biomes' weights, scaled up to sum to 255 (within rounding) everywhere.
        for w in &mesh.biome_weights {
            let sum: u32 = w.iter().map(|&q| u32::from(q)).sum();
            assert!((251..=259).contains(&sum), "{w:?}");
        }
    }
    assert!(checked > 0, "at most {most} biomes in a chunk");
}

#[test]
fn inside_one_biome_and_across_borders_a_chunks_morph_targets_are_its_parents_bits() {
    // Chunks across the world preset, some inside one biome and some on borders (a level-0
    // chunk reads its parent's samples from its own grid wherever its biomes' octaves allow, as
    // the weights' lattice is the same at both levels; a level-3 chunk's parent has a coarser
    // one): each morph target at a parent's vertex is that vertex, bit for bit, its normal too.
    // With two octaves a biome, every biome fills levels 3 and 4 alike: only the lattices
    // differ there.
    let world = preset("world");
    let mut two_octaves = world.clone();
    for biome in &mut two_octaves.biomes {
        biome.noise.octaves = biome.noise.octaves.min(2);
    }
    let n = world.chunk_resolution as usize;
    let half = (n - 1) / 2;
    for (config, lod, step) in [(&world, 0u8, 1), (&world, 3, 8), (&two_octaves, 3, 8)] {
        let (mut inside, mut across) = (0, 0);
        for k in 0..12 {
            let coord = IVec2::new(-230 + 41 * k, 170 - 29 * k) / step;
            let here = build(config, coord, lod);
            inside += usize::from(here.biomes.len() == 1);
            across += usize::from(here.biomes.len() > 1);
            let parent_coord = coord.div_euclid(IVec2::splat(2));
            let parent = build(config, parent_coord, lod + 1);
            let offset = (coord - parent_coord * 2).as_uvec2();
            for j in (0..n).step_by(2) {
                for i in (0..n).step_by(2) {
                    let p =
                        (j / 2 + offset.y as usize * half) * n + i / 2 + offset.x as usize * half;
                    let target = here.morph[j * n + i];
                    assert_eq!(
                        target[0].to_bits(),
                        parent.positions[p][1].to_bits(),
                        "level {lod}, {coord} ({i}, {j})"
                    );
                    assert_eq!([target[1], target[2], target[3]], parent.normals[p]);
                }
            }
        }
        assert!(
            inside >= 2 && across >= 2,
            "level {lod}: {inside} of 12 chunks inside one biome, {across} across borders"
        );
    }
}
