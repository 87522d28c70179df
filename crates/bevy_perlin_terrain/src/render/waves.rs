//! The sea's waves as geometry: a grid around the first viewer whose vertices the water's vertex
//! shader moves with the waves (`weather.wgsl`'s `water_height`, what
//! [`TerrainSampler::water_height`] answers), a vertex every 4 m.
//!
//! The grid moves in steps of [`WAVE_STEP`] and is rebuilt when it moves: its vertices carry the
//! share of the waves' height the water's depth leaves them, from the ground's heights at the
//! vertices read in one grid fill. Towards its edge the waves fade to the flat far sea, which draws
//! nothing inside the grid, so the two meet without a seam.

use super::water::ATTRIBUTE_WAVE_SHARE;
use super::{ActiveRenderMode, TerrainMaterials};
use crate::chunk::TerrainRenderMode;
use crate::ground::{ActiveTerrainConfig, TerrainSampler};
use crate::sets::TerrainSystems;
use crate::space::{Cell, RootFrame, RootQuery};
use crate::stream::{ChunkRegistry, TerrainRoot};
use crate::weather::{shore_factor, smoothstep};
use bevy::asset::RenderAssetUsages;
use bevy::light::NotShadowCaster;
use bevy::math::DVec3;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

/// Quads along a side of the grid of waves: 2 × 192² triangles, 74 k.
const WAVE_GRID: usize = 192;

/// Metres between the grid's vertices: the shortest waves' octave of the default length
/// (40 m / 1.9²) still has three vertices a wave.
const WAVE_SPACING: f32 = 4.0;

/// Half the side of the grid of waves, in metres.
pub(super) const WAVE_RADIUS: f32 = 0.5 * WAVE_GRID as f32 * WAVE_SPACING;

/// Metres the grid's centre moves at a time (it follows the first viewer), a whole number of
/// vertex spacings, so its vertices stay on the same world positions.
pub(super) const WAVE_STEP: f32 = 64.0;

/// The outer share of the grid's half side over which the waves fade to the flat far sea.
const EDGE_FADE: f32 = 0.2;

/// Marks the grid of waves (a child of the [`TerrainRoot`](crate::TerrainRoot)), drawn with the
/// sea's material while the config has `water` and `waves`.
#[derive(Component, Reflect, Clone, Copy, Debug, Default)]
#[reflect(Component, Debug, Default)]
pub struct TerrainWaves;

pub(super) struct TerrainWavesPlugin;

impl Plugin for TerrainWavesPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<TerrainWaves>().add_systems(
            Update,
            place_waves
                .run_if(
                    super::config_or_materials_changed
                        .or_else(resource_exists_and_changed::<ChunkRegistry>)
                        .or_else(resource_exists_and_changed::<TerrainSampler>),
                )
                .after(super::water::place_water)
                .in_set(TerrainSystems::Materials),
        );
    }
}

/// The mesh of the grid of waves centred at `centre` (metres, `x` and `z`): positions relative
/// to it at sea level, each vertex with the share of the waves' height the water's depth there
/// leaves them ([`TerrainSampler::wave_share`], from the ground's heights at the vertices in one
/// grid fill), faded to 0 at the grid's edge. `None` if the ground could not be read.
fn wave_mesh(
    sampler: &TerrainSampler,
    sea_level: f32,
    shore_depth: f32,
    centre: Vec2,
) -> Option<Mesh> {
    let n = WAVE_GRID + 1;
    let corner = centre - WAVE_RADIUS;
    let mut heights = vec![0.0; n * n];
    let mut normals = vec![Vec3::Y; n * n];
    let origin = [f64::from(corner.x), f64::from(corner.y)];
    if !sampler.sample_grid(
        origin,
        f64::from(WAVE_SPACING),
        [n, n],
        &mut heights,
        &mut normals,
    ) {
        return None;
    }
    let mut positions = Vec::with_capacity(n * n);
    let mut shares = Vec::with_capacity(n * n);
    for j in 0..n {
        for i in 0..n {
            let local = Vec2::new(i as f32, j as f32) * WAVE_SPACING - WAVE_RADIUS;
            let out = local.abs().max_element() / WAVE_RADIUS;
            let edge = 1.0 - smoothstep(1.0 - EDGE_FADE, 1.0, out);
            positions.push([local.x, 0.0, local.y]);
            shares.push(shore_factor(heights[j * n + i], sea_level, shore_depth) * edge);
        }
    }
    let indices = crate::chunk::grid_triangles(n);
    Some(
        Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::RENDER_WORLD,
        )
        .with_inserted_attribute(
            Mesh::ATTRIBUTE_NORMAL,
            vec![[0.0, 1.0, 0.0]; positions.len()],
        )
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
        .with_inserted_attribute(ATTRIBUTE_WAVE_SHARE, shares)
        .with_inserted_indices(Indices::U32(indices)),
    )
}

