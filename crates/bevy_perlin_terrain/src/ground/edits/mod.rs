//! What stamps and paths do to the ground: `modifier.rs` holds the maths of one stamp or path,
//! `path/` a path's segments and the pass that finds each sample's nearest point on them,
//! `resolve.rs` turns what a game or a file writes into modifiers in the terrain's space,
//! `index.rs` is the grid index ([`GroundEdits`]) that lets a chunk find the few edits touching
//! it, and `apply.rs` applies those to a grid's samples. `ground/samples/` calls it on the one
//! path from noise to ground.

mod apply;
mod index;
mod modifier;
mod path;
mod resolve;

pub(crate) use apply::{grid_bounds, is_every_other};
pub use index::GroundEdits;
pub(crate) use index::Touching;
pub(crate) use modifier::Modifier;
pub(crate) use resolve::{config_modifiers, flat_axes, path_modifier_from, stamp_modifier};

/// The config's own stamps and paths, indexed (what the sampler and a chunk built without an
/// `App` include).
pub(crate) fn config_edits(config: &crate::config::TerrainConfig) -> GroundEdits {
    let (paths, stamps) = config_modifiers(config);
    GroundEdits::new(paths.into_iter().chain(stamps).collect())
}
