//! Which weight nodes a grid needs, and what they hold: one biome alone where the climate's
//! bounds show it (over the window's whole rectangle, or over its nodes), else every biome's
//! weight at every node (from the thread's cache for a small window).

use super::cache::CACHED_WINDOW_NODES;
use super::{MAX_WEIGHT_NODES, WeightWindow};
use crate::ground::biomes::Biomes;
use crate::ground::climate::{ClimateSample, ClimateWindow, FieldBounds, node_extent};
use perlin_core::{GridSpec, NoiseTables};

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
    /// ([`bounds_between`](crate::ground::climate::ClimateField::bounds_between)). Those
    /// bounds come from nodes at most [`BETWEEN_METRES`] apart; where that would be every node,
    /// or would save fewer than [`BETWEEN_SAVES_AT_LEAST`], `None` (the nodes' own bounds are
    /// then as cheap, and tighter).
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
}

/// The most metres between two of the nodes whose climate bounds a window's rectangle in
/// [`Biomes::sole_biome_between`]. Between them a field strays from its corners by up to
/// `d²/4 · max|f''|`: about 0.006 climate units at 128 m, against a step's reach of about 0.07.
const BETWEEN_METRES: f64 = 128.0;

/// How many nodes' climate [`Biomes::sole_biome_between`] must save to be tried: a window of
/// fewer nodes (a fine chunk's, 36 or 64) computes them all sooner than the climate window of
/// the test's own few (`docs/benchmarks.md`).
const BETWEEN_SAVES_AT_LEAST: usize = 100;

/// The most weight nodes a window holds along one axis.
const MOST_WEIGHT_NODES_A_SIDE: i64 = 1 << 16;

#[cfg(test)]
mod tests {
    use super::super::testing::{border, world};
    use super::*;
    use crate::config::MAX_BIOMES;

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
