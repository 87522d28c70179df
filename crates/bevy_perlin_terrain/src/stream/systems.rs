//! The streaming systems: plan (root, wanted tree, steps, builds) and upload (finished meshes,
//! complete steps swapped in).

use super::TerrainChunk;
use super::tree::{
    ChunkKey, Shown as ShownSets, Transition, Viewpoint, transitions, wanted_leaves,
};
use super::{
    ChunkDespawned, ChunkRegistry, ChunkRemeshed, ChunkSpawned, Ready, Shown, TerrainRoot,
    TerrainViewer,
};
use crate::chunk::{ChunkJob, build_chunk_mesh};
use crate::config::{MAX_LOD, MAX_VIEW_CHUNKS, REPLAN};
use crate::ground::ColorsInMesh;
use crate::ground::{ActiveTerrainConfig, TerrainSampler};
use crate::space::{RootFrame, RootQuery, current_affine};
use crate::tasks::{Job, Urgency};
use bevy::math::{DVec2, DVec3};
use bevy::mesh::MeshTag;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;

/// The terrain's root entity: `Transform`, and `Visibility` where the app can render.
fn root_bundle() -> impl Bundle {
    (
        TerrainRoot,
        Name::new("terrain"),
        Transform::default(),
        #[cfg(feature = "render")]
        Visibility::default(),
    )
}

/// Entities whose place may have changed since the last frame.
type Moved = Or<(
    Changed<Transform>,
    Changed<GlobalTransform>,
    Changed<ChildOf>,
)>;

/// A game removed the [`ChunkRegistry`]: the chunks it knew are orphans. They go, with the
/// root, and a new registry builds the terrain again.
pub(super) fn recover_registry(
    mut commands: Commands,
    ours: Query<Entity, Or<(With<TerrainChunk>, With<TerrainRoot>)>>,
) {
    crate::recover::rebuild(&mut commands, &ours, ChunkRegistry::new(), "ChunkRegistry");
}

/// Run condition of [`plan_chunks`]: whether anything the plan depends on may have changed
/// since the last frame (the config, the registry, the number of viewers, the place of a viewer
/// or of the root). On an idle frame it is false and the executor skips the planner without
/// starting a task for it.
pub(super) fn planning_needed(
    registry: Option<Res<ChunkRegistry>>,
    active: Option<Res<ActiveTerrainConfig>>,
    viewers: Query<(), With<TerrainViewer>>,
    moved: Query<(), (Or<(With<TerrainViewer>, With<TerrainRoot>)>, Moved)>,
) -> bool {
    let (Some(registry), Some(active)) = (registry, active) else {
        return false;
    };
    let plan = &registry.plan;
    !plan.planned
        || plan.dirty
        || registry.root.is_none()
        || active.is_changed()
        || plan.generation != active.generation()
        || viewers.iter().count() != plan.viewers.len()
        || !moved.is_empty()
}

/// Run condition of [`upload_chunks`]: whether any chunk is being built or waits to be swapped
/// in.
pub(super) fn chunks_in_flight(registry: Option<Res<ChunkRegistry>>) -> bool {
    registry.is_some_and(|r| !r.building.is_empty() || !r.steps.is_empty())
}

