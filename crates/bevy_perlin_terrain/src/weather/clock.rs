//! [`TerrainClock`]: the time the clouds and waves are drawn at.

use bevy::prelude::*;

/// Seconds of weather: the `t` at which the clouds and waves are drawn this frame, and the one
/// to pass to [`TerrainSampler::cloud_cover`](crate::TerrainSampler::cloud_cover) and
/// [`TerrainSampler::water_height`](crate::TerrainSampler::water_height) to ask about what the
/// player sees. Advanced by `Time<Virtual>` (so pausing the game pauses the weather) in `f64`,
/// so it never wraps; set it to show a given moment.
#[derive(Resource, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Resource, Debug, Default, Clone, PartialEq)]
pub struct TerrainClock {
    /// Seconds since the terrain started (or since the game set it).
    pub seconds: f64,
    /// Whether the clock stands still (a screenshot, a frozen scene). Default `false`.
    pub paused: bool,
}

/// Adds [`TerrainClock`] and advances it in `First`.
pub struct TerrainClockPlugin;

impl Plugin for TerrainClockPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<TerrainClock>()
            .init_resource::<TerrainClock>()
            .add_systems(First, advance_clock.after(bevy::time::TimeSystems));
    }
}

/// Adds the frame's virtual time to the clock, unless it is paused.
fn advance_clock(time: Res<Time>, mut clock: ResMut<TerrainClock>) {
    if !clock.paused {
        clock.seconds += time.delta_secs_f64();
    }
}
