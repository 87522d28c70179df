//! The clouds' shade on the scatter: each `StandardMaterial` a scatter layer is drawn with
//! ([`ScatterVisuals::insert_mesh`](crate::ScatterVisuals::insert_mesh)) gets a twin, a
//! [`ScatterMaterial`]: the same material, its lit color darkened by the clouds' shade as the
//! ground's is (`scatter_shade.wgsl`). Instances are drawn with the twin, which follows its
//! original when that changes.

use super::weather::WeatherUniform;
use crate::scatter::{ScatterInstance, ScatterVisual, ScatterVisuals};
use crate::sets::TerrainSystems;
use bevy::pbr::{ExtendedMaterial, MaterialExtension};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::render::render_resource::AsBindGroup;
use bevy::shader::ShaderRef;

/// A scatter layer's material under the clouds: its `StandardMaterial` and the clouds that shade
/// it ([`ScatterMaterialExtension`]).
pub type ScatterMaterial = ExtendedMaterial<StandardMaterial, ScatterMaterialExtension>;

/// The clouds' part of [`ScatterMaterial`].
#[derive(Asset, AsBindGroup, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct ScatterMaterialExtension {
    /// The clouds and the sun at this frame's [`TerrainClock`](crate::TerrainClock).
    #[uniform(120)]
    pub weather: WeatherUniform,
}

const SCATTER_SHADER: &str = "embedded://bevy_perlin_terrain/render/scatter_shade.wgsl";

impl MaterialExtension for ScatterMaterialExtension {
    fn fragment_shader() -> ShaderRef {
        SCATTER_SHADER.into()
    }
}

/// The scatter layers' materials under the clouds, by the `StandardMaterial` each copies. The
/// scatter draws an instance with the twin of its layer's material once there is one.
#[derive(Resource, Default, Debug)]
pub struct ScatterMaterials {
    twins: HashMap<AssetId<StandardMaterial>, Handle<ScatterMaterial>>,
}

impl ScatterMaterials {
    /// The twin of `material`, if it has one yet.
    pub fn twin(&self, material: &Handle<StandardMaterial>) -> Option<&Handle<ScatterMaterial>> {
        self.twins.get(&material.id())
    }

    /// Every twin.
    pub(super) fn handles(&self) -> impl Iterator<Item = &Handle<ScatterMaterial>> {
        self.twins.values()
    }
}

pub(super) struct ScatterShadePlugin;

impl Plugin for ScatterShadePlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<ScatterMaterialExtension>()
            .init_resource::<ScatterMaterials>()
            .add_systems(
                Update,
                (
                    twin_scatter_materials.run_if(
                        resource_exists::<Assets<ScatterMaterial>>
                            .and_then(resource_exists::<ScatterVisuals>)
                            .and_then(
                                resource_changed::<ScatterVisuals>
                                    .or_else(on_message::<AssetEvent<StandardMaterial>>),
                            ),
                    ),
                    shade_earlier_instances.run_if(resource_changed::<ScatterMaterials>),
                )
                    .chain()
                    .before(TerrainSystems::Scatter),
            );
    }
}

/// Makes a twin for each scatter layer's `StandardMaterial` that has none (once it is loaded),
/// and copies into the twins the originals that changed.
fn twin_scatter_materials(
    visuals: Res<ScatterVisuals>,
    standard: Res<Assets<StandardMaterial>>,
    mut changed: MessageReader<AssetEvent<StandardMaterial>>,
    mut materials: ResMut<Assets<ScatterMaterial>>,
    mut twins: ResMut<ScatterMaterials>,
) {
    for event in changed.read() {
        if let AssetEvent::Modified { id } = event
            && let (Some(twin), Some(base)) = (twins.twins.get(id), standard.get(*id))
            && let Some(mut material) = materials.get_mut(twin)
        {
            material.base = base.clone();
        }
    }
    for visual in visuals.iter() {
        let ScatterVisual::Mesh { material, .. } = visual else {
            continue;
        };
        if twins.twins.contains_key(&material.id()) {
            continue;
        }
        if let Some(base) = standard.get(material) {
            let twin = materials.add(ExtendedMaterial {
                base: base.clone(),
                extension: ScatterMaterialExtension::default(),
            });
            twins.twins.insert(material.id(), twin);
        }
    }
}

/// Gives the twin to the instances spawned before their material had one (a material still
/// loading when they came).
fn shade_earlier_instances(
    mut commands: Commands,
    twins: Res<ScatterMaterials>,
    plain: Query<(Entity, &MeshMaterial3d<StandardMaterial>), With<ScatterInstance>>,
) {
    for (entity, material) in &plain {
        if let Some(twin) = twins.twin(&material.0) {
            commands
                .entity(entity)
                .remove::<MeshMaterial3d<StandardMaterial>>()
                .insert(MeshMaterial3d(twin.clone()));
        }
    }
}
