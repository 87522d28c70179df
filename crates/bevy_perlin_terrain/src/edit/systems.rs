//! The edit system: collects the config's and the components' stamps and paths, in their order,
//! into new [`GroundEdits`] when any changed, and has the chunks, colliders and scatter cells of
//! the areas that changed rebuilt.

use super::index::GroundEdits;
use super::modifier::Modifier;
use super::resolve::{config_modifiers, flat_axes, path_modifier, stamp_modifier};
use super::resolve::{validate_path, validate_position, validate_stamp};
use super::{TerrainPath, TerrainStamp};
use crate::ground::{ActiveTerrainConfig, TerrainSampler};
use crate::scatter::ScatterRegistry;
use crate::space::{Bounds, PlacementQuery, current_affine, root_space};
use crate::stream::{ChunkRegistry, TerrainRoot};
use bevy::math::DVec2;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;
use std::sync::Arc;

/// Where an edit comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Source {
    ConfigPath(usize),
    ConfigStamp(usize),
    Path(Entity),
    Stamp(Entity),
}

/// What the last update put in force, and the order components were added in.
#[derive(Resource)]
pub(crate) struct EditState {
    /// The next number in the order of addition.
    next: u64,
    /// When each stamp or path entity was first seen.
    added: HashMap<Entity, u64>,
    /// Each edit in force, by where it comes from.
    last: HashMap<Source, Modifier>,
    /// How many stamp and path components there were.
    counts: (usize, usize),
    edits: Arc<GroundEdits>,
    /// Entities warned about (until they are valid again).
    warned: HashSet<Entity>,
}

impl Default for EditState {
    fn default() -> Self {
        Self {
            next: 0,
            added: HashMap::default(),
            last: HashMap::default(),
            counts: (0, 0),
            edits: Arc::new(GroundEdits::empty()),
            warned: HashSet::default(),
        }
    }
}

/// Stamp entities whose stamp or place may have changed.
type StampMoved = (
    With<TerrainStamp>,
    Or<(
        Changed<TerrainStamp>,
        Changed<Transform>,
        Changed<GlobalTransform>,
        Changed<ChildOf>,
    )>,
);

/// Run condition of [`update_edits`]: whether a stamp or path came, went, changed or moved, the
/// root moved, the config changed, or the sampler was replaced (a new config) since the last
/// update. False on an idle frame.
pub(super) fn edits_may_have_changed(
    state: Res<EditState>,
    active: Option<Res<ActiveTerrainConfig>>,
    sampler: Option<Res<TerrainSampler>>,
    stamps: Query<(), With<TerrainStamp>>,
    paths: Query<(), With<TerrainPath>>,
    moved_stamps: Query<(), StampMoved>,
    changed_paths: Query<(), Changed<TerrainPath>>,
    moved_roots: Query<
        (),
        (
            With<TerrainRoot>,
            Or<(Changed<Transform>, Changed<GlobalTransform>)>,
        ),
    >,
) -> bool {
    let Some(sampler) = sampler else { return false };
    sampler.edits().version() != state.edits.version()
        || active.is_some_and(|a| a.is_changed())
        || (stamps.iter().len(), paths.iter().len()) != state.counts
        || !moved_stamps.is_empty()
        || !changed_paths.is_empty()
        || !moved_roots.is_empty()
}

