//! The grid path: a whole `width × height` field of 2D fractal samples at once.
//!
//! Point sampling repeats, for every sample and octave, work that a grid shares: the lattice
//! cell, offset and fade weight of a column are the same on every row, and a row's corner
//! gradients are the same for every sample between two lattice columns. The grid path does
//! each of those once ([`axis`], [`lattice_row`]) and leaves a few multiply–adds per sample,
//! run eight lanes at a time with AVX2 when the CPU has it ([`simd`]) and by a bit-identical
//! scalar twin otherwise ([`kernel`]).
//!
//! Sample `(i, j)` sits at `origin + (start + (i, j)) · step`, computed from the integer index,
//! never accumulated: two grids with the same origin and step whose index ranges share an edge
//! compute bit-identical values (and gradients) on it.
//!
//! The fast path covers Perlin-based [`Fbm`]s without domain warp; other configurations fill
//! the grid from [`Fbm::sample2_with_gradient`], one sample at a time.

mod axis;
mod gradient_rows;
mod kernel;
mod simd;
mod spec;

use crate::fbm::{BaseNoise, Fbm};
use crate::tables::NoiseTables;
use axis::{Axis, Columns};
use gradient_rows::GradientRows;
use kernel::{Band, Sums, Weights};
pub use spec::{GridError, GridSpec};

/// Which per-sample kernel the fast path runs. All give bit-identical results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GridKernel {
    /// The widest this CPU has: AVX-512, else AVX2 (both with FMA), else the scalar twin.
    #[default]
    Auto,
    /// AVX2 + FMA even where AVX-512 is available (the scalar twin where neither is).
    Avx2,
    /// The scalar twin only: the reference the SIMD kernels are tested against.
    Scalar,
}

/// One octave's prepared columns, rows and gradient rows.
#[derive(Default)]
struct OctaveGrid {
    weights: Weights,
    cols: Columns,
    rows: Axis,
    grads: GradientRows,
}

/// Samples of a strip, the rows summed over all octaves before the next strip: few enough that
/// a strip's sums stay in the L1 cache however wide the grid is.
const STRIP_SAMPLES: usize = 4096;
/// At least a few rows per strip, so that a band's constants serve several rows.
const MIN_STRIP_ROWS: usize = 4;
/// At most this many rows per strip, however narrow the grid.
const MAX_STRIP_ROWS: usize = 32;

/// Everything a grid fill allocates, kept per thread so repeated fills (one chunk after
/// another) reuse the memory instead of making ~100 small allocations each.
#[derive(Default)]
struct Scratch {
    xs: Vec<f64>,
    ys: Vec<f64>,
    octaves: Vec<OctaveGrid>,
    sums: Sums,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

impl Fbm {
    /// Fills `values` (row-major, `size[0] · size[1]`) with the fractal noise of `spec`'s
    /// samples, as `f32`.
    pub fn fill_grid(
        &self,
        tables: &NoiseTables,
        spec: &GridSpec,
        values: &mut [f32],
    ) -> Result<(), GridError> {
        self.fill_grid_using(GridKernel::Auto, tables, spec, values, None)
    }

    /// The grid in its plainest form: sample `(i, j)` of the `width × height` grid (row-major)
    /// is at `(origin[0] + i·step, origin[1] + j·step)` and equals [`Fbm::sample2`] there to
    /// about 1e-6.
    ///
    /// This form cannot report an error: if `out.len()` is not `width · height` it fills `out`
    /// with NaN instead, so a mis-sized buffer never passes for terrain. [`Fbm::fill_grid`]
    /// returns the [`GridError`].
    pub fn fill_grid2(
        &self,
        tables: &NoiseTables,
        origin: [f64; 2],
        step: f64,
        width: usize,
        height: usize,
        out: &mut [f32],
    ) {
        let spec = GridSpec::new(origin, step, [width, height]);
        if self.fill_grid(tables, &spec, out).is_err() {
            out.fill(f32::NAN);
        }
    }

