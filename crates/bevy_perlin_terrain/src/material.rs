//! The terrain's look when the app renders: one vertex-coloured `StandardMaterial` shared by
//! every chunk.

use crate::TerrainSet;
use crate::chunk::TerrainChunk;
use bevy::prelude::*;

/// The material every chunk entity gets (when the app has `Assets<StandardMaterial>`).
#[derive(Resource, Clone, Debug)]
pub struct TerrainMaterial(pub Handle<StandardMaterial>);

/// Creates [`TerrainMaterial`] once `Assets<StandardMaterial>` exists and gives it to every
/// new chunk; does nothing in an app without a renderer.
pub struct TerrainRenderPlugin;

impl Plugin for TerrainRenderPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (create_material, attach_material)
                .chain()
                .after(TerrainSet::Upload),
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
            .insert(MeshMaterial3d(material.0.clone()));
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
