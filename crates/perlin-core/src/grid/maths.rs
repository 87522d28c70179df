//! The few functions the grid kernels need beyond `+ − × ÷`, written once over [`Simd`] lanes so
//! the scalar twin and the vector kernels compute them bit for bit alike: fade curves, sine and
//! cosine of an angle in turns, powers through `exp2 ∘ log2`, and the lattice integer hash.
//!
//! Each is a short polynomial after an exact range reduction, accurate to a few units in the last
//! place of `f32` (checked against `f64` libm in the tests below).

use crate::fade::Fade;
use crate::lattice::{MIX2_COLUMN, MIX2_FINAL, MIX2_ROW};
use crate::simd::{Int, Real, Simd};

/// `s(t)` and `s′(t)` of a fade curve, in the operation order of [`Fade::apply`].
#[inline(always)]
pub(crate) fn fade<S: Simd>(s: S, fade: Fade, t: S::F) -> (S::F, S::F) {
    match fade {
        Fade::Linear => (t, s.splat(1.0)),
        Fade::Hermite => (
            t * t * (s.splat(3.0) - s.splat(2.0) * t),
            s.splat(6.0) * t * (s.splat(1.0) - t),
        ),
        Fade::Quintic => (
            t * t * t * (t * (t * s.splat(6.0) - s.splat(15.0)) + s.splat(10.0)),
            s.splat(30.0) * t * t * (t * (t - s.splat(2.0)) + s.splat(1.0)),
        ),
    }
}

/// Value noise's cosine curve `c(t) = (1 − cos πt)/2` and its slope `(π/2)·sin πt`.
#[inline(always)]
pub(crate) fn cosine_fade<S: Simd>(s: S, t: S::F) -> (S::F, S::F) {
    let (sin, cos) = sin_cos_turns(s, t * s.splat(0.5));
    (
        s.splat(0.5) - s.splat(0.5) * cos,
        s.splat(std::f32::consts::FRAC_PI_2) * sin,
    )
}

/// `(sin 2πx, cos 2πx)` for `x` in turns, `|x|` up to a few thousand.
///
/// `x` is reduced to `r ∈ [−⅛, ⅛]` turn around the nearest quarter turn `q/4` (exactly: `q/4` and
/// the subtraction are exact in `f32` for such `x`), both functions of `θ = 2πr` come from Taylor
/// polynomials (truncation below 4e−7), and the quadrant `q mod 4` swaps and negates them.
#[inline(always)]
pub(crate) fn sin_cos_turns<S: Simd>(s: S, x: S::F) -> (S::F, S::F) {
    let quarters = (x * s.splat(4.0)).round();
    let r = x - quarters * s.splat(0.25);
    let theta = r * s.splat(std::f32::consts::TAU);
    let z = theta * theta;
    let sin = theta
        * z.mul_add(
            z.mul_add(
                z.mul_add(s.splat(-1.0 / 5040.0), s.splat(1.0 / 120.0)),
                s.splat(-1.0 / 6.0),
            ),
            s.splat(1.0),
        );
    let cos = z.mul_add(
        z.mul_add(
            z.mul_add(
                z.mul_add(s.splat(1.0 / 40320.0), s.splat(-1.0 / 720.0)),
                s.splat(1.0 / 24.0),
            ),
            s.splat(-0.5),
        ),
        s.splat(1.0),
    );
    // Quadrant q: (sin, cos) of θ + q·90° is (s, c), (c, −s), (−s, −c), (−c, s).
    let q = quarters.to_int();
    let odd = (q & s.splat_int(1)).to_real();
    let swap = s.splat(0.5).lt(odd);
    let (sin, cos) = (S::F::select(swap, cos, sin), S::F::select(swap, sin, cos));
    let sin_sign = (q & s.splat_int(2)).shl(30);
    let cos_sign = (q.add(s.splat_int(1)) & s.splat_int(2)).shl(30);
    (
        (sin.to_bits() ^ sin_sign).to_bits(),
        (cos.to_bits() ^ cos_sign).to_bits(),
    )
}

/// `log₂ x` for `x ≥` the smallest normal `f32` (callers clamp).
///
/// `x = 2ᵉ·m` with `m ∈ [√½, √2)`, then `ln m = 2·atanh z`, `z = (m − 1)/(m + 1)`, `|z| < 0.172`,
/// as an odd series to `z⁹` (truncation below 3e−9).
#[inline(always)]
pub(crate) fn log2<S: Simd>(s: S, x: S::F) -> S::F {
    let bits = x.to_bits();
    // The mantissa with the exponent of 1.0, and the unbiased exponent.
    let mantissa = (bits & s.splat_int(0x007f_ffff)) | s.splat_int(0x3f80_0000);
    let mut m = mantissa.to_bits();
    let mut e = bits.shr(23).to_real() - s.splat(127.0);
    let high = s.splat(std::f32::consts::SQRT_2).le(m);
    m = S::F::select(high, m * s.splat(0.5), m);
    e = S::F::select(high, e + s.splat(1.0), e);
    let z = (m - s.splat(1.0)) / (m + s.splat(1.0));
    let z2 = z * z;
    let series = z2.mul_add(
        z2.mul_add(
            z2.mul_add(
                z2.mul_add(s.splat(1.0 / 9.0), s.splat(1.0 / 7.0)),
                s.splat(1.0 / 5.0),
            ),
            s.splat(1.0 / 3.0),
        ),
        s.splat(1.0),
    );
    let ln_m = s.splat(2.0) * z * series;
    ln_m.mul_add(s.splat(std::f32::consts::LOG2_E), e)
}

