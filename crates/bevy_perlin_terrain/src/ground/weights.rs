//! The biomes' weights over a grid: each biome's weight at the nodes of a square lattice (its
//! membership there over the sum, from the climate at the node), smoothed by a cubic B-spline
//! and divided by the sum of the biomes' B-splines at each sample.
//!
//! The B-splines sum to 1 already (the nodes' weights do, and a B-spline's weights are a
//! partition of unity): the division only removes rounding, so that a sample where one biome
//! weighs everything has weight exactly 1 and gradient exactly 0, the same bits as a grid that
//! computes that biome alone. A biome that weighs nothing at a sample's 4 × 4 nodes weighs
//! exactly 0 there; where one biome weighs 1 at all of them (the others 0), no B-spline is
//! computed: it weighs exactly 1 there, with gradient 0, the others 0. Where the climate at
//! every node of a grid keeps clear of each border by more than a step's reach, one biome
//! weighs exactly 1 at all of them, and no node's memberships are computed; a window of many
//! nodes first bounds the climate over its whole rectangle from every fourth or second of them
//! (`ClimateField::bounds_between`), and needs no other node's climate where that suffices.
//! Otherwise every node's memberships are computed at once, side by side in the CPU's widest
//! vectors (`Biomes::weigh_climates`); a small window (the sampler's, a fine chunk's) reads and
//! keeps them in the thread's cache, which its neighbours share. A sample's weights depend only
//! on its position and the lattice's spacing, so grids of one spacing (a chunk, its
//! neighbours, the sampler at level 0) agree bit for bit.

use super::biomes::Biomes;
use super::climate::{Basis, ClimateSample, ClimateWindow, FieldBounds, cache_slot, node_extent};
use crate::config::MAX_BIOMES;
use perlin_core::{GridSpec, NoiseTables};
use std::cell::RefCell;
use std::ops::Range;

/// The weight nodes over a grid: where they start, how many, which biomes weigh anything at
/// them, and those biomes' weights per node.
#[derive(Clone, Debug, Default)]
pub(crate) struct WeightWindow {
    spacing: f64,
    first: [i64; 2],
    size: [usize; 2],
    /// The biomes (indices in the config's list) that weigh anything at some node, in order.
    pub live: Vec<usize>,
    /// Per live biome, its weight at each node (row-major).
    nodes: Vec<f32>,
    /// The biomes (their id) and the lattice spacing (its bits) the nodes are of, while they
    /// hold a window: with `first` and `size`, everything the window's contents depend on.
    of: Option<(u64, u64)>,
    /// The climate window and samples of [`Biomes::sole_biome_between`].
    climate: (ClimateWindow, Vec<ClimateSample>),
}

impl Biomes {
    /// The weight nodes over the grid `spec` (samples `spacing` apart: a chunk's level) into
    /// `window`; `false`, and no node, where they would be more than [`MAX_WEIGHT_NODES`].
    pub fn weight_window(
        &self,
        tables: &NoiseTables,
        spec: &GridSpec,
        spacing: f64,
        window: &mut WeightWindow,
    ) -> bool {
        let lattice = self.weight_spacing(spacing);
        let of = Some((self.id, lattice.to_bits()));
        let (first, size) = node_extent(spec, lattice, MOST_WEIGHT_NODES_A_SIDE);
        if window.of == of && (window.first, window.size) == (first, size) {
            // The same nodes as the last window (a chunk's parent grid covers the chunk).
            return true;
        }
        window.of = None;
        window.spacing = lattice;
        (window.first, window.size) = (first, size);
        window.live.clear();
        window.nodes.clear();
        let [nx, nz] = window.size;
        if nx * nz > MAX_WEIGHT_NODES {
            window.size = [0; 2];
            return false;
        }
        // The thread's cache serves small windows (the sampler's, a fine chunk's), whose
        // neighbours share most of their nodes; a larger one computes them all at once.
        let cached = nx * nz <= CACHED_WINDOW_NODES;
        if cached && let Some(weighed) = self.cached_window(window) {
            window.hold_weighed(&weighed, nx * nz, of);
            return true;
        }
        // A window with a node missing from the cache has likely never been on a border (a
        // window inside one biome keeps none of its nodes), and a large one is not looked up:
        // first the cheap test of its whole rectangle.
        if let Some(only) = self.sole_biome_between(tables, window) {
            window.hold_one(only, of);
            return true;
        }
        // Every node's climate, from one climate grid over them.
        let nodes = GridSpec::new([0.0, 0.0], lattice, window.size).with_start(window.first);
        self.climate_at_nodes(tables, &nodes, &mut window.climate);
        let climate = &window.climate.1;
        // Where the climate over the nodes keeps clear of every border by more than a step's
        // reach (a grid inside one biome), that biome weighs exactly 1 at each node (the
        // others 0): no node's memberships need computing. More nodes only widen the bounds,
        // so the first row's bounds rule out most windows on a border at once.
        let first_row = FieldBounds::over(&climate[..nx.min(climate.len())]);
        let sole = self
            .sole_biome(&first_row)
            .and_then(|_| self.sole_biome(&FieldBounds::over(climate)));
        if let Some(only) = sole {
            window.hold_one(only, of);
            return true;
        }
        // Every node's weights at once, biome by biome; the thread's cache keeps them (of a
        // small window).
        let mut weighed = Vec::new();
        self.weigh_climates(climate, &mut weighed);
        if cached {
            self.cache_window(window, &weighed);
        }
        window.hold_weighed(&weighed, nx * nz, of);
        true
    }

