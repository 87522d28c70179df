//! The terrain's look when the app renders: one vertex-coloured `StandardMaterial` shared by
//! every chunk.

use crate::TerrainSystems;
use crate::chunk::TerrainChunk;
use bevy::prelude::*;

/// The material every chunk entity gets (when the app has `Assets<StandardMaterial>`). Insert
/// your own before the first chunk appears to replace it.
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(Resource, Debug)]
pub struct TerrainMaterial(pub Handle<StandardMaterial>);

/// Creates [`TerrainMaterial`] once `Assets<StandardMaterial>` exists and gives it to every new
/// chunk; does nothing in an app without a renderer.
pub(crate) struct TerrainRenderPlugin;

impl Plugin for TerrainRenderPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<TerrainMaterial>().add_systems(
            Update,
            (create_material, attach_material)
                .chain()
                .in_set(TerrainSystems::Look),
        );
    }
}

fn attach_material(
    mut commands: Commands,
    material: Option<Res<TerrainMaterial>>,
    chunks: Query<
        Entity,
        (
            With<TerrainChunk>,
            Without<MeshMaterial3d<StandardMaterial>>,
        ),
    >,
) {
    let Some(material) = material else { return };
    for entity in &chunks {
        commands
            .entity(entity)
            .try_insert(MeshMaterial3d(material.0.clone()));
    }
}

fn create_material(
    mut commands: Commands,
    existing: Option<Res<TerrainMaterial>>,
    materials: Option<ResMut<Assets<StandardMaterial>>>,
) {
    if existing.is_some() {
        return;
    }
    if let Some(mut materials) = materials {
        // White base colour: the vertex colours carry the ground's colour.
        let handle = materials.add(StandardMaterial {
            base_color: Color::WHITE,
            perceptual_roughness: 0.92,
            metallic: 0.0,
            reflectance: 0.25,
            ..default()
        });
        commands.insert_resource(TerrainMaterial(handle));
    }
}
