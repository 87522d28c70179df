//! The stamps and paths a game or a file writes: [`TerrainStamp`] and [`TerrainPath`] (components,
//! placed by their entity), [`FixedStamp`] (a stamp in a `.terrain.ron`), and the checks that
//! keep absurd values out of them. What they do to the ground is the ground's business
//! (`ground/edits/`); collecting the components is `edit/`'s.

use super::ConfigError;
use super::ranges::{self, FieldRange};
use bevy::math::{Vec2, Vec3};
use bevy::prelude::*;
use perlin_core::FieldError;
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
    /// crease at either end), within [`ranges::STAMP_FALLOFF`]. Default 16.
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
    /// A disc of `radius` metres (within [`ranges::STAMP_SIZE`]: above 0).
    Circle {
        /// Its radius in metres.
        radius: f32,
    },
    /// A rectangle `2 · half_extents` metres across (each within [`ranges::STAMP_SIZE`]), its
    /// local `x` along the entity's turned `x` axis.
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
    /// Raises the ground by these metres (within [`ranges::STAMP_HEIGHT`]).
    Raise(f32),
    /// Lowers the ground by these metres (within [`ranges::STAMP_HEIGHT`]).
    Lower(f32),
    /// A bowl `depth` metres deep at the centre (within [`ranges::CRATER_DEPTH`]), rising to a
    /// rim a quarter of the depth high at the shape's edge, which falls back to the ground over
    /// the falloff. Follows the ground around it: the crater of an explosion on a hillside
    /// tilts with the hill.
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
    /// The points the curve passes through, with their heights: 2 to [`MAX_PATH_POINTS`], each
    /// coordinate within [`ranges::EDIT_POSITION`]. In a file:
    /// `points: [(0.0, 12.0, 0.0), (80.0, 15.0, 10.0)]`.
    #[serde(with = "vec3s")]
    pub points: Vec<Vec3>,
    /// Metres across the flat part, within [`ranges::PATH_WIDTH`] (above 0). Default 6.
    pub width: f32,
    /// Metres on each side over which it blends into the ground, within
    /// [`ranges::PATH_FALLOFF`]. Default 12.
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
    /// A bed `depth` metres below the curve (within [`ranges::CHANNEL_DEPTH`]), carved where
    /// the ground is higher and never raised where it is lower: for rivers and ditches.
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
    /// The stamp's centre (and, for [`StampOp::Flatten`], its height), each coordinate within
    /// [`ranges::EDIT_POSITION`].
    #[serde(with = "vec3")]
    pub position: Vec3,
    /// Its turn about +Y in degrees (as `Quat::from_rotation_y`), within [`ranges::STAMP_YAW`].
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

// The checks below run for every stamp of a config and every component stamp each time the
// edits change (10 000 stamps are 80 000 fields): a field's name and its allowed range are
// written out only for an error, and a nested field is named by the caller, with
// [`FieldError::within`], only then.

/// `value` within `range` (above its `min` where that is open), else the error for `field`.
fn within(field: &str, value: f32, range: &FieldRange) -> Result<(), ConfigError> {
    if range.contains_f32(value) {
        return Ok(());
    }
    let (low, high) = (range.min as f32, range.max as f32);
    let allowed = if range.min_open {
        format!("finite, above {low} up to {high}")
    } else {
        format!("finite, {low} to {high}")
    };
    Err(FieldError::new(field, value, allowed))
}

/// A position's check: finite and within [`ranges::EDIT_POSITION`] of the origin on every axis.
pub(crate) fn validate_position(field: &str, p: Vec3) -> Result<(), ConfigError> {
    let farthest = ranges::EDIT_POSITION.max as f32;
    if p.is_finite() && p.abs().max_element() <= farthest {
        return Ok(());
    }
    Err(FieldError::new(
        field,
        p,
        format!("finite, within {farthest} metres of the origin"),
    ))
}

/// Every field of `stamp`, named from the stamp's own (e.g. `shape.radius`; the caller puts
/// `stamps[2].stamp` in front with [`FieldError::within`]).
pub(crate) fn validate_stamp(stamp: &TerrainStamp) -> Result<(), ConfigError> {
    match stamp.shape {
        StampShape::Circle { radius } => within("shape.radius", radius, &ranges::STAMP_SIZE)?,
        StampShape::Rect { half_extents } => {
            within("shape.half_extents.x", half_extents.x, &ranges::STAMP_SIZE)?;
            within("shape.half_extents.y", half_extents.y, &ranges::STAMP_SIZE)?;
        }
    }
    within("falloff", stamp.falloff, &ranges::STAMP_FALLOFF)?;
    match stamp.op {
        StampOp::Flatten => Ok(()),
        StampOp::Raise(m) => within("op.Raise", m, &ranges::STAMP_HEIGHT),
        StampOp::Lower(m) => within("op.Lower", m, &ranges::STAMP_HEIGHT),
        StampOp::Crater { depth } => within("op.Crater.depth", depth, &ranges::CRATER_DEPTH),
    }
}

/// Every field of `path`, named from the path's own (e.g. `points[3]`), as
/// [`validate_stamp`].
pub(crate) fn validate_path(path: &TerrainPath) -> Result<(), ConfigError> {
    let count = path.points.len();
    if !(2..=MAX_PATH_POINTS).contains(&count) {
        return Err(FieldError::new(
            "points",
            format!("{count} points"),
            format!("2 to {MAX_PATH_POINTS} points"),
        ));
    }
    for (i, &p) in path.points.iter().enumerate() {
        validate_position("", p).map_err(|e| FieldError {
            field: format!("points[{i}]"),
            ..e
        })?;
    }
    within("width", path.width, &ranges::PATH_WIDTH)?;
    within("falloff", path.falloff, &ranges::PATH_FALLOFF)?;
    match path.op {
        PathOp::Road => Ok(()),
        PathOp::Channel { depth } => within("op.Channel.depth", depth, &ranges::CHANNEL_DEPTH),
    }
}

/// A stamp of the config: its position, yaw and stamp, named as [`validate_stamp`] names them.
pub(crate) fn validate_fixed_stamp(fixed: &FixedStamp) -> Result<(), ConfigError> {
    validate_position("position", fixed.position)?;
    within("yaw", fixed.yaw, &ranges::STAMP_YAW)?;
    validate_stamp(&fixed.stamp).map_err(|e| e.within("stamp"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_fields_are_named() {
        let stamp = TerrainStamp {
            shape: StampShape::Circle { radius: -1.0 },
            ..TerrainStamp::default()
        };
        let e = validate_stamp(&stamp).expect_err("negative radius");
        assert_eq!(e.field, "shape.radius");
        let fixed = FixedStamp {
            stamp,
            ..FixedStamp::default()
        };
        let e = validate_fixed_stamp(&fixed).expect_err("negative radius");
        assert_eq!(e.within("stamps[3]").field, "stamps[3].stamp.shape.radius");
        let path = TerrainPath {
            points: vec![Vec3::ZERO, Vec3::new(f32::NAN, 0.0, 0.0)],
            ..TerrainPath::default()
        };
        let e = validate_path(&path).expect_err("NaN point");
        assert_eq!(e.field, "points[1]");
        let lonely = TerrainPath {
            points: vec![Vec3::ZERO],
            ..TerrainPath::default()
        };
        assert_eq!(validate_path(&lonely).unwrap_err().field, "points");
    }
}
