//! The look (with the `render` feature, headless): chunks get the terrain material, a change of
//! colors rewrites the material and rebuilds nothing, the vertex-color fallback carries its
//! colors in the mesh, the sea follows the viewers, layer textures become texture arrays.

use crate::common::*;
use bevy::mesh::{Mesh, VertexAttributeValues};
use bevy::prelude::*;
use bevy_perlin_terrain::chunk::{ChunkJob, build_chunk_mesh};
use bevy_perlin_terrain::prelude::*;
use bevy_perlin_terrain::{
    HeightBand, LayerTexture, TerrainSampler, TerrainShading, TerrainTables, WaterMaterial,
};

/// A headless app with the material assets (no renderer: the materials are created and kept
/// in step, nothing draws them).
fn look_app(config: TerrainConfig, render_mode: TerrainRenderMode, viewer: Vec3) -> (App, Entity) {
    let plugin = PerlinTerrainPlugin::from_config(config).with_render_mode(render_mode);
    let (mut app, viewer) = app_with(plugin, "assets", viewer);
    app.init_asset::<Image>()
        .init_asset::<StandardMaterial>()
        .init_asset::<TerrainMaterial>()
        .init_asset::<WaterMaterial>();
    (app, viewer)
}

fn shading(app: &App) -> TerrainShading {
    let handle = &app.world().resource::<TerrainMaterials>().terrain;
    let materials = app.world().resource::<Assets<TerrainMaterial>>();
    materials
        .get(handle)
        .expect("the terrain material")
        .extension
        .shading
}

fn switch(app: &mut App, config: TerrainConfig) {
    *app.world_mut().resource_mut::<TerrainConfigSource>() = TerrainConfigSource::Fixed(config);
    for _ in 0..3 {
        app.update();
    }
}

fn generation(app: &App) -> u64 {
    app.world().resource::<ActiveTerrainConfig>().generation()
}

#[test]
fn chunks_get_the_terrain_material_and_a_change_of_colors_rebuilds_nothing() {
    let config = small_config();
    let (mut app, _) = look_app(
        config.clone(),
        TerrainRenderMode::Material,
        Vec3::new(0.0, 50.0, 0.0),
    );
    settle(&mut app);
    let before = chunks(&mut app);
    assert!(!before.is_empty());
    let world = app.world_mut();
    let mut q = world
        .query_filtered::<(&Mesh3d, Option<&MeshMaterial3d<TerrainMaterial>>), With<TerrainChunk>>(
        );
    for (mesh, material) in q.iter(world) {
        assert!(material.is_some(), "a chunk without the terrain material");
        let mesh = world.resource::<Assets<Mesh>>().get(&mesh.0).unwrap();
        assert!(
            mesh.attribute(Mesh::ATTRIBUTE_COLOR).is_none(),
            "the material render mode needs no vertex colors"
        );
    }
    let s = shading(&app);
    assert_eq!(
        s.looks[0].layers[2].truncate(),
        Vec3::from(config.colors.bands[1].color)
    );
    assert_eq!(s.looks[0].heights.x, config.sea_level);
    assert_eq!(s.looks[0].flags.x, 1.0, "the default has snow");

    // New colors, no snow, murkier water: the materials change, no chunk is rebuilt.
    let generation_before = generation(&app);
    drain::<ChunkRemeshed>(&mut app);
    let mut changed = config.clone();
    changed.colors.bands[1].color = [0.5, 0.1, 0.1];
    changed.colors.snow = None;
    changed.water.as_mut().unwrap().shallow = [0.2, 0.2, 0.1];
    switch(&mut app, changed);
    let s = shading(&app);
    assert_eq!(s.looks[0].layers[2].truncate(), Vec3::new(0.5, 0.1, 0.1));
    assert_eq!(s.looks[0].flags.x, 0.0);
    let water = &app.world().resource::<TerrainMaterials>().water;
    let water = app
        .world()
        .resource::<Assets<WaterMaterial>>()
        .get(water)
        .unwrap();
    assert_eq!(
        water.extension.shading.shallow.truncate(),
        Vec3::new(0.2, 0.2, 0.1)
    );
    assert_eq!(generation(&app), generation_before);
    assert!(drain::<ChunkRemeshed>(&mut app).is_empty());
    assert_eq!(chunks(&mut app), before);
}

