//! The grid path: a whole `width × height` field of 2D fractal samples at once, for every
//! configuration an [`Fbm`] can have.
//!
//! Point sampling repeats, for every sample and octave, work that a grid shares: the lattice cell,
//! offset and blend curve of a column are the same on every row, and the lattice data (gradients
//! or values) of a lattice point serves every sample around it. The grid path does that work once
//! per column, row and lattice point (`axis.rs`, `lattice.rs`) and leaves only per-sample arithmetic,
//! which runs in SIMD lanes:
//!
//! - **Band path** (`band.rs`): Perlin and value noise on the grid itself, three multiply–adds per
//!   sample and octave.
//! - **Point path** (`point.rs`): domain-warped grids (irregular sample points) and simplex noise
//!   (no bands on a skewed lattice), one sample per lane.
//! - Then, per sample: warp Jacobian, normalisation, contrast and size (`finish.rs`), and the
//!   erosion filter (`erosion.rs`).
//!
//! Rows are processed in strips small enough to stay in cache, every layer of a strip before the
//! next strip. Each kernel is written once over SIMD lanes (the `Simd` trait of `src/simd/`) and compiled for
//! one lane (the scalar twin), AVX2 and AVX-512; they give bit-identical grids.
//!
//! Sample `(i, j)` sits at `origin + (start + (i, j)) · step`, computed from the integer index,
//! never accumulated: two grids with the same origin and step whose index ranges share an edge
//! compute bit-identical values (and gradients, and creases) on it, whatever their sizes.

mod axis;
mod band;
mod erosion;
mod finish;
mod lattice;
pub(crate) mod maths;
mod point;
mod spec;

pub use crate::simd::{GridKernel, Vectorised};
pub use spec::{GridError, GridSpec};

use crate::erosion::ErosionPlan;
use crate::fbm::{BaseNoise, Detail, Fbm, Octave, WARP_OFFSETS};
use crate::simd::{Isa, Kernel, Real, Simd};
use crate::tables::NoiseTables;
use crate::value::{Interpolation, Value};
use axis::{Axis, AxisNeeds, Curve, SKEW};
use band::{BandBase, BandLayer, BandRows, Columns};
use erosion::{ErosionPass, ErosionScratch};
use finish::{Finish, Unpadded, WarpField};
use lattice::{Lattice, PointSource, Window};
use point::{Displacement, PointBase, PointLayer};
use std::cell::RefCell;
use std::ops::Range;

/// One layer's weights in the sums: `amplitude` for values, `amplitude · frequency` for slopes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Weights {
    pub amplitude: f32,
    pub amplitude_frequency: f32,
}

/// A strip's sums over the layers, row-major with `width` (padded) columns.
pub(super) struct Sums<'a> {
    pub value: &'a mut [f32],
    /// Empty when no gradient is wanted.
    pub dx: &'a mut [f32],
    pub dy: &'a mut [f32],
    pub width: usize,
    /// The grid rows of the strip.
    pub rows: Range<usize>,
    /// Whether the sums hold nothing yet, not even zeros: a band layer then writes its terms
    /// instead of adding them (a point layer needs zeroed sums).
    pub fresh: bool,
}

impl Sums<'_> {
    /// Whether gradients are summed.
    fn slopes(&self) -> bool {
        !self.dx.is_empty()
    }

    /// Index of grid row `r`, column `c`.
    #[inline(always)]
    fn at(&self, r: usize, c: usize) -> usize {
        (r - self.rows.start) * self.width + c
    }
}

/// [`FractalMode::shape`](crate::FractalMode::shape) on lanes, for mode number `MODE`
/// (`FractalMode as u8`: 0 standard, 1 ridged, 2 billow, 3 turbulence).
#[inline(always)]
pub(super) fn shape<S: Simd, const MODE: u8>(s: S, n: S::F) -> (S::F, S::F) {
    let (one, two) = (s.splat(1.0), s.splat(2.0));
    match MODE {
        0 => (n, one),
        1 => {
            let r = one - n.abs();
            (two * (r * r) - one, s.splat(-4.0) * r * n.sign())
        }
        2 => (two * n.abs() - one, two * n.sign()),
        _ => (n.abs(), n.sign()),
    }
}

/// One layer: an octave of the sum, or one of the two warp noises.
#[derive(Default)]
struct Layer {
    frequency: f64,
    weights: Weights,
    columns: Axis,
    rows: Axis,
    /// Band path only.
    layout: Columns,
    band_rows: BandRows,
    /// Point path only: lattice-coordinate bounds of the columns, for its windows.
    column_bounds: (f64, f64),
    /// Point path only: the lattice data around the strip's samples.
    window: Window,
}

