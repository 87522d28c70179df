//! Walk over the terrain with avian3d physics: a capsule that collides with the terrain's
//! heightfield colliders, balls that roll down into the valleys, and crates that float on the
//! nearest water, bobbing with its waves (buoyancy from `TerrainSampler::water_height`).
//!
//! ```sh
//! cargo run --release --example walk
//! ```
//!
//! WASD walk, Space jump, Shift run, right mouse button (or the arrow keys) turns the camera,
//! B drops 100 balls ahead of you. A road ([`TerrainPath`]) runs ahead of you over the hills for
//! two kilometres: flat across, with gentle grades, cut into the hills and filled over the
//! hollows, trees cleared. A crater breaks it 30 m ahead, and four walkers coming down the road
//! ([`TerrainAgent`]s on the navigation around you, a [`TerrainNavigator`]) keep following
//! you, around the crater and along the road.
//!
//! Screenshot mode: `TERRAIN_SCREENSHOT=out.png` (and optionally `TERRAIN_PRESET=alps`) walks a
//! few steps, drops the balls, lets them roll, saves the window and exits (see `fly`).

use avian3d::prelude::*;
use bevy::input::mouse::AccumulatedMouseMotion;
use bevy::prelude::*;
use bevy::transform::TransformSystems;
use bevy::window::WindowResolution;
use bevy_perlin_terrain::prelude::*;
use followers::{
    CRATER_AHEAD, FOLLOWER_HALF_HEIGHT, FollowerAssets, follow_the_walker, spawn_followers,
};
use support::{ScreenshotPlugin, ScreenshotRun};

mod followers;
#[path = "../support/mod.rs"]
mod support;

/// The capsule: radius and the length of its straight part.
const RADIUS: f32 = 0.4;
const LENGTH: f32 = 1.0;
const WALK_SPEED: f32 = 6.0;
const RUN_SPEED: f32 = 14.0;
const JUMP_SPEED: f32 = 7.0;
const GRAVITY: f32 = 20.0;
/// Ground steeper than this (the normal's `y`) is a wall, not a floor.
const FLOOR_NORMAL_Y: f32 = 0.6;
const BALL_RADIUS: f32 = 0.35;

/// The walking character: a kinematic capsule moved by [`MoveAndSlide`].
#[derive(Component, Default)]
struct Walker {
    velocity: Vec3,
    grounded: bool,
}

/// What the keys ask for this frame, read in `Update` and used by the fixed-step movement.
#[derive(Resource, Default)]
struct WalkInput {
    /// Wanted horizontal velocity (world space).
    wish: Vec3,
    jump: bool,
}

/// The camera's heading around the walker.
#[derive(Resource)]
struct CameraYaw(f32);

/// The shared look of the balls.
#[derive(Resource)]
struct BallAssets {
    mesh: Handle<Mesh>,
    materials: Vec<Handle<StandardMaterial>>,
}

