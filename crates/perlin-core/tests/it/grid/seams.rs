//! The grid equals the point function, and grids agree bit for bit wherever they share samples:
//! neighbours along their edges, wide and small grids, one strip or many.

use super::{assert_window, configs, fill, fill_values, specs};
use perlin_core::prelude::*;

#[test]
fn a_grid_across_the_fast_floors_limit_agrees_with_the_point_function() {
    // Lattice coordinates from 2⁵¹ on take the general floor, those below it the fast one
    // (`cell_small`, exact only below 2⁵¹). A grid whose columns cross the limit must take
    // the general floor for all of them, or the cells past it come out wrong.
    let t = NoiseTables::from_seed(5);
    let fbm = Fbm {
        octaves: 1,
        frequency: 1.0,
        ..Fbm::default()
    };
    let limit = (1u64 << 51) as f64;
    // An f64 holds halves below 2⁵²: the columns' offsets are 0 and ½.
    let spec = GridSpec::new([limit - 32.0, 0.3], 0.5, [129, 3]);
    let mut values = vec![0.0; 129 * 3];
    fbm.fill_grid(&t, &spec, &mut values).unwrap();
    let mut past = 0.0f64;
    for j in 0..3 {
        for i in 0..129 {
            let (x, y) = (spec.position(0, i), spec.position(1, j));
            let p = fbm.sample2(&t, x, y);
            let grid = values[j * 129 + i] as f64;
            assert!((grid - p).abs() < 1e-5, "at ({x}, {y}): {grid} vs {p}");
            if x >= limit {
                past = past.max(p.abs());
            }
        }
    }
    assert!(past > 0.05, "the samples past the limit prove nothing");
}

#[test]
fn grid_equals_the_point_function() {
    let t = NoiseTables::from_seed(7);
    for fbm in configs() {
        let mut worst = 0.0f64;
        for spec in specs() {
            let f = fill(&fbm, &t, &spec, SimdLevel::Auto);
            for j in 0..spec.size[1] {
                for i in 0..spec.size[0] {
                    let (x, y) = (spec.position(0, i), spec.position(1, j));
                    let p = fbm.sample2_full(&t, x, y);
                    let k = j * spec.size[0] + i;
                    let error = (f.values[k] as f64 - p.value).abs() / fbm.noise_size.abs();
                    worst = worst.max(error);
                    assert!(
                        error < 1e-5,
                        "{fbm:?} at ({x}, {y}): {} vs {}",
                        f.values[k],
                        p.value
                    );
                    assert!(
                        (f.creases[k] as f64 - p.crease).abs() < 1e-3,
                        "{fbm:?} crease at ({x}, {y}): {} vs {}",
                        f.creases[k],
                        p.crease
                    );
                    // Folded modes have a kink where an octave crosses zero; there f32 and f64
                    // may land on different sides, so the slope of either side is right.
                    let close = |pg: [f64; 2]| {
                        // Relative to the gradient's size (slopes are ~frequency, small).
                        let size = pg[0].hypot(pg[1]);
                        let gtol = 1e-2 * size + 2e-5 * fbm.frequency * fbm.noise_size.abs();
                        (f.gradients[k][0] as f64 - pg[0]).abs() < gtol
                            && (f.gradients[k][1] as f64 - pg[1]).abs() < gtol
                    };
                    let d = 1e-6;
                    let sides = [(0.0, 0.0), (d, 0.0), (-d, 0.0), (0.0, d), (0.0, -d)];
                    let matched = sides
                        .iter()
                        .any(|&(dx, dy)| close(fbm.sample2_full(&t, x + dx, y + dy).gradient));
                    assert!(
                        matched,
                        "{fbm:?} gradient at ({x}, {y}): {:?} vs {:?}",
                        f.gradients[k], p.gradient
                    );
                }
            }
        }
        assert!(worst < 1e-5, "{fbm:?}: worst {worst}");
    }
}

