//! The collider systems: plan (retire, unload, cancel, schedule, build what is needed now) and
//! place finished colliders.

use super::plan::{LOOKAHEAD, URGENT_MARGIN, chunks_along, distance_to_chunk, near_any};
use super::{
    Built, ColliderJob, ColliderRegistry, Pending, TerrainColliderAnchor, TerrainColliderChunk,
    build_chunk_collider,
};
use crate::chunk::ChunkCoord;
use crate::config::TerrainConfig;
use crate::ground::{ActiveTerrainConfig, TerrainSampler, TerrainTables};
use crate::space::{RootFrame, RootQuery, current_affine};
use crate::stream::{ChunkRegistry, TerrainRoot};
use crate::tasks::{Job, Urgency};
use avian3d::prelude::{Collider, LinearVelocity, RigidBody};
use bevy::math::Vec3Swizzles;
use bevy::platform::collections::{HashMap, HashSet};
use bevy::prelude::*;

/// A game removed the [`ColliderRegistry`]: the colliders it knew go, and a new registry
/// builds them again (the bodies' ground first, at once).
pub(super) fn recover_registry(
    mut commands: Commands,
    ours: Query<Entity, With<TerrainColliderChunk>>,
) {
    crate::recover::rebuild(
        &mut commands,
        &ours,
        ColliderRegistry::new(),
        "ColliderRegistry",
    );
}

/// Run condition of [`plan_colliders`]: whether there is a body to follow, a collider to keep
/// or take away, or work the last plan left. Without bodies and colliders it is false and the
/// executor skips the planner.
pub(super) fn bodies_or_colliders(
    bodies: Query<(), With<TerrainColliderAnchor>>,
    colliders: Option<Res<ColliderRegistry>>,
    chunks: Option<Res<ChunkRegistry>>,
) -> bool {
    let (Some(colliders), Some(_)) = (colliders, chunks) else {
        return false;
    };
    !bodies.is_empty()
        || !colliders.built.is_empty()
        || !colliders.pending.is_empty()
        || colliders.dirty
        || !colliders.planned
}

/// Run condition of [`place_colliders`]: whether a collider is being built or an old one waits
/// to be retired.
pub(super) fn colliders_in_flight(
    colliders: Option<Res<ColliderRegistry>>,
    chunks: Option<Res<ChunkRegistry>>,
) -> bool {
    chunks.is_some() && colliders.is_some_and(|c| !c.pending.is_empty() || !c.retiring.is_empty())
}

