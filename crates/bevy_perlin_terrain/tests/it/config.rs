//! Configs: RON errors name the file, the field and the allowed range; configs that would ask
//! for too much work are refused; a config that reshapes the ground regenerates every chunk
//! without holes, a streaming change rebuilds nothing it does not have to; a broken file keeps
//! the terrain on screen.

use crate::common::*;
use bevy::asset::{AssetLoadFailedEvent, AssetServer, Assets};
use bevy::prelude::*;
use bevy_perlin_terrain::config::{TerrainConfigLoadError, parse_config};
use bevy_perlin_terrain::prelude::*;
use bevy_perlin_terrain::{TerrainTables, config};

#[test]
fn out_of_range_values_name_the_file_the_field_and_the_range() {
    let chunks_in_view = format!("at most {} chunks in view", config::MAX_VIEW_CHUNKS);
    for (ron, field, allowed) in [
        ("(chunk_resolution: 100)", "chunk_resolution", "2^k + 1"),
        ("(height_scale: -3.0)", "height_scale", "0.001 to 100000"),
        ("(noise: (octaves: 0))", "noise.octaves", "1 to 32"),
        ("(noise: (lacunarity: 0.0))", "noise.lacunarity", "> 0"),
        (
            "(max_tasks_in_flight: 0)",
            "max_tasks_in_flight",
            "1 to 256",
        ),
        ("(lod_distance: 100.0)", "lod_distance", "4.5 × chunk_size"),
        ("(colors: (rock_slope: 2.0))", "colors.rock_slope", "0 to 1"),
        ("(view_distance: inf)", "view_distance", "finite"),
        (
            "(colors: (snow: Some((max_slope: 1.5))))",
            "colors.snow.max_slope",
            "0 to 1",
        ),
        (
            "(colors: (bands: [(up_to: 1.0, color: (0.1, 0.1, 0.1), roughness: -1.0)]))",
            "colors.bands[0].roughness",
            "0 to 1",
        ),
        (
            "(colors: (rock_texture: Some((albedo: \"rock.png\", size: 0.0))))",
            "colors.rock_texture.size",
            "0.01 to 10000",
        ),
        (
            "(colors: (bands: [(up_to: 1.0, color: (0.1, 0.1, 0.1)), (up_to: 2.0, color: (0.1, 0.1, 0.1)), (up_to: 3.0, color: (0.1, 0.1, 0.1)), (up_to: 4.0, color: (0.1, 0.1, 0.1)), (up_to: 5.0, color: (0.1, 0.1, 0.1)), (up_to: 6.0, color: (0.1, 0.1, 0.1)), (up_to: 7.0, color: (0.1, 0.1, 0.1)), (up_to: 8.0, color: (0.1, 0.1, 0.1)), (up_to: 9.0, color: (0.1, 0.1, 0.1))]))",
            "colors.bands",
            "at most 8 bands",
        ),
        (
            "(colors: (edge_noise: (size: 0.0)))",
            "colors.edge_noise.size",
            "0.1 to 100000",
        ),
        (
            "(water: Some((depth: 0.0)))",
            "water.depth",
            "0.01 to 10000",
        ),
        (
            "(water: Some((sky: (2.0, 0.0, 0.0))))",
            "water.sky",
            "0 to 1",
        ),
        // Configs that validate field by field but would ask for too much.
        (
            "(chunk_size: 0.5, view_distance: 1000000.0)",
            "view_distance",
            &chunks_in_view,
        ),
        (
            "(chunk_resolution: 1025, lod_distance: 1280.0, view_distance: 4000.0, chunk_size: 256.0)",
            "view_distance",
            "meshes in view of at most 2048 MiB",
        ),
        (
            "(chunk_resolution: 1025, view_distance: 40.0, max_tasks_in_flight: 64)",
            "max_tasks_in_flight",
            "at chunk_resolution 1025",
        ),
        (
            "(chunk_resolution: 257, view_distance: 300.0, max_uploads_per_frame: 256)",
            "max_uploads_per_frame",
            "at chunk_resolution 257",
        ),
    ] {
        let text = error_text(ron);
        assert!(text.starts_with("terrain/bad.terrain.ron"), "{text}");
        assert!(
            text.contains(&format!("`{field}`")) && text.contains(allowed),
            "{ron}: {text}"
        );
    }
}

