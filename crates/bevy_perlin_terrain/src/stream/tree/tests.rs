//! The quadtree's tests: which leaves the viewers want and how the chunks on screen become them.

use super::*;
use crate::config::TerrainConfig;

fn layout(view_distance: f32) -> LodLayout {
    LodLayout::new(&TerrainConfig {
        chunk_size: 64.0,
        lod_distance: 320.0,
        view_distance,
        ..TerrainConfig::default()
    })
}

/// The leaves `viewers` (on the ground) want with nothing on screen yet.
fn from_scratch(viewers: &[DVec2], layout: &LodLayout, limit: usize) -> Vec<Wanted> {
    let viewpoints: Vec<Viewpoint> = viewers.iter().map(|&v| v.into()).collect();
    from_scratch_at(&viewpoints, layout, limit)
}

/// The leaves `viewpoints` want with nothing on screen yet.
fn from_scratch_at(viewpoints: &[Viewpoint], layout: &LodLayout, limit: usize) -> Vec<Wanted> {
    let nothing = HashSet::default();
    let shown = Shown {
        chunks: &nothing,
        split: &nothing,
    };
    wanted_leaves(viewpoints, layout, &shown, limit)
}

#[test]
fn keys_nest_and_their_parents_contain_them() {
    let k = ChunkKey::new(2, IVec2::new(-3, 5));
    let p = k.parent().expect("a parent");
    assert_eq!(p, ChunkKey::new(3, IVec2::new(-2, 2)));
    assert!(p.contains(k) && k.contains(k) && !k.contains(p));
    let children = k.children().expect("children");
    assert!(
        children
            .iter()
            .all(|c| k.contains(*c) && c.parent() == Some(k))
    );
    assert_eq!(ChunkKey::new(0, IVec2::ZERO).children(), None);
    assert_eq!(ChunkKey::new(3, IVec2::new(i32::MAX, 0)).children(), None);
}

#[test]
fn the_tree_tiles_the_view_with_detail_falling_off_and_levels_one_apart() {
    let layout = layout(30_000.0);
    let viewer = DVec2::new(100.0, -250.0);
    let leaves = from_scratch(&[viewer], &layout, usize::MAX);
    // The chunk under the viewer is full detail; levels grow with distance.
    let under = leaves
        .iter()
        .find(|w| w.distance == 0.0)
        .expect("a chunk under the viewer");
    assert_eq!(under.key.lod, 0);
    for w in &leaves {
        let d = w.key.centre_distance(&layout, &[viewer.into()]);
        assert!(w.key.lod == 0 || d >= layout.reach(w.key.lod - 1) * (1.0 - HYSTERESIS));
    }
    // No two leaves overlap, and the view disc is covered.
    let set: HashSet<ChunkKey> = leaves.iter().map(|w| w.key).collect();
    for w in &leaves {
        assert!(
            !w.key.ancestors(layout.top()).any(|a| set.contains(&a)),
            "{:?}",
            w.key
        );
    }
    let covering = |p: DVec2| {
        leaves
            .iter()
            .filter(|w| {
                let (min, size) = w.key.square(&layout);
                p.cmpge(min).all() && p.cmplt(min + DVec2::splat(size)).all()
            })
            .count()
    };
    for k in 0..2000 {
        let angle = k as f64 * 2.399;
        let r = 29_900.0 * ((k as f64 + 0.5) / 2000.0).sqrt();
        let p = viewer + r * DVec2::new(angle.cos(), angle.sin());
        assert_eq!(covering(p), 1, "{p}");
    }
    // Neighbours (sharing an edge) differ by at most one level.
    for a in &leaves {
        let (amin, asize) = a.key.square(&layout);
        for b in &leaves {
            let (bmin, bsize) = b.key.square(&layout);
            let touch_x = (amin.x + asize == bmin.x || bmin.x + bsize == amin.x)
                && amin.y < bmin.y + bsize
                && bmin.y < amin.y + asize;
            let touch_z = (amin.y + asize == bmin.y || bmin.y + bsize == amin.y)
                && amin.x < bmin.x + bsize
                && bmin.x < amin.x + asize;
            if touch_x || touch_z {
                assert!(
                    a.key.lod.abs_diff(b.key.lod) <= 1,
                    "{:?} next to {:?}",
                    a.key,
                    b.key
                );
            }
        }
    }
    assert!(leaves.len() <= layout.most_chunks() as usize);
}

