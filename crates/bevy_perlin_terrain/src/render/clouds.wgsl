// The cloud layer's fragment shader, on a plane through the middle of the layer that follows
// the viewer: the view ray is marched through the layer (from where it enters to where it
// leaves, or to the ground the depth prepass saw first, so peaks inside the layer hide what is
// behind them), each step's density from `weather.wgsl`'s `cloud_cover` (what
// `TerrainSampler::cloud_cover` answers) against the height in the layer: dense cover stands
// tall, thin cover stays a low wisp. Lit tops, darker bases, a haze towards the horizon, and
// thinner there to nothing.

#import bevy_pbr::{
    pbr_fragment::pbr_input_from_standard_material,
    forward_io::{FragmentOutput, VertexOutput},
    pbr_functions::main_pass_post_lighting_processing,
    mesh_view_bindings::view,
    view_transformations::{frag_coord_to_ndc, position_ndc_to_world},
}
#ifdef DEPTH_PREPASS
#import bevy_pbr::prepass_utils::prepass_depth
#endif
#import bevy_perlin_terrain::weather::{weather, cloud_cover}

struct CloudLook {
    // The color of the clouds' sunlit tops (rgb) and of the sky's haze they fade into (w
    // unused).
    lit: vec4<f32>,
    // The color of their shaded bases.
    shaded: vec4<f32>,
    // The haze color (rgb) and the distance at which the layer has thinned to nothing (w).
    haze: vec4<f32>,
}

@group(#{MATERIAL_BIND_GROUP}) @binding(130) var<uniform> look: CloudLook;

// Samples along the ray through the layer.
const STEPS: i32 = 6;
// Extinction of a fully dense cloud, per metre.
const EXTINCTION: f32 = 0.012;

@fragment
fn fragment(plane: VertexOutput, @builtin(front_facing) is_front: bool) -> FragmentOutput {
    var pbr_input = pbr_input_from_standard_material(plane, is_front);
    // In the terrain's space (the world's, but for a floating origin's offset), where the
    // layer's altitude and noise are.
    let origin = weather.origin.xyz;
    let eye = view.world_position + origin;
    let dir = normalize(plane.world_position.xyz + origin - eye);
    let base = weather.clouds.z;
    let thickness = weather.clouds.w;
    // The ray's span inside the layer.
    let safe_y = select(dir.y, 1e-6, abs(dir.y) < 1e-6);
    let t0 = (base - eye.y) / safe_y;
    let t1 = (base + thickness - eye.y) / safe_y;
    let enter = max(min(t0, t1), 0.0);
    var leave = max(t0, t1);
#ifdef DEPTH_PREPASS
    let d = prepass_depth(plane.position, 0u);
    if d > 0.0 {
        let ground = position_ndc_to_world(frag_coord_to_ndc(vec4(plane.position.xy, d, 1.0)));
        leave = min(leave, length(ground + origin - eye));
    }
#endif
    let fade = 1.0 - smoothstep(0.1 * look.haze.w, 0.8 * look.haze.w, enter);
    if leave <= enter || fade <= 0.0 || thickness <= 0.0 {
        discard;
    }
    let step = (leave - enter) / f32(STEPS);
    // Each pixel's samples shifted by its own fraction of a step (interleaved gradient noise,
    // Jimenez 2014), so the steps show as fine grain instead of bands.
    let jitter = fract(52.9829189 * fract(dot(plane.position.xy, vec2(0.06711056, 0.00583715))));
    var transmit = 1.0;
    var light = vec3(0.0);
    let sun = weather.sun.xyz;
    for (var i = 0; i < STEPS; i++) {
        let q = eye + dir * (enter + (f32(i) + jitter) * step);
        let h = clamp((q.y - base) / thickness, 0.0, 1.0);
        let cover = cloud_cover(q.xz);
        // Cover above the height's share of the layer is cloud: tall where the cover is dense.
        let density = smoothstep(h, h + 0.2, cover) * smoothstep(0.0, 0.08, h + 0.02);
        if density > 0.0 {
            let absorbed = 1.0 - exp(-EXTINCTION * density * step);
            // Lit from above by the sun, darker at the base and where the cover is deep.
            let lit = mix(look.shaded.rgb, look.lit.rgb, clamp(h + 0.35 * (1.0 - cover) + 0.2 * sun.y, 0.0, 1.0));
            light += transmit * absorbed * lit;
            transmit *= 1.0 - absorbed;
        }
    }
    let alpha = (1.0 - transmit) * fade;
    if alpha <= 0.002 {
        discard;
    }
    // Far clouds take on the haze of the sky between.
    let hazy = smoothstep(0.0, look.haze.w, enter);
    let color = mix(light / max(1.0 - transmit, 1e-4), look.haze.rgb, 0.75 * hazy);
    var out: FragmentOutput;
    out.color = main_pass_post_lighting_processing(pbr_input, vec4(color, alpha));
    return out;
}
