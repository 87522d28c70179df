//! What a game may do to the plugin's state, from the game's side: remove its registries, look
//! at its resources through reflection, put a viewer nowhere or beyond the addressable plane,
//! add the plugins in any order, hand it an absurd config through the asset store, or give the
//! sampler the wrong tables. None of it panics or corrupts the terrain.

use crate::common::*;
use bevy::asset::AssetPlugin;
use bevy::mesh::MeshPlugin;
use bevy::prelude::*;
use bevy::reflect::{ReflectRef, TypeRegistry};
use bevy_perlin_terrain::perlin_core::NoiseTables;
use bevy_perlin_terrain::prelude::*;
use bevy_perlin_terrain::{ScatterLayer, TerrainTables};
use std::sync::Arc;

/// Every chunk entity is the registry's, and the ground is covered once around `at`.
fn assert_whole(app: &mut App, at: Vec2, radius: f32) {
    let chunks = chunks(app);
    let registry = app.world().resource::<ChunkRegistry>();
    assert_eq!(registry.loaded_count(), chunks.len(), "an orphan chunk");
    for (entity, chunk) in &chunks {
        assert_eq!(
            registry.chunk(chunk.lod, chunk.coord).map(|c| c.entity),
            Some(*entity)
        );
    }
    let rects = footprints(app);
    for k in 0..300 {
        let angle = k as f32 * 2.399;
        let r = radius * ((k as f32 + 0.5) / 300.0).sqrt();
        let p = at + r * Vec2::new(angle.cos(), angle.sin());
        assert_eq!(coverage(&rects, p), 1, "{p}");
    }
}

