//! The fly example's screenshot script: a short straight flight, then the shot
//! `TERRAIN_SHOT` asks for (see the example's own documentation).

use super::support::{self, ScreenshotRun};
use super::{crater, flat_site};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy_perlin_terrain::prelude::*;

/// The scripted part of screenshot mode: a short straight flight (streaming while moving),
/// then the shot `TERRAIN_SHOT` asks for.
#[derive(Resource)]
pub struct ScriptedFlight {
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

    pub fn new(shot: Option<&str>) -> Self {
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
pub fn fly_script(
    mut commands: Commands,
    mut script: ResMut<ScriptedFlight>,
    instances: Query<(&GlobalTransform, &ScatterInstance)>,
    mut run: ResMut<ScreenshotRun>,
    registry: Res<ChunkRegistry>,
    sampler: Option<Res<TerrainSampler>>,
    active: Option<Res<ActiveTerrainConfig>>,
    mut time: ResMut<support::sky::TimeOfDay>,
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