#[test]
fn hysteresis_keeps_a_split_chunk_split_just_beyond_its_reach() {
    let layout = layout(3000.0);
    let parent = ChunkKey::new(1, IVec2::new(10, 0));
    let (min, size) = parent.square(&layout);
    // A viewer just beyond level 0's reach from the parent's centre.
    let centre = min + DVec2::splat(0.5 * size);
    let viewer = DVec2::new(centre.x - layout.reach(0) * 1.01, centre.y);
    let fresh = from_scratch(&[viewer], &layout, usize::MAX);
    assert!(
        fresh.iter().any(|w| w.key == parent),
        "not split from scratch"
    );
    let split: HashSet<ChunkKey> = [parent]
        .into_iter()
        .chain(parent.ancestors(layout.top()))
        .collect();
    let kept = wanted_leaves(
        &[viewer.into()],
        &layout,
        &Shown {
            chunks: &HashSet::default(),
            split: &split,
        },
        usize::MAX,
    );
    assert!(!kept.iter().any(|w| w.key == parent), "stays split");
    assert!(
        kept.iter()
            .any(|w| parent.contains(w.key) && w.key.lod == 0)
    );
}

#[test]
fn the_limit_keeps_the_far_chunks_coarse() {
    let layout = layout(10_000.0);
    let all = from_scratch(&[DVec2::ZERO], &layout, usize::MAX);
    let few = from_scratch(&[DVec2::ZERO], &layout, all.len() / 2);
    assert!(few.len() <= all.len() / 2 && few.len() > all.len() / 4);
    assert!(
        few.iter().any(|w| w.key.lod == 0),
        "the near ground keeps its detail"
    );
}

#[test]
fn far_and_nowhere_viewers_want_nothing() {
    let layout = layout(3000.0);
    assert!(from_scratch(&[], &layout, usize::MAX).is_empty());
    assert!(from_scratch(&[DVec2::NAN], &layout, usize::MAX).is_empty());
    assert!(from_scratch(&[DVec2::splat(1e30)], &layout, usize::MAX).is_empty());
}

#[test]
fn transitions_split_merge_fill_and_drop_exactly_their_ground() {
    let layout = layout(3000.0);
    let key = |lod, x, z| ChunkKey::new(lod, IVec2::new(x, z));
    let parent = key(2, 0, 0);
    let [a, b, c, d] = parent.children().expect("children");
    let wanted = |keys: &[ChunkKey]| -> Vec<Wanted> {
        keys.iter()
            .map(|&key| Wanted { key, distance: 1.0 })
            .collect()
    };
    let shown =
        |keys: &[(ChunkKey, bool)]| -> HashMap<ChunkKey, bool> { keys.iter().copied().collect() };
    // Split: the parent on screen, a grandchild wanted: the parent's four children next.
    let grandchild = a.children().expect("children")[0];
    let mut want = wanted(&[b, c, d]);
    want.extend(wanted(&a.children().expect("children")));
    let steps = transitions(&want, &shown(&[(parent, true)]), &layout, &[DVec2::ZERO]);
    assert_eq!(steps.len(), 1);
    assert_eq!(steps[0].old, vec![parent]);
    assert_eq!(steps[0].new, vec![a, b, c, d]);
    assert!(want.iter().any(|w| w.key == grandchild));
    // Merge: the children on screen, the parent wanted.
    let steps = transitions(
        &wanted(&[parent]),
        &shown(&[(a, true), (b, true), (c, true), (d, false)]),
        &layout,
        &[DVec2::ZERO],
    );
    assert_eq!(
        steps,
        vec![Transition {
            old: vec![a, b, c, d],
            new: vec![parent],
            distance: 1.0
        }]
    );
    // Rebuild in place, fill a hole, drop what is out of range.
    let far = key(2, 40, 40);
    let steps = transitions(
        &wanted(&[parent, key(2, 1, 0)]),
        &shown(&[(parent, false), (far, true)]),
        &layout,
        &[DVec2::ZERO],
    );
    assert_eq!(steps.len(), 3);
    assert!(steps.contains(&Transition {
        old: vec![parent],
        new: vec![parent],
        distance: 1.0
    }));
    assert!(steps.contains(&Transition {
        old: vec![],
        new: vec![key(2, 1, 0)],
        distance: 1.0
    }));
    assert!(steps.iter().any(|s| s.old == vec![far] && s.new.is_empty()));
    // Up to date and wanted: nothing to do.
    assert!(
        transitions(
            &wanted(&[parent]),
            &shown(&[(parent, true)]),
            &layout,
            &[DVec2::ZERO]
        )
        .is_empty()
    );
}

