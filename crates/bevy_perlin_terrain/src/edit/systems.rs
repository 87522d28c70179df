//! The edit system: collects the config's and the components' stamps and paths, in their order,
//! into new [`GroundEdits`] when any changed, and announces the areas that changed
//! ([`TerrainGroundChanged`]), which the chunks, colliders and scatter each rebuild.

use crate::config::{
    ConfigError, TerrainConfig, TerrainPath, TerrainStamp, validate_path, validate_position,
    validate_stamp,
};
use crate::ground::{
    ActiveTerrainConfig, GroundEdits, Modifier, TerrainGroundChanged, TerrainSampler,
    config_modifiers, flat_axes, path_modifier_from, stamp_modifier,
};
use crate::space::{Bounds, CellMoved, Placement, RootFrame, RootQuery, current_affine};
use crate::stream::TerrainRoot;
use bevy::math::{DAffine3, DVec3};
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
        CellMoved,
        Changed<GlobalTransform>,
        Changed<ChildOf>,
    )>,
);

/// Where a stamp or path entity stands in a big_space grid, if it does: its cell and parent.
#[cfg(feature = "big_space")]
type InGrid = Option<(
    &'static big_space::prelude::CellCoord,
    &'static ChildOf,
    &'static Transform,
)>;
/// Where a stamp or path entity stands in a big_space grid: nothing without big_space.
#[cfg(not(feature = "big_space"))]
type InGrid = ();

/// The grids stamps and paths may stand in.
#[cfg(feature = "big_space")]
type Grids<'w, 's> = Query<'w, 's, &'static big_space::prelude::Grid>;
/// The grids stamps and paths may stand in: none without big_space.
#[cfg(not(feature = "big_space"))]
type Grids<'w, 's> = Query<'w, 's, (), Without<TerrainStamp>>;

/// Path entities that may have moved (their points are their own, except in a grid, where
/// they are offsets from the entity's cell and translation).
type PathMoved = (
    With<TerrainPath>,
    Or<(Changed<Transform>, Changed<ChildOf>, CellMoved)>,
);

/// What [`update_edits`] reads of a stamp entity.
type StampItem<'a> = (
    Entity,
    &'a TerrainStamp,
    &'a Transform,
    &'a GlobalTransform,
    bool,
    <InGrid as bevy::ecs::query::QueryData>::Item<'a, 'a>,
);

/// How stamp and path entities are placed in the root's space: through the world, or, for
/// one placed by cell in the root's grid (or the grid the root is in), exactly from its cell.
struct Placer<'a, 'w, 's> {
    frame: RootFrame,
    #[cfg_attr(
        not(feature = "big_space"),
        expect(dead_code, reason = "grids are big_space's")
    )]
    grids: &'a Grids<'w, 's>,
}

impl Placer<'_, '_, '_> {
    /// The root-space placement of an entity placed by `placement` and, maybe, a grid cell.
    fn place(&self, placement: Placement, in_grid: InGridItem) -> DAffine3 {
        if let Some(placed) = self.in_grid(in_grid) {
            return placed;
        }
        self.frame.affine_to_root(current_affine(placement))
    }

    /// Where the points of a path on an entity are measured from: its root-space place where it
    /// stands by cell in a grid, the root's origin otherwise (a path's points are its own).
    fn path_origin(&self, in_grid: InGridItem) -> DVec3 {
        self.in_grid(in_grid)
            .map_or(DVec3::ZERO, |placed| placed.translation)
    }

    /// The root-space placement of an entity placed by cell in the root's grid or the grid
    /// the root is in; `None` for any other.
    fn in_grid(&self, _in_grid: InGridItem) -> Option<DAffine3> {
        #[cfg(feature = "big_space")]
        if let Some((cell, parent, local)) = _in_grid {
            let grid = self.grids.get(parent.parent()).ok()?;
            return self.frame.cell_to_root(parent.parent(), grid, cell, local);
        }
        None
    }
}

/// A stamp's or path's grid place as read.
type InGridItem<'a> = <InGrid as bevy::ecs::query::QueryData>::Item<'a, 'a>;

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
    changed_paths: Query<(), Or<(Changed<TerrainPath>, PathMoved)>>,
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
/// changed, puts new [`GroundEdits`] in the sampler and writes [`TerrainGroundChanged`] with the
/// area each covers (old and new), so that the chunks (every level), colliders and scatter
/// cells there are rebuilt, each old one staying until its replacement is ready. An invalid
/// component is left out, with a warning naming the entity.
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
        InGrid,
    )>,
    paths: Query<(Entity, &TerrainPath, InGrid)>,
    grids: Grids,
    root: Query<Entity, With<TerrainRoot>>,
    roots: RootQuery<With<TerrainRoot>>,
    mut changed: MessageWriter<TerrainGroundChanged>,
) {
    let (Some(active), Some(mut sampler)) = (active, sampler) else {
        return;
    };
    let state = &mut *state;
    state.counts = (stamps.iter().len(), paths.iter().len());
    state.number_new(
        stamps
            .iter()
            .map(|(e, ..)| e)
            .chain(paths.iter().map(|(e, ..)| e)),
    );
    let placer = Placer {
        frame: RootFrame::of(root.iter().next(), &roots),
        grids: &grids,
    };
    let (next, warnings) = collect(state, active.config(), &paths, stamps.iter(), &placer);
    state.warn_once(warnings, &next);
    let areas = state.put_in_force(next);
    if sampler.edits().version() != state.edits.version() {
        sampler.set_edits(state.edits.clone());
    }
    if !areas.is_empty() {
        changed.write(TerrainGroundChanged {
            areas: areas.iter().map(Bounds::covering_rect).collect(),
        });
    }
}

