//! The game shapes the ground: [`TerrainStamp`]s (a flat site, a mound, a pit, a crater) and
//! [`TerrainPath`]s (a road with gentle grades, a channel for a river), as components spawned at
//! run time or written in a `.terrain.ron` ([`TerrainConfig::stamps`],
//! [`TerrainConfig::paths`]).
//!
//! They apply on the one path from noise to ground (`ground/samples.rs` calls
//! [`GroundEdits`]), so the chunk meshes of every level, their morph targets, the
//! [`TerrainSampler`](crate::TerrainSampler), the colliders and the scatter all see the same
//! edited surface, with exact normals. `modifier.rs` holds the maths of one stamp or path,
//! `index.rs` the grid index that lets a chunk find the few touching it, `systems.rs` the system
//! that collects them and rebuilds only the chunks, colliders and scatter cells of the area an
//! edit touches (the old ones stay on screen until their replacements are ready).
//!
//! # Order
//!
//! Edits apply one after another, each to the ground the earlier ones left: first every path,
//! then every stamp; within each kind, those of the config in the file's order, then the
//! components in the order they were added (an edited component keeps its place). So a crater
//! digs into a road, and a later flat site overrides an earlier one where they overlap.
//!
//! [`TerrainConfig::stamps`]: crate::TerrainConfig::stamps
//! [`TerrainConfig::paths`]: crate::TerrainConfig::paths

mod index;
mod modifier;
mod path;
mod resolve;
mod systems;

pub use index::GroundEdits;
pub(crate) use index::{Touching, grid_bounds, is_every_other};
pub(crate) use resolve::{validate_fixed_stamp, validate_path};

/// The config's own stamps and paths, indexed (what the sampler and a chunk built without an
/// `App` include).
pub(crate) fn config_edits(config: &crate::TerrainConfig) -> GroundEdits {
    let (paths, stamps) = resolve::config_modifiers(config);
    GroundEdits::new(paths.into_iter().chain(stamps).collect())
}

use crate::sets::TerrainSystems;
use bevy::math::{Vec2, Vec3};
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// The most stamps a config may hold.
pub const MAX_STAMPS: usize = 100_000;
/// The most paths a config may hold.
pub const MAX_PATHS: usize = 1_000;
/// The most points one path may have.
pub const MAX_PATH_POINTS: usize = 4_096;

/// A local change of the ground, placed by its entity's `Transform` in the
/// [`TerrainRoot`](crate::TerrainRoot)'s space: its shape is centred on the translation and
/// turned by the yaw (rotation about +Y), and [`StampOp::Flatten`] levels the ground to the
/// translation's height. Add, move, change or despawn the entity: the chunks, colliders and
/// scatter of the area it touches are rebuilt, and nothing else; despawning it restores the
/// ground bit for bit.
///
/// **Order.** Edits apply one after another, each to the ground the earlier ones left: every
/// path first, then every stamp; within each kind those of the config in the file's order, then
/// the components in the order they were added (a changed component keeps its place). So a
/// crater digs into a road, and a later flat site wins where two overlap.
///
/// ```no_run
/// # use bevy::prelude::*;
/// # use bevy_perlin_terrain::prelude::*;
/// fn town_site(mut commands: Commands) {
///     commands.spawn((
///         TerrainStamp {
///             shape: StampShape::Rect { half_extents: Vec2::new(60.0, 40.0) },
///             falloff: 30.0,
///             op: StampOp::Flatten,
///             clear_scatter: true,
///         },
///         Transform::from_xyz(400.0, 35.0, -250.0).with_rotation(Quat::from_rotation_y(0.4)),
///     ));
/// }
/// ```
///
/// A stamp with a non-finite transform or an out-of-range field is left out, with a warning
/// naming the entity and the field.
#[derive(Component, Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Component, Default, Debug, Clone, PartialEq)]
#[require(Transform)]
#[serde(default, deny_unknown_fields)]
pub struct TerrainStamp {
    /// Where it is flat (or raised, lowered, dug): its footprint around the entity.
    pub shape: StampShape,
    /// Metres beyond the shape over which it blends into the ground around it (smoothly: no
    /// crease at either end), 0 to 100 000. Default 16.
    pub falloff: f32,
    /// What it does to the ground.
    pub op: StampOp,
    /// Whether nothing of the scatter layers grows on it (the shape and the inner half of the
    /// falloff). Default `false`.
    pub clear_scatter: bool,
}

impl Default for TerrainStamp {
    fn default() -> Self {
        Self {
            shape: StampShape::default(),
            falloff: 16.0,
            op: StampOp::Flatten,
            clear_scatter: false,
        }
    }
}

/// The footprint of a [`TerrainStamp`].
#[derive(Reflect, Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
pub enum StampShape {
    /// A disc of `radius` metres (above 0, up to 100 000).
    Circle {
        /// Its radius in metres.
        radius: f32,
    },
    /// A rectangle `2 · half_extents` metres across (each above 0, up to 100 000), its local
    /// `x` along the entity's turned `x` axis.
    Rect {
        /// Half its size along its local `x` and `z`.
        #[serde(with = "vec2")]
        half_extents: Vec2,
    },
}

impl Default for StampShape {
    fn default() -> Self {
        Self::Circle { radius: 16.0 }
    }
}

/// What a [`TerrainStamp`] does inside its shape (and, blending out, over its falloff).
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
pub enum StampOp {
    /// Levels the ground to the stamp's height (its translation's `y`).
    #[default]
    Flatten,
    /// Raises the ground by these metres (0 to 100 000).
    Raise(f32),
    /// Lowers the ground by these metres (0 to 100 000).
    Lower(f32),
    /// A bowl `depth` metres deep at the centre (above 0, up to 100 000), rising to a rim a
    /// quarter of the depth high at the shape's edge, which falls back to the ground over the
    /// falloff. Follows the ground around it: the crater of an explosion on a hillside tilts
    /// with the hill.
    Crater {
        /// Depth of the bowl's centre below the ground, in metres.
        depth: f32,
    },
}

