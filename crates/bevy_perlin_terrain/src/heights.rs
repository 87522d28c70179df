//! The one code path from noise to ground: heights and exact normals of a grid of world
//! positions. Chunk meshes and [`TerrainSampler`](crate::TerrainSampler) both call it, so the
//! sampler equals the mesh at every vertex, bit for bit.

use bevy::math::Vec3;
use perlin_core::{Fbm, GridSpec, NoiseTables};

/// Heights (metres) and unit normals of `spec`'s samples, row-major, `x` along the first grid
/// axis and `z` along the second.
pub fn heights_and_normals(
    tables: &NoiseTables,
    noise: &Fbm,
    height_scale: f32,
    spec: &GridSpec,
) -> (Vec<f32>, Vec<Vec3>) {
    let len = spec.len().unwrap_or(0);
    let mut heights = vec![0.0f32; len];
    let mut gradients = vec![[0.0f32; 2]; len];
    if noise
        .fill_grid_with_gradient(tables, spec, &mut heights, &mut gradients)
        .is_err()
    {
        // Only a size overflow can fail, and `len` was computed from the same spec.
        return (Vec::new(), Vec::new());
    }
    let normals = gradients
        .iter()
        .map(|&[dx, dz]| normal_from_slope(dx * height_scale, dz * height_scale))
        .collect();
    for h in &mut heights {
        *h *= height_scale;
    }
    (heights, normals)
}

/// The unit normal of a height field whose slopes are `∂h/∂x`, `∂h/∂z`.
#[inline]
pub fn normal_from_slope(dhdx: f32, dhdz: f32) -> Vec3 {
    Vec3::new(-dhdx, 1.0, -dhdz).normalize_or(Vec3::Y)
}
