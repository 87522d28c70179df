//! The sea: one flat surface at `sea_level` under the terrain root, moved with the viewers so
//! its edge is never in sight, drawn by [`WaterMaterial`] (`water.wgsl`): color by the depth of
//! water over the ground, Fresnel reflection of the sky, small moving waves, foam on the shore.
//! Where biomes bring waters of their own, the surface is a grid whose vertices carry the
//! biomes' water looks blended by their weights.

use super::weather::WeatherUniform;
use super::{ActiveRenderMode, TerrainMaterials};
use crate::chunk::TerrainRenderMode;
use crate::config::{TerrainConfig, Water};
use crate::ground::{ActiveTerrainConfig, TerrainSampler};
use crate::sets::TerrainSystems;
use crate::space::{Cell, RootFrame, RootQuery};
use crate::stream::{ChunkRegistry, TerrainRoot, TerrainViewer};
use bevy::asset::RenderAssetUsages;
use bevy::core_pipeline::prepass::DepthPrepass;
use bevy::light::NotShadowCaster;
use bevy::math::DVec3;
use bevy::mesh::{
    Indices, MeshVertexAttribute, MeshVertexBufferLayoutRef, PrimitiveTopology, VertexFormat,
};
use bevy::pbr::{ExtendedMaterial, MaterialExtension};
use bevy::pbr::{MaterialExtensionKey, MaterialExtensionPipeline};
use bevy::prelude::*;
use bevy::render::render_resource::{
    AsBindGroup, RenderPipelineDescriptor, ShaderType, SpecializedMeshPipelineError,
};
use bevy::shader::ShaderRef;

/// The sea's material: `StandardMaterial` lighting (alpha-blended), color, transparency and
/// waves from [`WaterMaterialExtension`].
pub type WaterMaterial = ExtendedMaterial<StandardMaterial, WaterMaterialExtension>;

/// The sea's part of [`WaterMaterial`].
#[derive(Asset, AsBindGroup, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct WaterMaterialExtension {
    /// The config's `water`, packed for the shader.
    #[uniform(100)]
    pub shading: WaterShading,
    /// The waves (and the clouds) at this frame's [`TerrainClock`](crate::TerrainClock).
    #[uniform(120)]
    pub weather: WeatherUniform,
}

/// The uniform of the water shader.
#[derive(ShaderType, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct WaterShading {
    /// Shallow color (linear RGB) and the depth in metres that looks deep.
    pub shallow: Vec4,
    /// Deep color (linear RGB) and the foam width in metres of depth.
    pub deep: Vec4,
    /// Reflected sky color (linear RGB, added as light) and ripple strength.
    pub sky: Vec4,
    /// The grid of waves around the viewer ([`TerrainWaves`](super::TerrainWaves)): its centre (`x`, `z`) and half
    /// its side (0 without one), where the sea's far surface draws nothing; and the depth under
    /// which waves are full height.
    pub waves_area: Vec4,
}

impl WaterShading {
    /// The shading of `water`.
    pub fn new(water: &Water) -> Self {
        Self {
            shallow: Vec3::from(water.shallow).extend(water.depth),
            deep: Vec3::from(water.deep).extend(water.foam),
            sky: Vec3::from(water.sky).extend(water.ripples),
            waves_area: Vec4::ZERO,
        }
    }
}

const WATER_SHADER: &str = "embedded://bevy_perlin_terrain/render/water.wgsl";
const TERRAIN_VERTEX_SHADER: &str = "embedded://bevy_perlin_terrain/render/terrain_vertex.wgsl";

/// The sea's shallow color and the depth that looks deep at a vertex of its grid (the water
/// looks of the biomes there, blended by their weights): [`WaterShading::shallow`] per vertex.
pub const ATTRIBUTE_WATER_SHALLOW: MeshVertexAttribute = MeshVertexAttribute::new(
    "TerrainWaterShallow",
    0x7e22_a1d0_5eed_0005,
    VertexFormat::Float32x4,
);

/// [`WaterShading::deep`] per vertex of the sea's grid.
pub const ATTRIBUTE_WATER_DEEP: MeshVertexAttribute = MeshVertexAttribute::new(
    "TerrainWaterDeep",
    0x7e22_a1d0_5eed_0006,
    VertexFormat::Float32x4,
);

/// [`WaterShading::sky`] per vertex of the sea's grid.
pub const ATTRIBUTE_WATER_SKY: MeshVertexAttribute = MeshVertexAttribute::new(
    "TerrainWaterSky",
    0x7e22_a1d0_5eed_0007,
    VertexFormat::Float32x4,
);

