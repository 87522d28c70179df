//! What the examples share: screenshot mode, for the render test, and the looks of the
//! presets' scatter layers.
//!
//! With `TERRAIN_SCREENSHOT=out.png` set, [`ScreenshotPlugin`] raises the streaming budgets,
//! waits until the example releases it ([`ScreenshotRun::hold`]), every wanted chunk is meshed
//! and every render pipeline compiled, saves the window to `out.png` and exits 0; it exits 1 if
//! the config fails to load or no chunk appears within its time limit. Software rendering takes
//! seconds a frame, so the cameras draw only the frames that can matter (see
//! [`ScreenshotRun::draw_while_held`]).

#![allow(dead_code, reason = "each example uses a part")]

pub mod sky;

use bevy::camera::RenderTarget;
use bevy::prelude::*;
use bevy::render::render_resource::{PipelineCache, TextureFormat, TextureUsages};
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::render::{Render, RenderApp, RenderSystems};
use bevy::winit::{UpdateMode, WinitSettings};
use bevy_perlin_terrain::prelude::*;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The examples' anti-aliasing: SMAA (a post-process on the finished picture: three
/// screen-sized passes, whatever the scene) instead of Bevy's default 4× MSAA, which shades every
/// pixel once for each triangle touching it. Far terrain has triangles a few pixels across, so
/// multisampling ran the terrain's fragment shader several times a pixel (see
/// `docs/performance.md`).
pub fn anti_aliasing() -> impl Bundle {
    (Msaa::Off, bevy::anti_alias::smaa::Smaa::default())
}

/// The examples' hidden-surface work: a depth prepass and Bevy's two-phase occlusion culling.
/// The terrain's fragment shader is heavy and a view near the horizon stacks several layers of
/// ground on a pixel: after the depth-only prepass the main pass shades only the front-most
/// (the software renderer draws the alps' 32 km view in about a third of the time). The culling
/// skips chunks that the last frame's depth shows wholly behind nearer ground, before their
/// vertices are transformed: near the ground a hill hides the valleys behind it (a sixth of
/// the close-up's fragments; see `docs/performance.md`).
pub fn occlusion_culling() -> impl Bundle {
    (
        bevy::core_pipeline::prepass::DepthPrepass,
        bevy::render::occlusion_culling::OcclusionCulling,
    )
}

/// A top view of `config`'s ground (whose sampler is `sampler`): `pixels`² RGB bytes (sRGB)
/// covering `metres` square centred on `centre` (`x`, `z`), hill-shaded (light from the
/// north-west), colored by the vertex-color ramp, water blue below the sea; and the lowest
/// and highest heights. `None` if the samples do not fit in memory. The preview tool's image
/// and the settings panel's minimap.
pub fn top_view(
    config: &TerrainConfig,
    sampler: &TerrainSampler,
    centre: [f64; 2],
    metres: f64,
    pixels: usize,
) -> Option<(Vec<u8>, (f32, f32))> {
    const WATER: Vec3 = Vec3::new(0.10, 0.28, 0.42);
    const SUN: Vec3 = Vec3::new(-0.54, 0.64, -0.54);
    let step = metres / pixels as f64;
    let (mut heights, mut normals) = (vec![0.0; pixels * pixels], vec![Vec3::Y; pixels * pixels]);
    let origin = [centre[0] - metres / 2.0, centre[1] - metres / 2.0];
    if !sampler.sample_grid(origin, step, [pixels, pixels], &mut heights, &mut normals) {
        return None;
    }
    use bevy_perlin_terrain::chunk::ColorRamp;
    let plain = ColorRamp::new(&config.colors, config.sea_level);
    // Each biome's colors, blended by its weight, when some biome has a look of its own.
    let looks: Vec<(&str, ColorRamp)> = if config.biomes.iter().any(|b| b.colors.is_some()) {
        config
            .biomes
            .iter()
            .map(|b| {
                let colors = b.colors.as_ref().unwrap_or(&config.colors);
                (b.name.as_str(), ColorRamp::new(colors, config.sea_level))
            })
            .collect()
    } else {
        Vec::new()
    };
    let mut rgb = Vec::with_capacity(pixels * pixels * 3);
    for (k, (&h, &n)) in heights.iter().zip(&normals).enumerate() {
        let ground = if looks.is_empty() {
            Vec3::from_slice(&plain.color(h, n)[..3])
        } else {
            let x = origin[0] + (k % pixels) as f64 * step;
            let z = origin[1] + (k / pixels) as f64 * step;
            let weights = sampler.biome_weights(x, z);
            looks.iter().fold(Vec3::ZERO, |sum, (name, ramp)| {
                let w = weights
                    .iter()
                    .find(|(b, _)| b == name)
                    .map_or(0.0, |(_, w)| *w);
                sum + w * Vec3::from_slice(&ramp.color(h, n)[..3])
            })
        };
        let shade = 0.35 + 0.65 * n.dot(SUN.normalize()).max(0.0);
        let mut c = ground * shade;
        if h < config.sea_level {
            let depth = ((config.sea_level - h) / (0.15 * config.height_scale)).clamp(0.0, 1.0);
            c = c.lerp(WATER, 0.55 + 0.4 * depth);
        }
        // Linear to sRGB, roughly.
        rgb.extend(
            c.to_array()
                .map(|v| (v.clamp(0.0, 1.0).powf(1.0 / 2.2) * 255.0).round() as u8),
        );
    }
    let range = heights
        .iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &h| {
            (lo.min(h), hi.max(h))
        });
    Some((rgb, range))
}