/// How a configuration fills a grid.
#[derive(Clone, Copy, Debug)]
struct Route {
    lattice: Lattice,
    /// `Some` for the band path, `None` for the point path.
    band: Option<BandBase>,
    point: PointBase,
    column_curve: Curve,
    row_curve: Curve,
    simplex: bool,
}

impl Route {
    /// The route of `fbm`'s base noise, on a regular grid (`warped == false`) or not.
    fn of(fbm: &Fbm, warped: bool) -> Route {
        let value = Value {
            interpolation: fbm.interpolation,
            hashing: fbm.hashing,
        };
        let (lattice, band, point, curves) = match fbm.base {
            BaseNoise::Perlin => (
                Lattice::Gradients(fbm.hashing),
                BandBase::Perlin,
                PointBase::Perlin(fbm.fade),
                (Curve::Fade(fbm.fade), Curve::Fade(fbm.fade)),
            ),
            BaseNoise::Value => match fbm.interpolation {
                Interpolation::Linear => (
                    Lattice::Values(value),
                    BandBase::Value,
                    PointBase::Value { cosine: false },
                    (
                        Curve::Fade(crate::Fade::Linear),
                        Curve::Fade(crate::Fade::Linear),
                    ),
                ),
                Interpolation::Cosine => (
                    Lattice::Values(value),
                    BandBase::Value,
                    PointBase::Value { cosine: true },
                    (Curve::Cosine, Curve::Cosine),
                ),
                Interpolation::Cubic => (
                    Lattice::Values(value),
                    BandBase::Cubic,
                    PointBase::Cubic,
                    (Curve::Identity, Curve::Squared),
                ),
            },
            BaseNoise::Simplex => {
                return Route {
                    lattice: Lattice::Gradients(fbm.hashing),
                    band: None,
                    point: PointBase::Simplex,
                    column_curve: Curve::None,
                    row_curve: Curve::None,
                    simplex: true,
                };
            }
        };
        if warped {
            Route {
                lattice,
                band: None,
                point,
                column_curve: Curve::None,
                row_curve: Curve::None,
                simplex: false,
            }
        } else {
            Route {
                lattice,
                band: Some(band),
                point,
                column_curve: curves.0,
                row_curve: curves.1,
                simplex: false,
            }
        }
    }
}

/// Samples per strip: tall enough that a coarse octave's band constants serve many rows, few
/// enough that a strip's sums stay in the L2 cache.
const STRIP_SAMPLES: usize = 16384;
/// Samples per strip of a plain fill (values only, no warp, contrast or erosion), whose strip
/// holds one buffer of sums instead of up to a dozen.
const PLAIN_STRIP_SAMPLES: usize = 65536;
/// Rows per strip, at least and at most.
const STRIP_ROWS: Range<usize> = 4..257;

/// A grid leaves out every erosion octave whose cells are smaller than its step divided by
/// this: such gullies only alias into noise, and each sample would need tens of cells worked
/// out. Decided once per fill from the step alone (a point sample has no step, and no such
/// limit), so every strip, kernel and grid shape of the same step erodes alike.
pub const EROSION_CELLS_PER_STEP: f64 = 8.0;

/// Rows per strip of a grid `height` rows tall whose rows hold `padded` samples. Strips are
/// balanced (the last one at most a row shorter): the strip buffers then keep their size from
/// one strip, and one fill, to the next instead of being zeroed as they grow.
fn strip_rows(padded: usize, height: usize, samples: usize) -> usize {
    let most = (samples / padded.max(1)).clamp(STRIP_ROWS.start, STRIP_ROWS.end - 1);
    let strips = height.div_ceil(most).max(1);
    height.div_ceil(strips).max(1)
}

/// Whether rows `width` samples apart lie within 32 bytes of a multiple of 4 KiB apart. A
/// walk down a block's column then stores into the same few cache sets row after row (and,
/// where rows are a few bytes more or less than 4 KiB apart, into lines each row's stores
/// split). One-octave fills of 1000 × 777 took about a third less time as one strip than
/// in strips of 16 rows; with rows 1024, 1025 or 1028 samples apart, 5–120 % more
/// (2026-11-28, AMD EPYC with AVX-512; `docs/benchmarks.md`). [`padded_width`] keeps the
/// strip buffers' rows off the same hazard with its own rule, measured on the sums' walks.
fn crowds_cache_sets(width: usize) -> bool {
    const PAGE: usize = 1024; // samples of 4 bytes
    let off = width % PAGE;
    off.min(PAGE - off) < 8
}

