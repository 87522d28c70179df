//! Which biomes' looks a chunk shows, and how much of each at every vertex: the weights the
//! ground was blended with, packed for the terrain material, which blends the biomes' looks per
//! pixel by them.

use crate::ground::GroundSamples;
use bevy::mesh::{MeshVertexAttribute, VertexFormat};
use perlin_core::{SimdLevel, Vectorised};

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
/// sum to 255 within a few units, and never all to 0), in a vector with room for `capacity`
/// (the mesh's skirts copy its edges' weights). Nothing for ground without biomes.
pub(super) fn slot_weights(
    samples: &GroundSamples,
    n: usize,
    capacity: usize,
) -> (Vec<u8>, Vec<[u8; 8]>) {
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
    // Every vertex starts as a slot that weighs all everywhere (`None`) has it, 255, and the
    // others 0: written in one fill, with room for the skirts.
    let mut everywhere = [0u8; MAX_CHUNK_BIOMES];
    for (slot, (_, slot_weights)) in weighing.iter().enumerate() {
        if slot_weights.is_none() {
            everywhere[slot] = 255;
        }
    }
    let mut weights = Vec::with_capacity(capacity.max(n));
    weights.resize(n, everywhere);
    // A slot's weights rounded all at once, in the CPU's widest vectors, then spread.
    let mut rounded = Vec::new();
    for (slot, (_, slot_weights)) in weighing.iter().enumerate() {
        if let Some(w) = slot_weights {
            rounded.resize(n, 0);
            let work = OutOf255 {
                weights: w,
                out: &mut rounded,
            };
            SimdLevel::Auto
                .vectorise(work)
                .unwrap_or_else(Vectorised::run);
            for (q, &w) in weights.iter_mut().zip(&rounded) {
                q[slot] = w;
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

/// A weight from 0 to 1 as the nearest 255th (NaN as 0).
#[inline]
fn out_of_255(w: f32) -> u8 {
    (w.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

/// [`out_of_255`] without a conversion from `f32` to an integer, which compilers leave one lane
/// at a time: `x = w · 255 + 0.5` (within 0.5 to 255.5, or NaN) plus 2²³ is rounded to a whole
/// number, whose low bits are then that number; one less where it rounded up past `x`. The same
/// byte for every weight (see the tests).
#[inline(always)]
fn out_of_255_in_lanes(w: f32) -> u8 {
    const WHOLE: f32 = 8_388_608.0;
    // NaN as 0, as the conversion takes it.
    let x = (w.clamp(0.0, 1.0) * 255.0 + 0.5).max(0.0);
    let rounded = x + WHOLE;
    let down = u32::from(rounded - WHOLE > x);
    (rounded
        .to_bits()
        .wrapping_sub(WHOLE.to_bits())
        .wrapping_sub(down)) as u8
}

/// Weights as the nearest 255ths ([`out_of_255_in_lanes`]), side by side in the CPU's widest
/// vectors (the same bytes on every build).
struct OutOf255<'a> {
    weights: &'a [f32],
    out: &'a mut [u8],
}

impl Vectorised for OutOf255<'_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        for (out, &w) in self.out.iter_mut().zip(self.weights) {
            *out = out_of_255_in_lanes(w);
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_to_255ths_alike_in_lanes_and_one_at_a_time() {
        // Every 2⁻²⁰ from 0 to 1, each 255th's rounding boundary and the floats either side of
        // it, a little beyond the range, and some that are not finite.
        let mut weights: Vec<f32> = (0..=1 << 20).map(|k| k as f32 / (1 << 20) as f32).collect();
        for k in 0..=255 {
            let at = (k as f32 + 0.5) / 255.0;
            weights.extend([
                at,
                f32::from_bits(at.to_bits() - 1),
                f32::from_bits(at.to_bits() + 1),
            ]);
        }
        weights.extend([
            -0.5,
            -0.0,
            1.5,
            1e-30,
            f32::NAN,
            f32::from_bits(0x7fc0_00ff),
            f32::INFINITY,
            f32::NEG_INFINITY,
        ]);
        let expected: Vec<u8> = weights.iter().map(|&w| out_of_255(w)).collect();
        assert_eq!((expected[0], expected[1 << 20]), (0, 255));
        for kernel in SimdLevel::ALL.into_iter().filter(|k| k.is_available()) {
            let mut out = vec![7u8; weights.len()];
            let work = OutOf255 {
                weights: &weights,
                out: &mut out,
            };
            kernel.vectorise(work).unwrap_or_else(Vectorised::run);
            for ((&w, &got), &want) in weights.iter().zip(&out).zip(&expected) {
                assert_eq!(got, want, "{kernel:?}: {w} ({:#x})", w.to_bits());
            }
        }
    }
}
