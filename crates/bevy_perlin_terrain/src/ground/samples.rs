//! The one code path from noise to ground: heights, exact normals and crease mask of a grid of
//! world positions. Chunk meshes and [`TerrainSampler`](crate::TerrainSampler) both read them
//! from [`GroundSamples`], whose every accessor goes through the same two functions (noise value
//! to height, noise gradient to normal), so the sampler equals the mesh at every vertex, bit for
//! bit.

use super::biomes::Biomes;
use super::edits::{GroundEdits, Touching, grid_bounds, is_every_other};
use super::recipe::GroundRecipe;
use super::weights::WeightWindow;
use crate::space::Bounds;
use bevy::math::Vec3;
use perlin_core::{
    Detail, Fbm, GridError, GridKernel, GridSpec, NoiseTables, Vectorised, with_thread_scratch,
};
use std::cell::RefCell;
use std::iter::Map;
use std::ops::Range;
use std::slice::Iter;

/// The most samples one grid of ground may have (2²⁶: with their gradients and creases, 1 GiB):
/// a grid larger than that (only an unchecked config's chunk or collider, or a caller's own
/// grid, asks for one) is [`GridError::TooLarge`] rather than an allocation that fails.
pub(crate) const MAX_GROUND_SAMPLES: usize = 1 << 26;

/// The noise values, gradients and creases of one grid, and the height scale that turns them
/// into ground. Filled with [`fill`](Self::fill); the buffers keep their memory between fills.
#[derive(Clone, Debug, Default)]
pub(crate) struct GroundSamples {
    /// How many samples the last fill produced: the first `len` of each buffer (the buffers
    /// only grow, as a chunk's grid and its parent's smaller one take turns).
    len: usize,
    values: Vec<f32>,
    gradients: Vec<[f32; 2]>,
    creases: Vec<f32>,
    height_scale: f32,
    /// The biomes that weigh in over the grid (their index in the config's list), each with
    /// the slot of its weights in `biome_weights` (`None`: it weighs all, everywhere). Empty
    /// without biomes.
    biomes: Vec<(usize, Option<usize>)>,
    /// Per slot, the weight of a biome at every sample (slot-major, `len` a slot).
    biome_weights: Vec<f32>,
}

impl GroundSamples {
    /// Samples `spec` (row-major, `x` along the first grid axis, `z` along the second) with the
    /// octaves `detail` can show, then applies the stamps and paths of `edits` that touch it.
    /// On an error (a grid too large to address, or of more than [`MAX_GROUND_SAMPLES`]
    /// samples) no sample is left.
    pub fn fill(
        &mut self,
        tables: &NoiseTables,
        ground: &GroundRecipe,
        edits: &GroundEdits,
        spec: &GridSpec,
        detail: Detail,
    ) -> Result<(), GridError> {
        self.fill_ground(tables, ground, spec, detail)?;
        self.apply_edits(edits, spec);
        Ok(())
    }

