//! The weights at a grid's samples: each live biome's weight nodes smoothed by a cubic
//! B-spline and divided by the sum of the biomes' B-splines, eight or four samples side by side
//! where they share their nodes, and runs of samples whose nodes are all one biome's at once.

use super::WeightWindow;
use crate::config::MAX_BIOMES;
use crate::ground::biomes::Biomes;
use crate::ground::climate::Basis;
use perlin_core::{GridSpec, NoiseTables};
use std::ops::Range;

impl Biomes {
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

#[cfg(test)]
mod tests {
    use super::super::testing::{border, world};
    use super::*;

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
}