/// Samples per strip row: `width` rounded up to whole registers, plus one register where rows
/// would be a multiple of 1 KiB apart (a block's column of a tall strip would then crowd a few
/// cache sets and evict its own sums).
fn padded_width(width: usize, lanes: usize) -> usize {
    let padded = width.div_ceil(lanes) * lanes;
    if padded.is_multiple_of(256) {
        padded + lanes
    } else {
        padded
    }
}

/// Samples in a 64-byte cache line. Each strip buffer starts on a line, and its rows are whole
/// registers long, so no register a walk loads or stores straddles two lines. Where the
/// allocator left the start (a multiple of 16 bytes, often not of 64), every 64-byte register
/// could; fills of six octaves took 5–9 % longer (2026-11-28, `docs/benchmarks.md`).
const ALIGN_SAMPLES: usize = 16;

/// A strip's buffers, padded width × strip rows each.
#[derive(Default)]
struct StripBuffers {
    /// `[value, ∂/∂x, ∂/∂y]` sums of the octaves.
    sums: [Vec<f32>; 3],
    /// The same for the two warp noises.
    warp: [[Vec<f32>; 3]; 2],
    displacement: [Vec<f32>; 2],
    jacobian: [Vec<f32>; 4],
    /// `[value, ∂/∂x, ∂/∂y]` finished.
    out: [Vec<f32>; 3],
    creases: Vec<f32>,
}

/// Everything a grid fill allocates, kept per thread so repeated fills (one chunk after
/// another) reuse the memory.
#[derive(Default)]
struct Scratch {
    xs: Vec<f64>,
    ys: Vec<f64>,
    octaves: Vec<Layer>,
    warp: [Layer; 2],
    erosion: ErosionScratch,
    strip: StripBuffers,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
    /// For a fill inside a fill (the erosion filter's coarse terrain).
    static NESTED: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's reusable `T`, or a fresh one if `f` is already running on this
/// thread (a fill inside a fill). The one pattern behind every per-thread scratch buffer of the
/// workspace.
pub fn with_thread_scratch<T: Default + 'static, R>(
    key: &'static std::thread::LocalKey<RefCell<T>>,
    f: impl FnOnce(&mut T) -> R,
) -> R {
    key.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut T::default()),
    })
}