    /// The stamps and paths of `edits` that touch `spec`, applied to its filled ground.
    fn apply_edits(&mut self, edits: &GroundEdits, spec: &GridSpec) {
        if let Some(touching) = touching(edits, grid_bounds(spec)) {
            let (values, gradients) = self.in_metres();
            edits.apply(GridKernel::Auto, spec, &touching, values, gradients);
        }
    }

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
                GridKernel::Auto,
                &touching,
                (spec, values, gradients),
                (coarse_spec, coarse_values, coarse_gradients),
            );
        }
        Ok(())
    }

    /// Whether the ground just filled for `fine` (before the edits) gives the grid `coarse`
    /// the same bits wherever they share a sample: each recipe that weighs in fills both
    /// details alike ([`Fbm::fills_alike`]), and so do the biomes' weights. Those are a
    /// function of a sample's position and of their lattice, which follows the level's
    /// spacing: where both levels have the same lattice (the world preset's four finest), a
    /// blend is the same at both; where they differ, a border is too, and only one biome alone
    /// over both grids is.
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

    /// The ground of `spec` before the edits: the noise, or the biomes' grounds blended; on an
    /// error no sample is left.
    fn fill_ground(
        &mut self,
        tables: &NoiseTables,
        ground: &GroundRecipe,
        spec: &GridSpec,
        detail: Detail,
    ) -> Result<(), GridError> {
        self.biomes.clear();
        if spec.len().is_none_or(|len| len > MAX_GROUND_SAMPLES) {
            self.len = 0;
            return Err(GridError::TooLarge);
        }
        match &ground.biomes {
            None => self.fill_noise(tables, &ground.noise, ground.height_scale, spec, detail),
            Some(biomes) => with_thread_scratch(&BIOME_SCRATCH, |scratch| {
                self.fill_biomes(tables, biomes, spec, detail, scratch)
            }),
        }
    }

    /// The biomes' grounds of `spec`, in metres: where one biome alone weighs in over the whole
    /// grid, its ground (`v · s + offset`); otherwise each sample's weighted mean of the biomes
    /// that weigh in over the grid, with the gradient `Σ w ∇h + h ∇w`. A sample whose weight
    /// is all one biome's gets the same bits either way (its other terms are exact zeros), so
    /// grids of one detail agree with each other and with single samples wherever they share a
    /// position.
    fn fill_biomes(
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
            GridKernel::Auto
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

    /// The noise of `spec`, the fill before the edits; on an error no sample is left.
    fn fill_noise(
        &mut self,
        tables: &NoiseTables,
        noise: &Fbm,
        height_scale: f32,
        spec: &GridSpec,
        detail: Detail,
    ) -> Result<(), GridError> {
        let len = spec.len().ok_or(GridError::TooLarge)?;
        self.height_scale = height_scale;
        // The fill writes every sample of the grid: the buffers grow when a grid needs more,
        // and what they held is not cleared first.
        self.len = 0;
        self.grow(len);
        noise.fill_grid_detailed(
            GridKernel::Auto,
            tables,
            spec,
            detail,
            &mut self.values[..len],
            Some(&mut self.gradients[..len]),
            Some(&mut self.creases[..len]),
        )?;
        self.len = len;
        Ok(())
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

    /// Buffers of at least `len` samples. They only grow, and what they held is not cleared:
    /// every fill writes (or zeroes) each sample it uses.
    fn grow(&mut self, len: usize) {
        if self.values.len() < len {
            self.values.resize(len, 0.0);
            self.creases.resize(len, 0.0);
            self.gradients.resize(len, [0.0; 2]);
        }
    }

    /// The samples as heights and slopes in metres, for the edits, which work in metres (`v · s`
    /// is what `height` gives, and `height(h, 1)` is `h`: the same bits as without edits).
    fn in_metres(&mut self) -> (&mut [f32], &mut [[f32; 2]]) {
        let (values, gradients) = (
            &mut self.values[..self.len],
            &mut self.gradients[..self.len],
        );
        let scale = self.height_scale;
        // Already in metres (biomes, or a height scale of 1): `· 1` would change no bit.
        if scale != 1.0 {
            let to_metres = ToMetres {
                values: &mut *values,
                gradients: gradients.as_flattened_mut(),
                scale,
            };
            GridKernel::Auto
                .vectorise(to_metres)
                .unwrap_or_else(Vectorised::run);
        }
        self.height_scale = 1.0;
        (values, gradients)
    }

    /// The samples as heights and slopes in metres, `offset` added to the heights (`+ 0.0` on
    /// the slopes: no −0, as in a blend, whose sums start at +0).
    fn convert_to_metres(&mut self, offset: f32) {
        let scale = self.height_scale;
        for v in &mut self.values[..self.len] {
            *v = height(*v, scale) + offset;
        }
        for g in self.gradients[..self.len].as_flattened_mut() {
            *g = *g * scale + 0.0;
        }
        self.height_scale = 1.0;
    }

    /// How many samples the last fill produced.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The biomes that weigh in over the last fill's grid, each with its weight at every
    /// sample (`None`: 1 everywhere, the only one); nothing without biomes. The weights of a
    /// sample sum to 1.
    pub fn biome_weights(&self) -> impl Iterator<Item = (usize, Option<&[f32]>)> {
        let len = self.len;
        self.biomes.iter().map(move |&(biome, slot)| {
            let weights = slot.and_then(|s| self.biome_weights.get(s * len..(s + 1) * len));
            (biome, weights)
        })
    }

    /// Height (metres) and unit normal of sample `index`; `None` past the end.
    #[inline]
    pub fn ground(&self, index: usize) -> Option<(f32, Vec3)> {
        let (&value, &gradient) = (
            self.values[..self.len].get(index)?,
            self.gradients[..self.len].get(index)?,
        );
        Some((
            height(value, self.height_scale),
            normal(gradient, self.height_scale),
        ))
    }

    /// Crease mask of sample `index` (0 on ridges, 1 in gullies, ½ without erosion).
    #[inline]
    pub fn crease(&self, index: usize) -> Option<f32> {
        self.creases[..self.len].get(index).copied()
    }

    /// Heights (metres) of the samples `range` (e.g. one grid row), in order: the same values
    /// as [`ground`](Self::ground), as an iterator of known length that `Vec::extend` writes
    /// without a capacity check per element.
    ///
    /// # Panics
    /// If `range` reaches past the last fill's samples (callers pass rows of the grid they
    /// filled).
    #[inline]
    pub fn heights<'a>(
        &'a self,
        range: Range<usize>,
    ) -> Map<Iter<'a, f32>, impl FnMut(&'a f32) -> f32> {
        let scale = self.height_scale;
        self.values[..self.len][range]
            .iter()
            .map(move |&v| height(v, scale))
    }

    /// Unit normals of the samples `range`, in order: the same values as
    /// [`ground`](Self::ground).
    ///
    /// # Panics
    /// As [`heights`](Self::heights).
    #[inline]
    pub fn normals<'a>(
        &'a self,
        range: Range<usize>,
    ) -> Map<Iter<'a, [f32; 2]>, impl FnMut(&'a [f32; 2]) -> Vec3> {
        let scale = self.height_scale;
        self.gradients[..self.len][range]
            .iter()
            .map(move |&g| normal(g, scale))
    }

    /// Crease masks of the samples `range`, in order.
    ///
    /// # Panics
    /// As [`heights`](Self::heights).
    #[inline]
    pub fn creases(&self, range: Range<usize>) -> &[f32] {
        &self.creases[..self.len][range]
    }
}

