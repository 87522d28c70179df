//! Lanes of `f32` and `u32` for the grid kernels: one lane (`f32`, `u32`: the scalar twin), eight
//! (AVX2 + FMA) or sixteen (AVX-512F). The kernels are written once, generic over [`Simd`], so the
//! scalar twin and the vector kernels run the same operations in the same order and give
//! bit-identical results by construction; `tests/it/grid/kernels.rs` checks it on every level
//! the CPU has.
//!
//! **This module holds all of the crate's `unsafe` code** (`#![deny(unsafe_code)]` elsewhere).
//! The argument for its soundness is short:
//! - a vector value ([`x86::F32x8`], …) can only be made by a method of its instruction set's
//!   token ([`x86::Avx2`], [`x86::Avx512`]), or by an operation on vector values that already
//!   exist; and a token is only made by [`Isa::run`], for an [`Isa`] that only [`Isa::detect`]
//!   builds after runtime feature detection. So no vector instruction runs on a CPU without it;
//!   the same holds for the plain work of [`Vectorised`], compiled for wider instructions only
//!   inside the target-feature functions that [`Isa::vectorise`] calls for a detected `Isa`;
//! - every memory access goes through a slice: loads and stores index `slice[..LANES]` (bounds
//!   checked), gathers clamp their indices to the slice's length.
//!
//! Every operation has the semantics of one IEEE-754 instruction with round-to-nearest: `mul_add`
//! rounds once (the scalar twin runs inside an `fma` target-feature function where the CPU has
//! FMA, so it is one instruction there too), `min`/`max` are `minps`/`maxps` (`a < b ? a : b`),
//! `to_int` truncates like `cvttps2dq`. There are no approximate instructions (no `rcp`, no
//! `rsqrt`), whose results differ between AVX2 and AVX-512.

use std::ops::{Add, BitAnd, BitOr, BitXor, Div, Mul, Neg, Sub};

#[cfg(target_arch = "x86_64")]
mod x86;

/// The most lanes any kernel has (AVX-512: sixteen `f32`).
pub(crate) const MAX_LANES: usize = 16;

/// Lanes of `f32`: `f32` itself, or a vector register of them.
pub(crate) trait Real:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// A lane mask, the result of a comparison.
    type Mask: Mask;
    /// The integer lanes of the same width.
    type Int: Int<Real = Self, Mask = Self::Mask>;
    /// `self · a + b`, rounded once.
    fn mul_add(self, a: Self, b: Self) -> Self;
    /// `|self|` (clears the sign bit).
    fn abs(self) -> Self;
    /// `copysign(1, self)`: ±1 with the sign bit of `self` (−0 gives −1).
    fn sign(self) -> Self;
    /// Rounds towards −∞.
    fn floor(self) -> Self;
    /// Rounds to the nearest integer, ties to even.
    fn round(self) -> Self;
    /// `self < other ? self : other` (`minps`).
    fn min(self, other: Self) -> Self;
    /// `self > other ? self : other` (`maxps`).
    fn max(self, other: Self) -> Self;
    /// Correctly rounded square root.
    fn sqrt(self) -> Self;
    /// `self < other`, lane by lane (false when either is NaN).
    fn lt(self, other: Self) -> Self::Mask;
    /// `self <= other`, lane by lane.
    fn le(self, other: Self) -> Self::Mask;
    /// `mask ? a : b`, lane by lane.
    fn select(mask: Self::Mask, a: Self, b: Self) -> Self;
    /// Truncates towards zero to `i32` bits (`cvttps2dq`: NaN and out-of-range give `i32::MIN`).
    fn to_int(self) -> Self::Int;
    /// The bits of each lane.
    fn to_bits(self) -> Self::Int;
    /// Writes the lanes to `to[..LANES]`.
    ///
    /// # Panics
    /// If `to` is shorter than the lane count.
    fn store(self, to: &mut [f32]);
}

