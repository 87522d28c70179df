//! What the plugin does when a game removed one of its registries: the entities the registry
//! knew would be orphans, so they go, and a new registry builds again what is wanted. The
//! systems that do it run in `Last` (a registry removed during a frame is back for the next;
//! meanwhile the systems that need it do not run), as plain systems: an exclusive one would be
//! a sync point in every frame. A leaf module.

use bevy::ecs::query::QueryFilter;
use bevy::prelude::*;

/// Despawns every entity `ours` holds and inserts `registry` in place of the one removed.
pub(crate) fn rebuild<F: QueryFilter, R: Resource>(
    commands: &mut Commands,
    ours: &Query<Entity, F>,
    registry: R,
    what: &str,
) {
    warn!("the {what} resource was removed; the plugin rebuilds what it held");
    for entity in ours {
        commands.entity(entity).try_despawn();
    }
    commands.insert_resource(registry);
}
