//! Scatter: placement is a function of the world alone (same across runs, whatever level of
//! detail is drawn), keeps its spacing across cell borders, stands on the sampler's ground,
//! follows its rules, goes with its cells over a long flight, tells the game, is drawn under the
//! clouds' shade (a twin of its material, also for instances that came before it), and rejects
//! bad layers by name.

use crate::common::*;
use bevy::prelude::*;
use bevy_perlin_terrain::config::parse_config;
use bevy_perlin_terrain::perlin_core::NoiseTables;
use bevy_perlin_terrain::prelude::*;
use bevy_perlin_terrain::scatter::{ScatterJob, place_scatter};
use bevy_perlin_terrain::{ScatterLayer, SoftRange};
use std::collections::HashMap;
use std::sync::Arc;

/// Two layers: dense posts everywhere, and trees on gentle low ground, sunk 0.5 m.
fn scatter_config() -> TerrainConfig {
    TerrainConfig {
        scatter: vec![
            layer("posts", 2.0, 2000.0),
            ScatterLayer {
                height: SoftRange {
                    min: 8.0,
                    max: 40.0,
                    fade: 0.0,
                },
                slope: SoftRange {
                    min: 0.0,
                    max: 0.03,
                    fade: 0.0,
                },
                sink: 0.5,
                scale: (0.5, 2.0),
                ..layer("trees", 3.0, 400.0)
            },
        ],
        height_scale: 60.0,
        ..small_config()
    }
}

fn sampler_for(config: &TerrainConfig) -> TerrainSampler {
    TerrainSampler::new(Arc::new(NoiseTables::from_seed(config.seed)), config)
}

/// World positions (x, z) of layer `layer` in chunk `coord`.
fn placed(config: &TerrainConfig, layer: usize, coord: IVec2) -> Vec<Vec3> {
    let job = ScatterJob::new(sampler_for(config), config, layer, coord).expect("layer");
    let corner = Vec3::new(coord.x as f32, 0.0, coord.y as f32) * config.chunk_size;
    place_scatter(&job)
        .into_iter()
        .map(|t| t.translation + corner)
        .collect()
}

#[test]
fn placement_is_the_same_in_every_run_and_differs_by_seed_and_layer() {
    let config = scatter_config();
    let coord = IVec2::new(-3, 5);
    let a = placed(&config, 0, coord);
    let b = placed(&config, 0, coord);
    assert!(!a.is_empty());
    assert_eq!(a, b);
    let reseeded = TerrainConfig {
        seed: 12,
        ..config.clone()
    };
    assert_ne!(a, placed(&reseeded, 0, coord));
    let renamed = TerrainConfig {
        scatter: vec![layer("poles", 2.0, 2000.0)],
        ..config.clone()
    };
    assert_ne!(a, placed(&renamed, 0, coord));
}

#[test]
fn spacing_holds_across_chunk_borders() {
    let config = scatter_config();
    for (index, l) in config.scatter.iter().enumerate() {
        let mut all = Vec::new();
        for z in -2..2 {
            for x in -2..2 {
                all.extend(placed(&config, index, IVec2::new(x, z)));
            }
        }
        let mut closest = f32::INFINITY;
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                closest = closest.min(a.xz().distance(b.xz()));
            }
        }
        assert!(
            closest >= l.spacing * (1.0 - 1e-5),
            "{}: two instances {closest} m apart",
            l.name
        );
        // Not vacuous: the closest pair is near the spacing, and instances sit on borders.
        assert!(closest < l.spacing * 1.3, "{}: closest {closest}", l.name);
        eprintln!(
            "{}: {} instances, closest {closest:.3} m",
            l.name,
            all.len()
        );
    }
}