/// The buffers a fill writes.
struct Out<'a> {
    values: &'a mut [f32],
    gradients: Option<&'a mut [[f32; 2]]>,
    creases: Option<&'a mut [f32]>,
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
        self.fill_grid_using(GridKernel::Auto, tables, spec, values, None, None)
    }

    /// The grid in its plainest form (the same as [`Fbm::fill_grid_at`]): sample `(i, j)` of the
    /// `width × height` grid (row-major) is at `(origin[0] + i·step, origin[1] + j·step)`.
    ///
    /// This form cannot report an error: if `out.len()` is not `width · height` it fills `out`
    /// with NaN instead, so a mis-sized buffer never passes for terrain.
    pub fn fill_grid2(
        &self,
        tables: &NoiseTables,
        origin: [f64; 2],
        step: f64,
        width: usize,
        height: usize,
        out: &mut [f32],
    ) {
        self.fill_grid_at(tables, origin, step, width, height, out);
    }

    /// A `width × height` grid (row-major) whose sample `(i, j)` is at
    /// `(origin[0] + i·step, origin[1] + j·step)`, equal to [`Fbm::sample2`] there to about
    /// 1e−6. If `out.len()` is not `width · height`, `out` is filled with NaN (use
    /// [`Fbm::fill_grid`] to get the error instead).
    pub fn fill_grid_at(
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
        self.fill_grid_using(
            GridKernel::Auto,
            tables,
            spec,
            values,
            Some(gradients),
            None,
        )
    }

    /// [`Fbm::fill_grid_with_gradient`] plus the crease mask of every sample: 0 on ridges and
    /// peaks, 1 in gullies and valley floors, ½ without [`erosion`](Fbm::erosion).
    pub fn fill_grid_with_creases(
        &self,
        tables: &NoiseTables,
        spec: &GridSpec,
        values: &mut [f32],
        gradients: &mut [[f32; 2]],
        creases: &mut [f32],
    ) -> Result<(), GridError> {
        self.fill_grid_using(
            GridKernel::Auto,
            tables,
            spec,
            values,
            Some(gradients),
            Some(creases),
        )
    }

    /// The grid path with a chosen kernel; every kernel gives bit-identical results.
    /// [`GridError::KernelUnavailable`] if this CPU lacks the kernel's instructions.
    pub fn fill_grid_using(
        &self,
        kernel: GridKernel,
        tables: &NoiseTables,
        spec: &GridSpec,
        values: &mut [f32],
        gradients: Option<&mut [[f32; 2]]>,
        creases: Option<&mut [f32]>,
    ) -> Result<(), GridError> {
        self.fill_grid_detailed(
            kernel,
            tables,
            spec,
            Detail::FULL,
            values,
            gradients,
            creases,
        )
    }

    /// [`Fbm::fill_grid_using`] summing only the octaves `detail` can show (see [`Detail`]):
    /// equal to [`Fbm::sample2_detailed`] at each sample to about 1e−6. With
    /// [`Detail::FULL`] it is [`Fbm::fill_grid_using`], bit for bit.
    #[allow(clippy::too_many_arguments)]
    pub fn fill_grid_detailed(
        &self,
        kernel: GridKernel,
        tables: &NoiseTables,
        spec: &GridSpec,
        detail: Detail,
        values: &mut [f32],
        gradients: Option<&mut [[f32; 2]]>,
        creases: Option<&mut [f32]>,
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
        if let Some(c) = &creases {
            check("creases", c.len())?;
        }
        let isa = Isa::detect(kernel).ok_or(GridError::KernelUnavailable(kernel))?;
        if spec.is_empty() {
            return Ok(());
        }
        let out = Out {
            values,
            gradients,
            creases,
        };
        SCRATCH.with(|primary| match primary.try_borrow_mut() {
            Ok(mut scratch) => self.fill_in(&mut scratch, isa, tables, spec, detail, out),
            Err(_) => with_thread_scratch(&NESTED, |scratch| {
                self.fill_in(scratch, isa, tables, spec, detail, out)
            }),
        });
        Ok(())
    }

    /// Whether grids `a` and `b`, each filled under its detail, give the same bits wherever
    /// they share a sample position (the same `f64`): their details weigh every noise and
    /// erosion octave alike, and their steps leave out the same erosion octaves (see
    /// [`EROSION_CELLS_PER_STEP`]). A sample's arithmetic depends on nothing else of its grid,
    /// so one holding grid `a` can read `b`'s shared samples from it instead of filling them:
    /// a chunk's parent samples where both levels show every octave whole, say.
    pub fn fills_alike(
        &self,
        tables: &NoiseTables,
        a: (&GridSpec, Detail),
        b: (&GridSpec, Detail),
    ) -> bool {
        self.detailed_octaves(a.1).eq(self.detailed_octaves(b.1))
            && self.grid_erosion(tables, a.0, a.1) == self.grid_erosion(tables, b.0, b.1)
    }

    /// The erosion a fill of `spec` under `detail` applies: the plan less the octaves whose
    /// cells are too small for the grid's step.
    fn grid_erosion(
        &self,
        tables: &NoiseTables,
        spec: &GridSpec,
        detail: Detail,
    ) -> Option<ErosionPlan> {
        let step = spec.step[0].abs().max(spec.step[1].abs());
        self.erosion.as_ref().map(|e| {
            let mut plan = e.plan(tables, self, detail);
            plan.keep(|o| f64::from(o.cell * EROSION_CELLS_PER_STEP >= step));
            plan
        })
    }

    fn fill_in(
        &self,
        scratch: &mut Scratch,
        isa: Isa,
        tables: &NoiseTables,
        spec: &GridSpec,
        detail: Detail,
        mut out: Out,
    ) {
        let lanes = isa.lanes();
        let [width, height] = spec.size;
        let padded = padded_width(width, lanes);
        let erosion = self.grid_erosion(tables, spec, detail);
        let slopes = out.gradients.is_some() || erosion.is_some();
        let Scratch {
            xs,
            ys,
            octaves,
            warp,
            erosion: erosion_scratch,
            strip,
        } = scratch;
        isa.run(Positions {
            spec,
            size: [padded, height],
            xs,
            ys,
        });

        // Per-axis work of every layer, once per fill.
        let main = Route::of(self, self.warp.is_some());
        let count = self.detailed_octaves(detail).count();
        octaves.resize_with(count, Layer::default);
        for (o, layer) in self.detailed_octaves(detail).zip(octaves.iter_mut()) {
            isa.run(Prepare {
                tables,
                layer,
                route: &main,
                lanes,
                xs,
                ys,
                octave: &o,
                shift: [o.shift, o.shift],
                slopes,
            });
        }
        let warp_route = Route::of(self, false);
        if let Some(w) = self.warp {
            let octave = Octave {
                frequency: w.frequency,
                amplitude: 1.0,
                shift: 0.0,
            };
            for (layer, offset) in warp.iter_mut().zip(WARP_OFFSETS) {
                isa.run(Prepare {
                    tables,
                    layer,
                    route: &warp_route,
                    lanes,
                    xs,
                    ys,
                    octave: &octave,
                    shift: offset,
                    slopes,
                });
            }
        }
        // Whether the fill is eroded: decided once, for every strip (only positions too far
        // out for the cell arithmetic leave a grid uneroded).
        let erosion =
            erosion.filter(|plan| erosion_scratch.prepare(plan, &xs[..width], &xs[..], ys, lanes));

        let norm = self.amplitude_sum();
        let scale = (self.noise_size / norm) as f32;
        // The plain case (values only, on the band path, without contrast, warp or erosion):
        // the last octave finishes the values itself, saving a pass over the strip.
        let plain = !slopes
            && erosion.is_none()
            && self.warp.is_none()
            && self.contrast == 1.0
            && main.band.is_some()
            && count > 0;
        // A single octave keeps nothing in the strip's buffers. The grid is then one strip,
        // whose bands are whole lattice rows: each block's constants are worked out once per
        // lattice row. Only a large grid whose rows crowd a few cache sets (see
        // `crowds_cache_sets`) keeps short strips, so that a walk down a block's column
        // stores to few rows at a time.
        let unstripped = plain && count == 1;
        // Not after several octaves where the caller's rows are a multiple of 1 KiB apart: the
        // last one's walk down a block's column would crowd a few cache sets (see
        // `padded_width`), which costs more than the pass.
        let finished_by_last = plain && (unstripped || !width.is_multiple_of(256));
        let samples = if plain && !unstripped {
            PLAIN_STRIP_SAMPLES
        } else {
            STRIP_SAMPLES
        };
        let one_strip =
            unstripped && (padded * height <= PLAIN_STRIP_SAMPLES || !crowds_cache_sets(width));
        let strip_rows = if one_strip {
            height
        } else {
            strip_rows(padded, height, samples)
        };
        // Band layers fill fresh sums (when there is a layer); point layers add to zeroed ones.
        let fresh = [main.band.is_some() && count > 0, warp_route.band.is_some()];
        for first in (0..height).step_by(strip_rows) {
            let rows = first..(first + strip_rows).min(height);
            let len = if unstripped { 0 } else { rows.len() * padded };
            let mut strip = strip.strip(len, slopes, self.warp.is_some(), fresh);
            let [value, dx, dy] = &mut strip.sums;
            // The warp field of the strip.
            if let Some(w) = self.warp {
                for (k, layer) in warp.iter_mut().enumerate() {
                    let [qv, qx, qy] = &mut strip.warp[k];
                    let sums = Sums {
                        value: qv,
                        dx: qx,
                        dy: qy,
                        width: padded,
                        rows: rows.clone(),
                        fresh: fresh[1],
                    };
                    run_layer(
                        isa,
                        tables,
                        &warp_route,
                        layer,
                        crate::FractalMode::Standard,
                        sums,
                        None,
                        None,
                    );
                }
                let [qx, qy] = &strip.warp;
                let [j00, j01, j10, j11] = &mut strip.jacobian;
                let [ddx, ddy] = &mut strip.displacement;
                isa.run(WarpField {
                    amplitude: w.amplitude as f32,
                    q: [[qx[0], qx[1], qx[2]], [qy[0], qy[1], qy[2]]],
                    displacement: [ddx, ddy],
                    jacobian: [j00, j01, j10, j11],
                });
            }
            // The octaves.
            let displacement = self
                .warp
                .map(|_| Displacement::new(strip.displacement[0], strip.displacement[1]));
            let caller_rows = rows.start * width..rows.end * width;
            for (k, layer) in octaves.iter_mut().enumerate() {
                let sums = Sums {
                    value,
                    dx,
                    dy,
                    width: padded,
                    rows: rows.clone(),
                    fresh: fresh[0] && k == 0,
                };
                let finish = (finished_by_last && k + 1 == count).then(|| {
                    let to = Unpadded {
                        rows: &mut out.values[caller_rows.clone()],
                        width,
                        padded,
                    };
                    (scale, to)
                });
                run_layer(
                    isa,
                    tables,
                    &main,
                    layer,
                    self.mode,
                    sums,
                    displacement,
                    finish,
                );
            }
            let [ov, ox, oy] = &mut strip.out;
            let jacobian = &strip.jacobian;
            // Without erosion, the values need nothing after `Finish`: it writes them in place.
            let values = erosion.is_none().then(|| Unpadded {
                rows: &mut out.values[caller_rows],
                width,
                padded,
            });
            let direct = values.is_some();
            if !finished_by_last {
                isa.run(Finish {
                    inverse_norm: (1.0 / norm) as f32,
                    scale,
                    contrast: self.contrast as f32,
                    noise_size: self.noise_size as f32,
                    sums: [&value[..], &dx[..], &dy[..]],
                    jacobian: (self.warp.is_some() && slopes).then(|| {
                        [
                            &jacobian[0][..],
                            &jacobian[1][..],
                            &jacobian[2][..],
                            &jacobian[3][..],
                        ]
                    }),
                    out: [&mut ov[..], &mut ox[..], &mut oy[..]],
                    values,
                });
            }
            let eroded = erosion.is_some();
            if let Some(plan) = &erosion {
                erosion_scratch.windows_for(isa, tables, plan, rows.clone());
                isa.run(ErosionPass {
                    plan,
                    scratch: erosion_scratch,
                    width: padded,
                    strip: rows.clone(),
                    samples: [&mut ov[..], &mut ox[..], &mut oy[..]],
                    creases: strip.creases,
                });
            }
            copy_out(
                &strip.out,
                strip.creases,
                Copied {
                    values: !direct,
                    eroded,
                },
                rows,
                width,
                padded,
                &mut out,
            );
        }
    }
}

