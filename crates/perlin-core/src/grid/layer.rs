//! The layers of a fill, an octave of the sum or one of the two warp noises: how a
//! configuration routes them (band or point path), their per-axis work done once per fill, and
//! one layer run over a strip.

use super::axis::{Axis, AxisNeeds, Curve, SKEW};
use super::band::{BandBase, BandLayer, BandRows, Columns};
use super::finish::Unpadded;
use super::lattice::{Lattice, PointSource, Window};
use super::point::{Displacement, PointBase, PointLayer};
use super::{GridSpec, Sums, Weights};
use crate::fbm::{BaseNoise, Fbm, FractalMode, Octave};
use crate::simd::{Isa, Kernel, Simd};
use crate::tables::NoiseTables;
use crate::value::{Interpolation, Value};
use std::ops::Range;

/// One layer: an octave of the sum, or one of the two warp noises.
#[derive(Default)]
pub(super) struct Layer {
    frequency: f64,
    weights: Weights,
    columns: Axis,
    rows: Axis,
    /// Band path only.
    layout: Columns,
    band_rows: BandRows,
    /// Point path only: lattice-coordinate bounds of the columns, for its windows.
    column_bounds: (f64, f64),
    /// Point path only: the lattice data around the strip's samples.
    window: Window,
}

/// How a configuration fills a grid.
#[derive(Clone, Copy, Debug)]
pub(super) struct Route {
    lattice: Lattice,
    /// `Some` for the band path, `None` for the point path.
    pub band: Option<BandBase>,
    point: PointBase,
    column_curve: Curve,
    row_curve: Curve,
    simplex: bool,
}

impl Route {
    /// The route of `fbm`'s base noise, on a regular grid (`warped == false`) or not.
    pub fn of(fbm: &Fbm, warped: bool) -> Route {
        let value = Value {
            interpolation: fbm.interpolation,
            hashing: fbm.hashing,
        };
        let (lattice, band, point, curves) = match fbm.base {
            BaseNoise::Perlin => (
                Lattice::Gradients(fbm.hashing),
                BandBase::Perlin,
                PointBase::Perlin(fbm.fade),
                (Curve::Fade(fbm.fade), Curve::Fade(fbm.fade)),
            ),
            BaseNoise::Value => match fbm.interpolation {
                Interpolation::Linear => (
                    Lattice::Values(value),
                    BandBase::Value,
                    PointBase::Value { cosine: false },
                    (
                        Curve::Fade(crate::Fade::Linear),
                        Curve::Fade(crate::Fade::Linear),
                    ),
                ),
                Interpolation::Cosine => (
                    Lattice::Values(value),
                    BandBase::Value,
                    PointBase::Value { cosine: true },
                    (Curve::Cosine, Curve::Cosine),
                ),
                Interpolation::Cubic => (
                    Lattice::Values(value),
                    BandBase::Cubic,
                    PointBase::Cubic,
                    (Curve::Identity, Curve::Squared),
                ),
            },
            BaseNoise::Simplex => {
                return Route {
                    lattice: Lattice::Gradients(fbm.hashing),
                    band: None,
                    point: PointBase::Simplex,
                    column_curve: Curve::None,
                    row_curve: Curve::None,
                    simplex: true,
                };
            }
        };
        if warped {
            Route {
                lattice,
                band: None,
                point,
                column_curve: Curve::None,
                row_curve: Curve::None,
                simplex: false,
            }
        } else {
            Route {
                lattice,
                band: Some(band),
                point,
                column_curve: curves.0,
                row_curve: curves.1,
                simplex: false,
            }
        }
    }
}

/// The sample positions along both axes ([`GridSpec::positions`]) for `size` samples. A kernel
/// only so that the pass compiles with the CPU's instructions (four `f64` lanes with AVX2); it
/// gives the same bits on every kernel.
pub(super) struct Positions<'a> {
    pub spec: &'a GridSpec,
    pub size: [usize; 2],
    pub xs: &'a mut Vec<f64>,
    pub ys: &'a mut Vec<f64>,
}

impl Kernel for Positions<'_> {
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(self, _: S) {
        for (axis, out) in [self.xs, self.ys].into_iter().enumerate() {
            out.clear();
            self.spec.positions(axis, self.size[axis], out);
        }
    }
}

/// Per-axis work of one layer, and its band layout when it takes the band path. A kernel only so
/// that it compiles with the CPU's instructions (the floors and curves vectorise); it gives the
/// same bits on every kernel.
pub(super) struct Prepare<'a> {
    pub tables: &'a NoiseTables,
    pub layer: &'a mut Layer,
    pub route: &'a Route,
    pub lanes: usize,
    pub xs: &'a [f64],
    pub ys: &'a [f64],
    pub octave: &'a Octave,
    pub shift: [f64; 2],
    /// Whether the fill sums gradients.
    pub slopes: bool,
}

