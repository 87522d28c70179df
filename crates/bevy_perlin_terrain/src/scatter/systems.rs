//! The scatter systems: plan (which cells carry which layers, placements for the missing ones)
//! and spawn (finished placements into instance entities).

use super::{
    Batch, Placed, Placing, ScatterCell, ScatterGround, ScatterInstance, ScatterJob,
    ScatterRegistry, ScatterSpawned, ScatterVisual, ScatterVisuals, place_scatter,
};
use crate::chunk::ChunkCoord;
use crate::config::REPLAN;
use crate::ground::{ActiveTerrainConfig, TerrainSampler, TerrainTables};
use crate::space::{RootFrame, RootQuery, cells_around, distance_to_square};
use crate::stream::ChunkRegistry;
use crate::stream::TerrainRoot;
use crate::tasks::{Job, Urgency};
use bevy::math::{DVec3, IVec2};
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use std::sync::Arc;

/// The most instances spawned in one frame (at least one whole batch is).
const SPAWNS_PER_FRAME: usize = 20_000;

/// Despawns `instances` that are still children of `cell` (one a game took, reparenting it, is
/// the game's).
fn despawn_instances(
    commands: &mut Commands,
    parents: &Query<&ChildOf, With<ScatterInstance>>,
    cell: Entity,
    instances: &[Entity],
) {
    for &e in instances {
        if parents.get(e).is_ok_and(|p| p.parent() == cell) {
            commands.entity(e).try_despawn();
        }
    }
}

/// A game removed the [`ScatterRegistry`]: the cells it knew go, with their instances, and a new
/// registry places them again.
pub(super) fn recover_registry(mut commands: Commands, ours: Query<Entity, With<ScatterCell>>) {
    crate::recover::rebuild(
        &mut commands,
        &ours,
        ScatterRegistry::new(),
        "ScatterRegistry",
    );
}

/// Run condition of [`plan_scatter`]: whether the chunks (and with them the viewers), the
/// config or the tables changed since the last frame, or the last plan left work undone. On an
/// idle frame it is false and the executor skips the planner without starting a task for it.
pub(super) fn scatter_planning_needed(
    registry: Option<Res<ScatterRegistry>>,
    chunks: Option<Res<ChunkRegistry>>,
    active: Option<Res<ActiveTerrainConfig>>,
    tables: Option<Res<TerrainTables>>,
) -> bool {
    let (Some(registry), Some(chunks)) = (registry, chunks) else {
        return false;
    };
    !registry.planned
        || registry.dirty
        || chunks.is_changed()
        || active.is_some_and(|a| a.is_changed())
        || tables.is_some_and(|t| t.is_changed())
}

/// Run condition of [`spawn_scatter`]: whether any placement is being computed.
pub(super) fn placements_in_flight(
    registry: Option<Res<ScatterRegistry>>,
    chunks: Option<Res<ChunkRegistry>>,
) -> bool {
    chunks.is_some() && registry.is_some_and(|r| !r.placing.is_empty())
}

/// The batches the viewers want: for each layer, the cells within its view distance of a
/// viewer, with their distance to the nearest.
fn wanted_batches(
    viewers: &[DVec3],
    layers: &[crate::config::ScatterLayer],
    size: f32,
) -> HashMap<Batch, f32> {
    let mut wanted = HashMap::default();
    let size = size as f64;
    for (index, layer) in layers.iter().enumerate() {
        let reach = layer.view_distance as f64;
        for v in viewers {
            let at = v.xz();
            let Some((low, high)) = cells_around(at, reach, size) else {
                continue;
            };
            for z in low.y..=high.y {
                for x in low.x..=high.x {
                    let coord = IVec2::new(x, z);
                    let d = distance_to_square(at, coord.as_dvec2() * size, size);
                    if d <= reach {
                        let nearest = wanted.entry((coord, index)).or_insert(f32::INFINITY);
                        *nearest = nearest.min(d as f32);
                    }
                }
            }
        }
    }
    wanted
}