#[test]
fn instances_stand_on_the_ground_and_follow_their_rules() {
    let config = scatter_config();
    let sampler = sampler_for(&config);
    let (mut posts, mut trees, mut rejected) = (0, 0, 0);
    for z in -3..3 {
        for x in -3..3 {
            let coord = IVec2::new(x, z);
            let job = ScatterJob::new(sampler.clone(), &config, 1, coord).expect("layer");
            let corner = coord.as_vec2() * config.chunk_size;
            for p in placed(&config, 0, coord) {
                let h = sampler.height(p.x as f64, p.z as f64);
                assert!((p.y - h).abs() < 1e-3, "post at {p}, ground {h}");
                posts += 1;
            }
            for t in place_scatter(&job) {
                let (x, z) = (t.translation.x + corner.x, t.translation.z + corner.y);
                let (h, n) = sampler.height_and_normal(x as f64, z as f64);
                let sunk = h - 0.5 * t.scale.x;
                assert!(
                    (t.translation.y - sunk).abs() < 1e-3,
                    "tree base {} vs {sunk}",
                    t.translation.y
                );
                assert!(
                    (8.0..=40.0).contains(&(h - config.sea_level)),
                    "tree at {h} m"
                );
                assert!(1.0 - n.y <= 0.03, "tree on slope {}", 1.0 - n.y);
                assert!((0.5..=2.0).contains(&t.scale.x));
                trees += 1;
            }
            // What the rules turned away: posts that are on ground trees may not stand on.
            rejected += placed(&config, 0, coord)
                .iter()
                .filter(|p| {
                    let (h, n) = sampler.height_and_normal(p.x as f64, p.z as f64);
                    1.0 - n.y > 0.03 || !(8.0..=40.0).contains(&(h - config.sea_level))
                })
                .count();
        }
    }
    assert!(
        posts > 1000 && trees > 50 && rejected > 50,
        "{posts} {trees} {rejected}"
    );
}

/// Global positions of instances, by cell and layer.
type Instances = HashMap<(IVec2, String), Vec<Vec3>>;

/// Global positions of every instance, by cell and layer.
fn instances(app: &mut App) -> Instances {
    let mut cells = app.world_mut().query::<(Entity, &ScatterCell)>();
    let cells: HashMap<Entity, IVec2> =
        cells.iter(app.world()).map(|(e, c)| (e, c.coord)).collect();
    let mut q = app
        .world_mut()
        .query::<(&ScatterInstance, &GlobalTransform, &ChildOf)>();
    let mut out: Instances = HashMap::new();
    for (instance, transform, parent) in q.iter(app.world()) {
        let coord = cells[&parent.parent()];
        out.entry((coord, instance.layer.to_string()))
            .or_default()
            .push(transform.translation());
    }
    for v in out.values_mut() {
        v.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.z.total_cmp(&b.z)));
    }
    out
}

/// The settled app's instances, by cell and layer.
fn settled_instances(config: TerrainConfig) -> Instances {
    let (mut app, _) = app(config, Vec3::new(10.0, 50.0, -5.0));
    settle(&mut app);
    run_until(&mut app, "the scatter settles", |app| {
        app.world().resource::<ScatterRegistry>().is_settled()
    });
    app.update();
    instances(&mut app)
}

