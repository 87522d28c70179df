//! Detail: a grid sums only the octaves its spacing can show, and whether (and how much) a point
//! is eroded is decided by cell size against spacing, once per fill, whatever the grid's shape,
//! strip or SIMD level.

use crate::grid::{Filled, fill_detailed as fill};
use perlin_core::prelude::*;

/// Gullies from 6 m down to 5 cm: at a step of a metre or more most of them alias.
fn finely_eroded() -> Fbm {
    Fbm {
        octaves: 5,
        frequency: 1.0 / 600.0,
        erosion: Some(Erosion {
            scale: 0.01,
            octaves: 8,
            ..Erosion::default()
        }),
        ..Fbm::default()
    }
}

/// The sample at global index `(i, j)` of grids of `step` through the origin.
fn at(f: &Filled, spec: &GridSpec, i: i64, j: i64) -> (u32, [u32; 2], u32) {
    let k = (j - spec.start[1]) as usize * spec.size[0] + (i - spec.start[0]) as usize;
    (
        f.values[k].to_bits(),
        f.gradients[k].map(f32::to_bits),
        f.creases[k].to_bits(),
    )
}

#[test]
fn the_same_point_is_eroded_alike_in_every_grid_shape_strip_and_simd_level() {
    let t = NoiseTables::from_seed(5);
    let fbm = finely_eroded();
    let levels: Vec<SimdLevel> = SimdLevel::ALL
        .iter()
        .copied()
        .filter(|k| k.is_available())
        .collect();
    for step in [0.5, 1.0, 3.0] {
        let grid = |start: [i64; 2], size: [usize; 2]| {
            GridSpec::new([0.0, 0.0], step, size).with_start(start)
        };
        // A chunk (several strips, and a last strip of one row), a wide flat grid across it, a
        // tall thin one, and single points: the sampler's shape.
        let chunk = grid([-20, 40], [65, 65]);
        let wide = grid([-300, 100], [1000, 3]);
        let tall = grid([10, -100], [2, 400]);
        for &level in &levels {
            let chunk_f = fill(&fbm, &t, &chunk, level, Detail::FULL);
            let wide_f = fill(&fbm, &t, &wide, level, Detail::FULL);
            let tall_f = fill(&fbm, &t, &tall, level, Detail::FULL);
            let reference = fill(&fbm, &t, &chunk, SimdLevel::Scalar, Detail::FULL);
            for (i, j) in [
                (-20, 40),
                (0, 100),
                (11, 101),
                (10, 104),
                (44, 104),
                (-1, 57),
            ] {
                let here = at(&chunk_f, &chunk, i, j);
                assert_eq!(
                    here,
                    at(&reference, &chunk, i, j),
                    "{level:?} step {step} ({i}, {j})"
                );
                let point = fill(&fbm, &t, &grid([i, j], [1, 1]), level, Detail::FULL);
                assert_eq!(
                    here,
                    at(&point, &grid([i, j], [1, 1]), i, j),
                    "point {level:?} {step} ({i}, {j})"
                );
                if (100..103).contains(&j) {
                    assert_eq!(
                        here,
                        at(&wide_f, &wide, i, j),
                        "wide {level:?} {step} ({i}, {j})"
                    );
                }
                if (10..12).contains(&i) {
                    assert_eq!(
                        here,
                        at(&tall_f, &tall, i, j),
                        "tall {level:?} {step} ({i}, {j})"
                    );
                }
            }
            // Every row of the chunk is eroded (its first strips too, not only the last row).
            let eroded = chunk_f
                .creases
                .chunks(65)
                .filter(|row| row.iter().any(|&c| c != 0.5))
                .count();
            assert_eq!(eroded, 65, "{level:?} step {step}");
        }
    }
}

