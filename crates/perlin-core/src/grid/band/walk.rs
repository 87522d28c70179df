//! A band's walk: its blocks of columns, in groups that keep their constants in registers, down
//! the band's rows, each sample added to the sums or, for the last layer of a plain fill,
//! finished straight into the caller's rows.

use super::coefficients::sample;
use super::layout::TapRows;
use crate::grid::axis::Axis;
use crate::grid::finish::store_unpadded;
use crate::grid::shape;
use crate::simd::{Real, Simd};

/// The columns of one band, and what their constants come from.
pub(super) struct BandColumns<'a> {
    pub taps: &'a TapRows<'a>,
    pub axis: &'a Axis,
    pub y0: i64,
    pub curve: RowCurve<'a>,
    /// Padded samples per row.
    pub width: usize,
    /// Where groups of blocks must end: the padded row, or the caller's row when finishing.
    pub reach: usize,
}

impl BandColumns<'_> {
    /// Every block of the band's columns, in groups where they fit (see [`group`]).
    #[inline(always)]
    pub(super) fn walk<
        S: Simd,
        const BASE: u8,
        const MODE: u8,
        const SLOPES: bool,
        const FINISH: bool,
        const FRESH: bool,
        const UNIT: bool,
    >(
        &self,
        s: S,
        walk: &mut Walk<S>,
    ) {
        let lanes = S::LANES;
        let stride = group::<S>(SLOPES) * lanes;
        let grouped = self.reach / stride * stride;
        if FINISH {
            // The blocks past the groups first, right to left: a row's lanes past the caller's
            // row land on the next row's first columns, which the blocks left of it and the
            // groups write afterwards (see `Walk::finish_alone`).
            for c in (grouped..self.reach).step_by(lanes).rev() {
                let k = self.constants::<S, BASE, SLOPES, UNIT>(s, c);
                walk.finish_alone::<MODE, FRESH, UNIT>(s, c, k, self.curve);
            }
        }
        for c in (0..grouped).step_by(stride) {
            match group::<S>(SLOPES) {
                1 => walk.rows::<MODE, SLOPES, FINISH, FRESH, UNIT, 1>(
                    s,
                    c,
                    [self.constants::<S, BASE, SLOPES, UNIT>(s, c)],
                    self.curve,
                ),
                2 => walk.rows::<MODE, SLOPES, FINISH, FRESH, UNIT, 2>(
                    s,
                    c,
                    [
                        self.constants::<S, BASE, SLOPES, UNIT>(s, c),
                        self.constants::<S, BASE, SLOPES, UNIT>(s, c + lanes),
                    ],
                    self.curve,
                ),
                _ => walk.rows::<MODE, SLOPES, FINISH, FRESH, UNIT, 4>(
                    s,
                    c,
                    [
                        self.constants::<S, BASE, SLOPES, UNIT>(s, c),
                        self.constants::<S, BASE, SLOPES, UNIT>(s, c + lanes),
                        self.constants::<S, BASE, SLOPES, UNIT>(s, c + 2 * lanes),
                        self.constants::<S, BASE, SLOPES, UNIT>(s, c + 3 * lanes),
                    ],
                    self.curve,
                ),
            }
        }
        if !FINISH {
            for c in (grouped..self.width).step_by(lanes) {
                let k = [self.constants::<S, BASE, SLOPES, UNIT>(s, c)];
                walk.rows::<MODE, SLOPES, FINISH, FRESH, UNIT, 1>(s, c, k, self.curve);
            }
        }
    }

    /// The constants of the block at column `c`. For a `UNIT` layer, `T0 + 0`: then no sample
    /// is −0, and each is already what `n · 1 + 0` would round to (the sign of a zero `T0`
    /// matters only where `ty · T1` is zero too, and there only to the sign of a zero sample).
    #[inline(always)]
    fn constants<S: Simd, const BASE: u8, const SLOPES: bool, const UNIT: bool>(
        &self,
        s: S,
        c: usize,
    ) -> [S::F; 8] {
        let mut k = self
            .taps
            .constants::<S, BASE, SLOPES>(s, self.axis, c, self.y0);
        if UNIT {
            k[0] = k[0] + s.splat(0.0);
        }
        k
    }
}

/// A band's rows of the per-row curve: offset `ty`, curve `v(ty)` and its slope.
#[derive(Clone, Copy)]
pub(super) struct RowCurve<'a> {
    pub frac: &'a [f32],
    pub fade: &'a [f32],
    pub dfade: &'a [f32],
}

