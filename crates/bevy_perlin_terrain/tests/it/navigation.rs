//! Navigation, headless: a path of more than a kilometre across four tiles keeps to walkable
//! slopes, out of deep water and on the ground; a crater stamped across it rebuilds only the
//! tiles it touches and the next path goes around it; a new walkable slope rebuilds every tile;
//! a road draws the way onto it; tiles beyond the radius are freed; an agent walks to its
//! target; bad input gives `None` or an error naming the field.

use crate::common::{error_text, run_until};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_perlin_terrain::navigation::TILE_SIZE;
use bevy_perlin_terrain::prelude::*;
use std::collections::HashSet;
use std::time::Duration;
use terrain_test_support::HeadlessApp;

/// The default world (rolling hills to 160 m, a sea at −12 m: the south of the origin is sea,
/// the north land) with the navigation's defaults and tiles 600 m around each navigator.
fn config() -> TerrainConfig {
    let mut config = TerrainConfig::default();
    config.navigation.radius = 600.0;
    config
}

/// A headless app with the terrain of `config` (no viewer: only the navigation works) and one
/// navigator at `at`, run until every tile it wants is in place.
fn navigation_app(config: TerrainConfig, at: Vec3) -> (App, Entity) {
    let mut app = HeadlessApp::new()
        .time(TimeUpdateStrategy::ManualDuration(Duration::from_secs_f32(
            1.0 / 30.0,
        )))
        .build(PerlinTerrainPlugin::from_config(config));
    let navigator = app
        .world_mut()
        .spawn((TerrainNavigator::default(), Transform::from_translation(at)))
        .id();
    settle_navigation(&mut app);
    (app, navigator)
}

fn settle_navigation(app: &mut App) {
    run_until(app, "the navigation settles", |app| {
        app.world().resource::<TerrainNavigation>().is_settled()
    });
}

fn navigation(app: &App) -> &TerrainNavigation {
    app.world().resource::<TerrainNavigation>()
}

/// Horizontal length of `points`.
fn length(points: &[Vec3]) -> f32 {
    points
        .windows(2)
        .map(|w| w[0].xz().distance(w[1].xz()))
        .sum()
}

/// A path from near `from` to near `to`: the first pair of ends, moved together 24 m at a time
/// along `x`, that has one (an end may fall on a steep slope or in the sea).
fn some_path(nav: &TerrainNavigation, from: Vec3, to: Vec3) -> (Vec3, Vec3, Vec<Vec3>) {
    for k in 0..40 {
        let d = Vec3::new(
            24.0 * (k / 2) as f32 * if k % 2 == 0 { 1.0 } else { -1.0 },
            0.0,
            0.0,
        );
        if let Some(path) = nav.find_path(from + d, to + d) {
            return (from + d, to + d, path);
        }
    }
    panic!("no path between ends near {from} and {to}");
}

/// Asserts that every point of `path` is on the ground, above deep water, and that every leg
/// keeps to a walkable slope with the ground under it within the step height.
fn assert_walkable(sampler: &TerrainSampler, config: &TerrainConfig, path: &[Vec3]) {
    let nav = &config.navigation;
    let lowest = config.sea_level - nav.wade_depth;
    // The slope is judged on 2 m samples: a leg may be a little steeper than its cells, and
    // climb a step on top.
    let max_grade = (nav.max_slope + 2.0).to_radians().tan();
    for (k, leg) in path.windows(2).enumerate() {
        let (a, b) = (leg[0], leg[1]);
        for p in [a, b] {
            let ground = sampler.height_at(p.xz());
            assert_eq!(
                p.y, ground,
                "point {k} of the path at {p} is not on the ground"
            );
            assert!(
                ground >= lowest,
                "point {k} at {p} is under more than {} m of sea",
                nav.wade_depth
            );
        }
        let run = a.xz().distance(b.xz());
        assert!(run > 0.0, "leg {k} from {a} to {b} has no length");
        let rise = (b.y - a.y).abs();
        assert!(
            rise <= max_grade * run + nav.step_height,
            "leg {k} from {a} to {b}: {rise:.2} m up over {run:.2} m"
        );
        for s in 1..8 {
            let p = a.lerp(b, s as f32 / 8.0);
            let off = (sampler.height_at(p.xz()) - p.y).abs();
            assert!(
                off <= nav.step_height,
                "leg {k} from {a} to {b}: the ground is {off:.2} m off the line at {p}"
            );
            let normal = sampler.normal(f64::from(p.x), f64::from(p.z));
            let slope = normal.y.acos().to_degrees();
            assert!(
                slope <= nav.max_slope + 2.0,
                "leg {k} crosses a {slope:.1}° slope at {p}"
            );
        }
    }
}

