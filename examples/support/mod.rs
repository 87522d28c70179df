//! What the examples share: screenshot mode, for the render test.
//!
//! With `TERRAIN_SCREENSHOT=out.png` set, [`ScreenshotPlugin`] raises the streaming budgets
//! (software rendering runs at a few frames per second), waits until the example releases it
//! ([`ScreenshotRun::hold`]) and every wanted chunk is meshed, saves the window to `out.png` and
//! exits 0; it exits 1 if the config fails to load or no chunk appears within its time limit.

#![allow(dead_code, reason = "each example uses a part")]

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy_perlin_terrain::prelude::*;
use std::time::{Duration, Instant};

/// The screenshot path from `TERRAIN_SCREENSHOT`, if set.
pub fn screenshot_path() -> Option<String> {
    std::env::var("TERRAIN_SCREENSHOT").ok()
}

/// Screenshot mode (add it only when [`screenshot_path`] is set).
pub struct ScreenshotPlugin {
    pub path: String,
}

impl Plugin for ScreenshotPlugin {
    fn build(&self, app: &mut App) {
        // A picture left from an earlier run would look like this run's.
        let _ = std::fs::remove_file(&self.path);
        app.insert_resource(ScreenshotRun::new(self.path.clone()))
            .add_systems(
                Update,
                (
                    raise_budgets.before(TerrainSystems::Config),
                    fail_on_load_error,
                    take_screenshot.after(TerrainSystems::Upload),
                ),
            );
    }
}

/// The state of screenshot mode.
#[derive(Resource)]
pub struct ScreenshotRun {
    path: String,
    started: Instant,
    /// While true the example is still setting its scene up (a scripted flight); no picture.
    pub hold: bool,
    /// Frames in a row with every wanted chunk meshed and nothing in flight.
    settled_frames: u32,
    /// When the screenshot was requested.
    taken: Option<Instant>,
    /// Frame times (seconds) while settled, for the log.
    frame_times: Vec<f32>,
}

impl ScreenshotRun {
    const LIMIT: Duration = Duration::from_secs(240);

    fn new(path: String) -> Self {
        Self {
            path,
            started: Instant::now(),
            hold: false,
            settled_frames: 0,
            taken: None,
            frame_times: Vec::new(),
        }
    }

    /// Starts counting settled frames again (the scene changed).
    pub fn restart(&mut self) {
        self.settled_frames = 0;
    }
}

/// Larger per-frame budgets, so the picture does not wait on the frame count. A streaming
/// change: it applies without rebuilding anything already built.
fn raise_budgets(
    mut source: ResMut<TerrainConfigSource>,
    mut configs: ResMut<Assets<TerrainConfig>>,
    mut done: Local<bool>,
) {
    if *done {
        return;
    }
    let raise = |config: &mut TerrainConfig| {
        config.max_uploads_per_frame = 32;
        config.max_tasks_in_flight = 32;
    };
    match &mut *source {
        TerrainConfigSource::Asset(handle) => {
            if let Some(mut config) = configs.get_mut(handle.id()) {
                raise(&mut config);
                *done = true;
            }
        }
        TerrainConfigSource::Fixed(config) => {
            raise(config);
            *done = true;
        }
        TerrainConfigSource::Path(_) => {}
    }
}

/// Fails at once when the config cannot load, instead of at the time limit.
fn fail_on_load_error(
    source: Res<TerrainConfigSource>,
    asset_server: Res<AssetServer>,
    mut exit: MessageWriter<AppExit>,
) {
    if let TerrainConfigSource::Asset(handle) = &*source
        && asset_server.load_state(handle).is_failed()
    {
        // Bevy has already logged why (our loader names the file and the field).
        error!("the terrain config failed to load; no screenshot");
        exit.write(AppExit::error());
    }
}

fn take_screenshot(
    mut commands: Commands,
    mut run: ResMut<ScreenshotRun>,
    registry: Res<ChunkRegistry>,
    time: Res<Time<Real>>,
    mut exit: MessageWriter<AppExit>,
) {
    if let Some(taken) = run.taken {
        // save_to_disk writes the file a few frames after the request.
        let written = std::fs::metadata(&run.path).is_ok_and(|m| m.len() > 0);
        if written {
            info!("screenshot saved to {}", run.path);
            exit.write(AppExit::Success);
        } else if taken.elapsed() > Duration::from_secs(20) {
            error!("screenshot {} was not written", run.path);
            exit.write(AppExit::error());
        }
        return;
    }
    let timed_out = run.started.elapsed() > ScreenshotRun::LIMIT;
    if timed_out && registry.loaded_count() == 0 {
        error!(
            "no terrain chunk appeared within {:?}",
            ScreenshotRun::LIMIT
        );
        exit.write(AppExit::error());
        return;
    }
    if run.hold && !timed_out {
        return;
    }
    let ready = registry.is_settled() && registry.loaded_count() > 0;
    run.settled_frames = if ready { run.settled_frames + 1 } else { 0 };
    if ready {
        run.frame_times.push(time.delta_secs());
    } else {
        run.frame_times.clear();
    }
    // Ten settled frames: time for the last chunks' materials and pipelines to be ready.
    if run.settled_frames >= 10 || timed_out {
        let mut times = std::mem::take(&mut run.frame_times);
        times.sort_by(f32::total_cmp);
        if let Some(median) = times.get(times.len() / 2) {
            info!(
                "median frame time over the last {} settled frames: {:.1} ms",
                times.len(),
                median * 1000.0
            );
        }
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(run.path.clone()));
        run.taken = Some(Instant::now());
    }
}
