//! Properties of the generators: zeros, periods, continuity, ranges, interpolation.

use perlin_core::MAX_DIMENSIONS;
use perlin_core::prelude::*;

fn lcg(state: &mut u64) -> f64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (*state >> 11) as f64 / (1u64 << 53) as f64
}

#[test]
fn perlin_is_zero_on_the_lattice_in_every_dimension() {
    let t = NoiseTables::from_seed(3);
    for hashing in [Hashing::Table, Hashing::Integer] {
        let p = Perlin {
            hashing,
            ..Perlin::default()
        };
        for i in -5..5 {
            let c = i as f64 * 3.0;
            assert_eq!(p.sample1(&t, c), 0.0);
            assert_eq!(p.sample2(&t, c, -c), 0.0);
            assert_eq!(p.sample3(&t, c, 1.0, -c), 0.0);
            assert_eq!(p.sample4(&t, c, 2.0, -c, 7.0), 0.0);
        }
    }
}

#[test]
fn table_mode_repeats_every_256_cells_and_integer_mode_does_not() {
    let t = NoiseTables::from_seed(8);
    let table = Perlin::default();
    let integer = Perlin {
        hashing: Hashing::Integer,
        ..Perlin::default()
    };
    // Offsets with few mantissa bits, so x and x + 256 have the same fractional part exactly.
    for &(x, y) in &[(1.25, 2.5), (-7.75, 100.125), (30.5, -0.25)] {
        assert_eq!(
            table.sample2(&t, x, y),
            table.sample2(&t, x + 256.0, y - 512.0)
        );
        assert_eq!(
            table.sample3(&t, x, y, 0.5),
            table.sample3(&t, x + 256.0, y, 0.5 - 256.0)
        );
        assert_ne!(integer.sample2(&t, x, y), integer.sample2(&t, x + 256.0, y));
    }
}

#[test]
fn negative_coordinates_are_continuous_through_zero() {
    // A truncating floor would put -0.0001 in cell 0 and break continuity .
    let t = NoiseTables::from_seed(4);
    let e = 1e-7;
    type Generator<'a> = (&'static str, Box<dyn Fn(f64) -> f64 + 'a>);
    let gens: [Generator; 5] = [
        (
            "perlin2",
            Box::new(|x| Perlin::default().sample2(&t, x, 0.3)),
        ),
        (
            "perlin3",
            Box::new(|x| Perlin::default().sample3(&t, 0.3, x, 0.6)),
        ),
        (
            "simplex2",
            Box::new(|x| Simplex::default().sample2(&t, x, 0.3)),
        ),
        (
            "simplex4",
            Box::new(|x| Simplex::default().sample4(&t, 0.2, x, 0.4, 0.9)),
        ),
        ("value2", Box::new(|x| Value::default().sample2(&t, x, 0.3))),
    ];
    for (name, f) in &gens {
        for &c in &[0.0, -1.0, -2.0, -17.0] {
            assert!((f(c - e) - f(c + e)).abs() < 1e-5, "{name} jumps at {c}");
        }
    }
}

#[test]
fn ranges_match_the_documentation() {
    let t = NoiseTables::from_seed(12);
    let mut s = 1u64;
    let (mut p2, mut s2, mut s3, mut s4, mut v2) = (0f64, 0f64, 0f64, 0f64, 0f64);
    for _ in 0..200_000 {
        let (x, y, z, w) = (
            lcg(&mut s) * 300.0 - 150.0,
            lcg(&mut s) * 300.0,
            lcg(&mut s) * 50.0,
            lcg(&mut s) * 9.0,
        );
        p2 = p2.max(Perlin::default().sample2(&t, x, y).abs());
        s2 = s2.max(Simplex::default().sample2(&t, x, y).abs());
        s3 = s3.max(Simplex::default().sample3(&t, x, y, z).abs());
        s4 = s4.max(Simplex::default().sample4(&t, x, y, z, w).abs());
        v2 = v2.max(
            Value {
                interpolation: Interpolation::Cubic,
                ..Value::default()
            }
            .sample2(&t, x, y)
            .abs(),
        );
    }
    assert!(
        p2 <= std::f64::consts::FRAC_1_SQRT_2 && p2 > 0.5,
        "perlin2 max {p2}"
    );
    for (name, m) in [("simplex2", s2), ("simplex3", s3), ("simplex4", s4)] {
        assert!(m <= 1.0 && m > 0.85, "{name} max {m}");
    }
    // The cubic overshoots its points a little: it can leave [-1, 1] slightly.
    assert!(v2 > 0.9 && v2 < 2.0, "cubic value max {v2}");
}