/// Every edit in the order they apply (the config's paths, the components' paths, the config's
/// stamps, the components' stamps; components in the order they were added), and the
/// components left out as invalid, with why.
fn collect<'a>(
    state: &EditState,
    config: &TerrainConfig,
    paths: &Query<(Entity, &TerrainPath, InGrid)>,
    stamps: impl Iterator<Item = StampItem<'a>>,
    placer: &Placer,
) -> (Vec<(Source, Modifier)>, Vec<(Entity, ConfigError)>) {
    let order = |e: &Entity| state.added.get(e).copied().unwrap_or(u64::MAX);
    let (config_paths, config_stamps) = config_modifiers(config);
    let mut next: Vec<(Source, Modifier)> = Vec::new();
    let mut warnings = Vec::new();
    next.extend(
        config_paths
            .into_iter()
            .enumerate()
            .map(|(i, m)| (Source::ConfigPath(i), m)),
    );
    let mut component_paths: Vec<_> = paths.iter().collect();
    component_paths.sort_by_key(|(e, ..)| order(e));
    for (entity, path, in_grid) in component_paths {
        match validate_path(path).map_err(|e| e.within("TerrainPath")) {
            Ok(()) => {
                let origin = placer.path_origin(in_grid);
                next.push((Source::Path(entity), path_modifier_from(path, origin)));
            }
            Err(e) => warnings.push((entity, e)),
        }
    }
    next.extend(
        config_stamps
            .into_iter()
            .enumerate()
            .map(|(i, m)| (Source::ConfigStamp(i), m)),
    );
    let mut component_stamps: Vec<_> = stamps.collect();
    component_stamps.sort_by_key(|(e, ..)| order(e));
    for (entity, stamp, local, global, parented, in_grid) in component_stamps {
        match stamp_in_root(stamp, placer.place((local, global, parented), in_grid)) {
            Ok(m) => next.push((Source::Stamp(entity), m)),
            Err(e) => warnings.push((entity, e)),
        }
    }
    (next, warnings)
}

/// A component stamp placed by `placed` (its entity's transform in the root's space), checked.
fn stamp_in_root(stamp: &TerrainStamp, placed: DAffine3) -> Result<Modifier, ConfigError> {
    let (_, rotation, at) = placed.to_scale_rotation_translation();
    validate_position("Transform.translation", at.as_vec3())?;
    validate_stamp(stamp).map_err(|e| e.within("TerrainStamp"))?;
    let (axis_x, axis_z) = flat_axes(rotation.as_quat());
    Ok(stamp_modifier(stamp, at.xz(), at.y, axis_x, axis_z))
}

impl EditState {
    /// Forgets entities that are gone and numbers the new ones, in entity order, after every
    /// earlier one: the order of addition.
    fn number_new(&mut self, present: impl Iterator<Item = Entity>) {
        let present: HashSet<Entity> = present.collect();
        self.added.retain(|e, _| present.contains(e));
        self.warned.retain(|e| present.contains(e));
        let mut fresh: Vec<Entity> = present
            .iter()
            .copied()
            .filter(|e| !self.added.contains_key(e))
            .collect();
        fresh.sort_unstable();
        for e in fresh {
            self.added.insert(e, self.next);
            self.next += 1;
        }
    }

    /// Warns once about each component left out, until it is in force again.
    fn warn_once(&mut self, warnings: Vec<(Entity, ConfigError)>, next: &[(Source, Modifier)]) {
        for (entity, e) in warnings {
            if self.warned.insert(entity) {
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
        self.warned.retain(|e| !in_force.contains(e));
    }

    /// Puts `next` in force if it differs from the edits in force; returns the area of every
    /// edit that came, went or is not what it was (empty: nothing changed).
    fn put_in_force(&mut self, next: Vec<(Source, Modifier)>) -> Vec<Bounds> {
        let mut areas: Vec<Bounds> = Vec::new();
        let mut now: HashMap<Source, Modifier> = HashMap::default();
        for (source, m) in &next {
            match self.last.get(source) {
                Some(old) if old == m => {}
                Some(old) => areas.extend([old.bounds, m.bounds]),
                None => areas.push(m.bounds),
            }
            now.insert(*source, m.clone());
        }
        areas.extend(
            self.last
                .iter()
                .filter(|(s, _)| !now.contains_key(*s))
                .map(|(_, m)| m.bounds),
        );
        if !areas.is_empty() {
            self.edits = Arc::new(GroundEdits::new(next.into_iter().map(|(_, m)| m).collect()));
            self.last = now;
        }
        areas
    }
}
