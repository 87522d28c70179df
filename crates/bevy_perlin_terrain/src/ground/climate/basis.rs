//! The cubic B-spline of the climate's lattices: its weights at one coordinate ([`Basis`]), and
//! the nodes that weigh in over a grid ([`node_extent`]).

use perlin_core::GridSpec;

/// The first node and the number of nodes, per axis, of a lattice `spacing` metres apart over
/// the grid `spec`: every node whose B-spline reaches one of its samples (at most `most` a
/// side).
pub(in crate::ground) fn node_extent(
    spec: &GridSpec,
    spacing: f64,
    most: i64,
) -> ([i64; 2], [usize; 2]) {
    let (mut first, mut size) = ([0; 2], [0; 2]);
    for axis in 0..2 {
        let last = spec.size[axis].saturating_sub(1);
        let (a, b) = (
            cell(spec.position(axis, 0), spacing),
            cell(spec.position(axis, last), spacing),
        );
        first[axis] = a.min(b) - 1;
        size[axis] = (a.max(b) - a.min(b) + 4).clamp(0, most) as usize;
    }
    (first, size)
}

/// The lattice cell holding `x` (nodes `cell − 1 ..= cell + 2` weigh in there).
fn cell(x: f64, spacing: f64) -> i64 {
    farthest((x / spacing).floor()) as i64
}

/// A cell index within 2⁶⁰ of the origin: a coordinate beyond any plane a world could hold
/// (or infinite) is taken as there, so that sums and differences of cells never overflow.
fn farthest(cell: f64) -> f64 {
    const FARTHEST: f64 = (1u64 << 60) as f64;
    cell.clamp(-FARTHEST, FARTHEST)
}

/// The cubic B-spline's four weights at one coordinate, and their derivatives per metre.
#[derive(Clone, Debug)]
pub(in crate::ground) struct Basis {
    pub cell: i64,
    pub weights: [f32; 4],
    pub slopes: [f32; 4],
}

impl Basis {
    /// The weights at `x` of a lattice of nodes `spacing` apart (nodes `cell − 1 ..= cell + 2`
    /// weigh in).
    pub fn at(x: f64, spacing: f64) -> Self {
        let t = x / spacing;
        let cell = farthest(t.floor());
        // In `0..=1` but beyond the farthest cell.
        let u = ((t - cell) as f32).clamp(0.0, 1.0);
        let v = 1.0 - u;
        let per_metre = (1.0 / spacing) as f32;
        Self {
            cell: cell as i64,
            weights: [
                v * v * v / 6.0,
                (3.0 * u * u * u - 6.0 * u * u + 4.0) / 6.0,
                (-3.0 * u * u * u + 3.0 * u * u + 3.0 * u + 1.0) / 6.0,
                u * u * u / 6.0,
            ],
            slopes: [
                -0.5 * v * v * per_metre,
                (1.5 * u * u - 2.0 * u) * per_metre,
                (-1.5 * u * u + u + 0.5) * per_metre,
                0.5 * u * u * per_metre,
            ],
        }
    }

    /// `Σ w[k] · n[k]`, in order.
    #[inline]
    pub fn weighted(&self, w: &[f32; 4], n: [f32; 4]) -> f32 {
        w[0] * n[0] + w[1] * n[1] + w[2] * n[2] + w[3] * n[3]
    }
}
