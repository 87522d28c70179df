//! The streaming systems: plan (unload, cancel, schedule) and upload.

use super::plan::{chunks_within, lod_with_hysteresis, nearest_distance};
use super::{
    ChunkDespawned, ChunkRegistry, ChunkRemeshed, ChunkSpawned, Loaded, Pending, TerrainViewer,
};
use crate::chunk::{ChunkJob, TerrainChunk, build_chunk_mesh};
use crate::config::{ActiveTerrainConfig, TerrainTables};
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, futures::check_ready};

/// Unloads chunks out of range, cancels tasks nobody needs any more, and starts tasks for the
/// missing or outdated chunks nearest the viewers, within `max_tasks_in_flight`.
pub(super) fn plan_chunks(
    mut commands: Commands,
    viewers: Query<&GlobalTransform, With<TerrainViewer>>,
    active: Option<Res<ActiveTerrainConfig>>,
    tables: Option<Res<TerrainTables>>,
    mut registry: ResMut<ChunkRegistry>,
    mut despawned: MessageWriter<ChunkDespawned>,
) {
    let (Some(active), Some(tables)) = (active, tables) else {
        return;
    };
    let config = &active.config;
    let size = config.chunk_size;
    let viewers: Vec<Vec3> = viewers.iter().map(GlobalTransform::translation).collect();
    // Chunks stay until a chunk's width beyond the view distance: no flicker at the edge.
    let keep = config.view_distance + size;
    let registry = &mut *registry;
    registry.loaded.retain(|&coord, chunk| {
        let stays = nearest_distance(&viewers, coord, size) <= keep;
        if !stays {
            commands.entity(chunk.entity).despawn();
            despawned.write(ChunkDespawned {
                entity: chunk.entity,
                coord,
            });
        }
        stays
    });
    // Dropping a task cancels it; its chunk is planned again below if still wanted.
    registry.pending.retain(|&coord, task| {
        task.generation == active.generation && nearest_distance(&viewers, coord, size) <= keep
    });

    let margin = size * 0.5;
    let mut jobs: Vec<(bool, f32, IVec2, u8)> = Vec::new();
    for (coord, want) in chunks_within(&viewers, config, config.view_distance) {
        let (lod, on_screen) = match registry.loaded.get(&coord) {
            Some(chunk) => {
                let lod = lod_with_hysteresis(config, chunk.lod, want.distance, margin);
                if chunk.lod == lod && chunk.generation == active.generation {
                    continue;
                }
                (lod, true)
            }
            None => (want.lod, false),
        };
        match registry.pending.get(&coord) {
            Some(task) if task.lod == lod => continue,
            Some(_) => {
                registry.pending.remove(&coord);
            }
            None => {}
        }
        jobs.push((on_screen, want.distance, coord, lod));
    }
    // Holes first, then the nearest.
    jobs.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let free = (config.max_tasks_in_flight as usize).saturating_sub(registry.pending.len());
    let pool = AsyncComputeTaskPool::get();
    for (_, _, coord, lod) in jobs.into_iter().take(free) {
        let job = ChunkJob::new(tables.tables.clone(), config, coord, lod);
        let task = pool.spawn(async move { build_chunk_mesh(&job) });
        registry.pending.insert(
            coord,
            Pending {
                task,
                lod,
                generation: active.generation,
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
    let budget = active.config.max_uploads_per_frame as usize;
    let size = active.config.chunk_size;
    let mut finished = Vec::new();
    for (&coord, task) in registry.pending.iter_mut() {
        if finished.len() == budget {
            break;
        }
        if let Some(mesh) = check_ready(&mut task.task) {
            finished.push((coord, task.lod, task.generation, mesh));
        }
    }
    for (coord, lod, generation, data) in finished {
        registry.pending.remove(&coord);
        // A stale or empty result is dropped; the chunk is planned again next frame.
        if generation != active.generation || data.is_empty() {
            continue;
        }
        let mesh = Mesh3d(meshes.add(data.into_mesh()));
        let chunk = TerrainChunk { coord, lod };
        let transform = Transform::from_xyz(coord.x as f32 * size, 0.0, coord.y as f32 * size);
        if let Some(loaded) = registry.loaded.get_mut(&coord) {
            // The old mesh stays on screen until this replaces it: no hole, no flash.
            commands
                .entity(loaded.entity)
                .insert((mesh, chunk, transform));
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
