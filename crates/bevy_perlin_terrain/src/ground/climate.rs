//! The climate fields that choose the biomes: temperature, moisture and continentalness, each a
//! uniform cubic B-spline over a square lattice of nodes whose values are fractal noise of the
//! world's tables (clamped to ±1).
//!
//! A B-spline is smooth to the second derivative and stays within the range of the 4 × 4 nodes
//! around a point (its weights are positive and sum to 1), so the nodes around a grid bound its
//! climate everywhere inside: a chunk knows which biomes can weigh in before it samples a single
//! point. A point's climate is computed the same way whatever grid it belongs to (its column's
//! weights, then its row's), so a chunk and the sampler agree bit for bit.

use crate::config::{Climate, NODES_PER_SCALE};
use perlin_core::{Fbm, GridSpec, Hashing, NoiseTables};
use std::cell::RefCell;

/// How many climate fields there are (temperature, moisture, continentalness).
pub(crate) const FIELDS: usize = 3;

/// The factor from fractal noise (mostly within ±0.25 at three octaves) to climate (±1,
/// clamped): each quarter of the range then holds a fifth to a third of the plane.
const STRETCH: f64 = 4.5;

/// The mean magnitude of a climate field's gradient, in climate units per metre, times its
/// scale: measured over 40 000 points of 16 seeds (the test
/// `the_fields_spread_over_their_range_at_their_mean_gradient`). It turns [`Climate::blend`]
/// metres into climate units.
pub(crate) const MEAN_GRADIENT: f64 = 2.14;

/// Offsets (metres) of the three fields, so that they are independent.
const FIELD_OFFSETS: [[f64; 2]; FIELDS] =
    [[0.0, 0.0], [731_017.0, -297_113.0], [-451_009.0, 913_411.0]];

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

/// What one climate field is over a set of points: the range of its value and the largest
/// length of its gradient (climate units, and per metre).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FieldBounds {
    pub low: f64,
    pub high: f64,
    pub gradient: f64,
}

impl FieldBounds {
    /// Each field's bounds over `samples`: an empty range (`low > high`) without any, and no
    /// range at all (NaN) where one is not finite.
    pub fn over(samples: &[ClimateSample]) -> [FieldBounds; FIELDS] {
        let (mut low, mut high) = ([f32::INFINITY; FIELDS], [f32::NEG_INFINITY; FIELDS]);
        let (mut steepest, mut finite) = ([0.0f32; FIELDS], true);
        for c in samples {
            for field in 0..FIELDS {
                let (value, [gx, gz]) = (c.value[field], c.gradient[field]);
                let squared = gx * gx + gz * gz;
                finite &= value.is_finite() && squared.is_finite();
                low[field] = low[field].min(value);
                high[field] = high[field].max(value);
                steepest[field] = steepest[field].max(squared);
            }
        }
        std::array::from_fn(|field| {
            let known = |x: f32| if finite { f64::from(x) } else { f64::NAN };
            FieldBounds {
                low: known(low[field]),
                high: known(high[field]),
                gradient: known(steepest[field]).sqrt(),
            }
        })
    }
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

    /// The value of node `(ix, iz)` of `field`, from the thread's node cache `cache` (of
    /// [`NODE_CACHE_SLOTS`]) or computed and kept there.
    fn node(
        &self,
        cache: &mut [(NodeKey, f32)],
        tables: &NoiseTables,
        field: usize,
        ix: i64,
        iz: i64,
    ) -> f32 {
        let key = NodeKey {
            seed: tables.seed(),
            scale: self.scale_bits[LATTICE_OF[field]],
            field: field as u8,
            ix,
            iz,
        };
        let Some(slot) = cache.get_mut(key.slot()) else {
            return self.node_value(tables, field, ix, iz);
        };
        if slot.0 != key {
            *slot = (key, self.node_value(tables, field, ix, iz));
        }
        slot.1
    }

    /// The value of node `(ix, iz)` of `field`, computed.
    fn node_value(&self, tables: &NoiseTables, field: usize, ix: i64, iz: i64) -> f32 {
        let lattice = LATTICE_OF[field];
        let spacing = self.spacing[lattice];
        let [ox, oz] = FIELD_OFFSETS[field];
        let n =
            self.noise[lattice].sample2(tables, ix as f64 * spacing + ox, iz as f64 * spacing + oz);
        (n * STRETCH).clamp(-1.0, 1.0) as f32
    }

