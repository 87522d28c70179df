//! The sea: one flat surface at `sea_level` under the terrain root, moved with the viewers so
//! its edge is never in sight, drawn by [`WaterMaterial`] (`water.wgsl`): colour by the depth of
//! water over the ground, Fresnel reflection of the sky, small moving waves, foam on the shore.

use super::{ActiveLook, TerrainMaterials};
use crate::config::{TerrainConfig, Water};
use crate::ground::ActiveTerrainConfig;
use crate::sets::{TerrainLook, TerrainSystems};
use crate::stream::{ChunkRegistry, TerrainViewer};
use bevy::core_pipeline::prepass::DepthPrepass;
use bevy::light::NotShadowCaster;
use bevy::pbr::{ExtendedMaterial, MaterialExtension};
use bevy::prelude::*;
use bevy::render::render_resource::{AsBindGroup, ShaderType};
use bevy::shader::ShaderRef;

/// The sea's material: `StandardMaterial` lighting (alpha-blended), colour, transparency and
/// waves from [`WaterMaterialExtension`].
pub type WaterMaterial = ExtendedMaterial<StandardMaterial, WaterMaterialExtension>;

/// The sea's part of [`WaterMaterial`].
#[derive(Asset, AsBindGroup, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct WaterMaterialExtension {
    /// The config's `water`, packed for the shader.
    #[uniform(100)]
    pub shading: WaterShading,
}

/// The uniform of the water shader.
#[derive(ShaderType, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct WaterShading {
    /// Shallow colour (linear RGB) and the depth in metres that looks deep.
    pub shallow: Vec4,
    /// Deep colour (linear RGB) and the foam width in metres of depth.
    pub deep: Vec4,
    /// Reflected sky colour (linear RGB, added as light) and wave strength.
    pub sky: Vec4,
}

impl WaterShading {
    /// The shading of `water`.
    pub fn new(water: &Water) -> Self {
        Self {
            shallow: Vec3::from(water.shallow).extend(water.depth),
            deep: Vec3::from(water.deep).extend(water.foam),
            sky: Vec3::from(water.sky).extend(water.waves),
        }
    }
}

const WATER_SHADER: &str = "embedded://bevy_perlin_terrain/render/water.wgsl";

impl MaterialExtension for WaterMaterialExtension {
    fn fragment_shader() -> ShaderRef {
        WATER_SHADER.into()
    }
}

/// A new water material for `config` (default water if it has none).
pub(super) fn new_material(config: &TerrainConfig) -> WaterMaterial {
    ExtendedMaterial {
        base: StandardMaterial {
            base_color: Color::WHITE,
            alpha_mode: AlphaMode::Blend,
            perceptual_roughness: 0.08,
            // Water's F0 is about 0.02: 0.16 · reflectance².
            reflectance: 0.35,
            ..default()
        },
        extension: WaterMaterialExtension {
            shading: WaterShading::new(&config.water.clone().unwrap_or_default()),
        },
    }
}

/// Marks the sea surface entity (a child of the [`TerrainRoot`](crate::TerrainRoot)). Hide or
/// restyle it like any entity; the plugin moves it with the viewers and removes it when the
/// config has no `water`.
///
/// The water shader reads the depth of the ground under the sea from the depth prepass, so
/// while there is a sea every [`TerrainViewer`] camera without a `DepthPrepass` gets one; when
/// the sea goes (a config without `water`), the plugin takes away again the prepasses it added,
/// and only those.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component, Debug, Default)]
pub struct TerrainWater;

pub(super) struct TerrainWaterPlugin;

impl Plugin for TerrainWaterPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<TerrainWater>().add_systems(
            Update,
            (
                place_water.run_if(water_may_move),
                update_water_shading.run_if(super::config_or_materials_changed),
                add_depth_prepass.run_if(
                    any_with_component::<TerrainWater>
                        .and_then(any_match_filter::<ViewerWithoutPrepass>),
                ),
                remove_depth_prepass.run_if(
                    not(any_with_component::<TerrainWater>)
                        .and_then(any_with_component::<PrepassForWater>),
                ),
            )
                .chain_ignore_deferred()
                .after_ignore_deferred(super::update_terrain_shading)
                .in_set(TerrainSystems::Look),
        );
    }
}

