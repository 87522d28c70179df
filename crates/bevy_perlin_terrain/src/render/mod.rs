//! The terrain's look when the app renders: the [`TerrainMaterial`] (per-pixel layers by height,
//! slope, snow and erosion creases, world-space edge noise and close-up detail, optional texture
//! layers), the [`WaterMaterial`] on a sea surface that follows the viewers, and the
//! vertex-colour fallback. The config's `colours` and `water` drive them, live.

mod terrain_material;
mod textures;
mod water;

pub use terrain_material::{TerrainMaterial, TerrainMaterialExtension, TerrainShading};
pub use textures::TerrainTextures;
pub use water::{TerrainWater, WaterMaterial, WaterMaterialExtension, WaterShading};

use crate::TerrainSystems;
use crate::chunk::TerrainChunk;
use crate::plugin::TerrainLook;
use crate::state::ActiveTerrainConfig;
use bevy::pbr::MaterialPlugin;
use bevy::prelude::*;

/// The materials the plugin gives its entities. Created once the app has the material assets;
/// edit the assets behind the handles to tune what the config does not say (e.g. the
/// `StandardMaterial` base's `reflectance`); the plugin rewrites only the extensions' shading
/// when the config's look changes.
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(Resource, Debug)]
pub struct TerrainMaterials {
    /// The chunks' material with [`TerrainLook::Material`].
    pub terrain: Handle<TerrainMaterial>,
    /// The chunks' material with [`TerrainLook::VertexColours`].
    pub vertex_colours: Handle<StandardMaterial>,
    /// The sea's material.
    pub water: Handle<WaterMaterial>,
}

/// Which look the plugin was added with.
#[derive(Resource, Clone, Copy)]
struct ActiveLook(TerrainLook);

/// The material plugins, the shaders, and the systems that give chunks their material and keep
/// it in step with the config. Does nothing in an app without a renderer.
pub(crate) struct TerrainRenderPlugin {
    pub look: TerrainLook,
}

impl Plugin for TerrainRenderPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ActiveLook(self.look))
            .register_type::<TerrainMaterials>()
            .register_type::<TerrainLook>()
            .add_plugins((textures::TerrainTexturesPlugin, water::TerrainWaterPlugin))
            .add_systems(
                Update,
                (create_materials, attach_material, update_terrain_shading)
                    .chain()
                    .in_set(TerrainSystems::Look),
            );
        // The material plugins need the render app; without one (a headless app with the
        // feature on) the chunks simply get no material.
        if app.is_plugin_added::<bevy::render::RenderPlugin>() {
            terrain_material::embed_shaders(app);
            app.add_plugins((
                MaterialPlugin::<TerrainMaterial>::default(),
                MaterialPlugin::<WaterMaterial>::default(),
            ));
        }
    }
}

/// Creates [`TerrainMaterials`] once the material assets exist.
fn create_materials(
    mut commands: Commands,
    existing: Option<Res<TerrainMaterials>>,
    terrain: Option<ResMut<Assets<TerrainMaterial>>>,
    standard: Option<ResMut<Assets<StandardMaterial>>>,
    water: Option<ResMut<Assets<WaterMaterial>>>,
    active: Option<Res<ActiveTerrainConfig>>,
) {
    let (None, Some(mut terrain), Some(mut standard), Some(mut water), Some(active)) =
        (existing, terrain, standard, water, active)
    else {
        return;
    };
    let config = active.config();
    commands.insert_resource(TerrainMaterials {
        terrain: terrain.add(terrain_material::new_material(config)),
        // White base colour: the vertex colours carry the ground's colour.
        vertex_colours: standard.add(StandardMaterial {
            base_color: Color::WHITE,
            perceptual_roughness: 0.92,
            metallic: 0.0,
            reflectance: 0.25,
            ..default()
        }),
        water: water.add(water::new_material(config)),
    });
}

/// Gives every new chunk the material of the plugin's look.
fn attach_material(
    mut commands: Commands,
    look: Res<ActiveLook>,
    materials: Option<Res<TerrainMaterials>>,
    chunks: Query<
        Entity,
        (
            With<TerrainChunk>,
            Without<MeshMaterial3d<TerrainMaterial>>,
            Without<MeshMaterial3d<StandardMaterial>>,
        ),
    >,
) {
    let Some(materials) = materials else { return };
    for entity in &chunks {
        let mut chunk = commands.entity(entity);
        match look.0 {
            TerrainLook::Material => {
                chunk.try_insert(MeshMaterial3d(materials.terrain.clone()));
            }
            TerrainLook::VertexColours => {
                chunk.try_insert(MeshMaterial3d(materials.vertex_colours.clone()));
            }
        }
    }
}

/// Rewrites the terrain material's shading when the config's look (or its layer textures)
/// changed; the GPU sees the change on the next frame, no chunk is rebuilt.
fn update_terrain_shading(
    active: Option<Res<ActiveTerrainConfig>>,
    slots: Res<textures::LayerTextureSlots>,
    materials: Option<Res<TerrainMaterials>>,
    mut assets: Option<ResMut<Assets<TerrainMaterial>>>,
) {
    let (Some(active), Some(materials), Some(assets)) = (active, materials, assets.as_mut()) else {
        return;
    };
    if !(active.is_changed() || slots.is_changed() || materials.is_added()) {
        return;
    }
    let extension = TerrainMaterialExtension::new(active.config(), &slots);
    // Compare through `Deref` first: a mutable borrow alone re-uploads the material.
    let unchanged = assets
        .get(&materials.terrain)
        .is_some_and(|m| m.extension == extension);
    if !unchanged && let Some(mut material) = assets.get_mut(&materials.terrain) {
        material.extension = extension;
    }
}
