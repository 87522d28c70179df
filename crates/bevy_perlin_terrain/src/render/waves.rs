//! The sea's waves as geometry: a grid around the first viewer whose vertices the water's vertex
//! shader moves with the waves (`weather.wgsl`'s `water_height`, what
//! [`TerrainSampler::water_height`] answers), finer near the viewer: a line every 2 m within
//! 64 m of its centre, every 4 m out to 256 m and every 8 m to its edge, in both directions.
//!
//! The grid moves in steps of [`WAVE_STEP`] and is rebuilt when it moves: its vertices carry the
//! share of the waves' height the water's depth leaves them, from the ground's heights at the
//! vertices read row by row in grid fills. Towards its edge the waves fade to the flat far sea,
//! which draws nothing inside the grid, so the two meet without a seam.

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

/// The grid's bands along each axis, from its centre out: the metres between its lines and how
/// far from the centre (metres) they keep that spacing. 192 quads a side (2 × 192² triangles,
/// 74 k); near the viewer the shortest waves' octave of the default length (40 m / 1.9², 11 m)
/// has five vertices a wave.
const WAVE_BANDS: [(f32, f32); 3] = [(2.0, 64.0), (4.0, 256.0), (8.0, 384.0)];

/// Half the side of the grid of waves, in metres.
pub(super) const WAVE_RADIUS: f32 = WAVE_BANDS[WAVE_BANDS.len() - 1].1;

/// Metres the grid's centre moves at a time (it follows the first viewer), a whole number of
/// the widest spacing, so every band's lines stay on its own spacing's world lattice.
pub(super) const WAVE_STEP: f32 = 64.0;

/// The outer share of the grid's half side over which the waves fade to the flat far sea.
const EDGE_FADE: f32 = 0.2;

/// A run of evenly spaced lines of the grid along one axis: the first one's offset from the
/// centre (metres), the spacing and how many.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Run {
    start: f32,
    spacing: f32,
    count: usize,
}

/// The grid's lines along one axis as runs, from `-WAVE_RADIUS` to `WAVE_RADIUS` (the last run
/// ends on the edge): the bands of [`WAVE_BANDS`], mirrored.
fn wave_runs() -> Vec<Run> {
    let mut inner = 0.0;
    let mut half = Vec::new();
    for (spacing, reach) in WAVE_BANDS {
        let count = ((reach - inner) / spacing).round() as usize;
        half.push((inner, spacing, count));
        inner = reach;
    }
    let negative = half.iter().rev().map(|&(inner, spacing, count)| Run {
        start: -inner - spacing * count as f32,
        spacing,
        count,
    });
    let positive = half.iter().map(|&(inner, spacing, count)| Run {
        start: inner,
        spacing,
        count,
    });
    let mut runs: Vec<Run> = negative.chain(positive).collect();
    if let Some(last) = runs.last_mut() {
        last.count += 1;
    }
    runs
}

/// The offsets from the centre of the grid's lines along one axis, in order.
fn wave_lines(runs: &[Run]) -> Vec<f32> {
    runs.iter()
        .flat_map(|r| (0..r.count).map(move |k| r.start + k as f32 * r.spacing))
        .collect()
}

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
/// leaves them ([`TerrainSampler::wave_share`], from the ground's heights at the vertices, a
/// grid fill for each run of each row), faded to 0 at the grid's edge. `None` if the ground
/// could not be read.
fn wave_mesh(
    sampler: &TerrainSampler,
    sea_level: f32,
    shore_depth: f32,
    centre: Vec2,
) -> Option<Mesh> {
    let runs = wave_runs();
    let lines = wave_lines(&runs);
    let n = lines.len();
    let mut row_heights = vec![0.0; n];
    let mut row_normals = vec![Vec3::Y; n];
    let mut positions = Vec::with_capacity(n * n);
    let mut shares = Vec::with_capacity(n * n);
    for &z in &lines {
        let mut first = 0;
        for run in &runs {
            let origin = [f64::from(centre.x + run.start), f64::from(centre.y + z)];
            let span = first..first + run.count;
            if !sampler.sample_grid(
                origin,
                f64::from(run.spacing),
                [run.count, 1],
                &mut row_heights[span.clone()],
                &mut row_normals[span],
            ) {
                return None;
            }
            first += run.count;
        }
        for (&x, &ground) in lines.iter().zip(&row_heights) {
            let out = x.abs().max(z.abs()) / WAVE_RADIUS;
            let edge = 1.0 - smoothstep(1.0 - EDGE_FADE, 1.0, out);
            positions.push([x, 0.0, z]);
            shares.push(shore_factor(ground, sea_level, shore_depth) * edge);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{TerrainConfig, Waves};
    use bevy::mesh::VertexAttributeValues;
    use perlin_core::NoiseTables;
    use std::sync::Arc;

    #[test]
    fn lines_are_finer_near_the_centre_and_meet_the_edge() {
        let lines = wave_lines(&wave_runs());
        assert_eq!(lines.len(), 193, "192 quads a side");
        assert_eq!(lines.first(), Some(&-384.0));
        assert_eq!(lines.last(), Some(&384.0));
        for pair in lines.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let spacing = b - a;
            let middle = 0.5 * (a + b).abs();
            let wanted = if middle < 64.0 {
                2.0
            } else if middle < 256.0 {
                4.0
            } else {
                8.0
            };
            assert_eq!(spacing, wanted, "between {a} and {b}");
            // On the 2 m lattice, which the step (a multiple of every spacing) keeps.
            assert_eq!(a % 2.0, 0.0);
        }
        assert!(lines.contains(&0.0) && lines.contains(&64.0) && lines.contains(&-256.0));
        assert_eq!(WAVE_STEP % 8.0, 0.0);
    }

    #[test]
    fn every_vertex_carries_the_wave_share_of_its_own_point() {
        let config = TerrainConfig {
            waves: Some(Waves::default()),
            sea_level: 20.0,
            ..TerrainConfig::default()
        };
        let sampler = TerrainSampler::new(Arc::new(NoiseTables::from_seed(config.seed)), &config);
        let shore_depth = Waves::default().shore_depth;
        let centre = Vec2::new(128.0, -320.0);
        let mesh = wave_mesh(&sampler, config.sea_level, shore_depth, centre).expect("the grid");
        let Some(VertexAttributeValues::Float32x3(positions)) =
            mesh.attribute(Mesh::ATTRIBUTE_POSITION)
        else {
            panic!("positions");
        };
        let Some(VertexAttributeValues::Float32(shares)) = mesh.attribute(ATTRIBUTE_WAVE_SHARE)
        else {
            panic!("shares");
        };
        assert_eq!(positions.len(), 193 * 193);
        let (mut wet, mut dry) = (0, 0);
        for (p, &share) in positions.iter().zip(shares).step_by(37) {
            let out = p[0].abs().max(p[2].abs()) / WAVE_RADIUS;
            if out > 1.0 - EDGE_FADE {
                continue;
            }
            let x = f64::from(centre.x + p[0]);
            let z = f64::from(centre.y + p[2]);
            let wanted = sampler.wave_share(x, z);
            assert!(
                (share - wanted).abs() < 1e-5,
                "({x}, {z}): {share} against {wanted}"
            );
            if wanted > 0.5 { wet += 1 } else { dry += 1 }
        }
        assert!(
            wet > 20 && dry > 20,
            "{wet} wet and {dry} dry vertices: pick another centre"
        );
    }
}
