//! The biomes' grounds blended by their weights: each biome that weighs in adds its weighted
//! ground over the rectangle of samples where it does, in the CPU's widest vectors.

use super::{GroundSamples, height};
use crate::ground::biomes::Biomes;
use crate::ground::weights::WeightWindow;
use perlin_core::{Detail, GridError, GridSpec, NoiseTables, SimdLevel, Vectorised};
use std::cell::RefCell;
use std::ops::Range;

impl GroundSamples {
    /// The biomes' grounds of `spec`, in metres: where one biome alone weighs in over the whole
    /// grid, its ground (`v · s + offset`); otherwise each sample's weighted mean of the biomes
    /// that weigh in over the grid, with the gradient `Σ w ∇h + h ∇w`. A sample whose weight
    /// is all one biome's gets the same bits either way (its other terms are exact zeros), so
    /// grids of one detail agree with each other and with single samples wherever they share a
    /// position.
    pub(super) fn fill_biomes(
        &mut self,
        tables: &NoiseTables,
        biomes: &Biomes,
        spec: &GridSpec,
        detail: Detail,
        scratch: &mut BiomeScratch,
    ) -> Result<(), GridError> {
        let BiomeScratch {
            window,
            live,
            weight_gradients,
            ground,
        } = scratch;
        // The weights' lattice follows the detail's spacing: the same for a chunk, its
        // neighbours and the sampler at its level. A grid whose window would be too large is
        // refused.
        if !biomes.weight_window(tables, spec, detail.spacing, window) {
            self.len = 0;
            return Err(GridError::TooLarge);
        }
        let list = biomes.list();
        if let [only] = window.live[..] {
            return self.fill_alone(tables, biomes, only, spec, detail);
        }
        let len = spec.len().ok_or(GridError::TooLarge)?;
        let weights = &mut self.biome_weights;
        biomes.fill_weights(spec, window, weights, weight_gradients);
        // The biomes that weigh in at some sample, with the rectangle of samples where they do
        // (the others add exact zeros, so leaving them out changes no bit).
        let nx = spec.size[0];
        live.clear();
        live.extend((0..window.live.len()).filter_map(|slot| {
            extent(&weights[slot * len..(slot + 1) * len], nx).map(|rectangle| (slot, rectangle))
        }));
        if let [(slot, _)] = live[..] {
            return self.fill_alone(tables, biomes, window.live[slot], spec, detail);
        }
        self.biomes.extend(
            live.iter()
                .map(|&(slot, _)| (window.live[slot], Some(slot))),
        );
        self.len = 0;
        self.height_scale = 1.0;
        self.grow(len);
        // The sums start at +0; each biome adds over the rectangle of samples where it weighs
        // in (elsewhere its terms are exact zeros): a coarse chunk across several biomes
        // computes each one's ground over its own part. The first biome writes its terms plus
        // +0 (the same bits as +0 plus its terms), so only the samples outside its rectangle
        // are set to +0 first.
        if let Some(&(_, first)) = live.first() {
            zero_outside(&mut self.values[..len], (nx, 1), first);
            zero_outside(self.gradients[..len].as_flattened_mut(), (nx, 2), first);
            zero_outside(&mut self.creases[..len], (nx, 1), first);
        }
        for (k, &(slot, [i0, i1, j0, j1])) in live.iter().enumerate() {
            let b = &list[window.live[slot]];
            let (w, dw) = (
                &self.biome_weights[slot * len..(slot + 1) * len],
                &weight_gradients[slot * len..(slot + 1) * len],
            );
            let width = i1 - i0 + 1;
            let part = GridSpec {
                start: [spec.start[0] + i0 as i64, spec.start[1] + j0 as i64],
                size: [width, j1 - j0 + 1],
                ..*spec
            };
            ground.fill_noise(tables, &b.noise, b.height_scale, &part, detail)?;
            let blend = Blend {
                ground: Weighted {
                    values: &ground.values,
                    gradients: ground.gradients.as_flattened(),
                    creases: &ground.creases,
                    scale: b.height_scale,
                    offset: b.height_offset,
                    weights: w,
                    weight_gradients: dw.as_flattened(),
                },
                sums: (
                    &mut self.values[..len],
                    self.gradients[..len].as_flattened_mut(),
                    &mut self.creases[..len],
                ),
                columns: i0..i1 + 1,
                rows: j0..j1 + 1,
                width: nx,
                first: k == 0,
            };
            SimdLevel::Auto
                .vectorise(blend)
                .unwrap_or_else(Vectorised::run);
        }
        self.len = len;
        Ok(())
    }