/// Where the bodies are and where they are going (in the terrain root's space), which chunks
/// need colliders, and the work that follows: colliders of an old chunk size retire once the
/// new ones are in place, colliders no body is near go, tasks start for missing or outdated
/// colliders nearest first, and a collider missing on the path of the next two frames is built
/// at once on the main thread. While no body moves by a quarter of a chunk (or half the radius),
/// a frame costs a look at each body and no planning.
pub(super) fn plan_colliders(
    mut commands: Commands,
    bodies: Query<
        (
            Entity,
            &Transform,
            &GlobalTransform,
            Has<ChildOf>,
            Option<&LinearVelocity>,
        ),
        With<TerrainColliderAnchor>,
    >,
    roots: RootQuery<With<TerrainRoot>>,
    active: Option<Res<ActiveTerrainConfig>>,
    tables: Option<Res<TerrainTables>>,
    sampler: Option<Res<TerrainSampler>>,
    chunks: Res<ChunkRegistry>,
    time: Res<Time>,
    mut colliders: ResMut<ColliderRegistry>,
) {
    let (Some(active), Some(_), Some(sampler)) = (active, tables, sampler) else {
        return;
    };
    let config = active.config();
    let size = config.chunk_size;
    let colliders = &mut *colliders;
    if bodies.is_empty() && colliders.built.is_empty() && colliders.pending.is_empty() {
        colliders.wanted.clear();
        colliders.last_seen.clear();
        colliders.planned_for.clear();
        colliders.planned = true;
        // Nothing to rebuild where the ground changed: no collider, no body.
        colliders.dirty = false;
        return;
    }

    let reshaped = colliders.follow_shape(config, &sampler);

    // Bodies in the terrain's space, each swept from where it is to where it will be.
    let Some(frame) = RootFrame::try_of(chunks.root(), &roots) else {
        return;
    };
    let dt = time.delta_secs();
    let radius = config.collision.radius;
    let mut paths = Vec::with_capacity(bodies.iter().len());
    let mut urgent_paths = Vec::with_capacity(paths.capacity());
    let mut seen = HashMap::default();
    for (entity, local, global, parented, velocity) in &bodies {
        let exact = frame.to_root(current_affine((local, global, parented)).translation.into());
        if !exact.is_finite() {
            continue;
        }
        let p = exact.as_vec3();
        // The faster of its velocity and how it moved since the last frame: a kinematic body
        // moved by its transform has a `LinearVelocity` of zero.
        let moved = match colliders.last_seen.get(&entity) {
            Some(&last) if dt > 0.0 => ((exact - last) / f64::from(dt)).as_vec3(),
            _ => Vec3::ZERO,
        };
        let velocity = velocity.map_or(Vec3::ZERO, |v| frame.vector_to_root(v.0));
        let v = if moved.length_squared() > velocity.length_squared() {
            moved
        } else {
            velocity
        };
        let v = if v.is_finite() { v } else { Vec3::ZERO };
        seen.insert(entity, exact);
        // Sweeps are bounded: a body that blew up to absurd speeds does not ask for the world.
        let ahead = (v * LOOKAHEAD).clamp_length_max(radius + 2.0 * size);
        // The next two frames (at least two 30 Hz frames).
        let next = (v * 2.0 * dt.max(1.0 / 30.0)).clamp_length_max(size);
        paths.push((entity, [p, p + ahead]));
        urgent_paths.push([p, p + next]);
    }
    colliders.last_seen = seen;
    paths.sort_unstable_by_key(|(entity, _)| *entity);

    // Replan when a body (or where it is heading) moved horizontally by a quarter of a chunk, or
    // half the radius if that is less.
    let threshold = (0.25 * size).min(0.5 * radius).max(0.5);
    let moved = paths.len() != colliders.planned_for.len()
        || paths
            .iter()
            .zip(&colliders.planned_for)
            .any(|((e, a), (f, b))| {
                e != f
                    || a[0]
                        .xz()
                        .distance(b[0].xz())
                        .max(a[1].xz().distance(b[1].xz()))
                        > threshold
            });
    let first = !colliders.planned;
    if !(moved || reshaped || colliders.dirty || first) {
        return;
    }
    colliders.planned = true;
    colliders.dirty = false;
    colliders.planned_for.clone_from(&paths);
    let paths: Vec<[Vec3; 2]> = paths.into_iter().map(|(_, path)| path).collect();

    let mut wanted = HashSet::default();
    for &[from, to] in &paths {
        chunks_along(from, to, radius, size, &mut wanted);
    }
    let mut urgent = HashSet::default();
    for &[from, to] in &urgent_paths {
        chunks_along(from, to, radius.min(URGENT_MARGIN), size, &mut urgent);
    }

    // Colliders stay until a chunk beyond the radius: no churn at the edge.
    let keep = radius + size;
    let generation = colliders.generation;
    colliders.built.retain(|&coord, built| {
        // Outdated ones that nobody wants are not rebuilt: they go.
        let stays = wanted.contains(&coord)
            || (built.generation == generation && near_any(&paths, coord, size, keep));
        if !stays {
            commands.entity(built.entity).try_despawn();
        }
        stays
    });
    colliders
        .pending
        .retain(|coord, task| task.generation == generation && wanted.contains(coord));

    // What is missing or outdated: missing first, then nearest.
    let mut jobs = Vec::new();
    for &coord in &wanted {
        let outdated = colliders
            .built
            .get(&coord)
            .is_none_or(|b| b.generation != generation);
        if !outdated || colliders.pending.get(&coord).is_some() {
            continue;
        }
        let distance = paths
            .iter()
            .map(|[p, _]| distance_to_chunk(p.xz(), coord, size))
            .fold(f32::INFINITY, f32::min);
        let job = ColliderJob::on_ground(&sampler, config, coord);
        let work = job.clone();
        jobs.push(Job {
            key: coord,
            meta: Pending { job, generation },
            urgency: Urgency {
                hole: !colliders.built.contains_key(&coord),
                distance,
            },
            work: move || build_chunk_collider(&work),
        });
    }
    colliders.dirty = colliders
        .pending
        .start(jobs, config.max_tasks_in_flight as usize);

    colliders.wanted = wanted;

    // Where a body arrives within two frames there must be ground now: an outdated collider
    // will do until its replacement comes; a missing one is built here and now.
    let Some(root) = chunks.root() else { return };
    build_now(
        &mut commands,
        colliders,
        (root, &frame),
        &sampler,
        config,
        urgent,
    );
}