    /// [`Fbm::fill_grid`] plus the analytic gradient `[∂/∂x, ∂/∂y]` of every sample.
    pub fn fill_grid_with_gradient(
        &self,
        tables: &NoiseTables,
        spec: &GridSpec,
        values: &mut [f32],
        gradients: &mut [[f32; 2]],
    ) -> Result<(), GridError> {
        self.fill_grid_using(GridKernel::Auto, tables, spec, values, Some(gradients))
    }

    /// The grid path with a chosen kernel; every kernel gives bit-identical results.
    pub fn fill_grid_using(
        &self,
        kernel: GridKernel,
        tables: &NoiseTables,
        spec: &GridSpec,
        values: &mut [f32],
        gradients: Option<&mut [[f32; 2]]>,
    ) -> Result<(), GridError> {
        let expected = spec.len().ok_or(GridError::TooLarge)?;
        let check = |buffer, actual| {
            if actual == expected {
                Ok(())
            } else {
                Err(GridError::BufferLength {
                    buffer,
                    expected,
                    actual,
                })
            }
        };
        check("values", values.len())?;
        if let Some(g) = &gradients {
            check("gradients", g.len())?;
        }
        if spec.is_empty() {
            return Ok(());
        }
        if self.base == BaseNoise::Perlin && self.warp.is_none() {
            self.fill_fast(kernel, tables, spec, values, gradients, false);
        } else {
            self.fill_pointwise(tables, spec, values, gradients);
        }
        Ok(())
    }

    /// The fallback: one [`Fbm::sample2_with_gradient`] per sample.
    fn fill_pointwise(
        &self,
        tables: &NoiseTables,
        spec: &GridSpec,
        values: &mut [f32],
        mut gradients: Option<&mut [[f32; 2]]>,
    ) {
        let width = spec.size[0];
        for (index, value) in values.iter_mut().enumerate() {
            let (i, j) = (index % width, index / width);
            let (v, g) =
                self.sample2_with_gradient(tables, spec.position(0, i), spec.position(1, j));
            *value = v as f32;
            if let Some(grads) = gradients.as_deref_mut() {
                grads[index] = [g[0] as f32, g[1] as f32];
            }
        }
    }

