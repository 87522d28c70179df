//! Physics with real avian3d, headless: balls dropped on chunk interiors, borders and corners
//! come to rest on the ground and none falls through; the colliders are the sampler's heights
//! bit for bit and meet their neighbours exactly; they exist only near `TerrainColliderAnchor`
//! entities, whatever the viewers see; a body at 100 m/s always finds one where it arrives; a
//! config change swaps them without a step without ground.

use crate::common::run_until;
use avian3d::prelude::*;
use bevy::ecs::system::RunSystemOnce;
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_perlin_terrain::Collision;
use bevy_perlin_terrain::prelude::*;
use std::collections::HashSet;
use std::time::Instant;
use terrain_test_support::{HeadlessApp, PATIENCE};

/// 16 m chunks of 17 samples (1 m apart): many borders and corners in a small area.
fn config(height_scale: f32) -> TerrainConfig {
    TerrainConfig {
        seed: 5,
        height_scale,
        chunk_size: 16.0,
        chunk_resolution: 17,
        view_distance: 40.0,
        lod_distance: 80.0,
        ..TerrainConfig::default()
    }
}

/// A headless app with physics (one 64 Hz step per update after the first) and the terrain.
fn physics_app(config: TerrainConfig) -> App {
    HeadlessApp::new()
        .time(TimeUpdateStrategy::FixedTimesteps(1))
        .build((
            PhysicsPlugins::default(),
            PerlinTerrainPlugin::from_config(config),
        ))
}

/// Steps `app` at least `at_least` times, and on until `step` (run after each update with the
/// step's number: it checks what must hold at every step) has once returned true. False if that
/// did not happen within [`PATIENCE`]: a hang fails, by the caller's assertion, not a wait.
fn step_until(
    app: &mut App,
    at_least: usize,
    mut step: impl FnMut(&mut App, usize) -> bool,
) -> bool {
    let started = Instant::now();
    let mut done = false;
    for n in 0.. {
        if n >= at_least && done {
            break;
        }
        if started.elapsed() >= PATIENCE {
            eprintln!("not done after {n} steps ({PATIENCE:?})");
            return false;
        }
        app.update();
        done |= step(app, n);
    }
    true
}

fn sampler(app: &App) -> TerrainSampler {
    app.world().resource::<TerrainSampler>().clone()
}

/// A ball of radius `r` with ground under it, dropped from `drop` metres above the ground.
fn spawn_ball(app: &mut App, x: f32, z: f32, r: f32, drop: f32) -> Entity {
    spawn_ball_with(app, x, z, r, drop, LockedAxes::default())
}

/// A ball that does not turn: it slides, and friction holds it where it lands.
fn spawn_block(app: &mut App, x: f32, z: f32, r: f32, drop: f32) -> Entity {
    spawn_ball_with(app, x, z, r, drop, LockedAxes::ROTATION_LOCKED)
}

fn spawn_ball_with(app: &mut App, x: f32, z: f32, r: f32, drop: f32, locked: LockedAxes) -> Entity {
    let ground = sampler(app).height(x as f64, z as f64);
    app.world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::sphere(r),
            SweptCcd::LINEAR,
            Friction::new(0.8),
            AngularDamping(1.5),
            LinearDamping(0.2),
            TerrainColliderAnchor,
            Transform::from_xyz(x, ground + r + drop, z),
            locked,
        ))
        .id()
}

fn position(app: &App, e: Entity) -> Vec3 {
    app.world().get::<Position>(e).expect("a body").0
}

/// Height of a ball's centre above the ground under it, less what resting on the local plane
/// would give (`r / normal.y`): about 0 for a ball at rest on the ground.
fn rest_gap(sampler: &TerrainSampler, p: Vec3, r: f32) -> f32 {
    let (h, n) = sampler.height_and_normal(p.x as f64, p.z as f64);
    (p.y - h) - r / n.y
}

/// Steps until the terrain's colliders settle (tasks run in the background).
fn settle_colliders(app: &mut App) {
    run_until(app, "the colliders settle", |app| {
        app.world().resource::<ColliderRegistry>().is_settled()
    });
}

