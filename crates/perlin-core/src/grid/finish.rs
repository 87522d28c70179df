//! The per-sample steps between the octave sums and the output: the warp field's displacement and
//! Jacobian, then normalisation, contrast, noise size and the chain rule through the warp.

use super::maths;
use crate::simd::{Kernel, Real, Simd};

/// Turns the two warp noises `q` (values and gradients per input unit) into the displacement
/// `A·q` and the Jacobian `I + A·∇q` of the warped point.
pub(super) struct WarpField<'a> {
    pub amplitude: f32,
    /// `[value, ∂/∂x, ∂/∂y]` of the x and the y noise.
    pub q: [[&'a [f32]; 3]; 2],
    pub displacement: [&'a mut [f32]; 2],
    /// `[∂x′/∂x, ∂x′/∂y, ∂y′/∂x, ∂y′/∂y]`; empty when no gradient is wanted.
    pub jacobian: [&'a mut [f32]; 4],
}

impl Kernel for WarpField<'_> {
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(self, s: S) {
        let a = s.splat(self.amplitude);
        let one = s.splat(1.0);
        let slopes = !self.jacobian[0].is_empty();
        let [dx, dy] = self.displacement;
        let [j00, j01, j10, j11] = self.jacobian;
        for i in (0..dx.len()).step_by(S::LANES) {
            let [qx, qy] = self.q;
            (a * s.load(&qx[0][i..])).store(&mut dx[i..]);
            (a * s.load(&qy[0][i..])).store(&mut dy[i..]);
            if slopes {
                a.mul_add(s.load(&qx[1][i..]), one).store(&mut j00[i..]);
                (a * s.load(&qx[2][i..])).store(&mut j01[i..]);
                (a * s.load(&qy[1][i..])).store(&mut j10[i..]);
                a.mul_add(s.load(&qy[2][i..]), one).store(&mut j11[i..]);
            }
        }
    }
}

/// Normalises a strip of octave sums, applies contrast and noise size, and carries the gradient
/// through the warp's Jacobian.
pub(super) struct Finish<'a> {
    /// `1 / Σ amplitudes`.
    pub inverse_norm: f32,
    /// `noise_size / Σ amplitudes`, rounded once from `f64`: the whole of the common case.
    pub scale: f32,
    pub contrast: f32,
    pub noise_size: f32,
    /// `[value, ∂/∂x, ∂/∂y]` sums (the gradient ones empty when not wanted).
    pub sums: [&'a [f32]; 3],
    /// The warp's Jacobian, if any.
    pub jacobian: Option<[&'a [f32]; 4]>,
    /// `[value, ∂/∂x, ∂/∂y]` out, padded rows like the sums.
    pub out: [&'a mut [f32]; 3],
    /// Where the values go instead of `out[0]`, if set, so that they need no copy.
    pub values: Option<Unpadded<'a>>,
}

/// The caller's rows of a strip: `width` samples each, where the strip's rows hold `padded`.
/// (`rows` starts at the strip's first row.)
pub(super) struct Unpadded<'a> {
    pub rows: &'a mut [f32],
    pub width: usize,
    pub padded: usize,
}

/// Stores `v` at `row[column..]`, dropping the lanes past the row's end (the padding).
#[inline(always)]
pub(super) fn store_unpadded<S: Simd>(v: S::F, row: &mut [f32], column: usize) {
    if column + S::LANES <= row.len() {
        v.store(&mut row[column..]);
    } else if column < row.len() {
        let mut lanes = [0f32; crate::simd::MAX_LANES];
        v.store(&mut lanes);
        for (to, from) in row[column..].iter_mut().zip(lanes) {
            *to = from;
        }
    }
}

impl Kernel for Finish<'_> {
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(self, s: S) {
        // Each case its own loop, so nothing is decided per sample.
        match (self.contrast == 1.0, self.jacobian.is_some()) {
            (true, false) => self.samples::<S, true, false>(s),
            (true, true) => self.samples::<S, true, true>(s),
            (false, false) => self.samples::<S, false, false>(s),
            (false, true) => self.samples::<S, false, true>(s),
        }
    }
}

impl Finish<'_> {
    #[inline(always)]
    fn samples<S: Simd, const PLAIN: bool, const WARPED: bool>(self, s: S) {
        let [value, sx, sy] = self.sums;
        let [out, gx, gy] = self.out;
        let slopes = !sx.is_empty();
        let scale = s.splat(self.scale);
        let (inverse_norm, size) = (s.splat(self.inverse_norm), s.splat(self.noise_size));
        let [j00, j01, j10, j11] = self.jacobian.unwrap_or([&[]; 4]);
        let mut direct = self.values;
        // Row by row, so that a row's values can go straight to the caller's unpadded row.
        let padded = direct.as_ref().map_or(value.len(), |d| d.padded).max(1);
        for row in 0..value.len() / padded {
            let mut to = direct
                .as_mut()
                .and_then(|d| d.rows.get_mut(row * d.width..(row + 1) * d.width));
            for column in (0..padded).step_by(S::LANES) {
                let i = row * padded + column;
                let sum = s.load(&value[i..]);
                let (v, k) = if PLAIN {
                    (sum * scale, scale)
                } else {
                    let (shaped, slope) = maths::signed_pow(s, sum * inverse_norm, self.contrast);
                    (shaped * size, slope * size * inverse_norm)
                };
                match to.as_deref_mut() {
                    Some(to) => store_unpadded::<S>(v, to, column),
                    None => v.store(&mut out[i..]),
                }
                if slopes {
                    let (mut dx, mut dy) = (s.load(&sx[i..]), s.load(&sy[i..]));
                    if WARPED {
                        (dx, dy) = (
                            dx.mul_add(s.load(&j00[i..]), dy * s.load(&j10[i..])),
                            dx.mul_add(s.load(&j01[i..]), dy * s.load(&j11[i..])),
                        );
                    }
                    (dx * k).store(&mut gx[i..]);
                    (dy * k).store(&mut gy[i..]);
                }
            }
        }
    }
}
