//! Fly over endless terrain.
//!
//! ```sh
//! cargo run --release --example fly
//! ```
//!
//! WASD fly, E/Q up/down, Shift faster, mouse wheel sets the speed, right mouse button (or M)
//! to look around; 1–4 switch presets. Edit `assets/terrain/*.terrain.ron` while it runs and the
//! terrain follows.
//!
//! Screenshot mode: `TERRAIN_SCREENSHOT=out.png` (and optionally `TERRAIN_PRESET=alps`) flies a
//! short scripted path, waits until the chunks in view are meshed, saves the window to
//! `out.png` and exits 0; it exits 1 if no terrain chunk appeared within its time limit.

use bevy::camera::Hdr;
use bevy::camera_controller::free_camera::{FreeCamera, FreeCameraPlugin};
use bevy::diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::light::CascadeShadowConfigBuilder;
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::WindowResolution;
use bevy_perlin_terrain::prelude::*;
use std::time::{Duration, Instant};

const PRESETS: [&str; 4] = ["default", "islands", "alps", "dunes"];
const SKY: Color = Color::srgb(0.45, 0.68, 0.95);
/// The camera never goes lower than this above the ground.
const CLEARANCE: f32 = 3.0;

fn preset_path(index: usize) -> String {
    format!("terrain/{}.terrain.ron", PRESETS[index % PRESETS.len()])
}

/// The preset on screen, for the HUD and the keys.
#[derive(Resource)]
struct Preset(usize);

#[derive(Component)]
struct Hud;

#[derive(Component)]
struct Water;

fn main() -> AppExit {
    let screenshot = std::env::var("TERRAIN_SCREENSHOT").ok();
    let preset = std::env::var("TERRAIN_PRESET")
        .ok()
        .and_then(|name| PRESETS.iter().position(|p| *p == name))
        .unwrap_or(0);
    let mut app = App::new();
    app.add_plugins((
        DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "bevy_perlin_terrain: fly".into(),
                resolution: WindowResolution::new(1280, 720),
                ..default()
            }),
            ..default()
        }),
        FreeCameraPlugin,
        FrameTimeDiagnosticsPlugin::default(),
        PerlinTerrainPlugin::from_asset(preset_path(preset)),
    ))
    .insert_resource(ClearColor(SKY))
    .insert_resource(GlobalAmbientLight {
        color: Color::srgb(0.75, 0.82, 1.0),
        brightness: 1500.0,
        ..default()
    })
    .insert_resource(Preset(preset))
    .add_systems(Startup, setup)
    .add_systems(
        Update,
        (switch_preset, follow_config, keep_above_ground, update_hud).after(TerrainSystems::Upload),
    );
    if let Some(path) = screenshot {
        app.insert_resource(ScreenshotRun::new(path)).add_systems(
            Update,
            (
                raise_budgets.before(TerrainSystems::Config),
                fail_on_load_error,
                screenshot_run
                    .before(keep_above_ground)
                    .after(TerrainSystems::Upload),
            ),
        );
    }
    app.run()
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands.spawn((
        Camera3d::default(),
        // Tonemap the clear colour too, so fully fogged ground matches the sky behind it.
        Hdr,
        Transform::from_xyz(0.0, 400.0, 0.0).looking_to(Vec3::new(0.3, -0.32, -1.0), Vec3::Y),
        FreeCamera {
            walk_speed: 60.0,
            run_speed: 240.0,
            ..default()
        },
        TerrainViewer,
        DistanceFog {
            color: SKY,
            falloff: FogFalloff::Linear {
                start: 400.0,
                end: 850.0,
            },
            ..default()
        },
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 11_000.0,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::from_xyz(0.0, 0.0, 0.0).looking_to(Vec3::new(-0.6, -0.55, -0.4), Vec3::Y),
        CascadeShadowConfigBuilder {
            first_cascade_far_bound: 80.0,
            maximum_distance: 900.0,
            ..default()
        }
        .build(),
    ));
    commands.spawn((
        Water,
        Mesh3d(meshes.add(Plane3d::default().mesh().size(4000.0, 4000.0))),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgba(0.10, 0.30, 0.45, 0.82),
            alpha_mode: AlphaMode::Blend,
            perceptual_roughness: 0.08,
            reflectance: 0.6,
            ..default()
        })),
        Transform::default(),
    ));
    commands.spawn((
        Hud,
        Text::new(""),
        TextFont::from_font_size(15.0),
        TextColor(Color::WHITE),
        Node {
            position_type: PositionType::Absolute,
            top: Val::Px(10.0),
            left: Val::Px(12.0),
            ..default()
        },
    ));
}

/// Keys 1–4 load another preset; the terrain regenerates in place.
fn switch_preset(
    keys: Res<ButtonInput<KeyCode>>,
    mut preset: ResMut<Preset>,
    mut source: ResMut<TerrainConfigSource>,
) {
    let digits = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
    ];
    if let Some(index) = digits.iter().position(|k| keys.just_pressed(*k))
        && index != preset.0
    {
        preset.0 = index;
        *source = TerrainConfigSource::Path(preset_path(index));
    }
}

/// The camera's position and fog, apart from the water's transform.
type CameraFog<'w, 's> = Single<
    'w,
    's,
    (&'static Transform, &'static mut DistanceFog),
    (With<Camera3d>, Without<Water>),
>;