#[test]
fn a_preset_written_for_per_level_distances_is_refused_with_what_to_write() {
    let text = error_text("(view_distance: 900.0, lod_distances: [200.0, 400.0, 700.0])");
    assert!(text.starts_with("terrain/bad.terrain.ron:1:"), "{text}");
    assert!(
        text.contains("`lod_distances`") && text.contains("lod_distance: 320.0"),
        "{text}"
    );
}

#[test]
fn keys_spelled_the_old_way_are_refused_with_what_to_write() {
    for (ron, field, old, new) in [
        ("(colours: ())", "colours", "colours", "colors"),
        (
            "(colors: (rock_colour: [0.1, 0.1, 0.1]))",
            "colors.rock_colour",
            "rock_colour",
            "",
        ),
        (
            "(colors: (snow: Some((colour: (1.0, 1.0, 1.0)))))",
            "colors.snow.colour",
            "colour",
            "color",
        ),
        (
            "(scatter: [(name: \"t\", far_colour: Some((color: (0.1, 0.2, 0.1))))])",
            "scatter[0].far_colour",
            "far_colour",
            "far_color",
        ),
        (
            "(colors: (detail: (strength: 0.3)))",
            "colors.detail",
            "detail",
            "grain",
        ),
    ] {
        let text = error_text(ron);
        assert!(text.contains(&format!("`{field}`")), "{ron}: {text}");
        if new.is_empty() {
            // Not a renamed key: the parser's own message, with the known fields.
            assert!(
                text.contains(&format!("field named `{old}`")),
                "{ron}: {text}"
            );
        } else {
            assert!(
                text.contains(&format!("`{old}` is now spelled `{new}`")),
                "{ron}: {text}"
            );
        }
    }
    // `detail` is renamed only in `colors`: elsewhere an unknown `detail` is just unknown.
    let text = error_text("(water: Some((detail: 1.0)))");
    assert!(text.contains("field named `detail`"), "{text}");
}

#[test]
fn views_of_fifty_kilometres_validate_and_the_bound_follows_the_tree() {
    for view_distance in [1000.0, 10_000.0, 30_000.0, 50_000.0, 100_000.0] {
        let config = TerrainConfig {
            view_distance,
            ..TerrainConfig::default()
        };
        assert_eq!(config.validate(), Ok(()), "{view_distance} m");
        assert!(config.lod_layout().most_chunks() < config::MAX_VIEW_CHUNKS as f64);
    }
    // Full detail far out makes the tree too large: the error says how large.
    let greedy = TerrainConfig {
        view_distance: 50_000.0,
        lod_distance: 20_000.0,
        ..TerrainConfig::default()
    };
    let e = greedy.validate().expect_err("too many chunks").to_string();
    assert!(
        e.contains("view_distance") && e.contains("chunks in view"),
        "{e}"
    );
}

#[test]
fn malformed_files_name_the_file_the_position_and_the_field() {
    let text = error_text("(\n  noise: (octaves: \"six\"),\n)");
    assert!(text.starts_with("terrain/bad.terrain.ron:2:"), "{text}");
    assert!(
        text.contains("`noise.octaves`") && text.contains("integer"),
        "{text}"
    );
    let text = error_text("(seed: 1, hieght_scale: 2.0)");
    assert!(
        text.contains("hieght_scale") && text.contains("height_scale"),
        "{text}"
    );
    let text = error_text("(seed: 1,");
    assert!(text.starts_with("terrain/bad.terrain.ron:1:"), "{text}");
    assert!(matches!(
        parse_config("x", b"not ron at all"),
        Err(TerrainConfigLoadError::Parse { .. })
    ));
    // A valid file parses to the same config as code would build.
    let ok = parse_config(
        "ok",
        b"(seed: 5, noise: (octaves: 3), chunk_resolution: 33)",
    )
    .expect("valid");
    assert_eq!(ok.seed, 5);
    assert_eq!(ok.noise.octaves, 3);
    assert_eq!(ok.chunk_resolution, 33);
}

