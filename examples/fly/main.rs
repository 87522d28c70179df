//! Fly over endless terrain.
//!
//! ```sh
//! cargo run --release --example fly
//! ```
//!
//! WASD fly, E/Q up/down, Shift faster, mouse wheel sets the speed, right mouse button (or M)
//! to look around; the number keys switch presets (every file in `assets/terrain/`, by name;
//! the world of biomes at start); F levels a site under the camera (a [`TerrainStamp`]), C blows
//! a crater there; J jumps 10 000 km east and south and back (`far.rs`: a floating origin).
//! Edit `assets/terrain/*.terrain.ron` while it runs and the
//! terrain follows.
//!
//! Screenshot mode: `TERRAIN_SCREENSHOT=out.png` (and optionally `TERRAIN_PRESET=alps`) flies a
//! short scripted path (240 m in 30 frames, the same in every run), waits until the chunks in
//! view are meshed, saves the window to `out.png` and exits 0; it exits 1 if no terrain chunk appeared within its time limit.
//! `TERRAIN_LOOK=vertex-colors` shades the terrain with the vertex-color fallback;
//! `TERRAIN_OCCLUSION_CULLING=off` leaves out the camera's depth prepass and occlusion culling.
//! `TERRAIN_SHOT=closeup` lands the camera 2 m above the ground at the end of the path first,
//! looking downhill; `TERRAIN_SHOT=horizon` lifts it 900 m and looks at the horizon;
//! `TERRAIN_SHOT=stamps` levels a site (trees cleared) and blows a crater ahead of the camera and
//! looks at them from 80 m up;
//! `TERRAIN_SHOT=border` looks down from 450 m up at the nearest border between two biomes of
//! different looks; `TERRAIN_SHOT=shore` looks at the nearest shore from 12 m over the sea, the
//! waves coming in; `TERRAIN_SHOT=sunset` looks west into the sun at half past six from 300 m
//! up; `TERRAIN_SHOT=far` flies the plain shot's path 10 000 km out. `TERRAIN_TIME_OF_DAY=18.5` sets the time of day (hours; T and Shift+T move it).
//! `TERRAIN_SHOT=flight` flies on at 300 m/s (5 m a frame) 80 m over the ground and saves a
//! picture every 12 frames (`out-frame1.png`, …) before the settled one. These modes hold the
//! [`TerrainClock`] at ten minutes, so the clouds and waves are the same in every run. `TERRAIN_VIEW=30000`
//! sets the view distance for the picture. `TERRAIN_COMPARE_SCATTER=1` logs the frame time with the scatter instances
//! hidden, then shown.
//!
//! Frame-time mode (`frames.rs`): `TERRAIN_FRAME_TIMES=out.txt` draws into an image instead
//! of a window and writes the frame times of the horizon, standing and flying.
//! Render-statistics mode (`stats.rs`): `TERRAIN_RENDER_STATS=out.txt` draws one view into an
//! image and writes the GPU's work for it, pass by pass (`scripts/render-stats.sh` runs the
//! standard views).
//!
//! Tab opens the settings panel (`panel/`): every field of the config on sliders, applied
//! live; save writes `assets/terrain/NAME.terrain.ron`, load picks any file there; a minimap
//! shows the ground around the camera. `TERRAIN_SHOT=panel` takes the screenshot with it open.
//!
//! The presets' scatter layers (`trees`, `rocks`, `grass`, `shrubs`) are drawn with meshes made
//! here from Bevy primitives, registered in [`ScatterVisuals`]; G hides or shows them.