/// The environment variable `name` read as a `T` (a number), if it is set and parses.
pub fn env_number<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

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
        let watch = PipelineWatch::install(app);
        app.insert_resource(ScreenshotRun::new(self.path.clone()))
            .insert_resource(RaisedBudgets)
            .insert_resource(watch)
            .add_systems(
                Update,
                (
                    picture_streaming.before(TerrainSystems::Config),
                    fail_on_load_error,
                    (take_screenshot, draw_when_needed)
                        .chain()
                        .after(TerrainSystems::Upload),
                ),
            );
    }
}

/// How many render pipelines the render world is still compiling (or waiting on shaders for),
/// as of its last frame; shared between the two worlds. What the modes that take pictures
/// wait on, so that a picture shows what is in view as it looks.
#[derive(Resource, Clone, Default)]
pub struct PipelineWatch(Arc<AtomicUsize>);

impl PipelineWatch {
    /// Counts the render world's compiling pipelines every frame; the main world reads the
    /// count through the returned handle (insert it as a resource).
    pub fn install(app: &mut App) -> Self {
        let watch = Self::default();
        if let Some(render_app) = app.get_sub_app_mut(RenderApp) {
            render_app
                .insert_resource(watch.clone())
                .add_systems(Render, count_compiling.in_set(RenderSystems::Cleanup));
        }
        watch
    }

    /// Whether no pipeline was compiling in the render world's last frame.
    pub fn idle(&self) -> bool {
        self.0.load(Ordering::Relaxed) == 0
    }
}

fn count_compiling(cache: Res<PipelineCache>, watch: Res<PipelineWatch>) {
    watch
        .0
        .store(cache.waiting_pipelines().count(), Ordering::Relaxed);
}

/// Software rendering takes seconds a frame: the cameras draw while the example asks for it
/// ([`ScreenshotRun::draw_while_held`]) and from the first frame in which the terrain has
/// settled for the picture; before that the app updates every 20 ms and the chunks build on the
/// cores the renderer would take. Counts the frames drawn in a row with every pipeline compiled.
fn draw_when_needed(
    mut run: ResMut<ScreenshotRun>,
    watch: Res<PipelineWatch>,
    mut cameras: Query<&mut Camera>,
    mut winit: ResMut<WinitSettings>,
) {
    let draw = run.drawing || (run.hold && run.draw_while_held);
    for mut camera in &mut cameras {
        if camera.is_active != draw {
            camera.is_active = draw;
        }
    }
    let mode = if draw {
        UpdateMode::Continuous
    } else {
        UpdateMode::reactive(Duration::from_millis(20))
    };
    if winit.focused_mode != mode {
        winit.focused_mode = mode;
        winit.unfocused_mode = mode;
    }
    let compiled = draw && watch.idle();
    run.compiled_frames = if compiled { run.compiled_frames + 1 } else { 0 };
}