#[test]
fn a_detailed_grid_equals_its_point_reference() {
    let t = NoiseTables::from_seed(17);
    let fbms = [
        finely_eroded(),
        Fbm {
            octaves: 8,
            frequency: 1.0 / 300.0,
            mode: FractalMode::Ridged,
            contrast: 1.3,
            ..Fbm::default()
        },
        Fbm {
            octaves: 6,
            frequency: 1.0 / 200.0,
            warp: Some(DomainWarp {
                amplitude: 30.0,
                frequency: 1.0 / 500.0,
            }),
            erosion: Some(Erosion::default()),
            ..Fbm::default()
        },
    ];
    for fbm in fbms {
        for spacing in [0.0, 1.5, 7.0, 40.0] {
            let detail = Detail::at_spacing(spacing);
            // Full detail on a grid fine enough that no erosion cell is under an eighth of its
            // step (coarser grids leave those out: `EROSION_CELLS_PER_STEP`).
            let step = if spacing > 0.0 { spacing } else { 0.005 };
            let spec = GridSpec::new([-130.0, 77.0], step, [19, 11]);
            let f = fill(&fbm, &t, &spec, SimdLevel::Auto, detail);
            for j in 0..spec.size[1] {
                for i in 0..spec.size[0] {
                    let (x, y) = (spec.position(0, i), spec.position(1, j));
                    let p = fbm.sample2_detailed(&t, x, y, detail);
                    let k = j * spec.size[0] + i;
                    assert!(
                        (f.values[k] as f64 - p.value).abs() < 1e-5,
                        "{fbm:?} at spacing {spacing} ({x}, {y}): {} vs {}",
                        f.values[k],
                        p.value
                    );
                    assert!(
                        (f.creases[k] as f64 - p.crease).abs() < 1e-3,
                        "crease at ({x}, {y})"
                    );
                }
            }
        }
    }
}

#[test]
fn detail_leaves_out_exactly_the_octaves_the_spacing_cannot_show() {
    let d = Detail::at_spacing(10.0);
    assert_eq!(d.weight(40.0), 1.0);
    assert_eq!(d.weight(30.0), 0.5);
    assert_eq!(d.weight(20.0), 0.0);
    assert_eq!(Detail::FULL.weight(1e-9), 1.0);
    let t = NoiseTables::from_seed(2);
    let fbm = Fbm {
        octaves: 7,
        frequency: 1.0 / 640.0,
        ..Fbm::default()
    };
    // Wavelengths 640, 320, ..., 10: at a spacing of 32, octaves 0..=2 are whole (at least
    // 4 spacings), octave 3 (80 m, 2.5 spacings) counts a quarter, and 4..=6 are left out.
    let weights: Vec<f64> = fbm
        .detailed_octaves(Detail::at_spacing(32.0))
        .zip(fbm.octave_list())
        .map(|(d, o)| d.amplitude / o.amplitude)
        .collect();
    assert_eq!(weights, vec![1.0, 1.0, 1.0, 0.25]);
    // Leaving out whole octaves is the shorter sum under the full normalisation.
    let four = Fbm { octaves: 4, ..fbm };
    let scale = four.amplitude_sum() / fbm.amplitude_sum();
    let spacing = 20.0; // octave 3 (80 m) whole, octave 4 (40 m) gone
    for (x, y) in [(3.0, 4.0), (-1234.5, 987.25), (1e5, -3e4)] {
        let detailed = fbm
            .sample2_detailed(&t, x, y, Detail::at_spacing(spacing))
            .value;
        assert!(
            (detailed - four.sample2(&t, x, y) * scale).abs() < 1e-12,
            "({x}, {y})"
        );
        // Whole detail is the full sum.
        assert_eq!(
            fbm.sample2_detailed(&t, x, y, Detail::FULL).value,
            fbm.sample2(&t, x, y)
        );
    }
    // A spacing beyond every wavelength leaves nothing: flat ground at 0, for grids too.
    let spec = GridSpec::new([0.0, 0.0], 5000.0, [9, 9]);
    let f = fill(&fbm, &t, &spec, SimdLevel::Auto, Detail::at_spacing(5000.0));
    assert!(f.values.iter().all(|&v| v == 0.0), "{:?}", &f.values[..4]);
    assert!(f.gradients.iter().all(|&g| g == [0.0, 0.0]));
}

