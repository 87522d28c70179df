//! How the terrain is drawn when the app renders: the [`TerrainMaterial`] (per-pixel layers by height,
//! slope, snow and erosion creases, world-space edge noise and close-up detail, optional texture
//! layers), the [`WaterMaterial`] on a sea surface that follows the viewers, and the
//! vertex-color fallback. The config's `colors` and `water` drive them, live.

mod clouds;
mod scatter_shade;
mod shadows;
mod terrain_material;
mod textures;
mod water;
mod waves;
mod weather;

pub use clouds::{CloudLook, CloudMaterial, CloudMaterialExtension, TerrainClouds};
pub use scatter_shade::{ScatterMaterial, ScatterMaterialExtension, ScatterMaterials};
pub use terrain_material::{GroundLook, TerrainMaterial, TerrainMaterialExtension, TerrainShading};
pub use textures::TerrainTextures;
pub use water::{
    ATTRIBUTE_WATER_DEEP, ATTRIBUTE_WATER_SHALLOW, ATTRIBUTE_WATER_SKY, ATTRIBUTE_WAVE_SHARE,
    TerrainWater, WaterMaterial, WaterMaterialExtension, WaterShading,
};
pub use waves::TerrainWaves;
pub use weather::WeatherUniform;

use crate::chunk::TerrainRenderMode;
use crate::ground::ActiveTerrainConfig;
use crate::sets::TerrainSystems;
use crate::space::{RootFrame, RootQuery};
use crate::stream::TerrainChunk;
use crate::stream::{ChunkRegistry, TerrainRoot};
use bevy::pbr::MaterialPlugin;
use bevy::prelude::*;
use bevy::render::RenderPlugin;
use bevy::render::erased_render_asset::ErasedRenderAssetPlugin;

/// The materials the plugin gives its entities. Created once the app has the material assets;
/// edit the assets behind the handles to tune what the config does not say (e.g. the
/// `StandardMaterial` base's `reflectance`); the plugin rewrites only the extensions' shading
/// when the config's look changes.
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(Resource, Debug)]
pub struct TerrainMaterials {
    /// The chunks' material with [`TerrainRenderMode::Material`].
    pub terrain: Handle<TerrainMaterial>,
    /// The chunks' material with [`TerrainRenderMode::VertexColors`].
    pub vertex_colors: Handle<StandardMaterial>,
    /// The sea's material.
    pub water: Handle<WaterMaterial>,
    /// The cloud layer's material.
    pub clouds: Handle<CloudMaterial>,
}

/// Which render mode the plugin was added with.
#[derive(Resource, Clone, Copy)]
struct ActiveRenderMode(TerrainRenderMode);

/// The part of [`PerlinTerrainPlugin`](crate::PerlinTerrainPlugin) that draws the terrain
/// (feature `render`): the material plugins, the shaders, the sea, and the systems that give
/// chunks their material and keep it in step with the config. Does nothing in an app without a
/// renderer; left out, chunks get `Mesh3d` and no material.
///
/// Give viewing cameras a `DepthPrepass` and Bevy's `OcclusionCulling`: the terrain's fragment
/// shader is heavy and a view near the horizon stacks several layers of ground on a pixel; after
/// a depth-only pass the main pass shades only the front-most one, and the culling skips chunks
/// wholly behind nearer ground. While there is a sea the plugin adds the prepass itself (the
/// water reads the ground's depth).
pub struct TerrainRenderPlugin {
    pub(crate) render_mode: TerrainRenderMode,
}

/// Marks that the material plugins are in the app.
#[derive(Resource)]
struct MaterialsAdded;