impl Kernel for Prepare<'_> {
    type Output = ();

    #[inline(always)]
    fn run<S: Simd>(self, _: S) {
        let Prepare {
            tables,
            layer,
            route,
            lanes,
            xs,
            ys,
            octave,
            shift,
            slopes,
        } = self;
        layer.frequency = octave.frequency;
        layer.weights = Weights {
            amplitude: octave.amplitude as f32,
            amplitude_frequency: (octave.amplitude * octave.frequency) as f32,
        };
        let f = octave.frequency;
        // Only the point path hashes the cells' low bits.
        let low = route.band.is_none();
        let needs = AxisNeeds {
            simplex: route.simplex,
            low,
            slopes,
        };
        layer
            .columns
            .rebuild(xs, f, shift[0], route.column_curve, needs);
        layer.rows.rebuild(ys, f, shift[1], route.row_curve, needs);
        if route.band.is_some() {
            layer
                .layout
                .rebuild(tables, route.lattice, &layer.columns, lanes);
        } else {
            layer.column_bounds = layer.columns.bounds();
        }
        layer.band_rows.reset();
        layer.window.reset();
    }
}

/// Adds one layer over a strip to `sums`, on the band or the point path; a band layer given
/// `finish` writes the finished values to the caller's rows instead (see [`BandLayer`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn run_layer(
    isa: Isa,
    tables: &NoiseTables,
    route: &Route,
    layer: &mut Layer,
    mode: FractalMode,
    sums: Sums,
    displacement: Option<Displacement>,
    finish: Option<(f32, Unpadded)>,
) {
    if let Some(base) = route.band {
        isa.run(BandLayer {
            tables,
            lattice: route.lattice,
            base,
            mode,
            weights: layer.weights,
            columns: &layer.columns,
            rows: &layer.rows,
            layout: &layer.layout,
            band_rows: &mut layer.band_rows,
            sums,
            finish,
        });
        return;
    }
    let bounds = lattice_bounds(route, layer, &sums.rows, displacement);
    let limit = 4 * sums.value.len() + 4096;
    let covered = bounds.is_some_and(|bounds| {
        isa.run(CoverWindow {
            window: &mut layer.window,
            tables,
            lattice: route.lattice,
            sheared: route.simplex,
            bounds,
            limit,
        })
    });
    let source = if covered {
        PointSource::Window(&layer.window)
    } else {
        PointSource::Direct(tables, route.lattice)
    };
    isa.run(PointLayer {
        base: route.point,
        mode,
        weights: layer.weights,
        frequency: layer.frequency as f32,
        columns: &layer.columns,
        rows: &layer.rows,
        source,
        displacement,
        sums,
    });
}

/// [`Window::cover`] on lanes.
struct CoverWindow<'a> {
    window: &'a mut Window,
    tables: &'a NoiseTables,
    lattice: Lattice,
    sheared: bool,
    bounds: ((i64, i64), (i64, i64)),
    limit: usize,
}

impl Kernel for CoverWindow<'_> {
    type Output = bool;

    #[inline(always)]
    fn run<S: Simd>(self, s: S) -> bool {
        self.window.cover(
            s,
            self.tables,
            self.lattice,
            self.sheared,
            self.bounds,
            self.limit,
        )
    }
}

/// The lattice points (columns, rows) a point layer's strip touches, with margins: square
/// lattice points, or the sheared `(u, v)` of a simplex lattice (see [`Window`]). `None` when a
/// coordinate is not finite or too far out for the window's 32-bit index arithmetic.
fn lattice_bounds(
    route: &Route,
    layer: &Layer,
    rows: &Range<usize>,
    displacement: Option<Displacement>,
) -> Option<((i64, i64), (i64, i64))> {
    let f = layer.frequency;
    let (mut x_lo, mut x_hi) = layer.column_bounds;
    let (mut y_lo, mut y_hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for r in rows.clone() {
        let y = layer.rows.cell[r] as f64 + layer.rows.frac[r] as f64;
        y_lo = y_lo.min(y);
        y_hi = y_hi.max(y);
    }
    if let Some(d) = displacement {
        let [(dx_lo, dx_hi), (dy_lo, dy_hi)] = d.range;
        x_lo += dx_lo * f;
        x_hi += dx_hi * f;
        y_lo += dy_lo * f;
        y_hi += dy_hi * f;
    }
    let (columns, rows) = if route.simplex {
        // u = i − j follows x − y; v = j − ⌊3u/8⌋ follows y(1 + 2F) + u(F − 3/8), extreme at
        // the corners of the box.
        let (u_lo, u_hi) = ((x_lo - y_hi).floor() - 2.0, (x_hi - y_lo).floor() + 2.0);
        let v = |y: f64, u: f64| y * (1.0 + 2.0 * SKEW) + u * (SKEW - 0.375);
        let corners = [v(y_lo, u_lo), v(y_lo, u_hi), v(y_hi, u_lo), v(y_hi, u_hi)];
        let v_lo = corners.iter().copied().fold(f64::INFINITY, f64::min);
        let v_hi = corners.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        ((u_lo, u_hi), (v_lo.floor() - 4.0, v_hi.floor() + 4.0))
    } else {
        // Two cells of margin each side: the cubic's taps, and rounding.
        (
            (x_lo.floor() - 2.0, x_hi.floor() + 3.0),
            (y_lo.floor() - 2.0, y_hi.floor() + 3.0),
        )
    };
    let usable = [columns.0, columns.1, rows.0, rows.1]
        .iter()
        .all(|b| b.is_finite() && b.abs() < (1u64 << 28) as f64);
    usable.then_some((
        (columns.0 as i64, columns.1 as i64),
        (rows.0 as i64, rows.1 as i64),
    ))
}
