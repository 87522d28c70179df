//! The AVX2 kernel: one sample per lane, eight columns at a time.
//!
//! A block's eight samples need lattice lines `k` and `k + 1`; when those all lie in one window
//! of eight (cells at least about one sample wide, true of any non-aliasing octave), one load
//! and two `vpermps` fetch them for all lanes. Blocks that do not fit, and the columns after the
//! last full block, go through the scalar twin in [`super::kernel`], which computes the same
//! operations in the same order: the results are bit-identical.
//!
//! The only `unsafe` of the crate lives here: unaligned loads and stores on slices whose bounds
//! are checked first, and calls into `#[target_feature]` code after runtime detection.

use super::axis::{Columns, LANES};
use super::kernel::{self, RowSums, Weights};
use super::lattice_row::LatticeRow;
use crate::fbm::FractalMode;

/// Whether this CPU runs the AVX2 kernel.
pub(super) fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Accumulates one dense octave over the whole row, with AVX2 when `available()`.
pub(super) fn accumulate(
    cols: &Columns,
    row: &LatticeRow,
    mode: FractalMode,
    w: Weights,
    sums: &mut RowSums,
) {
    #[cfg(target_arch = "x86_64")]
    if available() {
        // SAFETY: the CPU supports AVX2, checked just above.
        unsafe { avx2::accumulate(cols, row, mode, w, sums) };
        return;
    }
    kernel::accumulate(cols, row, mode, w, 0..sums.value.len(), sums);
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::*;
    use std::arch::x86_64::*;

    #[inline(always)]
    fn load(s: &[f32]) -> __m256 {
        let s = &s[..LANES];
        // SAFETY: `s` holds eight f32s; the load is unaligned.
        unsafe { _mm256_loadu_ps(s.as_ptr()) }
    }

    #[inline(always)]
    fn load_i32(s: &[i32]) -> __m256i {
        let s = &s[..LANES];
        // SAFETY: `s` holds eight i32s; the load is unaligned.
        unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
    }

    #[inline(always)]
    fn add_to(s: &mut [f32], v: __m256) {
        let s = &mut s[..LANES];
        // SAFETY: `s` holds eight f32s; load and store are unaligned.
        unsafe {
            _mm256_storeu_ps(
                s.as_mut_ptr(),
                _mm256_add_ps(_mm256_loadu_ps(s.as_ptr()), v),
            )
        }
    }

    /// [`kernel::shape`], lane by lane.
    #[target_feature(enable = "avx2")]
    fn shape(mode: FractalMode, n: __m256) -> (__m256, __m256) {
        let one = _mm256_set1_ps(1.0);
        let two = _mm256_set1_ps(2.0);
        let sign_bit = _mm256_set1_ps(-0.0);
        let abs = _mm256_andnot_ps(sign_bit, n);
        let sign = _mm256_or_ps(_mm256_and_ps(n, sign_bit), one);
        match mode {
            FractalMode::Standard => (n, one),
            FractalMode::Ridged => {
                let r = _mm256_sub_ps(one, abs);
                let value = _mm256_sub_ps(_mm256_mul_ps(two, _mm256_mul_ps(r, r)), one);
                let slope = _mm256_mul_ps(_mm256_mul_ps(_mm256_set1_ps(-4.0), r), sign);
                (value, slope)
            }
            FractalMode::Billow => (
                _mm256_sub_ps(_mm256_mul_ps(two, abs), one),
                _mm256_mul_ps(two, sign),
            ),
            FractalMode::Turbulence => (abs, sign),
        }
    }

    /// [`kernel::accumulate`] for the full blocks that fit, the twin for the rest.
    #[target_feature(enable = "avx2")]
    pub(super) fn accumulate(
        cols: &Columns,
        row: &LatticeRow,
        mode: FractalMode,
        w: Weights,
        sums: &mut RowSums,
    ) {
        let ax = &cols.axis;
        let amplitude = _mm256_set1_ps(w.amplitude);
        let amplitude_frequency = _mm256_set1_ps(w.amplitude_frequency);
        let next = _mm256_set1_epi32(1);
        let slopes = sums.slopes();
        for (b, block) in cols.blocks.iter().enumerate() {
            let c = b * LANES;
            if !block.fits {
                kernel::accumulate(cols, row, mode, w, c..c + LANES, sums);
                continue;
            }
            let base = block.base as usize;
            let k0 = load_i32(&cols.lane[c..]);
            let k1 = _mm256_add_epi32(k0, next);
            // The two lattice lines of every lane, picked out of one 8-wide window.
            let p = load(&row.p[base..]);
            let q = load(&row.q[base..]);
            let (p0, p1) = (
                _mm256_permutevar8x32_ps(p, k0),
                _mm256_permutevar8x32_ps(p, k1),
            );
            let (q0, q1) = (
                _mm256_permutevar8x32_ps(q, k0),
                _mm256_permutevar8x32_ps(q, k1),
            );
            let t = load(&ax.frac[c..]);
            let tm1 = load(&ax.frac_m1[c..]);
            let u = load(&ax.fade[c..]);
            // kernel::sample: a = P₀t + Q₀, b = P₁(t − 1) + Q₁, n = a + u(b − a).
            let a = _mm256_add_ps(_mm256_mul_ps(p0, t), q0);
            let bb = _mm256_add_ps(_mm256_mul_ps(p1, tm1), q1);
            let d = _mm256_sub_ps(bb, a);
            let n = _mm256_add_ps(a, _mm256_mul_ps(u, d));
            let (value, slope) = shape(mode, n);
            add_to(&mut sums.value[c..], _mm256_mul_ps(value, amplitude));
            if slopes {
                let r = load(&row.r[base..]);
                let s = load(&row.s[base..]);
                let (r0, r1) = (
                    _mm256_permutevar8x32_ps(r, k0),
                    _mm256_permutevar8x32_ps(r, k1),
                );
                let (s0, s1) = (
                    _mm256_permutevar8x32_ps(s, k0),
                    _mm256_permutevar8x32_ps(s, k1),
                );
                let du = load(&ax.dfade[c..]);
                // dx = P₀ + u(P₁ − P₀) + du·d;  dy = ay + u(by − ay).
                let dx = _mm256_add_ps(
                    _mm256_add_ps(p0, _mm256_mul_ps(u, _mm256_sub_ps(p1, p0))),
                    _mm256_mul_ps(du, d),
                );
                let ay = _mm256_add_ps(_mm256_mul_ps(r0, t), s0);
                let by = _mm256_add_ps(_mm256_mul_ps(r1, tm1), s1);
                let dy = _mm256_add_ps(ay, _mm256_mul_ps(u, _mm256_sub_ps(by, ay)));
                let k = _mm256_mul_ps(slope, amplitude_frequency);
                add_to(&mut sums.dx[c..], _mm256_mul_ps(dx, k));
                add_to(&mut sums.dy[c..], _mm256_mul_ps(dy, k));
            }
        }
        let tail = cols.blocks.len() * LANES..sums.value.len();
        kernel::accumulate(cols, row, mode, w, tail, sums);
    }
}