/// Blocks of columns a band walks down at once: as many as keep their constants (four
/// registers a block, eight with slopes) in registers beside the row's numbers.
#[inline(always)]
const fn group<S: Simd>(slopes: bool) -> usize {
    let per_block = if slopes { 8 } else { 4 };
    let blocks = S::REGISTERS / (2 * per_block);
    if blocks >= 4 {
        4
    } else if blocks >= 2 {
        2
    } else {
        1
    }
}

/// Where a band's samples go, and the layer's weights.
pub(super) struct Walk<'a, S: Simd> {
    /// The sums of the band's rows, `width` apart.
    pub value: &'a mut [f32],
    pub dx: &'a mut [f32],
    pub dy: &'a mut [f32],
    pub width: usize,
    /// When finishing: the caller's rows of the band, `finished_width` apart.
    pub finished: &'a mut [f32],
    pub finished_width: usize,
    pub amplitude: S::F,
    pub amplitude_frequency: S::F,
    pub scale: S::F,
}

impl<S: Simd> Walk<'_, S> {
    /// Walks `N` blocks of columns from column `c` down the band's rows, with the blocks'
    /// constants `k`. When finishing, the blocks lie inside the caller's row.
    #[inline(always)]
    fn rows<
        const MODE: u8,
        const SLOPES: bool,
        const FINISH: bool,
        const FRESH: bool,
        const UNIT: bool,
        const N: usize,
    >(
        &mut self,
        s: S,
        c: usize,
        k: [[S::F; 8]; N],
        curve: RowCurve,
    ) {
        let lanes = S::LANES;
        let span = c..c + N * lanes;
        let amplitude = self.amplitude;
        if FINISH && FRESH {
            // The only octave: no sums to read.
            let scale = self.scale;
            let out = self.finished.chunks_exact_mut(self.finished_width.max(1));
            for ((&ty, &v), out) in curve.frac.iter().zip(curve.fade).zip(out) {
                let (ty, v) = (s.splat(ty), s.splat(v));
                for (b, k) in k.iter().enumerate() {
                    let [n, ..] = sample(*k, ty, v, v);
                    let (shaped, _) = shape::<S, MODE>(s, n);
                    let value = finished::<S, FRESH, UNIT>(s, &[], shaped, amplitude, scale);
                    value.store(&mut out[span.clone()][b * lanes..]);
                }
            }
        } else if FINISH {
            let scale = self.scale;
            let rows = self.value.chunks_exact(self.width);
            let out = self.finished.chunks_exact_mut(self.finished_width.max(1));
            for ((&ty, &v), (sums, out)) in curve.frac.iter().zip(curve.fade).zip(rows.zip(out)) {
                let (ty, v) = (s.splat(ty), s.splat(v));
                let sums = &sums[span.clone()];
                for (b, k) in k.iter().enumerate() {
                    let [n, ..] = sample(*k, ty, v, v);
                    let (shaped, _) = shape::<S, MODE>(s, n);
                    let sums = &sums[b * lanes..];
                    let value = finished::<S, FRESH, UNIT>(s, sums, shaped, amplitude, scale);
                    value.store(&mut out[span.clone()][b * lanes..]);
                }
            }
        } else if SLOPES {
            let amplitude_frequency = self.amplitude_frequency;
            let rows = self
                .value
                .chunks_exact_mut(self.width)
                .zip(self.dx.chunks_exact_mut(self.width))
                .zip(self.dy.chunks_exact_mut(self.width));
            let curve = curve.frac.iter().zip(curve.fade).zip(curve.dfade);
            for (((&ty, &v), &dv), ((value, dx), dy)) in curve.zip(rows) {
                let (ty, v, dv) = (s.splat(ty), s.splat(v), s.splat(dv));
                let (value, dx, dy) = (
                    &mut value[span.clone()],
                    &mut dx[span.clone()],
                    &mut dy[span.clone()],
                );
                for (b, k) in k.iter().enumerate() {
                    let at = b * lanes;
                    let [n, dn_dx, dn_dy] = sample(*k, ty, v, dv);
                    let (shaped, slope) = shape::<S, MODE>(s, n);
                    let kk = slope * amplitude_frequency;
                    add::<S, FRESH>(s, &mut value[at..], shaped, amplitude);
                    add::<S, FRESH>(s, &mut dx[at..], dn_dx, kk);
                    add::<S, FRESH>(s, &mut dy[at..], dn_dy, kk);
                }
            }
        } else {
            let rows = self.value.chunks_exact_mut(self.width);
            for ((&ty, &v), value) in curve.frac.iter().zip(curve.fade).zip(rows) {
                let (ty, v) = (s.splat(ty), s.splat(v));
                let value = &mut value[span.clone()];
                for (b, k) in k.iter().enumerate() {
                    let [n, ..] = sample(*k, ty, v, v);
                    let (shaped, _) = shape::<S, MODE>(s, n);
                    add::<S, FRESH>(s, &mut value[b * lanes..], shaped, amplitude);
                }
            }
        }
    }

    /// A finishing block walked on its own down the band (one of the few past the groups, the
    /// last of which may run past the caller's row), before the groups and the lone blocks
    /// left of it. Each row's lanes are stored whole: those past the caller's row land on the
    /// first columns of the next rows, which those write afterwards. Only on the band's last
    /// row, where they would land past its end, are they dropped.
    #[inline(always)]
    fn finish_alone<const MODE: u8, const FRESH: bool, const UNIT: bool>(
        &mut self,
        s: S,
        c: usize,
        k: [S::F; 8],
        curve: RowCurve,
    ) {
        let (lanes, to_width) = (S::LANES, self.finished_width.max(1));
        let end = self.finished.len();
        // Rows `..whole` store their lanes whole (`r · to_width + c + lanes <= end`).
        let whole = match end.checked_sub(c + lanes) {
            Some(room) => room / to_width + 1,
            None => 0,
        };
        let rows = curve.frac.iter().zip(curve.fade).enumerate();
        for (r, (&ty, &v)) in rows.clone().take(whole) {
            let value = self.finished_at::<MODE, FRESH, UNIT>(s, k, r, c, ty, v);
            value.store(&mut self.finished[r * to_width + c..]);
        }
        for (r, (&ty, &v)) in rows.skip(whole) {
            let value = self.finished_at::<MODE, FRESH, UNIT>(s, k, r, c, ty, v);
            store_unpadded::<S>(value, &mut self.finished[r * to_width..], c);
        }
    }

    /// The finished value of the block at column `c` (constants `k`) on the band's row `r`
    /// (offset `ty`, curve `v`): its shaped term on top of the row's sums (see [`finished`]).
    #[inline(always)]
    fn finished_at<const MODE: u8, const FRESH: bool, const UNIT: bool>(
        &self,
        s: S,
        k: [S::F; 8],
        r: usize,
        c: usize,
        ty: f32,
        v: f32,
    ) -> S::F {
        let sums = if FRESH {
            &[][..]
        } else {
            &self.value[r * self.width + c..]
        };
        let [n, ..] = sample(k, s.splat(ty), s.splat(v), s.splat(v));
        let (shaped, _) = shape::<S, MODE>(s, n);
        finished::<S, FRESH, UNIT>(s, sums, shaped, self.amplitude, self.scale)
    }
}

