//! AVX2 and AVX-512 lanes. Each vector type wraps a register; its constructors are methods of its
//! token ([`Avx2`], [`Avx512`]), which only the target-feature entry points below make, and those
//! run only for an [`Isa`](super::Isa) that feature detection built. So every intrinsic here runs
//! on a CPU that has it: that is the `SAFETY` argument of every `unsafe` block in this file.

use super::{Int, Kernel, Mask, Real, Scalar, Simd, Vectorised};
use std::arch::x86_64::*;
use std::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Neg, Sub};

/// Runs `kernel` with one lane, compiled with FMA so that `mul_add` is one instruction.
///
/// # Safety
/// The CPU must have FMA.
#[target_feature(enable = "fma")]
pub(super) unsafe fn scalar_with_fma<K: Kernel>(kernel: K) -> K::Output {
    kernel.run(Scalar)
}

/// Runs `kernel` with eight lanes.
///
/// # Safety
/// The CPU must have AVX2 and FMA.
#[target_feature(enable = "avx2,fma")]
pub(super) unsafe fn avx2<K: Kernel>(kernel: K) -> K::Output {
    kernel.run(Avx2(()))
}

/// Runs `kernel` with sixteen lanes.
///
/// # Safety
/// The CPU must have AVX-512F, AVX2 and FMA.
#[target_feature(enable = "avx512f,avx2,fma")]
pub(super) unsafe fn avx512<K: Kernel>(kernel: K) -> K::Output {
    kernel.run(Avx512(()))
}

/// Runs plain `work` compiled for AVX2 and FMA.
///
/// # Safety
/// The CPU must have AVX2 and FMA.
#[target_feature(enable = "avx2,fma")]
pub(super) unsafe fn vectorised_avx2<W: Vectorised>(work: W) -> W::Output {
    work.run()
}

/// Runs plain `work` compiled for AVX-512F, AVX2 and FMA.
///
/// # Safety
/// The CPU must have AVX-512F, AVX2 and FMA.
#[target_feature(enable = "avx512f,avx2,fma")]
pub(super) unsafe fn vectorised_avx512<W: Vectorised>(work: W) -> W::Output {
    work.run()
}

/// Proof that the CPU has AVX2 and FMA; only [`avx2`] makes one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2(());

/// Proof that the CPU has AVX-512F, AVX2 and FMA; only [`avx512`] makes one.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512(());

/// Eight `f32` lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct F32x8(__m256);
/// Eight `u32` lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct U32x8(__m256i);
/// An eight-lane mask (all bits set where true).
#[derive(Clone, Copy, Debug)]
pub(crate) struct M8(__m256);
/// Sixteen `f32` lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct F32x16(__m512);
/// Sixteen `u32` lanes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct U32x16(__m512i);
/// A sixteen-lane mask register.
#[derive(Clone, Copy, Debug)]
pub(crate) struct M16(__mmask16);

/// `impl $trait for $t` through one intrinsic of two registers.
macro_rules! binary {
    ($t:ident, $trait:ident, $method:ident, $intrinsic:ident) => {
        impl $trait for $t {
            type Output = $t;
            #[inline(always)]
            fn $method(self, other: $t) -> $t {
                // SAFETY: a value of this type exists only where its instructions were detected.
                $t(unsafe { $intrinsic(self.0, other.0) })
            }
        }
    };
}

binary!(F32x8, Add, add, _mm256_add_ps);
binary!(F32x8, Sub, sub, _mm256_sub_ps);
binary!(F32x8, Mul, mul, _mm256_mul_ps);
binary!(F32x8, Div, div, _mm256_div_ps);
binary!(U32x8, BitAnd, bitand, _mm256_and_si256);
binary!(U32x8, BitOr, bitor, _mm256_or_si256);
binary!(U32x8, BitXor, bitxor, _mm256_xor_si256);
binary!(F32x16, Add, add, _mm512_add_ps);
binary!(F32x16, Sub, sub, _mm512_sub_ps);
binary!(F32x16, Mul, mul, _mm512_mul_ps);
binary!(F32x16, Div, div, _mm512_div_ps);
binary!(U32x16, BitAnd, bitand, _mm512_and_si512);
binary!(U32x16, BitOr, bitor, _mm512_or_si512);
binary!(U32x16, BitXor, bitxor, _mm512_xor_si512);

