//! The scatter systems: plan (which chunks carry which layers, tasks for the missing ones) and
//! spawn (finished placements into instance entities).

use super::{
    Placed, Placing, ScatterInstance, ScatterJob, ScatterLook, ScatterLooks, ScatterRegistry,
    ScatterSpawned, place_scatter,
};
use crate::chunk::{ChunkCoord, chunk_centre};
use crate::sampler::TerrainSampler;
use crate::state::ActiveTerrainConfig;
use crate::stream::{ChunkDespawned, ChunkRegistry, ChunkSpawned};
use bevy::math::Vec3Swizzles;
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, futures::check_ready};

/// Plans when something it depends on changed (the chunks, the viewers by a quarter of a chunk,
/// the scatter layers or the ground): forgets batches whose chunk went, despawns batches beyond
/// their layer's view distance (plus half a chunk), and starts placement tasks for the chunks
/// in range of each layer, nearest first.
pub(super) fn plan_scatter(
    mut commands: Commands,
    active: Option<Res<ActiveTerrainConfig>>,
    sampler: Option<Res<TerrainSampler>>,
    chunks: Res<ChunkRegistry>,
    mut spawned: MessageReader<ChunkSpawned>,
    mut despawned: MessageReader<ChunkDespawned>,
    mut registry: ResMut<ScatterRegistry>,
    mut last_viewers: Local<Vec<Vec3>>,
) {
    let chunk_events = spawned.read().count() + despawned.read().count() > 0;
    let (Some(active), Some(sampler)) = (active, sampler) else {
        return;
    };
    let config = active.config();
    let registry = &mut *registry;
    let same = registry
        .planned_for
        .as_ref()
        .is_some_and(|(g, sea, layers)| {
            *g == active.generation() && *sea == config.sea_level && *layers == config.scatter
        });
    if !same {
        registry.generation += 1;
        registry.planned_for = Some((
            active.generation(),
            config.sea_level,
            config.scatter.clone(),
        ));
    }
    let size = config.chunk_size;
    let viewers = chunks.viewer_positions();
    let moved = viewers.len() != last_viewers.len()
        || viewers
            .iter()
            .zip(last_viewers.iter())
            .any(|(a, b)| a.distance(*b) > 0.25 * size);
    if same && !moved && !chunk_events && !registry.dirty {
        return;
    }
    registry.dirty = false;
    *last_viewers = viewers.to_vec();
    let distance = |coord: ChunkCoord| {
        let centre = chunk_centre(coord, size);
        viewers
            .iter()
            .map(|v| v.xz().distance(centre))
            .fold(f32::INFINITY, f32::min)
    };

    // A batch whose chunk went (with its instances, its children) is forgotten.
    let alive =
        |coord: ChunkCoord, chunk: Entity| chunks.chunk(coord).is_some_and(|c| c.entity == chunk);
    registry
        .placed
        .retain(|&(coord, _), p| alive(coord, p.chunk));
    registry
        .placing
        .retain(|&(coord, _), p| alive(coord, p.chunk));
    registry.placed.retain(|&(coord, layer), placed| {
        let keep = config
            .scatter
            .get(layer)
            .is_some_and(|l| distance(coord) <= l.view_distance + 0.5 * size);
        if !keep {
            for &e in &placed.instances {
                commands.entity(e).try_despawn();
            }
        }
        keep
    });

    let mut wanted = HashSet::default();
    let mut jobs = Vec::new();
    let generation = registry.generation;
    for info in chunks.iter() {
        let d = distance(info.coord);
        for (layer, l) in config.scatter.iter().enumerate() {
            if d > l.view_distance {
                continue;
            }
            let key = (info.coord, layer);
            wanted.insert(key);
            let done = registry
                .placed
                .get(&key)
                .is_some_and(|p| p.generation == generation);
            let started = registry
                .placing
                .get(&key)
                .is_some_and(|p| p.generation == generation);
            if !done && !started {
                jobs.push((d, key, info.entity));
            }
        }
    }
    registry
        .placing
        .retain(|key, p| p.generation == generation && wanted.contains(key));
    jobs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let free = (config.max_tasks_in_flight as usize).saturating_sub(registry.placing.len());
    registry.dirty = jobs.len() > free;
    let pool = AsyncComputeTaskPool::get();
    for (_, (coord, layer), chunk) in jobs.into_iter().take(free) {
        let Some(job) = ScatterJob::new(sampler.clone(), config, layer, coord) else {
            continue;
        };
        let task = pool.spawn(async move { place_scatter(&job) });
        registry.placing.insert(
            (coord, layer),
            Placing {
                chunk,
                task,
                generation,
            },
        );
    }
    registry.wanted = wanted;
}

/// Turns finished placements into instance entities under their chunk (up to
/// `max_uploads_per_frame` batches a frame), with the look registered for their layer; a
/// batch of new layers or ground replaces the old one in the same frame.
pub(super) fn spawn_scatter(
    mut commands: Commands,
    active: Option<Res<ActiveTerrainConfig>>,
    looks: Res<ScatterLooks>,
    mut registry: ResMut<ScatterRegistry>,
    mut spawned: MessageWriter<ScatterSpawned>,
) {
    let Some(active) = active else { return };
    if registry.placing.is_empty() {
        return;
    }
    let config = active.config();
    let registry = &mut *registry;
    let budget = config.max_uploads_per_frame as usize;
    let mut finished = Vec::new();
    for (&key, placing) in registry.placing.iter_mut() {
        if finished.len() == budget {
            break;
        }
        if placing.task.is_finished()
            && let Some(transforms) = check_ready(&mut placing.task)
        {
            finished.push((key, transforms));
        }
    }
    if !finished.is_empty() {
        registry.dirty = true;
    }
    for ((coord, layer), transforms) in finished {
        let Some(placing) = registry.placing.remove(&(coord, layer)) else {
            continue;
        };
        let Some(name) = config.scatter.get(layer).map(|l| l.name.clone()) else {
            continue;
        };
        let look = looks.get(&name);
        let instances: Vec<Entity> = transforms
            .into_iter()
            .map(|transform| {
                let mut e = commands.spawn((
                    ScatterInstance {
                        layer: name.clone(),
                    },
                    transform,
                    ChildOf(placing.chunk),
                ));
                match look {
                    #[cfg(feature = "render")]
                    Some(ScatterLook::Mesh { mesh, material }) => {
                        e.insert((Mesh3d(mesh.clone()), MeshMaterial3d(material.clone())));
                    }
                    Some(ScatterLook::Custom(spawn)) => spawn(&mut e),
                    None => {}
                }
                e.id()
            })
            .collect();
        let old = registry.placed.insert(
            (coord, layer),
            Placed {
                chunk: placing.chunk,
                instances: instances.clone(),
                generation: placing.generation,
            },
        );
        for e in old.into_iter().flat_map(|p| p.instances) {
            commands.entity(e).try_despawn();
        }
        spawned.write(ScatterSpawned {
            chunk: placing.chunk,
            coord,
            layer: name,
            instances,
        });
    }
}