#[test]
fn balls_dropped_on_borders_and_corners_come_to_rest_on_the_ground() {
    // Gentle ground (slopes of a few degrees) and balls that cannot roll: friction holds each
    // where it lands, on a corner, an edge or inside a chunk.
    let mut app = physics_app(config(6.0));
    app.update();
    let r = 0.5;
    let mut balls = Vec::new();
    for j in -2..2 {
        for i in -2..2 {
            let (x, z) = (i as f32 * 16.0, j as f32 * 16.0);
            // A corner, the middle of two edges, and an interior point of each chunk.
            for (dx, dz) in [(0.0, 0.0), (8.0, 0.0), (0.0, 8.0), (9.3, 5.7)] {
                balls.push(spawn_block(&mut app, x + dx, z + dz, r, 1.5));
            }
        }
    }
    let sampler = sampler(&app);
    for step in 0..2000 {
        app.update();
        if step % 50 == 0 {
            for &ball in &balls {
                let p = position(&app, ball);
                let gap = rest_gap(&sampler, p, r);
                assert!(
                    gap > -0.03,
                    "step {step}: ball {ball} at {p} is {gap} m in the ground"
                );
            }
        }
    }
    let mut worst: f32 = 0.0;
    for &ball in &balls {
        let p = position(&app, ball);
        let gap = rest_gap(&sampler, p, r);
        let speed = app
            .world()
            .get::<LinearVelocity>(ball)
            .expect("velocity")
            .0
            .length();
        assert!(
            gap.abs() < 0.005,
            "ball at {p} rests {gap} m off the ground"
        );
        assert!(speed < 0.05, "ball at {p} still moves at {speed} m/s");
        worst = worst.max(gap.abs());
    }
    eprintln!("{} balls at rest, largest gap {worst:.4} m", balls.len());
}

#[test]
fn a_hundred_balls_on_hills_never_fall_through_over_three_thousand_steps() {
    let mut app = physics_app(config(40.0));
    app.update();
    let r = 0.4;
    let balls: Vec<Entity> = (0..100)
        .map(|k| {
            let (i, j) = (k % 10, k / 10);
            // Every 3.2 m: on chunk borders (multiples of 16) and in between.
            spawn_ball(
                &mut app,
                i as f32 * 3.2 - 16.0,
                j as f32 * 3.2 - 16.0,
                r,
                4.0,
            )
        })
        .collect();
    let sampler = sampler(&app);
    let mut lowest = f32::INFINITY;
    for step in 0..3000 {
        app.update();
        if step % 10 == 0 {
            for &ball in &balls {
                let p = position(&app, ball);
                let gap = rest_gap(&sampler, p, r);
                lowest = lowest.min(gap);
                assert!(
                    gap > -0.03,
                    "step {step}: ball at {p} is {gap} m in the ground"
                );
            }
        }
    }
    eprintln!("lowest gap over 3000 steps: {lowest:.4} m");
}

