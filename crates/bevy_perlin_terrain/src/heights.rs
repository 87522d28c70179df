//! The one code path from noise to ground: heights and exact normals of a grid of world
//! positions. Chunk meshes and [`TerrainSampler`](crate::TerrainSampler) both read them from
//! [`GroundSamples`], whose every accessor goes through the same two functions (noise value to
//! height, noise gradient to normal), so the sampler equals the mesh at every vertex, bit for bit.

use bevy::math::Vec3;
use perlin_core::{Fbm, GridSpec, NoiseTables};
use std::cell::RefCell;
use std::iter::Map;
use std::ops::Range;
use std::slice::Iter;

/// The noise values and gradients of one grid, and the height scale that turns them into
/// ground. Filled with [`fill`](Self::fill); the buffers keep their memory between fills.
#[derive(Clone, Debug, Default)]
pub struct GroundSamples {
    values: Vec<f32>,
    gradients: Vec<[f32; 2]>,
    height_scale: f32,
}

impl GroundSamples {
    /// Samples `spec` (row-major, `x` along the first grid axis, `z` along the second).
    /// Returns `false`, leaving no sample, if the grid is too large to address.
    pub fn fill(
        &mut self,
        tables: &NoiseTables,
        noise: &Fbm,
        height_scale: f32,
        spec: &GridSpec,
    ) -> bool {
        let len = spec.len().unwrap_or(0);
        self.height_scale = height_scale;
        self.values.clear();
        self.values.resize(len, 0.0);
        self.gradients.clear();
        self.gradients.resize(len, [0.0; 2]);
        let filled = noise
            .fill_grid_with_gradient(tables, spec, &mut self.values, &mut self.gradients)
            .is_ok();
        if !filled {
            self.values.clear();
            self.gradients.clear();
        }
        filled
    }

    /// How many samples the last fill produced.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the last fill produced no sample.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Height (metres) and unit normal of sample `index`; flat ground at 0 past the end.
    #[inline]
    pub fn ground(&self, index: usize) -> (f32, Vec3) {
        match (self.values.get(index), self.gradients.get(index)) {
            (Some(&value), Some(&gradient)) => (
                height(value, self.height_scale),
                normal(gradient, self.height_scale),
            ),
            _ => (0.0, Vec3::Y),
        }
    }

    /// Heights (metres) of the samples `range` (e.g. one grid row), in order: the same values
    /// as [`ground`](Self::ground), as an iterator of known length that `Vec::extend` writes
    /// without a capacity check per element.
    ///
    /// # Panics
    /// If `range` reaches past the last fill's samples.
    #[inline]
    pub fn heights<'a>(
        &'a self,
        range: Range<usize>,
    ) -> Map<Iter<'a, f32>, impl FnMut(&'a f32) -> f32> {
        let scale = self.height_scale;
        self.values[range].iter().map(move |&v| height(v, scale))
    }

    /// Unit normals of the samples `range`, in order: the same values as
    /// [`ground`](Self::ground).
    ///
    /// # Panics
    /// If `range` reaches past the last fill's samples.
    #[inline]
    pub fn normals<'a>(
        &'a self,
        range: Range<usize>,
    ) -> Map<Iter<'a, [f32; 2]>, impl FnMut(&'a [f32; 2]) -> Vec3> {
        let scale = self.height_scale;
        self.gradients[range].iter().map(move |&g| normal(g, scale))
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

thread_local! {
    static SAMPLES: RefCell<GroundSamples> = RefCell::new(GroundSamples::default());
}

/// Runs `f` with this thread's reusable [`GroundSamples`], so that building one chunk after
/// another (or answering one height query after another) does not allocate. The buffers keep
/// the size of the largest grid the thread has filled (12 bytes per sample: 200 KB for a 129²
/// chunk) until the thread ends.
pub fn with_thread_samples<R>(f: impl FnOnce(&mut GroundSamples) -> R) -> R {
    SAMPLES.with(|cell| match cell.try_borrow_mut() {
        Ok(mut samples) => f(&mut samples),
        // Only a nested call gets here; it pays for its own buffers.
        Err(_) => f(&mut GroundSamples::default()),
    })
}

/// Heights (metres) and unit normals of `spec`'s samples as two new vectors, row-major. For
/// tools; the plugin reads [`GroundSamples`] directly.
pub fn heights_and_normals(
    tables: &NoiseTables,
    noise: &Fbm,
    height_scale: f32,
    spec: &GridSpec,
) -> (Vec<f32>, Vec<Vec3>) {
    let mut samples = GroundSamples::default();
    samples.fill(tables, noise, height_scale, spec);
    (0..samples.len()).map(|i| samples.ground(i)).unzip()
}

/// The unit normal of a height field whose slopes are `∂h/∂x`, `∂h/∂z`.
#[inline]
pub fn normal_from_slope(dhdx: f32, dhdz: f32) -> Vec3 {
    Vec3::new(-dhdx, 1.0, -dhdz).normalize_or(Vec3::Y)
}
