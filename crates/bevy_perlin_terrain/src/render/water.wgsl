// The water material's fragment shader: color and transparency by the depth of water over the
// ground (read from the depth prepass), the waves' exact normal (`weather.wgsl`) with small
// ripples on it, Fresnel reflection of the sky, foam along the shore and on the crests; then Bevy's PBR lighting, fog and tonemapping. Where biomes bring waters of
// their own, the look comes from the vertices (each biome's, blended) instead of the uniform.

#import bevy_pbr::{
    pbr_fragment::pbr_input_from_standard_material,
    forward_io::FragmentOutput,
    pbr_functions::{apply_pbr_lighting, main_pass_post_lighting_processing},
    mesh_view_bindings::{view, globals},
    view_transformations::{frag_coord_to_ndc, position_ndc_to_world},
}
#ifdef DEPTH_PREPASS
#import bevy_pbr::prepass_utils::prepass_depth
#endif
#import bevy_perlin_terrain::noise::{value_noise, fbm3}
#import bevy_perlin_terrain::weather::{weather, wave_surface, cloud_shade, CLOUD_SHADE}
#import bevy_perlin_terrain::terrain_io::{TerrainVertexOutput, bevy_output}

struct WaterShading {
    // Shallow color, depth that looks deep (m).
    shallow: vec4<f32>,
    // Deep color, foam width (m of depth).
    deep: vec4<f32>,
    // Reflected sky color, ripple strength.
    sky: vec4<f32>,
    // The grid of waves around the viewer: its centre (xy) and half its side (z, 0 without
    // one), and the depth under which waves are full height (w).
    waves_area: vec4<f32>,
}

@group(#{MATERIAL_BIND_GROUP}) @binding(100) var<uniform> water: WaterShading;

@fragment
fn fragment(sea: TerrainVertexOutput, @builtin(front_facing) is_front: bool) -> FragmentOutput {
    let in = bevy_output(sea);
    var pbr_input = pbr_input_from_standard_material(in, is_front);
#ifdef WATER_BIOMES
    let shading = WaterShading(sea.water_shallow, sea.water_deep, sea.water_sky, water.waves_area);
#else
    let shading = water;
#endif
    let p = in.world_position.xyz;
    // The terrain's space, where the waves, ripples and clouds are laid out (the world's, but
    // for a floating origin's offset).
    let q = p + weather.origin.xyz;
    let t = globals.time;

    // Metres of water between the surface and the ground behind it, along the vertical.
    var depth = shading.shallow.w;
#ifdef DEPTH_PREPASS
    let d = prepass_depth(in.position, 0u);
    if d > 0.0 {
        let ground = position_ndc_to_world(frag_coord_to_ndc(vec4(in.position.xy, d, 1.0)));
        depth = max(p.y - ground.y, 0.0);
    } else {
        depth = 1.0e4; // nothing behind: open sea
    }
#endif

    // Ripples: two noise layers drifting across each other, as a tilt of the normal that fades
    // with distance (far water is a smooth mirror, without shimmer).
    let distance = length(view.world_position - p);
    let calm = 1.0 - smoothstep(60.0, 400.0, distance);
    let w1 = value_noise(q.xz * 0.45 + vec2(0.31, 0.17) * t);
    let w2 = value_noise(q.xz * 1.7 - vec2(0.23, -0.41) * t);
    let tilt = (w1.yz * 0.45 + w2.yz * 0.25) * 0.3 * shading.sky.w * calm;

    // The waves (`weather.wgsl`, as `TerrainSampler::water_normal`): on the grid around the
    // viewer at the share of their height its vertices carry; past it, where the grid draws
    // the sea, this surface draws nothing, and farther out the waves live in the normal only,
    // fading with distance, at the share the water's depth gives them.
    var share = 0.0;
#ifdef WATER_WAVES
    share = sea.wave_share;
#else
    let area = shading.waves_area;
    let inside = abs(p.xz - area.xy);
    if area.z > 0.0 && max(inside.x, inside.y) < area.z {
        discard;
    }
    if weather.waves.y > 0.0 {
        share = smoothstep(0.25, 0.25 + area.w, depth) * (1.0 - smoothstep(1500.0, 5000.0, distance));
    }
#endif
    var n = normalize(vec3(-tilt.x, 1.0, -tilt.y));
    var crest = 0.0;
    if share > 0.0 {
        let surface = wave_surface(q.xz);
        let slope = weather.waves.y * share * surface.yz;
        n = normalize(vec3(-slope.x - tilt.x, 1.0, -slope.y - tilt.y));
        // Foam where a crest stands high: more of them the more `waves.foam` says.
        let foam_from = 0.45 - 0.3 * weather.waves.z;
        crest = smoothstep(foam_from, foam_from + 0.2, surface.x) * share * weather.waves.z;
    }

    // Color and opacity by depth; a soft edge where the water thins to nothing.
    let deep = shading.shallow.w;
    let k = clamp(depth / deep, 0.0, 1.0);
    var color = mix(shading.shallow.rgb, shading.deep.rgb, sqrt(k));
    var alpha = mix(0.35, 0.97, k) * smoothstep(0.0, 0.25, depth);

    // Foam: a broken band along the shore.
    let foam_width = shading.deep.w;
    var foam = 0.0;
    if foam_width > 0.0 {
        let broken = fbm3(q.xz * 0.8 + vec2(0.2, 0.1) * t).x;
        foam = (1.0 - smoothstep(0.0, foam_width, depth + 0.3 * foam_width * broken))
            * smoothstep(0.0, 0.05, depth);
    }
    if crest > 0.0 {
        let broken = 0.5 + 0.5 * fbm3(q.xz * 0.35 + vec2(0.1, -0.2) * t).x;
        foam = max(foam, crest * broken);
    }
    if foam > 0.0 {
        color = mix(color, vec3(0.85, 0.9, 0.92), foam);
        alpha = max(alpha, 0.9 * foam);
    }

    // Fresnel (Schlick, F0 0.02): grazing views reflect the sky and see less of the water.
    let v = normalize(view.world_position - p);
    let fresnel = 0.02 + 0.98 * pow(1.0 - clamp(dot(n, v), 0.0, 1.0), 5.0);
    alpha = mix(alpha, 1.0, fresnel * smoothstep(0.0, 0.25, depth));

    pbr_input.N = n;
    pbr_input.material.base_color = vec4(color, alpha);
    pbr_input.material.perceptual_roughness = mix(0.06, 0.7, foam);
    pbr_input.material.metallic = 0.0;
    // The sky, as light leaving the surface (not scaled by the camera's exposure).
    pbr_input.material.emissive = vec4(shading.sky.rgb * fresnel * (1.0 - foam), 0.0);

    var out: FragmentOutput;
    out.color = apply_pbr_lighting(pbr_input);
    out.color = vec4(out.color.rgb * (1.0 - CLOUD_SHADE * cloud_shade(q)), out.color.a);
    out.color = main_pass_post_lighting_processing(pbr_input, out.color);
    return out;
}