/// Lanes of `u32` (two's-complement `i32` where a conversion says so).
pub(crate) trait Int:
    Copy + BitAnd<Output = Self> + BitOr<Output = Self> + BitXor<Output = Self>
{
    /// The `f32` lanes of the same width.
    type Real: Real<Int = Self, Mask = Self::Mask>;
    /// A lane mask.
    type Mask: Mask;
    /// Wrapping `+`.
    fn add(self, other: Self) -> Self;
    /// Wrapping `−`.
    fn sub(self, other: Self) -> Self;
    /// Wrapping `×`, the low 32 bits.
    fn mul(self, other: Self) -> Self;
    /// Logical shift right by `n < 32`.
    fn shr(self, n: u32) -> Self;
    /// Shift left by `n < 32`.
    fn shl(self, n: u32) -> Self;
    /// Arithmetic shift right (of the lanes as `i32`) by `n < 32`.
    fn sar(self, n: u32) -> Self;
    /// Each lane as an `i32`, converted to the nearest `f32`.
    fn to_real(self) -> Self::Real;
    /// Reinterprets the bits as `f32`.
    fn to_bits(self) -> Self::Real;
    /// `table[min(lane, table.len() − 1)]` for each lane: never out of bounds.
    ///
    /// # Panics
    /// If `table` is empty.
    fn gather(self, table: &[f32]) -> Self::Real;
    /// Writes the lanes to `to[..LANES]`.
    ///
    /// # Panics
    /// If `to` is shorter than the lane count.
    fn store(self, to: &mut [u32]);
}

/// A lane mask, the result of a comparison.
pub(crate) trait Mask: Copy {}

impl Int for u32 {
    type Real = f32;
    type Mask = bool;
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        self.wrapping_add(other)
    }
    #[inline(always)]
    fn sub(self, other: Self) -> Self {
        self.wrapping_sub(other)
    }
    #[inline(always)]
    fn mul(self, other: Self) -> Self {
        self.wrapping_mul(other)
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        self >> (n & 31)
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        self << (n & 31)
    }
    #[inline(always)]
    fn sar(self, n: u32) -> Self {
        ((self as i32) >> (n & 31)) as u32
    }
    #[inline(always)]
    fn to_real(self) -> f32 {
        self as i32 as f32
    }
    #[inline(always)]
    fn to_bits(self) -> f32 {
        f32::from_bits(self)
    }
    #[inline(always)]
    fn gather(self, table: &[f32]) -> f32 {
        table[(self as usize).min(table.len() - 1)]
    }
    #[inline(always)]
    fn store(self, to: &mut [u32]) {
        to[0] = self;
    }
}

impl Mask for bool {}

impl Real for f32 {
    type Mask = bool;
    type Int = u32;
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        f32::mul_add(self, a, b)
    }
    #[inline(always)]
    fn abs(self) -> Self {
        f32::abs(self)
    }
    #[inline(always)]
    fn sign(self) -> Self {
        1f32.copysign(self)
    }
    #[inline(always)]
    fn floor(self) -> Self {
        f32::floor(self)
    }
    #[inline(always)]
    fn round(self) -> Self {
        f32::round_ties_even(self)
    }
    #[inline(always)]
    fn min(self, other: Self) -> Self {
        if self < other { self } else { other }
    }
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        if self > other { self } else { other }
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        f32::sqrt(self)
    }
    #[inline(always)]
    fn lt(self, other: Self) -> bool {
        self < other
    }
    #[inline(always)]
    fn le(self, other: Self) -> bool {
        self <= other
    }
    #[inline(always)]
    fn select(mask: bool, a: Self, b: Self) -> Self {
        if mask { a } else { b }
    }
    #[inline(always)]
    fn to_int(self) -> u32 {
        // `cvttps2dq`: NaN and values outside the i32 range give i32::MIN.
        if self.is_nan() || !(-2_147_483_648.0..2_147_483_648.0).contains(&self) {
            i32::MIN as u32
        } else {
            self as i32 as u32
        }
    }
    #[inline(always)]
    fn to_bits(self) -> u32 {
        f32::to_bits(self)
    }
    #[inline(always)]
    fn store(self, to: &mut [f32]) {
        to[0] = self;
    }
}

