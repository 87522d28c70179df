// The scatter's fragment shader: Bevy's standard PBR shading of the layer's own material, its lit
// color darkened by the clouds' shade as the ground's is (`weather.wgsl`'s `cloud_shade`), so a
// tree under a cloud is as dark as the meadow it stands on.

#import bevy_pbr::{
    pbr_fragment::pbr_input_from_standard_material,
    pbr_functions::{alpha_discard, apply_pbr_lighting, main_pass_post_lighting_processing},
    pbr_types::STANDARD_MATERIAL_FLAGS_UNLIT_BIT,
    forward_io::{FragmentOutput, VertexOutput},
}
#import bevy_perlin_terrain::weather::{weather, cloud_shade, CLOUD_SHADE}

@fragment
fn fragment(in: VertexOutput, @builtin(front_facing) is_front: bool) -> FragmentOutput {
    var pbr_input = pbr_input_from_standard_material(in, is_front);
    pbr_input.material.base_color = alpha_discard(pbr_input.material, pbr_input.material.base_color);
    var out: FragmentOutput;
    if (pbr_input.material.flags & STANDARD_MATERIAL_FLAGS_UNLIT_BIT) == 0u {
        out.color = apply_pbr_lighting(pbr_input);
        // In the terrain's space, where the clouds are.
        let p = in.world_position.xyz + weather.origin.xyz;
        out.color = vec4(out.color.rgb * (1.0 - CLOUD_SHADE * cloud_shade(p)), out.color.a);
    } else {
        // Unlit: its own color, no sunlight for the clouds to take.
        out.color = pbr_input.material.base_color;
    }
    out.color = main_pass_post_lighting_processing(pbr_input, out.color);
    return out;
}