#[test]
fn value_noise_passes_through_its_lattice_values() {
    let t = NoiseTables::from_seed(6);
    for hashing in [Hashing::Table, Hashing::Integer] {
        for interpolation in [
            Interpolation::Linear,
            Interpolation::Cosine,
            Interpolation::Cubic,
        ] {
            let v = Value {
                interpolation,
                hashing,
            };
            let at_1d = v.sample1(&t, 5.0);
            assert!((-1.0..=1.0).contains(&at_1d));
            // Half-way between two points, linear and cosine both give the mean.
            if interpolation != Interpolation::Cubic {
                let mid = v.sample1(&t, 5.5);
                assert!(
                    (mid - (at_1d + v.sample1(&t, 6.0)) / 2.0).abs() < 1e-12,
                    "{interpolation:?}"
                );
            }
            for dims in 1..=MAX_DIMENSIONS {
                let lattice: Vec<f64> = (0..dims).map(|i| i as f64 * 2.0 - 3.0).collect();
                let mut nudged = lattice.clone();
                nudged[dims - 1] += 1e-9;
                let a = v.sample_n(&t, &lattice).expect("dims in range");
                let b = v.sample_n(&t, &nudged).expect("dims in range");
                assert!((a - b).abs() < 1e-6, "{dims}D {interpolation:?}");
            }
        }
    }
    let v = Value::default();
    assert_eq!(v.sample_n(&t, &[]), None);
    assert_eq!(v.sample_n(&t, &[0.5; MAX_DIMENSIONS + 1]), None);
    assert_eq!(
        v.sample2(&t, 1.3, -2.7),
        v.sample_n(&t, &[1.3, -2.7]).unwrap_or(f64::NAN)
    );
}

#[test]
fn fade_curves_change_perlin_only_inside_cells() {
    let t = NoiseTables::from_seed(10);
    let quintic = Perlin::default();
    let hermite = Perlin {
        fade: Fade::Hermite,
        ..Perlin::default()
    };
    let linear = Perlin {
        fade: Fade::Linear,
        ..Perlin::default()
    };
    let (a, b, c) = (
        quintic.sample2(&t, 3.3, 4.6),
        hermite.sample2(&t, 3.3, 4.6),
        linear.sample2(&t, 3.3, 4.6),
    );
    assert!(a != b && b != c);
    // At a cell's centre all fades weigh ½ and agree.
    let centre = |p: Perlin| p.sample2(&t, 3.5, 4.5);
    assert!((centre(quintic) - centre(linear)).abs() < 1e-15);
    assert!((centre(hermite) - centre(linear)).abs() < 1e-15);
}

#[test]
fn perlin3_with_the_twelve_edges_stays_within_its_bound() {
    // With the 12 cube-edge gradients (plus 4 repeats), |noise| ≤ 1.0364 (the bound of
    // ImprovedNoise); random points get close to it but never past.
    let t = NoiseTables::from_seed(21);
    let mut s = 7u64;
    let mut most = 0f64;
    for _ in 0..300_000 {
        let (x, y, z) = (lcg(&mut s) * 64.0, lcg(&mut s) * 64.0, lcg(&mut s) * 64.0);
        most = most.max(Perlin::default().sample3(&t, x, y, z).abs());
    }
    assert!(most <= 1.0364 && most > 0.8, "perlin3 max {most}");
}