    /// The biome that weighs exactly 1 at every node of `window` (its lattice, first node and
    /// size set), and every other exactly 0, if the climate's bounds over the window's whole
    /// rectangle show one
    /// ([`bounds_between`](super::climate::ClimateField::bounds_between)). Those bounds come
    /// from nodes at most [`BETWEEN_METRES`] apart; where that would be every node, or would
    /// save fewer than [`BETWEEN_SAVES_AT_LEAST`], `None` (the nodes' own bounds are then as
    /// cheap, and tighter).
    fn sole_biome_between(&self, tables: &NoiseTables, window: &mut WeightWindow) -> Option<usize> {
        let lattice = window.spacing;
        let stride = (BETWEEN_METRES / lattice).floor();
        if stride.is_nan() || stride < 2.0 {
            return None;
        }
        let size = window
            .size
            .map(|n| n.saturating_sub(1).div_ceil(stride as usize) + 1);
        // The climate window's set-up costs about as much as a hundred nodes' climate.
        if window.size[0] * window.size[1] < size[0] * size[1] + BETWEEN_SAVES_AT_LEAST {
            return None;
        }
        let step = stride * lattice;
        let origin = window.first.map(|i| i as f64 * lattice);
        let spec = GridSpec::new(origin, step, size);
        let bounds = self
            .climate_field()
            .bounds_between(tables, &spec, &mut window.climate);
        self.sole_biome(&bounds)
    }

    /// The climate at every node of `nodes` (a weight lattice's grid) into `out`, from one
    /// climate window over them (`climate_window`).
    fn climate_at_nodes(
        &self,
        tables: &NoiseTables,
        nodes: &GridSpec,
        (climate_window, out): &mut (ClimateWindow, Vec<ClimateSample>),
    ) {
        self.climate_field().window(tables, nodes, climate_window);
        self.climate_field().fill(nodes, climate_window, out);
    }

    /// Node `(ix, iz)` of these biomes' lattice `spacing` metres apart, as the cache knows it.
    fn node_key(&self, spacing: f64, ix: i64, iz: i64) -> NodeKey {
        NodeKey {
            id: self.id,
            spacing: spacing.to_bits(),
            ix,
            iz,
        }
    }

    /// Node `k` (row-major) of `window` (its lattice, first node and size set), as the cache
    /// knows it.
    fn window_node_key(&self, window: &WeightWindow, k: usize) -> NodeKey {
        let ([x0, z0], nx) = (window.first, window.size[0].max(1));
        self.node_key(window.spacing, x0 + (k % nx) as i64, z0 + (k / nx) as i64)
    }

    /// The weights of every node of `window` (its lattice, first node and size set), biome by
    /// biome (`[b · nodes + k]` for biome `b` of the config and node `k`), if the thread's
    /// cache has them all.
    fn cached_window(&self, window: &WeightWindow) -> Option<Vec<f32>> {
        let nodes = window.size[0] * window.size[1];
        let count = self.list().len();
        let mut weighed = Vec::new();
        WEIGHT_CACHE.with_borrow(|cache| {
            for k in 0..nodes {
                let key = self.window_node_key(window, k);
                let (_, w) = cache.get(key.slot()).filter(|(at, _)| *at == key)?;
                // Room for the weights only once the first node is found (a window inside one
                // biome has none of its nodes there).
                weighed.resize(count * nodes, 0.0);
                for (b, &w) in w.iter().take(count).enumerate() {
                    weighed[b * nodes + k] = w;
                }
            }
            Some(weighed)
        })
    }

    /// Keeps the weights of every node of `window` (`weighed`, as
    /// [`cached_window`](Self::cached_window) gives them) in the thread's cache.
    fn cache_window(&self, window: &WeightWindow, weighed: &[f32]) {
        let nodes = window.size[0] * window.size[1];
        WEIGHT_CACHE.with_borrow_mut(|cache| {
            if cache.len() < CACHE_SLOTS {
                cache.resize(CACHE_SLOTS, (NodeKey::EMPTY, [0.0; MAX_BIOMES]));
            }
            for k in 0..nodes {
                let key = self.window_node_key(window, k);
                let w = std::array::from_fn(|b| {
                    weighed.get(b * nodes + k).copied().unwrap_or_default()
                });
                if let Some(slot) = cache.get_mut(key.slot()) {
                    *slot = (key, w);
                }
            }
        });
    }

