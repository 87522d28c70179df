//! perlin-core's integration tests, in one binary.

mod detail;
mod erosion;
mod fbm;
mod generators;
mod grid;
mod hostile;
mod reference;
