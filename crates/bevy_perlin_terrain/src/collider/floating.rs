//! Rigid bodies in a big_space grid, kept exact (features `avian` and `big_space`). avian reads
//! a body's place from its `GlobalTransform` and writes it back to its `Transform` relative to
//! the parent's `GlobalTransform`; in a grid the parent's is its cell 0, so a body away from
//! cell 0 would have its cell counted twice, and between two physics steps of one frame the
//! `GlobalTransform` big_space computed is a step old. Around avian's two copies these systems
//! place grid bodies from their cell and offset before a step, and back into cell and offset
//! after it, in `f64`.

use crate::space::{RootFrame, in_grid};
use avian3d::physics_transform::PhysicsTransformSystems;
use avian3d::prelude::{Position, RigidBody, Rotation};
use bevy::prelude::*;
use big_space::prelude::{CellCoord, Grid};

/// A rigid body placed by cell in its parent's grid.
type GridBody = (With<RigidBody>, With<CellCoord>);

/// The schedule's part: before avian reads the bodies' places, and after it writes them.
pub(super) fn add_systems(app: &mut App) {
    app.add_systems(
        FixedPostUpdate,
        (
            bodies_to_world.before(PhysicsTransformSystems::TransformToPosition),
            bodies_to_cells.after(PhysicsTransformSystems::PositionToTransform),
        ),
    );
}

/// Each grid body's `GlobalTransform`, from its cell and offset as big_space would compute it
/// (so that avian steps from where the body is now, not from the last frame's propagation).
fn bodies_to_world(
    grids: Query<&Grid>,
    mut bodies: Query<(&CellCoord, &Transform, &ChildOf, &mut GlobalTransform), GridBody>,
) {
    for (cell, local, parent, mut global) in &mut bodies {
        let Ok(grid) = grids.get(parent.parent()) else {
            continue;
        };
        let placed = in_grid(grid, cell, local);
        let world = GlobalTransform::from(RootFrame::of_grid(grid).affine_to_world(placed));
        if *global != world {
            *global = world;
        }
    }
}

/// Each grid body that avian moved, put back into its cell and offset from its `Position` and
/// `Rotation` (replacing avian's own write, which counts the cell twice).
fn bodies_to_cells(
    grids: Query<&Grid>,
    mut bodies: Query<
        (
            &Position,
            &Rotation,
            &ChildOf,
            &mut CellCoord,
            &mut Transform,
        ),
        (GridBody, Or<(Changed<Position>, Changed<Rotation>)>),
    >,
) {
    for (position, rotation, parent, mut cell, mut local) in &mut bodies {
        let Ok(grid) = grids.get(parent.parent()) else {
            continue;
        };
        let frame = RootFrame::of_grid(grid);
        let world = Transform::from_translation(position.0)
            .with_rotation(rotation.0)
            .compute_affine();
        let (_, turn, at) = frame.affine_to_root(world).to_scale_rotation_translation();
        let (new_cell, offset) = grid.translation_to_grid(at);
        if *cell != new_cell {
            *cell = new_cell;
        }
        local.translation = offset;
        local.rotation = turn.as_quat();
    }
}
