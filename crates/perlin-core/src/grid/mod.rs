//! The grid path: a whole `width × height` field of 2D fractal samples at once, for every
//! configuration an [`Fbm`](crate::Fbm) can have.
//!
//! Point sampling repeats, for every sample and octave, work that a grid shares: the lattice cell,
//! offset and blend curve of a column are the same on every row, and the lattice data (gradients
//! or values) of a lattice point serves every sample around it. The grid path does that work once
//! per column, row and lattice point (`axis.rs`, `lattice.rs`) and leaves only per-sample arithmetic,
//! which runs in SIMD lanes:
//!
//! - **Band path** (`band/`): Perlin and value noise on the grid itself, three multiply–adds per
//!   sample and octave.
//! - **Point path** (`point.rs`): domain-warped grids (irregular sample points) and simplex noise
//!   (no bands on a skewed lattice), one sample per lane.
//! - Then, per sample: warp Jacobian, normalisation, contrast and size (`finish.rs`), and the
//!   erosion filter (`erosion/`).
//!
//! Rows are processed in strips small enough to stay in cache, every layer of a strip before the
//! next strip. Each kernel is written once over SIMD lanes (the `Simd` trait of `src/simd/`) and compiled for
//! one lane (the scalar twin), AVX2 and AVX-512; they give bit-identical grids.
//!
//! The files: `fill.rs` holds the entry point ([`GridFill`], `Fbm::fill`), `steps.rs` the steps
//! of one fill, `layer.rs` the layers (an octave, or a warp noise) and how each is prepared and
//! run over a strip, `strip.rs` the strips' sizes and buffers and the per-thread scratch, and
//! `spec.rs` where the samples are.
//!
//! Sample `(i, j)` sits at `origin + (start + (i, j)) · step`, computed from the integer index,
//! never accumulated: two grids with the same origin and step whose index ranges share an edge
//! compute bit-identical values (and gradients, and creases) on it, whatever their sizes.

mod axis;
mod band;
mod erosion;
mod fill;
mod finish;
mod lattice;
mod layer;
mod maths;
mod point;
mod spec;
mod steps;
mod strip;

pub use fill::{EROSION_CELLS_PER_STEP, GridFill};
pub use spec::{GridError, GridSpec};
pub use strip::with_thread_scratch;

use crate::simd::{Real, Simd};
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
