//! [`WeatherUniform`]: the clouds and waves of the config at one moment, packed for
//! `weather.wgsl`, which every material that draws them reads at binding 120 of its bind group;
//! and the system that sets it on the terrain's, the water's and the clouds' materials every
//! frame, from the [`TerrainClock`] and the sun.

use super::clouds::{CloudLook, CloudMaterial};
use super::scatter_shade::{ScatterMaterial, ScatterMaterials};
use super::water::WaterMaterial;
use super::waves::WAVE_RADIUS;
use super::{TerrainMaterial, TerrainMaterials, TerrainWaves};
use crate::config::TerrainConfig;
use crate::ground::{ActiveTerrainConfig, TerrainTables};
use crate::sets::TerrainSystems;
use crate::space::{Cell, CellMoved, RootFrame, RootQuery};
use crate::stream::TerrainViewer;
use crate::stream::{ChunkRegistry, TerrainRoot};
use crate::weather::{
    CLOUD_OCTAVES, Octave, TerrainClock, WAVE_OCTAVES, WAVE_STRETCH, cloud_octaves,
    cloud_threshold, wave_direction, wave_octaves, wrap,
};
use bevy::math::DVec3;
use bevy::prelude::*;
use bevy::render::render_resource::ShaderType;
use perlin_core::NoiseTables;

/// The weather of a config at one moment, as `weather.wgsl` reads it: the seed's permutation,
/// the cloud and wave octaves with time folded into their offsets, and the sun. For a material
/// of a game's own that draws with the terrain's clouds or waves (`#import
/// bevy_perlin_terrain::weather`, this uniform at binding 120).
#[derive(ShaderType, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Debug, Default, Clone, PartialEq)]
pub struct WeatherUniform {
    /// The seed's permutation of 0..=255, four entries a `u32`, lowest byte first.
    pub permutation: [UVec4; 16],
    /// Each cloud octave's lattice offset (`xyz`) and cells per metre (`w`).
    pub cloud_octaves: [Vec4; CLOUD_OCTAVES],
    /// The cloud octaves' shares of the sum.
    pub cloud_amplitudes: Vec4,
    /// The noise at which a cloud's edge is half dense, half the softness, the cloud base's
    /// height and the layer's thickness (0 without clouds).
    pub clouds: Vec4,
    /// Each wave octave's lattice offset (`xyz`) and cells per metre along the trains (`w`).
    pub wave_octaves: [Vec4; WAVE_OCTAVES],
    /// The wave octaves' shares of the sum (`xyz`) and the lattice's stretch across the trains
    /// (`w`).
    pub wave_amplitudes: Vec4,
    /// The unit vectors along the waves' travel (`xy`) and across it (`zw`), in `(x, z)`.
    pub wave_direction: Vec4,
    /// Sea level, height of the largest waves (0 without waves), the crests' foam, and 1 where
    /// there is a sea (0 without).
    pub waves: Vec4,
    /// The unit direction towards the sun (`xyz`) and its strength (`w`, 0 to 1).
    pub sun: Vec4,
    /// What a world position adds up to a position in the terrain's root space (`xyz`): 0
    /// unless the root is a floating-origin grid, then its horizontal part within
    /// 65 536 m (the rest is folded into the octaves' offsets).
    pub origin: Vec4,
}

/// The horizontal period the shaders' view of the root's space repeats with under a floating
/// origin (metres): their positions stay below it, exact to a few millimetres.
pub const ORIGIN_PERIOD: f64 = 65_536.0;

impl WeatherUniform {
    /// The weather of `config` at time `t` (seconds of [`TerrainClock`](crate::TerrainClock))
    /// over the permutation of `tables`, lit from `sun` (towards the sun).
    pub fn new(tables: &NoiseTables, config: &TerrainConfig, t: f64, sun: Vec3) -> Self {
        Self::seen_from(tables, config, t, sun, DVec3::ZERO)
    }

