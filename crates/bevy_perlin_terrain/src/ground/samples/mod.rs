//! The one code path from noise to ground: heights, exact normals and crease mask of a grid of
//! world positions. Chunk meshes and [`TerrainSampler`](crate::TerrainSampler) both read them
//! from [`GroundSamples`], whose every accessor goes through the same two functions (noise value
//! to height, noise gradient to normal), so the sampler equals the mesh at every vertex, bit for
//! bit.
//!
//! `blend.rs` blends the biomes' grounds by their weights, and `parent.rs` fills a chunk's
//! parent grid along with the chunk's, from the chunk's own samples where both fill alike.

mod blend;
mod parent;

use super::edits::{GroundEdits, Touching, grid_bounds};
use super::recipe::GroundRecipe;
use crate::space::Bounds;
use bevy::math::Vec3;
use blend::BIOME_SCRATCH;
use perlin_core::{
    Detail, Fbm, GridError, GridFill, GridSpec, NoiseTables, SimdLevel, Vectorised,
    with_thread_scratch,
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
            edits.apply(SimdLevel::Auto, spec, &touching, values, gradients);
        }
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
        let fill = GridFill::new(&mut self.values[..len])
            .gradients(&mut self.gradients[..len])
            .creases(&mut self.creases[..len])
            .detail(detail);
        noise.fill(tables, spec, fill)?;
        self.len = len;
        Ok(())
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
            SimdLevel::Auto
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

/// Height in metres of a noise value.
#[inline]
fn height(value: f32, height_scale: f32) -> f32 {
    value * height_scale
}

/// Samples' values and gradients scaled to metres in place: one multiplication each, which
/// [`SimdLevel::vectorise`] compiles for the widest vector instructions the CPU has (the same
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

thread_local! {
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
