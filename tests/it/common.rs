//! What the root package's tests share: the shipped presets, parsed as the plugin would.

use bevy_perlin_terrain::TerrainConfig;
use bevy_perlin_terrain::config::parse_config;

/// The shipped presets, in the fly example's order.
pub const PRESETS: [&str; 4] = ["default", "islands", "alps", "dunes"];

/// The shipped preset `name` (`assets/terrain/{name}.terrain.ron`).
pub fn load(name: &str) -> TerrainConfig {
    let path = format!(
        "{}/assets/terrain/{name}.terrain.ron",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse_config(&path, &bytes).unwrap_or_else(|e| panic!("{e}"))
}