#[test]
fn a_removed_registry_is_rebuilt_with_the_terrain_and_no_orphan() {
    let mut config = small_config();
    config.scatter = vec![ScatterLayer {
        name: "stones".into(),
        density: 40.0,
        spacing: 3.0,
        view_distance: 100.0,
        ..ScatterLayer::default()
    }];
    let (mut app, _) = app(config, Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    run_until(&mut app, "the scatter settles", |app| {
        app.world().resource::<ScatterRegistry>().is_settled()
    });
    let scattered = app.world().resource::<ScatterRegistry>().instance_count();
    assert!(scattered > 10);
    app.world_mut().remove_resource::<ChunkRegistry>();
    app.world_mut().remove_resource::<ScatterRegistry>();
    app.update();
    settle(&mut app);
    run_until(&mut app, "the scatter settles again", |app| {
        app.world().resource::<ScatterRegistry>().is_settled()
    });
    assert_whole(&mut app, Vec2::ZERO, 390.0);
    // The instances too: as many as before, every one the registry's.
    let mut instances = app.world_mut().query::<&ScatterInstance>();
    assert_eq!(instances.iter(app.world()).count(), scattered);
    assert_eq!(
        app.world().resource::<ScatterRegistry>().instance_count(),
        scattered
    );
}

/// The fields inspectors see of the resource `T`.
fn reflected_fields<T: Resource + Reflect>(app: &App) -> usize {
    let registry: &TypeRegistry = &app.world().resource::<AppTypeRegistry>().read();
    assert!(
        registry.get(std::any::TypeId::of::<T>()).is_some(),
        "registered"
    );
    match app.world().resource::<T>().reflect_ref() {
        ReflectRef::Struct(s) => s.field_len(),
        _ => panic!("{} is not a struct", std::any::type_name::<T>()),
    }
}

#[test]
fn reflection_shows_no_state_that_an_edit_would_put_out_of_step() {
    let (mut app, _) = app(small_config(), Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    assert_eq!(reflected_fields::<ActiveTerrainConfig>(&app), 0);
    assert_eq!(reflected_fields::<TerrainTables>(&app), 0);
    assert_eq!(reflected_fields::<TerrainSampler>(&app), 0);
    assert_eq!(reflected_fields::<ChunkRegistry>(&app), 0);
    assert_eq!(reflected_fields::<ScatterRegistry>(&app), 0);
}

#[test]
fn a_viewer_that_is_nowhere_is_ignored_and_never_replans() {
    let (mut app, _) = app(small_config(), Vec3::new(0.0, 80.0, 0.0));
    let stray = app
        .world_mut()
        .spawn((TerrainViewer, Transform::from_xyz(500.0, 80.0, 0.0)))
        .id();
    settle(&mut app);
    place(&mut app, stray, Vec3::NAN);
    settle(&mut app);
    // Only the one viewer's ground is left.
    assert_whole(&mut app, Vec2::ZERO, 390.0);
    assert!(footprints(&app).iter().all(|(_, r)| r.min.x < 500.0));
    let tick = app.world().resource_ref::<ChunkRegistry>().last_changed();
    // Written NaN again every frame: the planner looks, and plans nothing.
    for _ in 0..30 {
        place(&mut app, stray, Vec3::new(f32::NAN, 0.0, f32::INFINITY));
        app.update();
    }
    assert_eq!(
        app.world().resource_ref::<ChunkRegistry>().last_changed(),
        tick,
        "replanned for a viewer that is nowhere"
    );
}

#[test]
fn a_viewer_beyond_the_addressable_plane_panics_nothing() {
    let (mut app, viewer) = app(small_config(), Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    // 3·10¹¹ m: more chunks out than `i32` counts, at every level.
    for x in [3.0e11, -3.0e11, 6.8e10, 6.9e10, -6.9e10, f32::MAX] {
        place(&mut app, viewer, Vec3::new(x, 80.0, x));
        for _ in 0..5 {
            app.update();
        }
    }
    // Back home, the terrain is whole again.
    place(&mut app, viewer, Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    assert_whole(&mut app, Vec2::ZERO, 390.0);
}

#[test]
fn the_plugins_may_be_added_in_any_order() {
    let mut app = App::new();
    // The terrain first, Bevy's plugins after it.
    app.add_plugins((
        PerlinTerrainPlugin::from_config(small_config()),
        MinimalPlugins,
        AssetPlugin {
            file_path: "assets".into(),
            watch_for_changes_override: Some(false),
            ..default()
        },
        TransformPlugin,
        MeshPlugin,
    ));
    terrain_test_support::finish(&mut app);
    terrain_test_support::spawn_viewer(&mut app, Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    assert_whole(&mut app, Vec2::ZERO, 390.0);
}

#[test]
fn an_absurd_config_through_the_asset_store_is_refused_and_the_terrain_stays() {
    let (mut app, _) = app(small_config(), Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    let good = app
        .world_mut()
        .resource_mut::<Assets<TerrainConfig>>()
        .add(TerrainConfig {
            seed: 99,
            ..small_config()
        });
    *app.world_mut().resource_mut::<TerrainConfigSource>() =
        TerrainConfigSource::Asset(good.clone());
    settle(&mut app);
    let generation = app.world().resource::<ActiveTerrainConfig>().generation();
    let before = chunks(&mut app);
    assert_eq!(
        app.world().resource::<ActiveTerrainConfig>().config().seed,
        99
    );
    let absurd = TerrainConfig {
        chunk_size: 1.0,
        view_distance: 200_000.0,
        ..small_config()
    };
    // Added as a new asset and made the source...
    let bad = app
        .world_mut()
        .resource_mut::<Assets<TerrainConfig>>()
        .add(absurd.clone());
    *app.world_mut().resource_mut::<TerrainConfigSource>() = TerrainConfigSource::Asset(bad);
    for _ in 0..10 {
        app.update();
    }
    // ...or written into the asset in force.
    *app.world_mut()
        .resource_mut::<Assets<TerrainConfig>>()
        .get_mut(&good)
        .expect("the asset") = absurd;
    *app.world_mut().resource_mut::<TerrainConfigSource>() = TerrainConfigSource::Asset(good);
    for _ in 0..10 {
        app.update();
    }
    let active = app.world().resource::<ActiveTerrainConfig>();
    assert_eq!(active.generation(), generation);
    assert_eq!(active.config().chunk_size, small_config().chunk_size);
    assert_eq!(chunks(&mut app), before, "the terrain on screen stays");
}

#[test]
fn the_sampler_does_not_take_tables_of_another_seed() {
    let config = small_config();
    let right = TerrainSampler::new(Arc::new(NoiseTables::from_seed(config.seed)), &config);
    let wrong = TerrainSampler::new(Arc::new(NoiseTables::from_seed(config.seed + 1)), &config);
    assert_eq!(wrong.tables().seed(), config.seed);
    for (x, z) in [(0.0, 0.0), (123.5, -77.25), (-4000.0, 9000.0)] {
        assert_eq!(wrong.height(x, z).to_bits(), right.height(x, z).to_bits());
    }
}

#[test]
fn the_sampler_and_the_jobs_take_an_unchecked_config_and_any_coordinates_without_panicking() {
    // What a game may build in code and hand to the sampler or a job without validating it.
    use bevy_perlin_terrain::chunk::{ChunkJob, build_chunk_mesh};
    use bevy_perlin_terrain::perlin_core::Erosion;
    use bevy_perlin_terrain::scatter::{ScatterJob, place_scatter};
    use bevy_perlin_terrain::{Biome, MAX_BIOMES};
    let world = terrain_test_support::preset("world");
    let tables = Arc::new(NoiseTables::from_seed(world.seed));
    let sampler = |config: &TerrainConfig| TerrainSampler::new(tables.clone(), config);
    let coord = IVec2::new(1, -2);
    let vertices = |config: &TerrainConfig| {
        let n = config.chunk_resolution as usize;
        n * n + 4 * n
    };

    // More biomes than the plugin weighs: the first MAX_BIOMES are the ground.
    let mut many = world.clone();
    many.biomes = (0..MAX_BIOMES + 1)
        .map(|k| Biome {
            name: format!("biome {k}"),
            ..world.biomes[k % world.biomes.len()].clone()
        })
        .collect();
    let mut first = many.clone();
    first.biomes.truncate(MAX_BIOMES);
    let (all, weighed) = (sampler(&many), sampler(&first));
    for (x, z) in [(0.0, 0.0), (1234.5, -987.0), (40_000.0, 25_000.0)] {
        assert_eq!(all.height(x, z).to_bits(), weighed.height(x, z).to_bits());
    }
    let mesh = build_chunk_mesh(&ChunkJob::new(tables.clone(), &many, coord, 0));
    assert_eq!(mesh.positions.len(), vertices(&many));

    // Erosion with no octaves cuts nothing, on a sample and on a chunk.
    let mut eroded = small_config();
    eroded.noise.erosion = Some(Erosion {
        octaves: 0,
        ..Erosion::default()
    });
    assert!(sampler(&eroded).height(10.0, 20.0).is_finite());
    let mesh = build_chunk_mesh(&ChunkJob::new(tables.clone(), &eroded, coord, 0));
    assert_eq!(mesh.positions.len(), vertices(&eroded));
    assert!(mesh.positions.iter().all(|p| p[1].is_finite()));

    // A scatter layer with no spacing, or one far finer than a chunk's budget of candidates,
    // places nothing (and at once).
    for spacing in [0.0, -3.0, f32::NAN, 1e-6] {
        let mut config = small_config();
        config.scatter = vec![ScatterLayer {
            name: "dust".into(),
            spacing,
            ..ScatterLayer::default()
        }];
        let job = ScatterJob::new(sampler(&config), &config, 0, coord).expect("the layer");
        assert!(place_scatter(&job).is_empty(), "spacing {spacing}");
    }

    // A chunk too large to hold builds nothing; one too small is taken as three vertices a
    // side, and the config's vertex positions say so too.
    let huge = TerrainConfig {
        chunk_resolution: u32::MAX,
        ..small_config()
    };
    let mesh = build_chunk_mesh(&ChunkJob::new(tables.clone(), &huge, coord, 0));
    assert!(mesh.positions.is_empty());
    let tiny = TerrainConfig {
        chunk_resolution: 2,
        ..small_config()
    };
    let mesh = build_chunk_mesh(&ChunkJob::new(tables.clone(), &tiny, coord, 0));
    assert_eq!(mesh.positions.len(), 3 * 3 + 4 * 3);
    assert_eq!(mesh.positions[8][0], tiny.chunk_size);
    let (corner, across) = (
        tiny.vertex_position(coord, 0, 0, 0),
        tiny.vertex_position(coord, 0, 2, 0),
    );
    assert_eq!(across[0] - corner[0], tiny.chunk_size as f64);

    // The world's sampler anywhere on (and off) the plane.
    let world_sampler = sampler(&world);
    let far = [
        (1e300, 0.0),
        (-1e18, 1e18),
        (f64::INFINITY, 5.0),
        (f64::NEG_INFINITY, f64::NEG_INFINITY),
        (f64::NAN, 0.0),
    ];
    for (x, z) in far {
        world_sampler.height(x, z);
        world_sampler.normal(x, z);
        world_sampler.biome(x, z);
    }
    assert!(world_sampler.height(-1e18, 1e18).is_finite());

    // A top view of 640 km at full detail would read 10⁸ weight nodes: refused at once,
    // nothing written; 40 km (as the preview draws it) is drawn.
    for (metres, drawn) in [(640_000.0, false), (40_000.0, true)] {
        let (mut heights, mut normals) = (vec![0.0; 64 * 64], vec![Vec3::ZERO; 64 * 64]);
        let step = metres / 64.0;
        let written =
            world_sampler.sample_grid([0.0, 0.0], step, [64, 64], &mut heights, &mut normals);
        assert_eq!(written, drawn, "{metres} m");
        assert_eq!(
            normals.iter().all(|n| n.is_normalized()),
            drawn,
            "{metres} m"
        );
    }
}
