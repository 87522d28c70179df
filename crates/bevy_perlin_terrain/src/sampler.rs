//! `TerrainSampler`: the terrain's height and normal anywhere, for placing objects, walking
//! characters and keeping cameras above ground.

use crate::config::TerrainConfig;
use crate::heights::with_thread_samples;
use bevy::math::Vec3;
use bevy::prelude::Resource;
use perlin_core::{Fbm, GridSpec, NoiseTables};
use std::sync::Arc;

/// Height and normal of the current terrain at any world position. Cheap to clone (the tables
/// are shared); updated whenever the config changes.
///
/// At a mesh vertex (world `x`, `z` equal to the vertex's, as `f64`) it returns exactly the
/// vertex's height and normal: both come from
/// [`GroundSamples::ground`](crate::heights::GroundSamples::ground) over the same position.
/// Between vertices it returns the true surface, which the mesh approximates with triangles.
#[derive(Resource, Clone, Debug)]
pub struct TerrainSampler {
    tables: Arc<NoiseTables>,
    noise: Fbm,
    height_scale: f32,
}

impl TerrainSampler {
    /// A sampler for `config`, sharing `tables` (which must be built from `config.seed`).
    pub fn new(tables: Arc<NoiseTables>, config: &TerrainConfig) -> Self {
        Self {
            tables,
            noise: config.noise,
            height_scale: config.height_scale,
        }
    }

    /// Height and unit normal at world `(x, z)`.
    pub fn height_and_normal(&self, x: f64, z: f64) -> (f32, Vec3) {
        let spec = GridSpec::new([x, z], 1.0, [1, 1]);
        with_thread_samples(|samples| {
            samples.fill(&self.tables, &self.noise, self.height_scale, &spec);
            samples.ground(0)
        })
    }

    /// Ground height in metres at world `(x, z)`.
    pub fn height(&self, x: f64, z: f64) -> f32 {
        self.height_and_normal(x, z).0
    }

    /// Unit ground normal at world `(x, z)`.
    pub fn normal(&self, x: f64, z: f64) -> Vec3 {
        self.height_and_normal(x, z).1
    }
}