/// What the grid of waves was last built for.
#[derive(Clone, PartialEq)]
pub(super) struct BuiltWaves {
    centre: Vec2,
    generation: u64,
    sea_level: f32,
    shore_depth: f32,
}

/// Spawns, moves and removes the grid of waves: around the first viewer while the config has
/// `water` and `waves` (and the terrain is drawn with its material).
pub(super) fn place_waves(
    mut commands: Commands,
    render_mode: Res<ActiveRenderMode>,
    active: Option<Res<ActiveTerrainConfig>>,
    sampler: Option<Res<TerrainSampler>>,
    registry: Option<Res<ChunkRegistry>>,
    materials: Option<Res<TerrainMaterials>>,
    mut meshes: Option<ResMut<Assets<Mesh>>>,
    mut grid: Query<(Entity, &mut Transform, Cell, &Mesh3d), With<TerrainWaves>>,
    roots: RootQuery<(With<TerrainRoot>, Without<TerrainWaves>)>,
    mut built: Local<Option<BuiltWaves>>,
) {
    let wanted = (|| {
        let active = active.as_ref()?;
        let config = active.config();
        let waves = config.waves.as_ref().filter(|_| config.water.is_some())?;
        let viewer = registry.as_ref()?.viewer_positions().first()?;
        (render_mode.0 == TerrainRenderMode::Material).then_some(BuiltWaves {
            centre: ((viewer.xz() / f64::from(WAVE_STEP)).round() * f64::from(WAVE_STEP)).as_vec2(),
            generation: active.generation(),
            sea_level: config.sea_level,
            shore_depth: waves.shore_depth,
        })
    })();
    let (Some(wanted), Some(sampler), Some(materials), Some(root), Some(meshes)) = (
        wanted,
        sampler,
        materials,
        registry.and_then(|r| r.root()),
        meshes.as_mut(),
    ) else {
        for (entity, ..) in &grid {
            commands.entity(entity).try_despawn();
        }
        *built = None;
        return;
    };
    if built.as_ref() == Some(&wanted) && !sampler.is_changed() && !grid.is_empty() {
        return;
    }
    let Some(mesh) = wave_mesh(
        &sampler,
        wanted.sea_level,
        wanted.shore_depth,
        wanted.centre,
    ) else {
        return;
    };
    let place = RootFrame::of(Some(root), &roots).place(DVec3::new(
        f64::from(wanted.centre.x),
        f64::from(wanted.sea_level),
        f64::from(wanted.centre.y),
    ));
    match grid.iter_mut().next() {
        Some((entity, mut transform, cell, handle)) => {
            place.apply(&mut commands.entity(entity), &mut transform, cell);
            let _ = meshes.insert(&handle.0, mesh);
        }
        None => {
            place.spawn(
                &mut commands,
                (
                    TerrainWaves,
                    Name::new("terrain waves"),
                    Mesh3d(meshes.add(mesh)),
                    MeshMaterial3d(materials.water.clone()),
                    NotShadowCaster,
                    ChildOf(root),
                ),
            );
        }
    }
    *built = Some(wanted);
}