#[test]
fn the_vertex_color_look_carries_colors_in_the_mesh_and_rebuilds_on_a_color_change() {
    let config = small_config();
    let (mut app, _) = look_app(
        config.clone(),
        TerrainRenderMode::VertexColors,
        Vec3::new(0.0, 50.0, 0.0),
    );
    settle(&mut app);
    let colors_of = |app: &mut App, entity: Entity| {
        let world = app.world();
        let handle = &world.get::<Mesh3d>(entity).expect("a mesh").0;
        match world
            .resource::<Assets<Mesh>>()
            .get(handle)
            .expect("the mesh")
            .try_attribute(Mesh::ATTRIBUTE_COLOR)
        {
            Ok(VertexAttributeValues::Float32x4(c)) => c.clone(),
            other => panic!("vertex colors: {other:?}"),
        }
    };
    let before = chunks(&mut app);
    for &(entity, _) in &before {
        assert!(
            app.world()
                .get::<MeshMaterial3d<StandardMaterial>>(entity)
                .is_some()
        );
    }
    let old: Vec<_> = before
        .iter()
        .map(|&(e, _)| colors_of(&mut app, e))
        .collect();
    let generation_before = generation(&app);
    let mut changed = config;
    changed.colors.bands[1].color = [0.9, 0.0, 0.0];
    *app.world_mut().resource_mut::<TerrainConfigSource>() =
        TerrainConfigSource::Fixed(changed.clone());
    let (remeshed, _) = collect_until::<ChunkRemeshed>(&mut app, "the new colors", |app| {
        generation(app) > generation_before && settled(app)
    });
    assert_eq!(generation(&app), generation_before + 1);
    // Every chunk rebuilt once, in place, with the colors of the new ramp.
    assert_eq!(remeshed.len(), before.len());
    assert_eq!(chunks(&mut app), before);
    let tables = app.world().resource::<TerrainTables>().tables().clone();
    let mut reddened = 0;
    for (&(entity, chunk), old) in before.iter().zip(&old) {
        let now = colors_of(&mut app, entity);
        let job = ChunkJob::new(tables.clone(), &changed, chunk.coord, chunk.lod);
        assert_eq!(now, build_chunk_mesh(&job).colors, "{chunk:?}");
        reddened += now.iter().zip(old).filter(|(n, o)| n != o).count();
    }
    assert!(
        reddened > 100,
        "only {reddened} vertices of grass turned red"
    );
}

#[test]
fn the_material_morphs_by_the_levels_and_the_viewers_the_chunks_were_chosen_for() {
    let config = small_config();
    let (mut app, viewer) = look_app(
        config.clone(),
        TerrainRenderMode::Material,
        Vec3::new(40.0, 50.0, -30.0),
    );
    settle(&mut app);
    let layout = config.lod_layout();
    let s = shading(&app);
    for lod in 0..=layout.top() {
        let register = s.morph[lod as usize / 2];
        let (start, rate) = if lod % 2 == 0 {
            (register.x, register.y)
        } else {
            (register.z, register.w)
        };
        match layout.morph_range(lod) {
            Some((a, b)) => {
                assert_eq!(start, a as f32, "level {lod}");
                assert!((rate - (1.0 / (b - a)) as f32).abs() < 1e-6);
            }
            None => assert_eq!(rate, 0.0, "the top level never morphs"),
        }
    }
    assert_eq!(s.viewer_count.x, 1.0);
    assert_eq!((s.viewers[0].x, s.viewers[0].y), (40.0, -30.0));
    // Its height over the ground counts as distance, as the planner counted it.
    let registry = app.world().resource::<ChunkRegistry>();
    let height = registry.viewer_heights()[0];
    let ground = app.world().resource::<TerrainSampler>().height(40.0, -30.0);
    assert!(
        height > 0.0 && height <= 50.0 - ground,
        "{height} over {ground}"
    );
    assert_eq!(s.viewer_heights.x, height);
    assert_eq!(
        registry.level_distance(bevy::math::DVec2::new(40.0, -30.0)),
        f64::from(height)
    );
    // A move that replans moves the morph with it.
    shift(&mut app, viewer, Vec3::X * (50.0));
    settle(&mut app);
    assert_eq!(shading(&app).viewers[0].x, 90.0);
}