/// Plans the terrain when something it depends on changed: a viewer moved a quarter of a chunk
/// (or came or went), the config changed, a chunk or the root was despawned, or a task slot
/// freed up for a chunk that was waiting. It works out the tree the viewers want and the steps
/// to it from what is on screen, despawns at once what is out of range, cancels builds nobody
/// needs, and starts the builds of the most urgent steps (holes first, then the nearest) within
/// `max_tasks_in_flight`. Otherwise it returns at once; on an idle frame [`planning_needed`]
/// keeps it from running at all.
pub(super) fn plan_chunks(
    mut commands: Commands,
    viewers: Query<(Entity, &Transform, &GlobalTransform, Has<ChildOf>), With<TerrainViewer>>,
    roots: RootQuery<With<TerrainRoot>>,
    #[cfg(feature = "big_space")] spaces: Query<
        (Entity, &big_space::prelude::Grid),
        With<big_space::prelude::BigSpace>,
    >,
    active: Option<Res<ActiveTerrainConfig>>,
    sampler: Option<Res<TerrainSampler>>,
    colors_in_mesh: Res<ColorsInMesh>,
    mut registry: ResMut<ChunkRegistry>,
    mut despawned: MessageWriter<ChunkDespawned>,
    mut warned: Local<HashSet<Entity>>,
) {
    let (Some(active), Some(sampler)) = (active, sampler) else {
        return;
    };
    let config = active.config();
    let size = config.chunk_size;
    // Viewers in the terrain's own space; one that is nowhere is left out (warned about once).
    let frame = RootFrame::try_of(registry.root, &roots);
    // Before the root is in the world, the big space it will join at its origin cell measures
    // alike (a plain root would be at the world's origin).
    #[cfg(feature = "big_space")]
    let frame = frame.filter(|_| registry.root.is_some()).or_else(|| {
        let (_, grid) = spaces.iter().next()?;
        Some(RootFrame::of_grid(grid))
    });
    let frame = frame.unwrap_or_default();
    let mut positions: Vec<DVec3> = Vec::with_capacity(viewers.iter().len());
    for (entity, local, global, parented) in &viewers {
        let p = frame.to_root(current_affine((local, global, parented)).translation.into());
        if p.is_finite() {
            positions.push(p);
            warned.remove(&entity);
        } else if warned.insert(entity) {
            warn!(
                "terrain viewer {entity} is at {p}, not a finite position: it is ignored until it is"
            );
        }
    }
    let heights: Vec<f32> = positions
        .iter()
        .map(|p| Viewpoint::height_over_ground(*p, |x, z| f64::from(sampler.height(x, z))) as f32)
        .collect();
    let plan = &registry.plan;
    let replan = f64::from(size * REPLAN as f32);
    // A move of the viewer or of the ground under it (its height counts as distance).
    let moved = positions.len() != plan.viewers.len()
        || positions
            .iter()
            .zip(&plan.viewers)
            .any(|(a, b)| a.distance_squared(*b) > replan * replan)
        || heights
            .iter()
            .zip(&plan.heights)
            .any(|(a, b)| f64::from((a - b).abs()) > replan);
    let changed = active.is_changed() || plan.generation != active.generation();
    if plan.planned && !plan.dirty && !moved && !changed && registry.root.is_some() {
        return;
    }
    let registry = &mut *registry;
    let generation = active.generation();
    let layout = config.lod_layout();
    let geometry = (config.chunk_size, config.chunk_resolution);
    if registry.plan.geometry.is_some_and(|g| g != geometry) {
        // Keys now mean other ground: every chunk on screen retires, and stays on screen until
        // the whole new tree is built.
        let old: Vec<Entity> = registry.shown.drain().map(|(_, s)| s.entity).collect();
        registry.retiring.extend(old);
        registry.ready.clear();
        registry.building.clear();
        registry.steps.clear();
    }
    registry.chunk_size = config.chunk_size;
    registry.plan.geometry = Some(geometry);
    registry.plan.planned = true;
    registry.plan.dirty = false;
    registry.plan.viewers.clone_from(&positions);
    registry.plan.heights.clone_from(&heights);
    registry.plan.generation = generation;
    registry.plan.layout = Some(layout);
    if registry.root.is_none() {
        let root = commands.spawn(root_bundle()).id();
        #[cfg(feature = "big_space")]
        crate::space::join_big_space(
            &mut commands.entity(root),
            spaces.iter().next().map(|s| s.0),
        );
        registry.root = Some(root);
        // Chunks left from an earlier root (spawned in the frame it went) join the new one.
        for entity in registry
            .shown
            .values()
            .map(|s| s.entity)
            .chain(registry.retiring.iter().copied())
        {
            commands.entity(entity).try_insert(ChildOf(root));
        }
    }

    let at: Vec<DVec2> = positions.iter().map(|p| p.xz()).collect();
    let viewpoints: Vec<Viewpoint> = at
        .iter()
        .zip(&heights)
        .map(|(&xz, &h)| Viewpoint {
            xz,
            height: f64::from(h),
        })
        .collect();
    let on_screen: HashSet<ChunkKey> = registry.shown.keys().copied().collect();
    let split = ShownSets::split_of(&on_screen, MAX_LOD);
    let shown_sets = ShownSets {
        chunks: &on_screen,
        split: &split,
    };
    let limit = MAX_VIEW_CHUNKS * positions.len().clamp(1, 4);
    let wanted = wanted_leaves(&viewpoints, &layout, &shown_sets, limit);
    registry.wanted = wanted.len();
    let current: HashMap<ChunkKey, bool> = registry
        .shown
        .iter()
        .map(|(&key, s)| (key, s.generation == generation && !s.stale))
        .collect();
    let mut steps = transitions(&wanted, &current, &layout, &at);
    // Chunks nothing wants any more go now.
    steps.retain(|step| {
        if !step.new.is_empty() {
            return true;
        }
        for &key in &step.old {
            registry.drop_chunk(&mut commands, &mut despawned, key);
        }
        false
    });
    // Builds nobody needs are cancelled, finished ones dropped.
    let needed: HashSet<ChunkKey> = steps.iter().flat_map(|s| s.new.iter().copied()).collect();
    registry
        .ready
        .retain(|key, r| needed.contains(key) && r.generation == generation);
    registry
        .building
        .retain(|key, &g| needed.contains(key) && g == generation);
    let mut jobs = Vec::new();
    for step in &steps {
        let urgency = Urgency {
            hole: step.old.is_empty(),
            distance: step.distance as f32,
        };
        for &key in &step.new {
            if registry.ready.contains_key(&key) || registry.building.get(&key).is_some() {
                continue;
            }
            let mut job = ChunkJob::on_ground(&sampler, config, key.coord, key.lod);
            if !colors_in_mesh.0 {
                job = job.without_colors();
            }
            jobs.push(Job {
                key,
                meta: generation,
                urgency,
                work: move || build_chunk_mesh(&job),
            });
        }
    }
    registry.plan.backlog = registry
        .building
        .start(jobs, config.max_tasks_in_flight as usize);
    registry.steps = steps;
}