    /// Biome `index` alone over `spec` (weight 1, gradient 0 everywhere): its ground in
    /// metres (`v · s + offset`).
    fn fill_alone(
        &mut self,
        tables: &NoiseTables,
        biomes: &Biomes,
        index: usize,
        spec: &GridSpec,
        detail: Detail,
    ) -> Result<(), GridError> {
        let b = &biomes.list()[index];
        self.fill_noise(tables, &b.noise, b.height_scale, spec, detail)?;
        self.convert_to_metres(b.height_offset);
        self.biomes.push((index, None));
        Ok(())
    }
}

/// The columns `i0..=i1` and rows `j0..=j1` of the samples (rows of `nx`) whose weight is
/// above 0; `None` if none is.
fn extent(weights: &[f32], nx: usize) -> Option<[usize; 4]> {
    let mut box_ = None::<[usize; 4]>;
    for (j, row) in weights.chunks_exact(nx.max(1)).enumerate() {
        // A row where the biome weighs nowhere is told by one pass without a branch.
        if !row.iter().fold(false, |any, &w| any | (w > 0.0)) {
            continue;
        }
        let (Some(first), Some(last)) = (
            row.iter().position(|&w| w > 0.0),
            row.iter().rposition(|&w| w > 0.0),
        ) else {
            continue;
        };
        box_ = Some(match box_ {
            None => [first, last, j, j],
            Some([i0, i1, j0, _]) => [i0.min(first), i1.max(last), j0, j],
        });
    }
    box_
}

/// One biome's ground over a rectangle of a grid (noise values, gradients `[∂x, ∂z]` flattened,
/// and creases, with its height scale and offset), and its weights over the whole grid.
struct Weighted<'a> {
    values: &'a [f32],
    gradients: &'a [f32],
    creases: &'a [f32],
    scale: f32,
    offset: f32,
    weights: &'a [f32],
    weight_gradients: &'a [f32],
}

/// One biome's weighted ground added to a grid's sums over the rectangle `columns × rows` of
/// the grid (`width` samples a row), where its ground was filled: heights `h += w · g`, slopes
/// `∇h += w ∇g + g ∇w`, creases `c += w · c_g`, the ground in metres as a biome alone has it
/// (`v · s + offset`, slopes `∇v · s + 0`). Each sample's arithmetic is the same in every lane,
/// so [`SimdLevel::vectorise`] compiles it for the CPU's widest vectors with the same bits.
struct Blend<'a> {
    ground: Weighted<'a>,
    /// Heights, slopes (flattened) and creases of the whole grid.
    sums: (&'a mut [f32], &'a mut [f32], &'a mut [f32]),
    columns: Range<usize>,
    rows: Range<usize>,
    width: usize,
    /// Whether this is the first biome, which writes its terms plus +0 instead of adding
    /// them to the sums.
    first: bool,
}

