//! The pass that applies the stamps and paths touching a grid (see [`GroundEdits::touching`])
//! to its samples, row by row, and the grid helpers that the ground's fill shares with it.

use super::index::{GroundEdits, Touching};
use super::path::GridRow;
use crate::space::Bounds;
use bevy::math::DVec2;
use perlin_core::{GridSpec, SimdLevel};
use std::ops::Range;

impl GroundEdits {
    /// Applies the modifiers `touching` the grid `spec` (from [`touching`](Self::touching) over
    /// its [`grid_bounds`]) to its `heights` (metres) and `slopes` (`[∂h/∂x, ∂h/∂z]`),
    /// row-major, with paths' runs compiled for `kernel` (the same bits on every kernel). Each
    /// sample's result depends only on its position, whatever the grid: neighbouring chunks,
    /// the parent level and the sampler agree where they share a position.
    pub(crate) fn apply(
        &self,
        kernel: SimdLevel,
        spec: &GridSpec,
        touching: &Touching,
        heights: &mut [f32],
        slopes: &mut [[f32; 2]],
    ) {
        let grid = Rows::new(spec);
        for (m, segments) in &touching.modifiers {
            self.apply_one(kernel, *m, segments, &grid, heights, slopes);
        }
    }

    /// [`apply`](Self::apply) to a grid and to a coarser one over the same area, with the
    /// modifiers `touching` either: the same results, bit for bit. Where the coarse grid's
    /// samples are every other sample of the fine one (a chunk's parent level), a path cuts each
    /// of the fine grid's rows once for both.
    pub(crate) fn apply_with_coarse(
        &self,
        kernel: SimdLevel,
        touching: &Touching,
        (spec, heights, slopes): (&GridSpec, &mut [f32], &mut [[f32; 2]]),
        (coarse_spec, coarse_heights, coarse_slopes): (&GridSpec, &mut [f32], &mut [[f32; 2]]),
    ) {
        let (fine, coarse) = (Rows::new(spec), Rows::new(coarse_spec));
        let every_other = is_every_other(coarse_spec, spec);
        for (m, segments) in &touching.modifiers {
            let modifier = &self.modifiers[*m as usize];
            match modifier.path_pass(segments) {
                Some(pass) if every_other => {
                    // The coarse grid's row `j / 2` is this one's even row `j`.
                    let mut coarse_rows = coarse.slices(coarse_heights, coarse_slopes);
                    let rows = fine
                        .slices(heights, slopes)
                        .map(|(j, z, row)| {
                            let coarse_row = (j % 2 == 0).then(|| coarse_rows.next()).flatten();
                            (z, row, coarse_row.map(|(_, _, row)| row))
                        })
                        .filter(|&(z, _, _)| holds_row(modifier.bounds, z));
                    pass.using(kernel).apply_rows_with_coarse(
                        &fine.xs,
                        1.0 / fine.step,
                        &coarse.xs,
                        rows,
                    );
                }
                _ => {
                    self.apply_one(kernel, *m, segments, &fine, heights, slopes);
                    self.apply_one(kernel, *m, segments, &coarse, coarse_heights, coarse_slopes);
                }
            }
        }
    }

    /// Modifier `m` (its `segments`, for a path) over the rows of a grid.
    fn apply_one(
        &self,
        kernel: SimdLevel,
        m: u32,
        segments: &[u32],
        grid: &Rows,
        heights: &mut [f32],
        slopes: &mut [[f32; 2]],
    ) {
        let modifier = &self.modifiers[m as usize];
        if let Some(pass) = modifier.path_pass(segments) {
            let rows = grid
                .slices(heights, slopes)
                .filter(|&(_, z, _)| holds_row(modifier.bounds, z))
                .map(|(_, z, row)| (z, row));
            pass.using(kernel)
                .apply_rows(&grid.xs, 1.0 / grid.step, rows);
            return;
        }
        // A stamp: the samples of each row within its box.
        let (low, high) = (modifier.bounds.min.x, modifier.bounds.max.x);
        for (row, z, _) in grid.rows(modifier.bounds) {
            let start = row.start;
            for (i, &x) in grid.xs.iter().enumerate() {
                if x < low || x > high {
                    continue;
                }
                let k = start + i;
                if let (Some(h), Some(g)) = (heights.get(k).copied(), slopes.get(k).copied()) {
                    (heights[k], slopes[k]) = modifier.apply_stamp(DVec2::new(x, z), h, g);
                }
            }
        }
    }
}

