//! The harness that the workspace's tests and benchmarks share, so that there is one of it:
//!
//! - **the shipped presets**: their names read from `assets/terrain/` itself ([`preset_names`]),
//!   so a preset added there is tested and benchmarked without anyone listing it; their text
//!   ([`preset_text`]); and each parsed and validated as the plugin's asset loader does
//!   ([`preset`], [`presets`]);
//! - **a headless app** with the terrain plugin ([`HeadlessApp`]): `MinimalPlugins`, assets,
//!   transforms and meshes, finished as `App::run` would finish it ([`finish`]), with a viewer
//!   ([`spawn_viewer`]);
//! - **waits on its state, not on time**: [`run_until`] a condition holds, [`settle`] until the
//!   terrain is on screen and up to date, failing only on a hang ([`PATIENCE`]).
//!
//! Not published: a dev-dependency of `bevy_perlin_terrain` (its integration tests and benches)
//! and of the root package (its tests). It needs none of the plugin's optional features
//! (`render`, `avian`): a test that does adds what it needs (physics, materials) to the app
//! through [`HeadlessApp::build`].

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use bevy::app::Plugins;
use bevy::asset::AssetPlugin;
use bevy::mesh::MeshPlugin;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_perlin_terrain::config::parse_config;
use bevy_perlin_terrain::{ChunkRegistry, PerlinTerrainPlugin, TerrainConfig, TerrainViewer};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How a preset's file name ends: `NAME.terrain.ron` is the preset `NAME`.
pub const PRESET_SUFFIX: &str = ".terrain.ron";

/// The workspace's asset folder, `assets/`: the one the examples load from, and one a headless
/// app can be given ([`HeadlessApp::asset_dir`]) to load the presets by their [`asset_path`].
pub fn assets_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("this crate lies in the workspace's `crates/`")
        .join("assets")
}

/// The folder of the shipped presets, `assets/terrain/`: every `NAME.terrain.ron` in it is one.
pub fn presets_dir() -> PathBuf {
    assets_dir().join("terrain")
}

/// The names of the shipped presets (`NAME` of every `NAME.terrain.ron`), sorted: read from
/// [`presets_dir`] itself, so that every test and bench that takes them covers a preset as soon
/// as it is shipped. Panics, naming the folder, if it cannot be read.
pub fn preset_names() -> Vec<String> {
    let dir = presets_dir();
    let files = std::fs::read_dir(&dir)
        .and_then(|entries| {
            entries
                .map(|entry| entry.map(|e| e.file_name()))
                .collect::<std::io::Result<Vec<_>>>()
        })
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut names: Vec<String> = files
        .iter()
        .filter_map(|file| file.to_str()?.strip_suffix(PRESET_SUFFIX))
        .filter(|name| !name.is_empty())
        .map(str::to_owned)
        .collect();
    names.sort();
    names
}

/// The asset path of the preset `name`, `terrain/NAME.terrain.ron`: what
/// [`PerlinTerrainPlugin::from_asset`] and the asset server take with [`assets_dir`] as the
/// asset folder, and the label [`preset`]'s errors start with, as the plugin's loader's do.
pub fn asset_path(name: &str) -> String {
    format!("terrain/{name}{PRESET_SUFFIX}")
}

/// The file of the preset `name` on disk, in [`presets_dir`].
pub fn preset_file(name: &str) -> PathBuf {
    presets_dir().join(format!("{name}{PRESET_SUFFIX}"))
}

