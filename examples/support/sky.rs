//! The examples' sky: Bevy's physical [`Atmosphere`] (the sky's color, the sun's disc, the air's
//! haze over distant ground), lit by a sun a [`TimeOfDay`] points, its air as hazy as the view
//! distance needs for the streamed ground's edge to fade into the sky. On the software renderer
//! (lavapipe, whose Mesa 22.3 crashes in the atmosphere's passes, even in a scene of one cube),
//! on one without compute shaders (where Bevy's atmosphere does not load) and with
//! `TERRAIN_SKY=flat`: a clear color and distance fog that follow the time of day instead.

use bevy::light::atmosphere::ScatteringMedium;
use bevy::light::{Atmosphere, CascadeShadowConfigBuilder};
use bevy::pbr::AtmosphereSettings;
use bevy::prelude::*;
use bevy::render::render_resource::DownlevelFlags;
use bevy::render::renderer::{RenderAdapter, RenderAdapterInfo};
use bevy_perlin_terrain::prelude::*;

/// The time of day the examples' sun keeps, in hours: at 6 it rises in the east (+X), at 12 it
/// stands in the south (+Z) 57° high, at 18 it sets in the west. The one place the sun's
/// direction, its light and the sky's color come from ([`follow_time_of_day`]); a game sets it.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct TimeOfDay {
    /// Hours since midnight, 6 to 18 for a sun above the horizon.
    pub hours: f32,
}

impl Default for TimeOfDay {
    /// A quarter past eight: the sun 33° high in the east-south-east.
    fn default() -> Self {
        Self { hours: 8.25 }
    }
}

/// The flat sky's color by day (the clear color and the fog's).
const DAY_SKY: Color = Color::srgb(0.45, 0.68, 0.95);

/// The sunlight's illuminance (lux) above the air; the atmosphere dims and reddens it on its
/// way down.
const SUNLIGHT: f32 = 11_000.0;

impl TimeOfDay {
    /// The unit direction towards the sun.
    pub fn towards_sun(self) -> Vec3 {
        let arc = std::f32::consts::PI * (self.hours - 6.0) / 12.0;
        let elevation = 0.96 * arc.sin() + 0.04;
        Vec3::new(
            arc.cos() * elevation.cos(),
            elevation.sin(),
            arc.sin() * elevation.cos(),
        )
        .normalize()
    }

    /// How far the sun is into its setting (or rising): 0 above 20°, 1 at the horizon.
    fn low(self) -> f32 {
        let height = self.towards_sun().y;
        1.0 - ((height - 0.03) / 0.31).clamp(0.0, 1.0)
    }

    /// Under the flat sky, the sunlight's color and illuminance (lux): white and strong by day,
    /// dim and orange as it sets (what the atmosphere does to it on its way down).
    fn flat_sunlight(self) -> (Color, f32) {
        let low = self.low();
        let color = Color::srgb(1.0, 1.0 - 0.42 * low, 1.0 - 0.68 * low);
        (color, SUNLIGHT - 7_000.0 * low)
    }

    /// The flat sky's color, also the haze the clouds fade into: blue by day, a warm haze at
    /// sunset.
    fn sky(self) -> Color {
        let low = self.low();
        DAY_SKY.mix(&Color::srgb(0.93, 0.62, 0.45), low * low)
    }
}

/// Which sky the examples draw: Bevy's [`Atmosphere`], or a clear color and distance fog.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sky {
    /// Bevy's physical atmosphere: sky, sun and aerial perspective.
    Atmosphere,
    /// A clear color and distance fog that follow the time of day.
    Flat,
}

impl Sky {
    /// On a renderer with compute shaders, the sky `TERRAIN_SKY` asks for (`flat` or
    /// `atmosphere`); without it, the atmosphere unless the renderer is the software one
    /// (`software`).
    pub fn choose(software: bool) -> Self {
        match std::env::var("TERRAIN_SKY").as_deref() {
            Ok("flat") => Self::Flat,
            Ok("atmosphere") => Self::Atmosphere,
            _ if software => Self::Flat,
            _ => Self::Atmosphere,
        }
    }
}