/// The stamps and paths of `edits` touching `region` (grid bounds), if any.
fn touching(edits: &GroundEdits, region: Option<Bounds>) -> Option<Touching> {
    match region {
        Some(region) if !edits.is_empty() => {
            Some(edits.touching(&region)).filter(|touching| !touching.is_empty())
        }
        _ => None,
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
/// so [`GridKernel::vectorise`] compiles it for the CPU's widest vectors with the same bits.
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

/// Height in metres of a noise value.
#[inline]
fn height(value: f32, height_scale: f32) -> f32 {
    value * height_scale
}

/// Samples' values and gradients scaled to metres in place: one multiplication each, which
/// [`GridKernel::vectorise`] compiles for the widest vector instructions the CPU has (the same
/// bits on every build).
struct ToMetres<'a> {
    values: &'a mut [f32],
    gradients: &'a mut [f32],
    scale: f32,
}

impl Vectorised for ToMetres<'_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        for v in self.values {
            *v = height(*v, self.scale);
        }
        for g in self.gradients {
            *g *= self.scale;
        }
    }
}

/// Unit normal of the ground where the noise gradient is `[∂n/∂x, ∂n/∂z]`.
#[inline]
fn normal([dx, dz]: [f32; 2], height_scale: f32) -> Vec3 {
    normal_from_slope(dx * height_scale, dz * height_scale)
}

/// The unit normal of a height field whose slopes are `∂h/∂x`, `∂h/∂z`.
#[inline]
pub(crate) fn normal_from_slope(dhdx: f32, dhdz: f32) -> Vec3 {
    Vec3::new(-dhdx, 1.0, -dhdz).normalize_or(Vec3::Y)
}

/// What a biome fill works with beside its samples: the weight nodes around the grid, the
/// biomes that weigh in and their weights, and one biome's ground.
#[derive(Default)]
struct BiomeScratch {
    window: WeightWindow,
    /// The window's live biomes that weigh in at some sample, by their slot among them, each
    /// with the rectangle of samples where it does (see [`extent`]).
    live: Vec<(usize, [usize; 4])>,
    weight_gradients: Vec<[f32; 2]>,
    ground: GroundSamples,
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

thread_local! {
    static BIOME_SCRATCH: RefCell<BiomeScratch> = RefCell::new(BiomeScratch::default());
    static SAMPLES: RefCell<GroundSamples> = RefCell::new(GroundSamples::default());
    static COARSE_SAMPLES: RefCell<GroundSamples> = RefCell::new(GroundSamples::default());
}

/// Runs `f` with this thread's reusable [`GroundSamples`], so that building one chunk after
/// another (or answering one height query after another) does not allocate. The buffers keep
/// the size of the largest grid the thread has filled (16 bytes per sample: 260 KB for a 129²
/// chunk) until the thread ends.
pub(crate) fn with_thread_samples<R>(f: impl FnOnce(&mut GroundSamples) -> R) -> R {
    with_thread_scratch(&SAMPLES, f)
}

/// Runs `f` with this thread's reusable [`GroundSamples`] and a second set for a coarser grid
/// (a chunk's parent level, for [`GroundSamples::fill_with_coarse`]).
pub(crate) fn with_thread_samples_and_coarse<R>(
    f: impl FnOnce(&mut GroundSamples, &mut GroundSamples) -> R,
) -> R {
    with_thread_samples(|samples| with_thread_scratch(&COARSE_SAMPLES, |coarse| f(samples, coarse)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::parse_config;

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
        let bytes = include_bytes!("../../../../assets/terrain/world.terrain.ron");
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