/// The share of the waves' full height at a vertex of the grid of waves
/// ([`TerrainSampler::wave_share`], faded to 0 at the grid's edge).
pub const ATTRIBUTE_WAVE_SHARE: MeshVertexAttribute = MeshVertexAttribute::new(
    "TerrainWaveShare",
    0x7e22_a1d0_5eed_0008,
    VertexFormat::Float32,
);

/// The shader location of [`ATTRIBUTE_WAVE_SHARE`].
const WAVE_LOCATION: u32 = 15;

/// The shader location of [`ATTRIBUTE_WATER_SHALLOW`] (then the deep and sky attributes): past
/// every location of Bevy's mesh pipeline, as the terrain's own attributes.
const WATER_LOCATION: u32 = 12;

impl MaterialExtension for WaterMaterialExtension {
    fn fragment_shader() -> ShaderRef {
        WATER_SHADER.into()
    }

    /// The terrain's vertex shader, which passes on the water attributes when the mesh has them.
    fn vertex_shader() -> ShaderRef {
        TERRAIN_VERTEX_SHADER.into()
    }

    /// Adds the water attributes (when the sea's mesh has them) to the vertex layout.
    fn specialize(
        _pipeline: &MaterialExtensionPipeline,
        descriptor: &mut RenderPipelineDescriptor,
        layout: &MeshVertexBufferLayoutRef,
        _key: MaterialExtensionKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        let water = [
            ATTRIBUTE_WATER_SHALLOW,
            ATTRIBUTE_WATER_DEEP,
            ATTRIBUTE_WATER_SKY,
        ];
        super::terrain_material::add_attributes(
            descriptor,
            layout,
            &water,
            WATER_LOCATION,
            "WATER_BIOMES",
        )?;
        super::terrain_material::add_attributes(
            descriptor,
            layout,
            &[ATTRIBUTE_WAVE_SHARE],
            WAVE_LOCATION,
            "WATER_WAVES",
        )
    }
}

/// Quads a side of the sea's grid when biomes bring waters of their own.
const WATER_GRID: usize = 128;

