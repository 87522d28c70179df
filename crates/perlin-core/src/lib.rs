//! # perlin-core
//!
//! Seeded gradient and value noise for terrain: Perlin noise in 1–4 dimensions (Perlin 1985 and
//! 2002), simplex noise in 2–4 (Perlin 2001, Gustavson 2005), value noise in any dimension,
//! fractal Brownian motion with contrast, noise size, octave translation and domain warp, a
//! pointwise erosion filter, analytic derivatives, and a grid path that fills a whole height
//! field many times faster than point sampling, for every configuration.
//!
//! ```
//! use perlin_core::prelude::*;
//!
//! let tables = NoiseTables::from_seed(42);
//! let fbm = Fbm { octaves: 6, frequency: 1.0 / 64.0, ..Fbm::default() };
//! fbm.validate().expect("a sane configuration");
//! let h = fbm.sample2(&tables, 10.0, -3.5);
//! assert!((-1.0..=1.0).contains(&h));
//!
//! let mut heights = vec![0.0f32; 65 * 65];
//! fbm.fill_grid(&tables, &GridSpec::new([0.0, 0.0], 1.0, [65, 65]), &mut heights)
//!     .expect("the buffer holds 65 × 65 samples");
//! assert!((heights[0] as f64 - fbm.sample2(&tables, 0.0, 0.0)).abs() < 1e-5);
//! ```
//!
//! [`Fbm`] hashes lattice points with an integer hash and never visibly repeats; the point
//! generators default to Perlin's permutation table, which repeats every 256 lattice cells (see
//! [`Hashing`]).
//!
//! **Hostile input.** NaN, ±∞, ±10³⁰ and `f64::MAX` coordinates never panic or index out of
//! bounds, in debug or release: lattice coordinates are masked or hashed, float-to-int
//! conversions saturate, and the grid path fetches lattice data lane by lane when a layer would
//! touch an absurd number of lattice cells; a fill whose positions are too far out for the
//! erosion cells is left uneroded. A non-finite coordinate gives NaN.
//!
//! **The surface.** Every module is private; what a user needs is here at the root, and the
//! common part of it in [`prelude`]:
//!
//! - point generators: [`Perlin`] (1–4D), [`Simplex`] (2–4D) and [`Value`] (1–8D), sampled by
//!   `sample1` … `sample4` in the dimensions each has (value noise also by `sample_n`) and
//!   `sample2_with_gradient`, over the seeded [`NoiseTables`], hashed as [`Hashing`] says,
//!   blended by a [`Fade`] curve or an [`Interpolation`];
//! - fractal noise: an [`Fbm`] (its [`BaseNoise`], [`FractalMode`], [`DomainWarp`] and
//!   [`Erosion`] filter), sampled one point at a time ([`Fbm::sample2`], [`Fbm::sample2_full`]
//!   for a [`Sample`] with gradient and crease, [`Fbm::sample2_detailed`] under a [`Detail`]),
//!   and checked by [`Fbm::validate`] (a [`FieldError`]);
//! - the grid path: [`Fbm::fill`] with a [`GridFill`] naming the outputs (values, gradients,
//!   creases), the [`Detail`] and the [`SimdLevel`], over a [`GridSpec`], or [`GridError`];
//!   [`Fbm::fill_grid`] and [`Fbm::fill_grid2`] are its plain forms;
//! - SIMD for the caller's own loops: [`SimdLevel::vectorise`] compiles [`Vectorised`] work for
//!   the CPU's widest instructions, and [`with_thread_scratch`] keeps per-thread buffers.
//!
//! All of the crate's `unsafe` code is in one private module (the SIMD lanes); the lint below
//! keeps it there.

#![deny(unsafe_code)]
#![warn(missing_docs)]

mod fade;
mod fbm;
mod field_error;
mod grid;
mod lattice;
mod perlin;
#[allow(unsafe_code)]
mod simd;
mod simplex;
mod tables;
mod value;

pub use fade::Fade;
pub use fbm::{
    BaseNoise, Detail, DomainWarp, Erosion, Fbm, FractalMode, MAX_EROSION_OCTAVES, MAX_OCTAVES,
    Octave, Sample,
};
pub use field_error::FieldError;
pub use grid::{EROSION_CELLS_PER_STEP, GridError, GridFill, GridSpec, with_thread_scratch};
pub use lattice::Hashing;
pub use perlin::Perlin;
pub use simd::{SimdLevel, Vectorised};
pub use simplex::Simplex;
pub use tables::{GRADIENTS_3D, GRADIENTS_4D, KEN_PERLIN_PERMUTATION, NoiseTables};
pub use value::{Interpolation, MAX_DIMENSIONS, Value};

/// Everything a terrain user needs, in one `use`.
pub mod prelude {
    pub use crate::{
        BaseNoise, Detail, DomainWarp, Erosion, Fade, Fbm, FieldError, FractalMode, GridError,
        GridFill, GridSpec, Hashing, Interpolation, NoiseTables, Perlin, Sample, SimdLevel,
        Simplex, Value,
    };
}
