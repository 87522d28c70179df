//! Frame-time mode: `TERRAIN_FRAME_TIMES=out.txt` runs the fly example without a window (the
//! camera draws into a 1920 × 1080 image, so it runs on a machine with a GPU and no display)
//! and measures the frames of the horizon: first standing 900 m over the ground looking at it
//! once every chunk is built, then flying at 300 m/s 120 m over the ground while the terrain
//! streams. Each phase lasts `TERRAIN_FRAME_SECONDS` (default 10) seconds of real time.
//!
//! A frame's time is the interval between two updates of the app, and every frame waits for
//! the GPU to finish its work before the next one is drawn (there is no swap chain to hold it
//! back): what a game sees with vsync off, GPU time included. The file gets one line per
//! phase (frames, median, 99th percentile and worst frame time, the median time the render
//! thread waited for the GPU, chunks and levels on screen) and then every frame time; a picture
//! of each phase's last frame is saved beside it (`out-still.png`, `out-flight.png`).

use bevy::prelude::*;
use bevy::render::render_resource::PollType;
use bevy::render::renderer::RenderDevice;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::render::{Render, RenderApp, RenderSystems};
use bevy_perlin_terrain::prelude::*;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support::{self, ImageTarget};

/// Where the figures go, from `TERRAIN_FRAME_TIMES`, if set.
pub fn output_path() -> Option<String> {
    std::env::var("TERRAIN_FRAME_TIMES").ok()
}

/// Frame-time mode (add it only when [`output_path`] is set, to an app without a window).
pub struct FrameTimesPlugin {
    pub path: String,
}

impl Plugin for FrameTimesPlugin {
    fn build(&self, app: &mut App) {
        let seconds = support::env_number::<f32>("TERRAIN_FRAME_SECONDS")
            .filter(|s| s.is_finite() && *s > 0.0)
            .unwrap_or(10.0);
        let gpu_waits = GpuWaits::default();
        app.insert_resource(FrameRun {
            path: self.path.clone(),
            phase_length: Duration::from_secs_f32(seconds),
            phase: Phase::Settling,
            started: Instant::now(),
            logged_second: 0,
            phase_started: None,
            times: Vec::new(),
            report: String::new(),
            raw: String::new(),
            pictures: Vec::new(),
        })
        .insert_resource(gpu_waits.clone())
        .add_systems(PostStartup, support::draw_into_image)
        .add_systems(
            Update,
            support::picture_streaming.before(TerrainSystems::Config),
        )
        .add_systems(Update, measure.after(TerrainSystems::Upload));
        if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
            render_app
                .insert_resource(gpu_waits)
                .add_systems(Render, wait_for_gpu.in_set(RenderSystems::Cleanup));
        }
    }
}

/// How long the render thread waited for the GPU after each frame it submitted (seconds),
/// shared by the render world and the main world.
#[derive(Resource, Clone, Default)]
struct GpuWaits(Arc<Mutex<Vec<f32>>>);

/// Waits until the GPU has finished the frame just submitted.
fn wait_for_gpu(device: Res<RenderDevice>, waits: Res<GpuWaits>) {
    let start = Instant::now();
    if let Err(e) = device.poll(PollType::wait_indefinitely()) {
        warn!("waiting for the GPU: {e}");
    }
    if let Ok(mut waits) = waits.0.lock() {
        waits.push(start.elapsed().as_secs_f32());
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// 900 m over the ground, waiting for every chunk of the view.
    Settling,
    /// The same place, everything built: frames measured.
    Still,
    /// 300 m/s, 120 m over the ground: frames measured while the terrain streams.
    Flight,
    /// The pictures are being written.
    Done,
}

#[derive(Resource)]
struct FrameRun {
    path: String,
    phase_length: Duration,
    phase: Phase,
    started: Instant,
    /// The last whole second of settling a progress line was logged for.
    logged_second: u64,
    phase_started: Option<Instant>,
    /// Frame times of the phase (seconds).
    times: Vec<f32>,
    /// One line a phase, then each phase's frame times in order.
    report: String,
    raw: String,
    pictures: Vec<String>,
}

impl FrameRun {
    /// How long settling may take before the run fails.
    const LIMIT: Duration = Duration::from_secs(180);

    fn picture(&self, phase: &str) -> String {
        let stem = self.path.strip_suffix(".txt").unwrap_or(&self.path);
        format!("{stem}-{phase}.png")
    }
}

/// The value below which `q` of the sorted `times` lie (nearest rank).
fn quantile(sorted: &[f32], q: f64) -> f32 {
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len().max(1));
    sorted.get(rank - 1).copied().unwrap_or(f32::NAN)
}

