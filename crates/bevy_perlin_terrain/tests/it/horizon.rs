//! The horizon: chunks that grow with distance. The ground stays covered exactly once during a
//! fast flight, chunks swap only when their morph shows the surface they swap to, edges between
//! levels close, and a 30 km view is a few hundred chunks.

use crate::common::*;
use bevy::math::Rect;
use bevy::mesh::{Mesh, VertexAttributeValues};
use bevy::prelude::*;
use bevy_perlin_terrain::FixedStamp;
use bevy_perlin_terrain::chunk::ATTRIBUTE_MORPH;
use bevy_perlin_terrain::prelude::*;

/// A quick config with many levels: 32 m chunks of 17 vertices, full detail to 160 m, a 3 km
/// view (levels 0 to 5).
fn deep_config() -> TerrainConfig {
    TerrainConfig {
        view_distance: 3000.0,
        max_tasks_in_flight: 16,
        max_uploads_per_frame: 16,
        ..small_config()
    }
}

/// Whether two footprints overlap (more than along an edge).
fn overlap(a: &Rect, b: &Rect) -> bool {
    a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y
}

/// The viewers of the last plan: their positions and heights over the ground.
fn plan_viewers(app: &App) -> Vec<(bevy::math::DVec3, f32)> {
    let registry = app.world().resource::<ChunkRegistry>();
    let heights = registry.viewer_heights();
    assert_eq!(heights.len(), registry.viewer_positions().len());
    registry
        .viewer_positions()
        .iter()
        .copied()
        .zip(heights.iter().copied())
        .collect()
}

/// The distance levels are chosen and morphed by, `max(|dx|, |dz|, height)`, from the nearest
/// of `viewers` to `p`: an independent twin of `ChunkRegistry::level_distance`.
fn level_distance(viewers: &[(bevy::math::DVec3, f32)], p: Vec2) -> f64 {
    viewers
        .iter()
        .map(|(v, h)| {
            let d = (v.xz() - p.as_dvec2()).abs();
            d.x.max(d.y).max(f64::from(*h))
        })
        .fold(f64::INFINITY, f64::min)
}

/// The grid vertices (world `x`, `z`) of a chunk of `config` with footprint `rect`.
fn vertices(config: &TerrainConfig, rect: &Rect) -> Vec<Vec2> {
    let n = config.chunk_resolution;
    let step = rect.width() / (n - 1) as f32;
    (0..n)
        .flat_map(|j| (0..n).map(move |i| rect.min + Vec2::new(i as f32, j as f32) * step))
        .collect()
}

/// The swaps of the last frames whose finer side did not show the coarser surface yet:
/// `(lod, smallest morph)` of each. A chunk swapped for a coarser one must be fully morphed,
/// and so must a new chunk that replaced a coarser one: then the swap moves nothing.
/// The chunks spawned are counted in `spawned_count`.
fn unmorphed_swaps(
    app: &mut App,
    config: &TerrainConfig,
    spawned_count: &mut usize,
) -> Vec<(u8, f64)> {
    let layout = config.lod_layout();
    let viewers = plan_viewers(app);
    let spawned = drain::<ChunkSpawned>(app);
    let despawned = drain::<ChunkDespawned>(app);
    *spawned_count += spawned.len();
    let rect_of = |lod: u8, coord: IVec2| {
        let size = config.chunk_size * (lod as f32).exp2();
        Rect::from_corners(coord.as_vec2() * size, (coord + 1).as_vec2() * size)
    };
    let mut found = Vec::new();
    for d in &despawned {
        let old = rect_of(d.lod, d.coord);
        for s in &spawned {
            let new = rect_of(s.lod, s.coord);
            if !overlap(&old, &new) || s.lod == d.lod {
                continue;
            }
            // The finer of the two is the one whose vertices must be at the coarser surface,
            // which is its parent's only one level up.
            let (lod, fine) = if s.lod > d.lod {
                (d.lod, old)
            } else {
                (s.lod, new)
            };
            if s.lod.abs_diff(d.lod) > 1 {
                found.push((lod, 0.0));
                continue;
            }
            let worst = vertices(config, &fine)
                .iter()
                .map(|&p| layout.morph_at(lod, level_distance(&viewers, p)))
                .fold(1.0f64, f64::min);
            if worst < 1.0 {
                eprintln!(
                    "swap: {:?} of level {} for {:?} of level {}, viewers {viewers:?}",
                    d.coord, d.lod, s.coord, s.lod
                );
                found.push((lod, worst));
            }
        }
    }
    found
}

