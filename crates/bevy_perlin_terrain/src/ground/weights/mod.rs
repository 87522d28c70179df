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
//!
//! `window.rs` chooses a grid's nodes and what they hold, `cache.rs` keeps a small window's
//! nodes in the thread's cache, and `fill.rs` smooths the nodes' weights over the grid's samples.

mod cache;
mod fill;
mod window;

use crate::ground::climate::{ClimateSample, ClimateWindow};

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
    /// The climate window and samples of
    /// [`Biomes::sole_biome_between`](crate::ground::biomes::Biomes::sole_biome_between).
    climate: (ClimateWindow, Vec<ClimateSample>),
}

/// The most weight nodes one window may hold (2²², under 1 GiB with their climate): at the
/// world preset's full detail, a square about 130 km a side. A chunk's holds a few hundred; a
/// caller's grid spread far wider than its samples (a map of hundreds of kilometres at full
/// detail) would hold billions.
pub(crate) const MAX_WEIGHT_NODES: usize = 1 << 22;

/// What the weights' tests share: the world preset's biomes, and a border between them.
#[cfg(test)]
mod testing {
    use crate::config::parse_config;
    use crate::ground::biomes::Biomes;
    use perlin_core::NoiseTables;

    /// The world preset's biomes and its tables.
    pub(super) fn world() -> (Biomes, NoiseTables) {
        let bytes = include_bytes!("../../../../../assets/terrain/world.terrain.ron");
        let config = parse_config("world.terrain.ron", bytes).expect("the world preset parses");
        let biomes = Biomes::new(&config.climate, &config.biomes).expect("the world has biomes");
        (biomes, NoiseTables::from_seed(config.seed))
    }

    /// A border within reach of a grid of samples `spacing` apart: the first point along the
    /// row `z = 3000` (from `x = 0`, every 25 m) whose weights are mixed.
    pub(super) fn border(biomes: &Biomes, tables: &NoiseTables, spacing: f64) -> f64 {
        (0..4000)
            .map(|k| k as f64 * 25.0)
            .find(|&x| biomes.weights_at(tables, x, 3000.0, spacing).len() > 1)
            .expect("a border within 100 km")
    }
}