    /// [`new`](Self::new), drawn in a world whose origin is at root-space `origin` (a
    /// floating origin's cell): the shaders add [`origin`](Self::origin) to world positions,
    /// and the octaves' offsets take the whole periods left over, in `f64`.
    pub fn seen_from(
        tables: &NoiseTables,
        config: &TerrainConfig,
        t: f64,
        sun: Vec3,
        origin: DVec3,
    ) -> Self {
        let near = DVec3::new(
            origin.x.rem_euclid(ORIGIN_PERIOD),
            origin.y,
            origin.z.rem_euclid(ORIGIN_PERIOD),
        );
        let rest = origin - near;
        let perm = tables.permutation();
        let word = |i: usize| u32::from_le_bytes([perm[i], perm[i + 1], perm[i + 2], perm[i + 3]]);
        let permutation = std::array::from_fn(|v| {
            UVec4::from_array(std::array::from_fn(|c| word(16 * v + 4 * c)))
        });
        let pack = |o: &Octave| {
            Vec4::new(
                o.offset[0] as f32,
                o.offset[1] as f32,
                o.offset[2] as f32,
                o.frequency as f32,
            )
        };
        let mut uniform = Self {
            permutation,
            sun: sun.normalize_or(Vec3::Y).extend(1.0),
            origin: near.as_vec3().extend(0.0),
            ..default()
        };
        if let Some(clouds) = &config.clouds {
            let octaves = cloud_octaves(clouds, t).map(|mut o| {
                o.offset[0] = wrap(o.offset[0] + rest.x * o.frequency);
                o.offset[1] = wrap(o.offset[1] + rest.z * o.frequency);
                o
            });
            uniform.cloud_octaves = octaves.map(|o| pack(&o));
            uniform.cloud_amplitudes = Vec4::from_array(octaves.map(|o| o.amplitude as f32));
            uniform.clouds = Vec4::new(
                cloud_threshold(clouds),
                0.5 * clouds.softness,
                clouds.altitude,
                clouds.thickness,
            );
        }
        if config.water.is_some() {
            uniform.waves = Vec4::new(config.sea_level, 0.0, 0.0, 1.0);
            if let Some(waves) = &config.waves {
                let (along, across) = wave_direction(waves);
                let rest_along = rest.x * along[0] + rest.z * along[1];
                let rest_across = rest.x * across[0] + rest.z * across[1];
                let octaves = wave_octaves(waves, t).map(|mut o| {
                    o.offset[0] = wrap(o.offset[0] + rest_along * o.frequency);
                    o.offset[1] = wrap(o.offset[1] + rest_across * o.frequency * WAVE_STRETCH);
                    o
                });
                uniform.wave_octaves = octaves.map(|o| pack(&o));
                let [a, b, c] = octaves.map(|o| o.amplitude as f32);
                uniform.wave_amplitudes = Vec4::new(a, b, c, WAVE_STRETCH as f32);
                uniform.wave_direction = Vec4::new(
                    along[0] as f32,
                    along[1] as f32,
                    across[0] as f32,
                    across[1] as f32,
                );
                uniform.waves = Vec4::new(config.sea_level, waves.height, waves.foam, 1.0);
            }
        }
        uniform
    }
}

pub(super) struct WeatherUniformPlugin;

impl Plugin for WeatherUniformPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            update_weather
                .run_if(weather_may_change)
                .after(super::waves::place_waves)
                .after(super::update_terrain_shading)
                .in_set(TerrainSystems::Materials),
        )
        // Where the root is drawn changes in `PostUpdate`'s propagation (a floating origin
        // changed cell): the shaders' origin follows in the same frame.
        .add_systems(
            PostUpdate,
            update_weather
                .after(bevy::transform::TransformSystems::Propagate)
                .run_if(any_match_filter::<(With<TerrainRoot>, Changed<GlobalTransform>)>),
        );
    }
}

/// Run condition of [`update_weather`]: the clock moved with clouds or waves to move, or the
/// config, the materials, the sun or the grid of waves changed.
fn weather_may_change(
    active: Option<Res<ActiveTerrainConfig>>,
    clock: Option<Res<TerrainClock>>,
    materials: Option<Res<TerrainMaterials>>,
    suns: Query<(), (With<DirectionalLight>, Changed<GlobalTransform>)>,
    grid: Query<(), (With<TerrainWaves>, Or<(Changed<Transform>, CellMoved)>)>,
    twins: Option<Res<ScatterMaterials>>,
) -> bool {
    let Some(active) = active else {
        return false;
    };
    let config = active.config();
    let moving = config.clouds.is_some() || config.waves.is_some();
    active.is_changed()
        || materials.is_some_and(|m| m.is_added())
        || !suns.is_empty()
        || !grid.is_empty()
        || twins.is_some_and(|t| t.is_changed())
        || (moving && clock.is_some_and(|c| c.is_changed()))
}