#[test]
fn colliders_are_the_sampler_heights_bit_for_bit_and_meet_their_neighbours() {
    let config = TerrainConfig {
        collision: Collision {
            radius: 20.0,
            resolution: None,
        },
        ..config(30.0)
    };
    let mut app = physics_app(config.clone());
    app.world_mut()
        .spawn((TerrainColliderAnchor, Transform::from_xyz(3.0, 0.0, -5.0)));
    settle_colliders(&mut app);
    app.update();
    let sampler = sampler(&app);
    let n = config.chunk_resolution as usize;
    let mut q = app
        .world_mut()
        .query::<(&TerrainColliderChunk, &Collider, &Position)>();
    let mut edges = std::collections::HashMap::new();
    let mut count = 0;
    for (chunk, collider, position) in q.iter(app.world()) {
        count += 1;
        let field = collider.shape().as_heightfield().expect("a heightfield");
        let heights = field.heights();
        // The chunk's samples and one more on every side, over the neighbours' first cells.
        let m = n + 2;
        assert_eq!((heights.nrows(), heights.ncols()), (m, m));
        let centre = (chunk.coord.as_vec2() + 0.5) * config.chunk_size;
        assert!(position.0.xz().distance(centre) < 1e-4, "{:?}", position.0);
        for iz in 0..m {
            for ix in 0..m {
                let [x, z] = config.vertex_position(chunk.coord, 0, 0, 0);
                let spacing = config.vertex_spacing(0);
                let (x, z) = (
                    x + (ix as f64 - 1.0) * spacing,
                    z + (iz as f64 - 1.0) * spacing,
                );
                let h = heights.data()[iz + ix * m];
                assert_eq!(
                    h.to_bits(),
                    sampler.height(x, z).to_bits(),
                    "chunk {} sample ({ix}, {iz})",
                    chunk.coord
                );
                if ix <= 2 || iz <= 2 || ix + 3 >= m || iz + 3 >= m {
                    // Every sample near the border, by its global position: neighbours agree.
                    let key = (x.to_bits(), z.to_bits());
                    if let Some(other) = edges.insert(key, h) {
                        assert_eq!(other, h, "step at ({x}, {z})");
                    }
                }
            }
        }
    }
    assert!(count >= 9, "{count} colliders");
    // And physics sees them there: rays straight down between the grid points hit the two
    // triangles per cell that the full-detail mesh draws between the sampler's heights. (Not
    // exactly on a grid line: parry's ray traversal can miss a heightfield along a cell edge.)
    let probes: Vec<Vec2> = (0..40)
        .map(|k| Vec2::new((k % 8) as f32 * 2.3 - 5.13, (k / 8) as f32 * 3.1 - 9.37))
        .collect();
    let hits = app
        .world_mut()
        .run_system_once(move |q: SpatialQuery| {
            probes
                .iter()
                .map(|p| {
                    let origin = Vec3::new(p.x, 100.0, p.y);
                    let hit = q.cast_ray(origin, Dir3::NEG_Y, 200.0, true, &default());
                    (*p, hit.map(|h| 100.0 - h.distance))
                })
                .collect::<Vec<_>>()
        })
        .expect("the query runs");
    let h = |x: f32, z: f32| sampler.height(x as f64, z as f64);
    for (p, hit) in hits {
        let (x0, z0) = (p.x.floor(), p.y.floor());
        let (u, v) = (p.x - x0, p.y - z0);
        // parry's split (and the mesh's): the diagonal from (x0, z0 + 1) to (x0 + 1, z0).
        let (h10, h01) = (h(x0 + 1.0, z0), h(x0, z0 + 1.0));
        let want = if u + v <= 1.0 {
            let h00 = h(x0, z0);
            h00 + u * (h10 - h00) + v * (h01 - h00)
        } else {
            let h11 = h(x0 + 1.0, z0 + 1.0);
            h11 + (1.0 - u) * (h01 - h11) + (1.0 - v) * (h10 - h11)
        };
        let got = hit.unwrap_or_else(|| panic!("no ground under {p}"));
        assert!((got - want).abs() < 1e-4, "at {p}: ray {got}, mesh {want}");
    }
}

#[test]
fn colliders_follow_collider_entities_not_viewers_and_are_freed() {
    let config = config(20.0);
    let mut app = physics_app(config.clone());
    // A viewer at the origin (chunks on screen there), a body far from it.
    app.world_mut()
        .spawn((TerrainViewer, Transform::from_xyz(0.0, 50.0, 0.0)));
    let body = app
        .world_mut()
        .spawn((
            TerrainColliderAnchor,
            Transform::from_xyz(500.0, 0.0, 300.0),
        ))
        .id();
    settle_colliders(&mut app);
    let near = |app: &App, at: Vec3| -> (usize, Vec<IVec2>) {
        let colliders = app.world().resource::<ColliderRegistry>();
        let coords: Vec<IVec2> = colliders.iter().map(|(c, _)| c).collect();
        let radius = config.collision.radius;
        let size = config.chunk_size;
        // Every chunk within the radius has one...
        let lo = ((at.xz() - radius) / size).floor().as_ivec2();
        let hi = ((at.xz() + radius) / size).floor().as_ivec2();
        let mut within = 0;
        for z in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                let c = IVec2::new(x, z);
                let min = c.as_vec2() * size;
                let d = (min - at.xz()).max(at.xz() - min - size).max(Vec2::ZERO);
                if d.length() <= radius {
                    within += 1;
                    assert!(colliders.get(c).is_some(), "chunk {c} near {at} has none");
                }
            }
        }
        // ...and none is further than the radius and a chunk.
        for c in &coords {
            let centre = (c.as_vec2() + 0.5) * size;
            assert!(
                centre.distance(at.xz()) <= radius + 1.5 * size,
                "collider {c} far from {at}"
            );
        }
        (within, coords)
    };
    let (within, first) = near(&app, Vec3::new(500.0, 0.0, 300.0));
    assert!(within >= 9, "{within}");
    // The viewer's chunks have none.
    assert!(
        app.world()
            .resource::<ColliderRegistry>()
            .get(IVec2::ZERO)
            .is_none()
    );
    // A game despawning one: nothing panics, it comes back.
    let victim = app.world().resource::<ColliderRegistry>().get(first[0]);
    app.world_mut().despawn(victim.expect("a collider entity"));
    settle_colliders(&mut app);
    assert!(
        app.world()
            .resource::<ColliderRegistry>()
            .get(first[0])
            .is_some()
    );
    // The body moves on: the old colliders go, new ones come.
    app.world_mut()
        .get_mut::<Transform>(body)
        .expect("body")
        .translation = Vec3::new(-900.0, 0.0, 40.0);
    settle_colliders(&mut app);
    let (_, second) = near(&app, Vec3::new(-900.0, 0.0, 40.0));
    let old: HashSet<IVec2> = first.into_iter().collect();
    assert!(second.iter().all(|c| !old.contains(c)));
    let mut q = app.world_mut().query::<&TerrainColliderChunk>();
    assert_eq!(q.iter(app.world()).count(), second.len());
    // No collider entity left at all once no entity wants them.
    app.world_mut()
        .entity_mut(body)
        .remove::<TerrainColliderAnchor>();
    settle_colliders(&mut app);
    app.update();
    let mut q = app.world_mut().query::<&TerrainColliderChunk>();
    assert_eq!(q.iter(app.world()).count(), 0);
    assert_eq!(app.world().resource::<ColliderRegistry>().count(), 0);
}