/// A temporary asset folder with `terrain/test.terrain.ron` holding `config`.
fn asset_dir(name: &str, config: &TerrainConfig) -> String {
    let dir = std::env::temp_dir().join(format!("bpt-{name}-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("terrain")).expect("temp dir");
    let text =
        ron::ser::to_string_pretty(config, ron::ser::PrettyConfig::default()).expect("serialises");
    std::fs::write(dir.join("terrain/test.terrain.ron"), text).expect("write");
    std::fs::write(
        dir.join("terrain/broken.terrain.ron"),
        "(\n  seed: 3,\n  chunk_size: -8.0,\n)",
    )
    .expect("write");
    dir.to_string_lossy().into_owned()
}

#[test]
fn a_changed_config_asset_regenerates_every_chunk_without_holes() {
    let config = small_config();
    let dir = asset_dir("reload", &config);
    let plugin = PerlinTerrainPlugin::from_asset("terrain/test.terrain.ron");
    let (mut app, _) = app_with(plugin, &dir, Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    let before = chunks(&mut app);
    let generation = app.world().resource::<ActiveTerrainConfig>().generation();
    // What a hot reload does: the asset's value changes and Bevy sends `Modified`.
    let handle = match app.world().resource::<TerrainConfigSource>() {
        TerrainConfigSource::Asset(h) => h.clone(),
        other => panic!("source is {other:?}"),
    };
    // A save that changes nothing still sends `Modified`: nothing is rebuilt.
    {
        let mut assets = app.world_mut().resource_mut::<Assets<TerrainConfig>>();
        let mut same = assets.get_mut(&handle).expect("loaded");
        same.height_scale = config.height_scale;
    }
    for _ in 0..5 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<ActiveTerrainConfig>().generation(),
        generation
    );
    app.world_mut()
        .resource_mut::<Assets<TerrainConfig>>()
        .get_mut(&handle)
        .expect("loaded")
        .height_scale = 400.0;
    let mut fewest = usize::MAX;
    run_until(&mut app, "the new ground", |app| {
        fewest = fewest.min(chunks(app).len());
        let active = app.world().resource::<ActiveTerrainConfig>();
        active.generation() > generation && settled(app)
    });
    assert_eq!(
        app.world()
            .resource::<ActiveTerrainConfig>()
            .config()
            .height_scale,
        400.0
    );
    // Same entities throughout: the old meshes stayed until their replacements arrived.
    assert!(
        fewest >= before.len(),
        "{fewest} chunks at one point, {} before",
        before.len()
    );
    let after = chunks(&mut app);
    assert_eq!(after.len(), before.len());
    let sampler = app.world().resource::<TerrainSampler>().clone();
    let (_, any) = after[0];
    let (positions, _) = mesh_of(&app, after[0].0);
    let [x, z] = small_config().vertex_position(any.coord, any.lod, 0, 0);
    assert_eq!(
        positions[0][1],
        sampler.height(x, z),
        "meshes follow the new height scale"
    );
}

#[test]
fn a_broken_config_file_keeps_the_terrain_and_reports_the_field() {
    let config = small_config();
    let dir = asset_dir("broken", &config);
    let plugin = PerlinTerrainPlugin::from_asset("terrain/test.terrain.ron");
    let (mut app, _) = app_with(plugin, &dir, Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    let before = chunks(&mut app);
    let generation = app.world().resource::<ActiveTerrainConfig>().generation();
    // Switch to the broken file, as a preset key would.
    let broken = app
        .world()
        .resource::<AssetServer>()
        .load::<TerrainConfig>("terrain/broken.terrain.ron");
    *app.world_mut().resource_mut::<TerrainConfigSource>() = TerrainConfigSource::Asset(broken);
    let mut failure = None;
    run_until(&mut app, "the load fails", |app| {
        let mut messages = app
            .world_mut()
            .resource_mut::<Messages<AssetLoadFailedEvent<TerrainConfig>>>();
        failure = failure
            .take()
            .or_else(|| messages.drain().next().map(|e| e.error.to_string()));
        failure.is_some()
    });
    let failure = failure.unwrap_or_default();
    assert!(
        failure.contains("broken.terrain.ron")
            && failure.contains("`chunk_size`")
            && failure.contains("0.5 to 100000"),
        "{failure}"
    );
    for _ in 0..30 {
        app.update();
    }
    assert_eq!(
        app.world().resource::<ActiveTerrainConfig>().generation(),
        generation
    );
    let after = chunks(&mut app);
    assert_eq!(after, before, "the terrain on screen stays");
}

#[test]
fn an_invalid_config_in_code_runs_no_world_until_a_valid_one_is_set() {
    let bad = TerrainConfig {
        chunk_resolution: 3,
        ..small_config()
    };
    let (mut app, _) = app(bad, Vec3::ZERO);
    for _ in 0..5 {
        app.update();
    }
    let world = app.world();
    assert!(
        world.get_resource::<ActiveTerrainConfig>().is_none(),
        "no other world runs"
    );
    assert!(world.get_resource::<TerrainSampler>().is_none());
    assert_eq!(world.resource::<ChunkRegistry>().loaded_count(), 0);
    // The game sets a valid one: that world runs.
    switch(&mut app, small_config());
    settle(&mut app);
    assert_eq!(
        *app.world().resource::<ActiveTerrainConfig>().config(),
        small_config()
    );
    assert!(app.world().resource::<ChunkRegistry>().loaded_count() > 0);
}

#[test]
fn a_fixed_config_has_its_sampler_before_the_first_frame() {
    let config = small_config();
    let (app, _) = app(config.clone(), Vec3::ZERO);
    let sampler = app
        .world()
        .get_resource::<TerrainSampler>()
        .expect("a sampler before any update");
    let tables = perlin_core_tables(config.seed);
    let expected = TerrainSampler::new(tables, &config).height(12.5, -40.25);
    assert_eq!(sampler.height(12.5, -40.25), expected);
}

fn perlin_core_tables(seed: u64) -> std::sync::Arc<bevy_perlin_terrain::perlin_core::NoiseTables> {
    std::sync::Arc::new(bevy_perlin_terrain::perlin_core::NoiseTables::from_seed(
        seed,
    ))
}

/// Replaces the fixed config in force, as a game (or the fly example's settings panel) does.
fn switch(app: &mut App, config: TerrainConfig) {
    *app.world_mut().resource_mut::<TerrainConfigSource>() = TerrainConfigSource::Fixed(config);
}

#[test]
fn a_streaming_change_applies_without_rebuilding_chunks_that_keep_their_place() {
    let config = small_config();
    let (mut app, _) = app(config.clone(), Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    let before = chunks(&mut app);
    let generation = app.world().resource::<ActiveTerrainConfig>().generation();
    drain::<ChunkRemeshed>(&mut app);
    drain::<ChunkSpawned>(&mut app);
    // A wider view and bigger budgets: only new chunks are built.
    let wider = TerrainConfig {
        view_distance: 600.0,
        max_tasks_in_flight: 16,
        max_uploads_per_frame: 8,
        ..config.clone()
    };
    switch(&mut app, wider);
    let mut remeshed = Vec::new();
    let (spawned, _) = collect_until::<ChunkSpawned>(&mut app, "the wider view", |app| {
        remeshed.extend(drain::<ChunkRemeshed>(app));
        settled(app)
            && app
                .world()
                .resource::<ActiveTerrainConfig>()
                .config()
                .view_distance
                == 600.0
    });
    let active = app.world().resource::<ActiveTerrainConfig>();
    assert_eq!(
        active.generation(),
        generation,
        "a streaming change keeps the generation"
    );
    assert!(active.last_changes().streaming && !active.last_changes().mesh);
    assert!(
        remeshed.is_empty(),
        "{} chunks were rebuilt",
        remeshed.len()
    );
    assert!(
        spawned.len() > 10,
        "the wider view added {} chunks",
        spawned.len()
    );
    // The chunks near the viewer are the same entities at the same level.
    let after = chunks(&mut app);
    let near: Vec<_> = before.iter().filter(|(_, c)| c.lod == 0).collect();
    assert!(!near.is_empty());
    for chunk in near {
        assert!(after.contains(chunk), "{chunk:?} was rebuilt or lost");
    }
    // Full detail farther out splits chunks near the edge of the old detail, and only those.
    let before = chunks(&mut app);
    switch(
        &mut app,
        TerrainConfig {
            view_distance: 600.0,
            lod_distance: 200.0,
            ..config
        },
    );
    let (remeshed, _) = collect_until::<ChunkRemeshed>(&mut app, "the new layout", |app| {
        settled(app)
            && app
                .world()
                .resource::<ActiveTerrainConfig>()
                .config()
                .lod_distance
                == 200.0
    });
    assert!(remeshed.is_empty(), "nothing is rebuilt in place");
    let after = chunks(&mut app);
    let kept = before.iter().filter(|c| after.contains(c)).count();
    assert!(
        kept > 0 && kept < before.len() && after.len() > before.len(),
        "{kept} of {} kept, {} after",
        before.len(),
        after.len()
    );
}

#[test]
fn a_fixed_config_replaced_at_run_time_rebuilds_the_same_entities_and_shares_tables() {
    let config = small_config();
    let (mut app, _) = app(config.clone(), Vec3::new(0.0, 80.0, 0.0));
    settle(&mut app);
    let before = chunks(&mut app);
    let tables = app.world().resource::<TerrainTables>().tables().clone();
    let generation = app.world().resource::<ActiveTerrainConfig>().generation();
    switch(
        &mut app,
        TerrainConfig {
            height_scale: 300.0,
            ..config.clone()
        },
    );
    let mut remeshed = 0;
    run_until(&mut app, "the new ground", |app| {
        remeshed += drain::<ChunkRemeshed>(app).len();
        app.world().resource::<ActiveTerrainConfig>().generation() > generation && settled(app)
    });
    assert_eq!(remeshed, before.len(), "every chunk was rebuilt once");
    let after = chunks(&mut app);
    assert_eq!(
        after.iter().map(|(e, _)| *e).collect::<Vec<_>>(),
        before.iter().map(|(e, _)| *e).collect::<Vec<_>>(),
        "in place"
    );
    // Same seed: the same tables, not a copy.
    assert!(std::sync::Arc::ptr_eq(
        app.world().resource::<TerrainTables>().tables(),
        &tables
    ));
    // A new seed builds new ones.
    switch(&mut app, TerrainConfig { seed: 99, ..config });
    app.update();
    app.update();
    let now = app.world().resource::<TerrainTables>();
    assert_eq!(now.seed(), 99);
    assert!(!std::sync::Arc::ptr_eq(now.tables(), &tables));
    // An invalid replacement is refused and the terrain stays.
    let generation = app.world().resource::<ActiveTerrainConfig>().generation();
    switch(
        &mut app,
        TerrainConfig {
            chunk_resolution: 7,
            ..small_config()
        },
    );
    app.update();
    app.update();
    assert_eq!(
        app.world().resource::<ActiveTerrainConfig>().generation(),
        generation
    );
    assert_eq!(
        app.world().resource::<ActiveTerrainConfig>().config().seed,
        99
    );
}

#[test]
fn the_terrain_types_are_registered_for_reflection() {
    let (app, _) = app(small_config(), Vec3::ZERO);
    let registry = app.world().resource::<AppTypeRegistry>().read();
    for name in [
        "TerrainConfig",
        "TerrainConfigSource",
        "ActiveTerrainConfig",
        "TerrainTables",
        "TerrainSampler",
        "ChunkRegistry",
        "TerrainViewer",
        "TerrainRoot",
        "TerrainChunk",
        "ChunkSpawned",
        "ChunkRemeshed",
        "ChunkDespawned",
        "ScatterCell",
        "Fbm",
        "Erosion",
    ] {
        assert!(
            registry.get_with_short_type_path(name).is_some(),
            "{name} is not registered"
        );
    }
}

/// `docs/configuration.md` shows the range table as `config::markdown_table` renders it, between
/// its two markers; with `BLESS_DOCS=1` the test writes the table there instead of failing.
#[test]
fn the_configuration_docs_show_the_range_table() {
    const BEGIN: &str = "<!-- ranges:begin -->";
    const END: &str = "<!-- ranges:end -->";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/configuration.md");
    let shown = path.display();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{shown}: {e}"));
    let start = text
        .find(BEGIN)
        .map(|i| i + BEGIN.len())
        .unwrap_or_else(|| panic!("{shown}: no {BEGIN}"));
    let end = text[start..]
        .find(END)
        .map(|i| start + i)
        .unwrap_or_else(|| panic!("{shown}: no {END} after {BEGIN}"));
    let table = format!("\n{}", config::markdown_table());
    if text[start..end] == table {
        return;
    }
    if std::env::var("BLESS_DOCS").is_ok_and(|v| v == "1") {
        let blessed = format!("{}{table}{}", &text[..start], &text[end..]);
        std::fs::write(&path, blessed).unwrap_or_else(|e| panic!("{shown}: {e}"));
        return;
    }
    panic!(
        "{shown}: the table between {BEGIN} and {END} is not config::markdown_table()'s; run this test with BLESS_DOCS=1 to write it"
    );
}
