//! The [`TerrainSystems`] sets the rest of the crate (and a game) orders by. A leaf module: it
//! imports nothing of the crate, so every stage's plugin can use it without importing upward.

use bevy::prelude::*;

/// The terrain's systems, in this order in `Update`. Order your own systems against them, e.g.
/// `.after(TerrainSystems::Upload)` to see this frame's new chunks (Bevy applies the commands
/// of the sets before your system; between its own sets the plugin needs no such sync point,
/// so an idle terrain adds none to the frame).
///
/// **Idle frames are free.** Every system of the plugin has a run condition that says whether it
/// has anything to do (a viewer or the root moved, the config or the registry changed, a task is
/// in flight, a chunk lacks its material). On a frame where none has, Bevy's executor evaluates
/// the conditions and starts none of them. Between its own sets the plugin needs no sync point
/// (a new chunk gets its material from an observer as it is spawned, and the config is applied
/// by an exclusive system that runs only when the source changed or a config asset event came).
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TerrainSystems {
    /// Applies a new or reloaded config: tables, sampler, generation.
    Config,
    /// Collects the stamps and paths ([`TerrainStamp`](crate::TerrainStamp),
    /// [`TerrainPath`](crate::TerrainPath)) into the ground when one came, went, changed or
    /// moved, and marks the chunks, colliders and scatter of the area it touches for rebuilding.
    /// After it, the [`TerrainSampler`](crate::TerrainSampler) includes them.
    Edits,
    /// Makes the root if needed, works out the chunk tree the viewers want and the steps to it,
    /// drops chunks out of range, cancels builds nobody needs, starts the most urgent ones.
    Stream,
    /// Takes finished meshes into the mesh assets (within the per-frame budget) and swaps in
    /// every step whose chunks are all built. After it, this frame's chunks exist.
    Upload,
    /// Keeps physics colliders around `TerrainColliderAnchor` entities (the `avian` feature): plans,
    /// builds and places them. After it, every body has ground under it for the next physics
    /// steps.
    Colliders,
    /// Keeps the navigation tiles around `TerrainNavigator` entities (the `navigation`
    /// feature): plans and builds them, joins finished ones into the navigation, and steers the
    /// `TerrainAgent` entities. After it, `TerrainNavigation::find_path` sees this frame's tiles.
    Navigation,
    /// Places the scatter layers on the full-detail cells around the viewers and spawns their
    /// instances.
    Scatter,
    /// Gives new chunks their material and keeps it in step with the config's look.
    Materials,
}
