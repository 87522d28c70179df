//! A chunk's parent grid (every other sample of the chunk's, at the parent level's detail),
//! filled along with the chunk's: read from the chunk's own samples where both grids fill alike,
//! else filled on its own with each path's rows cut once for both.

use super::blend::BIOME_SCRATCH;
use super::{GroundSamples, touching};
use crate::ground::edits::{GroundEdits, grid_bounds, is_every_other};
use crate::ground::recipe::GroundRecipe;
use perlin_core::{Detail, GridError, GridSpec, NoiseTables, SimdLevel, with_thread_scratch};
use std::ops::Range;

impl GroundSamples {
    /// [`fill`](Self::fill) for `spec` with `detail`, and for `coarse` the grid `coarse_spec`
    /// with `coarse_detail`: the same results, bit for bit. Where `coarse_spec`'s samples are
    /// every other sample of `spec` (a chunk's parent level), they are read from this grid when
    /// both grids are filled alike (see [`GroundSamples::fills_alike`]: a level-0 chunk of the
    /// default preset, or of the world's where its biomes' octaves allow, borders included);
    /// otherwise a path cuts each row once for both grids. On an error neither grid keeps a
    /// sample.
    #[allow(
        clippy::too_many_arguments,
        reason = "one fill's inputs, then the coarse grid's"
    )]
    pub fn fill_with_coarse(
        &mut self,
        coarse: &mut GroundSamples,
        tables: &NoiseTables,
        ground: &GroundRecipe,
        edits: &GroundEdits,
        (spec, detail): (&GridSpec, Detail),
        (coarse_spec, coarse_detail): (&GridSpec, Detail),
    ) -> Result<(), GridError> {
        self.fill_ground(tables, ground, spec, detail)?;
        if is_every_other(coarse_spec, spec)
            && self.fills_alike(tables, ground, (spec, detail), (coarse_spec, coarse_detail))
        {
            self.apply_edits(edits, spec);
            coarse.take_every_other(self, spec.size[0]);
            return Ok(());
        }
        coarse
            .fill_ground(tables, ground, coarse_spec, coarse_detail)
            .inspect_err(|_| self.len = 0)?;
        // The modifiers touching either grid (one that reaches none of a grid's samples leaves
        // them as they are).
        let region = match (grid_bounds(spec), grid_bounds(coarse_spec)) {
            (Some(a), Some(b)) => Some(a.union(b)),
            (a, b) => a.or(b),
        };
        if let Some(touching) = touching(edits, region) {
            let (values, gradients) = self.in_metres();
            let (coarse_values, coarse_gradients) = coarse.in_metres();
            edits.apply_with_coarse(
                SimdLevel::Auto,
                &touching,
                (spec, values, gradients),
                (coarse_spec, coarse_values, coarse_gradients),
            );
        }
        Ok(())
    }

    /// Whether the ground just filled for `fine` (before the edits) gives the grid `coarse`
    /// the same bits wherever they share a sample: each recipe that weighs in fills both
    /// details alike ([`Fbm::fills_alike`](perlin_core::Fbm::fills_alike)), and so do the
    /// biomes' weights. Those are a function of a sample's position and of their lattice, which
    /// follows the level's spacing: where both levels have the same lattice (the world preset's
    /// four finest), a blend is the same at both; where they differ, a border is too, and only
    /// one biome alone over both grids is.
    fn fills_alike(
        &self,
        tables: &NoiseTables,
        ground: &GroundRecipe,
        fine: (&GridSpec, Detail),
        coarse: (&GridSpec, Detail),
    ) -> bool {
        let Some(biomes) = &ground.biomes else {
            return ground.noise.fills_alike(tables, fine, coarse);
        };
        // The noise first: where it differs (most levels), the coarse grid's weights are not
        // worked out twice.
        let noise_alike = |&(b, _): &(usize, Option<usize>)| {
            biomes.list()[b].noise.fills_alike(tables, fine, coarse)
        };
        if self.biomes.is_empty() || !self.biomes.iter().all(noise_alike) {
            return false;
        }
        if biomes.weight_spacing(fine.1.spacing) == biomes.weight_spacing(coarse.1.spacing) {
            return true;
        }
        let [(only, None)] = self.biomes[..] else {
            return false;
        };
        with_thread_scratch(&BIOME_SCRATCH, |scratch| {
            let window = &mut scratch.window;
            biomes.weight_window(tables, coarse.0, coarse.1.spacing, window)
                && window.live == [only]
        })
    }

    /// Every other sample of `fine` (a grid `width` samples wide, with an odd number of rows
    /// and columns), row by row: its values, gradients, creases, biome weights and height
    /// scale as they are.
    fn take_every_other(&mut self, fine: &GroundSamples, width: usize) {
        self.len = 0;
        self.biomes.clone_from(&fine.biomes);
        if width == 0 {
            return;
        }
        let (nx, rows) = (width.div_ceil(2), fine.len / width);
        let len = nx * rows.div_ceil(2);
        self.grow(len);
        for (at, to) in kept_rows(width, rows) {
            let (fv, fg, fc) = (
                &fine.values[at.clone()],
                &fine.gradients[at.clone()],
                &fine.creases[at],
            );
            let (v, g, c) = (
                &mut self.values[to.clone()],
                &mut self.gradients[to.clone()],
                &mut self.creases[to],
            );
            for i in 0..nx {
                (v[i], g[i], c[i]) = (fv[2 * i], fg[2 * i], fc[2 * i]);
            }
        }
        // A blend's weights, each in its slot (the biomes name theirs; a slot whose biome
        // weighs nothing over the grid is not named).
        let slots = fine.biomes.iter().filter_map(|&(_, slot)| slot);
        let used = slots.clone().max().map_or(0, |slot| slot + 1);
        if self.biome_weights.len() < used * len {
            self.biome_weights.resize(used * len, 0.0);
        }
        for slot in slots {
            let (fw, w) = (
                &fine.biome_weights[slot * fine.len..(slot + 1) * fine.len],
                &mut self.biome_weights[slot * len..(slot + 1) * len],
            );
            for (at, to) in kept_rows(width, rows) {
                let (fw, w) = (&fw[at], &mut w[to]);
                for (i, w) in w.iter_mut().enumerate() {
                    *w = fw[2 * i];
                }
            }
        }
        self.len = len;
        self.height_scale = fine.height_scale;
    }
}