#[test]
fn the_plugin_places_the_same_instances_whatever_the_level_of_detail_drawn() {
    // The same terrain twice: full detail far out, then coarse levels from 160 m on. Scatter
    // keeps its own full-detail cells either way.
    let config = scatter_config();
    let fine = TerrainConfig {
        lod_distance: 400.0,
        ..config.clone()
    };
    let coarse = TerrainConfig {
        lod_distance: 160.0,
        ..config.clone()
    };
    let a = settled_instances(fine);
    let b = settled_instances(coarse);
    assert!(!a.is_empty());
    assert_eq!(a, b, "the levels drawn change nothing");
    for ((coord, layer), positions) in &a {
        // Every instance is where the offline placement puts it.
        let index = config
            .scatter
            .iter()
            .position(|l| &l.name == layer)
            .expect("layer");
        let mut want = placed(&config, index, *coord);
        want.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.z.total_cmp(&b.z)));
        assert_eq!(positions.len(), want.len());
        for (p, q) in positions.iter().zip(&want) {
            assert!(p.distance(*q) < 1e-3, "{p} vs {q}");
        }
    }
    // Every cell within a layer's view distance carries it.
    let layer = &config.scatter[0];
    let viewer = Vec2::new(10.0, -5.0);
    for z in -6..6 {
        for x in -6..6 {
            let coord = IVec2::new(x, z);
            let min = coord.as_vec2() * config.chunk_size;
            let nearest = viewer.clamp(min, min + config.chunk_size);
            if nearest.distance(viewer) < layer.view_distance - 1.0 {
                assert!(a.contains_key(&(coord, layer.name.clone())), "cell {coord}");
            }
        }
    }
}

#[test]
fn instances_go_with_their_cells_over_a_long_flight_and_the_game_hears_of_them() {
    let config = scatter_config();
    let (mut app, viewer) = app(config.clone(), Vec3::new(0.0, 50.0, 0.0));
    app.world_mut()
        .resource_mut::<ScatterVisuals>()
        .insert_custom("trees", |e| {
            e.insert(Name::new("tree"));
        });
    let mut heard = 0;
    let mut most = 0;
    for step in 0..60 {
        place(
            &mut app,
            viewer,
            Vec3::new(step as f32 * 50.0, 50.0, step as f32 * 20.0),
        );
        let mut messages = Vec::new();
        if step == 30 {
            // The game clears the terrain while placements are in flight.
            app.update();
            let in_flight = app.world().resource::<ScatterRegistry>().tasks_in_flight();
            messages.extend(drain::<ScatterSpawned>(&mut app));
            // (A task may have finished within the frame it started in.)
            assert!(
                in_flight > 0 || !messages.is_empty(),
                "the move placed nothing"
            );
            let root = app
                .world()
                .resource::<ChunkRegistry>()
                .root()
                .expect("a root");
            app.world_mut().despawn(root);
        }
        let (settled_messages, _) = collect_until::<ScatterSpawned>(&mut app, "this step", |app| {
            settled(app) && app.world().resource::<ScatterRegistry>().is_settled()
        });
        messages.extend(settled_messages);
        for message in messages {
            heard += message.instances.len();
            for &e in &message.instances {
                let instance = app.world().get::<ScatterInstance>(e);
                if let Some(instance) = instance {
                    assert_eq!(instance.layer, message.layer);
                    assert_eq!(
                        app.world().get::<ChildOf>(e).map(ChildOf::parent),
                        Some(message.cell)
                    );
                    if &*instance.layer == "trees" {
                        assert_eq!(app.world().get::<Name>(e).map(Name::as_str), Some("tree"));
                    }
                }
            }
        }
        // Every instance hangs from a live cell, and the registry counts exactly them.
        let mut cells = app
            .world_mut()
            .query_filtered::<Entity, With<ScatterCell>>();
        let live: std::collections::HashSet<Entity> = cells.iter(app.world()).collect();
        let mut q = app.world_mut().query::<(&ScatterInstance, &ChildOf)>();
        let mut count = 0;
        for (_, parent) in q.iter(app.world()) {
            assert!(
                live.contains(&parent.parent()),
                "an instance outlived its cell"
            );
            count += 1;
        }
        assert_eq!(
            count,
            app.world().resource::<ScatterRegistry>().instance_count()
        );
        most = most.max(count);
    }
    // A bounded number at any time, many more over the flight.
    assert!(heard > 3 * most, "heard of {heard}, at most {most} at once");
}

