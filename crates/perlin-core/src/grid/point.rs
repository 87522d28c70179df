//! Per-point kernels: one sample per lane, for sample points that are not a regular grid in the
//! layer's lattice (domain-warped grids) and for simplex noise, whose skewed lattice has no
//! bands.
//!
//! A sample's lattice coordinate is split exactly: the column's (row's) cell and offset come from
//! [`Axis`] (computed in `f64`), and the warp displacement, at most a few cells, is added to the
//! offset in `f32`: `x = cell + (frac + displacement · frequency)`. So precision does not fall
//! with distance from the origin. Lattice data comes from a window of lattice points or is
//! hashed lane by lane ([`PointSource`]).

use super::axis::{Axis, SKEW, UNSKEW};
use super::lattice::PointSource;
use super::{Sums, Weights, maths, shape};
use crate::fade::Fade;
use crate::fbm::FractalMode;
use crate::simd::{Int, Kernel, Real, Simd};

/// The base noise of a point layer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum PointBase {
    Perlin(Fade),
    /// Value noise, linear (`false`) or cosine (`true`) blend.
    Value {
        cosine: bool,
    },
    Cubic,
    Simplex,
}

/// The strip's warp displacement, in input units, and its range `[(min, max); 2]`.
#[derive(Clone, Copy)]
pub(super) struct Displacement<'a> {
    pub x: &'a [f32],
    pub y: &'a [f32],
    pub range: [(f64, f64); 2],
}

impl<'a> Displacement<'a> {
    /// The displacement `x`, `y` of a strip.
    pub fn new(x: &'a [f32], y: &'a [f32]) -> Self {
        let range = |v: &[f32]| {
            let (lo, hi) = v
                .iter()
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), &d| {
                    (lo.min(d), hi.max(d))
                });
            (lo as f64, hi as f64)
        };
        Self {
            x,
            y,
            range: [range(x), range(y)],
        }
    }
}

/// One layer of a strip on the point path.
pub(super) struct PointLayer<'a> {
    pub base: PointBase,
    pub mode: FractalMode,
    pub weights: Weights,
    /// The layer's frequency, to scale displacements into lattice units.
    pub frequency: f32,
    pub columns: &'a Axis,
    pub rows: &'a Axis,
    pub source: PointSource<'a>,
    pub displacement: Option<Displacement<'a>>,
    pub sums: Sums<'a>,
}

impl Kernel for PointLayer<'_> {
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(self, s: S) {
        match (self.mode, self.sums.slopes()) {
            (FractalMode::Standard, false) => self.samples::<S, 0, false>(s),
            (FractalMode::Ridged, false) => self.samples::<S, 1, false>(s),
            (FractalMode::Billow, false) => self.samples::<S, 2, false>(s),
            (FractalMode::Turbulence, false) => self.samples::<S, 3, false>(s),
            (FractalMode::Standard, true) => self.samples::<S, 0, true>(s),
            (FractalMode::Ridged, true) => self.samples::<S, 1, true>(s),
            (FractalMode::Billow, true) => self.samples::<S, 2, true>(s),
            (FractalMode::Turbulence, true) => self.samples::<S, 3, true>(s),
        }
    }
}

