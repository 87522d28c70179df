//! The streaming systems: plan (root, unload, cancel, schedule) and upload.

use super::plan::{nearest_distance, wanted_chunks};
use super::{
    ChunkDespawned, ChunkRegistry, ChunkRemeshed, ChunkSpawned, Loaded, Pending, TerrainRoot,
    TerrainViewer,
};
use crate::chunk::{ChunkCoord, ChunkJob, TerrainChunk, build_chunk_mesh};
use crate::config::ColoursInMesh;
use crate::state::{ActiveTerrainConfig, TerrainTables};
use bevy::math::Affine3A;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, futures::check_ready};

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

/// Where an entity is now: an entity without a parent is where its `Transform` says
/// (`GlobalTransform` would lag a frame behind a move made this frame), a child where its
/// `GlobalTransform` says.
pub(crate) fn current_affine(
    (local, global, parented): (&Transform, &GlobalTransform, bool),
) -> Affine3A {
    if parented {
        global.affine()
    } else {
        local.compute_affine()
    }
}

/// Entities whose place may have changed since the last frame.
type Moved = Or<(
    Changed<Transform>,
    Changed<GlobalTransform>,
    Changed<ChildOf>,
)>;

/// Run condition of [`plan_chunks`]: whether anything the plan depends on may have changed
/// since the last frame (the config, the registry, the number of viewers, the place of a viewer
/// or of the root). On an idle frame it is false and the executor skips the planner without
/// starting a task for it.
pub(super) fn planning_needed(
    registry: Res<ChunkRegistry>,
    active: Option<Res<ActiveTerrainConfig>>,
    viewers: Query<(), With<TerrainViewer>>,
    moved: Query<(), (Or<(With<TerrainViewer>, With<TerrainRoot>)>, Moved)>,
) -> bool {
    let Some(active) = active else {
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

/// Run condition of [`upload_chunks`]: whether any chunk mesh is being built.
pub(super) fn meshes_in_flight(registry: Res<ChunkRegistry>) -> bool {
    !registry.pending.is_empty()
}

/// Plans the terrain when something it depends on changed: a viewer moved a quarter of a chunk
/// (or came or went), the config changed, a chunk or the root was despawned, or a task slot
/// freed up for a chunk that was waiting. Then it unloads chunks out of range, cancels tasks
/// nobody needs, and starts tasks for the missing or outdated chunks nearest the viewers, within
/// `max_tasks_in_flight`. Otherwise it returns at once; on an idle frame [`planning_needed`]
/// keeps it from running at all.
pub(super) fn plan_chunks(
    mut commands: Commands,
    viewers: Query<(&Transform, &GlobalTransform, Has<ChildOf>), With<TerrainViewer>>,
    roots: Query<(&Transform, &GlobalTransform, Has<ChildOf>), With<TerrainRoot>>,
    active: Option<Res<ActiveTerrainConfig>>,
    tables: Option<Res<TerrainTables>>,
    colours_in_mesh: Res<ColoursInMesh>,
    mut registry: ResMut<ChunkRegistry>,
    mut despawned: MessageWriter<ChunkDespawned>,
) {
    let (Some(active), Some(tables)) = (active, tables) else {
        return;
    };
    let config = active.config();
    let size = config.chunk_size;
    // Viewers in the terrain's own space.
    let current = current_affine;
    let root_space = registry
        .root
        .and_then(|root| roots.get(root).ok())
        .map_or(Affine3A::IDENTITY, |root| current(root).inverse());
    let positions: Vec<Vec3> = viewers
        .iter()
        .map(|v| root_space.transform_point3(current(v).translation.into()))
        .collect();
    let plan = &registry.plan;
    let moved = positions.len() != plan.viewers.len()
        || positions
            .iter()
            .zip(&plan.viewers)
            .any(|(a, b)| a.distance_squared(*b) > (size * 0.25).powi(2) || !a.is_finite());
    let changed = active.is_changed() || plan.generation != active.generation();
    if plan.planned && !plan.dirty && !moved && !changed && registry.root.is_some() {
        return;
    }
    let registry = &mut *registry;
    registry.plan.planned = true;
    registry.plan.dirty = false;
    registry.plan.viewers = positions.clone();
    registry.plan.generation = active.generation();
    if registry.root.is_none() {
        let root = commands.spawn(root_bundle()).id();
        registry.root = Some(root);
        // Chunks left from an earlier root (spawned in the frame it went) join the new one.
        for loaded in registry.loaded.values() {
            commands.entity(loaded.entity).try_insert(ChildOf(root));
        }
    }
    // Chunks stay until a chunk's width beyond the view distance: no flicker at the edge.
    let keep = config.view_distance + size;
    registry.loaded.retain(|&coord, chunk| {
        let stays = nearest_distance(&positions, coord, size) <= keep;
        if !stays {
            commands.entity(chunk.entity).try_despawn();
            despawned.write(ChunkDespawned {
                entity: chunk.entity,
                coord,
            });
        }
        stays
    });
    // Dropping a task cancels it; its chunk is planned again below if still wanted.
    let generation = active.generation();
    registry.pending.retain(|&coord, task| {
        task.generation == generation && nearest_distance(&positions, coord, size) <= keep
    });
    let loaded = &registry.loaded;
    registry.wanted = wanted_chunks(&positions, config, |coord| {
        loaded.get(&coord).map(|chunk| chunk.lod)
    });

    /// A chunk to build: whether its place on screen is empty (those go first), its distance,
    /// which chunk and at which level of detail.
    struct Job {
        on_screen: bool,
        distance: f32,
        coord: ChunkCoord,
        lod: u8,
    }
    let mut jobs = Vec::new();
    for (&coord, want) in &registry.wanted {
        let on_screen = match registry.loaded.get(&coord) {
            Some(chunk) if chunk.lod == want.lod && chunk.generation == generation => continue,
            Some(_) => true,
            None => false,
        };
        match registry.pending.get(&coord) {
            Some(task) if task.lod == want.lod => continue,
            Some(_) => {
                registry.pending.remove(&coord);
            }
            None => {}
        }
        jobs.push(Job {
            on_screen,
            distance: want.distance,
            coord,
            lod: want.lod,
        });
    }
    // Holes first, then the nearest.
    jobs.sort_by(|a, b| {
        a.on_screen
            .cmp(&b.on_screen)
            .then(a.distance.total_cmp(&b.distance))
    });
    let free = (config.max_tasks_in_flight as usize).saturating_sub(registry.pending.len());
    registry.plan.backlog = jobs.len() > free;
    let pool = AsyncComputeTaskPool::get();
    for job in jobs.into_iter().take(free) {
        let mut chunk = ChunkJob::new(tables.tables().clone(), config, job.coord, job.lod);
        if !colours_in_mesh.0 {
            chunk = chunk.without_colours();
        }
        let task = pool.spawn(async move { build_chunk_mesh(&chunk) });
        registry.pending.insert(
            job.coord,
            Pending {
                task,
                lod: job.lod,
                generation,
            },
        );
    }
}

/// Turns up to `max_uploads_per_frame` finished meshes into chunk entities (or new meshes on
/// existing ones). Results of an older config generation are dropped, never inserted.
pub(super) fn upload_chunks(
    mut commands: Commands,
    active: Option<Res<ActiveTerrainConfig>>,
    mut registry: ResMut<ChunkRegistry>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut spawned: MessageWriter<ChunkSpawned>,
    mut remeshed: MessageWriter<ChunkRemeshed>,
) {
    let Some(active) = active else { return };
    let registry = &mut *registry;
    let Some(root) = registry.root else { return };
    let config = active.config();
    let budget = config.max_uploads_per_frame as usize;
    let mut finished = Vec::new();
    for (&coord, task) in registry.pending.iter_mut() {
        if finished.len() == budget {
            break;
        }
        if task.task.is_finished()
            && let Some(mesh) = check_ready(&mut task.task)
        {
            finished.push((coord, task.lod, task.generation, mesh));
        }
    }
    if !finished.is_empty() && registry.plan.backlog {
        // Task slots freed up for chunks that were waiting.
        registry.plan.dirty = true;
    }
    let size = config.chunk_size;
    for (coord, lod, generation, data) in finished {
        registry.pending.remove(&coord);
        // A stale or empty result is dropped; the chunk is planned again.
        if generation != active.generation() || data.is_empty() {
            registry.plan.dirty = true;
            continue;
        }
        let mesh = Mesh3d(meshes.add(data.into_mesh()));
        let chunk = TerrainChunk { coord, lod };
        let transform = Transform::from_xyz(coord.x as f32 * size, 0.0, coord.y as f32 * size);
        if let Some(loaded) = registry.loaded.get_mut(&coord) {
            // The old mesh stays on screen until this replaces it: no hole, no flash.
            commands
                .entity(loaded.entity)
                .try_insert((mesh, chunk, transform));
            (loaded.lod, loaded.generation) = (lod, generation);
            remeshed.write(ChunkRemeshed {
                entity: loaded.entity,
                coord,
                lod,
            });
        } else {
            let entity = commands
                .spawn((
                    Name::new(format!("terrain chunk {coord}")),
                    chunk,
                    mesh,
                    transform,
                    ChildOf(root),
                ))
                .id();
            registry.loaded.insert(
                coord,
                Loaded {
                    entity,
                    lod,
                    generation,
                },
            );
            spawned.write(ChunkSpawned { entity, coord, lod });
        }
    }
}