/// The sea's mesh, a unit square (scaled and placed by its transform) centred at `centre` and
/// `half` metres across each way: one quad, or, where biomes of `config` bring waters of their
/// own, a grid whose vertices carry the water looks of the biomes there blended by their
/// weights (from `sampler`).
fn water_mesh(
    config: &TerrainConfig,
    sampler: Option<&TerrainSampler>,
    centre: Vec2,
    half: f32,
) -> Mesh {
    let plain = || Plane3d::default().mesh().size(1.0, 1.0).build();
    let Some(sampler) = sampler.filter(|_| config.biomes.iter().any(|b| b.water.is_some())) else {
        return plain();
    };
    let n = WATER_GRID + 1;
    let spacing = 2.0 * f64::from(half) / WATER_GRID as f64;
    let origin = [f64::from(centre.x - half), f64::from(centre.y - half)];
    let weights = sampler.biome_weight_grid(origin, spacing, [n, n]);
    if weights.is_empty() {
        return plain();
    }
    let default = config.water.clone().unwrap_or_default();
    let looks: Vec<WaterShading> = (config.biomes.iter())
        .map(|b| WaterShading::new(b.water.as_ref().unwrap_or(&default)))
        .collect();
    let mut shading = vec![[Vec4::ZERO; 3]; n * n];
    for (biome, weights) in &weights {
        let Some(look) = looks.get(*biome) else {
            continue;
        };
        for (s, &w) in shading.iter_mut().zip(weights) {
            s[0] += w * look.shallow;
            s[1] += w * look.deep;
            s[2] += w * look.sky;
        }
    }
    let unit = |k: usize| k as f32 / WATER_GRID as f32;
    let grid = (0..n).flat_map(|j| (0..n).map(move |i| (i, j)));
    let positions: Vec<[f32; 3]> = grid
        .clone()
        .map(|(i, j)| [unit(i) - 0.5, 0.0, unit(j) - 0.5])
        .collect();
    let uvs: Vec<[f32; 2]> = grid.map(|(i, j)| [unit(i), unit(j)]).collect();
    let indices = crate::chunk::grid_triangles(n);
    let attribute = |k: usize| shading.iter().map(|s| s[k].to_array()).collect::<Vec<_>>();
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
    )
    .with_inserted_attribute(
        Mesh::ATTRIBUTE_NORMAL,
        vec![[0.0, 1.0, 0.0]; positions.len()],
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
    .with_inserted_attribute(ATTRIBUTE_WATER_SHALLOW, attribute(0))
    .with_inserted_attribute(ATTRIBUTE_WATER_DEEP, attribute(1))
    .with_inserted_attribute(ATTRIBUTE_WATER_SKY, attribute(2))
    .with_inserted_indices(Indices::U32(indices))
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
            weather: WeatherUniform::default(),
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
                .in_set(TerrainSystems::Materials),
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

/// What the sea's grid was last built for (where biomes bring waters of their own): where,
/// how large, which ground and which looks.
#[derive(Clone, PartialEq)]
pub(super) struct WaterGrid {
    centre: Vec2,
    half: f32,
    generation: u64,
    looks: Vec<Option<Water>>,
}

/// Spawns, moves and removes the sea surface: centred on the viewers, reaching `view_distance`
/// plus a chunk past the farthest, at `sea_level`. Where biomes bring waters of their own, its
/// grid moves in steps of its own spacing (so its vertices stay on the same world positions)
/// and is rebuilt when it moves.
#[allow(clippy::too_many_arguments, reason = "a system's parameters")]
pub(super) fn place_water(
    mut commands: Commands,
    render_mode: Res<ActiveRenderMode>,
    active: Option<Res<ActiveTerrainConfig>>,
    sampler: Option<Res<TerrainSampler>>,
    registry: Res<ChunkRegistry>,
    materials: Option<Res<TerrainMaterials>>,
    mut meshes: Option<ResMut<Assets<Mesh>>>,
    mut water: Query<(Entity, &mut Transform, Cell, Option<&ChildOf>, &Mesh3d), With<TerrainWater>>,
    roots: RootQuery<(With<TerrainRoot>, Without<TerrainWater>)>,
    mut built: Local<Option<WaterGrid>>,
) {
    let (Some(active), Some(materials), Some(root)) = (active, materials, registry.root()) else {
        return;
    };
    let config = active.config();
    let viewers = registry.viewer_positions();
    if render_mode.0 != TerrainRenderMode::Material || config.water.is_none() || viewers.is_empty()
    {
        for (entity, ..) in &water {
            commands.entity(entity).try_despawn();
        }
        return;
    }
    // The viewers' bounding square, snapped to whole chunks so the surface moves in steps.
    let (low, high) = viewers.iter().fold(
        (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN)),
        |(l, h), p| (l.min(p.xz().as_vec2()), h.max(p.xz().as_vec2())),
    );
    let mut step = config.chunk_size;
    let mut half = (high - low).max_element() * 0.5 + config.view_distance + 2.0 * step;
    let biome_water = config.biomes.iter().any(|b| b.water.is_some());
    if biome_water {
        // Steps of the grid's spacing, and that much more sea around.
        step = step.max(2.0 * half / WATER_GRID as f32);
        half += step;
    }
    let centre = ((low + high) * 0.5 / step).round() * step;
    let grid = biome_water.then(|| WaterGrid {
        centre,
        half,
        generation: active.generation(),
        looks: std::iter::once(config.water.clone())
            .chain(config.biomes.iter().map(|b| b.water.clone()))
            .collect(),
    });
    let sampler = sampler.as_deref();
    let place = RootFrame::of(Some(root), &roots)
        .place(DVec3::new(
            f64::from(centre.x),
            f64::from(config.sea_level),
            f64::from(centre.y),
        ))
        .with_scale(Vec3::new(2.0 * half, 1.0, 2.0 * half));
    match water.iter_mut().next() {
        Some((entity, mut transform, cell, parent, mesh)) => {
            place.apply(&mut commands.entity(entity), &mut transform, cell);
            if *built != grid
                && let Some(meshes) = meshes.as_mut()
            {
                let _ = meshes.insert(&mesh.0, water_mesh(config, sampler, centre, half));
                *built = grid;
            }
            if parent.is_none_or(|p| p.parent() != root) {
                commands.entity(entity).try_insert(ChildOf(root));
            }
        }
        None => {
            let Some(meshes) = meshes.as_mut() else {
                return;
            };
            place.spawn(
                &mut commands,
                (
                    TerrainWater,
                    Name::new("terrain water"),
                    Mesh3d(meshes.add(water_mesh(config, sampler, centre, half))),
                    MeshMaterial3d(materials.water.clone()),
                    NotShadowCaster,
                    ChildOf(root),
                ),
            );
            *built = grid;
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
    let mut shading = WaterShading::new(water);
    // Where the grid of waves is: the waves' system's.
    if let Some(current) = assets.get(&materials.water) {
        shading.waves_area = current.extension.shading.waves_area;
    }
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
/// ground's depth under it for its color, transparency and shoreline.
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
