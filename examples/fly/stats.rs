//! Render-statistics mode: `TERRAIN_RENDER_STATS=out.txt` counts the GPU's work for one view,
//! on any machine with Vulkan (the software renderer included): the fly example without a
//! window, drawing into a 1920 × 1080 image with the example's own renderer settings.
//!
//! The view: `TERRAIN_PRESET`, `TERRAIN_VIEW` (a view distance in metres, optional) and
//! `TERRAIN_CAMERA=x,z,height,yaw,pitch` (metres, the height over the ground at `x`, `z`;
//! degrees, yaw 0 looking towards −Z and growing towards +X, pitch below 0 looking down;
//! default `0,0,900,16.7,-5.1`, the horizon from 900 m up). `TERRAIN_SPEED` (m/s, default 0)
//! flies forward keeping the height over the ground, a sixtieth of it a frame.
//!
//! Standing, the cameras stay idle until every chunk in view is built, then draw until every
//! render pipeline is compiled; flying, the same at the start, then `TERRAIN_STATS_WARMUP`
//! frames (default 60) of flight with the cameras idle, as a frame of the software renderer
//! takes seconds. Then `TERRAIN_STATS_FRAMES` frames (default 5) are drawn and measured with
//! Bevy's pipeline statistics, and the file gets one line per render pass and one for the frame:
//!
//! ```text
//! pass <label> primitives <n> vertices <n> fragments <n> gpu_ms <x>
//! frame width <w> height <h> chunks <n> primitives <all passes> fragments_per_pixel <x> frame_ms <x>
//! ```
//!
//! Medians over the measured frames. `primitives` are clipper invocations (the triangles
//! submitted); `gpu_ms` is `nan` without timestamp queries; `fragments_per_pixel` is the main
//! opaque pass's fragment-shader invocations over `w · h`. Bevy records no statistics for the
//! shadow passes: their lines (`shadow_cascade<k>`) are counted here, every mesh the cascade
//! draws (its casters after culling) times its triangles and vertices, with `fragments` and
//! `gpu_ms` `nan`. The last frame is saved beside the file (`out.png`).

use bevy::camera::visibility::CascadesVisibleEntities;
use bevy::diagnostic::DiagnosticsStore;
use bevy::mesh::Indices;
use bevy::prelude::*;
use bevy::render::diagnostic::RenderDiagnosticsPlugin;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy_perlin_terrain::prelude::*;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::support::{self, ImageTarget, PipelineWatch};

/// The size of the image the cameras draw into.
const WIDTH: u32 = support::IMAGE_SIZE[0];
const HEIGHT: u32 = support::IMAGE_SIZE[1];

/// Where the figures go, from `TERRAIN_RENDER_STATS`, if set.
pub fn output_path() -> Option<String> {
    std::env::var("TERRAIN_RENDER_STATS").ok()
}

/// Render-statistics mode (add it only when [`output_path`] is set, to an app without a
/// window).
pub struct RenderStatsPlugin {
    pub path: String,
}

impl Plugin for RenderStatsPlugin {
    fn build(&self, app: &mut App) {
        let number = |name: &str, default: u32| support::env_number(name).unwrap_or(default);
        let speed = support::env_number::<f32>("TERRAIN_SPEED")
            .filter(|v| v.is_finite())
            .unwrap_or(0.0);
        let camera = match std::env::var("TERRAIN_CAMERA") {
            Ok(text) => CameraPlace::parse(&text).unwrap_or_else(|| {
                error!("render stats: TERRAIN_CAMERA={text:?} is not x,z,height,yaw,pitch");
                CameraPlace::DEFAULT
            }),
            Err(_) => CameraPlace::DEFAULT,
        };
        let watch = PipelineWatch::install(app);
        if speed == 0.0 {
            // Standing, the view only has to be built; flying, streaming keeps the preset's
            // budgets, as a game's would.
            app.insert_resource(support::RaisedBudgets);
        }
        app.add_plugins(RenderDiagnosticsPlugin)
            .insert_resource(watch)
            .insert_resource(StatsRun {
                path: self.path.clone(),
                camera,
                speed,
                warmup: number("TERRAIN_STATS_WARMUP", 60),
                frames: number("TERRAIN_STATS_FRAMES", 5).max(1),
                phase: Phase::Settling,
                started: Instant::now(),
                travelled: 0.0,
                compiled_frames: 0,
                flown: 0,
                seen: BTreeMap::new(),
                samples: BTreeMap::new(),
                shadows: Vec::new(),
                frame_times: Vec::new(),
                picture: None,
            })
            .add_systems(PostStartup, support::draw_into_image)
            .add_systems(
                Update,
                support::picture_streaming.before(TerrainSystems::Config),
            )
            .add_systems(
                Update,
                (place_camera, measure)
                    .chain()
                    .after(super::keep_above_ground)
                    .after(TerrainSystems::Upload),
            );
    }
}