/// Takes up to `max_uploads_per_frame` finished meshes into the mesh assets, then swaps in
/// every step whose chunks are all built (all of them at once while chunks of another chunk
/// size retire). Results of an older config generation are dropped, never shown.
pub(super) fn upload_chunks(
    mut commands: Commands,
    active: Option<Res<ActiveTerrainConfig>>,
    mut registry: ResMut<ChunkRegistry>,
    roots: RootQuery<With<TerrainRoot>>,
    meshes: Option<ResMut<Assets<Mesh>>>,
    mut spawned: MessageWriter<ChunkSpawned>,
    mut remeshed: MessageWriter<ChunkRemeshed>,
    mut despawned: MessageWriter<ChunkDespawned>,
) {
    let (Some(active), Some(mut meshes)) = (active, meshes) else {
        return;
    };
    let registry = &mut *registry;
    let Some(root) = registry.root else { return };
    let config = active.config();
    let generation = active.generation();
    let finished = registry
        .building
        .finished(config.max_uploads_per_frame as usize);
    if !finished.is_empty() && registry.plan.backlog {
        // Task slots freed up for chunks that were waiting.
        registry.plan.dirty = true;
    }
    for (key, built_for, data) in finished {
        // A stale or empty result is dropped; the chunk is planned again.
        if built_for != generation || data.is_empty() {
            registry.plan.dirty = true;
            continue;
        }
        let heights = data.height_range();
        registry.ready.insert(
            key,
            Ready {
                mesh: meshes.add(data.into_mesh()),
                generation,
                heights,
            },
        );
    }

    let ready = &registry.ready;
    let complete = |step: &Transition| step.new.iter().all(|key| ready.contains_key(key));
    let steps = std::mem::take(&mut registry.steps);
    let (now, later): (Vec<Transition>, Vec<Transition>) = if registry.retiring.is_empty() {
        steps.into_iter().partition(complete)
    } else if steps.iter().all(complete) {
        for entity in registry.retiring.drain(..) {
            commands.entity(entity).try_despawn();
        }
        (steps, Vec::new())
    } else {
        (Vec::new(), steps)
    };
    registry.steps = later;
    let size = config.chunk_size;
    let frame = RootFrame::of(Some(root), &roots);
    for step in now {
        for &key in step.old.iter().filter(|key| !step.new.contains(key)) {
            registry.drop_chunk(&mut commands, &mut despawned, key);
        }
        for key in step.new {
            let Some(ready) = registry.ready.remove(&key) else {
                continue;
            };
            let chunk = TerrainChunk {
                coord: key.coord,
                lod: key.lod,
            };
            let side = size * (key.lod as f32).exp2();
            let corner = key.coord.as_dvec2() * f64::from(side);
            let at = frame.place(DVec3::new(corner.x, 0.0, corner.y));
            let placed = (
                chunk,
                Mesh3d(ready.mesh),
                MeshTag(u32::from(key.lod)),
                #[cfg(feature = "render")]
                bounds(side, ready.heights),
            );
            if let Some(shown) = registry.shown.get_mut(&key) {
                // Rebuilt in place: the old mesh stayed on screen until now.
                let mut entity = commands.entity(shown.entity);
                entity.try_insert(placed);
                at.insert(&mut entity);
                shown.generation = ready.generation;
                shown.stale = false;
                remeshed.write(ChunkRemeshed {
                    entity: shown.entity,
                    coord: key.coord,
                    lod: key.lod,
                });
            } else {
                let entity = at
                    .spawn(
                        &mut commands,
                        (
                            Name::new(format!("terrain chunk {} of level {}", key.coord, key.lod)),
                            placed,
                            ChildOf(root),
                        ),
                    )
                    .id();
                registry.shown.insert(
                    key,
                    Shown {
                        entity,
                        generation: ready.generation,
                        stale: false,
                    },
                );
                spawned.write(ChunkSpawned {
                    entity,
                    coord: key.coord,
                    lod: key.lod,
                });
            }
        }
    }
}

impl ChunkRegistry {
    /// Despawns the chunk `key` if it is on screen, and says so.
    fn drop_chunk(
        &mut self,
        commands: &mut Commands,
        despawned: &mut MessageWriter<ChunkDespawned>,
        key: ChunkKey,
    ) {
        if let Some(shown) = self.shown.remove(&key) {
            commands.entity(shown.entity).try_despawn();
            despawned.write(ChunkDespawned {
                entity: shown.entity,
                coord: key.coord,
                lod: key.lod,
            });
        }
    }
}

/// The box a chunk `side` metres wide can cover on screen, whatever its morph: its own
/// heights and its morph targets. Bevy's own would see only the former.
#[cfg(feature = "render")]
fn bounds(
    side: f32,
    (low, high): (f32, f32),
) -> (
    bevy::camera::primitives::Aabb,
    bevy::camera::visibility::NoAutoAabb,
) {
    let (low, high) = if low <= high { (low, high) } else { (0.0, 0.0) };
    (
        bevy::camera::primitives::Aabb::from_min_max(
            Vec3::new(0.0, low, 0.0),
            Vec3::new(side, high, side),
        ),
        bevy::camera::visibility::NoAutoAabb,
    )
}
