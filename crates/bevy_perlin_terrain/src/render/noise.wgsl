// Cheap world-space noise for the terrain and water shaders: quintic value noise on an integer
// lattice, with its analytic derivative (Inigo Quilez's formulation). Not the terrain's noise:
// only for edges, detail and waves, where a hash per lattice corner is all that is needed.
#define_import_path bevy_perlin_terrain::noise

// A hash of a lattice point to [0, 1).
fn hash2(p: vec2<i32>) -> f32 {
    var h = bitcast<u32>(p.x) * 0x8da6b343u ^ bitcast<u32>(p.y) * 0xd8163841u;
    h = (h ^ (h >> 16u)) * 0x7feb352du;
    h = (h ^ (h >> 15u)) * 0x846ca68bu;
    h = h ^ (h >> 16u);
    return f32(h >> 8u) * (1.0 / 16777216.0);
}

// Value noise at `p` in [-1, 1]: x is the value, yz its derivative along p.x and p.y.
fn value_noise(p: vec2<f32>) -> vec3<f32> {
    let cell = floor(p);
    let f = p - cell;
    let u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
    let du = 30.0 * f * f * (f * (f - 2.0) + 1.0);
    let c = vec2<i32>(cell);
    let a = hash2(c);
    let b = hash2(c + vec2(1, 0));
    let d = hash2(c + vec2(0, 1));
    let e = hash2(c + vec2(1, 1));
    let k1 = b - a;
    let k2 = d - a;
    let k3 = a - b - d + e;
    let value = a + k1 * u.x + k2 * u.y + k3 * u.x * u.y;
    let slope = du * vec2(k1 + k3 * u.y, k2 + k3 * u.x);
    return vec3(2.0 * value - 1.0, 2.0 * slope);
}

// Three octaves of value noise at `p` (lacunarity 2.03, gain ½, each octave rotated), about
// [-1, 1], with its derivative.
fn fbm3(p: vec2<f32>) -> vec3<f32> {
    // A rotation by about 37° and a scale of 2.03 between octaves hides the lattice.
    let m = mat2x2<f32>(1.62, 1.22, -1.22, 1.62);
    var q = p;
    var sum = vec3(0.0);
    var amplitude = 0.5;
    var jacobian = mat2x2<f32>(1.0, 0.0, 0.0, 1.0);
    for (var i = 0; i < 3; i++) {
        let n = value_noise(q);
        sum += amplitude * vec3(n.x, transpose(jacobian) * n.yz);
        q = m * q + vec2(17.3, -9.1);
        jacobian = m * jacobian;
        amplitude *= 0.5;
    }
    return sum / 0.875;
}