    /// The weights of `window`'s live biomes and their gradients at each sample of `spec`,
    /// biome by biome (`weights[b · n + s]` for live biome `b` and sample `s` of `n`).
    pub fn fill_weights(
        &self,
        spec: &GridSpec,
        window: &WeightWindow,
        weights: &mut Vec<f32>,
        gradients: &mut Vec<[f32; 2]>,
    ) {
        let [nx, nz] = spec.size;
        let n = nx * nz;
        let live = window.live.len();
        // Every entry is written below: the buffers only grow.
        if weights.len() < n * live {
            weights.resize(n * live, 0.0);
        }
        if gradients.len() < n * live {
            gradients.resize(n * live, [0.0; 2]);
        }
        let [width, height] = window.size;
        let per_biome = width * height;
        let columns: Vec<(Basis, usize)> = (0..nx)
            .map(|i| {
                let basis = Basis::at(spec.position(0, i), window.spacing);
                let left = (basis.cell - 1 - window.first[0]).max(0) as usize;
                (basis, left)
            })
            .collect();
        // Per row, each live biome's nodes collapsed along z: the value and its z derivative,
        // `width` of them and three zeros (a sample's four columns are always inside).
        let segment = width + 3;
        let mut collapsed: Vec<[f32; 2]> = Vec::with_capacity(live * segment);
        let mut sample = [[0.0f32; 3]; MAX_BIOMES];
        // Each live biome's `[value, ∂x, ∂z]` lanes of a block of eight or four samples: every
        // block writes those it reads, so they are set to zero once, not per block.
        let (mut eight, mut four) = (vec![[[0.0; 8]; 3]; live], vec![[[0.0; 4]; 3]; live]);
        // Per first node column of a sample, the live biome whose weight is 1 at all 4 × 4 of
        // its nodes (the others' 0), if there is one; for the rows of nodes from `pure_top`.
        let (mut pure, mut pure_top) = (Vec::with_capacity(width), None);
        let purity = window.node_purity();
        for j in 0..nz {
            let row = Basis::at(spec.position(1, j), window.spacing);
            let top = (row.cell - 1 - window.first[1]).max(0) as usize;
            if pure_top != Some(top) {
                pure_top = Some(top);
                pure.clear();
                pure.extend((0..width).map(|left| window.pure_biome(left, top, &purity)));
            }
            collapsed.clear();
            for b in 0..live {
                let nodes = &window.nodes[b * per_biome..(b + 1) * per_biome];
                let collapse = |four: [f32; 4]| {
                    [
                        row.weighted(&row.weights, four),
                        row.weighted(&row.slopes, four),
                    ]
                };
                let node_row = |k: usize| nodes.get((top + k) * width..(top + k + 1) * width);
                match [node_row(0), node_row(1), node_row(2), node_row(3)] {
                    [Some(r0), Some(r1), Some(r2), Some(r3)] => {
                        let rows = r0.iter().zip(r1).zip(r2).zip(r3);
                        collapsed.extend(rows.map(|(((&a, &b), &c), &d)| collapse([a, b, c, d])));
                    }
                    // Rows past the window's (not reached: the window holds every sample's
                    // nodes) weigh nothing.
                    _ => collapsed.extend((0..width).map(|i| {
                        let at =
                            |k: usize| nodes.get((top + k) * width + i).copied().unwrap_or(0.0);
                        collapse([at(0), at(1), at(2), at(3)])
                    })),
                }
                collapsed.extend([[0.0; 2]; 3]);
            }
            let row_nodes = RowNodes {
                collapsed: &collapsed,
                segment,
                live,
            };
            let mut i = 0;
            while i < nx {
                if let Some(&Some(only)) = pure.get(columns[i].1) {
                    // All 16 nodes of these samples are one biome's: it weighs exactly 1,
                    // without slope, and the others exactly 0 (the B-splines' result, up to the
                    // sign of a zero). The run lasts while the samples' nodes are.
                    let run = columns[i..]
                        .iter()
                        .take_while(|&&(_, left)| pure.get(left) == Some(&Some(only)))
                        .count();
                    all_to_one(
                        only,
                        (live, n, j * nx + i..j * nx + i + run),
                        weights,
                        gradients,
                    );
                    i += run;
                    continue;
                }
                // Eight samples between the same node columns (most blocks of a fine grid), or
                // four (a coarse grid's, whose nodes are four samples apart): their B-splines
                // side by side.
                let (rest, at) = (&columns[i..], (n, j * nx + i));
                if row_nodes.blend_block(rest, at, &mut eight, weights, gradients) {
                    i += 8;
                    continue;
                }
                if row_nodes.blend_block(rest, at, &mut four, weights, gradients) {
                    i += 4;
                    continue;
                }
                let (column, left) = &columns[i];
                let s = j * nx + i;
                i += 1;
                // Each live biome's B-spline and its gradient, and their sums.
                let (mut sum, mut sum_x, mut sum_z) = (0.0f32, 0.0f32, 0.0f32);
                for (b, out) in sample[..live].iter_mut().enumerate() {
                    let (values, slopes) = four_nodes(&collapsed, b * segment + left);
                    *out = [
                        column.weighted(&column.weights, values),
                        column.weighted(&column.slopes, values),
                        column.weighted(&column.weights, slopes),
                    ];
                    sum += out[0];
                    sum_x += out[1];
                    sum_z += out[2];
                }
                if sum <= 0.0 {
                    // The nodes' weights sum to 1: not reached. The first biome takes it.
                    all_to_one(0, (live, n, s..s + 1), weights, gradients);
                    continue;
                }
                for (b, &[x, dx, dz]) in sample[..live].iter().enumerate() {
                    (weights[b * n + s], gradients[b * n + s]) =
                        normalised([x, dx, dz], [sum, sum_x, sum_z]);
                }
            }
        }
    }