impl Plugin for TerrainRenderPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(ActiveRenderMode(self.render_mode))
            .register_type::<TerrainMaterials>()
            .register_type::<TerrainRenderMode>()
            .add_plugins((
                textures::TerrainTexturesPlugin,
                water::TerrainWaterPlugin,
                waves::TerrainWavesPlugin,
                clouds::TerrainCloudsPlugin,
                scatter_shade::ScatterShadePlugin,
                weather::WeatherUniformPlugin,
            ))
            .add_systems(
                Update,
                (
                    // A headless app with the feature on has no material assets: nothing to do.
                    create_materials.run_if(
                        resource_exists::<Assets<TerrainMaterial>>
                            .and_then(not(resource_exists::<TerrainMaterials>)),
                    ),
                    // Chunks spawned before the materials existed.
                    attach_material.run_if(
                        resource_exists::<TerrainMaterials>
                            .and_then(any_match_filter::<ChunkWithoutMaterial>),
                    ),
                    update_terrain_shading.run_if(
                        config_or_materials_changed
                            .or_else(resource_changed::<textures::LayerTextureSlots>)
                            .or_else(viewers_replanned),
                    ),
                )
                    .chain_ignore_deferred()
                    .in_set(TerrainSystems::Materials),
            )
            // Where the root is drawn changes in `PostUpdate`'s propagation (a game moved it, or
            // a floating origin changed cell): the morph's viewers follow in the same frame.
            .add_systems(
                PostUpdate,
                update_terrain_shading
                    .after(bevy::transform::TransformSystems::Propagate)
                    .run_if(any_match_filter::<(With<TerrainRoot>, Changed<GlobalTransform>)>),
            )
            .add_systems(
                PostUpdate,
                shadows::trim_chunk_casters
                    .after(bevy::light::SimulationLightSystems::CheckLightVisibility)
                    .run_if(any_with_component::<TerrainChunk>),
            )
            .add_observer(material_for_new_chunk);
        // Where the renderer is already in the app, the material plugins go in now, with the
        // rest of the app's plugins; otherwise `finish` looks again.
        if app.is_plugin_added::<RenderPlugin>() {
            add_materials(app);
        }
    }

    /// The renderer may have been added after the terrain: then its material plugins go in
    /// now. (A plugin added while the app finishes misses its own `finish`, so the one the
    /// material plugins' render assets need runs here.)
    fn finish(&self, app: &mut App) {
        if app.is_plugin_added::<RenderPlugin>()
            && !app.world().contains_resource::<MaterialsAdded>()
        {
            add_materials(app);
            ErasedRenderAssetPlugin::<MeshMaterial3d<TerrainMaterial>>::default().finish(app);
            ErasedRenderAssetPlugin::<MeshMaterial3d<WaterMaterial>>::default().finish(app);
            ErasedRenderAssetPlugin::<MeshMaterial3d<CloudMaterial>>::default().finish(app);
            ErasedRenderAssetPlugin::<MeshMaterial3d<ScatterMaterial>>::default().finish(app);
        }
    }
}

/// The shaders and the material plugins (which need the asset server and the renderer).
fn add_materials(app: &mut App) {
    if !app.world().contains_resource::<AssetServer>() {
        error!(
            "the terrain's material needs Bevy's AssetPlugin (DefaultPlugins has it); the chunks stay without material"
        );
        return;
    }
    terrain_material::embed_shaders(app);
    app.add_plugins((
        MaterialPlugin::<TerrainMaterial>::default(),
        MaterialPlugin::<WaterMaterial>::default(),
        MaterialPlugin::<CloudMaterial>::default(),
        MaterialPlugin::<ScatterMaterial>::default(),
    ))
    .insert_resource(MaterialsAdded);
}

/// Run condition of [`update_terrain_shading`]: whether the planner moved the viewers the
/// chunks morph by (it touches the registry every frame it swaps chunks; the shading is then
/// compared, and written only if it differs).
fn viewers_replanned(registry: Option<Res<ChunkRegistry>>) -> bool {
    registry.is_some_and(|r| r.is_changed())
}

/// Run condition of the systems that follow the config's look: whether the config in force
/// changed or the materials were just created.
fn config_or_materials_changed(
    active: Option<Res<ActiveTerrainConfig>>,
    materials: Option<Res<TerrainMaterials>>,
) -> bool {
    active.is_some_and(|a| a.is_changed()) || materials.is_some_and(|m| m.is_added())
}

/// A chunk that has no material yet.
type ChunkWithoutMaterial = (
    With<TerrainChunk>,
    Without<MeshMaterial3d<TerrainMaterial>>,
    Without<MeshMaterial3d<StandardMaterial>>,
);

