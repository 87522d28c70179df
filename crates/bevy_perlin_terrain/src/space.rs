//! The terrain's own space: where entities are relative to the [`TerrainRoot`](crate::TerrainRoot),
//! which every planner (chunks, scatter, colliders) measures in, exactly (`f64`), and how it
//! maps to the world things are drawn and simulated in (`f32`). A leaf module.

use bevy::math::{Affine3A, DAffine3, DVec2, DVec3, IVec2};
use bevy::prelude::*;

/// What [`current_affine`] reads of an entity.
pub(crate) type Placement<'a> = (&'a Transform, &'a GlobalTransform, bool);

/// An entity placed by cell whose cell changed (a filter for what may have moved; without
/// big_space, a `Transform` change, which the filters it joins name already).
#[cfg(feature = "big_space")]
pub(crate) type CellMoved = Changed<big_space::prelude::CellCoord>;
/// An entity placed by cell whose cell changed: without big_space, a `Transform` change.
#[cfg(not(feature = "big_space"))]
pub(crate) type CellMoved = Changed<Transform>;

/// What a root's [`RootFrame`] is read from besides its placement: its big_space `Grid`, if it
/// is one.
#[cfg(feature = "big_space")]
type RootGrid = (
    Option<&'static big_space::prelude::Grid>,
    Option<&'static big_space::prelude::CellCoord>,
    Option<&'static ChildOf>,
);
/// What a root's [`RootFrame`] is read from besides its placement: nothing without big_space.
#[cfg(not(feature = "big_space"))]
type RootGrid = ();

/// The query of the terrain's root that [`RootFrame::of`] reads.
pub(crate) type RootQuery<'w, 's, F> = Query<
    'w,
    's,
    (
        &'static Transform,
        &'static GlobalTransform,
        Has<ChildOf>,
        RootGrid,
    ),
    F,
>;

/// Where an entity is now: an entity without a parent is where its `Transform` says
/// (`GlobalTransform` would lag a frame behind a move made this frame), a child where its
/// `GlobalTransform` says.
pub(crate) fn current_affine((local, global, parented): Placement) -> Affine3A {
    if parented {
        global.affine()
    } else {
        local.compute_affine()
    }
}

/// How the terrain's own space maps to the world: the root's placement, or, where the root is
/// a big_space grid, the grid's place relative to the floating origin. Root-space positions are
/// `f64` and exact however far out; world positions are `f32` and exact near the floating
/// origin.
#[derive(Clone, Debug)]
pub(crate) struct RootFrame {
    /// From the root's space to the world.
    #[cfg_attr(
        not(any(
            feature = "render",
            feature = "navigation",
            all(feature = "big_space", feature = "avian")
        )),
        expect(dead_code, reason = "read by the renderer's and the agents' placing")
    )]
    to_world: DAffine3,
    /// From the world to the root's space.
    to_root: DAffine3,
    /// The root's grid: its children are placed by cell and offset.
    #[cfg(feature = "big_space")]
    grid: Option<big_space::prelude::Grid>,
    /// The root, and where it is in the grid it is in (its parent, its cell, its transform).
    #[cfg(feature = "big_space")]
    cells: Option<(Entity, Option<GridPlace>)>,
}

/// Where an entity is in its parent's grid: the parent, its cell and its transform.
#[cfg(feature = "big_space")]
type GridPlace = (Entity, big_space::prelude::CellCoord, Transform);

impl Default for RootFrame {
    fn default() -> Self {
        Self::from_affine(DAffine3::IDENTITY)
    }
}

impl RootFrame {
    /// The frame of a root placed by `to_world` (no grid).
    fn from_affine(to_world: DAffine3) -> Self {
        Self {
            to_world,
            to_root: to_world.inverse(),
            #[cfg(feature = "big_space")]
            grid: None,
            #[cfg(feature = "big_space")]
            cells: None,
        }
    }

    /// The frame of `root` (the identity while there is none).
    pub fn of<F: bevy::ecs::query::QueryFilter>(
        root: Option<Entity>,
        roots: &RootQuery<F>,
    ) -> Self {
        let Some((local, global, parented, _grid)) = root.and_then(|root| roots.get(root).ok())
        else {
            return Self::default();
        };
        #[cfg(feature = "big_space")]
        if let (Some(root), (Some(grid), cell, parent)) = (root, _grid) {
            let place = cell
                .zip(parent)
                .map(|(cell, parent)| (parent.parent(), *cell, *local));
            return Self {
                cells: Some((root, place)),
                ..Self::of_grid(grid)
            };
        }
        Self::from_affine(exact(current_affine((local, global, parented))))
    }