    /// The live biomes of the single point `(x, z)` of a grid of samples `spacing` apart,
    /// with their weights (in the config's order).
    pub fn weights_at(
        &self,
        tables: &NoiseTables,
        x: f64,
        z: f64,
        spacing: f64,
    ) -> Vec<(usize, f32)> {
        let spec = GridSpec::new([x, z], spacing, [1, 1]);
        let mut window = WeightWindow::default();
        // One sample's window is four nodes a side: it always fits.
        self.weight_window(tables, &spec, spacing, &mut window);
        let (mut weights, mut gradients) = (Vec::new(), Vec::new());
        self.fill_weights(&spec, &window, &mut weights, &mut gradients);
        (window.live.iter().copied().zip(weights))
            .filter(|(_, w)| *w > 0.0)
            .collect()
    }
}

/// A sample's four node columns of one biome from `start` in a row's collapsed nodes: their
/// values and their slopes along `z` (zeros past the row's end, not reached).
#[inline(always)]
fn four_nodes(collapsed: &[[f32; 2]], start: usize) -> ([f32; 4], [f32; 4]) {
    let [c0, c1, c2, c3]: [[f32; 2]; 4] = collapsed
        .get(start..start + 4)
        .and_then(|c| c.try_into().ok())
        .unwrap_or_default();
    ([c0[0], c1[0], c2[0], c3[0]], [c0[1], c1[1], c2[1], c3[1]])
}

/// One row's weight nodes, as [`Biomes::fill_weights`] reads them: each live biome's nodes
/// collapsed along `z` (`segment` apart in `collapsed`).
struct RowNodes<'a> {
    collapsed: &'a [[f32; 2]],
    segment: usize,
    live: usize,
}

impl RowNodes<'_> {
    /// The weights and gradients of the first `L` samples of `columns` (each one's basis and
    /// first node column), from sample `s` (of `n`) of the row, when their columns share their
    /// nodes (which the caller has found not all one biome's): each live biome's nodes weighed
    /// by each sample's basis, into `out`'s lanes (one entry per live biome). Each sample's
    /// arithmetic is the single sample's (the same products and sums in the same order), so its
    /// bits are too; the lanes side by side vectorise. `false`, writing no weight, where there
    /// are fewer than `L` samples, their columns differ, or some sample's sum is not positive
    /// (not reached), for the single samples to handle.
    #[allow(clippy::needless_range_loop, reason = "lanes of arrays side by side")]
    fn blend_block<const L: usize>(
        &self,
        columns: &[(Basis, usize)],
        (n, s): (usize, usize),
        out: &mut [[[f32; L]; 3]],
        weights: &mut [f32],
        gradients: &mut [[f32; 2]],
    ) -> bool {
        let (Some(block), live) = (columns.get(..L), self.live) else {
            return false;
        };
        let left = block[0].1;
        // A row's node columns only move one way: the first and last sample tell.
        if out.len() != live || block[L - 1].1 != left {
            return false;
        }
        // Lane `l` of `[value, ∂x, ∂z]`, per biome (in `out`) and summed.
        let mut sums = [[0.0f32; L]; 3];
        for (b, out) in out.iter_mut().enumerate() {
            let (values, slopes) = four_nodes(self.collapsed, b * self.segment + left);
            for l in 0..L {
                let basis = &block[l].0;
                out[0][l] = basis.weighted(&basis.weights, values);
                out[1][l] = basis.weighted(&basis.slopes, values);
                out[2][l] = basis.weighted(&basis.weights, slopes);
                for k in 0..3 {
                    sums[k][l] += out[k][l];
                }
            }
        }
        if !sums[0].iter().all(|&sum| sum > 0.0) {
            return false;
        }
        for (b, out) in out.iter().enumerate() {
            let (Some(weights), Some(gradients)) = (
                weights.get_mut(b * n + s..b * n + s + L),
                gradients.get_mut(b * n + s..b * n + s + L),
            ) else {
                continue;
            };
            for l in 0..L {
                let lane = |v: &[[f32; L]; 3]| [v[0][l], v[1][l], v[2][l]];
                (weights[l], gradients[l]) = normalised(lane(out), lane(&sums));
            }
        }
        true
    }
}

/// A biome's weight and its gradient at a sample, from its B-spline and the B-splines' sums
/// (`[value, ∂x, ∂z]` each).
#[inline(always)]
fn normalised([x, dx, dz]: [f32; 3], [sum, sum_x, sum_z]: [f32; 3]) -> (f32, [f32; 2]) {
    let w = x / sum;
    (w, [(dx - w * sum_x) / sum, (dz - w * sum_z) / sum])
}

/// Samples `samples` (of `n`) weigh all to live biome `only`: weight 1 and no slope, and 0 for
/// each other of the `live` biomes.
fn all_to_one(
    only: usize,
    (live, n, samples): (usize, usize, Range<usize>),
    weights: &mut [f32],
    gradients: &mut [[f32; 2]],
) {
    for b in 0..live {
        let at = b * n + samples.start..b * n + samples.end;
        weights[at.clone()].fill(if b == only { 1.0 } else { 0.0 });
        gradients[at].fill([0.0; 2]);
    }
}

