//! The climate fields that choose the biomes: temperature, moisture and continentalness, each a
//! uniform cubic B-spline over a square lattice of nodes whose values are fractal noise of the
//! world's tables (clamped to ±1).
//!
//! A B-spline is smooth to the second derivative and stays within the range of the 4 × 4 nodes
//! around a point (its weights are positive and sum to 1), so the nodes around a grid bound its
//! climate everywhere inside: a chunk knows which biomes can weigh in before it samples a single
//! point. A point's climate is computed the same way whatever grid it belongs to (its column's
//! weights, then its row's), so a chunk and the sampler agree bit for bit.
//!
//! `nodes.rs` gives the lattices' nodes over a grid (kept in the thread's node cache),
//! `basis.rs` the B-spline's weights at one coordinate and the nodes that weigh in over a grid,
//! and `bounds.rs` what a field can be over a set of points, or over a whole rectangle.

mod basis;
mod bounds;
mod nodes;

pub(super) use basis::{Basis, node_extent};
pub(crate) use bounds::FieldBounds;

use crate::config::{Climate, NODES_PER_SCALE};
use perlin_core::{Fbm, GridSpec, Hashing};

/// How many climate fields there are (temperature, moisture, continentalness).
pub(crate) const FIELDS: usize = 3;

/// The mean magnitude of a climate field's gradient, in climate units per metre, times its
/// scale: measured over 40 000 points of 16 seeds (the test
/// `the_fields_spread_over_their_range_at_their_mean_gradient`). It turns [`Climate::blend`]
/// metres into climate units.
pub(crate) const MEAN_GRADIENT: f64 = 2.14;

/// Which lattice each field lives on: temperature and moisture on the climate scale's,
/// continentalness on the continent scale's.
const LATTICE_OF: [usize; FIELDS] = [0, 0, 1];

/// The climate of a config: its two lattices and the noise of their nodes.
#[derive(Clone, Debug)]
pub(crate) struct ClimateField {
    /// Metres between nodes, per lattice.
    spacing: [f64; 2],
    /// The noise of each lattice's nodes.
    noise: [Fbm; 2],
    /// The scale (metres) of each lattice, as bits: with the seed, a field and a node, what
    /// determines a node's value (its key in the thread's node cache).
    scale_bits: [u32; 2],
}

/// The climate at one point, per field: its value and gradient `[∂/∂x, ∂/∂z]`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ClimateSample {
    pub value: [f32; FIELDS],
    pub gradient: [[f32; 2]; FIELDS],
}

/// The nodes over a grid, per lattice: where they start, how many, and their values per field.
#[derive(Clone, Debug, Default)]
pub(crate) struct ClimateWindow {
    first: [[i64; 2]; 2],
    size: [[usize; 2]; 2],
    nodes: [Vec<f32>; FIELDS],
    /// [`ClimateField::fill`]'s buffers, kept between fills: per lattice, each column's
    /// weights and its first node; per field, one row's nodes collapsed along z.
    columns: [Vec<(Basis, usize)>; 2],
    collapsed: [Vec<[f32; 2]>; FIELDS],
}

impl ClimateField {
    /// The climate of `climate`'s scales.
    pub fn new(climate: &Climate) -> Self {
        let noise = |scale: f32| Fbm {
            octaves: 3,
            frequency: 1.0 / scale as f64,
            hashing: Hashing::Integer,
            ..Fbm::default()
        };
        Self {
            spacing: [
                climate.scale as f64 / NODES_PER_SCALE,
                climate.continent_scale as f64 / NODES_PER_SCALE,
            ],
            noise: [noise(climate.scale), noise(climate.continent_scale)],
            scale_bits: [climate.scale.to_bits(), climate.continent_scale.to_bits()],
        }
    }

    /// Metres between the nodes of `field`'s lattice.
    pub fn spacing(&self, field: usize) -> f64 {
        self.spacing[LATTICE_OF[field]]
    }