fn tiles_of(path: &[Vec3]) -> HashSet<IVec2> {
    path.iter()
        .map(|&p| TerrainNavigation::tile_at(p))
        .collect()
}

#[test]
fn a_kilometre_across_four_tiles_keeps_to_walkable_ground_and_a_crater_across_it_is_walked_around()
{
    let config = config();
    let (mut app, _) = navigation_app(config.clone(), Vec3::ZERO);
    let (from, to, path) = some_path(
        navigation(&app),
        Vec3::new(-560.0, 0.0, -90.0),
        Vec3::new(560.0, 0.0, -100.0),
    );
    let sampler = app.world().resource::<TerrainSampler>().clone();
    assert_eq!(navigation(&app).road_cost(), 1.0, "no road on this ground");
    assert!(length(&path) >= 1000.0, "{} m", length(&path));
    assert!(tiles_of(&path).len() >= 4, "{:?}", tiles_of(&path));
    assert_eq!(path[0].xz(), from.xz());
    assert_eq!(path[path.len() - 1].xz(), to.xz());
    assert_walkable(&sampler, &config, &path);

    // A crater 50 m deep and 40 m across the middle of the way.
    let centre = path[path.len() / 2];
    let before = navigation(&app).tiles_built();
    app.world_mut().spawn((
        TerrainStamp {
            shape: StampShape::Circle { radius: 40.0 },
            falloff: 20.0,
            op: StampOp::Crater { depth: 50.0 },
            clear_scatter: false,
        },
        Transform::from_translation(centre),
    ));
    app.update();
    settle_navigation(&mut app);
    // Only the tiles within the crater's reach (60 m, plus the cells' margin) were rebuilt.
    let reach = 60.0 + 4.0;
    let touched = navigation(&app)
        .tiles()
        .filter(|&c| {
            let min = c.as_vec2() * TILE_SIZE;
            let max = min + TILE_SIZE;
            let p = centre.xz().clamp(min, max);
            p.distance(centre.xz()) <= reach
        })
        .count() as u64;
    assert!(touched >= 1);
    assert_eq!(navigation(&app).tiles_built() - before, touched);

    let sampler = app.world().resource::<TerrainSampler>().clone();
    let around = navigation(&app)
        .find_path(from, to)
        .expect("a way around the crater");
    assert_walkable(&sampler, &config, &around);
    let nearest = around
        .iter()
        .map(|p| p.xz().distance(centre.xz()))
        .fold(f32::INFINITY, f32::min);
    assert!(
        nearest >= 30.0,
        "the way passes {nearest:.1} m from the crater's centre"
    );
    assert!(length(&around) > length(&path));
}

