//! The SIMD kernels: one sample per lane, 8 (AVX2) or 16 (AVX-512) columns at a time, both
//! with FMA, both from one generic body over the [`Lanes`] operations.
//!
//! A block's columns need the corner gradients of their cells; when those cells all lie in one
//! window as wide as the block (cells at least about one sample wide, true of any octave that
//! is not aliasing), one load and one permute per corner component fetch every lane's corners.
//! The constants of [`kernel::band_constants`] follow, then three FMAs per sample down the
//! band. Blocks that do not fit, and the columns after the last full block, go through the
//! scalar twin in [`super::kernel`]; it computes the same operations in the same order, so the
//! results are bit-identical whichever kernel runs.
//!
//! This module holds all of the crate's `unsafe`: unaligned loads and stores within lengths
//! checked once per call, and calls into `#[target_feature]` code after runtime detection.

use super::GridKernel;
use super::axis::Columns;
use super::gradient_rows::GradientRows;
use super::kernel::{self, Band, Sums, Weights};
use crate::fbm::FractalMode;

/// The instruction sets this CPU offers the grid kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Isa {
    Avx512,
    Avx2,
    Scalar,
}

impl Isa {
    /// The instruction set `kernel` runs with on this CPU.
    pub fn for_kernel(kernel: GridKernel) -> Isa {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let avx2 = has!("avx2") && has!("fma");
            match kernel {
                GridKernel::Auto if avx2 && has!("avx512f") => return Isa::Avx512,
                GridKernel::Auto | GridKernel::Avx2 if avx2 => return Isa::Avx2,
                _ => {}
            }
        }
        let _ = kernel;
        Isa::Scalar
    }

    /// Columns per SIMD block.
    pub fn lanes(self) -> usize {
        match self {
            Isa::Avx512 => 16,
            Isa::Avx2 | Isa::Scalar => 8,
        }
    }
}