impl PointLayer<'_> {
    #[inline(always)]
    fn samples<S: Simd, const MODE: u8, const SLOPES: bool>(self, s: S) {
        let lanes = S::LANES;
        let amplitude = s.splat(self.weights.amplitude);
        let amplitude_frequency = s.splat(self.weights.amplitude_frequency);
        let frequency = s.splat(self.frequency);
        for r in self.sums.rows.clone() {
            for c in (0..self.sums.width).step_by(lanes) {
                let i = self.sums.at(r, c);
                let (mut ox, mut oy) =
                    (s.load(&self.columns.frac[c..]), s.splat(self.rows.frac[r]));
                if let Some(d) = self.displacement {
                    ox = s.load(&d.x[i..]).mul_add(frequency, ox);
                    oy = s.load(&d.y[i..]).mul_add(frequency, oy);
                }
                let cx = s.load_int(&self.columns.low[c..]);
                let cy = s.splat_int(self.rows.low[r]);
                let [n, dn_dx, dn_dy] = match self.base {
                    PointBase::Simplex => self.simplex(s, c, r, (cx, cy), (ox, oy)),
                    _ => self.square(s, (cx, cy), (ox, oy)),
                };
                let (value, slope) = shape::<S, MODE>(s, n);
                let sum = s.load(&self.sums.value[i..]);
                value
                    .mul_add(amplitude, sum)
                    .store(&mut self.sums.value[i..]);
                if SLOPES {
                    let kk = slope * amplitude_frequency;
                    let dx = s.load(&self.sums.dx[i..]);
                    dn_dx.mul_add(kk, dx).store(&mut self.sums.dx[i..]);
                    let dy = s.load(&self.sums.dy[i..]);
                    dn_dy.mul_add(kk, dy).store(&mut self.sums.dy[i..]);
                }
            }
        }
    }

    /// Perlin or value noise on the square lattice at `cell + offset`.
    #[inline(always)]
    fn square<S: Simd>(&self, s: S, (cx, cy): (S::I, S::I), (ox, oy): (S::F, S::F)) -> [S::F; 3] {
        let one = s.splat(1.0);
        let (fx, fy) = (ox.floor(), oy.floor());
        let (tx, ty) = (ox - fx, oy - fy);
        let x0 = cx.add(fx.to_int());
        let y0 = cy.add(fy.to_int());
        match self.base {
            PointBase::Perlin(fade) => {
                let [[g00x, g00y], [g10x, g10y], [g01x, g01y], [g11x, g11y]] =
                    self.source.fetch_quad(s, x0, y0, 2);
                let (txm1, tym1) = (tx - one, ty - one);
                let n00 = g00x.mul_add(tx, g00y * ty);
                let n10 = g10x.mul_add(txm1, g10y * ty);
                let n01 = g01x.mul_add(tx, g01y * tym1);
                let n11 = g11x.mul_add(txm1, g11y * tym1);
                let (u, du) = maths::fade(s, fade, tx);
                let (v, dv) = maths::fade(s, fade, ty);
                let a = u.mul_add(n10 - n00, n00);
                let b = u.mul_add(n11 - n01, n01);
                let n = v.mul_add(b - a, a);
                let da_dx = du.mul_add(n10 - n00, u.mul_add(g10x - g00x, g00x));
                let db_dx = du.mul_add(n11 - n01, u.mul_add(g11x - g01x, g01x));
                let da_dy = u.mul_add(g10y - g00y, g00y);
                let db_dy = u.mul_add(g11y - g01y, g01y);
                let dx = v.mul_add(db_dx - da_dx, da_dx);
                let dy = dv.mul_add(b - a, v.mul_add(db_dy - da_dy, da_dy));
                [n, dx, dy]
            }
            PointBase::Value { cosine } => {
                let [[v00, _], [v10, _], [v01, _], [v11, _]] = self.source.fetch_quad(s, x0, y0, 1);
                let ((u, du), (v, dv)) = if cosine {
                    (maths::cosine_fade(s, tx), maths::cosine_fade(s, ty))
                } else {
                    ((tx, one), (ty, one))
                };
                let a = u.mul_add(v10 - v00, v00);
                let b = u.mul_add(v11 - v01, v01);
                let n = v.mul_add(b - a, a);
                let (da, db) = (du * (v10 - v00), du * (v11 - v01));
                [n, v.mul_add(db - da, da), dv * (b - a)]
            }
            _ => {
                // Cubic: four rows of four values, the cubic along x, then along y.
                let mut rows = [s.splat(0.0); 4];
                let mut slopes = [s.splat(0.0); 4];
                for (m, dy) in (0..4u32).enumerate() {
                    let y = y0.add(s.splat_int(dy)).sub(s.splat_int(1));
                    // A loop, not `array::from_fn`: closures are not always inlined into the
                    // target-feature function.
                    let mut v = [s.splat(0.0); 4];
                    for (j, v) in (0..4u32).zip(v.iter_mut()) {
                        let x = x0.add(s.splat_int(j)).sub(s.splat_int(1));
                        *v = self.source.fetch(s, x, y, 1)[0];
                    }
                    (rows[m], slopes[m]) = cubic_at(s, v, tx);
                }
                let (n, dy) = cubic_at(s, rows, ty);
                let (dx, _) = cubic_at(s, slopes, ty);
                [n, dx, dy]
            }
        }
    }

    /// 2D simplex noise at `cell + offset`, with the skew split exactly (see the module docs of
    /// [`super`]): `i = ⌊x + s⌋` where `s = (x + y)·F`, from per-axis integer and fractional
    /// parts of `cell · F` and small `f32` offsets.
    #[inline(always)]
    fn simplex<S: Simd>(
        &self,
        s: S,
        c: usize,
        r: usize,
        (cx, cy): (S::I, S::I),
        (ox, oy): (S::F, S::F),
    ) -> [S::F; 3] {
        let (one, g) = (s.splat(1.0), s.splat(UNSKEW as f32));
        let (ax, ay) = (
            s.load(&self.columns.skew_frac[c..]),
            s.splat(self.rows.skew_frac[r]),
        );
        let (skew_x, skew_y) = (
            s.load_int(&self.columns.skew_low[c..]),
            s.splat_int(self.rows.skew_low[r]),
        );
        let sigma = ax + ay;
        let common = (ox + oy) * s.splat(SKEW as f32);
        let bx = ox + sigma + common;
        let by = oy + sigma + common;
        let (fbx, fby) = (bx.floor(), by.floor());
        // i = cx + ⌊cx·F⌋ + ⌊cy·F⌋ + ⌊bx⌋, j = cy + ⌊cx·F⌋ + ⌊cy·F⌋ + ⌊by⌋.
        let both = skew_x.add(skew_y);
        let i = cx.add(both).add(fbx.to_int());
        let j = cy.add(both).add(fby.to_int());
        let unskewed = sigma * s.splat(1.0 - 2.0 * UNSKEW as f32) + (fbx + fby) * g;
        let x0 = ox - fbx + unskewed;
        let y0 = oy - fby + unskewed;
        // The middle corner: one step along the larger offset (x on ties).
        let step_x = y0.le(x0);
        let i1 = S::F::select(step_x, one, s.splat(0.0));
        let j1 = one - i1;
        let x1 = x0 - i1 + g;
        let y1 = y0 - j1 + g;
        let x2 = x0 - one + g + g;
        let y2 = y0 - one + g + g;
        let mut acc = [s.splat(0.0); 3];
        self.simplex_corner(s, (x0, y0), (i, j), &mut acc);
        let middle = (i.add(i1.to_int()), j.add(j1.to_int()));
        self.simplex_corner(s, (x1, y1), middle, &mut acc);
        let last = (i.add(s.splat_int(1)), j.add(s.splat_int(1)));
        self.simplex_corner(s, (x2, y2), last, &mut acc);
        let scale = s.splat(crate::simplex::SCALE_2D as f32);
        [acc[0] * scale, acc[1] * scale, acc[2] * scale]
    }
}