impl WeightWindow {
    /// Holds biome `only` alone, weighing 1 at every node (its nodes set), for the biomes and
    /// lattice `of`.
    fn hold_one(&mut self, only: usize, of: Option<(u64, u64)>) {
        self.live.push(only);
        self.nodes.resize(self.size[0] * self.size[1], 1.0);
        self.of = of;
    }

    /// Holds the biomes that weigh anything at some node, from every biome's weights at each of
    /// the window's `nodes` nodes (`weighed[b · nodes + k]` for biome `b` of the config), for
    /// the biomes and lattice `of`.
    fn hold_weighed(&mut self, weighed: &[f32], nodes: usize, of: Option<(u64, u64)>) {
        for (b, weights) in weighed.chunks_exact(nodes.max(1)).enumerate() {
            if weights.iter().any(|&w| w > 0.0) {
                self.live.push(b);
                self.nodes.extend_from_slice(weights);
            }
        }
        self.of = of;
    }

    /// Per node (row-major), the live biome (its slot in `live`) that weighs exactly 1 there
    /// while every other weighs exactly 0, or [`MIXED`] where none does.
    fn node_purity(&self) -> Vec<u8> {
        let per_biome = self.size[0] * self.size[1];
        let live = 0..self.live.len();
        let weight = |b: usize, k: usize| self.nodes.get(b * per_biome + k).copied();
        (0..per_biome)
            .map(|k| {
                let Some(only) = live.clone().find(|&b| weight(b, k) == Some(1.0)) else {
                    return MIXED;
                };
                let others_zero = live
                    .clone()
                    .filter(|&b| b != only)
                    .all(|b| weight(b, k) == Some(0.0));
                match u8::try_from(only) {
                    Ok(only) if others_zero => only,
                    _ => MIXED,
                }
            })
            .collect()
    }

    /// The live biome (its slot in `live`) that weighs exactly 1 at each of the 4 × 4 nodes
    /// from column `left` and row `top` while every other weighs exactly 0, if one does, by
    /// the nodes' `purity` ([`node_purity`](Self::node_purity)).
    fn pure_biome(&self, left: usize, top: usize, purity: &[u8]) -> Option<usize> {
        let [width, height] = self.size;
        if left + 4 > width || top + 4 > height {
            return None;
        }
        let only = *purity.get(top * width + left)?;
        if only == MIXED {
            return None;
        }
        let four = |r: usize| purity.get(r * width + left..r * width + left + 4);
        (top..top + 4)
            .all(|r| four(r).is_some_and(|row| row.iter().all(|&p| p == only)))
            .then_some(usize::from(only))
    }
}

/// A node where no live biome weighs exactly 1 (see [`WeightWindow::node_purity`]).
const MIXED: u8 = u8::MAX;

/// A weight node of one config's biomes: everything its weights depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NodeKey {
    id: u64,
    spacing: u64,
    ix: i64,
    iz: i64,
}

impl NodeKey {
    /// No node (biome ids start at 1).
    const EMPTY: NodeKey = NodeKey {
        id: 0,
        spacing: 0,
        ix: 0,
        iz: 0,
    };

    fn slot(&self) -> usize {
        cache_slot(
            [self.ix as u64, self.iz as u64, self.spacing ^ self.id],
            CACHE_SLOTS,
        )
    }
}

/// The most metres between two of the nodes whose climate bounds a window's rectangle in
/// [`Biomes::sole_biome_between`]. Between them a field strays from its corners by up to
/// `d²/4 · max|f''|`: about 0.006 climate units at 128 m, against a step's reach of about 0.07.
const BETWEEN_METRES: f64 = 128.0;

/// How many nodes' climate [`Biomes::sole_biome_between`] must save to be tried: a window of
/// fewer nodes (a fine chunk's, 36 or 64) computes them all sooner than the climate window of
/// the test's own few (2026-11-28, `docs/benchmarks.md`).
const BETWEEN_SAVES_AT_LEAST: usize = 100;

/// The most nodes of a window that reads and fills the thread's weight-node cache: a level-0 or
/// level-1 chunk's window of the world preset (36 or 64 nodes) and the sampler's (16) do. A
/// coarser chunk's (144 to 400) would only push its neighbours' out before they are read: in
/// the views of `biome_ratios`, such windows found none of their nodes there (2026-11-29).
const CACHED_WINDOW_NODES: usize = 64;

/// Slots of each thread's weight-node cache (a node costs the climate and every membership; a
/// level-0 chunk reads 36, its neighbours many of the same ones, and the sampler 16 per
/// point).
const CACHE_SLOTS: usize = 2048;

/// The most weight nodes one window may hold (2²², under 1 GiB with their climate): at the
/// world preset's full detail, a square about 130 km a side. A chunk's holds a few hundred; a
/// caller's grid spread far wider than its samples (a map of hundreds of kilometres at full
/// detail) would hold billions.
pub(crate) const MAX_WEIGHT_NODES: usize = 1 << 22;