impl Neg for F32x8 {
    type Output = F32x8;
    #[inline(always)]
    fn neg(self) -> F32x8 {
        // SAFETY: as `binary!`.
        F32x8(unsafe { _mm256_xor_ps(self.0, _mm256_set1_ps(-0.0)) })
    }
}

impl Neg for F32x16 {
    type Output = F32x16;
    #[inline(always)]
    fn neg(self) -> F32x16 {
        // SAFETY: as `binary!`.
        unsafe {
            F32x16(_mm512_castsi512_ps(_mm512_xor_si512(
                _mm512_castps_si512(self.0),
                _mm512_set1_epi32(i32::MIN),
            )))
        }
    }
}

impl Mask for M8 {}

impl Mask for M16 {}

// SAFETY (every `unsafe` block in the impls below): a value of the implementing type exists only
// where its instructions were detected, and memory is reached through bounds-checked slices
// (in `pick_from`, through the caller's contract: `Simd::pick` and `Simd::pick_at` check it).

impl Real for F32x8 {
    type Mask = M8;
    type Int = U32x8;
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        F32x8(unsafe { _mm256_fmadd_ps(self.0, a.0, b.0) })
    }
    #[inline(always)]
    fn abs(self) -> Self {
        F32x8(unsafe { _mm256_andnot_ps(_mm256_set1_ps(-0.0), self.0) })
    }
    #[inline(always)]
    fn sign(self) -> Self {
        unsafe {
            F32x8(_mm256_or_ps(
                _mm256_and_ps(self.0, _mm256_set1_ps(-0.0)),
                _mm256_set1_ps(1.0),
            ))
        }
    }
    #[inline(always)]
    fn floor(self) -> Self {
        F32x8(unsafe { _mm256_floor_ps(self.0) })
    }
    #[inline(always)]
    fn round(self) -> Self {
        F32x8(unsafe {
            _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(self.0)
        })
    }
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        F32x8(unsafe { _mm256_min_ps(self.0, other.0) })
    }
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        F32x8(unsafe { _mm256_max_ps(self.0, other.0) })
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        F32x8(unsafe { _mm256_sqrt_ps(self.0) })
    }
    #[inline(always)]
    fn lt(self, other: Self) -> M8 {
        M8(unsafe { _mm256_cmp_ps::<_CMP_LT_OQ>(self.0, other.0) })
    }
    #[inline(always)]
    fn le(self, other: Self) -> M8 {
        M8(unsafe { _mm256_cmp_ps::<_CMP_LE_OQ>(self.0, other.0) })
    }
    #[inline(always)]
    fn select(mask: M8, a: Self, b: Self) -> Self {
        F32x8(unsafe { _mm256_blendv_ps(b.0, a.0, mask.0) })
    }
    #[inline(always)]
    fn to_int(self) -> U32x8 {
        U32x8(unsafe { _mm256_cvttps_epi32(self.0) })
    }
    #[inline(always)]
    fn to_bits(self) -> U32x8 {
        U32x8(unsafe { _mm256_castps_si256(self.0) })
    }
    #[inline(always)]
    fn store(self, to: &mut [f32]) {
        let to = &mut to[..8];
        unsafe { _mm256_storeu_ps(to.as_mut_ptr(), self.0) }
    }
}

impl Int for U32x8 {
    type Real = F32x8;
    type Mask = M8;
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        U32x8(unsafe { _mm256_add_epi32(self.0, other.0) })
    }
    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        U32x8(unsafe { _mm256_sub_epi32(self.0, other.0) })
    }
    #[inline(always)]
    fn mul(self, other: Self) -> Self {
        U32x8(unsafe { _mm256_mullo_epi32(self.0, other.0) })
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        U32x8(unsafe { _mm256_srl_epi32(self.0, _mm_cvtsi32_si128((n & 31) as i32)) })
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        U32x8(unsafe { _mm256_sll_epi32(self.0, _mm_cvtsi32_si128((n & 31) as i32)) })
    }
    #[inline(always)]
    fn sar(self, n: u32) -> Self {
        U32x8(unsafe { _mm256_sra_epi32(self.0, _mm_cvtsi32_si128((n & 31) as i32)) })
    }
    #[inline(always)]
    fn to_real(self) -> F32x8 {
        F32x8(unsafe { _mm256_cvtepi32_ps(self.0) })
    }
    #[inline(always)]
    fn to_bits(self) -> F32x8 {
        F32x8(unsafe { _mm256_castsi256_ps(self.0) })
    }
    #[inline(always)]
    fn gather(self, table: &[f32]) -> F32x8 {
        assert!(!table.is_empty(), "gather from an empty table");
        let last = (table.len() - 1).min(i32::MAX as usize) as i32;
        unsafe {
            let index = _mm256_min_epu32(self.0, _mm256_set1_epi32(last));
            F32x8(_mm256_i32gather_ps::<4>(table.as_ptr(), index))
        }
    }
    #[inline(always)]
    fn store(self, to: &mut [u32]) {
        let to = &mut to[..8];
        unsafe { _mm256_storeu_si256(to.as_mut_ptr().cast(), self.0) }
    }
}

