//! The one code path from noise to ground: heights, exact normals and crease mask of a grid of
//! world positions. Chunk meshes and [`TerrainSampler`](crate::TerrainSampler) both read them
//! from [`GroundSamples`], whose every accessor goes through the same two functions (noise value
//! to height, noise gradient to normal), so the sampler equals the mesh at every vertex, bit for
//! bit.

use crate::edit::{GroundEdits, Touching, grid_bounds};
use crate::space::Bounds;
use bevy::math::Vec3;
use perlin_core::{Detail, Fbm, GridError, GridKernel, GridSpec, NoiseTables};
use std::cell::RefCell;
use std::iter::Map;
use std::ops::Range;
use std::slice::Iter;

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
}

impl GroundSamples {
    /// Samples `spec` (row-major, `x` along the first grid axis, `z` along the second) with the
    /// octaves `detail` can show, then applies the stamps and paths of `edits` that touch it.
    /// On an error (a grid too large to address) no sample is left.
    pub fn fill(
        &mut self,
        tables: &NoiseTables,
        noise: &Fbm,
        height_scale: f32,
        edits: &GroundEdits,
        spec: &GridSpec,
        detail: Detail,
    ) -> Result<(), GridError> {
        self.fill_noise(tables, noise, height_scale, spec, detail)?;
        if let Some(touching) = touching(edits, grid_bounds(spec)) {
            let (values, gradients) = self.in_metres();
            edits.apply(GridKernel::Auto, spec, &touching, values, gradients);
        }
        Ok(())
    }

    /// [`fill`](Self::fill) for `spec` with `detail`, and for `coarse` the grid `coarse_spec`
    /// with `coarse_detail`: the same results, bit for bit. Where `coarse_spec`'s samples are
    /// every other sample of `spec` (a chunk's parent level), a path cuts each row once for both
    /// grids. On an error neither grid keeps a sample.
    #[allow(
        clippy::too_many_arguments,
        reason = "one fill's inputs, then the coarse grid's"
    )]
    pub fn fill_with_coarse(
        &mut self,
        coarse: &mut GroundSamples,
        tables: &NoiseTables,
        noise: &Fbm,
        height_scale: f32,
        edits: &GroundEdits,
        (spec, detail): (&GridSpec, Detail),
        (coarse_spec, coarse_detail): (&GridSpec, Detail),
    ) -> Result<(), GridError> {
        self.fill_noise(tables, noise, height_scale, spec, detail)?;
        coarse
            .fill_noise(tables, noise, height_scale, coarse_spec, coarse_detail)
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
        if self.values.len() < len {
            self.values.resize(len, 0.0);
            self.creases.resize(len, 0.0);
            self.gradients.resize(len, [0.0; 2]);
        }
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

    /// The samples as heights and slopes in metres, for the edits, which work in metres (`v · s`
    /// is what `height` gives, and `height(h, 1)` is `h`: the same bits as without edits).
    fn in_metres(&mut self) -> (&mut [f32], &mut [[f32; 2]]) {
        let (values, gradients) = (
            &mut self.values[..self.len],
            &mut self.gradients[..self.len],
        );
        let scale = self.height_scale;
        for v in &mut *values {
            *v = height(*v, scale);
        }
        for g in &mut *gradients {
            *g = [g[0] * scale, g[1] * scale];
        }
        self.height_scale = 1.0;
        (values, gradients)
    }

    /// How many samples the last fill produced.
    pub fn len(&self) -> usize {
        self.len
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
    perlin_core::with_thread_scratch(&SAMPLES, f)
}

/// Runs `f` with this thread's reusable [`GroundSamples`] and a second set for a coarser grid
/// (a chunk's parent level, for [`GroundSamples::fill_with_coarse`]).
pub(crate) fn with_thread_samples_and_coarse<R>(
    f: impl FnOnce(&mut GroundSamples, &mut GroundSamples) -> R,
) -> R {
    with_thread_samples(|samples| {
        perlin_core::with_thread_scratch(&COARSE_SAMPLES, |coarse| f(samples, coarse))
    })
}
