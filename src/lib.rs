//! The root package of the workspace: it carries the `examples/` and `assets/` of `bevy_perlin_terrain`.
//! The libraries live in `crates/`.