/// Water at sea level under the camera, fog hiding the streaming edge of this config.
fn follow_config(
    active: Option<Res<ActiveTerrainConfig>>,
    camera: CameraFog,
    mut water: Single<&mut Transform, With<Water>>,
) {
    let Some(active) = active else { return };
    let (eye, mut fog) = camera.into_inner();
    let view = active.config().view_distance;
    water.translation = Vec3::new(
        eye.translation.x,
        active.config().sea_level,
        eye.translation.z,
    );
    fog.falloff = FogFalloff::Linear {
        start: view * 0.45,
        end: view * 0.92,
    };
}

/// Puts the camera above the ground when the terrain first appears, and never lets it sink in.
fn keep_above_ground(
    sampler: Option<Res<TerrainSampler>>,
    active: Option<Res<ActiveTerrainConfig>>,
    mut camera: Single<&mut Transform, With<Camera3d>>,
    mut placed: Local<bool>,
) {
    let (Some(sampler), Some(active)) = (sampler, active) else {
        return;
    };
    let p = camera.translation;
    let ground = sampler.height(p.x as f64, p.z as f64);
    if !*placed {
        // High enough to see over the hills of tall terrains, low enough to see the ground.
        camera.translation.y = ground + (0.6 * active.config().height_scale).max(70.0);
        *placed = true;
    }
    camera.translation.y = camera.translation.y.max(ground + CLEARANCE);
}

fn update_hud(
    diagnostics: Res<DiagnosticsStore>,
    registry: Res<ChunkRegistry>,
    preset: Res<Preset>,
    camera: Single<&Transform, With<Camera3d>>,
    mut hud: Single<&mut Text, With<Hud>>,
) {
    let fps = diagnostics
        .get(&FrameTimeDiagnosticsPlugin::FPS)
        .and_then(|d| d.smoothed())
        .unwrap_or(0.0);
    let p = camera.translation;
    hud.0 = format!(
        "{fps:.0} fps   chunks {}   tasks {}\nposition {:.0}, {:.0}, {:.0}   preset {} ({}/4)\nWASD fly | E/Q up/down | Shift fast | wheel speed | right mouse or M look | 1-4 presets",
        registry.loaded_count(),
        registry.tasks_in_flight(),
        p.x,
        p.y,
        p.z,
        PRESETS[preset.0],
        preset.0 + 1,
    );
}

/// Screenshot mode renders in software at a few frames per second: let the loaded preset
/// stream with larger per-frame budgets, so the picture does not wait on the frame count.
fn raise_budgets(
    source: Res<TerrainConfigSource>,
    mut configs: ResMut<Assets<TerrainConfig>>,
    mut done: Local<bool>,
) {
    if *done {
        return;
    }
    if let TerrainConfigSource::Asset(handle) = &*source
        && let Some(mut config) = configs.get_mut(handle)
    {
        // A streaming change: it applies without rebuilding anything already built.
        config.max_uploads_per_frame = 32;
        config.max_tasks_in_flight = 32;
        *done = true;
    }
}

/// Screenshot mode fails at once when the preset cannot load, instead of at its time limit.
fn fail_on_load_error(
    source: Res<TerrainConfigSource>,
    asset_server: Res<AssetServer>,
    mut exit: MessageWriter<AppExit>,
) {
    if let TerrainConfigSource::Asset(handle) = &*source
        && asset_server.load_state(handle).is_failed()
    {
        // Bevy has already logged why (our loader names the file and the field).
        error!("the terrain preset failed to load; no screenshot");
        exit.write(AppExit::error());
    }
}

/// The scripted flight of screenshot mode.
#[derive(Resource)]
struct ScreenshotRun {
    path: String,
    started: Instant,
    /// Frames in a row with every wanted chunk meshed and nothing in flight.
    settled_frames: u32,
    /// When the screenshot was requested.
    taken: Option<Instant>,
}

impl ScreenshotRun {
    const FLIGHT: Duration = Duration::from_secs(3);
    const LIMIT: Duration = Duration::from_secs(240);

    fn new(path: String) -> Self {
        Self {
            path,
            started: Instant::now(),
            settled_frames: 0,
            taken: None,
        }
    }
}

fn screenshot_run(
    mut commands: Commands,
    mut run: ResMut<ScreenshotRun>,
    registry: Res<ChunkRegistry>,
    mut camera: Single<&mut Transform, With<Camera3d>>,
    time: Res<Time>,
    mut exit: MessageWriter<AppExit>,
) {
    let elapsed = run.started.elapsed();
    if let Some(taken) = run.taken {
        // save_to_disk writes the file a few frames after the request.
        let written = std::fs::metadata(&run.path).is_ok_and(|m| m.len() > 0);
        if written || taken.elapsed() > Duration::from_secs(20) {
            if written {
                info!("screenshot saved to {}", run.path);
                exit.write(AppExit::Success);
            } else {
                error!("screenshot {} was not written", run.path);
                exit.write(AppExit::error());
            }
        }
        return;
    }
    if elapsed < ScreenshotRun::FLIGHT {
        // A short straight flight: streaming while moving.
        let forward = camera.forward().with_y(0.0).normalize_or_zero();
        camera.translation += forward * 80.0 * time.delta_secs();
        return;
    }
    let ready = registry.is_settled() && registry.loaded_count() > 0;
    run.settled_frames = if ready { run.settled_frames + 1 } else { 0 };
    let timed_out = elapsed > ScreenshotRun::LIMIT;
    if timed_out && registry.loaded_count() == 0 {
        error!(
            "no terrain chunk appeared within {:?}",
            ScreenshotRun::LIMIT
        );
        exit.write(AppExit::error());
        return;
    }
    if run.settled_frames >= 10 || timed_out {
        let path = run.path.clone();
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path));
        run.taken = Some(Instant::now());
    }
}