impl Vectorised for Blend<'_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        let Blend {
            ground,
            sums: (heights, slopes, creases),
            columns,
            rows,
            width,
            first,
        } = self;
        let n = columns.len();
        // A rectangle as wide as the grid is one run of samples.
        let (runs, n) = if n == width {
            (rows.start..rows.start + 1, n * rows.len())
        } else {
            (rows, n)
        };
        for (k, j) in runs.enumerate() {
            let (at, own) = (j * width + columns.start, k * n);
            let (Some(h), Some(s), Some(c)) = (
                heights.get_mut(at..at + n),
                slopes.get_mut(2 * at..2 * (at + n)),
                creases.get_mut(at..at + n),
            ) else {
                // Not reached: the rectangle lies inside the grid.
                return;
            };
            let (Some(v), Some(dv), Some(crease), Some(w), Some(dw)) = (
                ground.values.get(own..own + n),
                ground.gradients.get(2 * own..2 * (own + n)),
                ground.creases.get(own..own + n),
                ground.weights.get(at..at + n),
                ground.weight_gradients.get(2 * at..2 * (at + n)),
            ) else {
                // Not reached: the ground was filled over the rectangle.
                return;
            };
            let run = (
                (ground.scale, ground.offset),
                (v, dv, crease),
                (w, dw),
                (h, s, c),
            );
            if first {
                add_run::<true>(run);
            } else {
                add_run::<false>(run);
            }
        }
    }
}

/// One run of `n` samples of a [`Blend`]: the biome's height scale and offset; its ground's
/// values, slopes (flattened) and creases; its weights and their slopes; the sums. Each is `n`
/// long (slopes `2n`). `FIRST` writes each term plus +0 into the sums instead of adding it. The
/// slices, as parameters, do not overlap, so the loop needs no check that they do before it
/// runs in vectors.
#[allow(
    clippy::type_complexity,
    reason = "the four groups of one run's slices"
)]
#[inline(always)]
fn add_run<const FIRST: bool>(
    ((scale, offset), (v, dv, crease), (w, dw), (h, s, c)): (
        (f32, f32),
        (&[f32], &[f32], &[f32]),
        (&[f32], &[f32]),
        (&mut [f32], &mut [f32], &mut [f32]),
    ),
) {
    let n = h.len();
    let (v, crease, w, c) = (&v[..n], &crease[..n], &w[..n], &mut c[..n]);
    let (dv, dw, s) = (&dv[..2 * n], &dw[..2 * n], &mut s[..2 * n]);
    let add = |sum: &mut f32, term: f32| *sum = if FIRST { term + 0.0 } else { *sum + term };
    for i in 0..n {
        let g = height(v[i], scale) + offset;
        let gs = [dv[2 * i] * scale + 0.0, dv[2 * i + 1] * scale + 0.0];
        add(&mut h[i], w[i] * g);
        add(&mut s[2 * i], w[i] * gs[0] + g * dw[2 * i]);
        add(&mut s[2 * i + 1], w[i] * gs[1] + g * dw[2 * i + 1]);
        add(&mut c[i], w[i] * crease[i]);
    }
}

/// Sets to +0 every sample of `buffer` (rows of `width` samples, `per` numbers each) outside
/// the columns `i0..=i1` and rows `j0..=j1`.
fn zero_outside(buffer: &mut [f32], (width, per): (usize, usize), [i0, i1, j0, j1]: [usize; 4]) {
    for (j, row) in buffer.chunks_exact_mut((width * per).max(1)).enumerate() {
        if (j0..=j1).contains(&j) {
            let (before, rest) = row.split_at_mut((i0 * per).min(row.len()));
            before.fill(0.0);
            if let Some(after) = rest.get_mut(((i1 + 1 - i0) * per).min(rest.len())..) {
                after.fill(0.0);
            }
        } else {
            row.fill(0.0);
        }
    }
}

/// What a biome fill works with beside its samples: the weight nodes around the grid, the
/// biomes that weigh in and their weights, and one biome's ground.
#[derive(Default)]
pub(super) struct BiomeScratch {
    pub(super) window: WeightWindow,
    /// The window's live biomes that weigh in at some sample, by their slot among them, each
    /// with the rectangle of samples where it does (see [`extent`]).
    live: Vec<(usize, [usize; 4])>,
    weight_gradients: Vec<[f32; 2]>,
    ground: GroundSamples,
}