#[test]
fn a_road_draws_the_way_onto_it() {
    // An L of road from a to b by way of c, 1.4 times as long as the straight line, at a fifth
    // of the cost a metre: the way follows it.
    let mut config = config();
    config.navigation.road_cost = 0.2;
    let (a, c, b) = (
        Vec3::new(-300.0, 0.0, 0.0),
        Vec3::new(0.0, 0.0, -300.0),
        Vec3::new(300.0, 0.0, 0.0),
    );
    let tables = bevy_perlin_terrain::perlin_core::NoiseTables::from_seed(config.seed);
    let sampler = TerrainSampler::new(std::sync::Arc::new(tables), &config);
    let points: Vec<Vec3> = (0..=20)
        .map(|k| {
            let s = k as f32 / 10.0;
            let p = if s <= 1.0 {
                a.lerp(c, s)
            } else {
                c.lerp(b, s - 1.0)
            };
            // The road rises and falls with the ground, smoothed: the height at each point.
            Vec3::new(
                p.x,
                sampler.height_at(p.xz()).max(config.sea_level + 1.0),
                p.z,
            )
        })
        .collect();
    config.paths.push(TerrainPath {
        points: points.clone(),
        width: 8.0,
        falloff: 12.0,
        op: PathOp::Road,
        clear_scatter: false,
    });
    let (app, _) = navigation_app(config.clone(), Vec3::ZERO);
    assert_eq!(navigation(&app).road_cost(), config.navigation.road_cost);
    let path = navigation(&app)
        .find_path(a, b)
        .expect("a way along the road");
    let sampler = app.world().resource::<TerrainSampler>().clone();
    assert_walkable(&sampler, &config, &path);
    // The share of the way within the road's half width (and a cell) of its centre line.
    let to_road = |p: Vec2| {
        points
            .windows(2)
            .map(|w| {
                let (u, v) = (w[0].xz(), w[1].xz());
                let t = ((p - u).dot(v - u) / (v - u).length_squared()).clamp(0.0, 1.0);
                p.distance(u.lerp(v, t))
            })
            .fold(f32::INFINITY, f32::min)
    };
    let on_road: f32 = path
        .windows(2)
        .filter(|w| to_road((w[0].xz() + w[1].xz()) * 0.5) <= 6.0)
        .map(|w| w[0].xz().distance(w[1].xz()))
        .sum();
    let share = on_road / length(&path);
    assert!(
        share >= 0.8,
        "{:.0} % of the way is on the road",
        share * 100.0
    );
}

#[test]
fn tiles_beyond_the_radius_are_freed_and_those_around_the_new_place_built() {
    let (mut app, navigator) = navigation_app(config(), Vec3::ZERO);
    let first: HashSet<IVec2> = navigation(&app).tiles().collect();
    // 664 m around the origin: the tiles from −3 to 2 along each axis, less the far corners.
    assert!(first.contains(&IVec2::new(-3, 0)) && first.contains(&IVec2::new(2, -1)));
    assert!(!first.contains(&IVec2::new(-4, 0)) && !first.contains(&IVec2::new(3, 0)));
    let bytes = navigation(&app).mesh_bytes();
    assert!(bytes > 0);

    app.world_mut()
        .entity_mut(navigator)
        .insert(Transform::from_xyz(3000.0, 0.0, 0.0));
    app.update();
    settle_navigation(&mut app);
    let second: HashSet<IVec2> = navigation(&app).tiles().collect();
    assert!(
        first.is_disjoint(&second),
        "{:?}",
        first.intersection(&second)
    );
    // Exactly the tiles whose square comes within 600 m of the new place, and the quarter tile
    // the navigator may move before the next plan.
    let within = |p: Vec2| {
        let mut tiles = HashSet::new();
        for y in -20..=20 {
            for x in -20..=20 {
                let c = TerrainNavigation::tile_at(p.extend(0.0).xzy()) + IVec2::new(x, y);
                let min = c.as_vec2() * TILE_SIZE;
                if p.clamp(min, min + TILE_SIZE).distance(p) <= 600.0 + 0.25 * TILE_SIZE {
                    tiles.insert(c);
                }
            }
        }
        tiles
    };
    assert_eq!(first, within(Vec2::ZERO));
    assert_eq!(second, within(Vec2::new(3000.0, 0.0)));
    // Nothing left of the old place: no way there any more.
    assert_eq!(
        navigation(&app).find_path(
            Vec3::new(-100.0, 0.0, -100.0),
            Vec3::new(100.0, 0.0, -150.0)
        ),
        None
    );
}