#[test]
fn a_fast_flight_keeps_the_ground_covered_exactly_once() {
    let config = deep_config();
    let layout = config.lod_layout();
    let (mut app, viewer) = app(config.clone(), Vec3::new(0.0, 120.0, 0.0));
    settle(&mut app);
    let top = layout.size(layout.top()) as f32;
    let (mut holes, mut overlaps) = (0, 0);
    // 300 m/s at 60 frames a second, 600 frames: 3 km, turning once.
    for frame in 0..600 {
        let step = if frame < 300 {
            Vec3::new(5.0, 0.0, 0.0)
        } else {
            Vec3::new(0.0, 0.0, 5.0)
        };
        shift(&mut app, viewer, step);
        app.update();
        let rects = footprints(&app);
        // No two chunks on screen overlap.
        for (i, (_, a)) in rects.iter().enumerate() {
            if rects[i + 1..].iter().any(|(_, b)| overlap(a, b)) {
                overlaps += 1;
                break;
            }
        }
        // Inside the view (less a top-level chunk, which streams in ahead of the viewer), no
        // point is without ground.
        let at = app
            .world()
            .get::<Transform>(viewer)
            .expect("viewer")
            .translation
            .xz();
        let inner = config.view_distance - top;
        let hole = (0..400).any(|k| {
            let angle = k as f32 * 2.399;
            let r = inner * ((k as f32 + 0.5) / 400.0).sqrt();
            coverage(&rects, at + r * Vec2::new(angle.cos(), angle.sin())) == 0
        });
        holes += usize::from(hole);
    }
    settle(&mut app);
    // (At this speed a swap may come a frame or two after the viewer crossed the split margin,
    // before its morph is complete: the test below holds the morph without that latency, and
    // the `streaming` bench counts such swaps in a paced flight.)
    eprintln!("600 frames at 300 m/s: {holes} with a hole, {overlaps} with an overlap");
    assert_eq!(holes, 0, "frames with a hole");
    assert_eq!(overlaps, 0, "frames with an overlap");
}

#[test]
fn every_swap_shows_the_surface_it_swaps_to() {
    let config = deep_config();
    let (mut app, viewer) = app(config.clone(), Vec3::new(0.0, 120.0, 0.0));
    settle(&mut app);
    drain::<ChunkSpawned>(&mut app);
    drain::<ChunkDespawned>(&mut app);
    // Out and back along a diagonal, 3 m a step, each step built before the next: every split
    // and merge of levels 0 to 3 on the way, without the latency of a loaded machine.
    let mut swaps = 0;
    for step in 0..400 {
        let d = if step < 200 { 3.0 } else { -3.0 };
        shift(&mut app, viewer, Vec3::new(d, 0.0, 0.7 * d));
        let mut bad = Vec::new();
        run_until(&mut app, "the step settles", |app| {
            bad.extend(unmorphed_swaps(app, &config, &mut swaps));
            settled(app)
        });
        assert!(bad.is_empty(), "step {step}: {bad:?}");
    }
    assert!(swaps > 100, "only {swaps} chunks swapped in");
}

#[test]
fn edges_between_levels_close_the_finer_side_showing_the_coarser_surface() {
    assert_edges_between_levels_close(deep_config());
}

#[test]
fn edges_between_levels_close_across_stamps_and_a_road() {
    // A road from full detail out to level 3, and stamps on the borders of levels 0/1 and 1/2
    // (the viewer's square distances 160 m and 320 m): the morph targets include them.
    let mut config = deep_config();
    config.height_scale = 90.0;
    config.paths = vec![TerrainPath {
        points: vec![
            Vec3::new(37.0, 20.0, -11.0),
            Vec3::new(250.0, 35.0, 60.0),
            Vec3::new(700.0, 10.0, -40.0),
        ],
        width: 10.0,
        falloff: 25.0,
        ..TerrainPath::default()
    }];
    let stamp = |x: f32, z: f32, op: StampOp| FixedStamp {
        position: Vec3::new(x, 30.0, z),
        yaw: 30.0,
        stamp: TerrainStamp {
            shape: StampShape::Rect {
                half_extents: Vec2::new(40.0, 25.0),
            },
            falloff: 20.0,
            op,
            clear_scatter: false,
        },
    };
    config.stamps = vec![
        stamp(37.0 + 160.0, -11.0, StampOp::Flatten),
        stamp(37.0, -11.0 - 320.0, StampOp::Crater { depth: 15.0 }),
        stamp(37.0 - 330.0, -11.0 + 300.0, StampOp::Raise(25.0)),
    ];
    assert_edges_between_levels_close(config);
}