thread_local! {
    pub(super) static BIOME_SCRATCH: RefCell<BiomeScratch> = RefCell::new(BiomeScratch::default());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_biomes_blend_over_their_rectangles_as_each_sample_alone_and_nothing_else() {
        // A 9 × 6 grid whose sums hold NaN from an earlier fill. Biome A weighs in over columns
        // 2..=6 of rows 1..=4 (several runs), biome B over every column of rows 3..=5 (one
        // run); each biome's ground is filled over its rectangle only.
        let (nx, nz) = (9, 6);
        let len = nx * nz;
        let (a, b) = ([2, 6, 1, 4], [0, 8, 3, 5]);
        let inside = |[i0, i1, j0, j1]: [usize; 4], s: usize| {
            (i0..=i1).contains(&(s % nx)) && (j0..=j1).contains(&(s / nx))
        };
        let weight = |r: [usize; 4], s: usize, k: f32| {
            if inside(r, s) {
                0.25 + (s as f32 * k).sin().abs() / 2.0
            } else {
                0.0
            }
        };
        let weights = |r, k| -> (Vec<f32>, Vec<f32>) {
            let w = (0..len).map(|s| weight(r, s, k)).collect();
            let dw = (0..2 * len)
                .map(|f| weight(r, f / 2, k) * (f as f32 - 40.0))
                .collect();
            (w, dw)
        };
        // Each biome's ground over its rectangle, row-major.
        let ground = |[i0, i1, j0, j1]: [usize; 4], k: f32| {
            let n = (i1 + 1 - i0) * (j1 + 1 - j0);
            let v: Vec<f32> = (0..n).map(|s| (s as f32 * k).cos()).collect();
            let dv: Vec<f32> = (0..2 * n).map(|f| (f as f32 * k).sin()).collect();
            let c: Vec<f32> = (0..n).map(|s| (s as f32 * k * 0.5).sin().abs()).collect();
            (v, dv, c)
        };
        let ((wa, dwa), (wb, dwb)) = (weights(a, 0.7), weights(b, 1.3));
        let (ga, gb) = (ground(a, 0.3), ground(b, 0.9));
        let (scales, offsets) = ([40.0, 520.0], [-12.0, 150.0]);
        let (mut h, mut g, mut c) = (
            vec![f32::NAN; len],
            vec![f32::NAN; 2 * len],
            vec![f32::NAN; len],
        );
        zero_outside(&mut h, (nx, 1), a);
        zero_outside(&mut g, (nx, 2), a);
        zero_outside(&mut c, (nx, 1), a);
        let biomes = [(a, &ga, &wa, &dwa), (b, &gb, &wb, &dwb)];
        for (k, &([i0, i1, j0, j1], ground, w, dw)) in biomes.iter().enumerate() {
            Blend {
                ground: Weighted {
                    values: &ground.0,
                    gradients: &ground.1,
                    creases: &ground.2,
                    scale: scales[k],
                    offset: offsets[k],
                    weights: w,
                    weight_gradients: dw,
                },
                sums: (&mut h, &mut g, &mut c),
                columns: i0..i1 + 1,
                rows: j0..j1 + 1,
                width: nx,
                first: k == 0,
            }
            .run();
        }
        // Sample by sample: +0 plus each biome's terms where it weighs in, in the biomes' order.
        for s in 0..len {
            let (mut eh, mut eg, mut ec) = (0.0f32, [0.0f32; 2], 0.0f32);
            for (k, &(r, ground, w, dw)) in biomes.iter().enumerate() {
                if !inside(r, s) {
                    continue;
                }
                let own = (s / nx - r[2]) * (r[1] + 1 - r[0]) + s % nx - r[0];
                let height = ground.0[own] * scales[k] + offsets[k];
                let slope = |d: usize| ground.1[2 * own + d] * scales[k] + 0.0;
                eh += w[s] * height;
                for (d, eg) in eg.iter_mut().enumerate() {
                    *eg += w[s] * slope(d) + height * dw[2 * s + d];
                }
                ec += w[s] * ground.2[own];
            }
            let bits = |v: &[f32]| v.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(h[s].to_bits(), eh.to_bits(), "height of sample {s}");
            assert_eq!(bits(&g[2 * s..2 * s + 2]), bits(&eg), "slope of sample {s}");
            assert_eq!(c[s].to_bits(), ec.to_bits(), "crease of sample {s}");
        }
    }
}