/// Collects every stamp and path in its order (see the module `edit`); where one came, went or
/// changed, puts new [`GroundEdits`] in the sampler and has the chunks (every level), colliders
/// and scatter cells of the area it covers (old and new) rebuilt, each old one staying until its
/// replacement is ready. An invalid component is left out, with a warning naming the entity.
pub(super) fn update_edits(
    mut state: ResMut<EditState>,
    active: Option<Res<ActiveTerrainConfig>>,
    sampler: Option<ResMut<TerrainSampler>>,
    stamps: Query<(
        Entity,
        &TerrainStamp,
        &Transform,
        &GlobalTransform,
        Has<ChildOf>,
    )>,
    paths: Query<(Entity, &TerrainPath)>,
    roots: PlacementQuery<With<TerrainRoot>>,
    chunks: Option<ResMut<ChunkRegistry>>,
    scatter: Option<ResMut<ScatterRegistry>>,
    #[cfg(feature = "avian")] colliders: Option<ResMut<crate::collider::TerrainColliders>>,
) {
    let (Some(active), Some(mut sampler)) = (active, sampler) else {
        return;
    };
    let state = &mut *state;
    state.counts = (stamps.iter().len(), paths.iter().len());

    // The order of addition: new entities in entity order, after every earlier one.
    let present: HashSet<Entity> = stamps
        .iter()
        .map(|(e, ..)| e)
        .chain(paths.iter().map(|(e, _)| e))
        .collect();
    state.added.retain(|e, _| present.contains(e));
    state.warned.retain(|e| present.contains(e));
    let mut fresh: Vec<Entity> = present
        .iter()
        .copied()
        .filter(|e| !state.added.contains_key(e))
        .collect();
    fresh.sort_unstable();
    for e in fresh {
        state.added.insert(e, state.next);
        state.next += 1;
    }
    let order = |e: &Entity| state.added.get(e).copied().unwrap_or(u64::MAX);

    let mut next: Vec<(Source, Modifier)> = Vec::new();
    let (config_paths, config_stamps) = config_modifiers(active.config());
    next.extend(
        config_paths
            .into_iter()
            .enumerate()
            .map(|(i, m)| (Source::ConfigPath(i), m)),
    );
    let mut warnings = Vec::new();
    let mut component_paths: Vec<_> = paths.iter().collect();
    component_paths.sort_by_key(|(e, _)| order(e));
    for (entity, path) in component_paths {
        match validate_path(path).map_err(|e| e.within("TerrainPath")) {
            Ok(()) => next.push((Source::Path(entity), path_modifier(path))),
            Err(e) => warnings.push((entity, e)),
        }
    }
    next.extend(
        config_stamps
            .into_iter()
            .enumerate()
            .map(|(i, m)| (Source::ConfigStamp(i), m)),
    );
    let to_root = root_space(chunks.as_ref().and_then(|c| c.root()), &roots);
    let mut component_stamps: Vec<_> = stamps.iter().collect();
    component_stamps.sort_by_key(|(e, ..)| order(e));
    for (entity, stamp, local, global, parented) in component_stamps {
        let placed = to_root * current_affine((local, global, parented));
        let (_, rotation, at) = placed.to_scale_rotation_translation();
        let checked = validate_position("Transform.translation", at)
            .and_then(|()| validate_stamp(stamp).map_err(|e| e.within("TerrainStamp")));
        match checked {
            Ok(()) => {
                let (axis_x, axis_z) = flat_axes(rotation);
                let centre = DVec2::new(at.x as f64, at.z as f64);
                let m = stamp_modifier(stamp, centre, at.y as f64, axis_x, axis_z);
                next.push((Source::Stamp(entity), m));
            }
            Err(e) => warnings.push((entity, e)),
        }
    }
    for (entity, e) in warnings {
        if state.warned.insert(entity) {
            warn!("terrain edit on {entity} is left out: {e}");
        }
    }
    let in_force: HashSet<Entity> = next
        .iter()
        .filter_map(|(s, _)| match s {
            Source::Path(e) | Source::Stamp(e) => Some(*e),
            _ => None,
        })
        .collect();
    state.warned.retain(|e| !in_force.contains(e));

    // What changed: the area of every edit that came, went or is not what it was.
    let mut areas: Vec<Bounds> = Vec::new();
    let mut now: HashMap<Source, Modifier> = HashMap::default();
    for (source, m) in &next {
        match state.last.get(source) {
            Some(old) if old == m => {}
            Some(old) => areas.extend([old.bounds, m.bounds]),
            None => areas.push(m.bounds),
        }
        now.insert(*source, m.clone());
    }
    areas.extend(
        state
            .last
            .iter()
            .filter(|(s, _)| !now.contains_key(*s))
            .map(|(_, m)| m.bounds),
    );
    if !areas.is_empty() {
        state.edits = Arc::new(GroundEdits::new(next.into_iter().map(|(_, m)| m).collect()));
        state.last = now;
    }
    if sampler.edits().version() != state.edits.version() {
        sampler.set_edits(state.edits.clone());
    }
    if areas.is_empty() {
        return;
    }
    if let Some(mut chunks) = chunks {
        chunks.invalidate(&areas);
    }
    if let Some(mut scatter) = scatter {
        scatter.invalidate(&areas);
    }
    #[cfg(feature = "avian")]
    if let Some(mut colliders) = colliders {
        colliders.invalidate(&areas);
    }
}
