//! Reference outputs: Ken Perlin's ImprovedNoise, and the textbook 2D algorithms written out
//! step by step.

use perlin_core::prelude::*;

/// 2D Perlin noise with the default settings (quintic fade, permutation table).
fn perlin2(tables: &NoiseTables, x: f64, y: f64) -> f64 {
    Perlin::default().sample2(tables, x, y)
}

/// `ImprovedNoise.noise(x, y, z)` as printed by Ken Perlin's Java reference (compiled and run
/// with OpenJDK 17), as raw `f64` bits. The first three are the values quoted wherever the
/// reference is discussed: 0.13691995878400012, −0.25 and 0.14208000000000043.
#[allow(clippy::approx_constant)] // 3.14 is the reference input, not π.
const IMPROVED_NOISE: [(f64, f64, f64, i64); 9] = [
    (3.14, 42.0, 7.0, 4594101081693409077),
    (-4.2, 10.0, 6.0, 4594286991770989840),
    (0.5, 0.5, 0.5, -4625196817309499392),
    (-1.25, 2.75, -3.5, 4600886434830745600),
    (100.3, -200.7, 55.55, 4592589109211249114),
    (12345.678, -9876.543, 0.001, -4640310008486977153),
    (-0.001, -0.999, 1.999, 4487117195444224000),
    (256.5, 512.25, -768.75, 4596259354893615104),
    (7.77, 8.88, 9.99, -4628813780298326855),
];

#[test]
fn perlin3_with_reference_tables_is_improved_noise_bit_for_bit() {
    let tables = NoiseTables::reference();
    for (x, y, z, bits) in IMPROVED_NOISE {
        let ours = Perlin::default().sample3(&tables, x, y, z);
        assert_eq!(
            ours.to_bits() as i64,
            bits,
            "noise({x}, {y}, {z}) = {ours}, ImprovedNoise says {}",
            f64::from_bits(bits as u64)
        );
    }
}

#[test]
fn perlin2_is_the_textbook_algorithm() {
    // 2D Perlin noise as textbooks write it (hash P[P[x] + y], dot products with the corner
    // offsets, quintic fade, two lerps along x, one along y), against the public tables.
    let tables = NoiseTables::from_seed(2026);
    let p = tables.permutation();
    let g = tables.gradients_2d();
    let hash = |x: usize, y: usize| p[p[x] as usize + y] as usize;
    let fade = |t: f64| t * t * t * (10.0 + t * (-15.0 + t * 6.0));
    let lerp = |a: f64, b: f64, t: f64| a + t * (b - a);
    let dot = |v: [f64; 2], x: f64, y: f64| v[0] * x + v[1] * y;
    for &(x, y) in &[
        (0.3f64, 0.7f64),
        (-4.2, 9.9),
        (123.456, -654.321),
        (255.9, 0.01),
        (-0.5, -0.5),
    ] {
        let (x0, y0) = (x.floor() as i64 & 255, y.floor() as i64 & 255);
        let (x1, y1) = ((x0 + 1) & 255, (y0 + 1) & 255);
        let (rx, ry) = (x - x.floor(), y - y.floor());
        let (x0, y0, x1, y1) = (x0 as usize, y0 as usize, x1 as usize, y1 as usize);
        let a = lerp(
            dot(g[hash(x0, y0)], rx, ry),
            dot(g[hash(x1, y0)], rx - 1.0, ry),
            fade(rx),
        );
        let b = lerp(
            dot(g[hash(x0, y1)], rx, ry - 1.0),
            dot(g[hash(x1, y1)], rx - 1.0, ry - 1.0),
            fade(rx),
        );
        let expected = lerp(a, b, fade(ry));
        let ours = perlin2(&tables, x, y);
        assert!(
            (ours - expected).abs() < 1e-15,
            "({x}, {y}): {ours} vs {expected}"
        );
    }
}

#[test]
fn fbm_is_the_textbook_sum_with_contrast_and_size() {
    // The plain FBM loop (octaves, amplitude, frequency, persistence, lacunarity), then
    // |sum/max|^contrast · sign · noise size, with no octave shift.
    let tables = NoiseTables::from_seed(9);
    let fbm = Fbm {
        octaves: 5,
        frequency: 0.37,
        amplitude: 2.0,
        lacunarity: 2.1,
        persistence: 0.45,
        contrast: 2.0,
        noise_size: 3.5,
        octave_shift: 0.0,
        hashing: Hashing::Table,
        ..Fbm::default()
    };
    for &(x, y) in &[(1.5, 2.5), (-10.25, 3.125), (400.0, -77.7)] {
        let (mut value, mut max, mut amp, mut freq) = (0.0, 0.0, 2.0, 0.37);
        for _ in 0..5 {
            value += perlin2(&tables, x * freq, y * freq) * amp;
            max += amp;
            amp *= 0.45;
            freq *= 2.1;
        }
        let sign: f64 = if value < 0.0 { -1.0 } else { 1.0 };
        let expected = (value / max).abs().powf(2.0) * sign * 3.5;
        let ours = fbm.sample2(&tables, x, y);
        assert!(
            (ours - expected).abs() < 1e-12,
            "({x}, {y}): {ours} vs {expected}"
        );
    }
}

#[test]
fn perlin2_slope_at_a_lattice_point_is_its_table_gradient() {
    // With the quintic fade, the noise near corner (X, Y) is exactly g·(p − corner) to first
    // order: its analytic gradient there is the corner's gradient vector.
    let tables = NoiseTables::from_seed(77);
    let p = tables.permutation();
    for &(x, y) in &[(3i64, 5i64), (200, 17), (-1, -1), (-300, 42)] {
        let h = p[p[(x & 255) as usize] as usize + (y & 255) as usize] as usize;
        let expected = tables.gradients_2d()[h];
        let (value, grad) = Perlin::default().sample2_with_gradient(&tables, x as f64, y as f64);
        assert_eq!(value, 0.0);
        assert!((grad[0] - expected[0]).abs() < 1e-15 && (grad[1] - expected[1]).abs() < 1e-15);
    }
}