/// Run condition of [`place_water`]: whether the viewers or the root (both in the registry),
/// the config or the materials changed, or the sea surface was despawned.
fn water_may_move(
    registry: Option<Res<ChunkRegistry>>,
    active: Option<Res<ActiveTerrainConfig>>,
    materials: Option<Res<TerrainMaterials>>,
    mut removed: RemovedComponents<TerrainWater>,
) -> bool {
    // Read every removal, so none counts again next frame.
    let despawned = removed.read().count() > 0;
    let Some(registry) = registry else {
        return false;
    };
    despawned
        || registry.is_changed()
        || active.is_some_and(|a| a.is_changed())
        || materials.is_some_and(|m| m.is_changed())
}

/// A viewing camera without a depth prepass.
type ViewerWithoutPrepass = (With<Camera3d>, With<TerrainViewer>, Without<DepthPrepass>);

/// Spawns, moves and removes the sea surface: centred on the viewers, reaching `view_distance`
/// plus a chunk past the farthest, at `sea_level`.
fn place_water(
    mut commands: Commands,
    look: Res<ActiveLook>,
    active: Option<Res<ActiveTerrainConfig>>,
    registry: Res<ChunkRegistry>,
    materials: Option<Res<TerrainMaterials>>,
    mut meshes: Option<ResMut<Assets<Mesh>>>,
    mut water: Query<(Entity, &mut Transform, Option<&ChildOf>), With<TerrainWater>>,
) {
    let (Some(active), Some(materials), Some(root)) = (active, materials, registry.root()) else {
        return;
    };
    let config = active.config();
    let viewers = registry.viewer_positions();
    if look.0 != TerrainLook::Material || config.water.is_none() || viewers.is_empty() {
        for (entity, ..) in &water {
            commands.entity(entity).try_despawn();
        }
        return;
    }
    // The viewers' bounding square, snapped to whole chunks so the surface moves in steps.
    let (low, high) = viewers.iter().fold(
        (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
        |(l, h), p| (l.min(p.xz()), h.max(p.xz())),
    );
    let step = config.chunk_size;
    let centre = ((low + high) * 0.5 / step).round() * step;
    let half = (high - low).max_element() * 0.5 + config.view_distance + 2.0 * step;
    let place = Transform::from_xyz(centre.x, config.sea_level, centre.y).with_scale(Vec3::new(
        2.0 * half,
        1.0,
        2.0 * half,
    ));
    match water.iter_mut().next() {
        Some((entity, mut transform, parent)) => {
            if *transform != place {
                *transform = place;
            }
            if parent.is_none_or(|p| p.parent() != root) {
                commands.entity(entity).try_insert(ChildOf(root));
            }
        }
        None => {
            let Some(meshes) = meshes.as_mut() else {
                return;
            };
            commands.spawn((
                TerrainWater,
                Name::new("terrain water"),
                Mesh3d(meshes.add(Plane3d::default().mesh().size(1.0, 1.0))),
                MeshMaterial3d(materials.water.clone()),
                NotShadowCaster,
                place,
                ChildOf(root),
            ));
        }
    }
}

/// Rewrites the water material's shading when the config's water changed.
fn update_water_shading(
    active: Option<Res<ActiveTerrainConfig>>,
    materials: Option<Res<TerrainMaterials>>,
    mut assets: Option<ResMut<Assets<WaterMaterial>>>,
) {
    let (Some(active), Some(materials), Some(assets)) = (active, materials, assets.as_mut()) else {
        return;
    };
    let Some(water) = &active.config().water else {
        return;
    };
    let shading = WaterShading::new(water);
    let unchanged = assets
        .get(&materials.water)
        .is_some_and(|m| m.extension.shading == shading);
    if !unchanged && let Some(mut material) = assets.get_mut(&materials.water) {
        material.extension.shading = shading;
    }
}

/// Marks a camera whose `DepthPrepass` the water added (and takes away with the sea).
#[derive(Component)]
struct PrepassForWater;

/// Gives every viewing camera a depth prepass while there is water: the water shader reads the
/// ground's depth under it for its colour, transparency and shoreline.
fn add_depth_prepass(mut commands: Commands, cameras: Query<Entity, ViewerWithoutPrepass>) {
    for camera in &cameras {
        commands
            .entity(camera)
            .try_insert((DepthPrepass, PrepassForWater));
    }
}

/// Takes away the depth prepasses the water added, once there is no sea.
fn remove_depth_prepass(mut commands: Commands, cameras: Query<Entity, With<PrepassForWater>>) {
    for camera in &cameras {
        commands
            .entity(camera)
            .try_remove::<(DepthPrepass, PrepassForWater)>();
    }
}