/// An instruction set's token: the one way to make its lanes from plain numbers.
pub(crate) trait Simd: Copy {
    /// Lanes per register.
    const LANES: usize;
    /// Vector registers the instruction set has (16, or 32 with AVX-512): how many lanes'
    /// worth of constants a loop can keep at hand.
    const REGISTERS: usize;
    /// `f32` lanes.
    type F: Real<Int = Self::I>;
    /// `u32` lanes.
    type I: Int<Real = Self::F>;
    /// Every lane `x`.
    fn splat(self, x: f32) -> Self::F;
    /// Every lane `x`.
    fn splat_int(self, x: u32) -> Self::I;
    /// `from[..LANES]`.
    ///
    /// # Panics
    /// If `from` is shorter than the lane count.
    fn load(self, from: &[f32]) -> Self::F;
    /// `from[..LANES]`.
    ///
    /// # Panics
    /// If `from` is shorter than the lane count.
    fn load_int(self, from: &[u32]) -> Self::I;
    /// Lane 0 of `v`.
    fn first_lane(self, v: Self::I) -> u32;
    /// Whether every lane of `v` is below `bound` (unsigned).
    fn all_below(self, v: Self::I, bound: u32) -> bool;
    /// `from[lane % LANES]` for each lane of `lanes`: one load and one permute. The one
    /// unchecked read behind [`pick`](Simd::pick) and [`pick_at`](Simd::pick_at).
    ///
    /// # Safety
    /// `from[..LANES]` must be readable.
    unsafe fn pick_from(self, from: *const f32, lanes: Self::I) -> Self::F;
    /// `window[lane % LANES]` for each lane of `lanes`: one load and one permute.
    ///
    /// # Panics
    /// If `window` is shorter than the lane count.
    #[inline(always)]
    fn pick(self, window: &[f32], lanes: Self::I) -> Self::F {
        let window = &window[..Self::LANES];
        // SAFETY: `window` holds `LANES` numbers.
        unsafe { self.pick_from(window.as_ptr(), lanes) }
    }
    /// [`pick`](Simd::pick) from `window[at + offset..]` for each of `offsets` (into `out`),
    /// checking the bounds once for all of them: an offset above `reach` reads at `reach`.
    ///
    /// # Panics
    /// If `window` is shorter than `at + reach + LANES`.
    #[inline(always)]
    fn pick_at(
        self,
        window: &[f32],
        at: usize,
        offsets: &[usize],
        reach: usize,
        lanes: Self::I,
        out: &mut [Self::F],
    ) {
        let window = pick_span(window, at, reach, Self::LANES);
        for (o, &offset) in out.iter_mut().zip(offsets) {
            // SAFETY: `offset.min(reach) + LANES <= window.len()` (`pick_span`).
            *o = unsafe { self.pick_from(window.as_ptr().add(offset.min(reach)), lanes) };
        }
    }
}

/// `window[at .. at + reach + lanes]`: the part of `window` that [`Simd::pick_at`] reads.
///
/// # Panics
/// If `window` is shorter.
#[inline(always)]
fn pick_span(window: &[f32], at: usize, reach: usize, lanes: usize) -> &[f32] {
    let end = at
        .checked_add(reach)
        .and_then(|e| e.checked_add(lanes))
        .filter(|&e| e <= window.len());
    match end {
        Some(end) => &window[at..end],
        None => panic!("pick_at past the window's end"),
    }
}

/// The scalar twin: one lane, plain `f32` and `u32`. Always available.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scalar;

impl Simd for Scalar {
    const LANES: usize = 1;
    const REGISTERS: usize = 16;
    type F = f32;
    type I = u32;
    #[inline(always)]
    fn splat(self, x: f32) -> f32 {
        x
    }
    #[inline(always)]
    fn splat_int(self, x: u32) -> u32 {
        x
    }
    #[inline(always)]
    fn load(self, from: &[f32]) -> f32 {
        from[0]
    }
    #[inline(always)]
    fn load_int(self, from: &[u32]) -> u32 {
        from[0]
    }
    #[inline(always)]
    fn first_lane(self, v: u32) -> u32 {
        v
    }
    #[inline(always)]
    fn all_below(self, v: u32, bound: u32) -> bool {
        v < bound
    }
    #[inline(always)]
    unsafe fn pick_from(self, from: *const f32, _lanes: u32) -> f32 {
        // SAFETY: the caller's.
        unsafe { *from }
    }
}

/// A computation over lanes, written once for every instruction set. `run` and everything it
/// calls must be `#[inline(always)]`, so that it is compiled inside the target-feature function
/// [`Isa::run`] calls.
pub(crate) trait Kernel {
    /// What the computation returns.
    type Output;
    /// Runs the computation with the lanes of `simd`.
    fn run<S: Simd>(self, simd: S) -> Self::Output;
}

/// Plain Rust work over arrays of `f32` lanes, written without intrinsics, for
/// [`SimdLevel::vectorise`] to compile once more for a level's vector instructions: a loop
/// over `[f32; 8]` then takes one AVX2 register an operation instead of two SSE ones.
///
/// Mark [`run`](Self::run), and everything it calls, `#[inline(always)]`: the work is compiled
/// for the wider instructions only where it is inlined into `vectorise`'s target-feature
/// function (a call that is not inlined runs the plain build).
pub trait Vectorised {
    /// What the work returns.
    type Output;
    /// Does the work.
    fn run(self) -> Self::Output;
}

