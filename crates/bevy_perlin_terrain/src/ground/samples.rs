//! The one code path from noise to ground: heights, exact normals and crease mask of a grid of
//! world positions. Chunk meshes and [`TerrainSampler`](crate::TerrainSampler) both read them
//! from [`GroundSamples`], whose every accessor goes through the same two functions (noise value
//! to height, noise gradient to normal), so the sampler equals the mesh at every vertex, bit for
//! bit.

use super::biomes::Biomes;
use super::recipe::GroundRecipe;
use super::weights::WeightWindow;
use crate::edit::{GroundEdits, Touching, grid_bounds, is_every_other};
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
        // The biomes that weigh in at some sample (the others add exact zeros, so leaving them
        // out changes no bit).
        let weighs = |slot: &usize| {
            weights[slot * len..(slot + 1) * len]
                .iter()
                .any(|&w| w > 0.0)
        };
        live.clear();
        live.extend((0..window.live.len()).filter(weighs));
        if let [slot] = live[..] {
            return self.fill_alone(tables, biomes, window.live[slot], spec, detail);
        }
        self.biomes
            .extend(live.iter().map(|&slot| (window.live[slot], Some(slot))));
        self.len = 0;
        self.height_scale = 1.0;
        self.grow(len);
        // The sums start at +0; each biome adds over the rectangle of samples where it weighs
        // in (elsewhere its terms are exact zeros): a coarse chunk across several biomes
        // computes each one's ground over its own part.
        self.values[..len].fill(0.0);
        self.gradients[..len].fill([0.0; 2]);
        self.creases[..len].fill(0.0);
        let nx = spec.size[0];
        for &slot in live.iter() {
            let b = &list[window.live[slot]];
            let (w, dw) = (
                &self.biome_weights[slot * len..(slot + 1) * len],
                &weight_gradients[slot * len..(slot + 1) * len],
            );
            let Some([i0, i1, j0, j1]) = extent(w, nx) else {
                continue;
            };
            let width = i1 - i0 + 1;
            let part = GridSpec {
                start: [spec.start[0] + i0 as i64, spec.start[1] + j0 as i64],
                size: [width, j1 - j0 + 1],
                ..*spec
            };
            ground.fill_noise(tables, &b.noise, b.height_scale, &part, detail)?;
            for j in j0..=j1 {
                let (row, own) = (
                    j * nx + i0..j * nx + i1 + 1,
                    (j - j0) * width..(j - j0 + 1) * width,
                );
                let one = Weighted {
                    values: &ground.values[own.clone()],
                    gradients: &ground.gradients[own.clone()],
                    creases: &ground.creases[own],
                    scale: b.height_scale,
                    offset: b.height_offset,
                    weights: &w[row.clone()],
                    weight_gradients: &dw[row.clone()],
                };
                one.add_to((
                    &mut self.values[row.clone()],
                    &mut self.gradients[row.clone()],
                    &mut self.creases[row],
                ));
            }
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

/// One biome's ground over a grid (noise values, gradients and creases, with its height scale
/// and offset) and its weights there.
struct Weighted<'a> {
    values: &'a [f32],
    gradients: &'a [[f32; 2]],
    creases: &'a [f32],
    scale: f32,
    offset: f32,
    weights: &'a [f32],
    weight_gradients: &'a [[f32; 2]],
}

impl Weighted<'_> {
    /// Adds the weighted ground to the sums (heights `h += w · g`, slopes `∇h += w ∇g + g ∇w`,
    /// creases `c += w · c_g`), the ground in metres as a biome alone has it (`v · s + offset`,
    /// slopes `∇v · s + 0`).
    #[inline]
    fn add_to(&self, (heights, slopes, creases): (&mut [f32], &mut [[f32; 2]], &mut [f32])) {
        let (scale, offset) = (self.scale, self.offset);
        let ground = self.values.iter().zip(self.gradients).zip(self.creases);
        let weights = self.weights.iter().zip(self.weight_gradients);
        let sums = heights
            .iter_mut()
            .zip(slopes.iter_mut())
            .zip(creases.iter_mut());
        for (((h, s), c), (((&v, dv), &crease), (&w, dw))) in sums.zip(ground.zip(weights)) {
            let g = height(v, scale) + offset;
            let gs = [dv[0] * scale + 0.0, dv[1] * scale + 0.0];
            *h += w * g;
            *s = [
                s[0] + (w * gs[0] + g * dw[0]),
                s[1] + (w * gs[1] + g * dw[1]),
            ];
            *c += w * crease;
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
    /// The window's live biomes that weigh in at some sample, by their slot among them.
    live: Vec<usize>,
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