/// A grid's rows as the modifiers walk them: its samples' `x` (the same in every row) and its
/// spacing along `x`.
struct Rows<'s> {
    spec: &'s GridSpec,
    xs: Vec<f64>,
    step: f64,
}

impl<'s> Rows<'s> {
    fn new(spec: &'s GridSpec) -> Self {
        Self {
            spec,
            xs: (0..spec.size[0]).map(|i| spec.position(0, i)).collect(),
            step: spec.step[0],
        }
    }

    /// Every row (its index, `z`, and its part of `heights` and `slopes`, row-major over the
    /// grid; a row the buffers lack is left out).
    fn slices<'b>(
        &self,
        heights: &'b mut [f32],
        slopes: &'b mut [[f32; 2]],
    ) -> impl Iterator<Item = (usize, f64, GridRow<'b>)> + use<'b, '_, 's> {
        let nx = self.spec.size[0].max(1);
        let zs = (0..self.spec.size[1]).map(|j| self.spec.position(1, j));
        heights
            .chunks_exact_mut(nx)
            .zip(slopes.chunks_exact_mut(nx))
            .zip(zs)
            .enumerate()
            .map(|(j, (row, z))| (j, z, row))
    }

    /// The rows (their samples' range, `z` and index) within `bounds`' `z` span.
    fn rows(&self, bounds: Bounds) -> impl Iterator<Item = (Range<usize>, f64, usize)> + '_ {
        let [nx, nz] = self.spec.size;
        (0..nz).filter_map(move |j| {
            let z = self.spec.position(1, j);
            holds_row(bounds, z).then_some((j * nx..(j + 1) * nx, z, j))
        })
    }
}

/// Whether the row at `z` lies within `bounds`' `z` span.
fn holds_row(bounds: Bounds, z: f64) -> bool {
    z >= bounds.min.y && z <= bounds.max.y
}

/// Whether `coarse`'s samples are every other sample of `fine`'s, position for position (the
/// same bits), and `fine` has none past them.
pub(crate) fn is_every_other(coarse: &GridSpec, fine: &GridSpec) -> bool {
    let same = |axis: usize, i: usize| {
        coarse.position(axis, i).to_bits() == fine.position(axis, 2 * i).to_bits()
    };
    let ([nx, nz], [fx, fz]) = (coarse.size, fine.size);
    nx > 0
        && nz > 0
        && fx == 2 * nx - 1
        && fz == 2 * nz - 1
        && (0..nx).all(|i| same(0, i))
        && (0..nz).all(|j| same(1, j))
}

/// The box a grid's samples cover, `None` for an empty grid or one off the finite plane.
pub(crate) fn grid_bounds(spec: &GridSpec) -> Option<Bounds> {
    let [nx, nz] = spec.size;
    if nx == 0 || nz == 0 {
        return None;
    }
    let (a, b) = (
        DVec2::new(spec.position(0, 0), spec.position(1, 0)),
        DVec2::new(spec.position(0, nx - 1), spec.position(1, nz - 1)),
    );
    let bounds = Bounds {
        min: a.min(b),
        max: a.max(b),
    };
    (bounds.min.is_finite() && bounds.max.is_finite()).then_some(bounds)
}

#[cfg(test)]
mod tests {
    use super::super::resolve::{path_modifier, stamp_at};
    use super::*;
    use crate::config::{PathOp, TerrainPath};

    /// A path 6 m wide with 12 m of falloff through `points` (`x`, `y`, `z`).
    fn path_through(points: &[(f32, f32, f32)], op: PathOp) -> TerrainPath {
        TerrainPath {
            points: points
                .iter()
                .map(|&(x, y, z)| bevy::math::Vec3::new(x, y, z))
                .collect(),
            width: 6.0,
            falloff: 12.0,
            op,
            ..TerrainPath::default()
        }
    }

    /// The bits of a grid's heights and slopes, to compare grids exactly.
    fn bits(heights: &[f32], slopes: &[[f32; 2]]) -> (Vec<u32>, Vec<[u32; 2]>) {
        (
            heights.iter().map(|h| h.to_bits()).collect(),
            slopes.iter().map(|g| g.map(f32::to_bits)).collect(),
        )
    }

