//! The presets and the config writer, in one test binary; the presets are found and parsed by
//! the workspace's harness, `terrain_test_support`.

mod presets;
mod save;
