//! What a climate field can be over a set of points ([`FieldBounds`]), or over the whole
//! rectangle between a few of them ([`ClimateField::bounds_between`]).

use super::{ClimateField, ClimateSample, ClimateWindow, FIELDS, LATTICE_OF};
use perlin_core::{GridSpec, NoiseTables};

/// What one climate field is over a set of points: the range of its value and the largest
/// length of its gradient (climate units, and per metre).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FieldBounds {
    pub low: f64,
    pub high: f64,
    pub gradient: f64,
}

impl FieldBounds {
    /// Each field's bounds over `samples`: an empty range (`low > high`) without any, and no
    /// range at all (NaN) where one is not finite.
    pub fn over(samples: &[ClimateSample]) -> [FieldBounds; FIELDS] {
        let (mut low, mut high) = ([f32::INFINITY; FIELDS], [f32::NEG_INFINITY; FIELDS]);
        let (mut steepest, mut finite) = ([0.0f32; FIELDS], true);
        for c in samples {
            for field in 0..FIELDS {
                let (value, [gx, gz]) = (c.value[field], c.gradient[field]);
                let squared = gx * gx + gz * gz;
                finite &= value.is_finite() && squared.is_finite();
                low[field] = low[field].min(value);
                high[field] = high[field].max(value);
                steepest[field] = steepest[field].max(squared);
            }
        }
        std::array::from_fn(|field| {
            let known = |x: f32| if finite { f64::from(x) } else { f64::NAN };
            FieldBounds {
                low: known(low[field]),
                high: known(high[field]),
                gradient: known(steepest[field]).sqrt(),
            }
        })
    }
}

impl ClimateField {
    /// Each field's bounds over the whole rectangle from the first to the last sample of
    /// `spec`, every point in between included: the bounds at its samples, widened by the most
    /// a B-spline can stray from them between four neighbouring samples. A few samples far
    /// apart then bound a rectangle as safely as the climate at every point of it would, and
    /// at a small fraction of the cost.
    ///
    /// Inside a cell `dx` by `dz`, a field lies within `dx²/8 · max|∂²f/∂x²| + dz²/8 ·
    /// max|∂²f/∂z²|` of the bilinear blend of its corners (the error of linear interpolation,
    /// once per axis), and the blend lies within the corners' range. Its gradient lies as near
    /// the blend of the corners' gradients, with the third derivatives in place of the second,
    /// and that blend is no longer than the longest of them. A B-spline's `k`-th derivative is a
    /// B-spline of its nodes' `k`-th differences over `spacing^k`, with positive weights that
    /// sum to 1: the largest difference over the window's nodes bounds it.
    pub fn bounds_between(
        &self,
        tables: &NoiseTables,
        spec: &GridSpec,
        scratch: &mut (ClimateWindow, Vec<ClimateSample>),
    ) -> [FieldBounds; FIELDS] {
        let (window, climate) = scratch;
        self.window(tables, spec, window);
        self.fill(spec, &mut *window, climate);
        let mut bounds = FieldBounds::over(climate);
        let [dx, dz] = spec.step.map(f64::abs);
        for (field, b) in bounds.iter_mut().enumerate() {
            let lattice = LATTICE_OF[field];
            let h = self.spacing[lattice];
            let d = Differences::of(&window.nodes[field], window.size[lattice][0]);
            let value = (dx * dx * d.xx + dz * dz * d.zz) / (8.0 * h * h);
            let slope_x = (dx * dx * d.xxx + dz * dz * d.xzz) / (8.0 * h * h * h);
            let slope_z = (dx * dx * d.xxz + dz * dz * d.zzz) / (8.0 * h * h * h);
            b.low -= value;
            b.high += value;
            b.gradient += slope_x.hypot(slope_z);
        }
        bounds
    }
}

/// The largest differences of a field's nodes (second and third, along and across the axes):
/// `xx` is `max |n[i−1] − 2n[i] + n[i+1]|` along x, `xzz` the difference along x of the second
/// differences along z, and so on.
#[derive(Default)]
struct Differences {
    xx: f64,
    zz: f64,
    xxx: f64,
    zzz: f64,
    xzz: f64,
    xxz: f64,
}

