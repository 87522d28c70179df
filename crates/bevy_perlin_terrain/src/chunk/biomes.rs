//! Which biomes' looks a chunk shows, and how much of each at every vertex: the weights the
//! ground was blended with, packed for the terrain material, which blends the biomes' looks per
//! pixel by them.

use crate::ground::GroundSamples;
use bevy::mesh::{MeshVertexAttribute, VertexFormat};

/// The most biomes whose looks one chunk blends: the weight slots of a vertex. A chunk where
/// more weigh in keeps the ones that weigh most over it (at most 16 biomes, and a border
/// region rarely holds more than four).
pub const MAX_CHUNK_BIOMES: usize = 8;

/// The biomes of a chunk's weight slots, the same at every vertex: four bits each, slot `k` in
/// bits `4k..4k + 4` (a biome's index in the config's `biomes`; unused slots weigh 0).
pub const ATTRIBUTE_BIOMES: MeshVertexAttribute =
    MeshVertexAttribute::new("TerrainBiomes", 0x7e22_a1d0_5eed_0002, VertexFormat::Uint32);

/// The weights of slots 0 to 3 of [`ATTRIBUTE_BIOMES`] at each vertex, out of 255.
pub const ATTRIBUTE_BIOME_WEIGHTS: MeshVertexAttribute = MeshVertexAttribute::new(
    "TerrainBiomeWeights",
    0x7e22_a1d0_5eed_0003,
    VertexFormat::Unorm8x4,
);

/// The weights of slots 4 to 7 of [`ATTRIBUTE_BIOMES`] at each vertex, out of 255.
pub const ATTRIBUTE_BIOME_WEIGHTS_HIGH: MeshVertexAttribute = MeshVertexAttribute::new(
    "TerrainBiomeWeightsHigh",
    0x7e22_a1d0_5eed_0004,
    VertexFormat::Unorm8x4,
);

/// The biome slots of a grid of `n` samples filled in `samples` (the biomes that weigh in
/// most over it, in the config's order) and each sample's weights, out of 255 (rounded; they
/// sum to 255 within a few units, and never all to 0). Nothing for ground without biomes.
pub(super) fn slot_weights(samples: &GroundSamples, n: usize) -> (Vec<u8>, Vec<[u8; 8]>) {
    let mut weighing: Vec<(usize, Option<&[f32]>)> = samples.biome_weights().collect();
    if weighing.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let dropped = weighing.len() > MAX_CHUNK_BIOMES;
    if dropped {
        let total = |w: &Option<&[f32]>| w.map_or(n as f32, |w| w.iter().sum());
        weighing.sort_by(|a, b| total(&b.1).total_cmp(&total(&a.1)));
        weighing.truncate(MAX_CHUNK_BIOMES);
        weighing.sort_by_key(|&(biome, _)| biome);
    }
    let biomes = weighing.iter().map(|&(b, _)| b as u8).collect();
    // A sample's weights sum to 1, so the largest is at least an eighth: rounded, never all 0.
    let mut weights = vec![[0u8; MAX_CHUNK_BIOMES]; n];
    for (slot, (_, slot_weights)) in weighing.iter().enumerate() {
        match slot_weights {
            None => weights.iter_mut().for_each(|q| q[slot] = 255),
            Some(w) => {
                for (q, &w) in weights.iter_mut().zip(w.iter()) {
                    q[slot] = out_of_255(w);
                }
            }
        }
    }
    if dropped {
        // The kept biomes' weights no longer sum to 1: scaled up to, where only dropped
        // biomes weigh in, the first slot.
        for (s, q) in weights.iter_mut().enumerate() {
            let w = weighing
                .iter()
                .map(|(_, w)| w.map_or(1.0, |w| w.get(s).copied().unwrap_or(0.0)));
            let w: Vec<f32> = w.collect();
            let sum: f32 = w.iter().sum();
            *q = [0; MAX_CHUNK_BIOMES];
            if sum > 0.0 {
                for (q, w) in q.iter_mut().zip(&w) {
                    *q = out_of_255(w / sum);
                }
            }
            if q.iter().all(|&v| v == 0) {
                q[0] = 255;
            }
        }
    }
    (biomes, weights)
}

/// A weight from 0 to 1 as the nearest 255th.
#[inline]
fn out_of_255(w: f32) -> u8 {
    (w.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

/// The slots `biomes` packed four bits each, as [`ATTRIBUTE_BIOMES`] holds them.
pub(super) fn pack_slots(biomes: &[u8]) -> u32 {
    biomes
        .iter()
        .take(MAX_CHUNK_BIOMES)
        .enumerate()
        .fold(0, |packed, (k, &b)| {
            packed | (u32::from(b & 0xf) << (4 * k))
        })
}