#[test]
fn bad_scatter_layers_are_rejected_naming_the_field() {
    for (ron, field) in [
        ("(scatter: [(name: \"\")])", "scatter[0].name"),
        (
            "(scatter: [(name: \"a\", spacing: 0.0)])",
            "scatter[0].spacing",
        ),
        (
            "(scatter: [(name: \"a\", spacing: 1.0, density: 20000.0)])",
            "scatter[0].density",
        ),
        (
            "(scatter: [(name: \"a\"), (name: \"a\")])",
            "scatter[1].name",
        ),
        (
            "(scatter: [(name: \"a\", slope: (min: 0.5, max: 0.2, fade: 0.0))])",
            "scatter[0].slope.max",
        ),
        (
            "(scatter: [(name: \"a\", scale: (2.0, 1.0))])",
            "scatter[0].scale",
        ),
        (
            "(scatter: [(name: \"a\", view_distance: 50000.0)])",
            "scatter[0].view_distance",
        ),
        (
            "(scatter: [(name: \"a\", far_color: Some((color: (2.0, 0.0, 0.0))))])",
            "scatter[0].far_color.color",
        ),
        (
            "(scatter: [(name: \"a\", far_color: Some((cover: -0.5)))])",
            "scatter[0].far_color.cover",
        ),
        (
            "(scatter: [(name: \"a\", far_color: Some(())), (name: \"b\", far_color: Some(())), (name: \"c\", far_color: Some(())), (name: \"d\", far_color: Some(())), (name: \"e\", far_color: Some(()))])",
            "at most 4 layers with a far_color",
        ),
        (
            "(scatter: [(name: \"a\", height: (min: 0.0, max: NaN, fade: 1.0))])",
            "scatter[0].height.max",
        ),
        (
            "(scatter: [(name: \"a\", spacing: 0.2, density: 200000.0, view_distance: 900.0)])",
            "scatter[0].density",
        ),
        ("(collision: (radius: -1.0))", "collision.radius"),
        (
            "(collision: (radius: 10.0, resolution: Some(100)))",
            "collision.resolution",
        ),
        ("(collision: (radius: 100000.0))", "collision.radius"),
    ] {
        let err = parse_config("terrain/bad.terrain.ron", ron.as_bytes())
            .expect_err(ron)
            .to_string();
        assert!(err.contains(field), "{ron}: {err}");
        assert!(err.contains("bad.terrain.ron"), "{ron}: {err}");
    }
}

/// The headless app of `config` with the material assets the plugin draws with (no renderer:
/// the materials are made and kept in step, nothing draws them), its `posts` layer drawn with
/// the `StandardMaterial` that `paint` makes (or reserves).
fn drawn_app(
    config: TerrainConfig,
    paint: impl FnOnce(&mut Assets<StandardMaterial>) -> Handle<StandardMaterial>,
) -> (App, Handle<StandardMaterial>) {
    use bevy_perlin_terrain::{CloudMaterial, ScatterMaterial, TerrainMaterial, WaterMaterial};
    let (mut app, _) = app(config, Vec3::new(10.0, 50.0, -5.0));
    app.init_asset::<Image>()
        .init_asset::<StandardMaterial>()
        .init_asset::<TerrainMaterial>()
        .init_asset::<WaterMaterial>()
        .init_asset::<CloudMaterial>()
        .init_asset::<ScatterMaterial>();
    let paint = paint(&mut app.world_mut().resource_mut::<Assets<StandardMaterial>>());
    app.world_mut()
        .resource_mut::<ScatterVisuals>()
        .insert_mesh("posts", Handle::default(), paint.clone());
    (app, paint)
}

/// For each `posts` instance, the twin it is drawn with (if any) and whether it also or instead
/// has the plain material.
fn post_materials(
    app: &mut App,
) -> Vec<(Option<AssetId<bevy_perlin_terrain::ScatterMaterial>>, bool)> {
    let mut q = app.world_mut().query::<(
        &ScatterInstance,
        Option<&MeshMaterial3d<bevy_perlin_terrain::ScatterMaterial>>,
        Has<MeshMaterial3d<StandardMaterial>>,
    )>();
    q.iter(app.world())
        .filter(|(instance, ..)| &*instance.layer == "posts")
        .map(|(_, shaded, plain)| (shaded.map(|m| m.0.id()), plain))
        .collect()
}

