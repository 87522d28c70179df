//! Biomes: the world preset's climates cover every 40 km square; across a border the ground
//! blends without seams (neighbours, levels, the sampler, exact normals) and without a slope
//! steeper than its biomes'; one biome everywhere is the single recipe bit for bit; bad biome
//! configs name the field.

use bevy::math::IVec2;
use bevy::math::Vec3;
use bevy::mesh::VertexAttributeValues;
use bevy_perlin_terrain::chunk::{
    ATTRIBUTE_BIOMES, ChunkJob, ChunkMeshData, ColorRamp, build_chunk_mesh,
};
use bevy_perlin_terrain::config::parse_config;
use bevy_perlin_terrain::perlin_core::NoiseTables;
use bevy_perlin_terrain::scatter::{ScatterJob, place_scatter};
use bevy_perlin_terrain::{Biome, Climate, TerrainConfig, TerrainSampler};
use std::collections::HashMap;
use std::sync::Arc;

/// The shipped world preset.
pub fn world() -> TerrainConfig {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../assets/terrain/world.terrain.ron"
    );
    let bytes = std::fs::read(path).expect("the world preset");
    parse_config("terrain/world.terrain.ron", &bytes).expect("the world preset is valid")
}

fn sampler(config: &TerrainConfig) -> TerrainSampler {
    TerrainSampler::new(Arc::new(NoiseTables::from_seed(config.seed)), config)
}

fn build(config: &TerrainConfig, coord: IVec2, lod: u8) -> ChunkMeshData {
    let tables = Arc::new(NoiseTables::from_seed(config.seed));
    build_chunk_mesh(&ChunkJob::new(tables, config, coord, lod))
}

/// `config` with only `biome`, everywhere.
fn alone(config: &TerrainConfig, biome: &str) -> TerrainConfig {
    let mut only = config
        .biomes
        .iter()
        .find(|b| b.name == biome)
        .cloned()
        .expect("a biome of the config");
    (only.temperature, only.moisture, only.continentalness) =
        ((-1.0, 1.0), (-1.0, 1.0), (-1.0, 1.0));
    TerrainConfig {
        biomes: vec![only],
        ..config.clone()
    }
}

/// A point on a border between two biomes of the world preset (where the strongest biome
/// changes), found walking east from `start`, and the two biomes.
fn border(sampler: &TerrainSampler, start: (f64, f64)) -> ((f64, f64), String, String) {
    let (x0, z) = start;
    let mut last = sampler.biome(x0, z).expect("a biome").to_string();
    for k in 1..2000 {
        let x = x0 + k as f64 * 20.0;
        let here = sampler.biome(x, z).expect("a biome");
        if here != last {
            return ((x, z), last, here.to_string());
        }
        last = here.to_string();
    }
    panic!("no border within 40 km east of {start:?}");
}

#[test]
fn every_biome_of_the_world_covers_five_percent_of_any_40_km_square() {
    let config = world();
    let sampler = sampler(&config);
    assert_eq!(config.biomes.len(), 7);
    for (cx, cz) in [
        (0.0, 0.0),
        (63_000.0, -41_000.0),
        (-250_000.0, 170_000.0),
        (1.2e6, 3.4e5),
        (-77_000.0, -530_000.0),
        (400_000.0, 400_000.0),
    ] {
        let mut share: HashMap<String, usize> = HashMap::new();
        let n = 100;
        for j in 0..n {
            for i in 0..n {
                let (x, z) = (
                    cx + (i as f64 + 0.5) * 400.0 - 20_000.0,
                    cz + (j as f64 + 0.5) * 400.0 - 20_000.0,
                );
                let name = sampler.biome(x, z).expect("a biome");
                *share.entry(name.to_string()).or_default() += 1;
            }
        }
        for b in &config.biomes {
            let part = share.get(&b.name).copied().unwrap_or(0) as f64 / (n * n) as f64;
            assert!(
                part >= 0.05,
                "{} covers {:.1} % of the square around ({cx}, {cz}): {share:?}",
                b.name,
                part * 100.0
            );
        }
    }
}

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

#[test]
fn a_border_blends_both_grounds_and_chunks_agree_on_it() {
    let config = world();
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
    let config = world();
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
    let config = world();
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

#[test]
fn bad_biomes_name_the_field_and_what_is_allowed() {
    let many = (0..17)
        .map(|k| {
            format!(
                "(name: \"b{k}\", temperature: ({}, {}))",
                -1.0 + k as f32 / 8.5,
                -1.0 + (k + 1) as f32 / 8.5
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    for (ron, field, allowed) in [
        (
            "(biomes: [(name: \"a\"), (name: \"b\")])".to_string(),
            "`biomes[1].temperature`",
            "may touch but not overlap",
        ),
        (
            "(biomes: [(name: \"a\", moisture: (0.5, 0.5))])".into(),
            "`biomes[0].moisture`",
            "not empty",
        ),
        (
            "(biomes: [(name: \"a\", continentalness: (-1.0, 0.0))])".into(),
            "`biomes`",
            "cover every climate point",
        ),
        (
            "(biomes: [(name: \"a\", temperature: (-1.0, 0.0)), (name: \"a\", temperature: (0.0, 1.0))])".into(),
            "`biomes[1].name`",
            "a name of its own",
        ),
        (
            "(biomes: [(name: \"\")])".into(),
            "`biomes[0].name`",
            "1 to 64 characters",
        ),
        (
            "(biomes: [(name: \"a\", height_scale: 0.0)])".into(),
            "`biomes[0].height_scale`",
            "0.001 to 100000",
        ),
        (
            "(biomes: [(name: \"a\", noise: (octaves: 99))])".into(),
            "`biomes[0].noise.octaves`",
            "1 to 32",
        ),
        (
            "(climate: (blend: 0.0), biomes: [(name: \"a\")])".into(),
            "`climate.blend`",
            "1 to a quarter",
        ),
        (format!("(biomes: [{many}])"), "`biomes`", "at most 16 biomes"),
        (
            "(biomes: [(name: \"a\")], scatter: [(name: \"t\", biomes: [\"a\", \"b\"])])".into(),
            "`scatter[0].biomes[1]`",
            "the name of one of the config's biomes",
        ),
        (
            "(biomes: [(name: \"a\", colors: Some((bands: [(up_to: 5.0, color: (2.0, 0.0, 0.0))])))])".into(),
            "`biomes[0].colors.bands[0].color`",
            "three numbers from 0 to 1",
        ),
        (
            "(biomes: [(name: \"a\", look: 3)])".into(),
            "biomes",
            "look",
        ),
    ] {
        let text = match parse_config("terrain/bad.terrain.ron", ron.as_bytes()) {
            Ok(_) => panic!("accepted {ron}"),
            Err(e) => e.to_string(),
        };
        assert!(
            text.contains("terrain/bad.terrain.ron") && text.contains(field) && text.contains(allowed),
            "{ron}: {text}"
        );
    }
}

#[test]
fn a_layer_grows_only_in_its_biomes_and_thins_across_their_borders() {
    let config = world();
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
    let config = world();
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
    let world = world();
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
