//! The fly example's floating origin (big_space): the camera carries it through a big space
//! of 100 km cells, and J jumps 10 000 km east and south (a hundred cells on each axis) and
//! back.
//! The terrain's root joins the big space as a grid of its own and places its chunks by cell,
//! so far out the ground is as exact as at home.
//!
//! The camera's `Transform` is its place in its cell (big_space moves it to the next cell 50 km
//! out, where `f32` still holds 4 mm); where the example asks the ground it adds the cell's
//! origin ([`true_position`]). The scripted screenshots other than `far` fly within the home
//! cell, so they read the `Transform` alone.

use bevy::math::DVec3;
use bevy::prelude::*;
use big_space::prelude::*;

/// The edge of the big space's cells, in metres.
const CELL_EDGE: f32 = 100_000.0;

/// Where J takes the camera: 10 000 km east and 10 000 km south of home.
pub const FAR: CellCoord = CellCoord {
    x: 100,
    y: 0,
    z: -100,
};

/// The big space's grid.
pub fn grid() -> Grid {
    Grid::new(CELL_EDGE, 0.0)
}

/// The big space (with `Visibility`, which its own bundle leaves out without big_space's
/// camera feature): the camera is spawned in it.
pub fn space() -> impl Bundle {
    (
        BigSpaceRootBundle {
            grid: grid(),
            ..default()
        },
        Visibility::default(),
    )
}

/// Where the cell `cell` begins, in metres from the world's origin: the camera is at this
/// plus its `Transform`'s translation.
pub fn cell_origin(cell: &CellCoord) -> DVec3 {
    grid().cell_to_float(cell)
}

/// The camera's true place: its cell's origin plus its translation.
pub fn true_position(cell: &CellCoord, transform: &Transform) -> DVec3 {
    cell_origin(cell) + transform.translation.as_dvec3()
}

/// J: 10 000 km away (the same place in the far cell), or home again.
pub fn jump_on_key(
    keys: Res<ButtonInput<KeyCode>>,
    mut camera: Single<&mut CellCoord, With<Camera3d>>,
) {
    if keys.just_pressed(KeyCode::KeyJ) {
        **camera = if **camera == FAR {
            CellCoord::ZERO
        } else {
            FAR
        };
    }
}