/// A body that just got [`TerrainColliderAnchor`] has ground before the next physics step, even if
/// the game spawned it after this frame's plan (or between two updates): the chunks within a
/// few metres of it are built at once, on the main thread. The next plan takes over.
pub(super) fn ground_new_body(
    add: On<Add, TerrainColliderAnchor>,
    mut commands: Commands,
    bodies: Query<(&Transform, &GlobalTransform, Has<ChildOf>)>,
    roots: RootQuery<With<TerrainRoot>>,
    active: Option<Res<ActiveTerrainConfig>>,
    tables: Option<Res<TerrainTables>>,
    sampler: Option<Res<TerrainSampler>>,
    chunks: Option<Res<ChunkRegistry>>,
    colliders: Option<ResMut<ColliderRegistry>>,
) {
    let root = chunks.and_then(|c| c.root());
    let (Some(active), Some(_), Some(sampler), Some(root), Some(mut colliders)) =
        (active, tables, sampler, root, colliders)
    else {
        return;
    };
    let Ok(body) = bodies.get(add.entity) else {
        return;
    };
    let colliders = &mut *colliders;
    colliders.dirty = true;
    if body.2 {
        // A child spawned this frame has no `GlobalTransform` yet: the next plan places it.
        return;
    }
    let config = active.config();
    colliders.follow_shape(config, &sampler);
    let Some(frame) = RootFrame::try_of(Some(root), &roots) else {
        return;
    };
    let p = frame
        .to_root(current_affine(body).translation.into())
        .as_vec3();
    let mut near = HashSet::default();
    chunks_along(
        p,
        p,
        config.collision.radius.min(URGENT_MARGIN),
        config.chunk_size,
        &mut near,
    );
    build_now(
        &mut commands,
        colliders,
        (root, &frame),
        &sampler,
        config,
        near,
    );
}

/// Builds the colliders of `coords` that have none, here and now (taking over their tasks).
fn build_now(
    commands: &mut Commands,
    colliders: &mut ColliderRegistry,
    root: (Entity, &RootFrame),
    sampler: &TerrainSampler,
    config: &TerrainConfig,
    coords: HashSet<ChunkCoord>,
) {
    let generation = colliders.generation;
    for coord in coords {
        if colliders.built.contains_key(&coord) {
            continue;
        }
        let job = match colliders.pending.cancel(&coord) {
            Some(pending) if pending.generation == generation => pending.job,
            _ => ColliderJob::on_ground(sampler, config, coord),
        };
        if let Some(collider) = build_chunk_collider(&job) {
            place(commands, colliders, root, &job, collider, generation);
        }
    }
}

/// Puts the finished colliders in place (replacing outdated ones on the same entity, so there
/// is no step without ground), and despawns the colliders of an old chunk size once every wanted
/// chunk has its new one.
pub(super) fn place_colliders(
    mut commands: Commands,
    chunks: Res<ChunkRegistry>,
    roots: RootQuery<With<TerrainRoot>>,
    mut colliders: ResMut<ColliderRegistry>,
) {
    let colliders = &mut *colliders;
    let Some(root) = chunks.root() else { return };
    let Some(frame) = RootFrame::try_of(Some(root), &roots) else {
        return;
    };
    let finished = colliders.pending.finished(usize::MAX);
    if !finished.is_empty() {
        // Task slots freed up for chunks that may be waiting.
        colliders.dirty = true;
    }
    for (_, pending, collider) in finished {
        if let Some(collider) = collider {
            place(
                &mut commands,
                colliders,
                (root, &frame),
                &pending.job,
                collider,
                pending.generation,
            );
        }
    }
    let generation = colliders.generation;
    let complete = colliders.pending.is_empty()
        && colliders.wanted.iter().all(|coord| {
            colliders
                .built
                .get(coord)
                .is_some_and(|b| b.generation == generation)
        });
    if complete {
        for entity in colliders.retiring.drain(..) {
            commands.entity(entity).try_despawn();
        }
    }
}

/// Puts `collider` for `job`'s chunk in place: on the chunk's collider entity if it has one,
/// else on a new child of `root`.
fn place(
    commands: &mut Commands,
    colliders: &mut ColliderRegistry,
    (root, frame): (Entity, &RootFrame),
    job: &ColliderJob,
    collider: Collider,
    generation: u64,
) {
    let coord = job.coord();
    let at = frame.place(job.translation());
    if let Some(built) = colliders.built.get_mut(&coord) {
        let mut entity = commands.entity(built.entity);
        entity.try_insert(collider);
        at.insert(&mut entity);
        built.generation = generation;
        return;
    }
    let entity = at
        .spawn(
            commands,
            (
                Name::new(format!("terrain collider {coord}")),
                TerrainColliderChunk { coord },
                RigidBody::Static,
                collider,
                ChildOf(root),
            ),
        )
        .id();
    colliders.built.insert(coord, Built { entity, generation });
}