#[allow(clippy::too_many_arguments, reason = "a system")]
fn measure(
    mut commands: Commands,
    mut run: ResMut<FrameRun>,
    target: Option<Res<ImageTarget>>,
    waits: Res<GpuWaits>,
    registry: Res<ChunkRegistry>,
    scatter: Res<ScatterRegistry>,
    sampler: Option<Res<TerrainSampler>>,
    time: Res<Time<Real>>,
    mut camera: Single<&mut Transform, With<Camera3d>>,
    mut exit: MessageWriter<AppExit>,
) {
    let (Some(sampler), Some(target)) = (sampler, target) else {
        return;
    };
    let ground = |p: Vec3| sampler.height(p.x as f64, p.z as f64);
    let forward = Vec3::new(0.3, 0.0, -1.0).normalize();
    match run.phase {
        Phase::Settling => {
            let p = Vec3::ZERO;
            camera.translation = Vec3::new(p.x, ground(p) + 900.0, p.z);
            camera.look_to(forward - Vec3::Y * 0.09, Vec3::Y);
            let ready =
                registry.is_settled() && scatter.is_settled() && registry.loaded_count() > 0;
            let second = run.started.elapsed().as_secs();
            if second > run.logged_second {
                run.logged_second = second;
                info!(
                    "frame times: settling, {} chunks, {} tasks in flight",
                    registry.loaded_count(),
                    registry.tasks_in_flight()
                );
            }
            if ready {
                info!(
                    "frame times: every chunk built after {:.1} s",
                    run.started.elapsed().as_secs_f32()
                );
                start_phase(&mut run, &waits, Phase::Still);
            } else if run.started.elapsed() > FrameRun::LIMIT {
                error!(
                    "frame times: the view did not settle within {:?}",
                    FrameRun::LIMIT
                );
                exit.write(AppExit::error());
            }
            return;
        }
        Phase::Flight => {
            camera.translation += forward * 300.0 * time.delta_secs();
            let p = camera.translation;
            camera.translation.y = ground(p) + 120.0;
            camera.look_to(forward - Vec3::Y * 0.12, Vec3::Y);
        }
        Phase::Still => {}
        Phase::Done => {
            let written = run
                .pictures
                .iter()
                .all(|p| std::fs::metadata(p).is_ok_and(|m| m.len() > 0));
            if written {
                exit.write(AppExit::Success);
            } else if run.started.elapsed() > FrameRun::LIMIT * 2 {
                error!("frame times: the pictures were not written");
                exit.write(AppExit::error());
            }
            return;
        }
    }
    run.times.push(time.delta_secs());
    let elapsed = run.phase_started.map_or(Duration::ZERO, |s| s.elapsed());
    if elapsed < run.phase_length {
        return;
    }
    // The phase is over: its figures, and a picture of its last frame.
    let name = if run.phase == Phase::Still {
        "still"
    } else {
        "flight"
    };
    let mut times = std::mem::take(&mut run.times);
    // The first frame's interval started in the phase before.
    if !times.is_empty() {
        times.remove(0);
    }
    let in_order: Vec<String> = times.iter().map(|t| format!("{:.3}", t * 1000.0)).collect();
    let in_order = format!(
        "{name} frame times (ms, in order): {}\n",
        in_order.join(" ")
    );
    let mut gpu = waits.0.lock().map(|w| w.clone()).unwrap_or_default();
    times.sort_by(f32::total_cmp);
    gpu.sort_by(f32::total_cmp);
    let levels = registry.iter().map(|c| c.lod).max().map_or(0, |l| l + 1);
    let ms = |s: f32| s * 1000.0;
    let line = format!(
        "{name}: {} frames in {:.1} s, median {:.2} ms, p99 {:.2} ms, worst {:.2} ms, GPU wait median {:.2} ms, {} chunks in {levels} levels, {} scatter instances",
        times.len(),
        elapsed.as_secs_f32(),
        ms(quantile(&times, 0.5)),
        ms(quantile(&times, 0.99)),
        ms(times.last().copied().unwrap_or(f32::NAN)),
        ms(quantile(&gpu, 0.5)),
        registry.loaded_count(),
        scatter.instance_count(),
    );
    info!("frame times: {line}");
    run.report.push_str(&line);
    run.report.push('\n');
    run.raw.push_str(&in_order);
    let picture = run.picture(name);
    commands
        .spawn(Screenshot::image(target.0.clone()))
        .observe(save_to_disk(picture.clone()));
    run.pictures.push(picture);
    if run.phase == Phase::Still {
        start_phase(&mut run, &waits, Phase::Flight);
        return;
    }
    run.phase = Phase::Done;
    let text = format!("{}{}", run.report, run.raw);
    if let Err(e) = std::fs::write(&run.path, text) {
        error!("frame times: cannot write {}: {e}", run.path);
        exit.write(AppExit::error());
    }
}

fn start_phase(run: &mut FrameRun, waits: &GpuWaits, phase: Phase) {
    run.phase = phase;
    run.phase_started = Some(Instant::now());
    run.times.clear();
    if let Ok(mut w) = waits.0.lock() {
        w.clear();
    }
}