    /// [`of`](Self::of), or `None` while `root` names an entity that is not spawned yet (in the
    /// frame it is spawned): what is placed under it waits a frame rather than go by the
    /// wrong frame.
    pub fn try_of<F: bevy::ecs::query::QueryFilter>(
        root: Option<Entity>,
        roots: &RootQuery<F>,
    ) -> Option<Self> {
        match root {
            Some(entity) if !roots.contains(entity) => None,
            _ => Some(Self::of(root, roots)),
        }
    }

    /// The frame of a root that is a big_space grid: a point `p` of the grid is drawn at
    /// `grid_transform · (p − cell · edge)`, `cell` the floating origin's cell in the grid (as
    /// big_space computes `GlobalTransform`, in `f64` here).
    #[cfg(feature = "big_space")]
    pub fn of_grid(grid: &big_space::prelude::Grid) -> Self {
        let origin = grid.local_floating_origin();
        let to_world =
            origin.grid_transform() * DAffine3::from_translation(-origin.cell().as_dvec3(grid));
        Self {
            to_world,
            to_root: to_world.inverse(),
            grid: Some(grid.clone()),
            cells: None,
        }
    }

    /// The root-space placement of an entity placed by `cell` and `local` in the grid of
    /// `parent` (whose grid is `parent_grid`), exactly, without the `f32` world in between:
    /// where `parent` is the root or the grid the root is in. `None` for any other grid.
    #[cfg(feature = "big_space")]
    pub fn cell_to_root(
        &self,
        parent: Entity,
        parent_grid: &big_space::prelude::Grid,
        cell: &big_space::prelude::CellCoord,
        local: &Transform,
    ) -> Option<DAffine3> {
        let (root, place) = self.cells?;
        let placed = in_grid(parent_grid, cell, local);
        if parent == root {
            return Some(placed);
        }
        let (outer, root_cell, root_local) = place?;
        (parent == outer).then(|| in_grid(parent_grid, &root_cell, &root_local).inverse() * placed)
    }

    /// The root-space point drawn at world `p`.
    pub fn to_root(&self, p: Vec3) -> DVec3 {
        self.to_root.transform_point3(p.as_dvec3())
    }

    /// The root-space direction of the world direction `v`.
    #[cfg(feature = "avian")]
    pub fn vector_to_root(&self, v: Vec3) -> Vec3 {
        self.to_root.transform_vector3(v.as_dvec3()).as_vec3()
    }

    /// An entity's placement in the root's space, from its world placement.
    pub fn affine_to_root(&self, world: Affine3A) -> DAffine3 {
        self.to_root * exact(world)
    }

    /// The root-space position of the world's origin where the root is a floating-origin grid
    /// (what the shaders add to world positions), 0 otherwise.
    #[cfg(feature = "render")]
    pub fn shader_origin(&self) -> DVec3 {
        #[cfg(feature = "big_space")]
        if self.grid.is_some() {
            return self.to_root.translation;
        }
        DVec3::ZERO
    }

    /// The root-space position of a child of the root placed by `transform` and `cell`.
    #[cfg(feature = "render")]
    pub fn placed_to_root(&self, transform: &Transform, _cell: CellItem) -> DVec3 {
        #[cfg(feature = "big_space")]
        if let (Some(grid), Some(cell)) = (&self.grid, _cell) {
            return grid.grid_position_double(cell, transform);
        }
        transform.translation.as_dvec3()
    }

    /// Where a placement in the root's space is drawn.
    #[cfg(all(feature = "big_space", feature = "avian"))]
    pub fn affine_to_world(&self, placed: DAffine3) -> Affine3A {
        let world = self.to_world * placed;
        Affine3A {
            matrix3: world.matrix3.as_mat3().into(),
            translation: world.translation.as_vec3a(),
        }
    }

    /// Where the root-space point `p` is drawn.
    #[cfg(any(feature = "render", feature = "navigation"))]
    pub fn to_world(&self, p: DVec3) -> Vec3 {
        self.to_world.transform_point3(p).as_vec3()
    }