#[test]
fn a_body_at_a_hundred_metres_a_second_never_meets_a_missing_collider() {
    let config = config(20.0);
    let size = config.chunk_size;
    let mut app = physics_app(config);
    app.update();
    // Skimming the hills without gravity, diagonally across chunk rows and columns.
    let body = app
        .world_mut()
        .spawn((
            RigidBody::Dynamic,
            Collider::sphere(0.5),
            GravityScale(0.0),
            LinearVelocity(Vec3::new(100.0, 0.0, 37.0)),
            TerrainColliderAnchor,
            Transform::from_xyz(0.0, 60.0, 0.0),
        ))
        .id();
    let chunk_of = |p: Vec3| (p.xz() / size).floor().as_ivec2();
    let mut crossed = HashSet::new();
    for _ in 0..640 {
        // What is in place before the physics step...
        let before: HashSet<IVec2> = app
            .world()
            .resource::<ColliderRegistry>()
            .iter()
            .map(|(c, _)| c)
            .collect();
        app.update();
        // ...must hold the chunk the body reached in it.
        let p = position(&app, body);
        assert!(
            before.contains(&chunk_of(p)),
            "the body reached {p} (chunk {}) before its collider",
            chunk_of(p)
        );
        crossed.insert(chunk_of(p));
    }
    assert!(crossed.len() > 40, "{} chunks crossed", crossed.len());
}

#[test]
fn a_config_change_swaps_the_colliders_without_a_step_without_ground() {
    let mut app = physics_app(config(6.0));
    app.update();
    let r = 0.5;
    let balls: Vec<Entity> = [(0.0, 0.0), (16.0, 8.0), (-8.3, 16.0), (5.0, -11.0)]
        .into_iter()
        .map(|(x, z)| spawn_ball(&mut app, x, z, r, 0.5))
        .collect();
    for _ in 0..400 {
        app.update();
    }
    let rest: Vec<Vec3> = balls.iter().map(|&b| position(&app, b)).collect();
    let mut coarser = config(6.0);
    coarser.collision.resolution = Some(9);
    *app.world_mut().resource_mut::<TerrainConfigSource>() = TerrainConfigSource::Fixed(coarser);
    let chunk_of = |p: Vec3| (p.xz() / 16.0).floor().as_ivec2();
    // At least 300 steps, and on until the swap is done (time-boxed: a hang fails).
    let swapped = step_until(&mut app, 300, |app, step| {
        let world = app.world();
        let colliders = world.resource::<ColliderRegistry>();
        for (&ball, before) in balls.iter().zip(&rest) {
            let p = position(app, ball);
            let entity = colliders.get(chunk_of(p));
            assert!(
                entity.is_some_and(|e| world.get::<Collider>(e).is_some()),
                "step {step}: no collider under {p}"
            );
            assert!(
                (p.y - before.y).abs() < 0.1,
                "step {step}: ball moved from {before} to {p}"
            );
        }
        let resolution = colliders.iter().all(|(_, e)| {
            world
                .get::<Collider>(e)
                .and_then(|c| c.shape().as_heightfield().map(|h| h.heights().nrows()))
                == Some(9 + 2)
        });
        resolution && colliders.is_settled()
    });
    check_swapped(&app, swapped);

    // A new chunk size: the old colliders stay until every new one is in place.
    let mut bigger = config(6.0);
    bigger.collision.resolution = Some(9);
    bigger.chunk_size = 32.0;
    bigger.chunk_resolution = 33;
    bigger.lod_distance = 160.0;
    *app.world_mut().resource_mut::<TerrainConfigSource>() = TerrainConfigSource::Fixed(bigger);
    let retired = step_until(&mut app, 300, |app, step| {
        for (&ball, before) in balls.iter().zip(&rest) {
            let p = position(app, ball);
            assert!(
                (p.y - before.y).abs() < 0.1,
                "step {step}: ball moved from {before} to {p}"
            );
        }
        let mut q = app.world_mut().query::<&TerrainColliderChunk>();
        let entities = q.iter(app.world()).count();
        let colliders = app.world().resource::<ColliderRegistry>();
        colliders.is_settled() && entities == colliders.count()
    });
    assert!(retired, "the colliders of the old chunk size went");
    let colliders = app.world().resource::<ColliderRegistry>();
    for (coord, entity) in colliders.iter() {
        let position = app.world().get::<Position>(entity).expect("placed").0;
        let centre = (coord.as_vec2() + 0.5) * 32.0;
        assert!(
            position.xz().distance(centre) < 1e-3,
            "{coord} at {position}"
        );
    }
}