#[test]
fn a_new_walkable_slope_rebuilds_every_tile_and_a_look_change_none() {
    let (mut app, _) = navigation_app(config(), Vec3::ZERO);
    let count = navigation(&app).tile_count() as u64;
    let polygons_before = navigation(&app).polygon_count();
    let built = navigation(&app).tiles_built();
    let set = |app: &mut App, change: fn(&mut TerrainConfig)| {
        let mut next = config();
        change(&mut next);
        *app.world_mut().resource_mut::<TerrainConfigSource>() = TerrainConfigSource::Fixed(next);
        app.update();
        settle_navigation(app);
    };
    // The ground's colors: nothing to rebuild.
    set(&mut app, |c| c.colors.creases = 0.25);
    assert_eq!(navigation(&app).tiles_built(), built);
    // A gentler walkable slope: every tile again, fewer places to walk.
    set(&mut app, |c| {
        c.colors.creases = 0.25;
        c.navigation.max_slope = 8.0;
    });
    assert_eq!(navigation(&app).tiles_built(), built + count);
    assert_ne!(navigation(&app).polygon_count(), polygons_before);
}

#[test]
fn an_agent_walks_to_its_target_on_the_ground() {
    let (mut app, _) = navigation_app(config(), Vec3::ZERO);
    let sampler = app.world().resource::<TerrainSampler>().clone();
    let (from, to, _) = some_path(
        navigation(&app),
        Vec3::new(-100.0, 0.0, -100.0),
        Vec3::new(100.0, 0.0, -150.0),
    );
    let from = Vec3::new(from.x, sampler.height_at(from.xz()), from.z);
    let agent = app
        .world_mut()
        .spawn((
            TerrainAgent {
                target: Some(to),
                speed: 8.0,
                ..default()
            },
            Transform::from_translation(from),
        ))
        .id();
    let mut walked = 0.0;
    let mut last = from;
    run_until(&mut app, "the agent arrives", |app| {
        let at = app.world().get::<Transform>(agent).map(|t| t.translation);
        let motion = app.world().get::<TerrainAgentMotion>(agent).copied();
        if let Some(at) = at {
            walked += at.xz().distance(last.xz());
            last = at;
        }
        motion.is_some_and(|m| m.status == TerrainAgentStatus::Arrived)
    });
    assert!(
        last.xz().distance(to.xz()) <= 1.0,
        "stopped at {last}, target {to}"
    );
    assert!((last.y - sampler.height_at(last.xz())).abs() < 1e-3);
    // It walked a way at least as long as the straight line, and not wildly longer.
    let straight = from.xz().distance(to.xz());
    assert!(
        walked >= straight - 1.0 && walked <= 2.0 * straight,
        "{walked} m for {straight} m"
    );
}

#[test]
fn bad_input_gives_no_path_and_an_absurd_radius_is_refused_by_name() {
    let (app, _) = navigation_app(config(), Vec3::ZERO);
    let nav = navigation(&app);
    for (from, to) in [
        (Vec3::NAN, Vec3::ZERO),
        (Vec3::ZERO, Vec3::new(f32::INFINITY, 0.0, 0.0)),
        // Where no tile is built.
        (Vec3::ZERO, Vec3::new(5000.0, 0.0, 0.0)),
        (Vec3::new(1e30, 0.0, 0.0), Vec3::ZERO),
    ] {
        assert_eq!(nav.find_path(from, to), None, "{from} to {to}");
    }
    let error = error_text("(navigation: (radius: 1e9))");
    assert!(error.contains("navigation.radius"), "{error}");
    assert!(error.contains("16 to 4096 metres"), "{error}");
    let error = error_text("(navigation: (max_slope: 95.0))");
    assert!(error.contains("navigation.max_slope"), "{error}");
}