#[test]
fn the_water_gives_viewing_cameras_a_depth_prepass_and_takes_back_only_its_own() {
    use bevy::core_pipeline::prepass::DepthPrepass;
    let config = small_config();
    let (mut app, viewer) = look_app(
        config.clone(),
        TerrainRenderMode::Material,
        Vec3::new(0.0, 50.0, 0.0),
    );
    app.world_mut()
        .entity_mut(viewer)
        .insert(Camera3d::default());
    let own = app
        .world_mut()
        .spawn((Camera3d::default(), TerrainViewer, DepthPrepass))
        .id();
    settle(&mut app);
    for _ in 0..3 {
        app.update();
    }
    assert!(
        app.world().get::<DepthPrepass>(viewer).is_some(),
        "the sea needs the depth"
    );
    switch(
        &mut app,
        TerrainConfig {
            water: None,
            ..config
        },
    );
    for _ in 0..3 {
        app.update();
    }
    assert!(
        app.world().get::<DepthPrepass>(viewer).is_none(),
        "taken back with the sea"
    );
    assert!(
        app.world().get::<DepthPrepass>(own).is_some(),
        "the game's own stays"
    );
}

#[test]
fn the_sea_follows_the_viewers_at_sea_level_and_goes_with_the_water() {
    let config = small_config();
    let (mut app, viewer) = look_app(
        config.clone(),
        TerrainRenderMode::Material,
        Vec3::new(10.0, 50.0, -20.0),
    );
    settle(&mut app);
    let sea = |app: &mut App| {
        let world = app.world_mut();
        let mut q = world.query_filtered::<(&Transform, &ChildOf), With<TerrainWater>>();
        let found: Vec<_> = q.iter(world).map(|(t, c)| (*t, c.parent())).collect();
        found
    };
    let root = app.world().resource::<ChunkRegistry>().root().unwrap();
    let [(place, parent)] = sea(&mut app)[..] else {
        panic!("one sea surface")
    };
    assert_eq!(parent, root);
    assert_eq!(place.translation.y, config.sea_level);
    assert!(place.translation.xz().distance(Vec2::new(10.0, -20.0)) <= config.chunk_size);
    // It reaches past the view distance all round.
    assert!(place.scale.x / 2.0 >= config.view_distance + config.chunk_size);

    // The viewer flies 2 km: the sea comes along.
    app.world_mut()
        .get_mut::<Transform>(viewer)
        .unwrap()
        .translation = Vec3::new(2010.0, 50.0, 0.0);
    settle(&mut app);
    let [(place, _)] = sea(&mut app)[..] else {
        panic!("one sea surface")
    };
    assert!(place.translation.xz().distance(Vec2::new(2010.0, 0.0)) <= config.chunk_size);

    // No water in the config: no sea surface.
    switch(
        &mut app,
        TerrainConfig {
            water: None,
            ..config
        },
    );
    assert!(sea(&mut app).is_empty());
}