fn main() -> AppExit {
    let screenshot = support::screenshot_path();
    let preset = std::env::var("TERRAIN_PRESET").unwrap_or_else(|_| "default".into());
    let mut app = App::new();
    app.add_plugins((
        DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "bevy_perlin_terrain: walk".into(),
                resolution: WindowResolution::new(1280, 720),
                ..default()
            }),
            ..default()
        }),
        PhysicsPlugins::default(),
        PerlinTerrainPlugin::from_asset(format!("terrain/{preset}.terrain.ron")),
    ))
    .add_plugins(support::sky::SkyPlugin)
    .insert_resource(GlobalAmbientLight {
        color: Color::srgb(0.75, 0.82, 1.0),
        brightness: 1500.0,
        ..default()
    })
    .init_resource::<WalkInput>()
    .insert_resource(CameraYaw(0.0))
    .add_systems(Startup, (setup, support::scatter_looks))
    .add_systems(
        Update,
        (place_on_ground, read_input, drop_balls_on_key).before(TerrainSystems::Config),
    )
    .add_systems(
        Update,
        launch_crates.run_if(not(resource_exists::<CratesLaunched>)),
    )
    .add_systems(FixedUpdate, float_on_water)
    .add_systems(Update, follow_the_walker.before(TerrainSystems::Navigation))
    .add_systems(Update, solid_trees)
    .add_systems(FixedUpdate, walk)
    .add_systems(
        PostUpdate,
        follow_walker.before(TransformSystems::Propagate),
    );
    if let Some(path) = screenshot {
        app.add_plugins(ScreenshotPlugin { path })
            .add_systems(Startup, |mut run: ResMut<ScreenshotRun>| run.hold = true)
            .add_systems(Update, walk_script.after(read_input));
    }
    app.run()
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    screenshot: Option<Res<ScreenshotRun>>,
) {
    // Hidden until the terrain's sampler puts it on the ground.
    commands.spawn((
        Name::new("walker"),
        Walker::default(),
        RigidBody::Kinematic,
        // Moved by move-and-slide only, not by the integrator.
        CustomPositionIntegration,
        Collider::capsule(RADIUS, LENGTH),
        TerrainColliderAnchor,
        // The navigation tiles around the walker, for the followers.
        TerrainNavigator::default(),
        Mesh3d(meshes.add(Capsule3d::new(RADIUS, LENGTH))),
        MeshMaterial3d(materials.add(Color::srgb(0.85, 0.3, 0.2))),
        Transform::from_xyz(0.0, 0.0, 0.0),
        Visibility::Hidden,
    ));
    let mut camera = commands.spawn((
        Camera3d::default(),
        TerrainViewer,
        Transform::from_xyz(0.0, 10.0, 10.0),
    ));
    if screenshot.is_some() {
        camera.insert(Msaa::Off);
    } else {
        camera.insert(support::anti_aliasing());
    }
    camera.insert(support::occlusion_culling());
    commands.spawn(support::sky::sun(30.0, 600.0));
    commands.insert_resource(FollowerAssets {
        mesh: meshes.add(Capsule3d::new(0.3, 2.0 * FOLLOWER_HALF_HEIGHT - 0.6)),
        materials: [
            (0.2, 0.45, 0.85),
            (0.95, 0.75, 0.2),
            (0.3, 0.7, 0.35),
            (0.6, 0.35, 0.75),
        ]
        .map(|(r, g, b)| materials.add(Color::srgb(r, g, b)))
        .to_vec(),
    });
    let materials = (0..8)
        .map(|k| materials.add(Color::hsl(k as f32 * 45.0, 0.75, 0.55)))
        .collect();
    commands.insert_resource(BallAssets {
        mesh: meshes.add(Sphere::new(BALL_RADIUS)),
        materials,
    });
    commands.spawn((
        Text::new(
            "WASD walk | Space jump | Shift run | right mouse or arrows turn | B drop 100 balls",
        ),
        TextFont::from_font_size(15.0),
        Node {
            position_type: PositionType::Absolute,
            top: Val::Px(10.0),
            left: Val::Px(12.0),
            ..default()
        },
    ));
}

/// Marks that the crates are on the water (or that there is none near).
#[derive(Resource)]
struct CratesLaunched;

/// A crate that floats: a cube `half` metres from its centre to each face.
#[derive(Component)]
struct Floating {
    half: f32,
}

/// Kilograms per cubic metre: the crates', and the water's.
const CRATE_DENSITY: f32 = 450.0;
const WATER_DENSITY: f32 = 1000.0;

/// Puts six crates on the nearest water at least 2 m deep within 1.5 km of the start (none if
/// there is none), a metre over its surface, once the terrain's sampler exists.
fn launch_crates(
    mut commands: Commands,
    sampler: Option<Res<TerrainSampler>>,
    clock: Res<TerrainClock>,
    active: Option<Res<ActiveTerrainConfig>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let (Some(sampler), Some(active)) = (sampler, active) else {
        return;
    };
    commands.insert_resource(CratesLaunched);
    let sea = active.config().sea_level;
    let deep = |p: Vec2| sampler.height(f64::from(p.x), f64::from(p.y)) < sea - 2.0;
    let Some(water) = (1..150)
        .flat_map(|ring| (0..24).map(move |k| (ring, k)))
        .map(|(ring, k)| {
            Vec2::from_angle(k as f32 * std::f32::consts::TAU / 24.0) * ring as f32 * 10.0
        })
        .find(|&p| deep(p))
    else {
        return;
    };
    info!(
        "six crates on the water at ({:.0}, {:.0})",
        water.x, water.y
    );
    let half = 0.6;
    let mesh = meshes.add(Cuboid::from_length(2.0 * half));
    let wood = materials.add(Color::srgb(0.55, 0.38, 0.2));
    for k in 0..6 {
        let p = water + Vec2::new((k % 3) as f32 * 4.0, (k / 3) as f32 * 4.0);
        let Some(surface) = sampler.water_height(f64::from(p.x), f64::from(p.y), clock.seconds)
        else {
            return;
        };
        commands.spawn((
            Name::new("crate"),
            Floating { half },
            RigidBody::Dynamic,
            Collider::cuboid(2.0 * half, 2.0 * half, 2.0 * half),
            ColliderDensity(CRATE_DENSITY),
            LinearDamping(0.3),
            AngularDamping(0.6),
            TerrainColliderAnchor,
            Mesh3d(mesh.clone()),
            MeshMaterial3d(wood.clone()),
            Transform::from_xyz(p.x, surface + 1.0, p.y)
                .with_rotation(Quat::from_rotation_y(k as f32 * 0.7)),
        ));
    }
}

