//! The README's quick start as a program: the alps preset streamed around a camera 900 m up,
//! lit by one sun. Nothing else: no controls, no fog.
//!
//! ```sh
//! cargo run --example minimal
//! ```

use bevy::prelude::*;
use bevy_perlin_terrain::prelude::*;

fn main() -> AppExit {
    App::new()
        .add_plugins((
            DefaultPlugins,
            PerlinTerrainPlugin::from_asset("terrain/alps.terrain.ron"),
        ))
        .add_systems(Startup, setup)
        .run()
}

fn setup(mut commands: Commands) {
    // The viewer: terrain streams in around every entity with `TerrainViewer`.
    // 900 m up, over the alps' peaks, with a far plane beyond the 32 km view.
    commands.spawn((
        Camera3d::default(),
        Projection::from(PerspectiveProjection {
            far: 40_000.0,
            ..default()
        }),
        TerrainViewer,
        Transform::from_xyz(0.0, 900.0, 0.0).looking_at(Vec3::new(0.0, 300.0, -3000.0), Vec3::Y),
    ));
    // A sun, so the ground is lit and shaded.
    commands.spawn((
        DirectionalLight {
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::default().looking_to(Vec3::new(-0.6, -0.55, -0.4), Vec3::Y),
    ));
}