/// Plans when something it depends on changed (the viewers by a quarter of a chunk, the
/// scatter layers, the ground, the root): despawns batches beyond their layer's view distance
/// (plus half a cell) and cells left empty, and starts placement tasks for the wanted batches
/// that lack an up-to-date one, nearest first. A batch stays on screen until its replacement
/// is ready.
pub(super) fn plan_scatter(
    mut commands: Commands,
    active: Option<Res<ActiveTerrainConfig>>,
    tables: Option<Res<TerrainTables>>,
    sampler: Option<Res<TerrainSampler>>,
    chunks: Res<ChunkRegistry>,
    parents: Query<&ChildOf, With<ScatterInstance>>,
    mut registry: ResMut<ScatterRegistry>,
    mut last_viewers: Local<Vec<DVec3>>,
) {
    let (Some(active), Some(tables), Some(sampler)) = (active, tables, sampler) else {
        return;
    };
    let config = active.config();
    let ground = ScatterGround {
        seed: tables.seed(),
        ground: sampler.ground_recipe().clone(),
        chunk_size: config.chunk_size,
        chunk_resolution: config.chunk_resolution,
        sea_level: config.sea_level,
    };
    let size = config.chunk_size;
    let viewers = chunks.viewer_positions();
    let moved = viewers.len() != last_viewers.len()
        || viewers
            .iter()
            .zip(last_viewers.iter())
            .any(|(a, b)| a.xz().distance(b.xz()) > f64::from(REPLAN as f32 * size));
    let regrounded = registry.ground.as_ref() != Some(&ground);
    let rerooted = registry.root != chunks.root();
    if registry.planned
        && !(regrounded || active.is_changed() || moved || rerooted || registry.dirty)
    {
        return;
    }
    let registry = &mut *registry;
    if regrounded {
        registry.ground = Some(ground);
        registry.generation += 1;
    }
    // A new root: the cells went with the old one (their hooks forgot them).
    registry.root = chunks.root();
    registry.planned = true;
    registry.dirty = false;
    last_viewers.clear();
    last_viewers.extend_from_slice(viewers);

    let wanted = wanted_batches(viewers, &config.scatter, size);
    let far = |coord: ChunkCoord, index: usize| {
        let keep = config
            .scatter
            .get(index)
            .map_or(-1.0, |l| (l.view_distance + 0.5 * size) as f64);
        let square = (coord.as_dvec2() * size as f64, size as f64);
        !viewers
            .iter()
            .any(|v| distance_to_square(v.xz(), square.0, square.1) <= keep)
    };
    let cells = &registry.cells;
    registry.placed.retain(|&(coord, index), placed| {
        let goes = far(coord, index);
        if goes && let Some(&cell) = cells.get(&coord) {
            despawn_instances(&mut commands, &parents, cell, &placed.instances);
        }
        !goes
    });
    // Cells with nothing left in them or on the way go.
    let placed = &registry.placed;
    registry.cells.retain(|coord, &mut cell| {
        let used = (0..config.scatter.len())
            .any(|i| placed.contains_key(&(*coord, i)) || wanted.contains_key(&(*coord, i)));
        if !used {
            commands.entity(cell).try_despawn();
        }
        used
    });

    let generation = registry.generation;
    let current = |g: u64, layer: &crate::config::ScatterLayer, index: usize| {
        g == generation && config.scatter.get(index) == Some(layer)
    };
    registry.placing.retain(|&(coord, index), p| {
        current(p.generation, &p.layer, index) && wanted.contains_key(&(coord, index))
    });
    let mut jobs = Vec::new();
    for (&(coord, index), &distance) in &wanted {
        let done = registry
            .placed
            .get(&(coord, index))
            .is_some_and(|p| current(p.generation, &p.layer, index));
        if done || registry.placing.get(&(coord, index)).is_some() {
            continue;
        }
        let Some(job) = ScatterJob::new(sampler.clone(), config, index, coord) else {
            continue;
        };
        jobs.push(Job {
            key: (coord, index),
            meta: Placing {
                generation,
                layer: config.scatter[index].clone(),
            },
            urgency: Urgency {
                hole: false,
                distance,
            },
            work: move || place_scatter(&job),
        });
    }
    registry.dirty = registry
        .placing
        .start(jobs, config.max_tasks_in_flight as usize);
    registry.wanted = wanted.into_keys().collect();
}