    /// How a child of the root placed at root-space `at` (unturned) is placed: by its
    /// `Transform` alone, or in a grid root by cell and offset.
    pub fn place(&self, at: DVec3) -> Placed {
        #[cfg(feature = "big_space")]
        if let Some(grid) = &self.grid {
            let (cell, offset) = grid.translation_to_grid(at);
            return Placed {
                transform: Transform::from_translation(offset),
                cell: Some(cell),
            };
        }
        Placed {
            transform: Transform::from_translation(at.as_vec3()),
            #[cfg(feature = "big_space")]
            cell: None,
        }
    }
}

/// What [`Placed::apply`] compares besides the `Transform`: a big_space cell, if any.
#[cfg(all(feature = "render", feature = "big_space"))]
pub(crate) type Cell = Option<&'static big_space::prelude::CellCoord>;
/// What [`Placed::apply`] compares besides the `Transform`: nothing without big_space.
#[cfg(all(feature = "render", not(feature = "big_space")))]
pub(crate) type Cell = ();

/// A [`Cell`] as read.
#[cfg(feature = "render")]
pub(crate) type CellItem<'a> = <Cell as bevy::ecs::query::QueryData>::Item<'a, 'a>;

/// `affine` in `f64`.
fn exact(affine: Affine3A) -> DAffine3 {
    DAffine3 {
        matrix3: affine.matrix3.as_dmat3(),
        translation: affine.translation.as_dvec3(),
    }
}

/// The placement, in its grid's space and in `f64`, of an entity placed by `cell` and `local`
/// in `grid`.
#[cfg(feature = "big_space")]
pub(crate) fn in_grid(
    grid: &big_space::prelude::Grid,
    cell: &big_space::prelude::CellCoord,
    local: &Transform,
) -> DAffine3 {
    DAffine3::from_scale_rotation_translation(
        local.scale.as_dvec3(),
        local.rotation.as_dquat(),
        grid.grid_position_double(cell, local),
    )
}

/// A child of the root's place: its `Transform`, and in a big_space grid its cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Placed {
    /// Its transform: in a grid, relative to its cell's centre.
    pub transform: Transform,
    /// Its cell in the root's grid.
    #[cfg(feature = "big_space")]
    pub cell: Option<big_space::prelude::CellCoord>,
}

impl Placed {
    /// The same place, scaled.
    #[cfg(feature = "render")]
    pub fn with_scale(mut self, scale: Vec3) -> Self {
        self.transform.scale = scale;
        self
    }

    /// Puts `entity` there.
    pub fn insert(self, entity: &mut EntityCommands) {
        #[cfg(feature = "big_space")]
        if let Some(cell) = self.cell {
            entity.try_insert((self.transform, cell));
            return;
        }
        entity.try_insert(self.transform);
    }

    /// Moves `entity`, now at `transform` in `cell`, here, writing only what differs.
    #[cfg(feature = "render")]
    pub fn apply(self, entity: &mut EntityCommands, transform: &mut Transform, _cell: CellItem) {
        if *transform != self.transform {
            *transform = self.transform;
        }
        #[cfg(feature = "big_space")]
        if self.cell != _cell.copied()
            && let Some(cell) = self.cell
        {
            entity.try_insert(cell);
        }
        #[cfg(not(feature = "big_space"))]
        let _ = entity;
    }

    /// Spawns `bundle` there, placed from its first moment (hooks that read the place, such as
    /// a collider's, see it).
    pub fn spawn<'a>(self, commands: &'a mut Commands, bundle: impl Bundle) -> EntityCommands<'a> {
        #[cfg(feature = "big_space")]
        if let Some(cell) = self.cell {
            return commands.spawn((bundle, self.transform, cell));
        }
        commands.spawn((bundle, self.transform))
    }
}

/// Makes the terrain's new root a grid of the big_space `space`, at its origin cell, so that
/// everything the plugin places under it goes by cell and offset, exact however far out; a
/// root with no big_space in the world stays a plain entity.
#[cfg(feature = "big_space")]
pub(crate) fn join_big_space(root: &mut EntityCommands, space: Option<Entity>) {
    use big_space::prelude::{CellCoord, Grid};
    if let Some(space) = space {
        root.insert((Grid::default(), CellCoord::ZERO, ChildOf(space)));
    }
}