impl Differences {
    /// Over `nodes`, rows of `width` (not finite where a node is not).
    fn of(nodes: &[f32], width: usize) -> Self {
        let mut d = Differences::default();
        if width == 0 {
            return d;
        }
        let height = nodes.len() / width;
        let at = |i: usize, j: usize| f64::from(nodes[j * width + i]);
        // `max` would skip a NaN: carry it instead, so that the bounds refuse.
        let most = |m: &mut f64, v: f64| {
            *m = if v.is_nan() || m.is_nan() {
                f64::NAN
            } else {
                m.max(v.abs())
            }
        };
        let second = |a: f64, b: f64, c: f64| a - 2.0 * b + c;
        for j in 0..height {
            for i in 0..width {
                if i + 2 < width {
                    most(&mut d.xx, second(at(i, j), at(i + 1, j), at(i + 2, j)));
                }
                if j + 2 < height {
                    most(&mut d.zz, second(at(i, j), at(i, j + 1), at(i, j + 2)));
                }
                if i + 3 < width {
                    let (a, b) = (at(i, j), at(i + 1, j));
                    most(&mut d.xxx, at(i + 3, j) - 3.0 * at(i + 2, j) + 3.0 * b - a);
                }
                if j + 3 < height {
                    let (a, b) = (at(i, j), at(i, j + 1));
                    most(&mut d.zzz, at(i, j + 3) - 3.0 * at(i, j + 2) + 3.0 * b - a);
                }
                if i + 1 < width && j + 2 < height {
                    let column = |i| second(at(i, j), at(i, j + 1), at(i, j + 2));
                    most(&mut d.xzz, column(i + 1) - column(i));
                }
                if i + 2 < width && j + 1 < height {
                    let row = |j| second(at(i, j), at(i + 1, j), at(i + 2, j));
                    most(&mut d.xxz, row(j + 1) - row(j));
                }
            }
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{field, grid_and_points};
    use super::*;

    #[test]
    fn the_bounds_between_a_few_samples_hold_every_point_of_their_rectangle() {
        // Fields of a short scale (nodes 150 and 300 m apart), bounded from samples 128 m and
        // 97 m apart: their extremes often fall between samples.
        let f = field(900.0);
        let (mut widened, mut scratch) = (0usize, Default::default());
        for seed in 0..6 {
            let tables = NoiseTables::from_seed(seed);
            for k in 0..8 {
                let origin = [seed as f64 * 7919.0 - k as f64 * 311.0, k as f64 * 523.0];
                let sparse = GridSpec {
                    step: [128.0, 97.0],
                    ..GridSpec::new(origin, 1.0, [4 + k % 3, 3 + k % 4])
                };
                let bounds = f.bounds_between(&tables, &sparse, &mut scratch);
                // Every 4 m over the same rectangle.
                let extent = [0, 1].map(|a| sparse.step[a] * (sparse.size[a] - 1) as f64);
                let dense = GridSpec {
                    step: [4.0, 4.0],
                    ..GridSpec::new(origin, 1.0, extent.map(|e| (e / 4.0) as usize + 1))
                };
                let (points, _) = grid_and_points(&f, &tables, &dense);
                let corners = FieldBounds::over(&scratch.1);
                for field in 0..FIELDS {
                    let b = bounds[field];
                    // Within f32 rounding of the bounds.
                    for p in &points {
                        let [gx, gz] = p.gradient[field];
                        let (v, g) = (f64::from(p.value[field]), f64::from(gx.hypot(gz)));
                        assert!(
                            v >= b.low - 1e-6
                                && v <= b.high + 1e-6
                                && g <= b.gradient * (1.0 + 1e-5),
                            "seed {seed}, rectangle {k}, field {field}: {v}, |g| {g} outside {b:?}"
                        );
                    }
                    let c = corners[field];
                    let inside = |p: &ClimateSample| {
                        let [gx, gz] = p.gradient[field];
                        let (v, g) = (f64::from(p.value[field]), f64::from(gx.hypot(gz)));
                        v >= c.low && v <= c.high && g <= c.gradient
                    };
                    widened += usize::from(!points.iter().all(inside));
                    // Not much wider than the points' own range (the B-spline's curvature over
                    // 128 m against nodes 150 m apart is large: a loose ceiling).
                    let low = points
                        .iter()
                        .map(|p| p.value[field])
                        .fold(f32::INFINITY, f32::min);
                    assert!(f64::from(low) - b.low < 0.5, "{low} against {b:?}");
                }
            }
        }
        // The samples' own bounds would not have held most rectangles.
        assert!(
            widened > 6 * 8 * FIELDS / 2,
            "{widened} rectangles needed the widening"
        );
    }
}