/// Turns finished placements into instance entities under their cell (whole batches, up to
/// [`SPAWNS_PER_FRAME`] instances a frame), with the visual registered for their layer; a batch
/// of an edited layer or new ground replaces the old one in the same frame. A batch no longer
/// wanted is dropped.
pub(super) fn spawn_scatter(
    mut commands: Commands,
    visuals: Res<ScatterVisuals>,
    active: Option<Res<ActiveTerrainConfig>>,
    chunks: Res<ChunkRegistry>,
    roots: RootQuery<With<TerrainRoot>>,
    parents: Query<&ChildOf, With<ScatterInstance>>,
    mut registry: ResMut<ScatterRegistry>,
    mut spawned: MessageWriter<ScatterSpawned>,
    #[cfg(feature = "render")] twins: Option<Res<crate::render::ScatterMaterials>>,
) {
    let (Some(active), Some(root)) = (active, chunks.root()) else {
        return;
    };
    let config = active.config();
    let size = config.chunk_size;
    let Some(frame) = RootFrame::try_of(Some(root), &roots) else {
        return;
    };
    let registry = &mut *registry;
    let finished = registry
        .placing
        .finished_within(SPAWNS_PER_FRAME, |transforms| transforms.len());
    for ((coord, index), placing, transforms) in finished {
        let current = placing.generation == registry.generation
            && config.scatter.get(index) == Some(&placing.layer)
            && registry.wanted.contains(&(coord, index));
        if !current {
            registry.dirty = true;
            continue;
        }
        let cell = *registry.cells.entry(coord).or_insert_with(|| {
            let corner = coord.as_dvec2() * f64::from(size);
            frame
                .place(DVec3::new(corner.x, 0.0, corner.y))
                .spawn(
                    &mut commands,
                    (
                        Name::new(format!("scatter cell {coord}")),
                        ScatterCell { coord },
                        ChildOf(root),
                    ),
                )
                .id()
        });
        let name: Arc<str> = Arc::from(placing.layer.name.as_str());
        let visual = visuals.get(&name);
        let instances: Vec<Entity> = transforms
            .into_iter()
            .map(|transform| {
                let mut e = commands.spawn((
                    ScatterInstance {
                        layer: name.clone(),
                    },
                    transform,
                    ChildOf(cell),
                ));
                match visual {
                    #[cfg(feature = "render")]
                    Some(ScatterVisual::Mesh { mesh, material }) => {
                        // Under the clouds' shade once the material has its twin.
                        match twins.as_ref().and_then(|t| t.twin(material)) {
                            Some(twin) => {
                                e.insert((Mesh3d(mesh.clone()), MeshMaterial3d(twin.clone())))
                            }
                            None => {
                                e.insert((Mesh3d(mesh.clone()), MeshMaterial3d(material.clone())))
                            }
                        };
                    }
                    Some(ScatterVisual::Custom(spawn)) => spawn(&mut e),
                    None => {}
                }
                e.id()
            })
            .collect();
        let old = registry.placed.insert(
            (coord, index),
            Placed {
                instances: instances.clone(),
                generation: placing.generation,
                layer: placing.layer,
            },
        );
        if let Some(old) = old {
            despawn_instances(&mut commands, &parents, cell, &old.instances);
        }
        spawned.write(ScatterSpawned {
            cell,
            coord,
            layer: name,
            instances,
        });
    }
}