/// Sets this frame's weather (clock and sun) on the materials that draw it: the water's (with
/// where the grid of waves is, inside which the far sea draws nothing), the clouds' (with their
/// colors for the sun and the viewer's fog), the terrain's and the scatter's (for the clouds'
/// shade; without clouds it does not change, so their materials are not rewritten every frame).
fn update_weather(
    active: Option<Res<ActiveTerrainConfig>>,
    tables: Option<Res<TerrainTables>>,
    clock: Option<Res<TerrainClock>>,
    materials: Option<Res<TerrainMaterials>>,
    mut water: Option<ResMut<Assets<WaterMaterial>>>,
    mut clouds: Option<ResMut<Assets<CloudMaterial>>>,
    mut terrain: Option<ResMut<Assets<TerrainMaterial>>>,
    (mut scatter, twins): (
        Option<ResMut<Assets<ScatterMaterial>>>,
        Option<Res<ScatterMaterials>>,
    ),
    suns: Query<&GlobalTransform, With<DirectionalLight>>,
    fogs: Query<&DistanceFog, With<TerrainViewer>>,
    clear: Option<Res<ClearColor>>,
    grid: Query<(&Transform, Cell), With<TerrainWaves>>,
    registry: Option<Res<ChunkRegistry>>,
    roots: RootQuery<With<TerrainRoot>>,
) {
    let (Some(active), Some(tables), Some(materials)) = (active, tables, materials) else {
        return;
    };
    let config = active.config();
    let t = clock.map_or(0.0, |c| c.seconds);
    let sun = suns.iter().next().map_or(Vec3::Y, |s| *s.back());
    let frame = RootFrame::of(registry.and_then(|r| r.root()), &roots);
    let weather = WeatherUniform::seen_from(tables.tables(), config, t, sun, frame.shader_origin());
    if let Some(assets) = water.as_mut() {
        let area = match (grid.iter().next(), &config.waves) {
            (Some((at, cell)), Some(waves)) => {
                let centre = frame.to_world(frame.placed_to_root(at, cell));
                Vec4::new(centre.x, centre.z, WAVE_RADIUS, waves.shore_depth)
            }
            (None, Some(waves)) => Vec4::new(0.0, 0.0, 0.0, waves.shore_depth),
            _ => Vec4::ZERO,
        };
        let unchanged = assets.get(&materials.water).is_some_and(|m| {
            m.extension.weather == weather && m.extension.shading.waves_area == area
        });
        if !unchanged && let Some(mut material) = assets.get_mut(&materials.water) {
            material.extension.weather = weather;
            material.extension.shading.waves_area = area;
        }
    }
    if let (Some(assets), Some(_)) = (clouds.as_mut(), &config.clouds) {
        let haze = fogs
            .iter()
            .next()
            .map(|f| f.color)
            .or(clear.map(|c| c.0))
            .unwrap_or(Color::srgb(0.6, 0.7, 0.8))
            .to_linear();
        let look = CloudLook::new(sun.y, haze, config.view_distance);
        let unchanged = assets
            .get(&materials.clouds)
            .is_some_and(|m| m.extension.weather == weather && m.extension.look == look);
        if !unchanged && let Some(mut material) = assets.get_mut(&materials.clouds) {
            material.extension.weather = weather;
            material.extension.look = look;
        }
    }
    // The ground and the scatter need the clouds and the sun only.
    let ground = WeatherUniform {
        wave_octaves: Default::default(),
        wave_amplitudes: Vec4::ZERO,
        wave_direction: Vec4::ZERO,
        waves: Vec4::ZERO,
        ..weather
    };
    if let (Some(assets), Some(twins)) = (scatter.as_mut(), twins) {
        for twin in twins.handles() {
            let unchanged = assets
                .get(twin)
                .is_some_and(|m| m.extension.weather == ground);
            if !unchanged && let Some(mut material) = assets.get_mut(twin) {
                material.extension.weather = ground;
            }
        }
    }
    if let Some(assets) = terrain.as_mut() {
        let unchanged = assets
            .get(&materials.terrain)
            .is_some_and(|m| m.extension.weather == ground);
        if !unchanged && let Some(mut material) = assets.get_mut(&materials.terrain) {
            material.extension.weather = ground;
        }
    }
}
