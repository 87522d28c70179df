//! # perlin-core
//!
//! Seeded gradient and value noise for terrain, after four seed documents on Perlin noise:
//! Perlin noise in 1–4 dimensions, simplex noise in 2–4, value noise in any dimension, fractal
//! Brownian motion with contrast, noise size and octave translation, analytic derivatives, and a
//! grid path that fills a whole height field many times faster than point sampling.
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
//! fbm.fill_grid(&tables, &GridSpec::new([0.0, 0.0], 1.0, [65, 65]), &mut heights);
//! ```
//!
//! Table mode (the default) repeats every 256 lattice cells per axis: see [`Hashing`].

pub mod fade;
pub mod fbm;
pub mod grid;
pub mod lattice;
pub mod perlin;
pub mod simplex;
pub mod tables;
pub mod value;

pub use fade::Fade;
pub use fbm::{BaseNoise, DomainWarp, Fbm, FbmError, FractalMode};
pub use grid::GridSpec;
pub use lattice::Hashing;
pub use perlin::{Perlin, perlin1, perlin2, perlin3, perlin4};
pub use simplex::{Simplex, simplex2, simplex3, simplex4};
pub use tables::NoiseTables;
pub use value::{Interpolation, Value};

/// Everything a terrain user needs, in one `use`.
pub mod prelude {
    pub use crate::{
        BaseNoise, DomainWarp, Fade, Fbm, FbmError, FractalMode, GridSpec, Hashing, Interpolation,
        NoiseTables, Perlin, Simplex, Value,
    };
}