impl PointLayer<'_> {
    /// One simplex corner's share: `(½ − |d|²)₊⁴ · ⟨g, d⟩` and its gradient, added to `acc`.
    #[inline(always)]
    fn simplex_corner<S: Simd>(
        &self,
        s: S,
        (x, y): (S::F, S::F),
        (ci, cj): (S::I, S::I),
        acc: &mut [S::F; 3],
    ) {
        // `max` keeps its second operand when the first is NaN: NaN stays NaN.
        let falloff = s.splat(0.0).max(s.splat(0.5) - x * x - y * y);
        let [gx, gy] = self.source.fetch(s, ci, cj, 2);
        let f2 = falloff * falloff;
        let f4 = f2 * f2;
        let dot = gx.mul_add(x, gy * y);
        let k = s.splat(8.0) * f2 * falloff * dot;
        acc[0] = f4.mul_add(dot, acc[0]);
        acc[1] = f4.mul_add(gx, acc[1]) - k * x;
        acc[2] = f4.mul_add(gy, acc[2]) - k * y;
    }
}

/// The cubic through `v` at `t = −1, 0, 1, 2`, evaluated at `t`, and its slope.
#[inline(always)]
fn cubic_at<S: Simd>(s: S, v: [S::F; 4], t: S::F) -> (S::F, S::F) {
    let p = (v[3] - v[2]) - (v[0] - v[1]);
    let q = (v[0] - v[1]) - p;
    let r = v[2] - v[0];
    let value = t.mul_add(t.mul_add(t.mul_add(p, q), r), v[1]);
    let slope = t.mul_add(t.mul_add(s.splat(3.0) * p, s.splat(2.0) * q), r);
    (value, slope)
}