    /// The nodes of the lattices over the grid `spec` (every node that weighs in at one of its
    /// samples) into `window`.
    #[allow(
        clippy::needless_range_loop,
        reason = "axes and fields index several arrays in step"
    )]
    pub fn window(&self, tables: &NoiseTables, spec: &GridSpec, window: &mut ClimateWindow) {
        for lattice in 0..2 {
            (window.first[lattice], window.size[lattice]) =
                node_extent(spec, self.spacing[lattice], MOST_CLIMATE_NODES_A_SIDE);
        }
        NODE_CACHE.with_borrow_mut(|cache| {
            if cache.len() < NODE_CACHE_SLOTS {
                cache.resize(NODE_CACHE_SLOTS, (NodeKey::EMPTY, 0.0));
            }
            for field in 0..FIELDS {
                let lattice = LATTICE_OF[field];
                let ([x0, z0], [nx, nz]) = (window.first[lattice], window.size[lattice]);
                let nodes = &mut window.nodes[field];
                nodes.clear();
                for j in 0..nz as i64 {
                    for i in 0..nx as i64 {
                        nodes.push(self.node(cache, tables, field, x0 + i, z0 + j));
                    }
                }
            }
        });
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

    /// Each field's bounds over the whole rectangle from the first to the last sample of
    /// `spec`, every point in between included: the bounds at its samples, widened by the most
    /// a B-spline can stray from them between four neighbouring samples. A few samples far
    /// apart then bound a rectangle as safely as the climate at every point of it would, and
    /// at a small fraction of the cost.
    ///
    /// Inside a cell `dx` by `dz`, a field lies within `dx²/8 · max|∂²f/∂x²| + dz²/8 ·
    /// max|∂²f/∂z²|` of the bilinear blend of its corners (the error of linear interpolation,
    /// once per axis), and the blend lies within the corners' range. Its gradient lies as near
    /// the blend of the corners' gradients, with the third derivatives in place of the second,
    /// and that blend is no longer than the longest of them. A B-spline's `k`-th derivative is a
    /// B-spline of its nodes' `k`-th differences over `spacing^k`, with positive weights that
    /// sum to 1: the largest difference over the window's nodes bounds it.
    pub fn bounds_between(
        &self,
        tables: &NoiseTables,
        spec: &GridSpec,
        scratch: &mut (ClimateWindow, Vec<ClimateSample>),
    ) -> [FieldBounds; FIELDS] {
        let (window, climate) = scratch;
        self.window(tables, spec, window);
        self.fill(spec, &mut *window, climate);
        let mut bounds = FieldBounds::over(climate);
        let [dx, dz] = spec.step.map(f64::abs);
        for (field, b) in bounds.iter_mut().enumerate() {
            let lattice = LATTICE_OF[field];
            let h = self.spacing[lattice];
            let d = Differences::of(&window.nodes[field], window.size[lattice][0]);
            let value = (dx * dx * d.xx + dz * dz * d.zz) / (8.0 * h * h);
            let slope_x = (dx * dx * d.xxx + dz * dz * d.xzz) / (8.0 * h * h * h);
            let slope_z = (dx * dx * d.xxz + dz * dz * d.zzz) / (8.0 * h * h * h);
            b.low -= value;
            b.high += value;
            b.gradient += slope_x.hypot(slope_z);
        }
        bounds
    }
}

/// The largest differences of a field's nodes (second and third, along and across the axes):
/// `xx` is `max |n[i−1] − 2n[i] + n[i+1]|` along x, `xzz` the difference along x of the second
/// differences along z, and so on.
#[derive(Default)]
struct Differences {
    xx: f64,
    zz: f64,
    xxx: f64,
    zzz: f64,
    xzz: f64,
    xxz: f64,
}

impl Differences {
    /// Over `nodes`, rows of `width` (not finite where a node is not).
    fn of(nodes: &[f32], width: usize) -> Self {
        let mut d = Differences::default();
        if width == 0 {
            return d;
        }
        let height = nodes.len() / width;
        let at = |i: usize, j: usize| f64::from(nodes[j * width + i]);
        // `max` would skip a NaN: carry it instead, so that the bounds refuse.
        let most = |m: &mut f64, v: f64| {
            *m = if v.is_nan() || m.is_nan() {
                f64::NAN
            } else {
                m.max(v.abs())
            }
        };
        let second = |a: f64, b: f64, c: f64| a - 2.0 * b + c;
        for j in 0..height {
            for i in 0..width {
                if i + 2 < width {
                    most(&mut d.xx, second(at(i, j), at(i + 1, j), at(i + 2, j)));
                }
                if j + 2 < height {
                    most(&mut d.zz, second(at(i, j), at(i, j + 1), at(i, j + 2)));
                }
                if i + 3 < width {
                    let (a, b) = (at(i, j), at(i + 1, j));
                    most(&mut d.xxx, at(i + 3, j) - 3.0 * at(i + 2, j) + 3.0 * b - a);
                }
                if j + 3 < height {
                    let (a, b) = (at(i, j), at(i, j + 1));
                    most(&mut d.zzz, at(i, j + 3) - 3.0 * at(i, j + 2) + 3.0 * b - a);
                }
                if i + 1 < width && j + 2 < height {
                    let column = |i| second(at(i, j), at(i, j + 1), at(i, j + 2));
                    most(&mut d.xzz, column(i + 1) - column(i));
                }
                if i + 2 < width && j + 1 < height {
                    let row = |j| second(at(i, j), at(i + 1, j), at(i + 2, j));
                    most(&mut d.xxz, row(j + 1) - row(j));
                }
            }
        }
        d
    }
}