/// The finished value of a sample whose shaped term is `term`: its sum with `sum[..LANES]`
/// (see [`total`]) times `scale`, or for a `UNIT` layer the term itself (see
/// `BandColumns::constants`).
#[inline(always)]
fn finished<S: Simd, const FRESH: bool, const UNIT: bool>(
    s: S,
    sum: &[f32],
    term: S::F,
    weight: S::F,
    scale: S::F,
) -> S::F {
    if UNIT {
        term
    } else {
        total::<S, FRESH>(s, sum, term, weight) * scale
    }
}

/// `sum[..LANES] += term · weight`, rounded once; into `FRESH` sums, `term · weight + 0` (the
/// same bits as adding to zeroed sums, without reading them).
#[inline(always)]
fn add<S: Simd, const FRESH: bool>(s: S, sum: &mut [f32], term: S::F, weight: S::F) {
    total::<S, FRESH>(s, sum, term, weight).store(sum);
}

/// `sum[..LANES] + term · weight` (or `term · weight + 0` into `FRESH` sums), rounded once.
#[inline(always)]
fn total<S: Simd, const FRESH: bool>(s: S, sum: &[f32], term: S::F, weight: S::F) -> S::F {
    if FRESH {
        term.mul_add(weight, s.splat(0.0))
    } else {
        term.mul_add(weight, s.load(sum))
    }
}
