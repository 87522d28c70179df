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
//! All of the crate's `unsafe` code is in one private module (the SIMD lanes); the lint below
//! keeps it there.

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod erosion;
pub mod fade;
pub mod fbm;
mod field_error;
pub mod grid;
pub mod lattice;
pub mod perlin;
#[allow(unsafe_code)]
mod simd;
pub mod simplex;
pub mod tables;
pub mod value;

pub use erosion::Erosion;
pub use fade::Fade;
pub use fbm::{BaseNoise, Detail, DomainWarp, Fbm, FractalMode, Sample};
pub use field_error::FieldError;
pub use grid::{GridError, GridKernel, GridSpec, Vectorised, with_thread_scratch};
pub use lattice::Hashing;
pub use perlin::{Perlin, perlin1, perlin2, perlin3, perlin4};
pub use simplex::{Simplex, simplex2, simplex3, simplex4};
pub use tables::NoiseTables;
pub use value::{Interpolation, Value};

/// Everything a terrain user needs, in one `use`.
pub mod prelude {
    pub use crate::{
        BaseNoise, Detail, DomainWarp, Erosion, Fade, Fbm, FieldError, FractalMode, GridKernel,
        GridSpec, Hashing, Interpolation, NoiseTables, Perlin, Sample, Simplex, Value,
    };
}
