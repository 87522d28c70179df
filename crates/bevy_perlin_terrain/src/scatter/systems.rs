//! The scatter systems: plan (which chunks carry which layers, tasks for the missing ones) and
//! spawn (finished placements into instance entities).

use super::{
    Placed, Placing, ScatterGround, ScatterInstance, ScatterJob, ScatterLook, ScatterLooks,
    ScatterRegistry, ScatterSpawned, place_scatter,
};
use crate::chunk::{ChunkCoord, chunk_centre};
use crate::sampler::TerrainSampler;
use crate::state::{ActiveTerrainConfig, TerrainTables};
use crate::stream::ChunkRegistry;
use bevy::math::Vec3Swizzles;
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, futures::check_ready};

/// The most instances spawned in one frame (at least one whole batch is).
const SPAWNS_PER_FRAME: usize = 20_000;

/// Despawns `instances` that are still children of `chunk` (one a game took, reparenting it, is
/// the game's).
fn despawn_instances(
    commands: &mut Commands,
    parents: &Query<&ChildOf, With<ScatterInstance>>,
    chunk: Entity,
    instances: &[Entity],
) {
    for &e in instances {
        if parents.get(e).is_ok_and(|p| p.parent() == chunk) {
            commands.entity(e).try_despawn();
        }
    }
}

/// Run condition of [`plan_scatter`]: whether the chunks (and with them the viewers), the
/// config or the tables changed since the last frame, or the last plan left work undone. On an
/// idle frame it is false and the executor skips the planner without starting a task for it.
pub(super) fn scatter_planning_needed(
    registry: Res<ScatterRegistry>,
    chunks: Res<ChunkRegistry>,
    active: Option<Res<ActiveTerrainConfig>>,
    tables: Option<Res<TerrainTables>>,
) -> bool {
    !registry.planned
        || registry.dirty
        || chunks.is_changed()
        || active.is_some_and(|a| a.is_changed())
        || tables.is_some_and(|t| t.is_changed())
}

/// Run condition of [`spawn_scatter`]: whether any placement is being computed.
pub(super) fn placements_in_flight(registry: Res<ScatterRegistry>) -> bool {
    !registry.placing.is_empty()
}

