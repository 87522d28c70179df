//! What navigation costs:
//! - `tile`: one 256 m navigation tile (its 2 m cells judged on the full-detail ground, merged,
//!   validated by landmass) on one core, at the default, alps and world presets, against the
//!   plain sampling of its ground (`sample_grid` of the same 131² samples);
//! - `path`: `TerrainNavigation::find_path` over a kilometre and more across at least four
//!   tiles of the default preset, the search and the laying of its points on the ground.
//!
//! The memory of a tile (the mesh handed to landmass) is printed once.
//!
//! `cargo bench --profile dev --workspace --bench navigation` (the workspace turns the
//! `navigation` feature on, and shares the test build).

use bevy::math::{IVec2, Vec3};
use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use bevy_perlin_terrain::navigation::{TILE_SIZE, build_navigation_tile};
use bevy_perlin_terrain::perlin_core::NoiseTables;
use bevy_perlin_terrain::prelude::*;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;
use terrain_test_support::{HeadlessApp, preset, run_until_within};

fn tile(c: &mut Criterion) {
    let mut group = c.benchmark_group("tile");
    for name in ["default", "alps", "world"] {
        let config = preset(name);
        let sampler = TerrainSampler::new(Arc::new(NoiseTables::from_seed(config.seed)), &config);
        // The first tile along +x with a quarter of it walkable (the alps' peaks have none).
        let Some((coord, tile)) = (0..16)
            .map(|x| IVec2::new(x, -2))
            .filter_map(|c| Some((c, build_navigation_tile(&sampler, &config, c)?)))
            .find(|(_, t)| t.walkable_cells() >= 4096)
        else {
            eprintln!("{name}: no tile a quarter walkable");
            continue;
        };
        println!(
            "tile {name} {coord}: {} walkable cells of 16384, {} polygons, {} KiB of mesh",
            tile.walkable_cells(),
            tile.polygons(),
            tile.bytes() / 1024
        );
        group.bench_function(BenchmarkId::new("navigation tile", name), |b| {
            b.iter(|| build_navigation_tile(black_box(&sampler), &config, coord))
        });
        let n = 131;
        let (mut heights, mut normals) = (vec![0.0; n * n], vec![Vec3::Y; n * n]);
        let origin = [
            f64::from(TILE_SIZE) * f64::from(coord.x) - 2.0,
            f64::from(TILE_SIZE) * f64::from(coord.y) - 2.0,
        ];
        group.bench_function(BenchmarkId::new("its ground sampled", name), |b| {
            b.iter(|| sampler.sample_grid(origin, 2.0, [n, n], &mut heights, &mut normals))
        });
    }
    group.finish();
}

fn path(c: &mut Criterion) {
    let mut config = preset("default");
    config.navigation.radius = 700.0;
    let mut app = HeadlessApp::new()
        .time(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            33,
        )))
        .build(PerlinTerrainPlugin::from_config(config));
    app.world_mut()
        .spawn((TerrainNavigator::default(), Transform::default()));
    let settled = run_until_within(&mut app, Duration::from_secs(600), |app| {
        app.world().resource::<TerrainNavigation>().is_settled()
    });
    if settled.is_err() {
        eprintln!("the navigation did not settle: no path bench");
        return;
    }
    let nav = app.world().resource::<TerrainNavigation>();
    println!(
        "{} tiles, {} polygons, {} KiB of meshes ({} KiB a tile)",
        nav.tile_count(),
        nav.polygon_count(),
        nav.mesh_bytes() / 1024,
        nav.mesh_bytes() / 1024 / nav.tile_count().max(1)
    );
    // The first ends with a way between them, moved together along x.
    let ends = (0..40).find_map(|k| {
        let d = Vec3::X * 24.0 * (k / 2) as f32 * if k % 2 == 0 { 1.0 } else { -1.0 };
        let (from, to) = (
            Vec3::new(-560.0, 0.0, -90.0) + d,
            Vec3::new(560.0, 0.0, -100.0) + d,
        );
        nav.find_path(from, to).map(|p| (from, to, p))
    });
    let Some((from, to, points)) = ends else {
        eprintln!("no way between the ends: no path bench");
        return;
    };
    let length: f32 = points.windows(2).map(|w| w[0].distance(w[1])).sum();
    println!(
        "path: {length:.0} m, {} points, {} tiles",
        points.len(),
        points
            .iter()
            .map(|&p| TerrainNavigation::tile_at(p))
            .collect::<std::collections::HashSet<_>>()
            .len()
    );
    let mut group = c.benchmark_group("path");
    group.bench_function("find_path, a kilometre", |b| {
        b.iter(|| nav.find_path(black_box(from), black_box(to)))
    });
    group.finish();
}

criterion_group!(benches, tile, path);
criterion_main!(benches);
