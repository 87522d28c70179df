// The terrain material's fragment shader: the ground's color, roughness and shading normal
// from world position and the interpolated exact normal, then Bevy's PBR lighting, fog and
// tonemapping. The layer rules are those of `ColorRamp` (the vertex-color fallback), per pixel,
// with every boundary moved by world-space noise. In a world with biomes, each chunk vertex
// carries the weights of the biomes its ground blends: the shader evaluates the look of each
// biome that weighs in at a pixel and blends them by those weights. Under the clouds the sun's
// light is shaded (`weather.wgsl`).

#import bevy_pbr::{
    pbr_fragment::pbr_input_from_standard_material,
    forward_io::FragmentOutput,
    pbr_functions::{apply_pbr_lighting, main_pass_post_lighting_processing},
    mesh_view_bindings::view,
}
#import bevy_perlin_terrain::noise::{value_noise, fbm3}
#import bevy_perlin_terrain::terrain_bindings::shading
#import bevy_perlin_terrain::terrain_io::{TerrainVertexOutput, bevy_output}
#import bevy_perlin_terrain::geomorph::nearest_viewer
#import bevy_perlin_terrain::weather::{weather, cloud_shade, CLOUD_SHADE}

@group(#{MATERIAL_BIND_GROUP}) @binding(101) var albedo_layers: texture_2d_array<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(102) var albedo_sampler: sampler;
@group(#{MATERIAL_BIND_GROUP}) @binding(103) var normal_layers: texture_2d_array<f32>;
@group(#{MATERIAL_BIND_GROUP}) @binding(104) var normal_sampler: sampler;

const ROCK: u32 = 9u;
const SNOW: u32 = 10u;

// What one layer puts on the ground at a pixel.
struct Ground {
    albedo: vec3<f32>,
    roughness: f32,
    // Surface height for height blending, 0 to 1 (½ for an untextured layer).
    height: f32,
    // World-space tilt of the shading normal from the layer's normal map.
    tilt: vec3<f32>,
}

// Where a pixel is, for sampling textures: position, its screen-space derivatives (textures
// are sampled with explicit gradients, so sampling may sit in any branch), triplanar weights.
struct Site {
    p: vec3<f32>,
    dpdx: vec3<f32>,
    dpdy: vec3<f32>,
    weights: vec3<f32>,
    // Which of two differently placed copies of a texture shows from above (0 to 1), so that
    // neither repeats visibly.
    copy: f32,
}

// The second copy of a texture seen from above: rotated by 36°, 1 / 0.43 times as large, moved.
const COPY_TURN = mat2x2<f32>(0.809, 0.588, -0.588, 0.809);
const COPY_SCALE = 0.43;

// A linear step from 0 at `middle - width/2` to 1 at `middle + width/2` (a hard step at 0 width).
fn ramp(x: f32, middle: f32, width: f32) -> f32 {
    if width <= 0.0 {
        return select(0.0, 1.0, x >= middle);
    }
    return clamp((x - middle) / width + 0.5, 0.0, 1.0);
}

fn band_edge(look: u32, k: u32) -> f32 {
    return shading.looks[look].band_edges[k / 4u][k % 4u];
}

// Triplanar weights: mostly the top projection, the side ones only where the ground is steep
// (small weights are dropped, so flat ground samples once).
fn triplanar_weights(n: vec3<f32>) -> vec3<f32> {
    let w = max(pow(abs(n), vec3(4.0)) - vec3(0.02), vec3(0.0));
    return w / (w.x + w.y + w.z);
}

fn sample_albedo(layer: i32, uv: vec2<f32>, dx: vec2<f32>, dy: vec2<f32>) -> vec4<f32> {
    return textureSampleGrad(albedo_layers, albedo_sampler, uv, layer, dx, dy);
}

fn sample_tilt(layer: i32, uv: vec2<f32>, dx: vec2<f32>, dy: vec2<f32>) -> vec2<f32> {
    return textureSampleGrad(normal_layers, normal_sampler, uv, layer, dx, dy).xy * 2.0 - 1.0;
}

// The albedo seen from above: the two copies, blended where `copy` is between 0 and 1.
fn albedo_from_above(layer: i32, uv: vec2<f32>, dx: vec2<f32>, dy: vec2<f32>, copy: f32) -> vec4<f32> {
    var c = vec4(0.0);
    if copy < 1.0 { c += (1.0 - copy) * sample_albedo(layer, uv, dx, dy); }
    if copy > 0.0 {
        let m = COPY_SCALE * COPY_TURN;
        c += copy * sample_albedo(layer, m * uv + vec2(0.37, 0.71), m * dx, m * dy);
    }
    return c;
}

fn tilt_from_above(layer: i32, uv: vec2<f32>, dx: vec2<f32>, dy: vec2<f32>, copy: f32) -> vec2<f32> {
    var t = vec2(0.0);
    if copy < 1.0 { t += (1.0 - copy) * sample_tilt(layer, uv, dx, dy); }
    if copy > 0.0 {
        let m = COPY_SCALE * COPY_TURN;
        // The copy's tilt, turned back into the world's axes (the inverse turn).
        t += copy * transpose(COPY_TURN) * sample_tilt(layer, m * uv + vec2(0.37, 0.71), m * dx, m * dy);
    }
    return t;
}

// Layer `k` of look `look` at `site`: its flat color, times its texture when it has one.
fn layer(look: u32, k: u32, site: Site) -> Ground {
    let entry = shading.looks[look].layers[k];
    var ground = Ground(entry.rgb, entry.a, 0.5, vec3(0.0));
    let texture = shading.looks[look].textures[k];
    if shading.looks[look].flags.w == 0.0 || texture.x < 0.0 {
        return ground;
    }
    let s = texture.z;
    let w = site.weights;
    let p = site.p * s;
    let dx = site.dpdx * s;
    let dy = site.dpdy * s;
    let a = i32(texture.x);
    var color = vec4(0.0);
    if w.y > 0.0 { color += w.y * albedo_from_above(a, p.xz, dx.xz, dy.xz, site.copy); }
    if w.x > 0.0 { color += w.x * sample_albedo(a, p.zy, dx.zy, dy.zy); }
    if w.z > 0.0 { color += w.z * sample_albedo(a, p.xy, dx.xy, dy.xy); }
    ground.albedo *= color.rgb;
    ground.height = color.a;
    let n = i32(texture.y);
    if n >= 0 {
        // Each projection's normal map tilts the normal along its own image axes.
        if w.y > 0.0 { let t = tilt_from_above(n, p.xz, dx.xz, dy.xz, site.copy); ground.tilt += w.y * vec3(t.x, 0.0, t.y); }
        if w.x > 0.0 { let t = sample_tilt(n, p.zy, dx.zy, dy.zy); ground.tilt += w.x * vec3(0.0, t.y, t.x); }
        if w.z > 0.0 { let t = sample_tilt(n, p.xy, dx.xy, dy.xy); ground.tilt += w.z * vec3(t.x, t.y, 0.0); }
    }
    return ground;
}

// Value noise at `frequency` in the planes the ground faces (triplanar, like the textures): x
// the value, yzw its gradient along the ground in world space.
fn planar_noise(p: vec3<f32>, weights: vec3<f32>, frequency: f32) -> vec4<f32> {
    let q = p * frequency;
    var sum = vec4(0.0);
    if weights.y > 0.0 { let n = value_noise(q.xz); sum += weights.y * vec4(n.x, n.y, 0.0, n.z); }
    if weights.x > 0.0 { let n = value_noise(q.zy); sum += weights.x * vec4(n.x, 0.0, n.z, n.y); }
    if weights.z > 0.0 { let n = value_noise(q.xy); sum += weights.z * vec4(n.x, n.y, n.z, 0.0); }
    return sum;
}

// `a` to `b` by `t`; where both layers have height, the higher one shows first ("height
// blending" by `sharpness`: stones poke through sand before the sand fades).
fn blend(a: Ground, b: Ground, t: f32, sharpness: f32) -> Ground {
    var s = t;
    if sharpness > 0.0 && t > 0.0 && t < 1.0 {
        let depth = 0.2;
        let ha = a.height + 1.0 - t;
        let hb = b.height + t;
        let top = max(ha, hb) - depth;
        let wa = max(ha - top, 0.0);
        let wb = max(hb - top, 0.0);
        s = mix(t, wb / (wa + wb), sharpness);
    }
    return Ground(
        mix(a.albedo, b.albedo, s),
        mix(a.roughness, b.roughness, s),
        mix(a.height, b.height, s),
        mix(a.tilt, b.tilt, s),
    );
}

// A soft range's weight at `v`: 1 from `r.x` to `r.y`, falling to 0 over `r.z` beyond each end.
fn soft_range(v: f32, r: vec4<f32>) -> f32 {
    let outside = max(r.x - v, v - r.y);
    if outside <= 0.0 { return 1.0; }
    if r.z <= 0.0 { return 0.0; }
    return max(1.0 - outside / r.z, 0.0);
}

// How much of world-space noise of `frequency` (cycles per metre) a pixel `footprint` metres
// wide can show without shimmering: all of it down to four pixels a cycle, none at two.
fn resolvable(frequency: f32, footprint: f32) -> f32 {
    return 1.0 - smoothstep(0.25, 0.5, footprint * frequency);
}

// What a look puts on the ground at a pixel: its layers blended, how much of it is rock (the
// grain bumps are stronger there) and how strongly its creases show.
struct Look {
    ground: Ground,
    rock: f32,
    creases: f32,
}

// Look `l` at `site` (world position `p`, unit normal `normal`, `edges` of its boundary noise
// visible): from the sea bed up, each band over its lower edge; then rock; then snow.
fn ground_look(l: u32, site: Site, normal: vec3<f32>, edges: f32) -> Look {
    let look = &shading.looks[l];
    let p = site.p;
    // Boundaries moved by two decorrelated noises: one for heights, one for slopes (their
    // finest octave is a quarter of the edge size).
    // Where the pixel cannot show them, they are not computed (the same result: 0).
    var edge = 0.0;
    var edge2 = 0.0;
    if edges > 0.0 {
        edge = fbm3(p.xz * (*look).slopes.w).x * edges;
        edge2 = fbm3(p.zx * (*look).slopes.w * 1.7 + vec2(41.0, 7.0)).x * edges;
    }
    let above = p.y - (*look).heights.x + edge * (*look).heights.w;
    let slope = 1.0 - normal.y + edge2 * (*look).slopes.z;
    let sharpness = (*look).flags.z;

    var ground = layer(l, 0u, site);
    let bands = u32((*look).heights.z);
    for (var k = 0u; k < bands; k++) {
        let t = ramp(above - band_edge(l, k), 0.0, (*look).heights.y);
        if t > 0.0 {
            ground = blend(ground, layer(l, k + 1u, site), t, sharpness);
        }
    }
    let rock_blend = (*look).slopes.y;
    let rock = ramp(slope, (*look).slopes.x - 0.5 * rock_blend, rock_blend);
    if rock > 0.0 {
        ground = blend(ground, layer(l, ROCK, site), rock, sharpness);
    }
    if (*look).flags.x > 0.0 {
        let snow = ramp(above, (*look).snow.x, (*look).snow.y)
            * (1.0 - ramp(slope, (*look).snow.z, (*look).snow.w));
        if snow > 0.0 {
            ground = blend(ground, layer(l, SNOW, site), snow, sharpness);
        }
    }
    return Look(ground, rock, (*look).flags.y);
}

// The biomes weighing in at a pixel: each slot's biome and its share of the weight (shares
// below half a percent are dropped and the rest scaled up to sum to 1).
struct Biomes {
    ids: array<u32, 8>,
    shares: array<f32, 8>,
}

#ifdef TERRAIN_BIOMES
fn biomes_at(in: TerrainVertexOutput) -> Biomes {
    var out: Biomes;
    var total = 0.0;
    for (var k = 0u; k < 8u; k++) {
        var w = in.biome_weights[k % 4u];
        if k >= 4u { w = in.biome_weights_high[k % 4u]; }
        out.ids[k] = (in.biomes >> (4u * k)) & 15u;
        out.shares[k] = select(0.0, w, w > 0.005);
        total += out.shares[k];
    }
    for (var k = 0u; k < 8u; k++) {
        out.shares[k] = out.shares[k] / max(total, 1e-6);
    }
    return out;
}
#endif

// The share of the pixel's weight held by the biomes of `mask` (bit i for biome i; 0: all).
fn share_of(mask: u32, at: Biomes) -> f32 {
    if mask == 0u { return 1.0; }
    var biomes = at;
    var share = 0.0;
    for (var k = 0u; k < 8u; k++) {
        if ((mask >> biomes.ids[k]) & 1u) != 0u { share += biomes.shares[k]; }
    }
    return share;
}

@fragment
fn fragment(terrain: TerrainVertexOutput, @builtin(front_facing) is_front: bool) -> FragmentOutput {
    let in = bevy_output(terrain);
    var pbr_input = pbr_input_from_standard_material(in, is_front);
    // The terrain's space (the world's, but for a floating origin's offset): what the looks'
    // heights, textures and noise are laid out in.
    let world = in.world_position.xyz;
    let p = world + weather.origin.xyz;
    let normal = normalize(in.world_normal);
    let dpx = dpdx(world);
    let dpy = dpdy(world);
    // Metres a pixel covers: far ground drops the noise it cannot show instead of shimmering.
    let footprint = max(length(dpx), length(dpy));
    // Which copy of a texture shows from above: only where some look weighing in has textures.
#ifdef TERRAIN_BIOMES
    var biomes = biomes_at(terrain);
    var textured = false;
    for (var k = 0u; k < 8u; k++) {
        textured = textured || (biomes.shares[k] > 0.0 && shading.looks[biomes.ids[k]].flags.w != 0.0);
    }
#else
    let textured = shading.looks[0].flags.w != 0.0;
#endif
    var copy = 0.0;
    if textured {
        copy = smoothstep(-0.25, 0.25, fbm3(p.xz * (1.0 / 11.0) + vec2(13.1, -4.7)).x);
    }
    let site = Site(p, dpx, dpy, triplanar_weights(normal), copy);

    // Each biome's look, blended by its share (one look without biomes).
#ifdef TERRAIN_BIOMES
    var ground = Ground(vec3(0.0), 0.0, 0.0, vec3(0.0));
    var rock = 0.0;
    var crease_strength = 0.0;
    for (var k = 0u; k < 8u; k++) {
        let share = biomes.shares[k];
        if share > 0.0 {
            let l = biomes.ids[k];
            let edges = resolvable(4.0 * shading.looks[l].slopes.w * 1.7, footprint);
            let look = ground_look(l, site, normal, edges);
            ground.albedo += share * look.ground.albedo;
            ground.roughness += share * look.ground.roughness;
            ground.height += share * look.ground.height;
            ground.tilt += share * look.ground.tilt;
            rock += share * look.rock;
            crease_strength += share * look.creases;
        }
    }
#else
    let edges = resolvable(4.0 * shading.looks[0].slopes.w * 1.7, footprint);
    let look = ground_look(0u, site, normal, edges);
    let ground = look.ground;
    let rock = look.rock;
    let crease_strength = look.creases;
#endif
    let sea_level = shading.looks[0].heights.x;

    // Erosion creases (0 ridge, ½ none, 1 gully): gullies darker and wetter, ridges lighter.
    var albedo = ground.albedo;
    var roughness = ground.roughness;
#ifdef VERTEX_UVS_B
    let crease = in.uv_b.x;
#else
    let crease = 0.5;
#endif
    // Beyond a scatter layer's view distance, its color where its rules would place it: a
    // forest's canopy on far hills.
    let from_viewer = nearest_viewer(world.xz);
    for (var k = 0u; k < u32(shading.canopy_count.x); k++) {
        let look = shading.canopy[4u * k];
        let heights = shading.canopy[4u * k + 1u];
        let slopes = shading.canopy[4u * k + 2u];
        let creases = shading.canopy[4u * k + 3u];
        let far = smoothstep(0.85 * heights.w, heights.w, from_viewer);
        var cover = far * look.a * soft_range(p.y - sea_level, heights)
            * soft_range(1.0 - normal.y, slopes);
#ifdef TERRAIN_BIOMES
        cover *= share_of(u32(slopes.w), biomes);
#endif
        if creases.w > 0.0 {
            cover *= soft_range(crease, creases);
        }
        albedo = mix(albedo, look.rgb, cover);
        roughness = mix(roughness, 0.9, cover);
    }
#ifdef VERTEX_UVS_B
    let strength = crease_strength;
    let gully = smoothstep(0.55, 0.9, crease) * strength;
    let ridge = smoothstep(0.45, 0.1, crease) * strength;
    albedo *= 1.0 - 0.45 * gully;
    albedo = mix(albedo, min(albedo * 1.4 + 0.02, vec3(1.0)), ridge);
    roughness = mix(roughness, 0.45, gully);
#endif

    // The shore: wet (darker, glossier) ground just above and below the waterline.
    let wet = 1.0 - smoothstep(0.0, 1.5, abs(p.y - sea_level) - 0.3);
    albedo *= 1.0 - 0.3 * wet;
    roughness = mix(roughness, 0.3, wet);

    // Grain: octaves of bumps from `grain size` down, each fading out before its
    // cells shrink below a few pixels, all fading out with distance; and broad variation that
    // does not fade, so that no patch repeats at any distance.
    let grain = shading.grain;
    let fade = (1.0 - smoothstep(0.5 * grain.z, grain.z, length(view.world_position - world)))
        * grain.x;
    var frequency = grain.y;
    var fine = vec4(0.0);
    for (var octave = 0; octave < 4; octave++) {
        let visible = 1.0 - smoothstep(0.15, 0.4, footprint * frequency);
        if visible * fade > 0.0 {
            let offset = vec3(f32(octave) * 19.7);
            fine += visible * planar_noise(p + offset, site.weights, frequency);
        }
        frequency *= 2.6;
    }
    // Each noise only where the pixel can show it (elsewhere its factor is 0).
    var broad = 0.0;
    let broad_shows = resolvable(4.0 / 23.0, footprint);
    if broad_shows > 0.0 {
        broad = fbm3(p.xz * (1.0 / 23.0) + vec2(-3.1, 8.4)).x * broad_shows;
    }
    var hue = 0.0;
    let hue_shows = resolvable(4.0 / 9.0, footprint);
    if grain.x != 0.0 && hue_shows > 0.0 {
        hue = fbm3(p.zx * (1.0 / 9.0) + vec2(6.7, -2.2)).x * grain.x * hue_shows;
    }
    albedo *= (1.0 + 0.3 * (0.6 * fade * fine.x + grain.x * broad))
        * vec3(1.0 + 0.25 * hue, 1.0 + 0.05 * hue, 1.0 - 0.3 * hue);

    // The shading normal: the mesh's, tilted by the layers' normal maps and the grain bumps
    // (twice as strong on rock).
    let bumps = fine.yzw * 0.22 * fade * mix(1.0, 2.0, rock);
    let tilt = ground.tilt - bumps;
    pbr_input.N = normalize(normal + tilt - dot(tilt, normal) * normal);

    pbr_input.material.base_color = vec4(clamp(albedo, vec3(0.0), vec3(1.0)), 1.0);
    pbr_input.material.perceptual_roughness = clamp(roughness, 0.089, 1.0);
    pbr_input.material.metallic = 0.0;

    var out: FragmentOutput;
    out.color = apply_pbr_lighting(pbr_input);
    out.color = vec4(out.color.rgb * (1.0 - CLOUD_SHADE * cloud_shade(p)), out.color.a);
    out.color = main_pass_post_lighting_processing(pbr_input, out.color);
    return out;
}