/// Creates [`TerrainMaterials`] once the material assets exist.
fn create_materials(
    mut commands: Commands,
    terrain: Option<ResMut<Assets<TerrainMaterial>>>,
    standard: Option<ResMut<Assets<StandardMaterial>>>,
    water: Option<ResMut<Assets<WaterMaterial>>>,
    clouds: Option<ResMut<Assets<CloudMaterial>>>,
    active: Option<Res<ActiveTerrainConfig>>,
) {
    let (Some(mut terrain), Some(mut standard), Some(mut water), Some(active)) =
        (terrain, standard, water, active)
    else {
        return;
    };
    let config = active.config();
    commands.insert_resource(TerrainMaterials {
        terrain: terrain.add(terrain_material::new_material(config)),
        // White base color: the vertex colors carry the ground's color.
        vertex_colors: standard.add(StandardMaterial {
            base_color: Color::WHITE,
            perceptual_roughness: 0.92,
            metallic: 0.0,
            reflectance: 0.25,
            ..default()
        }),
        water: water.add(water::new_material(config)),
        // An app without the cloud material's assets draws no clouds.
        clouds: clouds.map_or_else(Handle::default, |mut c| c.add(clouds::new_material())),
    });
}

/// Gives `chunk` the material of the plugin's render mode.
fn give_material(
    chunk: &mut EntityCommands,
    render_mode: TerrainRenderMode,
    materials: &TerrainMaterials,
) {
    match render_mode {
        TerrainRenderMode::Material => {
            chunk.try_insert(MeshMaterial3d(materials.terrain.clone()));
        }
        TerrainRenderMode::VertexColors => {
            chunk.try_insert(MeshMaterial3d(materials.vertex_colors.clone()));
        }
    }
}

/// A chunk gets its material as it is spawned, in the same command flush: it is never on
/// screen without one.
fn material_for_new_chunk(
    add: On<Add, TerrainChunk>,
    mut commands: Commands,
    render_mode: Res<ActiveRenderMode>,
    materials: Option<Res<TerrainMaterials>>,
) {
    if let Some(materials) = materials {
        give_material(&mut commands.entity(add.entity), render_mode.0, &materials);
    }
}

/// Gives the chunks spawned before the materials existed their material.
fn attach_material(
    mut commands: Commands,
    render_mode: Res<ActiveRenderMode>,
    materials: Option<Res<TerrainMaterials>>,
    chunks: Query<Entity, ChunkWithoutMaterial>,
) {
    let Some(materials) = materials else { return };
    for entity in &chunks {
        give_material(&mut commands.entity(entity), render_mode.0, &materials);
    }
}

/// Rewrites the terrain material's shading when the config's look (or its layer textures, or
/// the viewers the chunks morph by) changed; the GPU sees the change on the next frame, no chunk
/// is rebuilt.
fn update_terrain_shading(
    active: Option<Res<ActiveTerrainConfig>>,
    slots: Res<textures::LayerTextureSlots>,
    materials: Option<Res<TerrainMaterials>>,
    mut assets: Option<ResMut<Assets<TerrainMaterial>>>,
    registry: Option<Res<ChunkRegistry>>,
    roots: RootQuery<With<TerrainRoot>>,
) {
    let (Some(active), Some(materials), Some(assets)) = (active, materials, assets.as_mut()) else {
        return;
    };
    // The viewers the chunks were chosen for, in world space.
    let frame = RootFrame::of(registry.as_ref().and_then(|r| r.root()), &roots);
    let viewers: Vec<(Vec2, f32)> = registry
        .as_ref()
        .map(|r| {
            r.viewer_positions()
                .iter()
                .zip(r.viewer_heights())
                .map(|(&p, &height)| (frame.to_world(p).xz(), height))
                .collect()
        })
        .unwrap_or_default();
    let mut extension = TerrainMaterialExtension::new(active.config(), &slots, &viewers);
    // Compare through `Deref` first: a mutable borrow alone re-uploads the material. The
    // weather is the weather system's.
    let current = assets.get(&materials.terrain);
    if let Some(m) = current {
        extension.weather = m.extension.weather;
    }
    let unchanged = current.is_some_and(|m| m.extension == extension);
    if !unchanged && let Some(mut material) = assets.get_mut(&materials.terrain) {
        material.extension = extension;
    }
}
