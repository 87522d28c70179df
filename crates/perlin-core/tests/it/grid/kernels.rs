//! Every SIMD level the CPU has gives the same bits, for grids and for plain vectorised work;
//! the entry points, their errors, and the golden hashes of seeded grids.

use super::{bits, configs, fill, gradient_bits, specs};
use perlin_core::Vectorised;
use perlin_core::prelude::*;

#[test]
fn every_simd_level_the_cpu_has_gives_bit_identical_grids() {
    let t = NoiseTables::from_seed(99);
    let (ran, skipped): (Vec<SimdLevel>, Vec<SimdLevel>) =
        SimdLevel::ALL.iter().partition(|k| k.is_available());
    eprintln!("levels compared: {ran:?}; skipped (not on this CPU): {skipped:?}");
    assert!(ran.contains(&SimdLevel::Scalar));
    // A level is skipped only where the CPU lacks its instructions, and `Auto` runs the widest.
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        let avx2 = has!("avx2") && has!("fma");
        assert_eq!(SimdLevel::Avx2.is_available(), avx2);
        assert_eq!(SimdLevel::Avx512.is_available(), avx2 && has!("avx512f"));
    }
    let widest = ran.iter().filter_map(|k| k.lanes()).max();
    assert_eq!(SimdLevel::Auto.lanes(), widest);
    for fbm in configs() {
        for spec in specs() {
            let reference = fill(&fbm, &t, &spec, SimdLevel::Scalar);
            for &level in ran.iter().chain([&SimdLevel::Auto]) {
                let f = fill(&fbm, &t, &spec, level);
                let at = format!("{level:?} {fbm:?} {spec:?}");
                assert_eq!(bits(&f.values), bits(&reference.values), "values, {at}");
                assert_eq!(
                    gradient_bits(&f.gradients),
                    gradient_bits(&reference.gradients),
                    "gradients, {at}"
                );
                assert_eq!(bits(&f.creases), bits(&reference.creases), "creases, {at}");
            }
            // Asking for less computes the same values, on every level (a plain fill's last
            // octave finishes the values itself).
            for &level in ran.iter().chain([&SimdLevel::Auto]) {
                let mut only = vec![0.0; reference.values.len()];
                fbm.fill(&t, &spec, GridFill::new(&mut only).simd(level))
                    .expect("sizes match");
                let at = format!("values alone, {level:?} {fbm:?} {spec:?}");
                assert_eq!(bits(&only), bits(&reference.values), "{at}");
            }
        }
    }
}

/// Plain work for [`SimdLevel::vectorise`]: eight lanes at a time, a smoothstep blend with a
/// division, a square root, a clamp and a fused multiply-add, the last few lanes alone.
struct Blend<'a> {
    a: &'a [f32],
    b: &'a [f32],
    out: &'a mut Vec<f32>,
}

impl Blend<'_> {
    #[inline(always)]
    fn lane(a: f32, b: f32) -> f32 {
        let k = (a / (1.0 + b.abs())).clamp(0.0, 1.0);
        let w = k * k * (3.0 - 2.0 * k);
        a.mul_add(1.0 - w, b * w) + (a * a + b * b).sqrt()
    }
}

impl Vectorised for Blend<'_> {
    type Output = usize;
    #[inline(always)]
    fn run(self) -> usize {
        self.out.clear();
        let (mut a8, mut b8) = (self.a.chunks_exact(8), self.b.chunks_exact(8));
        for (a, b) in (&mut a8).zip(&mut b8) {
            let mut lanes = [0.0f32; 8];
            for (l, lane) in lanes.iter_mut().enumerate() {
                *lane = Self::lane(a[l], b[l]);
            }
            self.out.extend_from_slice(&lanes);
        }
        for (&a, &b) in a8.remainder().iter().zip(b8.remainder()) {
            self.out.push(Self::lane(a, b));
        }
        self.out.len()
    }
}

#[test]
fn vectorised_work_gives_the_plain_bits_on_every_simd_level_the_cpu_has() {
    // Values across the range: tiny, huge, negative, around the clamp's ends.
    let a: Vec<f32> = (0..1003)
        .map(|k| ((k as f32) * 0.618_034).sin() * 10f32.powi(k % 13 - 6))
        .collect();
    let b: Vec<f32> = (0..1003)
        .map(|k| ((k * 7 % 101) as f32 - 50.0) * 0.37)
        .collect();
    let mut reference = Vec::new();
    let plain = SimdLevel::Scalar.vectorise(Blend {
        a: &a,
        b: &b,
        out: &mut reference,
    });
    assert_eq!(plain.ok(), Some(a.len()));
    for level in SimdLevel::ALL.into_iter().chain([SimdLevel::Auto]) {
        let mut out = Vec::new();
        match level.vectorise(Blend {
            a: &a,
            b: &b,
            out: &mut out,
        }) {
            Ok(n) => {
                assert!(level.is_available(), "{level:?} ran");
                assert_eq!(n, a.len());
                assert_eq!(bits(&out), bits(&reference), "{level:?}");
            }
            // Handed back, not run.
            Err(work) => {
                assert!(!level.is_available(), "{level:?} did not run");
                assert!(work.out.is_empty());
            }
        }
    }
}

