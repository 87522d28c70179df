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
//! `TERRAIN_SKY=flat` draws a clear color and fog instead of Bevy's atmosphere (the default but on
//! the software renderer, which crashes in it); `TERRAIN_SKY=atmosphere` asks for it there too.
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
use bevy::window::{ExitCondition, WindowResolution};
use bevy::winit::WinitPlugin;
use bevy_perlin_terrain::prelude::*;
use big_space::plugin::BigSpaceMinimalPlugins;
use big_space::prelude::{BigSpace, CellCoord, FloatingOrigin};
use presets::{Preset, preset_names, switch_preset};
use script::{ScriptedFlight, fly_script};
use std::time::Duration;
use support::{ScreenshotPlugin, ScreenshotRun};

mod far;
mod frames;
mod panel;
mod presets;
mod script;
mod stats;
#[path = "../support/mod.rs"]
mod support;

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
    .add_plugins(support::sky::SkyPlugin)
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
            .map_or_else(support::sky::TimeOfDay::default, |hours| {
                support::sky::TimeOfDay { hours }
            }),
    )
    .add_systems(Startup, (setup, support::scatter_looks))
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
        // Tonemap the sky too (the atmosphere needs it; under the flat sky, fully fogged
        // ground matches the clear color behind it).
        Hdr,
        Transform::from_xyz(0.0, 400.0, 0.0).looking_to(Vec3::new(0.3, -0.32, -1.0), Vec3::Y),
        FreeCamera {
            walk_speed: 60.0,
            run_speed: 400.0,
            ..default()
        },
        // The sky's air or fog comes from `support::sky::SkyPlugin`.
        TerrainViewer,
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
    commands.spawn(support::sky::sun(80.0, 900.0));
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
fn time_of_day_on_key(keys: Res<ButtonInput<KeyCode>>, mut time: ResMut<support::sky::TimeOfDay>) {
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

/// A perspective projection that draws as far as the terrain streams, and a little more.
fn far_plane(view: f32) -> Projection {
    Projection::Perspective(PerspectiveProjection {
        far: view * 1.25 + 1000.0,
        ..default()
    })
}

/// The far plane that fits this config's view distance (the sky follows it itself).
fn follow_config(
    active: Option<Res<ActiveTerrainConfig>>,
    mut projection: Single<&mut Projection, With<Camera3d>>,
) {
    let Some(active) = active.filter(|a| a.is_changed()) else {
        return;
    };
    **projection = far_plane(active.config().view_distance);
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