/// The sample positions along both axes ([`GridSpec::positions`]) for `size` samples. A kernel
/// only so that the pass compiles with the CPU's instructions (four `f64` lanes with AVX2); it
/// gives the same bits on every kernel.
struct Positions<'a> {
    spec: &'a GridSpec,
    size: [usize; 2],
    xs: &'a mut Vec<f64>,
    ys: &'a mut Vec<f64>,
}

impl Kernel for Positions<'_> {
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(self, _: S) {
        for (axis, out) in [self.xs, self.ys].into_iter().enumerate() {
            out.clear();
            self.spec.positions(axis, self.size[axis], out);
        }
    }
}

/// Per-axis work of one layer, and its band layout when it takes the band path. A kernel only so
/// that it compiles with the CPU's instructions (the floors and curves vectorise); it gives the
/// same bits on every kernel.
struct Prepare<'a> {
    tables: &'a NoiseTables,
    layer: &'a mut Layer,
    route: &'a Route,
    lanes: usize,
    xs: &'a [f64],
    ys: &'a [f64],
    octave: &'a Octave,
    shift: [f64; 2],
    /// Whether the fill sums gradients.
    slopes: bool,
}

impl Kernel for Prepare<'_> {
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(self, _: S) {
        let Prepare {
            tables,
            layer,
            route,
            lanes,
            xs,
            ys,
            octave,
            shift,
            slopes,
        } = self;
        layer.frequency = octave.frequency;
        layer.weights = Weights {
            amplitude: octave.amplitude as f32,
            amplitude_frequency: (octave.amplitude * octave.frequency) as f32,
        };
        let f = octave.frequency;
        // Only the point path hashes the cells' low bits.
        let low = route.band.is_none();
        let needs = AxisNeeds {
            simplex: route.simplex,
            low,
            slopes,
        };
        layer
            .columns
            .rebuild(xs, f, shift[0], route.column_curve, needs);
        layer.rows.rebuild(ys, f, shift[1], route.row_curve, needs);
        if route.band.is_some() {
            layer
                .layout
                .rebuild(tables, route.lattice, &layer.columns, lanes);
        } else {
            layer.column_bounds = layer.columns.bounds();
        }
        layer.band_rows.reset();
        layer.window.reset();
    }
}

