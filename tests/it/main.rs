//! The presets and the config writer, in one test binary.

mod common;
mod presets;
mod save;