    /// Heights and slopes of level ground at 0 over `spec`, after `edits`.
    fn edited_flat(edits: &GroundEdits, spec: &GridSpec) -> (Vec<f32>, Vec<[f32; 2]>) {
        let n = spec.size[0] * spec.size[1];
        let (mut heights, mut slopes) = (vec![0.0f32; n], vec![[0.0f32; 2]; n]);
        if let Some(region) = grid_bounds(spec) {
            let touching = edits.touching(&region);
            edits.apply(SimdLevel::Auto, spec, &touching, &mut heights, &mut slopes);
        }
        (heights, slopes)
    }

    /// A level `road` (every point at 10 m) over level ground at 0, over `spec`: each sample's
    /// height must be `10·w(d)` of its true distance `d` to the centre line (brute force in
    /// `f64`) within `tolerance`, and every `every`-th sample must equal a single sample there,
    /// bit for bit. The number of samples on the road (`d ≤` half the width), or the first
    /// mismatch.
    fn level_road_by_true_distance(
        road: &TerrainPath,
        spec: &GridSpec,
        tolerance: f64,
        every: usize,
    ) -> Result<usize, String> {
        let modifier = path_modifier(road);
        let edits = GroundEdits::new(vec![modifier.clone()]);
        let (heights, slopes) = edited_flat(&edits, spec);
        let (half_width, falloff) = (0.5 * road.width as f64, road.falloff as f64);
        let mut inside = 0;
        for j in 0..spec.size[1] {
            for i in 0..spec.size[0] {
                let p = DVec2::new(spec.position(0, i), spec.position(1, j));
                let d = (modifier.centre_line_distance(p) - half_width) / falloff;
                let s = d.clamp(0.0, 1.0);
                let expected = 10.0 * (1.0 - s * s * (3.0 - 2.0 * s));
                let k = j * spec.size[0] + i;
                if (heights[k] as f64 - expected).abs() >= tolerance {
                    return Err(format!("at {p}: {} for {expected}", heights[k]));
                }
                inside += usize::from(d <= 0.0);
                if (i + 3 * j) % every == 0 {
                    let single = GridSpec::new([p.x, p.y], spec.step[0], [1, 1]);
                    let (h, g) = edited_flat(&edits, &single);
                    let (one, grid) = (
                        (h[0].to_bits(), g[0].map(f32::to_bits)),
                        (heights[k].to_bits(), slopes[k].map(f32::to_bits)),
                    );
                    if one != grid {
                        return Err(format!("at {p}: the sample {one:?}, the grid {grid:?}"));
                    }
                }
            }
        }
        Ok(inside)
    }

    /// Heights and slopes of the plane `h = 0.3x − 0.1z + 7` over `spec`, after `edits`.
    fn edited_plane(edits: &GroundEdits, spec: &GridSpec) -> (Vec<f32>, Vec<[f32; 2]>) {
        let [nx, nz] = spec.size;
        let mut heights = Vec::new();
        for j in 0..nz {
            for i in 0..nx {
                let (x, z) = (spec.position(0, i), spec.position(1, j));
                heights.push((0.3 * x - 0.1 * z + 7.0) as f32);
            }
        }
        let mut slopes = vec![[0.3, -0.1]; nx * nz];
        if let Some(region) = grid_bounds(spec) {
            let touching = edits.touching(&region);
            edits.apply(SimdLevel::Auto, spec, &touching, &mut heights, &mut slopes);
        }
        (heights, slopes)
    }