/// Horizontal distance from `p` to the axis-aligned square `[min, min + size]²` (0 inside).
pub(crate) fn distance_to_square(p: DVec2, min: DVec2, size: f64) -> f64 {
    let outside = (min - p)
        .max(p - (min + DVec2::splat(size)))
        .max(DVec2::ZERO);
    outside.length()
}

/// The cells of side `size` (a grid through the origin) that the square of half-side `reach`
/// around `at` touches: their lowest and highest coordinates, or `None` where those leave `i32`
/// (beyond the addressable plane, about 2³¹ cells out).
pub(crate) fn cells_around(at: DVec2, reach: f64, size: f64) -> Option<(IVec2, IVec2)> {
    cells_covering(&Bounds::around(at, DVec2::splat(reach)), size)
}

/// The cells of side `size` (a grid through the origin) that `bounds` touches, as
/// [`cells_around`].
pub(crate) fn cells_covering(bounds: &Bounds, size: f64) -> Option<(IVec2, IVec2)> {
    let low = (bounds.min / size).floor();
    let high = (bounds.max / size).floor();
    let range = i32::MIN as f64..=i32::MAX as f64;
    [low.x, low.y, high.x, high.y]
        .iter()
        .all(|c| range.contains(c))
        .then(|| (low.as_ivec2(), high.as_ivec2()))
}

/// How many cells the range from `low` to `high` (both included) holds.
pub(crate) fn cell_count((low, high): (IVec2, IVec2)) -> i64 {
    (high.x as i64 - low.x as i64 + 1) * (high.y as i64 - low.y as i64 + 1)
}

/// An axis-aligned box on the terrain's XZ plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bounds {
    pub min: DVec2,
    pub max: DVec2,
}

impl Bounds {
    /// The box around `centre` reaching `reach` each way.
    pub fn around(centre: DVec2, reach: DVec2) -> Self {
        Self {
            min: centre - reach,
            max: centre + reach,
        }
    }

    /// The smallest box holding both.
    pub fn union(self, other: Self) -> Self {
        Self {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The square `[min, min + size]²`.
    pub fn square(min: DVec2, size: f64) -> Self {
        Self {
            min,
            max: min + DVec2::splat(size),
        }
    }

    /// The smallest `f32` rectangle holding the box: each edge rounded outwards.
    pub fn covering_rect(&self) -> Rect {
        let down = |v: f64| {
            let f = v as f32;
            if f as f64 > v { f.next_down() } else { f }
        };
        let up = |v: f64| {
            let f = v as f32;
            if (f as f64) < v { f.next_up() } else { f }
        };
        Rect {
            min: Vec2::new(down(self.min.x), down(self.min.y)),
            max: Vec2::new(up(self.max.x), up(self.max.y)),
        }
    }

    /// The box of `rect`, exactly.
    pub fn from_rect(rect: &Rect) -> Self {
        Self {
            min: rect.min.as_dvec2(),
            max: rect.max.as_dvec2(),
        }
    }

    /// Whether the two boxes share a point (edges included).
    pub fn intersects(&self, other: &Self) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }
}

/// Whether the square `[min, min + size]²` shares a point with any of `areas`: what an edit
/// there makes the chunks, colliders and scatter cells of that square rebuild.
pub(crate) fn square_touches(areas: &[Bounds], min: DVec2, size: f64) -> bool {
    let square = Bounds::square(min, size);
    areas.iter().any(|a| a.intersects(&square))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_to_a_square_is_zero_inside_and_euclidean_outside() {
        let min = DVec2::new(32.0, -32.0);
        assert_eq!(distance_to_square(DVec2::new(40.0, -10.0), min, 32.0), 0.0);
        assert_eq!(distance_to_square(DVec2::new(70.0, -10.0), min, 32.0), 6.0);
        assert_eq!(distance_to_square(DVec2::new(67.0, 4.0), min, 32.0), 5.0);
        assert_eq!(
            cells_around(DVec2::new(70.0, -10.0), 20.0, 32.0),
            Some((IVec2::new(1, -1), IVec2::new(2, 0)))
        );
        assert_eq!(cells_around(DVec2::splat(1e12), 10.0, 32.0), None);
    }
}