/// Every vertex of a chunk's edge on a coarser neighbour is fully morphed there, onto the
/// neighbour's edge, bit for bit.
fn assert_edges_between_levels_close(config: TerrainConfig) {
    let layout = config.lod_layout();
    let (mut app, _) = app(config.clone(), Vec3::new(37.0, 120.0, -11.0));
    settle(&mut app);
    let viewers = plan_viewers(&app);
    let chunks: Vec<ChunkInfo> = app.world().resource::<ChunkRegistry>().iter().collect();
    let meshes = app.world().resource::<Assets<Mesh>>();
    let mesh = |e: Entity| {
        let handle = &app.world().get::<Mesh3d>(e).expect("a mesh").0;
        meshes.get(handle).expect("the mesh asset")
    };
    let positions = |m: &Mesh| match m.try_attribute(Mesh::ATTRIBUTE_POSITION) {
        Ok(VertexAttributeValues::Float32x3(v)) => v.clone(),
        other => panic!("positions: {other:?}"),
    };
    let morph = |m: &Mesh| match m.try_attribute(ATTRIBUTE_MORPH) {
        Ok(VertexAttributeValues::Float32x4(v)) => v.clone(),
        other => panic!("morph targets: {other:?}"),
    };
    let n = config.chunk_resolution as usize;
    let mut checked = 0;
    for fine in &chunks {
        let fr = fine.rect();
        for coarse in chunks.iter().filter(|c| c.lod == fine.lod + 1) {
            let cr = coarse.rect();
            // The fine chunk's edge on the coarse one's: the vertices of the fine chunk there.
            let shared: Vec<(usize, usize)> = (0..n)
                .flat_map(|j| (0..n).map(move |i| (i, j)))
                .filter(|&(i, j)| {
                    let p = fr.min + Vec2::new(i as f32, j as f32) * fr.width() / (n - 1) as f32;
                    let on_x =
                        (p.x == cr.min.x || p.x == cr.max.x) && p.y >= cr.min.y && p.y <= cr.max.y;
                    let on_z =
                        (p.y == cr.min.y || p.y == cr.max.y) && p.x >= cr.min.x && p.x <= cr.max.x;
                    (on_x || on_z) && (i == 0 || j == 0 || i == n - 1 || j == n - 1)
                })
                .collect();
            if shared.len() < n {
                continue;
            }
            let (fine_mesh, coarse_mesh) = (mesh(fine.entity), mesh(coarse.entity));
            let targets = morph(fine_mesh);
            let coarse_positions = positions(coarse_mesh);
            let step = cr.width() / (n - 1) as f32;
            for (i, j) in shared {
                let p = fr.min + Vec2::new(i as f32, j as f32) * fr.width() / (n - 1) as f32;
                // Fully morphed there...
                let k = layout.morph_at(fine.lod, level_distance(&viewers, p));
                assert_eq!(k, 1.0, "level {} at {p}: morph {k}", fine.lod);
                // ...onto the coarse chunk's edge: its vertex, or the mean of the two around.
                let local = (p - cr.min) / step;
                let (a, b) = (local.floor(), local.ceil());
                let at = |q: Vec2| coarse_positions[q.y as usize * n + q.x as usize][1];
                let edge = 0.5 * (at(a) + at(b));
                let target = targets[j * n + i][0];
                assert_eq!(
                    target.to_bits(),
                    edge.to_bits(),
                    "level {} at {p}: {target} vs {edge}",
                    fine.lod
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} edge vertices between levels");
}

#[test]
fn a_thirty_kilometre_view_is_a_few_hundred_chunks() {
    let config = TerrainConfig {
        view_distance: 30_000.0,
        max_tasks_in_flight: 32,
        max_uploads_per_frame: 32,
        ..TerrainConfig::default()
    };
    assert_eq!(config.validate(), Ok(()));
    let fifty = TerrainConfig {
        view_distance: 50_000.0,
        ..TerrainConfig::default()
    };
    assert_eq!(
        fifty.validate(),
        Ok(()),
        "50 km validate at the default chunk size"
    );
    let (mut app, _) = app(config.clone(), Vec3::new(0.0, 300.0, 0.0));
    settle(&mut app);
    let chunks = chunks(&mut app);
    let n = config.chunk_resolution as usize;
    let vertices = chunks.len() * (n * n + 4 * n);
    eprintln!(
        "30 km: {} chunks in {} levels, {vertices} vertices",
        chunks.len(),
        config.max_lod() + 1
    );
    assert!(chunks.len() <= 700, "{} chunks", chunks.len());
    assert!(vertices <= 5_000_000, "{vertices} vertices");
    // The far ground is there: a point 29 km out is covered, by a coarse chunk.
    let rects = footprints(&app);
    let far = Vec2::new(29_000.0, 0.0);
    assert_eq!(coverage(&rects, far), 1);
    assert!(rects.iter().any(|(lod, r)| r.contains(far) && *lod >= 6));
}