/// The examples' sky: the [`Sky`] (the app's, or [`Sky::choose`] once the renderer is known),
/// the [`TimeOfDay`] (kept if the app set one), the air or the fog on every [`TerrainViewer`]
/// camera, both following the config's view distance.
pub struct SkyPlugin;

impl Plugin for SkyPlugin {
    fn finish(&self, app: &mut App) {
        if app.world().contains_resource::<Sky>() {
            return;
        }
        let world = app.world();
        let software = world
            .get_resource::<RenderAdapterInfo>()
            .is_some_and(|info| info.driver == "llvmpipe" || info.name.starts_with("llvmpipe"));
        // Bevy's atmosphere renders its tables with compute shaders; without them it does not
        // load.
        let compute = world.get_resource::<RenderAdapter>().is_none_or(|adapter| {
            adapter
                .get_downlevel_capabilities()
                .flags
                .contains(DownlevelFlags::COMPUTE_SHADERS)
        });
        let sky = if compute {
            Sky::choose(software)
        } else {
            Sky::Flat
        };
        if sky == Sky::Flat && (software || !compute) {
            info!("Bevy's atmosphere cannot draw on this renderer: a flat sky instead");
        }
        app.insert_resource(sky);
    }

    fn build(&self, app: &mut App) {
        app.init_resource::<TimeOfDay>()
            .insert_resource(ClearColor(DAY_SKY))
            .add_systems(Startup, spawn_air)
            .add_systems(
                Update,
                (
                    fit_to_view_distance,
                    follow_time_of_day.run_if(resource_changed::<TimeOfDay>),
                )
                    .chain(),
            );
    }
}

/// The shortest visibility (metres) the examples' haze makes: hazier air would dim the sun on
/// its way down; a shorter view fades its edge with distance fog as well.
const SHORTEST_VISIBILITY: f32 = 12_000.0;

/// Earth's air (Rayleigh scattering, ozone) with as much haze (Mie scattering at Earth's scale
/// height) as leaves ground `view` metres away, seen along sea level, 5 % of its contrast, so the
/// streamed ground's edge is lost in the sky; no hazier than [`SHORTEST_VISIBILITY`] allows.
fn hazy_air(view: f32) -> ScatteringMedium {
    // Rayleigh scattering at sea level, averaged over the three channels (per metre).
    const RAYLEIGH: f32 = 17.5e-6;
    let wanted = 3.0 / view.max(SHORTEST_VISIBILITY) - RAYLEIGH;
    let mut medium = ScatteringMedium::earth(256, 256).with_label("examples' air");
    // The earth medium's second term is its aerosols (Mie).
    if let Some(mie) = medium.terms.get_mut(1) {
        mie.scattering = Vec3::splat(wanted.max(mie.scattering.x));
    }
    medium
}

/// The distance fog a viewer keeps: all the haze under the flat sky; under the atmosphere only
/// for a view shorter than its haze fades ([`SHORTEST_VISIBILITY`]), from 45 % of the view to its
/// edge.
fn fog(sky: Sky, time: TimeOfDay, view: f32) -> Option<DistanceFog> {
    let falloff = match sky {
        Sky::Flat => FogFalloff::from_visibility_colors(
            0.75 * view,
            Color::srgb(0.32, 0.42, 0.58),
            Color::srgb(0.74, 0.83, 0.95),
        ),
        Sky::Atmosphere if view < SHORTEST_VISIBILITY => FogFalloff::Linear {
            start: 0.45 * view,
            end: view,
        },
        Sky::Atmosphere => return None,
    };
    Some(DistanceFog {
        color: time.sky(),
        directional_light_color: Color::srgba(1.0, 0.92, 0.75, 0.5),
        directional_light_exponent: 12.0,
        falloff,
    })
}