/// For each row that a grid `width` samples wide and `rows` tall keeps of its every other
/// sample (its even rows): the samples from its first to its last kept one, and where the kept
/// ones go in the grid of every other sample.
fn kept_rows(width: usize, rows: usize) -> impl Iterator<Item = (Range<usize>, Range<usize>)> {
    let nx = width.div_ceil(2);
    (0..rows)
        .step_by(2)
        .enumerate()
        .map(move |(j, k)| (k * width..k * width + 2 * nx - 1, j * nx..(j + 1) * nx))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::parse_config;
    use bevy::math::Vec3;

    /// The weight of every biome of `samples` at each of its samples (its index in the config,
    /// then the weights; 1 for a biome alone).
    fn weights_by_biome(samples: &GroundSamples) -> Vec<(usize, Vec<f32>)> {
        let len = samples.len();
        samples
            .biome_weights()
            .map(|(biome, weights)| (biome, weights.map_or(vec![1.0; len], <[f32]>::to_vec)))
            .collect()
    }

    #[test]
    fn every_other_sample_keeps_each_biome_in_its_slot() {
        // A 5 × 3 blend whose biomes 2 and 5 are in slots 0 and 2 (slot 1's biome weighs
        // nothing over the grid): the 3 × 2 samples at even columns and rows, in the same slots.
        let len = 15;
        let fine = GroundSamples {
            len,
            values: (0..len).map(|s| s as f32).collect(),
            gradients: (0..len).map(|s| [s as f32, -(s as f32)]).collect(),
            creases: vec![0.5; len],
            height_scale: 1.0,
            biomes: vec![(2, Some(0)), (5, Some(2))],
            biome_weights: (0..3 * len)
                .map(|k| (k / len) as f32 + (k % len) as f32 / 100.0)
                .collect(),
        };
        let mut coarse = GroundSamples::default();
        coarse.take_every_other(&fine, 5);
        let even = [0, 2, 4, 10, 12, 14];
        assert_eq!(coarse.values[..coarse.len()], even.map(|s| s as f32));
        let weights: Vec<(usize, Vec<f32>)> = weights_by_biome(&coarse);
        let expected = |slot: usize| even.map(|s| slot as f32 + s as f32 / 100.0).to_vec();
        assert_eq!(weights, vec![(2, expected(0)), (5, expected(2))]);
    }

    #[test]
    fn a_parent_grid_read_from_its_chunk_is_the_parent_grid_filled_across_biome_borders() {
        let bytes = include_bytes!("../../../../../assets/terrain/world.terrain.ron");
        let config = parse_config("world.terrain.ron", bytes).expect("the world preset parses");
        let (ground, tables) = (
            GroundRecipe::of(&config),
            NoiseTables::from_seed(config.seed),
        );
        let edits = GroundEdits::default();
        let (mut shared, mut blends) = (0, 0);
        // Level-0 chunks (65² samples 1 m apart) and their parents' samples (33², 2 m apart)
        // along a line of 10 km across the world's biomes.
        for k in 0..80 {
            let start = [-4000 + 128 * k, 2000 - 64 * k];
            let fine = (
                &GridSpec::new([0.0; 2], 1.0, [65, 65]).with_start(start),
                Detail::at_spacing(1.0),
            );
            let coarse = (
                &GridSpec::new([0.0; 2], 2.0, [33, 33]).with_start(start.map(|i| i / 2)),
                Detail::at_spacing(2.0),
            );
            let (mut chunk, mut parent, mut alone) = (
                GroundSamples::default(),
                GroundSamples::default(),
                GroundSamples::default(),
            );
            chunk
                .fill_with_coarse(&mut parent, &tables, &ground, &edits, fine, coarse)
                .expect("a chunk's grids fill");
            alone
                .fill(&tables, &ground, &edits, coarse.0, coarse.1)
                .expect("a parent's grid fills");
            let blend = chunk.biomes.len() > 1;
            blends += usize::from(blend);
            shared += usize::from(blend && chunk.fills_alike(&tables, &ground, fine, coarse));
            assert_eq!(parent.len(), alone.len(), "chunk {k}");
            for s in 0..alone.len() {
                let (a, b) = (parent.ground(s), alone.ground(s));
                let bits = |g: Option<(f32, Vec3)>| g.map(|(h, n)| (h.to_bits(), n.to_array()));
                assert_eq!(bits(a), bits(b), "chunk {k}, sample {s}");
            }
            // The same weights for every biome (one that weighs nothing on the parent's
            // samples may be listed with zeros).
            let (read, filled) = (weights_by_biome(&parent), weights_by_biome(&alone));
            for (biome, weights) in &read {
                let other = filled.iter().find(|(b, _)| b == biome).map(|(_, w)| w);
                for (s, w) in weights.iter().enumerate() {
                    let expected = other.map_or(0.0, |other| other[s]);
                    assert_eq!(*w, expected, "chunk {k}, biome {biome}, sample {s}");
                }
            }
            assert!(filled.iter().all(|(b, _)| read.iter().any(|(r, _)| r == b)));
        }
        assert!(
            shared >= 4 && blends >= 8,
            "{blends} of 80 chunks across a border, {shared} of them read their parent's samples"
        );
    }
}