/// Adds one layer over a strip to `sums`, on the band or the point path; a band layer given
/// `finish` writes the finished values to the caller's rows instead (see [`BandLayer`]).
#[allow(clippy::too_many_arguments)]
fn run_layer(
    isa: Isa,
    tables: &NoiseTables,
    route: &Route,
    layer: &mut Layer,
    mode: crate::FractalMode,
    sums: Sums,
    displacement: Option<Displacement>,
    finish: Option<(f32, Unpadded)>,
) {
    if let Some(base) = route.band {
        isa.run(BandLayer {
            tables,
            lattice: route.lattice,
            base,
            mode,
            weights: layer.weights,
            columns: &layer.columns,
            rows: &layer.rows,
            layout: &layer.layout,
            band_rows: &mut layer.band_rows,
            sums,
            finish,
        });
        return;
    }
    let bounds = lattice_bounds(route, layer, &sums.rows, displacement);
    let limit = 4 * sums.value.len() + 4096;
    let covered = bounds.is_some_and(|bounds| {
        isa.run(CoverWindow {
            window: &mut layer.window,
            tables,
            lattice: route.lattice,
            sheared: route.simplex,
            bounds,
            limit,
        })
    });
    let source = if covered {
        PointSource::Window(&layer.window)
    } else {
        PointSource::Direct(tables, route.lattice)
    };
    isa.run(PointLayer {
        base: route.point,
        mode,
        weights: layer.weights,
        frequency: layer.frequency as f32,
        columns: &layer.columns,
        rows: &layer.rows,
        source,
        displacement,
        sums,
    });
}