#[test]
fn erosion_fades_octave_by_octave_down_to_creases_from_the_heights_alone() {
    let t = NoiseTables::from_seed(8);
    let eroded = Fbm {
        octaves: 4,
        frequency: 1.0 / 400.0,
        erosion: Some(Erosion::default()),
        ..Fbm::default()
    };
    let plain = Fbm {
        erosion: None,
        ..eroded
    };
    // Cells 48, 24, 12, 6 m: at a spacing of 30 m every erosion octave is left out, while the
    // noise octaves (400 .. 50 m) stay whole.
    let spacing = 30.0;
    let spec = GridSpec::new([100.0, -40.0], spacing, [13, 7]);
    let e = fill(
        &eroded,
        &t,
        &spec,
        SimdLevel::Auto,
        Detail::at_spacing(spacing),
    );
    let p = fill(
        &plain,
        &t,
        &spec,
        SimdLevel::Auto,
        Detail::at_spacing(spacing),
    );
    assert_eq!(e.values, p.values, "heights stay as they are");
    for (k, (&h, &c)) in p.values.iter().zip(&e.creases).enumerate() {
        let relief = (h / 0.5).clamp(-1.0, 1.0);
        assert!(
            (c - (0.5 - 0.5 * relief)).abs() < 1e-6,
            "sample {k}: {c} for height {h}"
        );
    }
    // Between full detail and none, each step of spacing changes the ground a little: no
    // octave switches off at once.
    let point = (1234.0, 567.0);
    let mut last = eroded.sample2_detailed(&t, point.0, point.1, Detail::FULL);
    for step in 1..=40 {
        let spacing = step as f64 * 0.75;
        let now = eroded.sample2_detailed(&t, point.0, point.1, Detail::at_spacing(spacing));
        assert!(
            (now.value - last.value).abs() < 0.02,
            "spacing {spacing}: {} after {}",
            now.value,
            last.value
        );
        last = now;
    }
}

#[test]
fn grids_that_fill_alike_share_the_bits_of_their_common_samples() {
    let t = NoiseTables::from_seed(12);
    // A chunk's grid a metre a step and its parent's, two metres, over the same ground.
    let grids = |step: f64| {
        let (fine, coarse) = (
            GridSpec {
                origin: [0.0, 0.0],
                step: [step, step],
                start: [-6_400, 19_200],
                size: [65, 65],
            },
            GridSpec {
                origin: [0.0, 0.0],
                step: [2.0 * step, 2.0 * step],
                start: [-3_200, 9_600],
                size: [33, 33],
            },
        );
        (fine, coarse)
    };
    let coarse_octaves = Fbm {
        octaves: 5,
        frequency: 1.0 / 600.0,
        ..Fbm::default()
    };
    let warped = Fbm {
        warp: Some(DomainWarp::default()),
        ..coarse_octaves
    };
    let eroded = Fbm {
        erosion: Some(Erosion::default()),
        ..coarse_octaves
    };
    // (noise, step of the finer grid, whether both grids fill alike)
    let cases = [
        // The finest wavelength, 37.5 m, is whole at steps up to 9.4 m: not at the 16 m of the
        // coarse grid over a fine one of 8.
        (coarse_octaves, 1.0, true),
        (warped, 2.0, true),
        (coarse_octaves, 8.0, false),
        // Gullies down to 9 m: whole at steps up to 2.25 m.
        (eroded, 1.0, true),
        (eroded, 2.0, false),
        (finely_eroded(), 1.0, false),
    ];
    for (fbm, step, alike) in cases {
        let (fine, coarse) = grids(step);
        let detail = |spec: &GridSpec| Detail::at_spacing(spec.step[0]);
        assert_eq!(
            fbm.fills_alike(&t, (&fine, detail(&fine)), (&coarse, detail(&coarse))),
            alike,
            "{fbm:?} at {step}"
        );
        let (a, b) = (
            fill(&fbm, &t, &fine, SimdLevel::Auto, detail(&fine)),
            fill(&fbm, &t, &coarse, SimdLevel::Auto, detail(&coarse)),
        );
        let shared = (0..33i64)
            .flat_map(|j| (0..33i64).map(move |i| (i, j)))
            .map(|(i, j)| {
                let (ci, cj) = (coarse.start[0] + i, coarse.start[1] + j);
                at(&a, &fine, 2 * ci, 2 * cj) == at(&b, &coarse, ci, cj)
            });
        let equal = shared.filter(|&same| same).count();
        if alike {
            assert_eq!(equal, 33 * 33, "{fbm:?} at {step}");
        } else {
            assert!(equal < 33 * 33 / 2, "{fbm:?} at {step}: {equal} equal");
        }
    }
}