/// The text of the preset `name`, as shipped: a parser's input, a fuzz test's seed. Panics,
/// naming the file, if it cannot be read.
pub fn preset_text(name: &str) -> String {
    let path = preset_file(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The preset `name`, parsed and validated as the plugin's asset loader does
/// ([`parse_config`]). Panics with the loader's error (the file, the field and what is
/// allowed) if it is not a valid config.
pub fn preset(name: &str) -> TerrainConfig {
    parse_config(&asset_path(name), preset_text(name).as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

/// Every shipped preset, parsed ([`preset`]), with its name, in the order of [`preset_names`].
pub fn presets() -> Vec<(String, TerrainConfig)> {
    preset_names()
        .into_iter()
        .map(|name| {
            let config = preset(&name);
            (name, config)
        })
        .collect()
}

/// Builds a headless app as every test and bench of the terrain does: `MinimalPlugins`,
/// `AssetPlugin` (files from [`asset_dir`](Self::asset_dir), never watched for changes),
/// `TransformPlugin` and `MeshPlugin`; then what [`build`](Self::build) is given (the terrain
/// plugin, physics, …), finished.
///
/// ```ignore
/// let (mut app, viewer) = HeadlessApp::new().terrain(PerlinTerrainPlugin::default(), Vec3::Y * 80.0);
/// settle(&mut app);
/// ```
pub struct HeadlessApp {
    asset_dir: String,
    time: Option<TimeUpdateStrategy>,
    transforms: bool,
}

impl Default for HeadlessApp {
    fn default() -> Self {
        Self {
            asset_dir: "assets".into(),
            time: None,
            transforms: true,
        }
    }
}

impl HeadlessApp {
    /// Bevy's defaults: files from `assets` (beside the manifest of the package under test; the
    /// plugin's crate has none, which an app with a config in code never misses), time from the
    /// clock.
    pub fn new() -> Self {
        Self::default()
    }

    /// Files from `dir` instead (a temporary folder of configs, or [`assets_dir`]).
    pub fn asset_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.asset_dir = dir.as_ref().to_string_lossy().into_owned();
        self
    }

    /// Time advanced by `strategy` instead of the clock: a fixed step per update for physics
    /// (`FixedTimesteps(1)`), a paced frame for a flight (`ManualDuration`).
    pub fn time(mut self, strategy: TimeUpdateStrategy) -> Self {
        self.time = Some(strategy);
        self
    }

    /// Without `TransformPlugin`: for an app that brings its own transform propagation (a
    /// floating origin's, which refuses to run beside Bevy's).
    pub fn without_transform_plugin(mut self) -> Self {
        self.transforms = false;
        self
    }

    /// The app with the base plugins only, not finished: for what must be added before the
    /// terrain (systems ordered around its sets) or an app without it. [`finish`] it once its
    /// plugins are in.
    pub fn unfinished(self) -> App {
        let mut app = App::new();
        app.add_plugins((
            MinimalPlugins,
            AssetPlugin {
                file_path: self.asset_dir,
                watch_for_changes_override: Some(false),
                ..default()
            },
            MeshPlugin,
        ));
        if self.transforms {
            app.add_plugins(TransformPlugin);
        }
        if let Some(time) = self.time {
            app.insert_resource(time);
        }
        app
    }

    /// The app with the base plugins and `plugins` (the terrain plugin, and physics or the
    /// material assets' plugins where a test needs them), finished: ready to update.
    pub fn build<M>(self, plugins: impl Plugins<M>) -> App {
        let mut app = self.unfinished();
        app.add_plugins(plugins);
        finish(&mut app);
        app
    }

    /// The app with the terrain `plugin`, finished, and one [`TerrainViewer`] at `viewer`.
    pub fn terrain(self, plugin: PerlinTerrainPlugin, viewer: Vec3) -> (App, Entity) {
        let mut app = self.build(plugin);
        let viewer = spawn_viewer(&mut app, viewer);
        (app, viewer)
    }
}

/// Finishes `app` as `App::run` would before its first update (`finish`, then `cleanup`): the
/// plugins that wait for the others (the terrain's task pools, physics) complete their setup.
pub fn finish(app: &mut App) {
    app.finish();
    app.cleanup();
}

/// Spawns a [`TerrainViewer`] at `at`; the terrain streams in around it.
pub fn spawn_viewer(app: &mut App, at: Vec3) -> Entity {
    app.world_mut()
        .spawn((TerrainViewer, Transform::from_translation(at)))
        .id()
}

/// How long a wait on the terrain may take before a test fails: long enough for the slowest
/// debug build on a busy machine, so that only a hang fails (tests wait on state, not time).
pub const PATIENCE: Duration = Duration::from_secs(120);

/// Runs updates (the background tasks work meanwhile) until `done`, checked after each, for at
/// most `patience`: `Ok` with the frames it took, or `Err` with the frames run when the patience
/// ran out. For a bench that reports a slow wait rather than failing; a test calls
/// [`run_until`].
pub fn run_until_within(
    app: &mut App,
    patience: Duration,
    mut done: impl FnMut(&mut App) -> bool,
) -> Result<usize, usize> {
    let started = Instant::now();
    let mut frames = 0;
    loop {
        app.update();
        frames += 1;
        if done(app) {
            return Ok(frames);
        }
        if started.elapsed() >= patience {
            return Err(frames);
        }
        // Let the task pool's threads take the core.
        std::thread::yield_now();
    }
}

/// Runs updates until `done`; returns the frames it took. Panics, naming `what`, if that takes
/// longer than [`PATIENCE`].
pub fn run_until(app: &mut App, what: &str, done: impl FnMut(&mut App) -> bool) -> usize {
    run_until_within(app, PATIENCE, done)
        .unwrap_or_else(|frames| panic!("{what}: not after {frames} frames ({PATIENCE:?})"))
}

/// Whether every chunk the viewers want is on screen, up to date, and nothing is in flight.
pub fn settled(app: &mut App) -> bool {
    app.world().resource::<ChunkRegistry>().is_settled()
}

/// Runs until the terrain settles ([`settled`]); returns the frames it took. Panics if that
/// takes longer than [`PATIENCE`].
pub fn settle(app: &mut App) -> usize {
    run_until(app, "the terrain settles", settled)
}