/// Buoyancy: each floating crate's four quarters are pushed up by the weight of the water they
/// displace below the sea's surface there and then (`water_height` at the quarter's centre,
/// at the [`TerrainClock`]'s time), at the quarter's centre, so a crate rides and tilts with the
/// waves; the water drags on what is in it.
fn float_on_water(
    sampler: Option<Res<TerrainSampler>>,
    clock: Res<TerrainClock>,
    gravity: Res<Gravity>,
    mut crates: Query<(Forces, &GlobalTransform, &Floating)>,
    mut steps: Local<u32>,
) {
    let Some(sampler) = sampler else { return };
    *steps += 1;
    for (mut forces, at, floating) in &mut crates {
        let h = floating.half;
        let mut submerged = 0.0;
        for (dx, dz) in [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)] {
            let quarter = at.transform_point(Vec3::new(dx * h, 0.0, dz * h));
            let Some(surface) =
                sampler.water_height(f64::from(quarter.x), f64::from(quarter.z), clock.seconds)
            else {
                continue;
            };
            // The quarter's column of crate under the surface, bottom at `y − half`.
            let depth = (surface - (quarter.y - h)).clamp(0.0, 2.0 * h);
            let volume = depth * h * h;
            submerged += depth / (2.0 * h) / 4.0;
            let lift = -gravity.0 * WATER_DENSITY * volume;
            forces.apply_force_at_point(lift, quarter);
        }
        if steps.is_multiple_of(128) {
            let surface = sampler.water_height(
                f64::from(at.translation().x),
                f64::from(at.translation().z),
                clock.seconds,
            );
            debug!(
                "crate centre {:.2} m over the water",
                surface.map_or(f32::NAN, |s| at.translation().y - s)
            );
        }
        let velocity = forces.linear_velocity();
        let mass = CRATE_DENSITY * 8.0 * h * h * h;
        forces.apply_force(-velocity * 1.5 * mass * submerged);
    }
}

/// Puts the walker on the ground once the terrain exists (the sampler knows the height before
/// any chunk is built), on dry land.
fn place_on_ground(
    mut commands: Commands,
    follower: Res<FollowerAssets>,
    sampler: Option<Res<TerrainSampler>>,
    active: Option<Res<ActiveTerrainConfig>>,
    mut walker: Single<(&mut Transform, &mut Visibility), With<Walker>>,
    mut placed: Local<bool>,
) {
    let (Some(sampler), Some(active), false) = (sampler, active, *placed) else {
        return;
    };
    // Walk east until above the sea.
    let sea = active.config().sea_level;
    let x = (0..400)
        .map(|k| k as f32 * 8.0)
        .find(|&x| sampler.height(x as f64, 0.0) > sea + 2.0)
        .unwrap_or(0.0);
    let ground = sampler.height(x as f64, 0.0);
    commands.spawn((Name::new("road"), road(&sampler, x, ground, sea)));
    // A crater across the road ahead, and the followers beyond it.
    commands.spawn((
        Name::new("crater"),
        TerrainStamp {
            shape: StampShape::Circle { radius: 7.0 },
            falloff: 5.0,
            op: StampOp::Crater { depth: 6.0 },
            clear_scatter: true,
        },
        Transform::from_xyz(x, ground, -CRATER_AHEAD),
    ));
    spawn_followers(
        &mut commands,
        &follower,
        Vec3::new(x, ground, -CRATER_AHEAD - 18.0),
    );
    let (transform, visibility) = &mut *walker;
    transform.translation = Vec3::new(x, ground + RADIUS + 0.5 * LENGTH + 0.05, 0.0);
    **visibility = Visibility::Inherited;
    *placed = true;
}