/// The state of screenshot mode.
#[derive(Resource)]
pub struct ScreenshotRun {
    path: String,
    started: Instant,
    /// While true the example is still setting its scene up (a scripted flight); no picture.
    pub hold: bool,
    /// While the example holds the shot, whether the cameras draw (pictures on the way);
    /// otherwise they draw nothing until the terrain has settled for the picture.
    pub draw_while_held: bool,
    /// The terrain has settled since the hold ended, or the time limit has passed: the cameras
    /// draw from now on.
    drawing: bool,
    /// Frames drawn in a row with every render pipeline compiled.
    compiled_frames: u32,
    /// Frames in a row with every wanted chunk meshed, nothing in flight and every pipeline
    /// compiled.
    settled_frames: u32,
    /// When the screenshot was requested, and the frames since.
    taken: Option<(Instant, u32)>,
    /// Frame times (seconds) while settled, for the log.
    frame_times: Vec<f32>,
    /// `TERRAIN_COMPARE_SCATTER` is set: first time the settled frames with the scatter
    /// instances hidden, then shown (the picture), and log both medians.
    compare_scatter: bool,
    /// The median frame time with the instances hidden, once measured.
    without_scatter: Option<f32>,
}

impl ScreenshotRun {
    const LIMIT: Duration = Duration::from_secs(240);

    fn new(path: String) -> Self {
        Self {
            path,
            started: Instant::now(),
            hold: false,
            draw_while_held: false,
            drawing: false,
            compiled_frames: 0,
            settled_frames: 0,
            taken: None,
            frame_times: Vec::new(),
            compare_scatter: std::env::var_os("TERRAIN_COMPARE_SCATTER").is_some(),
            without_scatter: None,
        }
    }

    /// Starts counting settled frames again (the scene changed).
    pub fn restart(&mut self) {
        self.settled_frames = 0;
    }

    /// Whether the cameras have drawn three frames in a row with every render pipeline
    /// compiled: what is in view is drawn as it looks (the pipelines of what comes into view
    /// later may still compile).
    pub fn pipelines_ready(&self) -> bool {
        self.compiled_frames >= 3
    }

    /// Where picture `k` of a sequence goes: `out-frame{k}.png` beside `out.png`.
    pub fn frame_path(&self, k: u32) -> String {
        let stem = self.path.strip_suffix(".png").unwrap_or(&self.path);
        format!("{stem}-frame{k}.png")
    }
}

/// Present while a picture is being prepared: the streaming budgets are raised, so the picture
/// does not wait on the frame count (see [`picture_streaming`]).
#[derive(Resource)]
pub struct RaisedBudgets;

/// The view distance of `TERRAIN_VIEW`, if set, and, while [`RaisedBudgets`] is present, larger
/// per-frame budgets. Streaming changes: they apply without rebuilding anything already built.
/// Runs until the config is at hand, then once.
pub fn picture_streaming(
    mut source: ResMut<TerrainConfigSource>,
    mut configs: ResMut<Assets<TerrainConfig>>,
    raised: Option<Res<RaisedBudgets>>,
    mut done: Local<bool>,
) {
    if *done {
        return;
    }
    let view: Option<f32> = env_number("TERRAIN_VIEW");
    *done = edit_config(&mut source, &mut configs, |config| {
        if raised.is_some() {
            config.max_uploads_per_frame = 32;
            config.max_tasks_in_flight = 32;
        }
        if let Some(view) = view {
            config.view_distance = view;
        }
    });
}

/// The size of the image the windowless modes draw into.
pub const IMAGE_SIZE: [u32; 2] = [1920, 1080];

/// The image every camera draws into in the windowless modes.
#[derive(Resource)]
pub struct ImageTarget(pub Handle<Image>);