#[test]
fn quintic_perlin_is_c1_and_c2_across_cell_borders_and_zero() {
    // At a cell border the analytic gradient must not jump (C¹), and its change across the
    // border must match its change just inside either side (C²: no kink in the slope).
    let t = NoiseTables::from_seed(5);
    let p = Perlin::default();
    let slope = |x: f64, y: f64| p.sample2_with_gradient(&t, x, y).1;
    let e = 1e-6;
    for &border in &[-3.0, -1.0, 0.0, 1.0, 17.0] {
        for &y in &[0.25, 0.6, -7.3] {
            let (before, after) = (slope(border - e, y), slope(border + e, y));
            for k in 0..2 {
                assert!(
                    (before[k] - after[k]).abs() < 1e-4,
                    "gradient jumps at x = {border}, y = {y}"
                );
            }
            // Second derivative ∂²n/∂x² from either side of the border agrees.
            let h = 1e-5;
            let left = (slope(border - e, y)[0] - slope(border - e - h, y)[0]) / h;
            let right = (slope(border + e + h, y)[0] - slope(border + e, y)[0]) / h;
            assert!(
                (left - right).abs() < 1e-2,
                "curvature jumps at x = {border}, y = {y}: {left} vs {right}"
            );
        }
    }
    // The Hermite curve is only C¹: the same check finds its curvature jump, so it can fail.
    let hermite = Perlin {
        fade: Fade::Hermite,
        ..Perlin::default()
    };
    let slope = |x: f64| hermite.sample2_with_gradient(&t, x, 0.6).1[0];
    let h = 1e-5;
    let jumps = [-3.0f64, -1.0, 0.0, 1.0, 17.0].iter().any(|&b| {
        let left = (slope(b - 1e-6) - slope(b - 1e-6 - h)) / h;
        let right = (slope(b + 1e-6 + h) - slope(b + 1e-6)) / h;
        (left - right).abs() > 1e-1
    });
    assert!(jumps, "Hermite fade should show a curvature jump somewhere");
}

#[test]
fn sixty_five_thousand_seeds_give_distinct_fields() {
    // Each seed's field, fingerprinted by four samples away from the lattice.
    let mut seen = std::collections::HashSet::new();
    for seed in 0..(1u64 << 16) {
        let t = NoiseTables::from_seed(seed);
        let fingerprint = [(0.31, 0.47), (12.7, -3.2), (-100.1, 55.5), (200.9, 8.8)]
            .map(|(x, y)| Perlin::default().sample2(&t, x, y).to_bits());
        assert!(
            seen.insert(fingerprint),
            "seed {seed} repeats an earlier field"
        );
    }
}

#[test]
fn perlin3_gradient_is_the_slope_of_perlin3() {
    // The value is sample3's, and the gradient matches central differences of it, at points
    // inside cells, across cell borders and far out.
    let t = NoiseTables::from_seed(11);
    let p = Perlin::default();
    let mut s = 3u64;
    let h = 1e-6;
    for i in 0..2000 {
        let scale = if i % 10 == 0 { 1e5 } else { 40.0 };
        let (x, y, z) = (
            (lcg(&mut s) - 0.5) * scale,
            (lcg(&mut s) - 0.5) * scale,
            (lcg(&mut s) - 0.5) * scale,
        );
        let (value, grad) = p.sample3_with_gradient(&t, x, y, z);
        assert_eq!(value, p.sample3(&t, x, y, z), "value at ({x}, {y}, {z})");
        let central = [
            (p.sample3(&t, x + h, y, z) - p.sample3(&t, x - h, y, z)) / (2.0 * h),
            (p.sample3(&t, x, y + h, z) - p.sample3(&t, x, y - h, z)) / (2.0 * h),
            (p.sample3(&t, x, y, z + h) - p.sample3(&t, x, y, z - h)) / (2.0 * h),
        ];
        for a in 0..3 {
            assert!(
                (grad[a] - central[a]).abs() < 1e-4,
                "axis {a} at ({x}, {y}, {z}): {} vs {}",
                grad[a],
                central[a]
            );
        }
    }
}