    #[test]
    fn a_road_over_a_grid_has_the_gradient_of_its_heights_and_a_grid_equals_its_samples() {
        let road = TerrainPath {
            points: vec![
                bevy::math::Vec3::new(-40.0, 0.0, -20.0),
                bevy::math::Vec3::new(0.0, 6.0, 5.0),
                bevy::math::Vec3::new(40.0, 12.0, 10.0),
            ],
            width: 6.0,
            falloff: 10.0,
            ..TerrainPath::default()
        };
        for op in [PathOp::Road, PathOp::Channel { depth: 2.0 }] {
            let edits = GroundEdits::new(vec![path_modifier(&TerrainPath { op, ..road.clone() })]);
            let at = |x: f64, z: f64| {
                let (h, g) = edited_plane(&edits, &GridSpec::new([x, z], 1.0, [1, 1]));
                (h[0], g[0])
            };
            let step = 1e-3;
            let mut changed = 0;
            for x in [-30.0, -12.5, 0.3, 17.0, 33.0] {
                for k in 0..220 {
                    let z = -45.0 + 0.4 * k as f64;
                    let (h, g) = at(x, z);
                    changed += usize::from(h != (0.3 * x - 0.1 * z + 7.0) as f32);
                    let dx = (at(x + step, z).0 as f64 - at(x - step, z).0 as f64) / (2.0 * step);
                    let dz = (at(x, z + step).0 as f64 - at(x, z - step).0 as f64) / (2.0 * step);
                    assert!(
                        (g[0] as f64 - dx).abs() < 5e-3 && (g[1] as f64 - dz).abs() < 5e-3,
                        "{op:?} at ({x}, {z}): gradient {g:?}, heights say [{dx}, {dz}]"
                    );
                }
            }
            assert!(changed > 100, "{op:?}: {changed} samples changed");
            // A grid's samples are the single samples, bit for bit.
            let spec = GridSpec::new([-33.0, -27.0], 0.75, [90, 70]);
            let (heights, slopes) = edited_plane(&edits, &spec);
            for j in 0..70 {
                for i in 0..90 {
                    let (h, g) = at(spec.position(0, i), spec.position(1, j));
                    let k = j * 90 + i;
                    assert_eq!(
                        (heights[k].to_bits(), slopes[k].map(f32::to_bits)),
                        (h.to_bits(), g.map(f32::to_bits))
                    );
                }
            }
        }
    }

