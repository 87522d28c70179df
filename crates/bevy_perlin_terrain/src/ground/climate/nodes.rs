//! The nodes of the climate's lattices over a grid ([`ClimateField::window`]): each node's value
//! is fractal noise of the world's tables, kept in the thread's node cache.

use super::{ClimateField, ClimateWindow, FIELDS, LATTICE_OF, node_extent};
use crate::ground::node_cache::{CacheKey, NodeCache};
use perlin_core::{GridSpec, NoiseTables};
use std::cell::RefCell;

/// The factor from fractal noise (mostly within ±0.25 at three octaves) to climate (±1,
/// clamped): each quarter of the range then holds a fifth to a third of the plane.
const STRETCH: f64 = 4.5;

/// Offsets (metres) of the three fields, so that they are independent.
const FIELD_OFFSETS: [[f64; 2]; FIELDS] =
    [[0.0, 0.0], [731_017.0, -297_113.0], [-451_009.0, 913_411.0]];

impl ClimateField {
    /// The value of node `(ix, iz)` of `field`, from the thread's node cache `cache` (of
    /// [`NODE_CACHE_SLOTS`]) or computed and kept there.
    fn node(
        &self,
        cache: &mut ClimateNodes,
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
        cache.get_or_insert_with(key, || self.node_value(tables, field, ix, iz))
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
}

/// The most climate nodes a window holds along one axis (that many span over 80 000 km at the
/// smallest climate scale).
const MOST_CLIMATE_NODES_A_SIDE: i64 = 1 << 20;

/// A node of one field of one climate: everything its value depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NodeKey {
    seed: u64,
    scale: u32,
    field: u8,
    ix: i64,
    iz: i64,
}

impl CacheKey for NodeKey {
    /// No node (no scale is 0: the validation asks for 500 m at least).
    const EMPTY: NodeKey = NodeKey {
        seed: 0,
        scale: 0,
        field: 0,
        ix: 0,
        iz: 0,
    };

    fn words(&self) -> [u64; 3] {
        let lattice = u64::from(self.field) ^ u64::from(self.scale) << 8;
        [self.ix as u64, self.iz as u64, lattice]
    }
}

/// Slots of each thread's node cache (a node costs a few octaves of noise; a level-0 chunk
/// needs 48, and its neighbours mostly the same ones; a coarse chunk's window up to about
/// 100): 320 KiB a thread. With 2 048, the chunks inside one biome in `biome_ratios` built about
/// 1 % slower.
const NODE_CACHE_SLOTS: usize = 8192;

/// The thread's climate nodes.
type ClimateNodes = NodeCache<NodeKey, f32, NODE_CACHE_SLOTS>;

thread_local! {
    /// Recently computed nodes, direct-mapped: a node's value is a pure function of its key,
    /// so a hit returns exactly what computing it would.
    static NODE_CACHE: RefCell<ClimateNodes> = const { RefCell::new(ClimateNodes::new()) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearby_nodes_spread_over_the_node_cache() {
        // The nodes of three fields over 24 × 24 lattice cells: a few coarse chunks' windows.
        // Into 8 192 slots, 1 728 keys hashed at random would take about 90 % of them apart;
        // the words' products combined by exclusive or take 81 %, sending neighbours such as
        // (3, 91) and (5, 92) to one slot.
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
                    slots.insert(ClimateNodes::slot(&key));
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
}