use bevy::app::ScheduleRunnerPlugin;
use bevy::camera::Hdr;
use bevy::camera_controller::free_camera::{FreeCamera, FreeCameraPlugin};
use bevy::diagnostic::{DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::window::{ExitCondition, WindowResolution};
use bevy::winit::WinitPlugin;
use bevy_perlin_terrain::prelude::*;
use big_space::plugin::BigSpaceMinimalPlugins;
use big_space::prelude::{BigSpace, CellCoord, FloatingOrigin};
use presets::{Preset, preset_names, switch_preset};
use std::time::Duration;
use support::{ScreenshotPlugin, ScreenshotRun};

mod far;
mod frames;
mod panel;
mod presets;
mod stats;
#[path = "../support/mod.rs"]
mod support;

const SKY: Color = support::DAY_SKY;
/// The camera never goes lower than this above the ground.
const CLEARANCE: f32 = 1.5;

#[derive(Component)]
struct Hud;

fn main() -> AppExit {
    let screenshot = support::screenshot_path();
    let names = preset_names();
    let wanted = std::env::var("TERRAIN_PRESET").unwrap_or_else(|_| "world".to_owned());
    let preset = Preset {
        current: names.iter().position(|p| *p == wanted).unwrap_or(0),
        names,
    };
    // `TERRAIN_LOOK=vertex-colors`: the cheap fallback look instead of the terrain material.
    let look = match std::env::var("TERRAIN_LOOK").as_deref() {
        Ok("vertex-colors") => TerrainRenderMode::VertexColors,
        _ => TerrainRenderMode::Material,
    };
    let frame_times = frames::output_path();
    let render_stats = stats::output_path();
    let headless = frame_times.is_some() || render_stats.is_some();
    let window = if headless {
        // The measuring modes draw into an image: no window, no windowing system.
        WindowPlugin {
            primary_window: None,
            exit_condition: ExitCondition::DontExit,
            ..default()
        }
    } else {
        WindowPlugin {
            primary_window: Some(Window {
                title: "bevy_perlin_terrain: fly".into(),
                resolution: WindowResolution::new(1280, 720),
                ..default()
            }),
            ..default()
        }
    };
    // big_space's transform propagation (from the floating origin) instead of Bevy's.
    let mut defaults = DefaultPlugins.set(window).disable::<TransformPlugin>();
    if headless {
        defaults = defaults.disable::<WinitPlugin>();
    }
    let mut app = App::new();
    if headless {
        // Without winit, a loop that draws frames back to back.
        app.add_plugins(ScheduleRunnerPlugin::run_loop(Duration::ZERO));
    }
    app.add_plugins((
        defaults,
        BigSpaceMinimalPlugins,
        FreeCameraPlugin,
        FrameTimeDiagnosticsPlugin::default(),
        PerlinTerrainPlugin::from_asset(preset.path(preset.current)).with_render_mode(look),
        panel::PanelPlugin {
            open: std::env::var("TERRAIN_SHOT").is_ok_and(|s| s == "panel"),
        },
    ))
    .insert_resource(ClearColor(SKY))
    .insert_resource(GlobalAmbientLight {
        color: Color::srgb(0.75, 0.82, 1.0),
        brightness: 1500.0,
        ..default()
    })
    .insert_resource(preset)
    .insert_resource(
        std::env::var("TERRAIN_TIME_OF_DAY")
            .ok()
            .and_then(|h| h.parse().ok())
            .filter(|h: &f32| h.is_finite())
            .map_or_else(support::TimeOfDay::default, |hours| support::TimeOfDay {
                hours,
            }),
    )
    .add_systems(Startup, (setup, support::scatter_looks))
    .add_systems(
        Update,
        support::follow_time_of_day.run_if(resource_changed::<support::TimeOfDay>),
    )
    .add_systems(
        Update,
        (
            switch_preset.run_if(not(bevy_egui::input::egui_wants_any_keyboard_input)),
            stamp_on_key.run_if(not(bevy_egui::input::egui_wants_any_keyboard_input)),
            toggle_scatter,
            time_of_day_on_key.run_if(not(bevy_egui::input::egui_wants_any_keyboard_input)),
            far::jump_on_key.run_if(not(bevy_egui::input::egui_wants_any_keyboard_input)),
            follow_config,
            keep_above_ground,
            update_hud,
        )
            .after(TerrainSystems::Upload),
    );
    if render_stats.is_some() || frame_times.is_some() || screenshot.is_some() {
        // The same clouds and waves in every run: the weather stands at ten minutes.
        app.insert_resource(TerrainClock {
            seconds: 600.0,
            paused: true,
        });
    }
    if let Some(path) = render_stats {
        app.add_plugins(stats::RenderStatsPlugin { path });
    } else if let Some(path) = frame_times {
        app.add_plugins(frames::FrameTimesPlugin { path });
    } else if let Some(path) = screenshot {
        let shot = std::env::var("TERRAIN_SHOT").ok();
        app.add_plugins(ScreenshotPlugin { path })
            .insert_resource(ScriptedFlight::new(shot.as_deref()))
            .add_systems(Startup, |mut run: ResMut<ScreenshotRun>| run.hold = true)
            .add_systems(
                Update,
                fly_script
                    .before(keep_above_ground)
                    .after(TerrainSystems::Upload),
            );
    }
    app.run()
}

fn setup(mut commands: Commands, screenshot: Option<Res<ScreenshotRun>>) {
    let space = commands.spawn(far::space()).id();
    let far_shot = std::env::var("TERRAIN_SHOT").is_ok_and(|s| s == "far");
    let mut camera = commands.spawn((
        ChildOf(space),
        if far_shot { far::FAR } else { CellCoord::ZERO },
        FloatingOrigin,
        Camera3d::default(),
        // Tonemap the clear color too, so fully fogged ground matches the sky behind it.
        Hdr,
        Transform::from_xyz(0.0, 400.0, 0.0).looking_to(Vec3::new(0.3, -0.32, -1.0), Vec3::Y),
        FreeCamera {
            walk_speed: 60.0,
            run_speed: 400.0,
            ..default()
        },
        TerrainViewer,
        // Haze that thickens with distance, as air does: light scattered towards the eye
        // (bluish white) over distant ground, which it dims (see `follow_config`).
        DistanceFog {
            color: SKY,
            directional_light_color: Color::srgba(1.0, 0.92, 0.75, 0.5),
            directional_light_exponent: 12.0,
            falloff: haze(TerrainConfig::default().view_distance),
        },
        far_plane(TerrainConfig::default().view_distance),
    ));
    if screenshot.is_some() {
        // Software rendering: the pictures CI checks need no anti-aliasing.
        camera.insert(Msaa::Off);
    } else {
        camera.insert(support::anti_aliasing());
    }
    // `TERRAIN_OCCLUSION_CULLING=off` leaves the prepass and the culling out (the sea still
    // adds its prepass), to measure what they save.
    if std::env::var("TERRAIN_OCCLUSION_CULLING").as_deref() != Ok("off") {
        camera.insert(support::occlusion_culling());
    }
    commands.spawn(support::sun(80.0, 900.0));
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

/// A flat site 80 m by 50 m, turned with the camera, cleared of trees: what a game puts under a
/// town.
fn flat_site(yaw: f32) -> (TerrainStamp, Quat) {
    let stamp = TerrainStamp {
        shape: StampShape::Rect {
            half_extents: Vec2::new(40.0, 25.0),
        },
        falloff: 30.0,
        op: StampOp::Flatten,
        clear_scatter: true,
    };
    (stamp, Quat::from_rotation_y(yaw))
}

/// A crater 50 m across and 15 m deep: what a large explosion leaves.
fn crater() -> TerrainStamp {
    TerrainStamp {
        shape: StampShape::Circle { radius: 25.0 },
        falloff: 15.0,
        op: StampOp::Crater { depth: 15.0 },
        clear_scatter: true,
    }
}

/// F levels a site on the ground under the camera (at the ground's height there), C blows a
/// crater there: the chunks, colliders and scatter around them are rebuilt.
fn stamp_on_key(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    sampler: Option<Res<TerrainSampler>>,
    camera: Single<(&Transform, &CellCoord), With<Camera3d>>,
    space: Single<Entity, With<BigSpace>>,
) {
    let Some(sampler) = sampler else { return };
    let (camera, &cell) = *camera;
    let p = far::true_position(&cell, camera);
    let ground = sampler.height(p.x, p.z);
    // In the camera's cell, where it stands.
    let at = camera
        .translation
        .with_y(ground - far::cell_origin(&cell).y as f32);
    if keys.just_pressed(KeyCode::KeyF) {
        let (yaw, _, _) = camera.rotation.to_euler(EulerRot::YXZ);
        let (stamp, turn) = flat_site(yaw);
        let place = Transform::from_translation(at).with_rotation(turn);
        commands.spawn((stamp, cell, place, ChildOf(*space)));
    }
    if keys.just_pressed(KeyCode::KeyC) {
        let place = Transform::from_translation(at);
        commands.spawn((crater(), cell, place, ChildOf(*space)));
    }
}

/// G hides or shows every scattered instance (and those that appear while hidden).
/// T moves the time of day on by half an hour, Shift+T back.
fn time_of_day_on_key(keys: Res<ButtonInput<KeyCode>>, mut time: ResMut<support::TimeOfDay>) {
    if keys.just_pressed(KeyCode::KeyT) {
        let back = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
        time.hours = (time.hours + if back { -0.5 } else { 0.5 }).rem_euclid(24.0);
    }
}

fn toggle_scatter(
    keys: Res<ButtonInput<KeyCode>>,
    mut shown: Local<Option<bool>>,
    mut instances: Query<(&mut Visibility, Ref<ScatterInstance>)>,
) {
    let shown = shown.get_or_insert(true);
    let toggled = keys.just_pressed(KeyCode::KeyG);
    *shown ^= toggled;
    for (mut visibility, instance) in &mut instances {
        if toggled || (!*shown && instance.is_added()) {
            *visibility = if *shown {
                Visibility::Inherited
            } else {
                Visibility::Hidden
            };
        }
    }
}

/// Atmospheric haze for a view `view` metres deep: ground keeps 5 % of its contrast at three
/// quarters of the view distance and fades into the sky before the terrain ends, the colors of
/// scattered light and of the dimming sunlight apart, so far ranges turn blue first.
fn haze(view: f32) -> FogFalloff {
    FogFalloff::from_visibility_colors(
        0.75 * view,
        Color::srgb(0.32, 0.42, 0.58),
        Color::srgb(0.74, 0.83, 0.95),
    )
}

/// A perspective projection that draws as far as the terrain streams, and a little more.
fn far_plane(view: f32) -> Projection {
    Projection::Perspective(PerspectiveProjection {
        far: view * 1.25 + 1000.0,
        ..default()
    })
}

/// Haze and far plane that fit this config's view distance.
fn follow_config(
    active: Option<Res<ActiveTerrainConfig>>,
    camera: Single<(&mut DistanceFog, &mut Projection), With<Camera3d>>,
) {
    let Some(active) = active.filter(|a| a.is_changed()) else {
        return;
    };
    let view = active.config().view_distance;
    let (mut fog, mut projection) = camera.into_inner();
    fog.falloff = haze(view);
    *projection = far_plane(view);
}

/// Puts the camera above the ground when the terrain first appears, and never lets it sink in.
fn keep_above_ground(
    sampler: Option<Res<TerrainSampler>>,
    active: Option<Res<ActiveTerrainConfig>>,
    camera: Single<(&mut Transform, &CellCoord), With<Camera3d>>,
    mut placed: Local<bool>,
) {
    let (Some(sampler), Some(active)) = (sampler, active) else {
        return;
    };
    let (mut camera, cell) = camera.into_inner();
    let p = far::true_position(cell, &camera);
    // The ground's height in the camera's cell.
    let ground = sampler.height(p.x, p.z) - far::cell_origin(cell).y as f32;
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
    scatter: Res<ScatterRegistry>,
    preset: Res<Preset>,
    camera: Single<(&Transform, &CellCoord), With<Camera3d>>,
    mut hud: Single<&mut Text, With<Hud>>,
) {
    let fps = diagnostics
        .get(&FrameTimeDiagnosticsPlugin::FPS)
        .and_then(|d| d.smoothed())
        .unwrap_or(0.0);
    let p = far::true_position(camera.1, camera.0);
    let levels = registry.iter().map(|c| c.lod).max().map_or(0, |l| l + 1);
    hud.0 = format!(
        "{fps:.0} fps   chunks {} in {levels} levels   tasks {}   scattered {}\nposition {:.0}, {:.0}, {:.0}   preset {} ({}/{})\nWASD fly | E/Q up/down | Shift fast | wheel speed | right mouse/M look | number keys presets | G scatter | T/Shift+T time of day | J 10 000 km | Tab panel",
        registry.loaded_count(),
        registry.tasks_in_flight(),
        scatter.instance_count(),
        p.x,
        p.y,
        p.z,
        preset.names[preset.current],
        preset.current + 1,
        preset.names.len(),
    );
}

/// The scripted part of screenshot mode: a short straight flight (streaming while moving),
/// then the shot `TERRAIN_SHOT` asks for.
#[derive(Resource)]
struct ScriptedFlight {
    /// Frames of the short flight so far.
    cruised: u32,
    shot: Shot,
    /// Frames of the fast flight so far, and the pictures taken on the way.
    flown: u32,
    frames_taken: Vec<String>,
}

/// What screenshot mode shows at the end of its flight.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shot {
    /// From the air, as the flight left it.
    Plain,
    /// 2 m above the ground, looking downhill.
    Closeup,
    /// High up, looking at the horizon.
    Horizon,
    /// At 300 m/s (5 m a frame, whatever the frame rate) low over the ground, a picture every
    /// 12 frames while the terrain streams, then the last one once it has settled.
    Flight,
    /// A flat site and a crater ahead, seen from 80 m up.
    Stamps,
    /// The nearest border between two biomes of different looks, seen from 450 m above the
    /// higher of the two sides.
    Border,
    /// The nearest shore ahead, seen from 12 m over the sea 90 m out: the waves coming in.
    Shore,
    /// Half past six in the evening, 300 m over the ground, looking west into the setting sun.
    Sunset,
}

impl ScriptedFlight {
    /// The short flight: frames, and metres a frame (the same whatever the machine draws, so
    /// that every run ends where the last one did; few, as software rendering is slow).
    const CRUISE_FRAMES: u32 = 30;
    const CRUISE_STEP: f32 = 8.0;
    /// Frames of the fast flight, and every how many a picture is taken.
    const FAST_FRAMES: u32 = 36;
    const FRAME_EVERY: u32 = 12;

    fn new(shot: Option<&str>) -> Self {
        let shot = match shot {
            Some("closeup") => Shot::Closeup,
            Some("horizon") => Shot::Horizon,
            Some("flight") => Shot::Flight,
            Some("stamps") => Shot::Stamps,
            Some("border") => Shot::Border,
            Some("shore") => Shot::Shore,
            Some("sunset") => Shot::Sunset,
            _ => Shot::Plain,
        };
        Self {
            cruised: 0,
            shot,
            flown: 0,
            frames_taken: Vec::new(),
        }
    }
}

#[allow(clippy::too_many_arguments, reason = "a system's parameters")]
fn fly_script(
    mut commands: Commands,
    mut script: ResMut<ScriptedFlight>,
    instances: Query<(&GlobalTransform, &ScatterInstance)>,
    mut run: ResMut<ScreenshotRun>,
    registry: Res<ChunkRegistry>,
    sampler: Option<Res<TerrainSampler>>,
    active: Option<Res<ActiveTerrainConfig>>,
    mut time: ResMut<support::TimeOfDay>,
    mut camera: Single<&mut Transform, With<Camera3d>>,
) {
    if !run.hold {
        return;
    }
    if script.cruised < ScriptedFlight::CRUISE_FRAMES {
        let forward = camera.forward().with_y(0.0).normalize_or_zero();
        camera.translation += forward * ScriptedFlight::CRUISE_STEP;
        script.cruised += 1;
        return;
    }
    let Some(sampler) = sampler else { return };
    match script.shot {
        Shot::Plain => {}
        Shot::Closeup => {
            // Downhill where the ground slopes, so the view is not into a slope, and in a
            // clearing: ahead along the path to the first spot without a tree or rock within
            // 6 m.
            let forward = camera.forward().with_y(0.0).normalize_or(Vec3::NEG_Z);
            let start = camera.translation;
            let blocked = |p: Vec3| {
                instances.iter().any(|(t, i)| {
                    &*i.layer != "grass" && t.translation().xz().distance(p.xz()) < 6.0
                })
            };
            if let Some(clear) = (0..60)
                .map(|k| start + forward * (k as f32 * 4.0))
                .find(|&p| !blocked(p))
            {
                camera.translation = clear;
            }
            let p = camera.translation;
            let (ground, normal) = sampler.height_and_normal(p.x as f64, p.z as f64);
            let forward = camera.forward().with_y(0.0).normalize_or(Vec3::NEG_Z);
            let ahead = if normal.y < 0.97 {
                normal.with_y(0.0).normalize()
            } else {
                forward
            };
            camera.translation.y = ground + 2.0;
            camera.look_to(ahead - Vec3::Y * 0.12, Vec3::Y);
        }
        Shot::Horizon => {
            // 900 m over the ground, nearly level: the view to the horizon.
            let p = camera.translation;
            let forward = camera.forward().with_y(0.0).normalize_or(Vec3::NEG_Z);
            camera.translation.y = sampler.height(p.x as f64, p.z as f64) + 900.0;
            camera.look_to(forward - Vec3::Y * 0.09, Vec3::Y);
        }
        Shot::Border => {
            // The nearest border within 6 km between two biomes of different looks (16
            // directions), seen from where the camera is (its chunks are built), 450 m above the
            // higher of the two sides.
            let look = |name: &str| {
                let biomes = active.as_ref().map(|a| &a.config().biomes);
                biomes.and_then(|b| b.iter().find(|b| b.name == name).map(|b| b.colors.clone()))
            };
            let biome = |p: Vec3| sampler.biome(p.x as f64, p.z as f64).map(str::to_owned);
            let start = camera.translation;
            let ahead = |turn: usize| {
                let angle = turn as f32 * std::f32::consts::TAU / 16.0;
                let direction = Vec3::new(angle.cos(), 0.0, angle.sin());
                let mut last = biome(start);
                (1..240)
                    .map(move |k| (k, start + direction * (k as f32 * 25.0)))
                    .find(|&(_, p)| {
                        let here = biome(p);
                        let (a, b) = (
                            last.clone().unwrap_or_default(),
                            here.clone().unwrap_or_default(),
                        );
                        last = here;
                        a != b && look(&a) != look(&b)
                    })
            };
            if let Some((_, border)) = (0..16).filter_map(ahead).min_by_key(|&(k, _)| k) {
                // Looking past it, so that the sky shows at the top.
                let ground = |p: Vec3| sampler.height(p.x as f64, p.z as f64).max(0.0);
                camera.translation.y = ground(start).max(ground(border)) + 450.0;
                let past = border + (border - start).with_y(0.0).normalize_or_zero() * 2500.0;
                camera.look_at(past.with_y(ground(border)), Vec3::Y);
            }
        }
        Shot::Shore => {
            // The first point within 4 km (16 directions, nearest first) where the ground
            // rises out of the sea; the camera over the water 90 m short of it.
            let sea = active.as_ref().map_or(0.0, |a| a.config().sea_level);
            let start = camera.translation;
            let ground = |p: Vec3| sampler.height(p.x as f64, p.z as f64);
            let shore = (1..400)
                .flat_map(|k| (0..16).map(move |turn| (k, turn)))
                .map(|(k, turn)| {
                    let angle = turn as f32 * std::f32::consts::TAU / 16.0;
                    let direction = Vec3::new(angle.cos(), 0.0, angle.sin());
                    (direction, start + direction * (k as f32 * 10.0))
                })
                .find(|&(direction, p)| {
                    ground(p) > sea && ground(p - direction * 90.0) < sea - 3.0
                });
            if let Some((direction, shore)) = shore {
                let out = shore - direction * 90.0;
                camera.translation = out.with_y(sea + 12.0);
                camera.look_at(shore.with_y(sea) + direction * 60.0, Vec3::Y);
            }
        }
        Shot::Sunset => {
            time.hours = 18.5;
            let p = camera.translation;
            camera.translation.y = sampler.height(p.x as f64, p.z as f64).max(0.0) + 300.0;
            camera.look_to(Vec3::new(-1.0, -0.07, 0.15), Vec3::Y);
        }
        Shot::Stamps => {
            // The site 150 m ahead at its ground's height, the crater 70 m to its right; the
            // camera 80 m over the ground 150 m before the site, looking past it (the sky at
            // the top of the picture). The edits apply in the next frame: hold the shot for a
            // few.
            if script.flown == 0 {
                let forward = camera.forward().with_y(0.0).normalize_or(Vec3::NEG_Z);
                let right = forward.cross(Vec3::Y);
                let ground = |p: Vec3| Vec3::new(p.x, sampler.height(p.x as f64, p.z as f64), p.z);
                let site = ground(camera.translation + forward * 150.0);
                let yaw = forward.x.atan2(forward.z) + std::f32::consts::PI;
                let (stamp, turn) = flat_site(yaw);
                commands.spawn((stamp, Transform::from_translation(site).with_rotation(turn)));
                let hole = ground(site + right * 70.0 + forward * 40.0);
                commands.spawn((crater(), Transform::from_translation(hole)));
                camera.translation = ground(site - forward * 150.0) + Vec3::Y * 80.0;
                camera.look_at(site + forward * 100.0 + right * 25.0, Vec3::Y);
            }
            script.flown += 1;
            if script.flown < 4 {
                return;
            }
        }
        Shot::Flight => {
            if script.flown == 0 {
                // Wait for the start to be built and drawn with every pipeline compiled (the
                // pictures on the way are drawn), then go: 80 m over the ground, level.
                if !registry.is_settled() {
                    return;
                }
                run.draw_while_held = true;
                if !run.pipelines_ready() {
                    return;
                }
                let p = camera.translation;
                let forward = camera.forward().with_y(0.0).normalize_or(Vec3::NEG_Z);
                camera.translation.y = sampler.height(p.x as f64, p.z as f64) + 80.0;
                camera.look_to(forward - Vec3::Y * 0.15, Vec3::Y);
            }
            if script.flown < ScriptedFlight::FAST_FRAMES {
                let forward = camera.forward().with_y(0.0).normalize_or(Vec3::NEG_Z);
                camera.translation += forward * 5.0;
                let p = camera.translation;
                let ground = sampler.height(p.x as f64, p.z as f64);
                camera.translation.y = camera.translation.y.max(ground + 40.0);
                script.flown += 1;
                if script.flown.is_multiple_of(ScriptedFlight::FRAME_EVERY) {
                    let path = run.frame_path(script.flown / ScriptedFlight::FRAME_EVERY);
                    commands
                        .spawn(Screenshot::primary_window())
                        .observe(save_to_disk(path.clone()));
                    script.frames_taken.push(path);
                }
                return;
            }
            // Every picture of the flight written before the last one is taken.
            if !script
                .frames_taken
                .iter()
                .all(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > 0))
            {
                return;
            }
        }
    }
    script.shot = Shot::Plain;
    run.hold = false;
    run.restart();
}