#[test]
fn a_viewer_high_up_gets_the_level_its_height_reaches_and_the_tree_still_tiles() {
    let layout = layout(30_000.0);
    let viewer = DVec2::new(100.0, -250.0);
    let ground = from_scratch(&[viewer], &layout, usize::MAX);
    for height in [0.0, 700.0, 900.0, 5000.0] {
        let up = Viewpoint { xz: viewer, height };
        let leaves = from_scratch_at(&[up], &layout, usize::MAX);
        // 320 m reaches: 900 m up, level 2 (reach 1 280 m) is the finest, under the viewer.
        let finest = leaves.iter().map(|w| w.key.lod).min().expect("leaves");
        assert_eq!(finest, layout.lod_at(height), "{height} m up");
        let under = leaves.iter().find(|w| w.distance == 0.0).expect("under");
        assert_eq!(under.key.lod, layout.lod_at(height), "{height} m up");
        // Beyond its height, a viewer up high wants what one on the ground does.
        for w in &ground {
            if w.key.centre_distance(&layout, &[up]) > height + layout.size(w.key.lod) * 4.0 {
                assert!(leaves.contains(w), "{height} m up: {:?}", w.key);
            }
        }
        // Each point of the view is covered once; neighbours differ by at most one level.
        let set: HashSet<ChunkKey> = leaves.iter().map(|w| w.key).collect();
        for w in &leaves {
            assert!(!w.key.ancestors(layout.top()).any(|a| set.contains(&a)));
            if let Some(children) = w.key.children() {
                assert!(children.iter().all(|c| !set.contains(c)));
            }
            let (min, size) = w.key.square(&layout);
            let (mid, out) = (0.5 * size, 0.01);
            for offset in [
                (-out, mid),
                (size + out, mid),
                (mid, -out),
                (mid, size + out),
            ] {
                let beyond = min + DVec2::from(offset);
                let neighbour = leaves.iter().find(|n| {
                    let (nmin, nsize) = n.key.square(&layout);
                    beyond.cmpge(nmin).all() && beyond.cmplt(nmin + DVec2::splat(nsize)).all()
                });
                if let Some(n) = neighbour {
                    assert!(
                        n.key.lod.abs_diff(w.key.lod) <= 1,
                        "{:?} by {:?}",
                        w.key,
                        n.key
                    );
                }
            }
        }
    }
}

#[test]
fn the_height_counts_from_the_highest_ground_around_the_viewer() {
    // Flat ground at 10 m, and a 600 m peak 700 m east of the viewer.
    let ground = |x: f64, z: f64| {
        let d = DVec2::new(x - 700.0, z).length();
        10.0 + 590.0 * (1.0 - d / 100.0).max(0.0)
    };
    let over = |y: f64| Viewpoint::height_over_ground(DVec3::new(0.0, y, 0.0), ground);
    assert_eq!(over(110.0), 100.0, "the ring (100 m) misses the peak");
    assert_eq!(
        over(710.0),
        110.0,
        "700 m up, the ring (700 m) passes over it"
    );
    assert_eq!(over(1210.0), 1200.0, "the ring (1200 m) passes beyond it");
    assert_eq!(over(5.0), 0.0, "under the ground");
    assert_eq!(over(f64::NAN), 0.0);
}