/// Plans when something it depends on changed (the chunks, the viewers by a quarter of a chunk,
/// the scatter layers or the ground): forgets batches whose chunk went (its instances went with
/// it, as its children), despawns batches beyond their layer's view distance (plus half a
/// chunk), and starts placement tasks for the chunks in range of each layer that lack an
/// up-to-date batch, nearest first. A batch stays on screen until its replacement is ready.
pub(super) fn plan_scatter(
    mut commands: Commands,
    active: Option<Res<ActiveTerrainConfig>>,
    tables: Option<Res<TerrainTables>>,
    sampler: Option<Res<TerrainSampler>>,
    chunks: Res<ChunkRegistry>,
    parents: Query<&ChildOf, With<ScatterInstance>>,
    mut registry: ResMut<ScatterRegistry>,
    mut last_viewers: Local<Vec<Vec3>>,
) {
    let (Some(active), Some(tables), Some(sampler)) = (active, tables, sampler) else {
        return;
    };
    let config = active.config();
    let ground = ScatterGround {
        seed: tables.seed(),
        noise: config.noise,
        height_scale: config.height_scale,
        chunk_size: config.chunk_size,
        sea_level: config.sea_level,
    };
    let size = config.chunk_size;
    let viewers = chunks.viewer_positions();
    let moved = viewers.len() != last_viewers.len()
        || viewers
            .iter()
            .zip(last_viewers.iter())
            .any(|(a, b)| a.xz().distance(b.xz()) > 0.25 * size);
    let layers_changed = active.is_changed();
    let regrounded = registry.ground != Some(ground);
    if registry.planned
        && !(regrounded || layers_changed || moved || chunks.is_changed() || registry.dirty)
    {
        return;
    }
    let registry = &mut *registry;
    if regrounded {
        registry.ground = Some(ground);
        registry.generation += 1;
    }
    registry.planned = true;
    registry.dirty = false;
    last_viewers.clear();
    last_viewers.extend_from_slice(viewers);
    let distance = |coord: ChunkCoord| {
        let centre = chunk_centre(coord, size);
        viewers
            .iter()
            .map(|v| v.xz().distance(centre))
            .fold(f32::INFINITY, f32::min)
    };

    // A batch whose chunk went is forgotten: its instances went with it.
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
            despawn_instances(&mut commands, &parents, placed.chunk, &placed.instances);
        }
        keep
    });

    let generation = registry.generation;
    let current = |g: u64, layer: &crate::ScatterLayer, index: usize| {
        g == generation && config.scatter.get(index) == Some(layer)
    };
    let mut wanted = HashSet::default();
    let mut jobs = Vec::new();
    for info in chunks.iter() {
        let d = distance(info.coord);
        for (index, l) in config.scatter.iter().enumerate() {
            if d > l.view_distance {
                continue;
            }
            let key = (info.coord, index);
            wanted.insert(key);
            let done = registry
                .placed
                .get(&key)
                .is_some_and(|p| current(p.generation, &p.layer, index));
            let started = registry
                .placing
                .get(&key)
                .is_some_and(|p| current(p.generation, &p.layer, index));
            if !done && !started {
                jobs.push((d, key, info.entity));
            }
        }
    }
    registry.placing.retain(|&(coord, index), p| {
        current(p.generation, &p.layer, index) && wanted.contains(&(coord, index))
    });
    jobs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let free = (config.max_tasks_in_flight as usize).saturating_sub(registry.placing.len());
    registry.dirty = jobs.len() > free;
    let pool = AsyncComputeTaskPool::get();
    for (_, (coord, index), chunk) in jobs.into_iter().take(free) {
        let Some(job) = ScatterJob::new(sampler.clone(), config, index, coord) else {
            continue;
        };
        let layer = config.scatter[index].clone();
        let task = pool.spawn(async move { place_scatter(&job) });
        registry.placing.insert(
            (coord, index),
            Placing {
                chunk,
                task,
                generation,
                layer,
            },
        );
    }
    registry.wanted = wanted;
}

/// Turns finished placements into instance entities under their chunk (whole batches, up to
/// [`SPAWNS_PER_FRAME`] instances a frame), with the look registered for their layer; a batch
/// of an edited layer or new ground replaces the old one in the same frame. A batch whose chunk
/// went meanwhile is dropped.
pub(super) fn spawn_scatter(
    mut commands: Commands,
    looks: Res<ScatterLooks>,
    chunks: Res<ChunkRegistry>,
    parents: Query<&ChildOf, With<ScatterInstance>>,
    mut registry: ResMut<ScatterRegistry>,
    mut spawned: MessageWriter<ScatterSpawned>,
) {
    let registry = &mut *registry;
    let mut finished = Vec::new();
    let mut count = 0;
    for (&key, placing) in registry.placing.iter_mut() {
        if count >= SPAWNS_PER_FRAME {
            break;
        }
        if placing.task.is_finished()
            && let Some(transforms) = check_ready(&mut placing.task)
        {
            count += transforms.len();
            finished.push((key, transforms));
        }
    }
    if !finished.is_empty() {
        registry.dirty = true;
    }
    for ((coord, index), transforms) in finished {
        let Some(placing) = registry.placing.remove(&(coord, index)) else {
            continue;
        };
        if chunks.chunk(coord).map(|c| c.entity) != Some(placing.chunk) {
            continue;
        }
        let name = placing.layer.name.clone();
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
            (coord, index),
            Placed {
                chunk: placing.chunk,
                instances: instances.clone(),
                generation: placing.generation,
                layer: placing.layer,
            },
        );
        if let Some(old) = old {
            despawn_instances(&mut commands, &parents, old.chunk, &old.instances);
        }
        spawned.write(ScatterSpawned {
            chunk: placing.chunk,
            coord,
            layer: name,
            instances,
        });
    }
}