/// The most climate nodes a window holds along one axis (that many span over 80 000 km at the
/// smallest climate scale).
const MOST_CLIMATE_NODES_A_SIDE: i64 = 1 << 20;

/// The first node and the number of nodes, per axis, of a lattice `spacing` metres apart over
/// the grid `spec`: every node whose B-spline reaches one of its samples (at most `most` a
/// side).
pub(super) fn node_extent(spec: &GridSpec, spacing: f64, most: i64) -> ([i64; 2], [usize; 2]) {
    let (mut first, mut size) = ([0; 2], [0; 2]);
    for axis in 0..2 {
        let last = spec.size[axis].saturating_sub(1);
        let (a, b) = (
            cell(spec.position(axis, 0), spacing),
            cell(spec.position(axis, last), spacing),
        );
        first[axis] = a.min(b) - 1;
        size[axis] = (a.max(b) - a.min(b) + 4).clamp(0, most) as usize;
    }
    (first, size)
}

/// The lattice cell holding `x` (nodes `cell − 1 ..= cell + 2` weigh in there).
pub(super) fn cell(x: f64, spacing: f64) -> i64 {
    farthest((x / spacing).floor()) as i64
}

/// A cell index within 2⁶⁰ of the origin: a coordinate beyond any plane a world could hold
/// (or infinite) is taken as there, so that sums and differences of cells never overflow.
fn farthest(cell: f64) -> f64 {
    const FARTHEST: f64 = (1u64 << 60) as f64;
    cell.clamp(-FARTHEST, FARTHEST)
}

/// The cubic B-spline's four weights at one coordinate, and their derivatives per metre.
#[derive(Clone, Debug)]
pub(super) struct Basis {
    pub cell: i64,
    pub weights: [f32; 4],
    pub slopes: [f32; 4],
}

impl Basis {
    /// The weights at `x` of a lattice of nodes `spacing` apart (nodes `cell − 1 ..= cell + 2`
    /// weigh in).
    pub fn at(x: f64, spacing: f64) -> Self {
        let t = x / spacing;
        let cell = farthest(t.floor());
        // In `0..=1` but beyond the farthest cell.
        let u = ((t - cell) as f32).clamp(0.0, 1.0);
        let v = 1.0 - u;
        let per_metre = (1.0 / spacing) as f32;
        Self {
            cell: cell as i64,
            weights: [
                v * v * v / 6.0,
                (3.0 * u * u * u - 6.0 * u * u + 4.0) / 6.0,
                (-3.0 * u * u * u + 3.0 * u * u + 3.0 * u + 1.0) / 6.0,
                u * u * u / 6.0,
            ],
            slopes: [
                -0.5 * v * v * per_metre,
                (1.5 * u * u - 2.0 * u) * per_metre,
                (-1.5 * u * u + u + 0.5) * per_metre,
                0.5 * u * u * per_metre,
            ],
        }
    }

    /// `Σ w[k] · n[k]`, in order.
    #[inline]
    pub fn weighted(&self, w: &[f32; 4], n: [f32; 4]) -> f32 {
        w[0] * n[0] + w[1] * n[1] + w[2] * n[2] + w[3] * n[3]
    }
}

/// A node of one field of one climate: everything its value depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NodeKey {
    seed: u64,
    scale: u32,
    field: u8,
    ix: i64,
    iz: i64,
}

impl NodeKey {
    /// No node (no scale is 0: the validation asks for 500 m at least).
    const EMPTY: NodeKey = NodeKey {
        seed: 0,
        scale: 0,
        field: 0,
        ix: 0,
        iz: 0,
    };

    fn slot(&self) -> usize {
        let lattice = u64::from(self.field) ^ u64::from(self.scale) << 8;
        cache_slot([self.ix as u64, self.iz as u64, lattice], NODE_CACHE_SLOTS)
    }
}

/// The slot of a key made of `words` in a direct-mapped cache of `slots` (a power of two):
/// each word mixed in by a multiplication and a shift, so that nearby nodes (whose indices
/// differ in their low bits only) spread over every slot. Combining the words' products by
/// exclusive or, as before 2026-11-29, sent pairs such as (3, 91) and (5, 92) to one slot.
pub(super) fn cache_slot(words: [u64; 3], slots: usize) -> usize {
    let mut h = 0u64;
    for w in words {
        h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        h ^= h >> 32;
    }
    (h >> (u64::BITS - slots.trailing_zeros())) as usize
}