fn check_swapped(app: &App, swapped: bool) {
    let colliders = app.world().resource::<ColliderRegistry>();
    let rows: Vec<_> = colliders
        .iter()
        .map(|(_, e)| {
            app.world()
                .get::<Collider>(e)
                .and_then(|c| c.shape().as_heightfield().map(|h| h.heights().nrows()))
        })
        .collect();
    assert!(
        swapped,
        "the colliders were rebuilt at the new resolution: settled {}, rows {rows:?}, resolution {:?}",
        colliders.is_settled(),
        app.world()
            .resource::<ActiveTerrainConfig>()
            .config()
            .collision
    );
}

#[test]
fn removed_colliders_are_rebuilt_and_the_ball_stays_up() {
    let mut app = physics_app(config(6.0));
    app.update();
    let r = 0.5;
    let ball = spawn_ball(&mut app, 3.0, 4.0, r, 0.5);
    settle_colliders(&mut app);
    for _ in 0..200 {
        app.update();
    }
    let rest = position(&app, ball);
    app.world_mut().remove_resource::<ColliderRegistry>();
    for _ in 0..200 {
        app.update();
        let p = position(&app, ball);
        assert!(
            (p.y - rest.y).abs() < 0.1,
            "the ball moved from {rest} to {p}"
        );
    }
    settle_colliders(&mut app);
    let mut q = app.world_mut().query::<&TerrainColliderChunk>();
    let entities = q.iter(app.world()).count();
    assert_eq!(
        entities,
        app.world().resource::<ColliderRegistry>().count(),
        "no orphan"
    );
}

#[test]
fn a_ball_rests_on_a_stamped_site_and_the_colliders_follow_the_stamp() {
    // Hills 40 m high; a ball resting on the ground, then a flat site 6 m lower under it: the
    // collider is rebuilt and the ball drops onto the site and stays there. (It fell through
    // while parry's internal-edge fixing was on for a field with a level patch.)
    let mut app = physics_app(config(40.0));
    app.update();
    let r = 0.5;
    let (x, z) = (3.0, 4.0);
    let ground = sampler(&app).height(x as f64, z as f64);
    let ball = spawn_block(&mut app, x, z, r, 0.5);
    settle_colliders(&mut app);
    let site = ground - 6.0;
    app.world_mut().spawn((
        TerrainStamp {
            shape: StampShape::Circle { radius: 12.0 },
            falloff: 8.0,
            op: StampOp::Flatten,
            clear_scatter: false,
        },
        Transform::from_xyz(x, site, z),
    ));
    app.update();
    settle_colliders(&mut app);
    for _ in 0..600 {
        app.update();
    }
    let p = position(&app, ball);
    let sampler = sampler(&app);
    assert_eq!(sampler.height(x as f64, z as f64), site);
    assert!(
        (p.y - (site + r)).abs() < 0.01 && p.xz().distance(Vec2::new(x, z)) < 0.5,
        "the ball is at {p}, the site at {site}"
    );
}