#[test]
fn mesh_layers_draw_with_a_twin_of_their_material_under_the_clouds() {
    use bevy_perlin_terrain::{ScatterMaterial, ScatterMaterials, TerrainTables, WeatherUniform};
    let config = TerrainConfig {
        clouds: Some(Clouds::default()),
        ..scatter_config()
    };
    let red = Color::srgb(0.8, 0.1, 0.1);
    let (mut app, paint) = drawn_app(config, |materials| materials.add(red));
    app.world_mut().resource_mut::<TerrainClock>().paused = true;
    app.world_mut().resource_mut::<TerrainClock>().seconds = 60.0;
    settle(&mut app);
    run_until(&mut app, "the scatter settles", |app| {
        app.world().resource::<ScatterRegistry>().is_settled()
    });
    app.update();
    let twin = app
        .world()
        .resource::<ScatterMaterials>()
        .twin(&paint)
        .cloned()
        .expect("the posts' material has a twin");
    let posts = post_materials(&mut app);
    for &(shaded, plain) in &posts {
        assert_eq!(shaded, Some(twin.id()));
        assert!(!plain, "a post drawn without the clouds' shade");
    }
    assert!(posts.len() > 1000, "{} posts", posts.len());
    let world = app.world();
    let tables = world.resource::<TerrainTables>().tables().clone();
    let active = world.resource::<ActiveTerrainConfig>().config().clone();
    let expected = WeatherUniform::new(&tables, &active, 60.0, Vec3::Y);
    let material = world
        .resource::<Assets<ScatterMaterial>>()
        .get(&twin)
        .expect("the twin");
    assert_eq!(material.base.base_color, red);
    assert_eq!(material.extension.weather.clouds, expected.clouds);
    assert_eq!(
        material.extension.weather.cloud_octaves,
        expected.cloud_octaves
    );
    assert_eq!(material.extension.weather.waves, Vec4::ZERO);
    // The game repaints the layer: the twin follows.
    let blue = Color::srgb(0.1, 0.1, 0.8);
    if let Some(mut m) = app
        .world_mut()
        .resource_mut::<Assets<StandardMaterial>>()
        .get_mut(&paint)
    {
        m.base_color = blue;
    }
    app.update();
    app.update();
    let material = app
        .world()
        .resource::<Assets<ScatterMaterial>>()
        .get(&twin)
        .expect("the twin");
    assert_eq!(material.base.base_color, blue);
}

#[test]
fn instances_spawned_while_their_material_loads_get_its_twin_once_it_is_in() {
    // A handle whose material is not there yet, as one loading from a file.
    let (mut app, paint) = drawn_app(scatter_config(), |materials| materials.reserve_handle());
    settle(&mut app);
    run_until(&mut app, "the scatter settles", |app| {
        app.world().resource::<ScatterRegistry>().is_settled()
    });
    let count = |app: &mut App| {
        let posts = post_materials(app);
        let shaded = posts.iter().filter(|(s, _)| s.is_some()).count();
        let plain = posts.iter().filter(|(_, p)| *p).count();
        (shaded, plain)
    };
    let (shaded, plain) = count(&mut app);
    assert_eq!(shaded, 0);
    assert!(
        plain > 1000,
        "{plain} posts drawn plain while their material loads"
    );
    let _ = app
        .world_mut()
        .resource_mut::<Assets<StandardMaterial>>()
        .insert(&paint, StandardMaterial::from(Color::srgb(0.8, 0.1, 0.1)));
    app.update();
    app.update();
    assert_eq!(
        count(&mut app),
        (plain, 0),
        "every post under the clouds' shade"
    );
}
