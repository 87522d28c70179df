// The terrain material's uniform (`TerrainShading` in `terrain_material.rs`), shared by its
// vertex, prepass and fragment shaders.
#define_import_path bevy_perlin_terrain::terrain_bindings

// One look of the ground (`GroundLook`): a config's or a biome's `colors`.
struct GroundLook {
    // Per layer (0 sea bed, 1–8 bands, 9 rock, 10 snow): linear RGB, roughness.
    layers: array<vec4<f32>, 12>,
    // Per layer: albedo array layer (-1 none), normal array layer (-1 none), repeats per metre.
    textures: array<vec4<f32>, 12>,
    // Lower edge of each band, metres above sea level.
    band_edges: array<vec4<f32>, 2>,
    // Sea level, band blend, band count, edge noise height.
    heights: vec4<f32>,
    // Rock slope, rock blend, edge noise slope, 1 / edge noise size.
    slopes: vec4<f32>,
    // Snow line, its blend, snow's maximum slope, its slope blend.
    snow: vec4<f32>,
    // Snow on, crease strength, height blend, textures on.
    flags: vec4<f32>,
}

struct TerrainShading {
    // Biome i's look at i (the config's at 0 without biomes).
    looks: array<GroundLook, 16>,
    // Detail strength, 1 / detail size, fade distance.
    grain: vec4<f32>,
    // Per level of detail, two a register: the distance where a chunk of that level begins to
    // morph to its parent's surface, and 1 / the length of the morph (0 at the top level).
    morph: array<vec4<f32>, 13>,
    // The viewers the chunks were chosen for: world x and z, two a register.
    viewers: array<vec4<f32>, 2>,
    // How many of `viewers` are set.
    viewer_count: vec4<f32>,
    // Each viewer's height over the ground near it: the morph measures max(|dx|, |dz|, height).
    viewer_heights: vec4<f32>,
    // Far scatter layers, four registers each: color (linear RGB) and cover; height above sea
    // level (min, max, fade) and the layer's view distance; slope (min, max, fade) and the
    // layer's biomes (bit i for biome i, 0 for all); creases (min, max, fade) and whether the
    // layer has a crease rule (1) or not (0).
    canopy: array<vec4<f32>, 16>,
    // How many far scatter layers are set.
    canopy_count: vec4<f32>,
}

@group(#{MATERIAL_BIND_GROUP}) @binding(100) var<uniform> shading: TerrainShading;