/// Slots of each thread's node cache (a node costs a few octaves of noise; a level-0 chunk
/// needs 48, and its neighbours mostly the same ones; a coarse chunk's window up to about
/// 100): 320 KiB a thread. With 2 048, the chunks inside one biome in `biome_ratios` built about
/// 1 % slower (2026-11-29).
const NODE_CACHE_SLOTS: usize = 8192;

thread_local! {
    /// Recently computed nodes, direct-mapped: a node's value is a pure function of its key,
    /// so a hit returns exactly what computing it would.
    static NODE_CACHE: RefCell<Vec<(NodeKey, f32)>> = const { RefCell::new(Vec::new()) };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(scale: f32) -> ClimateField {
        ClimateField::new(&Climate {
            scale,
            continent_scale: 2.0 * scale,
            blend: 100.0,
        })
    }

    /// The climate of a grid, and of each of its samples alone.
    fn grid_and_points(
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
    fn nearby_nodes_spread_over_the_node_cache() {
        // The nodes of three fields over 24 × 24 lattice cells: a few coarse chunks' windows.
        // Into 8 192 slots, 1 728 keys hashed at random would take about 90 % of them apart;
        // the words' products combined by exclusive or (before 2026-11-29) took 81 %, sending
        // neighbours such as (3, 91) and (5, 92) to one slot.
        let mut slots = std::collections::HashSet::new();
        let mut keys = 0;
        for field in 0..FIELDS as u8 {
            for ix in -12..12 {
                for iz in 80..104 {
                    let scale = 6000.0f32.to_bits();
                    let key = NodeKey {
                        seed: 7,
                        scale,
                        field,
                        ix,
                        iz,
                    };
                    slots.insert(key.slot());
                    keys += 1;
                }
            }
        }
        assert!(
            slots.len() * 100 >= keys * 87,
            "{} slots for {keys} keys",
            slots.len()
        );
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
    fn the_bounds_between_a_few_samples_hold_every_point_of_their_rectangle() {
        // Fields of a short scale (nodes 150 and 300 m apart), bounded from samples 128 m and
        // 97 m apart: their extremes often fall between samples.
        let f = field(900.0);
        let (mut widened, mut scratch) = (0usize, Default::default());
        for seed in 0..6 {
            let tables = NoiseTables::from_seed(seed);
            for k in 0..8 {
                let origin = [seed as f64 * 7919.0 - k as f64 * 311.0, k as f64 * 523.0];
                let sparse = GridSpec {
                    step: [128.0, 97.0],
                    ..GridSpec::new(origin, 1.0, [4 + k % 3, 3 + k % 4])
                };
                let bounds = f.bounds_between(&tables, &sparse, &mut scratch);
                // Every 4 m over the same rectangle.
                let extent = [0, 1].map(|a| sparse.step[a] * (sparse.size[a] - 1) as f64);
                let dense = GridSpec {
                    step: [4.0, 4.0],
                    ..GridSpec::new(origin, 1.0, extent.map(|e| (e / 4.0) as usize + 1))
                };
                let (points, _) = grid_and_points(&f, &tables, &dense);
                let corners = FieldBounds::over(&scratch.1);
                for field in 0..FIELDS {
                    let b = bounds[field];
                    // Within f32 rounding of the bounds.
                    for p in &points {
                        let [gx, gz] = p.gradient[field];
                        let (v, g) = (f64::from(p.value[field]), f64::from(gx.hypot(gz)));
                        assert!(
                            v >= b.low - 1e-6
                                && v <= b.high + 1e-6
                                && g <= b.gradient * (1.0 + 1e-5),
                            "seed {seed}, rectangle {k}, field {field}: {v}, |g| {g} outside {b:?}"
                        );
                    }
                    let c = corners[field];
                    let inside = |p: &ClimateSample| {
                        let [gx, gz] = p.gradient[field];
                        let (v, g) = (f64::from(p.value[field]), f64::from(gx.hypot(gz)));
                        v >= c.low && v <= c.high && g <= c.gradient
                    };
                    widened += usize::from(!points.iter().all(inside));
                    // Not much wider than the points' own range (the B-spline's curvature over
                    // 128 m against nodes 150 m apart is large: a loose ceiling).
                    let low = points
                        .iter()
                        .map(|p| p.value[field])
                        .fold(f32::INFINITY, f32::min);
                    assert!(f64::from(low) - b.low < 0.5, "{low} against {b:?}");
                }
            }
        }
        // The samples' own bounds would not have held most rectangles.
        assert!(
            widened > 6 * 8 * FIELDS / 2,
            "{widened} rectangles needed the widening"
        );
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