/// The most weight nodes a window holds along one axis.
const MOST_WEIGHT_NODES_A_SIDE: i64 = 1 << 16;

thread_local! {
    /// Recently computed weight nodes, direct-mapped: a node's weights are a pure function of
    /// its key, so a hit returns exactly what computing them would.
    static WEIGHT_CACHE: RefCell<Vec<(NodeKey, [f32; MAX_BIOMES])>> =
        const { RefCell::new(Vec::new()) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::parse_config;

    /// The world preset's biomes and its tables.
    fn world() -> (Biomes, NoiseTables) {
        let bytes = include_bytes!("../../../../assets/terrain/world.terrain.ron");
        let config = parse_config("world.terrain.ron", bytes).expect("the world preset parses");
        let biomes = Biomes::new(&config.climate, &config.biomes).expect("the world has biomes");
        (biomes, NoiseTables::from_seed(config.seed))
    }

    /// The weights and gradients, per biome of the config, of each sample of `spec` (samples
    /// `spacing` apart), and the window of weight nodes the fill used.
    fn fill(
        biomes: &Biomes,
        tables: &NoiseTables,
        spec: &GridSpec,
        spacing: f64,
    ) -> (Vec<Vec<(f32, [f32; 2])>>, WeightWindow) {
        let mut window = WeightWindow::default();
        assert!(biomes.weight_window(tables, spec, spacing, &mut window));
        let (mut weights, mut gradients) = (Vec::new(), Vec::new());
        biomes.fill_weights(spec, &window, &mut weights, &mut gradients);
        let n = spec.size[0] * spec.size[1];
        let per_sample = (0..n)
            .map(|s| {
                let mut all = vec![(0.0, [0.0; 2]); biomes.list().len()];
                for (slot, &b) in window.live.iter().enumerate() {
                    all[b] = (weights[slot * n + s], gradients[slot * n + s]);
                }
                all
            })
            .collect();
        (per_sample, window)
    }

    /// The weight of each live biome of `window` (a single sample's at `(x, z)`) by the
    /// definition, in `f64`: its nodes weighed by the B-splines of the two coordinates, over
    /// the sum of all of them.
    fn by_definition(window: &WeightWindow, (x, z): (f64, f64)) -> Vec<f64> {
        let (bx, bz) = (Basis::at(x, window.spacing), Basis::at(z, window.spacing));
        let [width, height] = window.size;
        let (row, column) = (
            (bz.cell - 1 - window.first[1]) as usize,
            (bx.cell - 1 - window.first[0]) as usize,
        );
        let spline: Vec<f64> = (0..window.live.len())
            .map(|slot| {
                let nodes = &window.nodes[slot * width * height..];
                (0..16)
                    .map(|k| {
                        let (i, j) = (k % 4, k / 4);
                        f64::from(bx.weights[i])
                            * f64::from(bz.weights[j])
                            * f64::from(nodes[(row + j) * width + column + i])
                    })
                    .sum()
            })
            .collect();
        let sum: f64 = spline.iter().sum();
        spline.iter().map(|w| w / sum).collect()
    }

    /// A border within reach of a grid of samples `spacing` apart: the first point along the
    /// row `z = 3000` (from `x = 0`, every 25 m) whose weights are mixed.
    fn border(biomes: &Biomes, tables: &NoiseTables, spacing: f64) -> f64 {
        (0..4000)
            .map(|k| k as f64 * 25.0)
            .find(|&x| biomes.weights_at(tables, x, 3000.0, spacing).len() > 1)
            .expect("a border within 100 km")
    }

    #[test]
    fn a_grid_weighs_each_sample_as_the_sample_alone_at_every_level() {
        let (biomes, tables) = world();
        // Spacings whose lattices hold 8 to 32 samples a node (fine chunks: blocks of eight on
        // the same nodes) and 4 (coarse ones: each sample on its own).
        for spacing in [1.0, 4.0, 16.0, 64.0, 256.0] {
            let border = border(&biomes, &tables, spacing);
            // Samples of one biome, of them those whose 4 × 4 nodes are all that biome's (a
            // grid writes runs of them at once), and blended samples.
            let (mut pure, mut whole, mut blended) = (0, 0, 0);
            // At least 67 columns and 800 m (across the border into the biomes on either
            // side), no whole number of blocks, starting at each alignment of a node.
            let columns = ((800.0 / spacing) as usize).max(64) / 8 * 8 + 3;
            for shift in 0..4 {
                let first = (border / spacing).round() as i64 - columns as i64 / 2 + shift;
                let spec = GridSpec::new([0.0, 0.0], spacing, [columns, 3])
                    .with_start([first, (3000.0 / spacing).round() as i64]);
                let (grid, _) = fill(&biomes, &tables, &spec, spacing);
                for (s, grid) in grid.iter().enumerate() {
                    let (i, j) = (s % columns, s / columns);
                    let one = GridSpec::new(spec.origin, spacing, [1, 1])
                        .with_start([spec.start[0] + i as i64, spec.start[1] + j as i64]);
                    let (mut alone, window) = fill(&biomes, &tables, &one, spacing);
                    let alone = alone.remove(0);
                    let position = (spec.position(0, i), spec.position(1, j));
                    for (slot, reference) in by_definition(&window, position).iter().enumerate() {
                        let (b, w) = (window.live[slot], grid[window.live[slot]].0);
                        assert!(
                            (f64::from(w) - reference).abs() < 1e-5,
                            "spacing {spacing}, sample {s}, biome {b}: {w}, by definition \
                             {reference}"
                        );
                    }
                    for (b, (&(w, g), &(w1, g1))) in grid.iter().zip(&alone).enumerate() {
                        let same = w.to_bits() == w1.to_bits()
                            && g[0].to_bits() == g1[0].to_bits()
                            && g[1].to_bits() == g1[1].to_bits();
                        assert!(
                            same || (w == 0.0 && w1 == 0.0 && g == [0.0; 2] && g1 == [0.0; 2]),
                            "spacing {spacing}, sample {s}, biome {b}: grid {w} {g:?}, alone \
                             {w1} {g1:?}"
                        );
                    }
                    if grid.iter().any(|&(w, _)| w > 0.0 && w < 1.0) {
                        blended += 1;
                    } else {
                        pure += 1;
                        whole +=
                            usize::from(window.pure_biome(0, 0, &window.node_purity()).is_some());
                    }
                }
            }
            assert!(
                blended > 16 && whole > 16,
                "spacing {spacing}: {blended} blended samples, {pure} of one biome ({whole} of \
                 its nodes alone)"
            );
        }
    }

    /// A chunk of 65² samples `spacing` apart around `(x, z)`, and its weight nodes: where
    /// they start, how many, and the climate at each.
    struct ChunkNodes {
        spec: GridSpec,
        spacing: f64,
        first: [i64; 2],
        size: [usize; 2],
        climate: Vec<ClimateSample>,
        /// Where the chunk is, for messages.
        at: String,
    }

    impl ChunkNodes {
        fn at(biomes: &Biomes, tables: &NoiseTables, spacing: f64, [x, z]: [f64; 2]) -> Self {
            let start = [(x / spacing) as i64 - 32, (z / spacing) as i64 - 32];
            let spec = GridSpec::new([0.0, 0.0], spacing, [65, 65]).with_start(start);
            let (first, size) = node_extent(
                &spec,
                biomes.weight_spacing(spacing),
                MOST_WEIGHT_NODES_A_SIDE,
            );
            let nodes =
                GridSpec::new([0.0, 0.0], biomes.weight_spacing(spacing), size).with_start(first);
            let mut climate = (ClimateWindow::default(), Vec::new());
            biomes.climate_at_nodes(tables, &nodes, &mut climate);
            let climate = climate.1;
            let at = format!("spacing {spacing}, window at ({x}, {z})");
            Self {
                spec,
                spacing,
                first,
                size,
                climate,
                at,
            }
        }

        /// Asserts that each node, weighed one by one, weighs exactly 1 for biome `only` and 0
        /// for every other, and that the grid's window holds `only` alone at 1 everywhere.
        fn assert_only(&self, biomes: &Biomes, tables: &NoiseTables, only: usize) {
            let count = biomes.list().len();
            for (n, c) in self.climate.iter().enumerate() {
                let mut w = [0.0; MAX_BIOMES];
                biomes.weigh_climate(c, &mut w);
                for (b, &w) in w[..count].iter().enumerate() {
                    let expected = if b == only { 1.0 } else { 0.0 };
                    assert_eq!(
                        w.to_bits(),
                        f32::to_bits(expected),
                        "{}, node {n}, biome {b}: {w}",
                        self.at
                    );
                }
            }
            let mut window = WeightWindow::default();
            assert!(biomes.weight_window(tables, &self.spec, self.spacing, &mut window));
            assert_eq!(window.live, [only], "{}", self.at);
            assert_eq!(
                window.nodes,
                vec![1.0; self.size[0] * self.size[1]],
                "{}",
                self.at
            );
        }
    }

    #[test]
    fn a_window_inside_one_biome_by_its_climate_holds_what_its_nodes_weigh() {
        let (biomes, tables) = world();
        // Windows of a level-0 and a level-4 chunk (weight nodes 32 and 64 m apart), every
        // 16 m from 1.6 km before a border to 1.6 km past it: the climate over their nodes
        // keeps clear of every border, or it does not.
        let (mut sole, mut mixed) = (0, 0);
        for spacing in [1.0, 16.0] {
            let border = border(&biomes, &tables, spacing);
            for k in -100..100 {
                let x = border + f64::from(k) * 16.0;
                let chunk = ChunkNodes::at(&biomes, &tables, spacing, [x, 3000.0]);
                let Some(only) = biomes.sole_biome(&FieldBounds::over(&chunk.climate)) else {
                    mixed += 1;
                    continue;
                };
                sole += 1;
                chunk.assert_only(&biomes, &tables, only);
            }
        }
        // Both kinds of window, many of each (the step's reach is about 200 m of the 3.2 km).
        assert!(
            sole > 40 && mixed > 40,
            "{sole} windows inside, {mixed} not"
        );
    }

    #[test]
    fn a_window_inside_one_biome_by_the_climate_between_its_nodes_holds_what_its_nodes_weigh() {
        let (biomes, tables) = world();
        // Windows of a level-3 and a level-4 chunk (weight nodes 32 and 64 m apart, their
        // climate bounded from every fourth and every second node), every 700 m over 14 km
        // square: inside one biome or across borders.
        let (mut between, mut exact) = (0, 0);
        for spacing in [8.0, 16.0] {
            for k in 0..400 {
                let (x, z) = (f64::from(k % 20) * 700.0, f64::from(k / 20) * 700.0);
                let chunk = ChunkNodes::at(&biomes, &tables, spacing, [x, z]);
                let by_nodes = biomes.sole_biome(&FieldBounds::over(&chunk.climate));
                exact += usize::from(by_nodes.is_some());
                let mut window = WeightWindow {
                    spacing: biomes.weight_spacing(spacing),
                    first: chunk.first,
                    size: chunk.size,
                    ..WeightWindow::default()
                };
                let Some(only) = biomes.sole_biome_between(&tables, &mut window) else {
                    continue;
                };
                between += 1;
                // The nodes' own bounds name it too (they are narrower).
                assert_eq!(by_nodes, Some(only), "{}", chunk.at);
                chunk.assert_only(&biomes, &tables, only);
            }
        }
        // The test from a few nodes finds most of the windows that every node's climate does.
        assert!(
            between > 40 && 4 * between >= 3 * exact,
            "{between} windows inside by the climate between nodes, {exact} by every node's"
        );
    }

    #[test]
    fn a_small_window_read_from_the_threads_cache_holds_what_weighing_its_nodes_gave() {
        let (biomes, tables) = world();
        // A level-0 chunk on a border: 36 nodes 32 m apart, a window the cache serves.
        let border = border(&biomes, &tables, 1.0);
        let spec = GridSpec::new([0.0, 0.0], 1.0, [65, 65]).with_start([border as i64 - 32, 2968]);
        WEIGHT_CACHE.with_borrow_mut(Vec::clear);
        let mut weighed = WeightWindow::default();
        assert!(biomes.weight_window(&tables, &spec, 1.0, &mut weighed));
        let nodes = weighed.size[0] * weighed.size[1];
        assert!(weighed.live.len() > 1 && nodes <= CACHED_WINDOW_NODES);
        // Every node is now in the cache, each biome's weight in its place: the same window
        // again, from the cache alone, is the one weighed.
        let cached = biomes
            .cached_window(&weighed)
            .expect("every node in the cache");
        assert_eq!(cached.len(), biomes.list().len() * nodes);
        let mut from_cache = WeightWindow::default();
        assert!(biomes.weight_window(&tables, &spec, 1.0, &mut from_cache));
        assert_eq!(
            (&from_cache.live, &from_cache.nodes),
            (&weighed.live, &weighed.nodes)
        );
        // A window the cache lacks a node of is not read from it.
        WEIGHT_CACHE.with_borrow_mut(|cache| {
            let key = biomes.node_key(weighed.spacing, weighed.first[0] + 5, weighed.first[1] + 5);
            cache[key.slot()].0 = NodeKey::EMPTY;
        });
        assert_eq!(biomes.cached_window(&weighed), None);
    }

    #[test]
    fn a_window_kept_from_the_last_grid_holds_what_a_fresh_one_would() {
        let (biomes, tables) = world();
        // A border at level 0 (weight nodes 32 m apart): its chunk of 65² samples, the parent
        // grid over the same ground (33² samples 2 m apart, the same nodes), then grids of
        // other extents and lattices, each through the one window as a chunk's fills go.
        let border = border(&biomes, &tables, 1.0);
        let first = [border as i64 - 32, 2968];
        // Samples `step` metres apart, `size` of them, from index `start`.
        let grid = |step: f64, size, start| {
            (
                GridSpec::new([0.0, 0.0], step, size).with_start(start),
                step,
            )
        };
        let grids = [
            grid(1.0, [65, 65], first),
            grid(2.0, [33, 33], [first[0] / 2, first[1] / 2]),
            grid(1.0, [97, 65], first),
            grid(1.0, [65, 65], [first[0] + 64, first[1]]),
            grid(16.0, [65, 65], [first[0] / 16, 180]),
            grid(16.0, [65, 65], [first[0] / 16, 180]),
        ];
        let mut kept = WeightWindow::default();
        let mut reused = 0;
        for (k, (spec, spacing)) in grids.iter().enumerate() {
            let before = (kept.of, kept.first, kept.size);
            assert!(biomes.weight_window(&tables, spec, *spacing, &mut kept));
            let mut fresh = WeightWindow::default();
            assert!(biomes.weight_window(&tables, spec, *spacing, &mut fresh));
            reused += usize::from(before == (kept.of, kept.first, kept.size));
            assert_eq!(
                (&kept.live, &kept.nodes, kept.first, kept.size, kept.spacing),
                (
                    &fresh.live,
                    &fresh.nodes,
                    fresh.first,
                    fresh.size,
                    fresh.spacing
                ),
                "grid {k}"
            );
            assert!(fresh.live.len() > 1, "grid {k} lies on the border");
        }
        // The parent grid and the repeated one kept their windows.
        assert_eq!(reused, 2);
    }
}