/// Points every 3D camera at a new [`IMAGE_SIZE`] image (a `PostStartup` system, after the
/// cameras are spawned) and keeps its handle as [`ImageTarget`].
pub fn draw_into_image(
    mut commands: Commands,
    mut images: ResMut<Assets<Image>>,
    cameras: Query<Entity, With<Camera3d>>,
) {
    let [width, height] = IMAGE_SIZE;
    let mut image = Image::new_target_texture(width, height, TextureFormat::Rgba8UnormSrgb, None);
    image.texture_descriptor.usage |= TextureUsages::COPY_SRC;
    let handle = images.add(image);
    for camera in &cameras {
        commands
            .entity(camera)
            .insert(RenderTarget::Image(handle.clone().into()));
    }
    commands.insert_resource(ImageTarget(handle));
}

/// Edits the config the terrain uses, where it is already at hand (an asset loaded, or a
/// fixed config); `false` while it is still loading.
pub fn edit_config(
    source: &mut TerrainConfigSource,
    configs: &mut Assets<TerrainConfig>,
    edit: impl FnOnce(&mut TerrainConfig),
) -> bool {
    match source {
        TerrainConfigSource::Asset(handle) => match configs.get_mut(handle.id()) {
            Some(mut config) => {
                edit(&mut config);
                true
            }
            None => false,
        },
        TerrainConfigSource::Fixed(config) => {
            edit(config);
            true
        }
        TerrainConfigSource::Path(_) => false,
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
    scatter: Res<ScatterRegistry>,
    mut instances: Query<&mut Visibility, With<ScatterInstance>>,
    time: Res<Time<Real>>,
    mut exit: MessageWriter<AppExit>,
) {
    if let Some((taken, frames)) = &mut run.taken {
        // save_to_disk writes the file a few frames after the request (and a frame can take
        // seconds): it has failed only after both a while and several frames.
        *frames += 1;
        let late = taken.elapsed() > Duration::from_secs(20) && *frames > 10;
        let written = std::fs::metadata(&run.path).is_ok_and(|m| m.len() > 0);
        if written {
            info!("screenshot saved to {}", run.path);
            exit.write(AppExit::Success);
        } else if late {
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
    let settled = registry.is_settled() && scatter.is_settled() && registry.loaded_count() > 0;
    if (settled || timed_out) && !run.drawing {
        run.drawing = true;
        info!(
            "drawing: the terrain has {}",
            if settled {
                "settled"
            } else {
                "not settled in time"
            }
        );
    }
    let ready = settled && run.pipelines_ready();
    let comparing = run.compare_scatter && run.without_scatter.is_none();
    if ready && comparing && run.settled_frames == 0 {
        for mut v in &mut instances {
            *v = Visibility::Hidden;
        }
    }
    run.settled_frames = if ready { run.settled_frames + 1 } else { 0 };
    if ready {
        run.frame_times.push(time.delta_secs());
    } else {
        run.frame_times.clear();
    }
    // Five settled frames, each drawn with every pipeline compiled; past the time limit, what
    // there is, once drawn (a minute later at the latest).
    let give_up = run.started.elapsed() > ScreenshotRun::LIMIT + Duration::from_secs(60);
    if run.settled_frames >= 5 || (timed_out && run.pipelines_ready()) || give_up {
        let mut times = std::mem::take(&mut run.frame_times);
        times.sort_by(f32::total_cmp);
        let median = times.get(times.len() / 2).copied();
        if let Some(median) = median {
            info!(
                "median frame time over the last {} settled frames{}: {:.1} ms ({} scatter instances)",
                times.len(),
                if comparing {
                    " with the scatter hidden"
                } else {
                    ""
                },
                median * 1000.0,
                scatter.instance_count(),
            );
        }
        if comparing && !timed_out {
            run.without_scatter = Some(median.unwrap_or(f32::NAN));
            run.settled_frames = 0;
            for mut v in &mut instances {
                *v = Visibility::Inherited;
            }
            return;
        }
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(run.path.clone()));
        run.taken = Some((Instant::now(), 0));
    }
}

/// The looks of the presets' scatter layers, from Bevy primitives with vertex colors: one
/// mesh and one material per layer, so each layer draws in batches.
pub fn scatter_looks(
    mut looks: ResMut<ScatterVisuals>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    /// `mesh` painted `color` (linear RGB) and moved by `offset`.
    fn painted(mesh: impl Into<Mesh>, color: [f32; 3], offset: Vec3) -> Mesh {
        let mesh: Mesh = mesh.into();
        let n = mesh.count_vertices();
        let [r, g, b] = color;
        mesh.translated_by(offset)
            .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, vec![[r, g, b, 1.0]; n])
    }
    /// The union of `parts`.
    fn merged(parts: Vec<Mesh>) -> Mesh {
        let mut parts = parts.into_iter();
        let mut mesh = parts.next().unwrap_or_else(|| Mesh::from(Sphere::new(0.1)));
        for part in parts {
            if let Err(e) = mesh.merge(&part) {
                warn!("scatter mesh: {e}");
            }
        }
        mesh
    }
    // A conifer: a trunk and two stacked cones, 8 m tall at scale 1.
    let trunk = Cylinder::new(0.18, 2.0).mesh().resolution(6);
    let tree = merged(vec![
        painted(trunk, [0.12, 0.07, 0.03], Vec3::Y * 1.0),
        painted(
            Cone::new(1.6, 4.5).mesh().resolution(8),
            [0.03, 0.10, 0.03],
            Vec3::Y * 3.6,
        ),
        painted(
            Cone::new(1.1, 3.0).mesh().resolution(8),
            [0.04, 0.13, 0.035],
            Vec3::Y * 5.9,
        ),
    ]);
    // A rock: a flattened icosphere, its lower part under the ground.
    let rock = painted(
        Sphere::new(0.7)
            .mesh()
            .ico(1)
            .unwrap_or_else(|_| Sphere::new(0.7).mesh().uv(8, 6)),
        [0.20, 0.19, 0.17],
        Vec3::ZERO,
    )
    .scaled_by(Vec3::new(1.2, 0.6, 0.9));
    // A grass tuft: three thin leaning blades.
    let blade = |angle: f32| {
        let lean = Quat::from_rotation_y(angle) * Quat::from_rotation_z(0.35);
        painted(
            Cone::new(0.05, 0.6).mesh().resolution(3),
            [0.05, 0.16, 0.03],
            Vec3::ZERO,
        )
        .translated_by(Vec3::Y * 0.3)
        .rotated_by(lean)
    };
    let grass = merged(vec![blade(0.0), blade(2.1), blade(4.2)]);
    // A dry shrub: a few squashed olive balls.
    let shrub = merged(
        [(0.0, 0.0, 0.6), (0.4, 0.2, 0.45), (-0.35, -0.25, 0.5)]
            .into_iter()
            .map(|(x, z, r)| {
                painted(
                    Sphere::new(r)
                        .mesh()
                        .ico(1)
                        .unwrap_or_else(|_| Sphere::new(r).mesh().uv(8, 6)),
                    [0.16, 0.15, 0.06],
                    Vec3::new(x, r * 0.6, z),
                )
            })
            .collect(),
    );
    let mut material = |roughness: f32, double_sided: bool| {
        materials.add(StandardMaterial {
            base_color: Color::WHITE,
            perceptual_roughness: roughness,
            double_sided,
            cull_mode: if double_sided {
                None
            } else {
                Some(bevy::render::render_resource::Face::Back)
            },
            ..default()
        })
    };
    let (foliage, stone, blades) = (
        material(0.9, false),
        material(0.85, false),
        material(0.8, true),
    );
    looks
        .insert_mesh("trees", meshes.add(tree), foliage.clone())
        .insert_mesh("rocks", meshes.add(rock), stone)
        .insert_mesh("grass", meshes.add(grass), blades)
        .insert_mesh("shrubs", meshes.add(shrub), foliage);
}