/// The road ahead (towards −z) from the walker at `(x, ground, 0)`: a point every 100 m for
/// 2 km at the ground's height averaged over 300 m (gentle grades; never below the sea), the
/// first where the walker stands.
fn road(sampler: &TerrainSampler, x: f32, ground: f32, sea: f32) -> TerrainPath {
    let height = |z: f32| sampler.height(x as f64, z as f64);
    let points = std::iter::once(Vec3::new(x, ground, 0.0))
        .chain((1..=20).map(|k| {
            let z = -100.0 * k as f32;
            let mean = [-150.0, -75.0, 0.0, 75.0, 150.0]
                .iter()
                .map(|dz| height(z + dz))
                .sum::<f32>()
                / 5.0;
            Vec3::new(x, mean.max(sea + 1.0), z)
        }))
        .collect();
    TerrainPath {
        points,
        width: 6.0,
        falloff: 14.0,
        op: PathOp::Road,
        clear_scatter: true,
    }
}

/// Tree trunks are solid: each new tree gets a static capsule collider (what
/// [`ScatterSpawned`] is for). Its lower half is under the ground; instance scale applies.
fn solid_trees(mut commands: Commands, mut spawned: MessageReader<ScatterSpawned>) {
    for batch in spawned.read().filter(|b| &*b.layer == "trees") {
        for &tree in &batch.instances {
            commands
                .entity(tree)
                .try_insert((RigidBody::Static, Collider::capsule(0.25, 4.0)));
        }
    }
}

fn read_input(
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    motion: Res<AccumulatedMouseMotion>,
    time: Res<Time>,
    mut yaw: ResMut<CameraYaw>,
    mut input: ResMut<WalkInput>,
) {
    if mouse.pressed(MouseButton::Right) {
        yaw.0 -= motion.delta.x * 0.004;
    }
    let turn = keys.pressed(KeyCode::ArrowLeft) as i32 - keys.pressed(KeyCode::ArrowRight) as i32;
    yaw.0 += turn as f32 * 2.0 * time.delta_secs();
    let axis =
        |plus: KeyCode, minus: KeyCode| keys.pressed(plus) as i32 - keys.pressed(minus) as i32;
    let (forward, right) = (
        axis(KeyCode::KeyW, KeyCode::KeyS) as f32,
        axis(KeyCode::KeyD, KeyCode::KeyA) as f32,
    );
    let facing = Quat::from_rotation_y(yaw.0);
    let wish = facing * Vec3::new(right, 0.0, -forward);
    let speed = if keys.pressed(KeyCode::ShiftLeft) {
        RUN_SPEED
    } else {
        WALK_SPEED
    };
    input.wish = wish.normalize_or_zero() * speed;
    input.jump |= keys.just_pressed(KeyCode::Space);
}

/// One fixed step of the walker: gravity, the wanted velocity, a jump from the ground, then
/// move-and-slide against the terrain (and the balls).
fn walk(
    move_and_slide: MoveAndSlide,
    mut input: ResMut<WalkInput>,
    time: Res<Time>,
    mut walkers: Query<(Entity, &Collider, &mut Transform, &mut Walker)>,
) {
    for (entity, collider, mut transform, mut walker) in &mut walkers {
        let dt = time.delta_secs();
        let mut velocity = walker.velocity;
        velocity.x = input.wish.x;
        velocity.z = input.wish.z;
        velocity.y -= GRAVITY * dt;
        if walker.grounded && input.jump {
            velocity.y = JUMP_SPEED;
        }
        input.jump = false;
        let mut grounded = false;
        let out = move_and_slide.move_and_slide(
            collider,
            transform.translation,
            transform.rotation,
            velocity,
            time.delta(),
            &MoveAndSlideConfig::default(),
            &SpatialQueryFilter::from_excluded_entities([entity]),
            |hit| {
                grounded |= hit.normal.y > FLOOR_NORMAL_Y;
                MoveAndSlideHitResponse::Accept
            },
        );
        transform.translation = out.position;
        walker.velocity = out.projected_velocity;
        if grounded {
            // Standing: no sliding down the slope from the last step's gravity.
            walker.velocity.y = walker.velocity.y.max(0.0);
        }
        walker.grounded = grounded;
    }
}