#[test]
fn unavailable_simd_levels_are_errors() {
    for level in SimdLevel::ALL {
        if !level.is_available() {
            let mut v = vec![0.0; 4];
            let spec = GridSpec::new([0.0, 0.0], 1.0, [2, 2]);
            assert_eq!(
                Fbm::default().fill(
                    &NoiseTables::default(),
                    &spec,
                    GridFill::new(&mut v).simd(level)
                ),
                Err(GridError::SimdUnavailable(level))
            );
        }
    }
    assert!(SimdLevel::Scalar.is_available() && SimdLevel::Auto.is_available());
}

#[test]
fn wrong_buffers_are_errors_not_panics() {
    let t = NoiseTables::from_seed(1);
    let fbm = Fbm::default();
    let spec = GridSpec::new([0.0, 0.0], 1.0, [4, 4]);
    let mut short = vec![0.0; 15];
    assert_eq!(
        fbm.fill_grid(&t, &spec, &mut short),
        Err(GridError::BufferLength {
            buffer: "values",
            expected: 16,
            actual: 15
        })
    );
    let mut v = vec![0.0; 16];
    let mut g = vec![[0.0; 2]; 3];
    assert!(matches!(
        fbm.fill(&t, &spec, GridFill::new(&mut v).gradients(&mut g)),
        Err(GridError::BufferLength {
            buffer: "gradients",
            ..
        })
    ));
    let mut g = vec![[0.0; 2]; 16];
    let mut c = vec![0.0; 17];
    assert!(matches!(
        fbm.fill(
            &t,
            &spec,
            GridFill::new(&mut v).gradients(&mut g).creases(&mut c)
        ),
        Err(GridError::BufferLength {
            buffer: "creases",
            ..
        })
    ));
    let huge = GridSpec::new([0.0, 0.0], 1.0, [usize::MAX, 2]);
    assert_eq!(fbm.fill_grid(&t, &huge, &mut v), Err(GridError::TooLarge));
    let empty = GridSpec::new([0.0, 0.0], 1.0, [0, 5]);
    assert_eq!(fbm.fill_grid(&t, &empty, &mut []), Ok(()));
}

#[test]
fn fill_grid2_and_fill_grid_are_the_documented_entry_points() {
    // 6-octave 2D Perlin FBM with only the public fields set, as a user would write it.
    let t = NoiseTables::from_seed(77);
    let fbm = Fbm {
        octaves: 6,
        frequency: 0.05,
        ..Default::default()
    };
    let (origin, step, width, height) = ([-13.25, 40.5], 0.75, 37, 23);
    let mut out = vec![0.0f32; width * height];
    fbm.fill_grid2(&t, origin, step, width, height, &mut out);
    let mut same = vec![0.0f32; width * height];
    fbm.fill_grid(&t, &GridSpec::new(origin, step, [width, height]), &mut same)
        .expect("the buffer holds the grid");
    assert_eq!(bits(&out), bits(&same));
    let mut worst = 0.0f64;
    for j in 0..height {
        for i in 0..width {
            let x = origin[0] + i as f64 * step;
            let y = origin[1] + j as f64 * step;
            let error = (out[j * width + i] as f64 - fbm.sample2(&t, x, y)).abs();
            worst = worst.max(error);
        }
    }
    assert!(worst < 1e-5, "grid differs from sample2 by {worst}");
    assert!(
        out.iter().any(|v| v.abs() > 0.1),
        "a flat grid proves nothing"
    );

    // A mis-sized buffer cannot pass for terrain.
    let mut short = vec![0.0f32; width * height - 1];
    fbm.fill_grid2(&t, origin, step, width, height, &mut short);
    assert!(short.iter().all(|v| v.is_nan()));
}

/// FNV-1a over the value bits, then the gradient bits.
fn grid_hash(fbm: &Fbm) -> u64 {
    let t = NoiseTables::from_seed(42);
    let spec = GridSpec::new([-100.0, 250.0], 0.5, [97, 61]).with_start([-3, 7]);
    let f = fill(fbm, &t, &spec, SimdLevel::Auto);
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let words = f
        .values
        .iter()
        .map(|v| v.to_bits())
        .chain(f.gradients.iter().flat_map(|g| g.map(f32::to_bits)));
    for word in words {
        for byte in word.to_le_bytes() {
            hash = (hash ^ byte as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    hash
}

#[test]
fn golden_hashes_of_seeded_grids() {
    // The terrain of seed 42 under a 6-octave FBM, pinned: any change to tables, generators,
    // FBM or grid path that moves a single bit shows up here, and must be a deliberate change of
    // these numbers. (Every SIMD level gives these bits; see above.)
    let fbm = Fbm {
        octaves: 6,
        frequency: 1.0 / 32.0,
        ..Fbm::default()
    };
    // Table hashing: the same bits as before the grid path covered every configuration.
    let table = grid_hash(&Fbm {
        hashing: Hashing::Table,
        ..fbm
    });
    assert_eq!(
        table, GOLDEN_TABLE,
        "table-hashed terrain changed: {table:#018x}"
    );
    let integer = grid_hash(&fbm);
    assert_eq!(
        integer, GOLDEN_INTEGER,
        "the default terrain changed: {integer:#018x}"
    );
}

const GOLDEN_TABLE: u64 = 0x96fc_7ac9_de06_fafd;
const GOLDEN_INTEGER: u64 = 0x4b16_4d1a_60a3_5747;