/// A SIMD instruction level: the lanes the grid path's kernels run on, and the instructions
/// [`SimdLevel::vectorise`] compiles plain work for. Every level gives bit-identical results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SimdLevel {
    /// The widest this CPU has: AVX-512, else AVX2 (both with FMA), else the scalar twin.
    #[default]
    Auto,
    /// Sixteen lanes, AVX-512F with AVX2 and FMA.
    Avx512,
    /// Eight lanes, AVX2 and FMA.
    Avx2,
    /// One lane: the scalar twin, the reference the vector kernels are tested against.
    Scalar,
}

impl SimdLevel {
    /// Every level, widest first (`Auto` excluded).
    pub const ALL: [SimdLevel; 3] = [SimdLevel::Avx512, SimdLevel::Avx2, SimdLevel::Scalar];

    /// Whether this CPU has the level's instructions (`Auto` and `Scalar` always do).
    pub fn is_available(self) -> bool {
        Isa::detect(self).is_some()
    }

    /// Lanes per register of the level `Auto` picks, or of this one; `None` where this CPU
    /// lacks it.
    pub fn lanes(self) -> Option<usize> {
        Isa::detect(self).map(Isa::lanes)
    }

    /// Runs `work` compiled for this level's instructions (AVX2 and FMA; AVX-512F with them;
    /// `Scalar`: the plain build; `Auto`: the widest this CPU has), or hands it back, not run,
    /// where the CPU lacks them.
    ///
    /// Every build gives the same bits: Rust rounds each `f32` and `f64` operation on its own
    /// whatever the instructions (it never fuses a multiply and an add unless asked, and
    /// `mul_add` rounds once everywhere), so only how many lanes an instruction holds changes.
    #[inline]
    pub fn vectorise<W: Vectorised>(self, work: W) -> Result<W::Output, W> {
        match Isa::detect(self) {
            Some(isa) => Ok(isa.vectorise(work)),
            None => Err(work),
        }
    }
}

/// A kernel this CPU can run. Only [`Isa::detect`] makes one, after runtime feature detection,
/// so holding an `Isa` proves the CPU has its instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Isa(Kind);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Scalar {
        fma: bool,
    },
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Isa {
    /// The instruction set of `level` on this CPU; `None` if the CPU lacks it.
    #[inline]
    pub fn detect(level: SimdLevel) -> Option<Isa> {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let fma = has!("fma");
            let avx2 = has!("avx2") && fma;
            let avx512 = avx2 && has!("avx512f");
            match level {
                SimdLevel::Auto if avx512 => Some(Isa(Kind::Avx512)),
                SimdLevel::Auto if avx2 => Some(Isa(Kind::Avx2)),
                SimdLevel::Avx512 => avx512.then_some(Isa(Kind::Avx512)),
                SimdLevel::Avx2 => avx2.then_some(Isa(Kind::Avx2)),
                SimdLevel::Auto | SimdLevel::Scalar => Some(Isa(Kind::Scalar { fma })),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        match level {
            SimdLevel::Auto | SimdLevel::Scalar => Some(Isa(Kind::Scalar { fma: false })),
            SimdLevel::Avx512 | SimdLevel::Avx2 => None,
        }
    }

    /// Lanes per register.
    pub fn lanes(self) -> usize {
        match self.0 {
            Kind::Scalar { .. } => 1,
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2 => 8,
            #[cfg(target_arch = "x86_64")]
            Kind::Avx512 => 16,
        }
    }

    /// Runs `work` compiled for this instruction set.
    #[inline]
    fn vectorise<W: Vectorised>(self, work: W) -> W::Output {
        match self.0 {
            Kind::Scalar { .. } => work.run(),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `detect` found AVX2 and FMA before building this Isa.
            Kind::Avx2 => unsafe { x86::vectorised_avx2(work) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `detect` found AVX-512F, AVX2 and FMA before building this Isa.
            Kind::Avx512 => unsafe { x86::vectorised_avx512(work) },
        }
    }

    /// Runs `kernel` with this instruction set's lanes.
    pub fn run<K: Kernel>(self, kernel: K) -> K::Output {
        match self.0 {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `detect` found FMA before building this Isa.
            Kind::Scalar { fma: true } => unsafe { x86::scalar_with_fma(kernel) },
            Kind::Scalar { .. } => kernel.run(Scalar),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `detect` found AVX2 and FMA before building this Isa.
            Kind::Avx2 => unsafe { x86::avx2(kernel) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `detect` found AVX-512F, AVX2 and FMA before building this Isa.
            Kind::Avx512 => unsafe { x86::avx512(kernel) },
        }
    }
}