/// [`Window::cover`] on lanes.
struct CoverWindow<'a> {
    window: &'a mut Window,
    tables: &'a NoiseTables,
    lattice: Lattice,
    sheared: bool,
    bounds: ((i64, i64), (i64, i64)),
    limit: usize,
}

impl Kernel for CoverWindow<'_> {
    type Output = bool;

    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> bool {
        self.window.cover(
            s,
            self.tables,
            self.lattice,
            self.sheared,
            self.bounds,
            self.limit,
        )
    }
}

/// The lattice points (columns, rows) a point layer's strip touches, with margins: square
/// lattice points, or the sheared `(u, v)` of a simplex lattice (see [`Window`]). `None` when a
/// coordinate is not finite or too far out for the window's 32-bit index arithmetic.
fn lattice_bounds(
    route: &Route,
    layer: &Layer,
    rows: &Range<usize>,
    displacement: Option<Displacement>,
) -> Option<((i64, i64), (i64, i64))> {
    let f = layer.frequency;
    let (mut x_lo, mut x_hi) = layer.column_bounds;
    let (mut y_lo, mut y_hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for r in rows.clone() {
        let y = layer.rows.cell[r] as f64 + layer.rows.frac[r] as f64;
        y_lo = y_lo.min(y);
        y_hi = y_hi.max(y);
    }
    if let Some(d) = displacement {
        let [(dx_lo, dx_hi), (dy_lo, dy_hi)] = d.range;
        x_lo += dx_lo * f;
        x_hi += dx_hi * f;
        y_lo += dy_lo * f;
        y_hi += dy_hi * f;
    }
    let (columns, rows) = if route.simplex {
        // u = i − j follows x − y; v = j − ⌊3u/8⌋ follows y(1 + 2F) + u(F − 3/8), extreme at
        // the corners of the box.
        let (u_lo, u_hi) = ((x_lo - y_hi).floor() - 2.0, (x_hi - y_lo).floor() + 2.0);
        let v = |y: f64, u: f64| y * (1.0 + 2.0 * SKEW) + u * (SKEW - 0.375);
        let corners = [v(y_lo, u_lo), v(y_lo, u_hi), v(y_hi, u_lo), v(y_hi, u_hi)];
        let v_lo = corners.iter().copied().fold(f64::INFINITY, f64::min);
        let v_hi = corners.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        ((u_lo, u_hi), (v_lo.floor() - 4.0, v_hi.floor() + 4.0))
    } else {
        // Two cells of margin each side: the cubic's taps, and rounding.
        (
            (x_lo.floor() - 2.0, x_hi.floor() + 3.0),
            (y_lo.floor() - 2.0, y_hi.floor() + 3.0),
        )
    };
    let usable = [columns.0, columns.1, rows.0, rows.1]
        .iter()
        .all(|b| b.is_finite() && b.abs() < (1u64 << 28) as f64);
    usable.then_some((
        (columns.0 as i64, columns.1 as i64),
        (rows.0 as i64, rows.1 as i64),
    ))
}

impl StripBuffers {
    /// The buffers of a strip of `len` samples, each exactly as long as it is used (empty when
    /// not): the sums that are not `fresh` (the octaves', the warp noises') zeroed, the rest
    /// left to be overwritten. The vectors only grow, so fills of varying sizes (a chunk, its
    /// parent, a biome's part of it) do not zero what they are about to overwrite.
    fn strip(&mut self, len: usize, slopes: bool, warped: bool, fresh: [bool; 2]) -> Strip<'_> {
        fn sized(v: &mut Vec<f32>, on: bool, len: usize) -> &mut [f32] {
            let len = if on { len } else { 0 };
            if len == 0 {
                return &mut [];
            }
            // Room to move the start up to the next cache line.
            if v.len() < len + ALIGN_SAMPLES {
                v.resize(len + ALIGN_SAMPLES, 0.0);
            }
            let start = v.as_ptr().align_offset(64).min(ALIGN_SAMPLES);
            &mut v[start..start + len]
        }
        fn sums(v: &mut Vec<f32>, on: bool, len: usize, fresh: bool) -> &mut [f32] {
            let sums = sized(v, on, len);
            if !fresh {
                sums.fill(0.0);
            }
            sums
        }
        if len == 0 {
            // A fill that keeps nothing in a strip (one plain octave): every buffer empty.
            return Strip::empty();
        }
        let [value, dx, dy] = self.sums.each_mut();
        let warp = self.warp.each_mut().map(|[v, x, y]| {
            [
                sums(v, warped, len, fresh[1]),
                sums(x, warped && slopes, len, fresh[1]),
                sums(y, warped && slopes, len, fresh[1]),
            ]
        });
        let [out_value, out_dx, out_dy] = self.out.each_mut();
        Strip {
            sums: [
                sums(value, true, len, fresh[0]),
                sums(dx, slopes, len, fresh[0]),
                sums(dy, slopes, len, fresh[0]),
            ],
            warp,
            displacement: self.displacement.each_mut().map(|v| sized(v, warped, len)),
            jacobian: self
                .jacobian
                .each_mut()
                .map(|v| sized(v, warped && slopes, len)),
            out: [
                sized(out_value, true, len),
                sized(out_dx, slopes, len),
                sized(out_dy, slopes, len),
            ],
            creases: sized(&mut self.creases, true, len),
        }
    }
}