fn drop_balls_on_key(
    keys: Res<ButtonInput<KeyCode>>,
    mut commands: Commands,
    balls: Res<BallAssets>,
    sampler: Option<Res<TerrainSampler>>,
    yaw: Res<CameraYaw>,
    walker: Single<&Transform, With<Walker>>,
) {
    if keys.just_pressed(KeyCode::KeyB)
        && let Some(sampler) = sampler
    {
        drop_balls(&mut commands, &balls, &sampler, walker.translation, yaw.0);
    }
}

/// 100 balls in a 10 × 10 grid ahead of the walker, 6 to 10 m above the ground: they fall,
/// bounce and roll downhill.
fn drop_balls(
    commands: &mut Commands,
    balls: &BallAssets,
    sampler: &TerrainSampler,
    at: Vec3,
    yaw: f32,
) {
    let facing = Quat::from_rotation_y(yaw);
    for k in 0..100 {
        let (i, j) = ((k % 10) as f32 - 4.5, (k / 10) as f32);
        let p = at + facing * Vec3::new(i * 1.1, 0.0, -6.0 - j * 1.1);
        let ground = sampler.height(p.x as f64, p.z as f64);
        commands.spawn((
            Name::new("ball"),
            RigidBody::Dynamic,
            Collider::sphere(BALL_RADIUS),
            // Swept against the terrain, so a fast ball never tunnels into a slope.
            SweptCcd::LINEAR,
            Friction::new(0.7),
            Restitution::new(0.3),
            AngularDamping(0.4),
            TerrainColliderAnchor,
            Mesh3d(balls.mesh.clone()),
            MeshMaterial3d(balls.materials[k % balls.materials.len()].clone()),
            Transform::from_xyz(p.x, ground + 6.0 + (k % 7) as f32 * 0.6, p.z),
        ));
    }
}

/// The camera 7 m behind and 3 m above the walker, looking just past it, never in the ground.
fn follow_walker(
    yaw: Res<CameraYaw>,
    sampler: Option<Res<TerrainSampler>>,
    walker: Single<&Transform, (With<Walker>, Without<Camera3d>)>,
    mut camera: Single<&mut Transform, With<Camera3d>>,
) {
    let facing = Quat::from_rotation_y(yaw.0);
    let target = walker.translation + facing * Vec3::new(0.0, 2.0, -6.0);
    let mut eye = walker.translation + facing * Vec3::new(0.0, 3.0, 7.0);
    if let Some(sampler) = &sampler {
        eye.y = eye.y.max(sampler.height(eye.x as f64, eye.z as f64) + 1.0);
    }
    camera.translation = eye;
    camera.look_at(target, Vec3::Y);
}

/// Screenshot mode: walk forward for a second (of game time), drop the balls, let them roll
/// for four seconds, then let the screenshot be taken.
#[allow(
    clippy::too_many_arguments,
    reason = "a system: one parameter per resource it touches"
)]
fn walk_script(
    mut run: ResMut<ScreenshotRun>,
    mut input: ResMut<WalkInput>,
    mut commands: Commands,
    balls: Res<BallAssets>,
    sampler: Option<Res<TerrainSampler>>,
    yaw: Res<CameraYaw>,
    walker: Single<&Transform, With<Walker>>,
    time: Res<Time>,
    mut elapsed: Local<f32>,
    mut dropped: Local<bool>,
) {
    let Some(sampler) = sampler else { return };
    if !run.hold {
        return;
    }
    *elapsed += time.delta_secs();
    if *elapsed < 1.0 {
        input.wish = Quat::from_rotation_y(yaw.0) * Vec3::NEG_Z * WALK_SPEED;
        return;
    }
    input.wish = Vec3::ZERO;
    if !*dropped {
        drop_balls(&mut commands, &balls, &sampler, walker.translation, yaw.0);
        *dropped = true;
    }
    if *elapsed > 5.0 {
        run.hold = false;
        run.restart();
    }
}