    #[test]
    fn a_hairpin_road_blends_by_the_true_distance_to_its_centre_line_and_a_grid_equals_its_samples()
    {
        // Level roads (every point at 10 m) over level ground at 0: the height is 10·w(d), so
        // it shows the distance each sample took. A hairpin whose legs lie 18 m apart (the road
        // reaches 15 m either side, so the legs' reaches overlap), a zigzag with sharp corners,
        // and a closed loop.
        let level = |points: &[(f32, f32)]| {
            let points: Vec<_> = points.iter().map(|&(x, z)| (x, 10.0, z)).collect();
            path_through(&points, PathOp::Road)
        };
        let roads = [
            level(&[
                (-40.0, -9.0),
                (20.0, -9.0),
                (30.0, 0.0),
                (20.0, 9.0),
                (-40.0, 9.0),
            ]),
            level(&[
                (-40.0, -20.0),
                (-25.0, 20.0),
                (-10.0, -20.0),
                (5.0, 20.0),
                (30.0, -20.0),
            ]),
            level(&[
                (-20.0, -20.0),
                (20.0, -20.0),
                (20.0, 20.0),
                (-20.0, 20.0),
                (-20.0, -20.0),
            ]),
        ];
        let spec = GridSpec::new([-55.0, -38.0], 0.5, [190, 150]);
        for road in roads {
            match level_road_by_true_distance(&road, &spec, 1e-4, 1) {
                Ok(inside) => assert!(inside > 1000, "{inside} samples on the road"),
                Err(e) => panic!("{:?}: {e}", road.points[1]),
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

        /// Any level road over level ground: every sample of a grid (spacing and origin off the
        /// metre) blends by its true distance to the centre line, and a single sample at a grid
        /// sample's position gives that sample's bits.
        #[test]
        fn any_road_blends_by_the_true_distance_and_a_grid_equals_its_samples(
            points in proptest::collection::vec((-40.0f32..40.0, -30.0f32..30.0), 2..7),
            width in 0.5f32..14.0,
            falloff in 0.5f32..20.0,
            origin in (-61.0f64..-59.0, -51.0f64..-49.0),
            step in 0.6f64..1.7,
        ) {
            let road = TerrainPath {
                points: points
                    .iter()
                    .map(|&(x, z)| bevy::math::Vec3::new(x, 10.0, z))
                    .collect(),
                width,
                falloff,
                ..TerrainPath::default()
            };
            let size = [(120.0 / step) as usize, (100.0 / step) as usize];
            let spec = GridSpec::new([origin.0, origin.1], step, size);
            let checked = level_road_by_true_distance(&road, &spec, 1e-3, 11);
            proptest::prop_assert!(checked.is_ok(), "{:?}", checked);
        }
    }

    #[test]
    fn a_road_gives_the_same_bits_on_every_kernel_the_cpu_has() {
        // A road and a channel over a sloping plane, and a hairpin: samples beside one
        // segment, where several reach (a bend's inside, the hairpin's legs) and past the
        // vertices, in whole blocks of eight lanes (sixteen with AVX-512) and in the rows' tails.
        let rise = [(-50.0, 0.0, -30.0), (0.0, 9.0, 4.0), (45.0, 14.0, 12.0)];
        let hairpin = [
            (-40.0, 5.0, -9.0),
            (20.0, 6.0, -9.0),
            (30.0, 7.0, 0.0),
            (-40.0, 8.0, 9.0),
        ];
        let paths = [
            path_through(&rise, PathOp::Road),
            path_through(&rise, PathOp::Channel { depth: 2.0 }),
            path_through(&hairpin, PathOp::Road),
        ];
        let spec = GridSpec::new([-55.5, -38.25], 0.5, [203, 150]);
        let region = grid_bounds(&spec).expect("a finite grid");
        for path in paths {
            let edits = GroundEdits::new(vec![path_modifier(&path)]);
            let touching = edits.touching(&region);
            let on = |kernel| {
                let (mut heights, mut slopes) = edited_plane(&GroundEdits::default(), &spec);
                edits.apply(kernel, &spec, &touching, &mut heights, &mut slopes);
                bits(&heights, &slopes)
            };
            let plain = on(SimdLevel::Scalar);
            let untouched = edited_plane(&GroundEdits::default(), &spec).0;
            let changed = plain
                .0
                .iter()
                .zip(&untouched)
                .filter(|(a, b)| **a != b.to_bits());
            assert!(
                changed.count() > 5_000,
                "{:?}: the path changes the grid",
                path.op
            );
            for kernel in SimdLevel::ALL.into_iter().filter(|k| k.is_available()) {
                assert!(on(kernel) == plain, "{:?} on {kernel:?}", path.op);
            }
        }
    }

    #[test]
    fn a_grid_and_a_coarse_one_edited_together_equal_each_edited_alone() {
        let path = |points: &[(f32, f32, f32)], op| path_modifier(&path_through(points, op));
        let edits = GroundEdits::new(vec![
            path(
                &[(-45.0, 2.0, -20.0), (5.0, 9.0, 6.0), (45.0, 13.0, 10.0)],
                PathOp::Road,
            ),
            path(
                &[
                    (-40.0, 5.0, -9.0),
                    (20.0, 6.0, -9.0),
                    (30.0, 7.0, 0.0),
                    (-40.0, 8.0, 9.0),
                ],
                PathOp::Channel { depth: 1.5 },
            ),
            stamp_at(12.0, -15.0),
        ]);
        let fine = GridSpec::new([-40.0, -30.0], 0.5, [161, 121]);
        // Every other sample of `fine` (the row cuts are shared), and a grid off them by a
        // quarter step (cut on its own).
        let coarse = GridSpec::new([-40.0, -30.0], 1.0, [81, 61]);
        let shifted = GridSpec::new([-39.75, -29.0], 1.0, [81, 61]);
        for coarse in [coarse, shifted] {
            let region = grid_bounds(&fine)
                .zip(grid_bounds(&coarse))
                .map(|(a, b)| a.union(b))
                .expect("finite grids");
            let touching = edits.touching(&region);
            let none = GroundEdits::default();
            let (mut heights, mut slopes) = edited_plane(&none, &fine);
            let (mut coarse_heights, mut coarse_slopes) = edited_plane(&none, &coarse);
            edits.apply_with_coarse(
                SimdLevel::Auto,
                &touching,
                (&fine, &mut heights, &mut slopes),
                (&coarse, &mut coarse_heights, &mut coarse_slopes),
            );
            let alone = edited_plane(&edits, &fine);
            let plain = edited_plane(&none, &fine);
            assert!(
                bits(&alone.0, &alone.1) != bits(&plain.0, &plain.1),
                "the edits change it"
            );
            assert!(
                bits(&heights, &slopes) == bits(&alone.0, &alone.1),
                "{coarse:?}: the fine grid"
            );
            let coarse_alone = edited_plane(&edits, &coarse);
            assert!(
                bits(&coarse_heights, &coarse_slopes) == bits(&coarse_alone.0, &coarse_alone.1),
                "{coarse:?}: the coarse grid"
            );
        }
    }
}