/// Accumulates one dense octave over a band with the instruction set `isa`.
pub(super) fn accumulate(
    isa: Isa,
    cols: &Columns,
    grads: &GradientRows,
    band: &Band,
    mode: FractalMode,
    w: Weights,
    sums: &mut Sums,
) {
    #[cfg(target_arch = "x86_64")]
    if isa != Isa::Scalar {
        // SAFETY: `Isa::for_kernel` returned Avx2 or Avx512 only after detecting the features.
        unsafe { x86::accumulate(isa, cols, grads, band, mode, w, sums) };
        return;
    }
    let _ = isa;
    kernel::accumulate(cols, grads, band, 0..sums.width, mode, w, sums);
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::*;
    use std::arch::x86_64::*;

    /// The vector operations the kernel needs, for one register width. Every method is only
    /// called inside a function compiled with the matching `#[target_feature]`.
    trait Lanes {
        type V: Copy;
        const N: usize;
        unsafe fn load(p: *const f32) -> Self::V;
        unsafe fn store(p: *mut f32, v: Self::V);
        /// Stores lanes `from..N` only.
        unsafe fn store_from(p: *mut f32, v: Self::V, from: usize);
        /// Loads `N` lane indices and picks lanes of the `N`-wide window at `p` by them.
        unsafe fn index(p: *const i32) -> Self::V;
        unsafe fn pick(p: *const f32, index: Self::V) -> Self::V;
        unsafe fn splat(x: f32) -> Self::V;
        unsafe fn sub(a: Self::V, b: Self::V) -> Self::V;
        unsafe fn mul(a: Self::V, b: Self::V) -> Self::V;
        /// `a · b + c`, one rounding.
        unsafe fn fma(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
        unsafe fn abs(a: Self::V) -> Self::V;
        /// `copysign(1, a)`.
        unsafe fn sign(a: Self::V) -> Self::V;
    }

    struct Avx2;
    struct Avx512;

    impl Lanes for Avx2 {
        type V = __m256;
        const N: usize = 8;
        #[inline(always)]
        unsafe fn load(p: *const f32) -> __m256 {
            unsafe { _mm256_loadu_ps(p) }
        }
        #[inline(always)]
        unsafe fn store(p: *mut f32, v: __m256) {
            unsafe { _mm256_storeu_ps(p, v) }
        }
        #[inline(always)]
        unsafe fn store_from(p: *mut f32, v: __m256, from: usize) {
            unsafe {
                let keep = _mm256_cmpgt_epi32(
                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                    _mm256_set1_epi32(from as i32 - 1),
                );
                _mm256_maskstore_ps(p, keep, v)
            }
        }
        #[inline(always)]
        unsafe fn index(p: *const i32) -> __m256 {
            unsafe { _mm256_castsi256_ps(_mm256_loadu_si256(p.cast())) }
        }
        #[inline(always)]
        unsafe fn pick(p: *const f32, index: __m256) -> __m256 {
            unsafe { _mm256_permutevar8x32_ps(_mm256_loadu_ps(p), _mm256_castps_si256(index)) }
        }
        #[inline(always)]
        unsafe fn splat(x: f32) -> __m256 {
            unsafe { _mm256_set1_ps(x) }
        }
        #[inline(always)]
        unsafe fn sub(a: __m256, b: __m256) -> __m256 {
            unsafe { _mm256_sub_ps(a, b) }
        }
        #[inline(always)]
        unsafe fn mul(a: __m256, b: __m256) -> __m256 {
            unsafe { _mm256_mul_ps(a, b) }
        }
        #[inline(always)]
        unsafe fn fma(a: __m256, b: __m256, c: __m256) -> __m256 {
            unsafe { _mm256_fmadd_ps(a, b, c) }
        }
        #[inline(always)]
        unsafe fn abs(a: __m256) -> __m256 {
            unsafe { _mm256_andnot_ps(_mm256_set1_ps(-0.0), a) }
        }
        #[inline(always)]
        unsafe fn sign(a: __m256) -> __m256 {
            unsafe { _mm256_or_ps(_mm256_and_ps(a, _mm256_set1_ps(-0.0)), _mm256_set1_ps(1.0)) }
        }
    }

    impl Lanes for Avx512 {
        type V = __m512;
        const N: usize = 16;
        #[inline(always)]
        unsafe fn load(p: *const f32) -> __m512 {
            unsafe { _mm512_loadu_ps(p) }
        }
        #[inline(always)]
        unsafe fn store(p: *mut f32, v: __m512) {
            unsafe { _mm512_storeu_ps(p, v) }
        }
        #[inline(always)]
        unsafe fn store_from(p: *mut f32, v: __m512, from: usize) {
            unsafe {
                _mm512_mask_storeu_ps(p, (u16::MAX as u32).wrapping_shl(from as u32) as u16, v)
            }
        }
        #[inline(always)]
        unsafe fn index(p: *const i32) -> __m512 {
            unsafe { _mm512_castsi512_ps(_mm512_loadu_si512(p.cast())) }
        }
        #[inline(always)]
        unsafe fn pick(p: *const f32, index: __m512) -> __m512 {
            unsafe { _mm512_permutexvar_ps(_mm512_castps_si512(index), _mm512_loadu_ps(p)) }
        }
        #[inline(always)]
        unsafe fn splat(x: f32) -> __m512 {
            unsafe { _mm512_set1_ps(x) }
        }
        #[inline(always)]
        unsafe fn sub(a: __m512, b: __m512) -> __m512 {
            unsafe { _mm512_sub_ps(a, b) }
        }
        #[inline(always)]
        unsafe fn mul(a: __m512, b: __m512) -> __m512 {
            unsafe { _mm512_mul_ps(a, b) }
        }
        #[inline(always)]
        unsafe fn fma(a: __m512, b: __m512, c: __m512) -> __m512 {
            unsafe { _mm512_fmadd_ps(a, b, c) }
        }
        #[inline(always)]
        unsafe fn abs(a: __m512) -> __m512 {
            unsafe { _mm512_abs_ps(a) }
        }
        #[inline(always)]
        unsafe fn sign(a: __m512) -> __m512 {
            unsafe {
                let bits = _mm512_and_si512(_mm512_castps_si512(a), _mm512_set1_epi32(i32::MIN));
                _mm512_castsi512_ps(_mm512_or_si512(
                    bits,
                    _mm512_castps_si512(_mm512_set1_ps(1.0)),
                ))
            }
        }
    }

    /// Checks every length the unchecked accesses rely on, then runs the kernel compiled for
    /// this instruction set, mode and output.
    ///
    /// # Safety
    /// The CPU must support `isa` (AVX2 + FMA, or AVX-512F + AVX2 + FMA).
    pub(super) unsafe fn accumulate(
        isa: Isa,
        cols: &Columns,
        grads: &GradientRows,
        band: &Band,
        mode: FractalMode,
        w: Weights,
        sums: &mut Sums,
    ) {
        let full = cols.blocks.len() * cols.lanes;
        let (ax, rows) = (&cols.axis, band.rows);
        let window = grads
            .lower
            .iter()
            .chain(&grads.upper)
            .map(Vec::len)
            .min()
            .unwrap_or(0);
        let sums_len = if band.range.is_empty() {
            0
        } else {
            sums.at(band.range.end - 1, 0) + full
        };
        let lengths_ok = cols.lanes == isa.lanes()
            && [
                ax.frac.len(),
                ax.fade.len(),
                ax.dfade.len(),
                cols.lane.len(),
            ]
            .iter()
            .all(|&l| l >= full)
            && [rows.frac.len(), rows.fade.len(), rows.dfade.len()]
                .iter()
                .all(|&l| l >= band.range.end)
            && band.range.start >= sums.first_row
            && sums.width >= full
            && sums.value.len() >= sums_len
            && (!sums.slopes() || (sums.dx.len() >= sums_len && sums.dy.len() >= sums_len));
        let args = Args {
            cols,
            grads,
            window,
            band,
            mode,
            w,
        };
        // SAFETY: the features of `isa` are present (caller) and the lengths are checked.
        unsafe {
            match (lengths_ok, isa) {
                (true, Isa::Avx512) => avx512(&args, sums),
                (true, _) => avx2(&args, sums),
                (false, _) => scalar_with_fma(&args, 0..sums.width, sums),
            }
        }
    }

    /// What one kernel call reads.
    struct Args<'a> {
        cols: &'a Columns,
        grads: &'a GradientRows,
        /// Length of the shortest gradient-row array.
        window: usize,
        band: &'a Band<'a>,
        mode: FractalMode,
        w: Weights,
    }

    /// The scalar twin, compiled with FMA so its `mul_add`s are single instructions.
    #[target_feature(enable = "avx2,fma")]
    fn scalar_with_fma(a: &Args, columns: std::ops::Range<usize>, sums: &mut Sums) {
        kernel::accumulate(a.cols, a.grads, a.band, columns, a.mode, a.w, sums);
    }

    macro_rules! dispatch {
        ($isa:ty, $a:expr, $sums:expr) => {
            match ($a.mode, $sums.slopes()) {
                (FractalMode::Standard, false) => run::<$isa, 0, false>($a, $sums),
                (FractalMode::Ridged, false) => run::<$isa, 1, false>($a, $sums),
                (FractalMode::Billow, false) => run::<$isa, 2, false>($a, $sums),
                (FractalMode::Turbulence, false) => run::<$isa, 3, false>($a, $sums),
                (FractalMode::Standard, true) => run::<$isa, 0, true>($a, $sums),
                (FractalMode::Ridged, true) => run::<$isa, 1, true>($a, $sums),
                (FractalMode::Billow, true) => run::<$isa, 2, true>($a, $sums),
                (FractalMode::Turbulence, true) => run::<$isa, 3, true>($a, $sums),
            }
        };
    }

    /// # Safety
    /// AVX2 and FMA present; lengths checked by [`accumulate`].
    #[target_feature(enable = "avx2,fma")]
    unsafe fn avx2(a: &Args, sums: &mut Sums) {
        unsafe { dispatch!(Avx2, a, sums) }
    }

    /// # Safety
    /// AVX-512F, AVX2 and FMA present; lengths checked by [`accumulate`].
    #[target_feature(enable = "avx512f,avx2,fma")]
    unsafe fn avx512(a: &Args, sums: &mut Sums) {
        unsafe { dispatch!(Avx512, a, sums) }
    }

    /// [`kernel::shape`] lane by lane, for `FractalMode` number `MODE`.
    #[inline(always)]
    unsafe fn shape<L: Lanes, const MODE: u8>(n: L::V) -> (L::V, L::V) {
        unsafe {
            let (one, two) = (L::splat(1.0), L::splat(2.0));
            match MODE {
                0 => (n, one),
                1 => {
                    let r = L::sub(one, L::abs(n));
                    let value = L::sub(L::mul(two, L::mul(r, r)), one);
                    (value, L::mul(L::mul(L::splat(-4.0), r), L::sign(n)))
                }
                2 => (L::sub(L::mul(two, L::abs(n)), one), L::mul(two, L::sign(n))),
                _ => (L::abs(n), L::sign(n)),
            }
        }
    }

    /// [`kernel::accumulate`], `L::N` lanes at a time, over the full blocks and the overlapping
    /// tail block; blocks that do not fit go to the scalar twin.
    ///
    /// # Safety
    /// The features of `L` are enabled in the caller; lengths checked by [`accumulate`].
    #[inline(always)]
    unsafe fn run<L: Lanes, const MODE: u8, const SLOPES: bool>(a: &Args, sums: &mut Sums) {
        let cols = a.cols;
        for (b, block) in cols.blocks.iter().enumerate() {
            let c = b * L::N;
            if block.fits && block.base as usize + 1 + L::N <= a.window {
                // SAFETY: c + N <= full and the window checked just above.
                unsafe {
                    run_block::<L, MODE, SLOPES, false>(
                        a,
                        sums,
                        c,
                        block.base as usize,
                        cols.lane.as_ptr().add(c),
                        0,
                    )
                };
            } else {
                kernel::accumulate(cols, a.grads, a.band, c..c + L::N, a.mode, a.w, sums);
            }
        }
        let full = cols.blocks.len() * L::N;
        match &cols.tail {
            Some(t)
                if t.block.fits
                    && t.block.base as usize + 1 + L::N <= a.window
                    && t.lane.len() == L::N
                    && t.first + L::N == sums.width =>
            {
                // SAFETY: the tail block's columns are the last N of the row, its lanes were
                // just checked, and only lanes from `keep_from` (columns >= full) are stored.
                unsafe {
                    run_block::<L, MODE, SLOPES, true>(
                        a,
                        sums,
                        t.first,
                        t.block.base as usize,
                        t.lane.as_ptr(),
                        t.keep_from,
                    )
                };
            }
            _ => kernel::accumulate(cols, a.grads, a.band, full..sums.width, a.mode, a.w, sums),
        }
    }

    /// One block of `L::N` columns starting at column `c`, down the band. With `TAIL`, only
    /// lanes `keep_from..N` are stored.
    ///
    /// # Safety
    /// As [`run`], and `c + N <= width`, `base + 1 + N <= window`, `lane` holds N indices.
    #[inline(always)]
    unsafe fn run_block<L: Lanes, const MODE: u8, const SLOPES: bool, const TAIL: bool>(
        a: &Args,
        sums: &mut Sums,
        c: usize,
        base: usize,
        lane: *const i32,
        keep_from: usize,
    ) {
        let (grads, band) = (a.grads, a.band);
        let (ax, rows) = (&a.cols.axis, band.rows);
        let store = |p: *mut f32, v: L::V| {
            // SAFETY: p is within the row (caller's contract).
            unsafe {
                if TAIL {
                    L::store_from(p, v, keep_from)
                } else {
                    L::store(p, v)
                }
            }
        };
        // SAFETY: every access is within the caller's contract and the lengths checked by
        // `accumulate`: sums indices below `sums_len`, rows below `band.range.end`.
        unsafe {
            let amplitude = L::splat(a.w.amplitude);
            let amplitude_frequency = L::splat(a.w.amplitude_frequency);
            let one = L::splat(1.0);
            let (lx, ly) = (grads.lower[0].as_ptr(), grads.lower[1].as_ptr());
            let (ux, uy) = (grads.upper[0].as_ptr(), grads.upper[1].as_ptr());
            let (value, dx, dy) = (
                sums.value.as_mut_ptr(),
                sums.dx.as_mut_ptr(),
                sums.dy.as_mut_ptr(),
            );
            let k = L::index(lane);
            let pick = |p: *const f32| L::pick(p.add(base), k);
            // kernel::Corners, lane by lane.
            let g = [
                pick(lx),
                pick(ly),
                pick(lx.add(1)),
                pick(ly.add(1)),
                pick(ux),
                pick(uy),
                pick(ux.add(1)),
                pick(uy.add(1)),
            ];
            let tx = L::load(ax.frac.as_ptr().add(c));
            let u = L::load(ax.fade.as_ptr().add(c));
            // kernel::band_constants.
            let txm1 = L::sub(tx, one);
            let (a00, a10) = (L::mul(g[0], tx), L::mul(g[2], txm1));
            let (a01, a11) = (L::mul(g[4], tx), L::mul(g[6], txm1));
            let (lower, upper) = (L::sub(a10, a00), L::sub(a11, a01));
            let t0 = L::fma(u, lower, a00);
            let t1 = L::fma(u, L::sub(g[3], g[1]), g[1]);
            let b0 = L::fma(u, upper, a01);
            let b1 = L::fma(u, L::sub(g[7], g[5]), g[5]);
            let d0 = L::sub(L::sub(b0, b1), t0);
            let d1 = L::sub(b1, t1);
            let (mut t0x, mut t1x, mut d0x, mut d1x) = (one, one, one, one);
            if SLOPES {
                let du = L::load(ax.dfade.as_ptr().add(c));
                t0x = L::fma(du, lower, L::fma(u, L::sub(g[2], g[0]), g[0]));
                t1x = L::mul(du, L::sub(g[3], g[1]));
                let b0x = L::fma(du, upper, L::fma(u, L::sub(g[6], g[4]), g[4]));
                let b1x = L::mul(du, L::sub(g[7], g[5]));
                d0x = L::sub(L::sub(b0x, b1x), t0x);
                d1x = L::sub(b1x, t1x);
            }
            for r in band.range.clone() {
                // kernel::sample, then the octave's share of the sums.
                let ty = L::splat(*rows.frac.get_unchecked(r));
                let v = L::splat(*rows.fade.get_unchecked(r));
                let top = L::fma(ty, t1, t0);
                let dif = L::fma(ty, d1, d0);
                let n = L::fma(v, dif, top);
                let (shaped, slope) = shape::<L, MODE>(n);
                let i = sums.at(r, c);
                store(
                    value.add(i),
                    L::fma(shaped, amplitude, L::load(value.add(i))),
                );
                if SLOPES {
                    let dv = L::splat(*rows.dfade.get_unchecked(r));
                    let ddx = L::fma(v, L::fma(ty, d1x, d0x), L::fma(ty, t1x, t0x));
                    let ddy = L::fma(dv, dif, L::fma(v, d1, t1));
                    let kk = L::mul(slope, amplitude_frequency);
                    store(dx.add(i), L::fma(ddx, kk, L::load(dx.add(i))));
                    store(dy.add(i), L::fma(ddy, kk, L::load(dy.add(i))));
                }
            }
        }
    }
}