impl Simd for Avx2 {
    const LANES: usize = 8;
    const REGISTERS: usize = 16;
    type F = F32x8;
    type I = U32x8;
    #[inline(always)]
    fn splat(self, x: f32) -> F32x8 {
        F32x8(unsafe { _mm256_set1_ps(x) })
    }
    #[inline(always)]
    fn splat_int(self, x: u32) -> U32x8 {
        U32x8(unsafe { _mm256_set1_epi32(x as i32) })
    }
    #[inline(always)]
    fn load(self, from: &[f32]) -> F32x8 {
        let from = &from[..8];
        F32x8(unsafe { _mm256_loadu_ps(from.as_ptr()) })
    }
    #[inline(always)]
    fn load_int(self, from: &[u32]) -> U32x8 {
        let from = &from[..8];
        U32x8(unsafe { _mm256_loadu_si256(from.as_ptr().cast()) })
    }
    #[inline(always)]
    fn first_lane(self, v: U32x8) -> u32 {
        unsafe { _mm256_cvtsi256_si32(v.0) as u32 }
    }
    #[inline(always)]
    fn all_below(self, v: U32x8, bound: u32) -> bool {
        if bound == 0 {
            return false;
        }
        unsafe {
            let below = _mm256_min_epu32(v.0, _mm256_set1_epi32((bound - 1) as i32));
            _mm256_movemask_epi8(_mm256_cmpeq_epi32(below, v.0)) == -1
        }
    }
    #[inline(always)]
    unsafe fn pick_from(self, from: *const f32, lanes: U32x8) -> F32x8 {
        // `from[..8]` is readable (the caller's safety contract).
        F32x8(unsafe { _mm256_permutevar8x32_ps(_mm256_loadu_ps(from), lanes.0) })
    }
}

impl Real for F32x16 {
    type Mask = M16;
    type Int = U32x16;
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        F32x16(unsafe { _mm512_fmadd_ps(self.0, a.0, b.0) })
    }
    #[inline(always)]
    fn abs(self) -> Self {
        F32x16(unsafe { _mm512_abs_ps(self.0) })
    }
    #[inline(always)]
    fn sign(self) -> Self {
        unsafe {
            let sign = _mm512_and_si512(_mm512_castps_si512(self.0), _mm512_set1_epi32(i32::MIN));
            F32x16(_mm512_castsi512_ps(_mm512_or_si512(
                sign,
                _mm512_castps_si512(_mm512_set1_ps(1.0)),
            )))
        }
    }
    #[inline(always)]
    fn floor(self) -> Self {
        F32x16(unsafe {
            _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC }>(self.0)
        })
    }
    #[inline(always)]
    fn round(self) -> Self {
        F32x16(unsafe {
            _mm512_roundscale_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(self.0)
        })
    }
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        F32x16(unsafe { _mm512_min_ps(self.0, other.0) })
    }
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        F32x16(unsafe { _mm512_max_ps(self.0, other.0) })
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        F32x16(unsafe { _mm512_sqrt_ps(self.0) })
    }
    #[inline(always)]
    fn lt(self, other: Self) -> M16 {
        M16(unsafe { _mm512_cmp_ps_mask::<_CMP_LT_OQ>(self.0, other.0) })
    }
    #[inline(always)]
    fn le(self, other: Self) -> M16 {
        M16(unsafe { _mm512_cmp_ps_mask::<_CMP_LE_OQ>(self.0, other.0) })
    }
    #[inline(always)]
    fn select(mask: M16, a: Self, b: Self) -> Self {
        F32x16(unsafe { _mm512_mask_blend_ps(mask.0, b.0, a.0) })
    }
    #[inline(always)]
    fn to_int(self) -> U32x16 {
        U32x16(unsafe { _mm512_cvttps_epi32(self.0) })
    }
    #[inline(always)]
    fn to_bits(self) -> U32x16 {
        U32x16(unsafe { _mm512_castps_si512(self.0) })
    }
    #[inline(always)]
    fn store(self, to: &mut [f32]) {
        let to = &mut to[..16];
        unsafe { _mm512_storeu_ps(to.as_mut_ptr(), self.0) }
    }
}