/// A `side`² RGBA8 image of one color, kept in the main world.
fn flat_image(side: u32, rgba: [u8; 4]) -> Image {
    use bevy::asset::RenderAssetUsages;
    use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
    Image::new_fill(
        Extent3d {
            width: side,
            height: side,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        &rgba,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
    )
}

fn texture(albedo: &str) -> Option<LayerTexture> {
    Some(LayerTexture {
        albedo: albedo.into(),
        normal: None,
        size: 2.0,
    })
}

#[test]
fn layer_textures_registered_in_code_become_layers_of_one_mipmapped_array() {
    let mut config = small_config();
    config.colors.bands = vec![
        HeightBand {
            texture: texture("sand"),
            ..HeightBand::new(5.0, [1.0; 3])
        },
        HeightBand {
            texture: texture("grass"),
            ..HeightBand::new(1e9, [1.0; 3])
        },
    ];
    config.colors.rock_texture = texture("sand");
    let (mut app, _) = look_app(
        config.clone(),
        TerrainRenderMode::Material,
        Vec3::new(0.0, 50.0, 0.0),
    );
    let images = [
        flat_image(8, [200, 180, 120, 255]),
        flat_image(8, [40, 90, 20, 128]),
    ];
    let [sand, grass] = images.map(|i| app.world_mut().resource_mut::<Assets<Image>>().add(i));
    let mut textures = app.world_mut().resource_mut::<TerrainTextures>();
    textures.insert("sand", sand);
    textures.insert("grass", grass.clone());
    for _ in 0..5 {
        app.update();
    }
    let terrain = app.world().resource::<TerrainMaterials>().terrain.clone();
    let materials = app.world().resource::<Assets<TerrainMaterial>>();
    let extension = &materials.get(&terrain).unwrap().extension;
    let array = app
        .world()
        .resource::<Assets<Image>>()
        .get(extension.albedo.as_ref().expect("an albedo array"))
        .expect("the array image");
    assert_eq!(array.texture_descriptor.size.depth_or_array_layers, 2);
    assert_eq!(array.texture_descriptor.mip_level_count, 4);
    // 8² + 4² + 2² + 1² texels per layer, 4 bytes each; layer 1's first texel is grass.
    let per_layer = (64 + 16 + 4 + 1) * 4;
    let data = array.data.as_ref().unwrap();
    assert_eq!(data.len(), 2 * per_layer);
    assert_eq!(&data[per_layer..per_layer + 4], &[40, 90, 20, 128]);
    // Sand (bands[0] and rock) is array layer 0, grass layer 1; 2 m per repeat.
    let s = extension.shading;
    assert_eq!(
        (
            s.looks[0].textures[1].x,
            s.looks[0].textures[2].x,
            s.looks[0].textures[9].x
        ),
        (0.0, 1.0, 0.0)
    );
    assert_eq!(s.looks[0].textures[1].y, -1.0, "no normal map");
    assert_eq!(s.looks[0].textures[1].z, 0.5);
    assert_eq!(s.looks[0].flags.w, 1.0);

    // A grass image of another size: reported, and every layer falls back to its color.
    let other = app
        .world_mut()
        .resource_mut::<Assets<Image>>()
        .add(flat_image(16, [0; 4]));
    app.world_mut()
        .resource_mut::<TerrainTextures>()
        .insert("grass", other);
    for _ in 0..5 {
        app.update();
    }
    let materials = app.world().resource::<Assets<TerrainMaterial>>();
    let extension = &materials.get(&terrain).unwrap().extension;
    assert!(extension.albedo.is_none());
    assert_eq!(extension.shading.looks[0].textures[2].x, -1.0);
    assert_eq!(extension.shading.looks[0].flags.w, 0.0);
}

#[test]
fn each_biome_brings_its_look_and_a_change_of_one_rebuilds_nothing() {
    let mut config = terrain_test_support::preset("world");
    config.view_distance = 1000.0;
    let index = |name: &str| config.biomes.iter().position(|b| b.name == name).unwrap();
    let (dunes, plains, forest) = (index("dunes"), index("plains"), index("forest"));
    let (mut app, _) = look_app(
        config.clone(),
        TerrainRenderMode::Material,
        Vec3::new(0.0, 900.0, 0.0),
    );
    settle(&mut app);
    let s = shading(&app);
    let own = config.biomes[dunes].colors.as_ref().unwrap();
    assert_eq!(
        s.looks[dunes].layers[1].truncate(),
        Vec3::from(own.bands[0].color)
    );
    assert_eq!(s.looks[dunes].flags.x, 0.0, "no snow on the dunes");
    assert_eq!(
        s.looks[plains].layers[2].truncate(),
        Vec3::from(config.colors.bands[1].color),
        "a biome without a look of its own has the config's"
    );
    // The far colors grow in their layers' biomes only: trees (the first with one) in the
    // forest, shrubs in the dunes and the canyonlands.
    assert_eq!(s.canopy_count.x, 2.0);
    assert_eq!(s.canopy[2].w as u32, 1 << forest);
    assert_eq!(
        s.canopy[6].w as u32,
        (1 << dunes) | (1 << index("canyonlands"))
    );
    // Every chunk carries its biomes for the material.
    let world = app.world_mut();
    let mut q = world.query_filtered::<&Mesh3d, With<TerrainChunk>>();
    let meshes = world.resource::<Assets<Mesh>>();
    for mesh in q.iter(world) {
        let mesh = meshes.get(&mesh.0).unwrap();
        assert!(
            mesh.attribute(bevy_perlin_terrain::chunk::ATTRIBUTE_BIOMES)
                .is_some()
        );
    }

    // Redder sand: the material changes, no chunk is rebuilt.
    let generation_before = generation(&app);
    drain::<ChunkRemeshed>(&mut app);
    let mut changed = config.clone();
    changed.biomes[dunes].colors.as_mut().unwrap().bands[0].color = [0.9, 0.1, 0.1];
    switch(&mut app, changed);
    assert_eq!(
        shading(&app).looks[dunes].layers[1].truncate(),
        Vec3::new(0.9, 0.1, 0.1)
    );
    assert_eq!(generation(&app), generation_before);
    assert!(drain::<ChunkRemeshed>(&mut app).is_empty());
}

#[test]
fn the_sea_takes_each_biomes_water_blended_across_their_borders() {
    let mut config = terrain_test_support::preset("world");
    config.view_distance = 6000.0;
    config.scatter.clear();
    let (mut app, viewer) = look_app(
        config.clone(),
        TerrainRenderMode::Material,
        Vec3::new(0.0, 900.0, 0.0),
    );
    let sea = |app: &mut App| -> (Transform, Vec<Vec4>) {
        for _ in 0..3 {
            app.update();
        }
        let world = app.world_mut();
        let mut q = world.query_filtered::<(&Transform, &Mesh3d), With<TerrainWater>>();
        let [(place, mesh)] = q.iter(world).collect::<Vec<_>>()[..] else {
            panic!("one sea surface")
        };
        let mesh = world.resource::<Assets<Mesh>>().get(&mesh.0).unwrap();
        let Some(VertexAttributeValues::Float32x4(shallow)) =
            mesh.attribute(bevy_perlin_terrain::ATTRIBUTE_WATER_SHALLOW)
        else {
            panic!("no water looks on the sea's vertices")
        };
        (*place, shallow.iter().map(|&v| Vec4::from(v)).collect())
    };
    let (place, shallow) = sea(&mut app);
    let n = 129;
    assert_eq!(shallow.len(), n * n);
    // The looks: the config's, the sea's and the coast's.
    let look = |w: &bevy_perlin_terrain::Water| Vec3::from(w.shallow).extend(w.depth);
    let own = |name: &str| {
        let biome = config.biomes.iter().find(|b| b.name == name).unwrap();
        look(biome.water.as_ref().unwrap())
    };
    let (plain, open_sea, lagoon) = (
        look(config.water.as_ref().unwrap()),
        own("sea"),
        own("coast"),
    );
    let sampler = app.world().resource::<TerrainSampler>().clone();
    let position = |k: usize| {
        let unit = |i: usize| i as f32 / (n - 1) as f32 - 0.5;
        let p = place.translation.xz() + Vec2::new(unit(k % n), unit(k / n)) * place.scale.xz();
        (f64::from(p.x), f64::from(p.y))
    };
    let mut blended = 0;
    for (k, v) in shallow.iter().enumerate() {
        // Each vertex is a blend of the looks, and a vertex of one look alone lies in a biome
        // of that look.
        let (low, high) = (
            plain.min(open_sea).min(lagoon),
            plain.max(open_sea).max(lagoon),
        );
        assert!(
            v.cmpge(low - 1e-5).all() && v.cmple(high + 1e-5).all(),
            "{v}"
        );
        let (x, z) = position(k);
        let biome = sampler.biome(x, z).unwrap();
        if v.abs_diff_eq(open_sea, 1e-5) {
            assert_eq!(biome, "sea", "({x}, {z})");
        } else if v.abs_diff_eq(lagoon, 1e-5) {
            assert_eq!(biome, "coast", "({x}, {z})");
        } else if v.abs_diff_eq(plain, 1e-5) {
            assert!(biome != "sea" && biome != "coast", "({x}, {z}): {biome}");
        } else {
            blended += 1;
        }
    }
    for (name, look) in [("config's", plain), ("sea's", open_sea)] {
        assert!(
            shallow.iter().any(|v| v.abs_diff_eq(look, 1e-5)),
            "no {name} water"
        );
    }
    // The coast is a narrow band, mostly border: its lagoons show where its water (8 m deep)
    // weighs most, shallower than both others (12 and 25 m).
    assert!(shallow.iter().any(|v| v.w < plain.w.min(open_sea.w) - 1.0));
    assert!(blended > 100, "{blended} vertices blend two waters");

    // A few metres on, the same grid; 3 km on, a new one around the viewer.
    app.world_mut()
        .get_mut::<Transform>(viewer)
        .unwrap()
        .translation
        .x = 10.0;
    let (same, again) = sea(&mut app);
    assert_eq!((same, &again), (place, &shallow));
    app.world_mut()
        .get_mut::<Transform>(viewer)
        .unwrap()
        .translation
        .x = 3000.0;
    let (moved, other) = sea(&mut app);
    assert!((moved.translation.x - 3000.0).abs() <= place.scale.x / 128.0);
    assert_ne!(other, shallow);
}

#[test]
fn the_terrain_water_and_clouds_draw_this_moments_weather() {
    let config = TerrainConfig {
        clouds: Some(Clouds::default()),
        waves: Some(Waves::default()),
        ..small_config()
    };
    let (mut app, _) = look_app(
        config,
        TerrainRenderMode::Material,
        Vec3::new(0.0, 50.0, 0.0),
    );
    app.init_asset::<bevy_perlin_terrain::CloudMaterial>();
    app.world_mut().resource_mut::<TerrainClock>().paused = true;
    app.world_mut().resource_mut::<TerrainClock>().seconds = 120.0;
    settle(&mut app);
    let world = app.world();
    let materials = world.resource::<TerrainMaterials>();
    let tables = world.resource::<TerrainTables>().tables().clone();
    let active = world.resource::<ActiveTerrainConfig>().config().clone();
    let expected = bevy_perlin_terrain::WeatherUniform::new(&tables, &active, 120.0, Vec3::Y);
    let water = &world
        .resource::<Assets<WaterMaterial>>()
        .get(&materials.water)
        .expect("water")
        .extension;
    assert_eq!(water.weather, expected, "the water's weather");
    let terrain = &world
        .resource::<Assets<TerrainMaterial>>()
        .get(&materials.terrain)
        .expect("terrain")
        .extension;
    assert_eq!(
        terrain.weather.clouds, expected.clouds,
        "the ground's clouds"
    );
    assert_eq!(
        terrain.weather.waves,
        Vec4::ZERO,
        "the ground needs no waves"
    );
    let clouds = world.resource::<Assets<bevy_perlin_terrain::CloudMaterial>>();
    assert_eq!(
        clouds
            .get(&materials.clouds)
            .expect("clouds")
            .extension
            .weather,
        expected
    );
    // The grid of waves around the viewer and the cloud layer over it.
    let mut app = app;
    let world = app.world_mut();
    let waves = world
        .query_filtered::<&Transform, With<TerrainWaves>>()
        .iter(world)
        .count();
    let layer = world
        .query_filtered::<&Transform, With<bevy_perlin_terrain::TerrainClouds>>()
        .iter(world)
        .next()
        .copied();
    assert_eq!(waves, 1);
    let layer = layer.expect("a cloud layer");
    assert_eq!(layer.translation.y, 2200.0 + 300.0);
}
