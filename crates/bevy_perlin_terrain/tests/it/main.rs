//! The plugin's integration tests, in one binary (one link of Bevy): headless apps with
//! `MinimalPlugins`, written from a game's side.

mod common;

mod biomes;
mod chunk;
mod config;
#[cfg(feature = "big_space")]
mod floating;
mod fuzz_config;
mod horizon;
#[cfg(feature = "navigation")]
mod navigation;
mod robustness;
mod scatter;
mod stamps;
mod streaming;
mod weather;

#[cfg(feature = "render")]
mod look;
#[cfg(feature = "avian")]
mod physics;
#[cfg(feature = "render")]
mod weather_shader;
