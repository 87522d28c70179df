//! The walkers that follow the player: [`TerrainAgent`]s that the plugin walks over the
//! navigation around the player (a [`TerrainNavigator`]), along the road and around the crater.

use super::CameraYaw;
use super::Walker;
use bevy::prelude::*;
use bevy_perlin_terrain::prelude::*;

/// How many characters follow the walker.
pub const FOLLOWERS: usize = 4;
/// Metres from the start to the crater on the road.
pub const CRATER_AHEAD: f32 = 30.0;
/// Half a follower's height: its capsule's centre over its feet.
pub const FOLLOWER_HALF_HEIGHT: f32 = 0.85;

/// A character that keeps following the walker, `offset` from it (a [`TerrainAgent`]: the
/// plugin finds its way and walks it).
#[derive(Component)]
pub struct Follower {
    offset: Vec3,
}

/// The followers' look.
#[derive(Resource)]
pub struct FollowerAssets {
    pub mesh: Handle<Mesh>,
    pub materials: Vec<Handle<StandardMaterial>>,
}

/// Each follower's target: its place behind the walker, moved when the walker has moved a
/// metre from it (each move plans its way again).
pub fn follow_the_walker(
    yaw: Res<CameraYaw>,
    walker: Single<&Transform, (With<Walker>, Without<Follower>)>,
    mut followers: Query<(&Follower, &mut TerrainAgent)>,
) {
    for (follower, mut agent) in &mut followers {
        let target = walker.translation + Quat::from_rotation_y(yaw.0) * follower.offset;
        if agent
            .target
            .is_none_or(|t| t.xz().distance(target.xz()) > 1.0)
        {
            agent.target = Some(target);
        }
    }
}

/// Spawns the followers in a row across the road from `at`, each its own colour and pace.
pub fn spawn_followers(commands: &mut Commands, assets: &FollowerAssets, at: Vec3) {
    for k in 0..FOLLOWERS {
        let across = (k as f32 - 1.5) * 1.6;
        let offset = Vec3::new(across, 0.0, 2.5 + 0.8 * (k % 2) as f32);
        let start = at + Vec3::new(across, 0.0, -1.5 * k as f32);
        commands.spawn((
            Name::new(format!("follower {k}")),
            Follower { offset },
            TerrainAgent {
                speed: 4.0 + 0.3 * k as f32,
                ..default()
            },
            Transform::from_translation(start),
            Visibility::Inherited,
            children![(
                Mesh3d(assets.mesh.clone()),
                MeshMaterial3d(assets.materials[k % assets.materials.len()].clone()),
                Transform::from_xyz(0.0, FOLLOWER_HALF_HEIGHT, 0.0),
            )],
        ));
    }
}