/// Where the camera stands and looks.
#[derive(Clone, Copy, Debug)]
struct CameraPlace {
    x: f32,
    z: f32,
    /// Over the ground at `x`, `z`.
    height: f32,
    /// Degrees: 0 looks towards −Z, 90 towards +X.
    yaw: f32,
    /// Degrees: below 0 looks down.
    pitch: f32,
}

impl CameraPlace {
    /// The horizon from 900 m up, as the fly example's other modes see it.
    const DEFAULT: Self = Self {
        x: 0.0,
        z: 0.0,
        height: 900.0,
        yaw: 16.7,
        pitch: -5.1,
    };

    /// `x,z,height,yaw,pitch`, every one a finite number.
    fn parse(text: &str) -> Option<Self> {
        let values: Vec<f32> = text
            .split(',')
            .map(|v| v.trim().parse::<f32>().ok().filter(|v| v.is_finite()))
            .collect::<Option<_>>()?;
        let [x, z, height, yaw, pitch] = values[..] else {
            return None;
        };
        Some(Self {
            x,
            z,
            height,
            yaw,
            pitch,
        })
    }

    /// The camera's rotation.
    fn rotation(&self) -> Quat {
        Quat::from_euler(
            EulerRot::YXZ,
            -self.yaw.to_radians(),
            self.pitch.clamp(-90.0, 90.0).to_radians(),
            0.0,
        )
    }

    /// Horizontal unit vector of the yaw.
    fn heading(&self) -> Vec3 {
        let yaw = self.yaw.to_radians();
        Vec3::new(yaw.sin(), 0.0, -yaw.cos())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Cameras idle until every chunk in view is built.
    Settling,
    /// Cameras drawing until every pipeline is compiled.
    Compiling,
    /// Flying with the cameras idle (only when the speed is not 0).
    Warmup,
    /// Drawing and measuring.
    Measuring,
    /// The figures are written; waiting for the picture.
    Done,
}

/// The state of render-statistics mode.
#[derive(Resource)]
struct StatsRun {
    path: String,
    camera: CameraPlace,
    speed: f32,
    warmup: u32,
    frames: u32,
    phase: Phase,
    started: Instant,
    /// Metres flown along the heading.
    travelled: f32,
    compiled_frames: u32,
    flown: u32,
    /// The time of the last measurement taken of each diagnostic, so each counts once.
    seen: BTreeMap<String, Instant>,
    /// Measurements of each pass (label, field), one a frame.
    samples: BTreeMap<(String, &'static str), Vec<f64>>,
    /// Triangles and vertices each shadow cascade draws, one entry a measured frame.
    shadows: Vec<Vec<(u64, u64)>>,
    frame_times: Vec<f32>,
    picture: Option<String>,
}

impl StatsRun {
    /// How long the view may take to settle before the run fails.
    const LIMIT: Duration = Duration::from_secs(600);

