//! The grid path's entry point, [`Fbm::fill`] with a [`GridFill`] naming its outputs and
//! options, and the plain forms [`Fbm::fill_grid`] and [`Fbm::fill_grid2`]: they check the
//! buffers and the SIMD level, then run one fill (`steps.rs`) in this thread's scratch.

use super::strip::{Out, with_fill_scratch};
use super::{GridError, GridSpec};
use crate::fbm::erosion::ErosionPlan;
use crate::fbm::{Detail, Fbm};
use crate::simd::{Isa, SimdLevel};
use crate::tables::NoiseTables;

/// A grid leaves out every erosion octave whose cells are smaller than its step divided by
/// this: such gullies only alias into noise, and each sample would need tens of cells worked
/// out. Decided once per fill from the step alone (a point sample has no step, and no such
/// limit), so every strip, SIMD level and grid shape of the same step erodes alike.
pub const EROSION_CELLS_PER_STEP: f64 = 8.0;

/// The outputs and options of one grid fill, for [`Fbm::fill`]: the buffer of values, and
/// optionally those of the gradients and the crease masks, each row-major with one entry per
/// sample; the [`Detail`] the sums show (every octave whole by default); and the [`SimdLevel`]
/// the kernels run on (the widest this CPU has by default). Every level gives the same bits.
///
/// ```
/// use perlin_core::prelude::*;
///
/// let mut values = vec![0.0f32; 9 * 9];
/// let mut gradients = vec![[0.0f32; 2]; 9 * 9];
/// let fill = GridFill::new(&mut values)
///     .gradients(&mut gradients)
///     .detail(Detail::at_spacing(2.0))
///     .simd(SimdLevel::Scalar);
/// let spec = GridSpec::new([0.0, 0.0], 2.0, [9, 9]);
/// Fbm::default()
///     .fill(&NoiseTables::from_seed(1), &spec, fill)
///     .expect("both buffers hold 9 × 9 samples");
/// ```
#[derive(Debug)]
#[must_use = "a `GridFill` fills nothing until it is passed to `Fbm::fill`"]
pub struct GridFill<'a> {
    values: &'a mut [f32],
    gradients: Option<&'a mut [[f32; 2]]>,
    creases: Option<&'a mut [f32]>,
    detail: Detail,
    simd: SimdLevel,
}

impl<'a> GridFill<'a> {
    /// A fill of `values` alone (the fractal noise of each sample, as `f32`), every octave
    /// whole ([`Detail::FULL`]), on [`SimdLevel::Auto`].
    pub fn new(values: &'a mut [f32]) -> Self {
        Self {
            values,
            gradients: None,
            creases: None,
            detail: Detail::FULL,
            simd: SimdLevel::Auto,
        }
    }

    /// Also the analytic gradient `[∂/∂x, ∂/∂y]` of every sample, into `gradients`.
    pub fn gradients(mut self, gradients: &'a mut [[f32; 2]]) -> Self {
        self.gradients = Some(gradients);
        self
    }

    /// Also the crease mask of every sample, into `creases`: 0 on ridges and peaks, 1 in
    /// gullies and valley floors, ½ without [`erosion`](Fbm::erosion).
    pub fn creases(mut self, creases: &'a mut [f32]) -> Self {
        self.creases = Some(creases);
        self
    }

    /// Sums only the octaves `detail` can show (see [`Detail`]), noise and erosion octaves
    /// alike. With [`Detail::FULL`], the default, every octave counts whole.
    pub fn detail(mut self, detail: Detail) -> Self {
        self.detail = detail;
        self
    }

    /// Runs the kernels on `level`'s instructions; [`Fbm::fill`] reports
    /// [`GridError::SimdUnavailable`] where this CPU lacks them. Every level gives the same
    /// bits.
    pub fn simd(mut self, level: SimdLevel) -> Self {
        self.simd = level;
        self
    }
}

impl Fbm {
    /// Fills `values` (row-major, `size[0] · size[1]`) with the fractal noise of `spec`'s
    /// samples, as `f32`: [`Fbm::fill`] with [`GridFill::new`]`(values)`.
    pub fn fill_grid(
        &self,
        tables: &NoiseTables,
        spec: &GridSpec,
        values: &mut [f32],
    ) -> Result<(), GridError> {
        self.fill(tables, spec, GridFill::new(values))
    }

    /// The grid in its plainest form: sample `(i, j)` of the `width × height` grid (row-major)
    /// is at `(origin[0] + i·step, origin[1] + j·step)`, equal to [`Fbm::sample2`] there to
    /// about 1e−6.
    ///
    /// This form cannot report an error: if `out.len()` is not `width · height` it fills `out`
    /// with NaN instead, so a mis-sized buffer never passes for terrain (use
    /// [`Fbm::fill_grid`] to get the error instead).
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

    /// Fills a grid of `spec`'s samples: the values, and whatever else `fill` names (gradients,
    /// creases), summing the octaves its [`Detail`] can show, on its [`SimdLevel`]. Each sample
    /// equals [`Fbm::sample2_detailed`] under that detail to about 1e−6 (under
    /// [`Detail::FULL`], [`Fbm::sample2_full`]); every level gives the same bits.
    ///
    /// # Errors
    ///
    /// [`GridError::BufferLength`] if a buffer does not hold `size[0] · size[1]` samples,
    /// [`GridError::TooLarge`] if that count overflows `usize`, and
    /// [`GridError::SimdUnavailable`] if this CPU lacks the level's instructions. Nothing is
    /// written then.
    ///
    /// ```
    /// use perlin_core::prelude::*;
    ///
    /// let tables = NoiseTables::from_seed(7);
    /// let fbm = Fbm { frequency: 1.0 / 32.0, ..Fbm::default() };
    /// let spec = GridSpec::new([0.0, 0.0], 0.5, [33, 17]);
    /// let n = 33 * 17;
    /// let (mut heights, mut slopes, mut creases) = (vec![0.0; n], vec![[0.0; 2]; n], vec![0.0; n]);
    /// let detail = Detail::at_spacing(0.5);
    /// fbm.fill(
    ///     &tables,
    ///     &spec,
    ///     GridFill::new(&mut heights)
    ///         .gradients(&mut slopes)
    ///         .creases(&mut creases)
    ///         .detail(detail),
    /// )
    /// .expect("every buffer holds 33 × 17 samples");
    /// // Sample (16, 8) is at (8, 4).
    /// let point = fbm.sample2_detailed(&tables, 8.0, 4.0, detail);
    /// assert!((heights[8 * 33 + 16] as f64 - point.value).abs() < 1e-5);
    /// // Without erosion every crease is neutral.
    /// assert!(creases.iter().all(|&c| c == 0.5));
    /// ```
    pub fn fill(
        &self,
        tables: &NoiseTables,
        spec: &GridSpec,
        fill: GridFill<'_>,
    ) -> Result<(), GridError> {
        let GridFill {
            values,
            gradients,
            creases,
            detail,
            simd,
        } = fill;
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
        let isa = Isa::detect(simd).ok_or(GridError::SimdUnavailable(simd))?;
        if spec.is_empty() {
            return Ok(());
        }
        let out = Out {
            values,
            gradients,
            creases,
        };
        with_fill_scratch(|scratch| self.fill_in(scratch, isa, tables, spec, detail, out));
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
    pub(super) fn grid_erosion(
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
}
