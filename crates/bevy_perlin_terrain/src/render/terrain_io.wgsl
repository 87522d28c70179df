// What the terrain's vertex shader hands its fragment shader: Bevy's `VertexOutput` (the same
// locations, under the same shader defs) and, on chunks of a world with biomes, the biomes of
// the chunk's weight slots and each slot's weight, interpolated across the triangles; on the
// sea's grid where biomes bring waters of their own, its water looks (as `WaterShading`); on
// the grid of waves, the share of their height the shore leaves them.
#define_import_path bevy_perlin_terrain::terrain_io

#import bevy_pbr::forward_io::VertexOutput

struct TerrainVertexOutput {
    @builtin(position) position: vec4<f32>,
    @location(0) world_position: vec4<f32>,
    @location(1) world_normal: vec3<f32>,
#ifdef VERTEX_UVS_A
    @location(2) uv: vec2<f32>,
#endif
#ifdef VERTEX_UVS_B
    @location(3) uv_b: vec2<f32>,
#endif
#ifdef VERTEX_TANGENTS
    @location(4) world_tangent: vec4<f32>,
#endif
#ifdef VERTEX_COLORS
    @location(5) color: vec4<f32>,
#endif
#ifdef VERTEX_OUTPUT_INSTANCE_INDEX
    @location(6) @interpolate(flat) instance_index: u32,
#endif
#ifdef VISIBILITY_RANGE_DITHER
    @location(7) @interpolate(flat) visibility_range_dither: i32,
#endif
#ifdef TERRAIN_BIOMES
    // The slots' biomes, four bits each (slot k in bits 4k to 4k + 3).
    @location(8) @interpolate(flat) biomes: u32,
    // The weights of slots 0–3 and 4–7.
    @location(9) biome_weights: vec4<f32>,
    @location(10) biome_weights_high: vec4<f32>,
#endif
#ifdef WATER_BIOMES
    @location(8) water_shallow: vec4<f32>,
    @location(9) water_deep: vec4<f32>,
    @location(10) water_sky: vec4<f32>,
#endif
#ifdef WATER_WAVES
    // The share of the waves' full height the shore leaves them.
    @location(11) wave_share: f32,
#endif
}

// Bevy's part, for its PBR functions.
fn bevy_output(in: TerrainVertexOutput) -> VertexOutput {
    var out: VertexOutput;
    out.position = in.position;
    out.world_position = in.world_position;
    out.world_normal = in.world_normal;
#ifdef VERTEX_UVS_A
    out.uv = in.uv;
#endif
#ifdef VERTEX_UVS_B
    out.uv_b = in.uv_b;
#endif
#ifdef VERTEX_TANGENTS
    out.world_tangent = in.world_tangent;
#endif
#ifdef VERTEX_COLORS
    out.color = in.color;
#endif
#ifdef VERTEX_OUTPUT_INSTANCE_INDEX
    out.instance_index = in.instance_index;
#endif
#ifdef VISIBILITY_RANGE_DITHER
    out.visibility_range_dither = in.visibility_range_dither;
#endif
    return out;
}
