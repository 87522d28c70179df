//! The thread's cache of weight nodes, which a small window (the sampler's, a fine chunk's)
//! reads and fills: its neighbours share most of its nodes.

use super::WeightWindow;
use crate::config::MAX_BIOMES;
use crate::ground::biomes::Biomes;
use crate::ground::node_cache::{CacheKey, NodeCache};
use std::cell::RefCell;

impl Biomes {
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
    pub(super) fn cached_window(&self, window: &WeightWindow) -> Option<Vec<f32>> {
        let nodes = window.size[0] * window.size[1];
        let count = self.list().len();
        let mut weighed = Vec::new();
        WEIGHT_CACHE.with_borrow(|cache| {
            for k in 0..nodes {
                let key = self.window_node_key(window, k);
                let w = cache.get(&key)?;
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
    pub(super) fn cache_window(&self, window: &WeightWindow, weighed: &[f32]) {
        let nodes = window.size[0] * window.size[1];
        WEIGHT_CACHE.with_borrow_mut(|cache| {
            for k in 0..nodes {
                let key = self.window_node_key(window, k);
                let w = std::array::from_fn(|b| {
                    weighed.get(b * nodes + k).copied().unwrap_or_default()
                });
                cache.insert(key, w);
            }
        });
    }
}

/// A weight node of one config's biomes: everything its weights depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NodeKey {
    id: u64,
    spacing: u64,
    ix: i64,
    iz: i64,
}

impl CacheKey for NodeKey {
    /// No node (biome ids start at 1).
    const EMPTY: NodeKey = NodeKey {
        id: 0,
        spacing: 0,
        ix: 0,
        iz: 0,
    };

    fn words(&self) -> [u64; 3] {
        [self.ix as u64, self.iz as u64, self.spacing ^ self.id]
    }
}

/// The most nodes of a window that reads and fills the thread's weight-node cache: a level-0 or
/// level-1 chunk's window of the world preset (36 or 64 nodes) and the sampler's (16) do. A
/// coarser chunk's (144 to 400) would only push its neighbours' out before they are read: in
/// the views of `biome_ratios`, such windows found none of their nodes there.
pub(super) const CACHED_WINDOW_NODES: usize = 64;

/// Slots of each thread's weight-node cache (a node costs the climate and every membership; a
/// level-0 chunk reads 36, its neighbours many of the same ones, and the sampler 16 per
/// point).
const CACHE_SLOTS: usize = 2048;

/// The thread's weight nodes: every biome's weight at each.
type WeightNodes = NodeCache<NodeKey, [f32; MAX_BIOMES], CACHE_SLOTS>;

thread_local! {
    /// Recently computed weight nodes, direct-mapped: a node's weights are a pure function of
    /// its key, so a hit returns exactly what computing them would.
    static WEIGHT_CACHE: RefCell<WeightNodes> = const { RefCell::new(WeightNodes::new()) };
}

#[cfg(test)]
mod tests {
    use super::super::testing::{border, world};
    use super::*;
    use perlin_core::GridSpec;

    #[test]
    fn a_small_window_read_from_the_threads_cache_holds_what_weighing_its_nodes_gave() {
        let (biomes, tables) = world();
        // A level-0 chunk on a border: 36 nodes 32 m apart, a window the cache serves.
        let border = border(&biomes, &tables, 1.0);
        let spec = GridSpec::new([0.0, 0.0], 1.0, [65, 65]).with_start([border as i64 - 32, 2968]);
        WEIGHT_CACHE.with_borrow_mut(|cache| cache.clear());
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
            cache.forget(&key);
        });
        assert_eq!(biomes.cached_window(&weighed), None);
    }
}
