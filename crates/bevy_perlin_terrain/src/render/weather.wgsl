// The clouds' density and the sea's waves, as `weather/` computes them on the CPU: 3D Perlin
// noise (Perlin 2002: quintic fade, the twelve cube-edge gradients) over the world seed's
// permutation, summed over the octaves whose offsets the CPU folds time into. Same sums, same
// order, in f32: `TerrainSampler::{cloud_cover, water_height, water_normal}` agree with what is
// drawn (a test runs this file as a compute shader against the sampler).
#define_import_path bevy_perlin_terrain::weather

struct Weather {
    // The seed's permutation of 0..=255, four entries a u32 (the lowest byte first).
    permutation: array<vec4<u32>, 16>,
    // Each cloud octave: lattice offset (xyz, time folded in) and cells per metre (w).
    cloud_octaves: array<vec4<f32>, 4>,
    // The cloud octaves' shares of the sum.
    cloud_amplitudes: vec4<f32>,
    // The noise at which a cloud's edge is half dense, half the softness, the cloud base's
    // height and the layer's thickness (0: no clouds).
    clouds: vec4<f32>,
    // Each wave octave: lattice offset (xyz) and cells per metre along the trains (w).
    wave_octaves: array<vec4<f32>, 3>,
    // The wave octaves' shares of the sum (xyz) and how much coarser the lattice is across the
    // trains (w).
    wave_amplitudes: vec4<f32>,
    // The unit vectors along the waves' travel (xy) and across it (zw), in (x, z).
    wave_direction: vec4<f32>,
    // Sea level, trough-to-crest height of the largest waves (0: none), how much of the crests
    // foam, and whether there is a sea (1) or not (0).
    waves: vec4<f32>,
    // The direction towards the sun (xyz), unit length, and its strength (w).
    sun: vec4<f32>,
    // What a world position adds up to a position in the terrain's space (xyz): 0 unless the
    // terrain is in a floating-origin grid (then within 65 536 m horizontally; the octaves'
    // offsets hold the rest).
    origin: vec4<f32>,
}

@group(#{MATERIAL_BIND_GROUP}) @binding(120) var<uniform> weather: Weather;

// Entry `i` (0..=255) of the permutation.
fn permute(i: u32) -> u32 {
    let word = weather.permutation[i >> 4u][(i >> 2u) & 3u];
    return (word >> ((i & 3u) * 8u)) & 255u;
}

// The gradient of hash `h`: Ken Perlin's `grad` of ImprovedNoise as a vector (one of the twelve
// cube edges, four of them twice).
fn gradient(h: u32) -> vec3<f32> {
    let k = h & 15u;
    let u = select(vec3(0.0, 1.0, 0.0), vec3(1.0, 0.0, 0.0), k < 8u);
    let v = select(
        select(vec3(0.0, 0.0, 1.0), vec3(1.0, 0.0, 0.0), k == 12u || k == 14u),
        vec3(0.0, 1.0, 0.0),
        k < 4u,
    );
    let su = select(1.0, -1.0, (k & 1u) != 0u);
    let sv = select(1.0, -1.0, (k & 2u) != 0u);
    return su * u + sv * v;
}

// 3D Perlin noise at `p` (x) and its gradient (yzw).
fn perlin3(p: vec3<f32>) -> vec4<f32> {
    let cell = floor(p);
    let f = p - cell;
    let c = vec3<u32>(vec3<i32>(cell) & vec3(255));
    let u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    let du = 30.0 * f * f * (f * (f - 2.0) + 1.0);
    var value = 0.0;
    var grad = vec3(0.0);
    for (var k = 0u; k < 8u; k++) {
        let bit = vec3(k & 1u, (k >> 1u) & 1u, (k >> 2u) & 1u);
        let lattice = (c + bit) & vec3(255u);
        let h = permute((permute((permute(lattice.x) + lattice.y) & 255u) + lattice.z) & 255u);
        let g = gradient(h);
        let one = bit == vec3(1u);
        let d = f - vec3<f32>(bit);
        let n = dot(g, d);
        let w = select(1.0 - u, u, one);
        let dw = select(-du, du, one);
        let weight = w.x * w.y * w.z;
        value += weight * n;
        grad += weight * g + n * vec3(dw.x * w.y * w.z, w.x * dw.y * w.z, w.x * w.y * dw.z);
    }
    return vec4(value, grad);
}

// The cloud noise over ground position `xz`: about -1 to 1.
fn cloud_noise(xz: vec2<f32>) -> f32 {
    var n = 0.0;
    for (var k = 0; k < 4; k++) {
        let o = weather.cloud_octaves[k];
        n += weather.cloud_amplitudes[k] * perlin3(vec3(xz * o.w + o.xy, o.z)).x;
    }
    return n;
}

// The clouds' density over `xz`: 0 clear to 1 overcast (`TerrainSampler::cloud_cover`).
fn cloud_cover(xz: vec2<f32>) -> f32 {
    if weather.clouds.w <= 0.0 {
        return 0.0;
    }
    let c = weather.clouds;
    return smoothstep(c.x - c.y, c.x + c.y, cloud_noise(xz));
}

// The waves' shape at `xz` (x, about -1 to 1) and its slope along x and z (yz, per metre).
fn wave_surface(xz: vec2<f32>) -> vec3<f32> {
    let d = weather.wave_direction;
    let a = dot(xz, d.xy);
    let b = dot(xz, d.zw);
    var n = 0.0;
    var da = 0.0;
    var db = 0.0;
    for (var k = 0; k < 3; k++) {
        let o = weather.wave_octaves[k];
        let fb = o.w * weather.wave_amplitudes.w;
        let s = perlin3(vec3(a * o.w + o.x, b * fb + o.y, o.z));
        let amplitude = weather.wave_amplitudes[k];
        n += amplitude * s.x;
        da += amplitude * s.y * o.w;
        db += amplitude * s.z * fb;
    }
    return vec3(n, da * d.x + db * d.z, da * d.y + db * d.w);
}

// The sea's height at `xz` where the shore leaves the waves `shore` of their height
// (`TerrainSampler::water_height`).
fn water_height(xz: vec2<f32>, shore: f32) -> f32 {
    let w = weather.waves;
    if w.y * shore <= 0.0 {
        return w.x;
    }
    return w.x + w.y * shore * wave_surface(xz).x;
}

// The sea's unit normal at `xz` (`TerrainSampler::water_normal`).
fn water_normal(xz: vec2<f32>, shore: f32) -> vec3<f32> {
    let k = weather.waves.y * shore;
    if k <= 0.0 {
        return vec3(0.0, 1.0, 0.0);
    }
    let slope = k * wave_surface(xz).yz;
    return normalize(vec3(-slope.x, 1.0, -slope.y));
}

// How much of the sunlight the ground keeps under full cloud: the shade takes this share.
const CLOUD_SHADE: f32 = 0.65;

// The clouds' shade at `p`: the cover where the ray from `p` towards the sun crosses the middle
// of the layer (0 without clouds, above them, or with the sun at the horizon).
fn cloud_shade(p: vec3<f32>) -> f32 {
    let sun = weather.sun.xyz;
    let middle = weather.clouds.z + 0.5 * weather.clouds.w;
    if weather.clouds.w <= 0.0 || sun.y <= 0.02 || p.y >= middle {
        return 0.0;
    }
    return cloud_cover(p.xz + sun.xz * ((middle - p.y) / sun.y));
}