/// `2ʸ` for `y` clamped to `[−126, 127]`: `y = n + f`, `n` the nearest integer, `|f| ≤ ½`, then
/// `2ᶠ = e^(f·ln 2)` as a Taylor polynomial to the 7th power (truncation below 2e−9) and `2ⁿ`
/// built in the exponent bits.
#[inline(always)]
pub(crate) fn exp2<S: Simd>(s: S, y: S::F) -> S::F {
    let y = y.max(s.splat(-126.0)).min(s.splat(127.0));
    let n = y.round();
    let g = (y - n) * s.splat(std::f32::consts::LN_2);
    let mut p = s.splat(1.0 / 5040.0);
    for c in [
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        0.5,
        1.0,
        1.0,
    ] {
        p = p.mul_add(g, s.splat(c));
    }
    let scale = n.to_int().add(s.splat_int(127)).shl(23).to_bits();
    p * scale
}

/// `(|v|^c · sign v, c·|v|^(c−1))`: contrast applied to `v`, and its slope. `|v|` is clamped to
/// 1e−30 first, so the slope stays finite where `c < 1`.
#[inline(always)]
pub(crate) fn signed_pow<S: Simd>(s: S, v: S::F, c: f32) -> (S::F, S::F) {
    // `max` keeps its second operand when the first is NaN: NaN stays NaN.
    let magnitude = s.splat(1.0e-30).max(v.abs());
    let powered = exp2(s, log2(s, magnitude) * s.splat(c));
    // log₂ reads the bits, which turns NaN into a number: `v − v` (0, or NaN) puts it back.
    #[allow(clippy::eq_op)] // 0 for numbers, NaN for NaN: on purpose.
    let nan = v - v;
    (
        powered * v.sign() + nan,
        s.splat(c) * powered / magnitude + nan,
    )
}

/// `v` rotated left by 16 bits.
#[inline(always)]
fn rotl16<I: Int>(v: I) -> I {
    v.shl(16) | v.shr(16)
}

/// The lattice hash of [`Hashing::Integer`](crate::Hashing::Integer) (see
/// [`crate::lattice::mix2`]) on lanes: a multiply–xor–rotate mix of two 32-bit coordinates and
/// two seed keys.
#[inline(always)]
pub(crate) fn mix2<S: Simd>(s: S, keys: [u32; 2], x: S::I, y: S::I) -> S::I {
    let a = (x ^ s.splat_int(keys[0])).mul(s.splat_int(MIX2_COLUMN));
    mix2_row(s, keys[1], a, y)
}

/// The rest of [`mix2`] from the column part `a` (see [`crate::lattice::mix2_row`]).
#[inline(always)]
pub(crate) fn mix2_row<S: Simd>(s: S, key: u32, a: S::I, y: S::I) -> S::I {
    let b = (y ^ s.splat_int(key)) ^ rotl16(a);
    let b = b.mul(s.splat_int(MIX2_ROW));
    (a ^ rotl16(b)).mul(s.splat_int(MIX2_FINAL))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simd::Scalar;

    #[test]
    fn sin_cos_in_turns_match_libm() {
        let mut worst: f64 = 0.0;
        for i in -40_000..=40_000 {
            let x = i as f32 * 0.000_173;
            let (s, c) = sin_cos_turns(Scalar, x);
            let a = std::f64::consts::TAU * x as f64;
            worst = worst.max((s as f64 - a.sin()).abs().max((c as f64 - a.cos()).abs()));
        }
        assert!(worst < 1.5e-6, "worst error {worst}");
    }

    #[test]
    fn powers_match_libm() {
        let mut worst: f64 = 0.0;
        for c in [0.5f32, 1.3, 2.0, 3.7] {
            for i in 1..=20_000 {
                let v = i as f32 / 20_000.0;
                let (p, slope) = signed_pow(Scalar, -v, c);
                let expected = -(v as f64).powf(c as f64);
                let expected_slope = c as f64 * (v as f64).powf(c as f64 - 1.0);
                worst = worst.max(((p as f64 - expected) / expected).abs());
                worst = worst.max(((slope as f64 - expected_slope) / expected_slope).abs());
            }
        }
        // f32 carries log₂ v (up to ~14 here) to about 1e−6, times the exponent.
        assert!(worst < 4e-6, "worst relative error {worst}");
        assert_eq!(exp2(Scalar, 3.0), 8.0);
        assert!((log2(Scalar, 1024.0) - 10.0).abs() < 1e-6);
    }

    #[test]
    fn lane_hash_is_the_scalar_hash() {
        let keys = [0x1234_5678, 0x9abc_def0];
        for (x, y) in [(0u32, 0u32), (5, 9), (u32::MAX, 7), (123_456, 987_654)] {
            let expected = crate::lattice::mix2([keys[0], keys[1], 0, 0], x as i64, y as i64);
            assert_eq!(mix2(Scalar, keys, x, y), expected);
        }
    }
}