    /// The climate at every sample of `spec` (row-major) into `out`, from `window` (filled for
    /// `spec`, or for a grid holding it).
    #[allow(
        clippy::needless_range_loop,
        reason = "fields index several arrays in step"
    )]
    pub fn fill(&self, spec: &GridSpec, window: &mut ClimateWindow, out: &mut Vec<ClimateSample>) {
        out.clear();
        let [nx, nz] = spec.size;
        let ClimateWindow {
            first,
            size,
            nodes,
            columns,
            collapsed,
        } = window;
        // Per lattice, each column's weights and its first node in the window.
        for (lattice, columns) in columns.iter_mut().enumerate() {
            columns.clear();
            columns.extend((0..nx).map(|i| {
                let basis = Basis::at(spec.position(0, i), self.spacing[lattice]);
                let left = (basis.cell - 1 - first[lattice][0]).max(0) as usize;
                (basis, left)
            }));
        }
        out.reserve(nx * nz);
        // Per row, each field's nodes collapsed along z, column by column: the value and its z
        // derivative.
        for j in 0..nz {
            let z = spec.position(1, j);
            for field in 0..FIELDS {
                let lattice = LATTICE_OF[field];
                let row = Basis::at(z, self.spacing[lattice]);
                let (z0, width) = (first[lattice][1], size[lattice][0]);
                let nodes = &nodes[field];
                let columns = &mut collapsed[field];
                columns.clear();
                let top = (row.cell - 1 - z0).max(0) as usize;
                columns.extend((0..width).map(|i| {
                    let at = |b: usize| {
                        nodes
                            .get((top + b) * width + i)
                            .copied()
                            .unwrap_or_default()
                    };
                    let n = [at(0), at(1), at(2), at(3)];
                    [row.weighted(&row.weights, n), row.weighted(&row.slopes, n)]
                }));
            }
            for i in 0..nx {
                let mut sample = ClimateSample::default();
                for field in 0..FIELDS {
                    let (column, left) = &columns[LATTICE_OF[field]][i];
                    let Some(&[a, b, c, d]) = collapsed[field]
                        .get(*left..*left + 4)
                        .and_then(|four| <&[[f32; 2]; 4]>::try_from(four).ok())
                    else {
                        continue;
                    };
                    let (n, nz) = ([a[0], b[0], c[0], d[0]], [a[1], b[1], c[1], d[1]]);
                    sample.value[field] = column.weighted(&column.weights, n);
                    sample.gradient[field] = [
                        column.weighted(&column.slopes, n),
                        column.weighted(&column.weights, nz),
                    ];
                }
                out.push(sample);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use perlin_core::NoiseTables;

    pub(super) fn field(scale: f32) -> ClimateField {
        ClimateField::new(&Climate {
            scale,
            continent_scale: 2.0 * scale,
            blend: 100.0,
        })
    }

    /// The climate of a grid, and of each of its samples alone.
    pub(super) fn grid_and_points(
        f: &ClimateField,
        tables: &NoiseTables,
        spec: &GridSpec,
    ) -> (Vec<ClimateSample>, Vec<ClimateSample>) {
        let mut window = ClimateWindow::default();
        f.window(tables, spec, &mut window);
        let mut grid = Vec::new();
        f.fill(spec, &mut window, &mut grid);
        let points = (0..spec.size[1])
            .flat_map(|j| (0..spec.size[0]).map(move |i| (i, j)))
            .map(|(i, j)| {
                let one = GridSpec::new([spec.position(0, i), spec.position(1, j)], 1.0, [1, 1]);
                let (mut w, mut out) = (ClimateWindow::default(), Vec::new());
                f.window(tables, &one, &mut w);
                f.fill(&one, &mut w, &mut out);
                out[0]
            })
            .collect();
        (grid, points)
    }

    #[test]
    fn a_grid_equals_its_samples_and_stays_within_its_nodes() {
        let tables = NoiseTables::from_seed(5);
        let f = field(900.0);
        // Across several cells of both lattices, origin and step off the node spacing.
        let spec = GridSpec::new([-1234.56, 789.01], 37.3, [41, 23]);
        let (grid, points) = grid_and_points(&f, &tables, &spec);
        assert_eq!(grid.len(), 41 * 23);
        assert_eq!(grid, points);
        let mut window = ClimateWindow::default();
        f.window(&tables, &spec, &mut window);
        // Each field's nodes over the grid bound it (a B-spline's weights are positive and sum
        // to 1).
        let range: [(f32, f32); FIELDS] = std::array::from_fn(|k| {
            let nodes = &window.nodes[k];
            let low = nodes.iter().copied().fold(f32::INFINITY, f32::min);
            (low, nodes.iter().copied().fold(f32::NEG_INFINITY, f32::max))
        });
        for s in &grid {
            for (&v, (low, high)) in s.value.iter().zip(range) {
                assert!(v >= low - 1e-6 && v <= high + 1e-6);
            }
        }
        // Not flat: the fields vary over the grid.
        for (k, (low, high)) in range.into_iter().enumerate() {
            assert!(high - low > 0.1, "field {k}: {low}..{high}");
        }
    }

    #[test]
    #[allow(
        clippy::needless_range_loop,
        reason = "fields and axes index arrays in step"
    )]
    fn gradients_match_the_slope_of_the_values() {
        let tables = NoiseTables::from_seed(9);
        let f = field(700.0);
        let h = 0.01;
        for k in 0..40 {
            let (x, z) = (k as f64 * 331.7 - 5000.0, k as f64 * -97.3 + 1200.0);
            let at = |x: f64, z: f64| {
                let spec = GridSpec::new([x, z], 1.0, [1, 1]);
                let (mut w, mut out) = (ClimateWindow::default(), Vec::new());
                f.window(&tables, &spec, &mut w);
                f.fill(&spec, &mut w, &mut out);
                out[0]
            };
            let (c, dx, dz) = (at(x, z), at(x + h, z), at(x, z + h));
            for field in 0..FIELDS {
                let slope = [
                    (dx.value[field] - c.value[field]) as f64 / h,
                    (dz.value[field] - c.value[field]) as f64 / h,
                ];
                for axis in 0..2 {
                    let g = c.gradient[field][axis] as f64;
                    assert!(
                        (g - slope[axis]).abs() < 2e-5 + 0.02 * g.abs(),
                        "field {field} axis {axis} at ({x}, {z}): {g} vs {}",
                        slope[axis]
                    );
                }
            }
        }
    }

    #[test]
    fn the_fields_spread_over_their_range_at_their_mean_gradient() {
        let scale = 4000.0f32;
        let f = field(scale);
        let (mut sum, mut n) = ([0.0f64; FIELDS], 0usize);
        let mut spread = [[0usize; 4]; FIELDS];
        for seed in 0..16 {
            let tables = NoiseTables::from_seed(seed);
            // A grid over 50 × 50 scales, 2 500 samples.
            let spec = GridSpec::new([seed as f64 * 1e6, 0.0], scale as f64 * 0.8, [50, 50]);
            let mut window = ClimateWindow::default();
            f.window(&tables, &spec, &mut window);
            let mut out = Vec::new();
            f.fill(&spec, &mut window, &mut out);
            for s in &out {
                for k in 0..FIELDS {
                    let lattice_scale = if k == 2 { 2.0 * scale } else { scale };
                    let [gx, gz] = s.gradient[k];
                    sum[k] += (gx as f64).hypot(gz as f64) * lattice_scale as f64;
                    let q = ((s.value[k] + 1.0) * 2.0).clamp(0.0, 3.999) as usize;
                    spread[k][q] += 1;
                }
                n += 1;
            }
        }
        for k in 0..FIELDS {
            let mean = sum[k] / n as f64;
            assert!(
                (mean / MEAN_GRADIENT - 1.0).abs() < 0.03,
                "field {k}: mean gradient × scale {mean:.3}, not {MEAN_GRADIENT}"
            );
            // Each quarter of the range (−1 to −½, … ½ to 1) holds at least 15 % of the samples.
            for q in spread[k] {
                assert!(q * 100 >= 15 * n, "field {k}: quarters {:?}", spread[k]);
            }
        }
    }
}