#[test]
fn neighbouring_grids_share_bit_identical_edges() {
    let t = NoiseTables::from_seed(3);
    let n = 65usize;
    for fbm in configs() {
        for (cx, cz) in [(0i64, 0i64), (-3, 5), (1000, -1000)] {
            // Chunks as the terrain makes them: sample indices from a global integer lattice.
            let chunk = |cx: i64, cz: i64| {
                let spec = GridSpec::new([0.0, 0.0], 0.5, [n, n])
                    .with_start([cx * (n as i64 - 1), cz * (n as i64 - 1)]);
                fill(&fbm, &t, &spec, SimdLevel::Auto)
            };
            let a = chunk(cx, cz);
            let right = chunk(cx + 1, cz);
            let below = chunk(cx, cz + 1);
            for r in 0..n {
                let (edge, next) = (r * n + n - 1, r * n);
                assert_eq!(a.values[edge].to_bits(), right.values[next].to_bits());
                assert_eq!(a.gradients[edge], right.gradients[next]);
                assert_eq!(a.creases[edge].to_bits(), right.creases[next].to_bits());
                let (edge, next) = ((n - 1) * n + r, r);
                assert_eq!(a.values[edge].to_bits(), below.values[next].to_bits());
                assert_eq!(a.gradients[edge], below.gradients[next]);
                assert_eq!(a.creases[edge].to_bits(), below.creases[next].to_bits());
            }
            // A one-sample grid at a shared vertex computes the same bits too.
            let single = fill(
                &fbm,
                &t,
                &GridSpec::new([0.0, 0.0], 0.5, [1, 1]).with_start([cx * 64 + 64, cz * 64 + 10]),
                SimdLevel::Auto,
            );
            let vertex = 10 * n + n - 1;
            assert_eq!(
                single.values[0].to_bits(),
                a.values[vertex].to_bits(),
                "{fbm:?}"
            );
            assert_eq!(single.gradients[0], a.gradients[vertex]);
            assert_eq!(single.creases[0].to_bits(), a.creases[vertex].to_bits());
        }
    }
}

#[test]
fn a_wide_grid_and_a_small_one_agree_bit_for_bit_where_they_overlap() {
    // Wide grids sum in shorter strips than narrow ones (to stay in cache), rows 1024 samples
    // wide are padded apart, and their point windows differ; none of it may change a sample's
    // bits.
    let t = NoiseTables::from_seed(11);
    for fbm in configs() {
        for width in [1100, 1024] {
            let wide = GridSpec::new([3.0, -7.0], 0.75, [width, 40]);
            let small = GridSpec::new([3.0, -7.0], 0.75, [65, 65]).with_start([517, 3]);
            let w = fill(&fbm, &t, &wide, SimdLevel::Auto);
            let s = fill(&fbm, &t, &small, SimdLevel::Auto);
            // The wide grid has 40 rows: the small one's first 37 lie inside it.
            assert_window(&fbm, (&w, width), (&s, 65), [65, 37], [517, 3]);
        }
    }
}

#[test]
fn a_large_one_octave_grid_agrees_with_a_small_one_in_one_strip_or_many() {
    // One plain octave (values only) fills a large grid in one strip, whose bands are whole
    // lattice rows, unless its rows crowd a few cache sets (1024 or 1025 samples apart): then
    // in strips of 14 rows, which split bands. Neither may change a sample's bits.
    let t = NoiseTables::from_seed(13);
    for hashing in [Hashing::Table, Hashing::Integer] {
        let fbm = Fbm {
            octaves: 1,
            frequency: 1.0 / 37.0,
            hashing,
            ..Fbm::default()
        };
        for width in [1100, 1024, 1025] {
            // More than 65 536 samples (70 rows): past the size that is one strip whatever
            // the width.
            let wide = GridSpec::new([3.0, -7.0], 0.75, [width, 70]);
            let small = GridSpec::new([3.0, -7.0], 0.75, [65, 65]).with_start([517, 3]);
            let w = fill_values(&fbm, &t, &wide);
            let s = fill_values(&fbm, &t, &small);
            assert_window(&fbm, (&w, width), (&s, 65), [65, 65], [517, 3]);
            assert!(
                w.values.iter().any(|v| v.abs() > 0.1),
                "a flat grid proves nothing"
            );
        }
    }
}

#[test]
fn a_grid_taller_than_a_strip_agrees_with_a_small_one_across_the_strip_edges() {
    // Each strip (at most 128 rows, 32 eroded) restarts its bands, point windows and erosion
    // cells. A window across the edges between strips of a tall grid must not see them.
    let t = NoiseTables::from_seed(12);
    assert!(configs().iter().any(|f| f.erosion.is_some()));
    for fbm in configs() {
        let tall = GridSpec::new([-20.0, 45.0], 0.9, [65, 300]);
        let small = GridSpec::new([-20.0, 45.0], 0.9, [33, 33]).with_start([16, 240]);
        let w = fill(&fbm, &t, &tall, SimdLevel::Auto);
        let s = fill(&fbm, &t, &small, SimdLevel::Auto);
        assert_window(&fbm, (&w, 65), (&s, 33), [33, 33], [16, 240]);
    }
}

#[test]
fn creases_are_a_mask_and_plain_noise_is_neutral() {
    let t = NoiseTables::from_seed(21);
    let spec = GridSpec::new([0.0, 0.0], 2.0, [129, 129]);
    for fbm in configs() {
        let f = fill(&fbm, &t, &spec, SimdLevel::Auto);
        if fbm.erosion.is_some() {
            assert!(f.creases.iter().all(|c| (0.0..=1.0).contains(c)), "{fbm:?}");
            // Both gullies and ridges occur.
            assert!(f.creases.iter().any(|&c| c > 0.8) && f.creases.iter().any(|&c| c < 0.2));
        } else {
            assert!(f.creases.iter().all(|&c| c == 0.5), "{fbm:?}");
        }
    }
}
