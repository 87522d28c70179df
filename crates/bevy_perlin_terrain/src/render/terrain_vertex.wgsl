// The terrain material's vertex shader for the main pass: Bevy's mesh vertex shader, with each
// vertex morphed towards its parent level's surface (`geomorph.wgsl`). The prepass and shadow
// maps use `terrain_prepass.wgsl`, which morphs through the same function, so every pass draws
// the same ground.

#import bevy_pbr::{
    mesh_functions,
    forward_io::VertexOutput,
    view_transformations::position_world_to_clip,
}
#ifdef TERRAIN_MORPH
#import bevy_perlin_terrain::geomorph::morphed
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
}

@vertex
fn vertex(v: Vertex) -> VertexOutput {
    var out: VertexOutput;
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
#ifdef VISIBILITY_RANGE_DITHER
    out.visibility_range_dither = mesh_functions::get_visibility_range_dither_level(
        v.instance_index, world_from_local[3]);
#endif
    return out;
}
