//! The cloud layer: a plane through the middle of the config's `clouds` that follows the first
//! viewer, drawn by [`CloudMaterial`] (`clouds.wgsl`), which marches each view ray through the
//! layer's density (the same function as [`TerrainSampler::cloud_cover`]).
//!
//! [`TerrainSampler::cloud_cover`]: crate::TerrainSampler::cloud_cover

use super::weather::WeatherUniform;
use super::{ActiveRenderMode, TerrainMaterials};
use crate::chunk::TerrainRenderMode;
use crate::ground::ActiveTerrainConfig;
use crate::sets::TerrainSystems;
use crate::space::{Cell, RootFrame, RootQuery};
use crate::stream::{ChunkRegistry, TerrainRoot, TerrainViewer};
use bevy::light::{NotShadowCaster, NotShadowReceiver};
use bevy::math::DVec3;
use bevy::pbr::{ExtendedMaterial, MaterialExtension};
use bevy::prelude::*;
use bevy::render::render_resource::{AsBindGroup, ShaderType};
use bevy::shader::ShaderRef;

/// The cloud layer's material: an unlit, alpha-blended `StandardMaterial` whose color and
/// transparency come from [`CloudMaterialExtension`].
pub type CloudMaterial = ExtendedMaterial<StandardMaterial, CloudMaterialExtension>;

/// The cloud layer's part of [`CloudMaterial`].
#[derive(Asset, AsBindGroup, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct CloudMaterialExtension {
    /// The clouds at this frame's [`TerrainClock`](crate::TerrainClock).
    #[uniform(120)]
    pub weather: WeatherUniform,
    /// Their colors and the haze they fade into.
    #[uniform(130)]
    pub look: CloudLook,
}

/// The colors of the clouds, set from the sun and the viewer's fog every frame.
#[derive(ShaderType, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct CloudLook {
    /// Linear RGB of the sunlit tops.
    pub lit: Vec4,
    /// Linear RGB of the shaded bases.
    pub shaded: Vec4,
    /// Linear RGB of the haze far clouds fade into, and the distance (m) at which the layer has
    /// thinned to nothing.
    pub haze: Vec4,
}

impl CloudLook {
    /// The look under a sun `sun_height` high (the sine of its elevation), in a haze of `haze`
    /// reaching `distance` metres.
    pub fn new(sun_height: f32, haze: LinearRgba, distance: f32) -> Self {
        let day = sun_height.clamp(0.0, 1.0).sqrt();
        // A low sun gilds the tops and leaves the bases grey-blue.
        let warm = Vec3::new(1.0, 0.78, 0.55).lerp(Vec3::new(1.0, 0.98, 0.95), day);
        Self {
            lit: (warm * (0.35 + 0.65 * day)).extend(1.0),
            shaded: (Vec3::new(0.42, 0.46, 0.54) * (0.3 + 0.7 * day)).extend(1.0),
            haze: Vec3::new(haze.red, haze.green, haze.blue).extend(distance),
        }
    }
}

const CLOUD_SHADER: &str = "embedded://bevy_perlin_terrain/render/clouds.wgsl";

impl MaterialExtension for CloudMaterialExtension {
    fn fragment_shader() -> ShaderRef {
        CLOUD_SHADER.into()
    }
}

/// A new cloud material.
pub(super) fn new_material() -> CloudMaterial {
    ExtendedMaterial {
        base: StandardMaterial {
            base_color: Color::WHITE,
            unlit: true,
            alpha_mode: AlphaMode::Blend,
            fog_enabled: false,
            double_sided: true,
            cull_mode: None,
            ..default()
        },
        extension: CloudMaterialExtension::default(),
    }
}

/// Marks the cloud layer's plane (a child of the [`TerrainRoot`](crate::TerrainRoot)), present
/// while the config has `clouds`.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component, Debug, Default)]
pub struct TerrainClouds;

pub(super) struct TerrainCloudsPlugin;

impl Plugin for TerrainCloudsPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<TerrainClouds>().add_systems(
            Update,
            place_clouds
                .run_if(clouds_may_move)
                .in_set(TerrainSystems::Materials),
        );
    }
}

/// Run condition of [`place_clouds`]: the config or the materials changed, or a viewer moved
/// under clouds.
fn clouds_may_move(
    active: Option<Res<ActiveTerrainConfig>>,
    materials: Option<Res<TerrainMaterials>>,
    moved: Query<(), (With<TerrainViewer>, Changed<GlobalTransform>)>,
) -> bool {
    let Some(active) = active else {
        return false;
    };
    active.is_changed()
        || materials.is_some_and(|m| m.is_added())
        || (active.config().clouds.is_some() && !moved.is_empty())
}

/// Spawns, moves and removes the cloud layer's plane: through the middle of the layer, centred
/// on the first viewer, reaching the view distance.
fn place_clouds(
    mut commands: Commands,
    render_mode: Res<ActiveRenderMode>,
    active: Option<Res<ActiveTerrainConfig>>,
    registry: Option<Res<ChunkRegistry>>,
    materials: Option<Res<TerrainMaterials>>,
    mut meshes: Option<ResMut<Assets<Mesh>>>,
    viewers: Query<&GlobalTransform, With<TerrainViewer>>,
    roots: RootQuery<(With<TerrainRoot>, Without<TerrainClouds>)>,
    mut plane: Query<(Entity, &mut Transform, Cell), With<TerrainClouds>>,
) {
    let root = registry.and_then(|r| r.root());
    let frame = RootFrame::of(root, &roots);
    let wanted = (|| {
        let config = active.as_ref()?.config();
        let clouds = config.clouds.as_ref()?;
        let viewer = frame.to_root(viewers.iter().next()?.translation());
        let middle = f64::from(clouds.altitude + 0.5 * clouds.thickness);
        (render_mode.0 == TerrainRenderMode::Material).then(|| {
            frame
                .place(DVec3::new(viewer.x, middle, viewer.z))
                .with_scale(Vec3::new(
                    2.0 * config.view_distance,
                    1.0,
                    2.0 * config.view_distance,
                ))
        })
    })();
    let (Some(place), Some(materials), Some(root)) = (wanted, materials, root) else {
        for (entity, ..) in &plane {
            commands.entity(entity).try_despawn();
        }
        return;
    };
    match plane.iter_mut().next() {
        Some((entity, mut transform, cell)) => {
            place.apply(&mut commands.entity(entity), &mut transform, cell);
        }
        None => {
            let Some(meshes) = meshes.as_mut() else {
                return;
            };
            place.spawn(
                &mut commands,
                (
                    TerrainClouds,
                    Name::new("terrain clouds"),
                    Mesh3d(meshes.add(Plane3d::default().mesh().size(1.0, 1.0))),
                    MeshMaterial3d(materials.clouds.clone()),
                    NotShadowCaster,
                    NotShadowReceiver,
                    ChildOf(root),
                ),
            );
        }
    }
}
