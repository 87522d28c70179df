//! Where a grid's samples are, and why a grid could not be filled.

use crate::simd::SimdLevel;
use std::fmt;

/// Where a grid's samples are: sample `(i, j)` is at
/// `origin + (start + (i, j)) · step`, for `i < size[0]`, `j < size[1]`; stored row-major
/// (`j · size[0] + i`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridSpec {
    /// World position of index `(0, 0)`.
    pub origin: [f64; 2],
    /// Distance between neighbouring samples along x and y.
    pub step: [f64; 2],
    /// Index of the grid's first sample; neighbouring grids differ only here.
    pub start: [i64; 2],
    /// Samples along x and y.
    pub size: [usize; 2],
}

impl GridSpec {
    /// A grid of `size` samples `step` apart, its first sample at `origin`.
    pub fn new(origin: [f64; 2], step: f64, size: [usize; 2]) -> Self {
        Self {
            origin,
            step: [step, step],
            start: [0, 0],
            size,
        }
    }

    /// The same grid starting at sample index `start` instead of 0.
    pub fn with_start(mut self, start: [i64; 2]) -> Self {
        self.start = start;
        self
    }

    /// Samples in the grid, `None` if the count overflows `usize`.
    pub fn len(&self) -> Option<usize> {
        self.size[0].checked_mul(self.size[1])
    }

    /// Whether the grid has no samples.
    pub fn is_empty(&self) -> bool {
        self.size[0] == 0 || self.size[1] == 0
    }

    /// World position of sample index `i` along `axis` (0 = x, 1 = y).
    #[inline]
    pub fn position(&self, axis: usize, i: usize) -> f64 {
        let index = self.start[axis].wrapping_add(i as i64);
        self.origin[axis] + index as f64 * self.step[axis]
    }

    /// [`GridSpec::position`] of samples `0..n` along `axis`, appended to `out`. Where every
    /// index is below 2⁵¹ in magnitude, each converts to `f64` by adding it to the bits of
    /// 1.5·2⁵² and subtracting that number again (exact there): a pass that vectorises, unlike
    /// the conversion itself on CPUs without AVX-512.
    #[inline(always)]
    pub(crate) fn positions(&self, axis: usize, n: usize, out: &mut Vec<f64>) {
        const MAGIC: f64 = 6_755_399_441_055_744.0;
        const LIMIT: i128 = 1 << 51;
        let (start, origin, step) = (self.start[axis], self.origin[axis], self.step[axis]);
        let last = start as i128 + n as i128;
        if (start as i128).abs() < LIMIT && last.abs() < LIMIT {
            let magic = MAGIC.to_bits() as i64;
            out.extend((0..n as i64).map(|i| {
                let index = f64::from_bits((magic + start + i) as u64) - MAGIC;
                origin + index * step
            }));
        } else {
            out.extend((0..n).map(|i| self.position(axis, i)));
        }
    }
}

/// Why a grid could not be filled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridError {
    /// An output slice's length is not `size[0] · size[1]`.
    BufferLength {
        /// Which buffer: `"values"`, `"gradients"` or `"creases"`.
        buffer: &'static str,
        /// `size[0] · size[1]`.
        expected: usize,
        /// The slice's length.
        actual: usize,
    },
    /// `size[0] · size[1]` overflows `usize`.
    TooLarge,
    /// This CPU lacks the instructions of the SIMD level asked for.
    SimdUnavailable(SimdLevel),
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::BufferLength {
                buffer,
                expected,
                actual,
            } => write!(
                f,
                "`{buffer}` holds {actual} samples, the grid has {expected}"
            ),
            GridError::TooLarge => write!(f, "the grid has more samples than memory can address"),
            GridError::SimdUnavailable(level) => {
                write!(f, "this CPU lacks the instructions of SIMD level {level:?}")
            }
        }
    }
}

impl std::error::Error for GridError {}

#[cfg(test)]
mod tests {
    use super::GridSpec;

    /// The vectorised positions are the plain ones, bit for bit, on both sides of the indices
    /// where they switch to the plain conversion.
    #[test]
    fn positions_equal_position_on_both_sides_of_the_fast_range() {
        let edge = 1i64 << 51;
        for start in [
            0,
            -7,
            123_456_789,
            edge - 3,
            -edge + 1,
            -edge - 2,
            edge,
            i64::MAX - 4,
        ] {
            for (origin, step) in [(0.0, 1.0), (-1000.25, 0.37), (3.5e6, -2.0e-9)] {
                let spec = GridSpec {
                    origin: [origin, 0.0],
                    step: [step, 1.0],
                    start: [start, 0],
                    size: [5, 1],
                };
                let mut fast = Vec::new();
                spec.positions(0, 5, &mut fast);
                let plain: Vec<u64> = (0..5).map(|i| spec.position(0, i).to_bits()).collect();
                let fast: Vec<u64> = fast.iter().map(|p| p.to_bits()).collect();
                assert_eq!(fast, plain, "start {start}, origin {origin}, step {step}");
            }
        }
    }
}
