// The terrain material's vertex shader for the main pass: Bevy's mesh vertex shader, with each
// vertex morphed towards its parent level's surface (`geomorph.wgsl`). The prepass and shadow
// maps use `terrain_prepass.wgsl`, which morphs through the same function, so every pass draws
// the same ground. Chunks of a world with biomes pass on their biome weights. The sea's
// material draws with it too (no morph), passing on its grid's water looks where biomes bring
// waters of their own; the grid of waves around the viewer moves each vertex with the waves.

#import bevy_pbr::{
    mesh_functions,
    view_transformations::position_world_to_clip,
}
#import bevy_perlin_terrain::terrain_io::TerrainVertexOutput
#ifdef TERRAIN_MORPH
#import bevy_perlin_terrain::geomorph::morphed
#endif
#ifdef WATER_WAVES
#import bevy_perlin_terrain::weather::{water_height, weather}
#endif

struct Vertex {
    @builtin(instance_index) instance_index: u32,
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
#ifdef VERTEX_UVS_A
    @location(2) uv: vec2<f32>,
#endif
#ifdef VERTEX_UVS_B
    @location(3) uv_b: vec2<f32>,
#endif
#ifdef VERTEX_COLORS
    @location(5) color: vec4<f32>,
#endif
#ifdef TERRAIN_MORPH
    @location(8) morph: vec4<f32>,
#endif
#ifdef TERRAIN_BIOMES
    @location(9) biomes: u32,
    @location(10) biome_weights: vec4<f32>,
    @location(11) biome_weights_high: vec4<f32>,
#endif
#ifdef WATER_BIOMES
    @location(12) water_shallow: vec4<f32>,
    @location(13) water_deep: vec4<f32>,
    @location(14) water_sky: vec4<f32>,
#endif
#ifdef WATER_WAVES
    @location(15) wave_share: f32,
#endif
}

@vertex
fn vertex(v: Vertex) -> TerrainVertexOutput {
    var out: TerrainVertexOutput;
    let world_from_local = mesh_functions::get_world_from_local(v.instance_index);
#ifdef TERRAIN_MORPH
    let m = morphed(v.instance_index, world_from_local, v.position, v.morph.x);
    let position = m.xyz;
    let normal = mix(v.normal, v.morph.yzw, m.w);
#else
    let position = v.position;
    let normal = v.normal;
#endif
    out.world_normal = mesh_functions::mesh_normal_local_to_world(normal, v.instance_index);
    out.world_position = mesh_functions::mesh_position_local_to_world(world_from_local, vec4<f32>(position, 1.0));
#ifdef WATER_WAVES
    // The sea's grid lies at sea level: each vertex rises and falls with the waves there.
    let at = out.world_position.xz + weather.origin.xz;
    out.world_position.y += water_height(at, v.wave_share) - weather.waves.x;
    out.wave_share = v.wave_share;
#endif
    out.position = position_world_to_clip(out.world_position.xyz);
#ifdef VERTEX_UVS_A
    out.uv = v.uv;
#endif
#ifdef VERTEX_UVS_B
    out.uv_b = v.uv_b;
#endif
#ifdef VERTEX_COLORS
    out.color = v.color;
#endif
#ifdef VERTEX_OUTPUT_INSTANCE_INDEX
    out.instance_index = v.instance_index;
#endif
#ifdef TERRAIN_BIOMES
    out.biomes = v.biomes;
    out.biome_weights = v.biome_weights;
    out.biome_weights_high = v.biome_weights_high;
#endif
#ifdef WATER_BIOMES
    out.water_shallow = v.water_shallow;
    out.water_deep = v.water_deep;
    out.water_sky = v.water_sky;
#endif
#ifdef VISIBILITY_RANGE_DITHER
    out.visibility_range_dither = mesh_functions::get_visibility_range_dither_level(
        v.instance_index, world_from_local[3]);
#endif
    return out;
}