impl Int for U32x16 {
    type Real = F32x16;
    type Mask = M16;
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        U32x16(unsafe { _mm512_add_epi32(self.0, other.0) })
    }
    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        U32x16(unsafe { _mm512_sub_epi32(self.0, other.0) })
    }
    #[inline(always)]
    fn mul(self, other: Self) -> Self {
        U32x16(unsafe { _mm512_mullo_epi32(self.0, other.0) })
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        U32x16(unsafe { _mm512_srl_epi32(self.0, _mm_cvtsi32_si128((n & 31) as i32)) })
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        U32x16(unsafe { _mm512_sll_epi32(self.0, _mm_cvtsi32_si128((n & 31) as i32)) })
    }
    #[inline(always)]
    fn sar(self, n: u32) -> Self {
        U32x16(unsafe { _mm512_sra_epi32(self.0, _mm_cvtsi32_si128((n & 31) as i32)) })
    }
    #[inline(always)]
    fn to_real(self) -> F32x16 {
        F32x16(unsafe { _mm512_cvtepi32_ps(self.0) })
    }
    #[inline(always)]
    fn to_bits(self) -> F32x16 {
        F32x16(unsafe { _mm512_castsi512_ps(self.0) })
    }
    #[inline(always)]
    fn gather(self, table: &[f32]) -> F32x16 {
        assert!(!table.is_empty(), "gather from an empty table");
        let last = (table.len() - 1).min(i32::MAX as usize) as i32;
        unsafe {
            let index = _mm512_min_epu32(self.0, _mm512_set1_epi32(last));
            F32x16(_mm512_i32gather_ps::<4>(index, table.as_ptr()))
        }
    }
    #[inline(always)]
    fn store(self, to: &mut [u32]) {
        let to = &mut to[..16];
        unsafe { _mm512_storeu_epi32(to.as_mut_ptr().cast(), self.0) }
    }
}

impl Simd for Avx512 {
    const LANES: usize = 16;
    const REGISTERS: usize = 32;
    type F = F32x16;
    type I = U32x16;
    #[inline(always)]
    fn splat(self, x: f32) -> F32x16 {
        F32x16(unsafe { _mm512_set1_ps(x) })
    }
    #[inline(always)]
    fn splat_int(self, x: u32) -> U32x16 {
        U32x16(unsafe { _mm512_set1_epi32(x as i32) })
    }
    #[inline(always)]
    fn load(self, from: &[f32]) -> F32x16 {
        let from = &from[..16];
        F32x16(unsafe { _mm512_loadu_ps(from.as_ptr()) })
    }
    #[inline(always)]
    fn load_int(self, from: &[u32]) -> U32x16 {
        let from = &from[..16];
        U32x16(unsafe { _mm512_loadu_epi32(from.as_ptr().cast()) })
    }
    #[inline(always)]
    fn first_lane(self, v: U32x16) -> u32 {
        unsafe { _mm512_cvtsi512_si32(v.0) as u32 }
    }
    #[inline(always)]
    fn all_below(self, v: U32x16, bound: u32) -> bool {
        unsafe { _mm512_cmplt_epu32_mask(v.0, _mm512_set1_epi32(bound as i32)) == u16::MAX }
    }
    #[inline(always)]
    unsafe fn pick_from(self, from: *const f32, lanes: U32x16) -> F32x16 {
        // `from[..16]` is readable (the caller's safety contract).
        F32x16(unsafe { _mm512_permutexvar_ps(lanes.0, _mm512_loadu_ps(from)) })
    }
}