    /// The fast path; `force_sparse` is for tests that compare the sparse and dense layouts.
    fn fill_fast(
        &self,
        kernel: GridKernel,
        tables: &NoiseTables,
        spec: &GridSpec,
        values: &mut [f32],
        gradients: Option<&mut [[f32; 2]]>,
        force_sparse: bool,
    ) {
        SCRATCH.with(|cell| {
            let (mut borrowed, mut fresh);
            let scratch: &mut Scratch = match cell.try_borrow_mut() {
                Ok(b) => {
                    borrowed = b;
                    &mut borrowed
                }
                // Only if a fill runs inside another on this thread: work in fresh memory.
                Err(_) => {
                    fresh = Scratch::default();
                    &mut fresh
                }
            };
            self.fill_fast_in(
                scratch,
                kernel,
                tables,
                spec,
                values,
                gradients,
                force_sparse,
            )
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn fill_fast_in(
        &self,
        scratch: &mut Scratch,
        kernel: GridKernel,
        tables: &NoiseTables,
        spec: &GridSpec,
        values: &mut [f32],
        mut gradients: Option<&mut [[f32; 2]]>,
        force_sparse: bool,
    ) {
        let [width, height] = spec.size;
        let Scratch {
            xs,
            ys,
            octaves,
            sums,
        } = scratch;
        xs.clear();
        xs.extend((0..width).map(|i| spec.position(0, i)));
        ys.clear();
        ys.extend((0..height).map(|j| spec.position(1, j)));
        let isa = simd::Isa::for_kernel(kernel);
        let count = self.octave_list().count();
        octaves.resize_with(count, OctaveGrid::default);
        for (o, grid) in self.octave_list().zip(octaves.iter_mut()) {
            grid.weights = Weights {
                amplitude: o.amplitude as f32,
                amplitude_frequency: (o.amplitude * o.frequency) as f32,
            };
            grid.cols.axis.rebuild(xs, &o, self.fade);
            grid.cols.rebuild(isa.lanes());
            if force_sparse {
                grid.cols.span = 0;
            }
            grid.grads.reset(tables, &grid.cols);
            grid.rows.rebuild(ys, &o, self.fade);
        }
        let octaves = &mut octaves[..count];
        let norm = self.amplitude_sum() as f32;
        let slopes = gradients.is_some();
        sums.width = width;
        let strip_rows = (STRIP_SAMPLES / width.max(1)).clamp(MIN_STRIP_ROWS, MAX_STRIP_ROWS);
        for first in (0..height).step_by(strip_rows) {
            let strip = first..(first + strip_rows).min(height);
            sums.reset(strip.clone(), slopes);
            for o in octaves.iter_mut() {
                // Bands: runs of rows inside one lattice row.
                let mut start = strip.start;
                while start < strip.end {
                    let y0 = o.rows.cell[start];
                    let end = (start + 1..strip.end)
                        .find(|&r| o.rows.cell[r] != y0)
                        .unwrap_or(strip.end);
                    let band = Band {
                        rows: &o.rows,
                        range: start..end,
                    };
                    if o.cols.dense() {
                        o.grads.load(tables, self.hashing, &o.cols, y0);
                        simd::accumulate(isa, &o.cols, &o.grads, &band, self.mode, o.weights, sums);
                    } else {
                        kernel::accumulate_sparse(
                            tables,
                            self.hashing,
                            &o.cols,
                            &band,
                            y0,
                            self.mode,
                            o.weights,
                            sums,
                        );
                    }
                    start = end;
                }
            }
            let cells = strip.start * width..strip.end * width;
            self.finish_strip(
                sums,
                norm,
                &mut values[cells.clone()],
                gradients.as_deref_mut().map(|g| &mut g[cells]),
            );
        }
    }

    /// Normalisation, contrast and noise size for one strip of sums.
    fn finish_strip(
        &self,
        sums: &Sums,
        norm: f32,
        out: &mut [f32],
        gradients: Option<&mut [[f32; 2]]>,
    ) {
        if self.contrast == 1.0 {
            // The common case stays in f32 and vectorises.
            let scale = (self.noise_size / norm as f64) as f32;
            for (o, s) in out.iter_mut().zip(&sums.value) {
                *o = s * scale;
            }
            if let Some(grads) = gradients {
                for ((g, dx), dy) in grads.iter_mut().zip(&sums.dx).zip(&sums.dy) {
                    *g = [dx * scale, dy * scale];
                }
            }
            return;
        }
        let mut gradients = gradients;
        for (c, value) in out.iter_mut().enumerate() {
            let (v, slope) = self.finish((sums.value[c] / norm) as f64);
            *value = v as f32;
            if let Some(grads) = gradients.as_deref_mut() {
                let k = slope as f32 / norm;
                grads[c] = [sums.dx[c] * k, sums.dy[c] * k];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fbm::FractalMode;

    #[test]
    fn sparse_and_dense_layouts_agree_bit_for_bit() {
        let tables = NoiseTables::from_seed(5);
        for mode in [FractalMode::Standard, FractalMode::Ridged] {
            let fbm = Fbm {
                frequency: 0.05,
                mode,
                ..Fbm::default()
            };
            let spec = GridSpec::new([-13.5, 7.25], 0.75, [37, 11]);
            let mut dense = vec![0.0; 37 * 11];
            let mut sparse = dense.clone();
            let mut gd = vec![[0.0; 2]; 37 * 11];
            let mut gs = gd.clone();
            fbm.fill_fast(
                GridKernel::Auto,
                &tables,
                &spec,
                &mut dense,
                Some(&mut gd),
                false,
            );
            fbm.fill_fast(
                GridKernel::Auto,
                &tables,
                &spec,
                &mut sparse,
                Some(&mut gs),
                true,
            );
            assert_eq!(
                dense.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                sparse.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
            assert_eq!(gd, gs);
        }
    }
}