/// The air's handle, to rebuild it for another view distance.
#[derive(Resource)]
struct Air(Handle<ScatteringMedium>);

/// Spawns the planet's atmosphere (its centre Earth's radius below the terrain's zero) under
/// [`Sky::Atmosphere`].
fn spawn_air(mut commands: Commands, sky: Res<Sky>, mut media: ResMut<Assets<ScatteringMedium>>) {
    if *sky == Sky::Atmosphere {
        let medium = media.add(hazy_air(SHORTEST_VISIBILITY));
        commands.spawn((Name::new("atmosphere"), Atmosphere::earth(medium.clone())));
        commands.insert_resource(Air(medium));
    }
}

/// The viewing cameras, whether each is new, and their atmosphere's settings if they have them.
type ViewerCameras<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        Ref<'static, TerrainViewer>,
        Option<&'static mut AtmosphereSettings>,
    ),
    With<Camera3d>,
>;

/// Fits the air's haze, the aerial perspective's reach and the fog to the config's view
/// distance: on each new viewing camera, and on all of them (and the air) when the config
/// changed.
fn fit_to_view_distance(
    mut commands: Commands,
    sky: Res<Sky>,
    time: Res<TimeOfDay>,
    active: Option<Res<ActiveTerrainConfig>>,
    air: Option<Res<Air>>,
    mut media: ResMut<Assets<ScatteringMedium>>,
    mut cameras: ViewerCameras,
) {
    let changed = active.as_ref().is_some_and(|a| a.is_changed());
    let view = active.map_or(TerrainConfig::default().view_distance, |a| {
        a.config().view_distance
    });
    if changed
        && let Some(air) = air
        && let Some(mut medium) = media.get_mut(&air.0)
    {
        *medium = hazy_air(view);
    }
    for (entity, viewer, settings) in &mut cameras {
        if !(changed || viewer.is_added()) {
            continue;
        }
        let mut camera = commands.entity(entity);
        match settings {
            Some(mut settings) => settings.aerial_view_lut_max_distance = view,
            None if *sky == Sky::Atmosphere => {
                camera.insert(AtmosphereSettings {
                    aerial_view_lut_max_distance: view,
                    ..default()
                });
            }
            None => {}
        }
        match fog(*sky, *time, view) {
            Some(fog) => camera.insert(fog),
            None => camera.remove::<DistanceFog>(),
        };
    }
}

/// Points the sun by the [`TimeOfDay`] and, under the flat sky, colors its light, the clear
/// color and the cameras' fog. The clear color is also the haze the clouds fade into.
pub fn follow_time_of_day(
    time: Res<TimeOfDay>,
    sky: Res<Sky>,
    mut suns: Query<(&mut Transform, &mut DirectionalLight)>,
    mut clear: ResMut<ClearColor>,
    mut fogs: Query<&mut DistanceFog>,
) {
    let (color, illuminance) = match *sky {
        Sky::Flat => time.flat_sunlight(),
        Sky::Atmosphere => (Color::WHITE, SUNLIGHT),
    };
    for (mut transform, mut light) in &mut suns {
        *transform = Transform::default().looking_to(-time.towards_sun(), Vec3::Y);
        light.color = color;
        light.illuminance = illuminance;
    }
    clear.0 = time.sky();
    for mut fog in &mut fogs {
        fog.color = time.sky();
    }
}

/// The examples' sun, pointed by the [`TimeOfDay`], with shadows out to `maximum_distance`
/// metres (the first cascade to `first_cascade_far_bound`).
pub fn sun(first_cascade_far_bound: f32, maximum_distance: f32) -> impl Bundle {
    (
        DirectionalLight {
            illuminance: SUNLIGHT,
            shadow_maps_enabled: true,
            ..default()
        },
        Transform::default().looking_to(-TimeOfDay::default().towards_sun(), Vec3::Y),
        CascadeShadowConfigBuilder {
            first_cascade_far_bound,
            maximum_distance,
            ..default()
        }
        .build(),
    )
}