    /// Frames measured so far: those of the main opaque pass's fragments.
    fn measured(&self) -> usize {
        self.samples
            .iter()
            .filter(|((label, field), _)| label.ends_with(MAIN_PASS) && *field == FRAGMENTS)
            .map(|(_, v)| v.len())
            .max()
            .unwrap_or(0)
    }
}

const MAIN_PASS: &str = "main_opaque_pass_3d";
const FRAGMENTS: &str = "fragment_shader_invocations";
/// The pipeline statistics a pass line shows, in its order, and the name it shows them by.
const FIELDS: [(&str, &str); 4] = [
    ("clipper_invocations", "primitives"),
    ("vertex_shader_invocations", "vertices"),
    (FRAGMENTS, "fragments"),
    ("elapsed_gpu", "gpu_ms"),
];

/// Puts the camera where `TERRAIN_CAMERA` says, moved along its heading as far as it has flown;
/// the cameras draw only while compiling and measuring.
fn place_camera(
    run: Res<StatsRun>,
    sampler: Option<Res<TerrainSampler>>,
    mut cameras: Query<(&mut Transform, &mut Camera), With<Camera3d>>,
) {
    let Some(sampler) = sampler else { return };
    let place = run.camera;
    let at = Vec3::new(place.x, 0.0, place.z) + place.heading() * run.travelled;
    let ground = sampler.height(at.x as f64, at.z as f64);
    let draw = matches!(run.phase, Phase::Compiling | Phase::Measuring);
    for (mut transform, mut camera) in &mut cameras {
        transform.translation = at.with_y(ground + place.height);
        transform.rotation = place.rotation();
        if camera.is_active != draw {
            camera.is_active = draw;
        }
    }
}

#[allow(clippy::too_many_arguments, reason = "a system")]
fn measure(
    mut commands: Commands,
    mut run: ResMut<StatsRun>,
    watch: Res<PipelineWatch>,
    target: Option<Res<ImageTarget>>,
    registry: Res<ChunkRegistry>,
    scatter: Res<ScatterRegistry>,
    store: Res<DiagnosticsStore>,
    lights: Query<&CascadesVisibleEntities, With<DirectionalLight>>,
    casters: Query<&Mesh3d>,
    meshes: Res<Assets<Mesh>>,
    time: Res<Time<Real>>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(target) = target else { return };
    // The picture gets a minute more than the figures.
    let limit =
        StatsRun::LIMIT + Duration::from_secs(if run.phase == Phase::Done { 60 } else { 0 });
    if run.started.elapsed() > limit {
        error!("render stats: not done within {limit:?}");
        exit.write(AppExit::error());
        return;
    }
    match run.phase {
        Phase::Settling => {
            if registry.is_settled() && scatter.is_settled() && registry.loaded_count() > 0 {
                info!(
                    "render stats: {} chunks built after {:.1} s",
                    registry.loaded_count(),
                    run.started.elapsed().as_secs_f32()
                );
                run.phase = Phase::Compiling;
            }
        }
        Phase::Compiling => {
            // The cameras drew this frame's predecessor; three frames in a row with every
            // pipeline compiled and the view still settled.
            let ready = watch.idle() && registry.is_settled();
            run.compiled_frames = if ready { run.compiled_frames + 1 } else { 0 };
            if run.compiled_frames >= 3 {
                run.phase = if run.speed != 0.0 && run.warmup > 0 {
                    Phase::Warmup
                } else {
                    Phase::Measuring
                };
                // What was recorded so far belongs to the frames before.
                run.seen = latest(&store);
            }
        }
        Phase::Warmup => {
            run.travelled += run.speed / 60.0;
            run.flown += 1;
            if run.flown >= run.warmup {
                run.phase = Phase::Measuring;
                run.seen = latest(&store);
            }
        }
        Phase::Measuring => {
            run.travelled += run.speed / 60.0;
            run.frame_times.push(time.delta_secs());
            // Each diagnostic's measurement counts once, in the frame it arrives in.
            for d in store.iter() {
                let (Some(m), path) = (d.measurement(), d.path().as_str()) else {
                    continue;
                };
                let Some((label, field)) = pass_field(path) else {
                    continue;
                };
                if run.seen.insert(path.to_owned(), m.time) != Some(m.time) {
                    run.samples
                        .entry((label.to_owned(), field))
                        .or_default()
                        .push(m.value);
                }
            }
            run.shadows.push(shadow_work(&lights, &casters, &meshes));
            if run.measured() >= run.frames as usize {
                let report = report(&run, registry.loaded_count());
                info!("render stats:\n{report}");
                if let Err(e) = std::fs::write(&run.path, report) {
                    error!("render stats: cannot write {}: {e}", run.path);
                    exit.write(AppExit::error());
                    return;
                }
                let stem = run.path.strip_suffix(".txt").unwrap_or(&run.path);
                let picture = format!("{stem}.png");
                commands
                    .spawn(Screenshot::image(target.0.clone()))
                    .observe(save_to_disk(picture.clone()));
                run.picture = Some(picture);
                run.phase = Phase::Done;
            }
        }
        Phase::Done => {
            let written = run
                .picture
                .as_ref()
                .is_some_and(|p| std::fs::metadata(p).is_ok_and(|m| m.len() > 0));
            if written {
                exit.write(AppExit::Success);
            }
        }
    }
}

/// The time of the latest measurement of every render diagnostic.
fn latest(store: &DiagnosticsStore) -> BTreeMap<String, Instant> {
    store
        .iter()
        .filter_map(|d| Some((d.path().as_str().to_owned(), d.measurement()?.time)))
        .filter(|(path, _)| pass_field(path).is_some())
        .collect()
}

/// `render/<label>/<field>` for a field a pass line shows.
fn pass_field(path: &str) -> Option<(&str, &'static str)> {
    let rest = path.strip_prefix("render/")?;
    let (label, field) = rest.rsplit_once('/')?;
    let field = FIELDS.iter().find(|(f, _)| *f == field)?.0;
    Some((label, field))
}

/// Triangles and vertices each shadow cascade of each view draws this frame: every caster the
/// cascade kept after culling, times its mesh.
fn shadow_work(
    lights: &Query<&CascadesVisibleEntities, With<DirectionalLight>>,
    casters: &Query<&Mesh3d>,
    meshes: &Assets<Mesh>,
) -> Vec<(u64, u64)> {
    let mut cascades: Vec<(u64, u64)> = Vec::new();
    for light in lights {
        for views in light.entities.values() {
            for (k, visible) in views.iter().enumerate() {
                if cascades.len() <= k {
                    cascades.resize(k + 1, (0, 0));
                }
                for mesh in visible.entities.iter().filter_map(|e| casters.get(*e).ok()) {
                    let Some(mesh) = meshes.get(&mesh.0) else {
                        continue;
                    };
                    let vertices = mesh.count_vertices() as u64;
                    let corners = match mesh.indices() {
                        Some(Indices::U16(i)) => i.len() as u64,
                        Some(Indices::U32(i)) => i.len() as u64,
                        None => vertices,
                    };
                    cascades[k].0 += corners / 3;
                    cascades[k].1 += vertices;
                }
            }
        }
    }
    cascades
}

/// The median of `values` (`nan` when empty).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied().unwrap_or(f64::NAN)
}

/// The pass lines and the frame line.
fn report(run: &StatsRun, chunks: usize) -> String {
    let labels: Vec<&String> = {
        let mut labels: Vec<&String> = run.samples.keys().map(|(l, _)| l).collect();
        labels.dedup();
        labels
    };
    let mut text = String::new();
    let mut primitives = 0.0;
    let mut main_fragments = f64::NAN;
    for label in labels {
        let [p, v, f, ms] = FIELDS.map(|(field, _)| {
            run.samples
                .get(&(label.clone(), field))
                .map_or(f64::NAN, |v| median(v))
        });
        if p.is_nan() && f.is_nan() {
            // A span without pipeline statistics (a compute pass or CPU timing only).
            continue;
        }
        if !p.is_nan() {
            primitives += p;
        }
        if label.ends_with(MAIN_PASS) {
            main_fragments = f;
        }
        text.push_str(&format!(
            "pass {label} primitives {p:.0} vertices {v:.0} fragments {f:.0} gpu_ms {ms:.3}\n"
        ));
    }
    let cascades = run.shadows.iter().map(Vec::len).max().unwrap_or(0);
    for k in 0..cascades {
        let of = |pick: fn(&(u64, u64)) -> u64| {
            let values: Vec<f64> = run
                .shadows
                .iter()
                .map(|frame| frame.get(k).map_or(0, pick) as f64)
                .collect();
            median(&values)
        };
        let (p, v) = (of(|c| c.0), of(|c| c.1));
        primitives += p;
        text.push_str(&format!(
            "pass shadow_cascade{k} primitives {p:.0} vertices {v:.0} fragments nan gpu_ms nan\n"
        ));
    }
    let times: Vec<f64> = run.frame_times.iter().map(|t| *t as f64 * 1000.0).collect();
    text.push_str(&format!(
        "frame width {WIDTH} height {HEIGHT} chunks {chunks} primitives {primitives:.0} fragments_per_pixel {:.3} frame_ms {:.1}\n",
        main_fragments / (WIDTH as f64 * HEIGHT as f64),
        median(&times),
    ));
    text
}