/// A road or a channel along a smooth curve: a component (its points are in the
/// [`TerrainRoot`](crate::TerrainRoot)'s space; the entity's own transform is not used), or an
/// entry of [`TerrainConfig::paths`](crate::TerrainConfig::paths). The curve is a Catmull-Rom
/// spline through `points` (its grades change smoothly from point to point); the ground across
/// it is flat at the curve's height (a road) or `depth` below it (a channel), and blends into the
/// ground around over `falloff`. Rebuilding, removal and order as for [`TerrainStamp`].
///
/// ```no_run
/// # use bevy::prelude::*;
/// # use bevy_perlin_terrain::prelude::*;
/// fn road(mut commands: Commands, ground: Res<TerrainSampler>) {
///     let points = (0..12)
///         .map(|k| {
///             let (x, z) = (k as f32 * 80.0, (k as f32 * 0.7).sin() * 60.0);
///             Vec3::new(x, ground.height(x as f64, z as f64), z)
///         })
///         .collect();
///     commands.spawn(TerrainPath { points, ..default() });
/// }
/// ```
#[derive(Component, Reflect, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[reflect(Component, Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct TerrainPath {
    /// The points the curve passes through, with their heights: 2 to [`MAX_PATH_POINTS`],
    /// finite. In a file: `points: [(0.0, 12.0, 0.0), (80.0, 15.0, 10.0)]`.
    #[serde(with = "vec3s")]
    pub points: Vec<Vec3>,
    /// Metres across the flat part, above 0 up to 10 000. Default 6.
    pub width: f32,
    /// Metres on each side over which it blends into the ground, 0 to 100 000. Default 12.
    pub falloff: f32,
    /// A road or a channel.
    pub op: PathOp,
    /// Whether nothing of the scatter layers grows on it (the width and the inner half of the
    /// falloff). Default `true`.
    pub clear_scatter: bool,
}

impl Default for TerrainPath {
    fn default() -> Self {
        Self {
            points: Vec::new(),
            width: 6.0,
            falloff: 12.0,
            op: PathOp::Road,
            clear_scatter: true,
        }
    }
}

/// What a [`TerrainPath`] makes of the ground.
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
pub enum PathOp {
    /// Flat across at the curve's height: cuts through hills and fills hollows.
    #[default]
    Road,
    /// A bed `depth` metres below the curve (0 to 100 000), carved where the ground is higher
    /// and never raised where it is lower: for rivers and ditches.
    Channel {
        /// Metres of the bed below the curve.
        depth: f32,
    },
}

/// A stamp written in a `.terrain.ron` ([`TerrainConfig::stamps`](crate::TerrainConfig::stamps)):
/// where it stands and how it is turned, instead of an entity's `Transform`.
///
/// ```ron
/// stamps: [
///     (position: (400.0, 35.0, -250.0), yaw: 20.0,
///      stamp: (shape: Rect(half_extents: (60.0, 40.0)), falloff: 30.0, op: Flatten, clear_scatter: true)),
/// ],
/// ```
#[derive(Reflect, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[reflect(Default, Debug, Clone, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct FixedStamp {
    /// The stamp's centre (and, for [`StampOp::Flatten`], its height), finite.
    #[serde(with = "vec3")]
    pub position: Vec3,
    /// Its turn about +Y in degrees (as `Quat::from_rotation_y`), finite.
    pub yaw: f32,
    /// The stamp.
    pub stamp: TerrainStamp,
}

/// `Vec2` as a RON tuple `(x, y)` (Bevy's own serde is a feature this crate does not turn on).
mod vec2 {
    use bevy::math::Vec2;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &Vec2, s: S) -> Result<S::Ok, S::Error> {
        (v.x, v.y).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec2, D::Error> {
        let (x, y) = <(f32, f32)>::deserialize(d)?;
        Ok(Vec2::new(x, y))
    }
}

/// `Vec3` as a RON tuple `(x, y, z)`.
mod vec3 {
    use bevy::math::Vec3;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &Vec3, s: S) -> Result<S::Ok, S::Error> {
        (v.x, v.y, v.z).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec3, D::Error> {
        let (x, y, z) = <(f32, f32, f32)>::deserialize(d)?;
        Ok(Vec3::new(x, y, z))
    }
}

/// `Vec<Vec3>` as a RON list of `(x, y, z)`.
mod vec3s {
    use bevy::math::Vec3;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &[Vec3], s: S) -> Result<S::Ok, S::Error> {
        let tuples: Vec<(f32, f32, f32)> = v.iter().map(|p| (p.x, p.y, p.z)).collect();
        tuples.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec3>, D::Error> {
        let tuples = Vec::<(f32, f32, f32)>::deserialize(d)?;
        Ok(tuples
            .into_iter()
            .map(|(x, y, z)| Vec3::new(x, y, z))
            .collect())
    }
}

/// Collects the stamps and paths (components and config) into the ground, and rebuilds what
/// an edit touches.
pub(crate) struct TerrainEditPlugin;

impl Plugin for TerrainEditPlugin {
    fn build(&self, app: &mut App) {
        app.register_type::<TerrainStamp>()
            .register_type::<TerrainPath>()
            .register_type::<FixedStamp>()
            .init_resource::<systems::EditState>()
            .add_systems(
                Update,
                systems::update_edits
                    .run_if(systems::edits_may_have_changed)
                    .in_set(TerrainSystems::Edits),
            );
    }
}