/// One strip's buffers (see [`StripBuffers`]), each as long as the strip uses it.
struct Strip<'a> {
    sums: [&'a mut [f32]; 3],
    warp: [[&'a mut [f32]; 3]; 2],
    displacement: [&'a mut [f32]; 2],
    jacobian: [&'a mut [f32]; 4],
    out: [&'a mut [f32]; 3],
    creases: &'a mut [f32],
}

impl Strip<'_> {
    /// A strip of no samples.
    fn empty() -> Self {
        Strip {
            sums: [&mut [], &mut [], &mut []],
            warp: [[&mut [], &mut [], &mut []], [&mut [], &mut [], &mut []]],
            displacement: [&mut [], &mut []],
            jacobian: [&mut [], &mut [], &mut [], &mut []],
            out: [&mut [], &mut [], &mut []],
            creases: &mut [],
        }
    }
}

/// What [`copy_out`] copies: the values unless `Finish` wrote them in place; the creases if
/// the strip was eroded (else they are ½).
struct Copied {
    values: bool,
    eroded: bool,
}

/// Copies a finished strip (padded width) into the caller's buffers (real width).
fn copy_out(
    finished: &[&mut [f32]; 3],
    creases: &[f32],
    copied: Copied,
    rows: Range<usize>,
    width: usize,
    padded: usize,
    out: &mut Out,
) {
    if !copied.values && out.gradients.is_none() && out.creases.is_none() {
        return;
    }
    for (k, r) in rows.enumerate() {
        let from = k * padded..k * padded + width;
        let to = r * width..(r + 1) * width;
        if copied.values {
            out.values[to.clone()].copy_from_slice(&finished[0][from.clone()]);
        }
        if let Some(g) = out.gradients.as_deref_mut() {
            for ((g, &dx), &dy) in g[to.clone()]
                .iter_mut()
                .zip(&finished[1][from.clone()])
                .zip(&finished[2][from.clone()])
            {
                *g = [dx, dy];
            }
        }
        if let Some(c) = out.creases.as_deref_mut() {
            if copied.eroded {
                c[to].copy_from_slice(&creases[from]);
            } else {
                c[to].fill(0.5);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::StripBuffers;

    /// Every buffer a strip uses starts on a cache line and is exactly as long as asked, however
    /// the strips before it sized the vectors; the unused ones are empty.
    #[test]
    fn strip_buffers_start_on_a_cache_line() {
        let mut buffers = StripBuffers::default();
        for (len, slopes, warped) in [
            (1, false, false),
            (80 * 65, true, true),
            (1008 * 65, true, true),
            (17, true, false),
            (80 * 4, false, true),
        ] {
            let strip = buffers.strip(len, slopes, warped, [false, true]);
            let all = strip
                .sums
                .iter()
                .chain(strip.warp.iter().flatten())
                .chain(&strip.displacement)
                .chain(&strip.jacobian)
                .chain(&strip.out)
                .chain([&strip.creases]);
            let mut used = 0;
            for buffer in all {
                assert!(
                    buffer.is_empty() || buffer.len() == len,
                    "{len}: {}",
                    buffer.len()
                );
                if !buffer.is_empty() {
                    used += 1;
                    assert_eq!(
                        buffer.as_ptr() as usize % 64,
                        0,
                        "a buffer of {len} samples"
                    );
                }
            }
            // The value's sums, its finished values and the creases; with slopes two more of
            // each; with a warp each noise's value and the displacement; with both, the warp's
            // slopes and the Jacobian.
            let (s, w) = (usize::from(slopes), usize::from(warped));
            let expected = 3 + 4 * s + 4 * w + 8 * s * w;
            assert_eq!(used, expected, "{len}, slopes {slopes}, warped {warped}");
        }
    }
}
