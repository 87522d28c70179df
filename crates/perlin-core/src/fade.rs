//! Fade curves: how far along a lattice cell a sample sits, reshaped so the noise is smooth
//! across cell borders (Perlin 1985 used the Hermite cubic, Perlin 2002 the quintic).

#[cfg(feature = "bevy_reflect")]
use bevy_reflect::std_traits::ReflectDefault;
use serde::{Deserialize, Serialize};

/// The curve `s(t)` that weights the interpolation between two lattice corners.
///
/// `Quintic` (Perlin 2002) has zero first and second derivatives at 0 and 1, so terrain normals
/// and curvature are continuous across cells. `Hermite` (Perlin 1985) keeps only the first
/// derivative continuous; `Linear` keeps neither and shows the lattice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(
    feature = "bevy_reflect",
    derive(bevy_reflect::Reflect),
    reflect(Default, Debug, Clone, PartialEq)
)]
pub enum Fade {
    /// `s(t) = t`.
    Linear,
    /// `s(t) = 3t² − 2t³`.
    Hermite,
    /// `s(t) = 6t⁵ − 15t⁴ + 10t³`, in the Horner form `t·t·t·(t·(t·6 − 15) + 10)`.
    #[default]
    Quintic,
}

impl Fade {
    /// `s(t)`.
    #[inline(always)]
    pub fn apply(self, t: f64) -> f64 {
        match self {
            Fade::Linear => t,
            Fade::Hermite => t * t * (3.0 - 2.0 * t),
            Fade::Quintic => t * t * t * (t * (t * 6.0 - 15.0) + 10.0),
        }
    }

    /// `s′(t)`, for analytic derivatives.
    #[inline(always)]
    pub fn derivative(self, t: f64) -> f64 {
        match self {
            Fade::Linear => 1.0,
            Fade::Hermite => 6.0 * t * (1.0 - t),
            Fade::Quintic => 30.0 * t * t * (t * (t - 2.0) + 1.0),
        }
    }
}

/// Linear interpolation `a + t·(b − a)`.
#[inline(always)]
pub(crate) fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + t * (b - a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curves_meet_the_corners_and_derivatives_match_differences() {
        for fade in [Fade::Linear, Fade::Hermite, Fade::Quintic] {
            assert_eq!(fade.apply(0.0), 0.0);
            assert_eq!(fade.apply(1.0), 1.0);
            assert_eq!(fade.apply(0.5), 0.5);
            for i in 1..20 {
                let t = i as f64 / 20.0;
                let h = 1e-6;
                let numeric = (fade.apply(t + h) - fade.apply(t - h)) / (2.0 * h);
                assert!(
                    (numeric - fade.derivative(t)).abs() < 1e-6,
                    "{fade:?} at {t}"
                );
            }
        }
        assert_eq!(Fade::Quintic.derivative(0.0), 0.0);
        assert_eq!(Fade::Quintic.derivative(1.0), 0.0);
        assert_eq!(Fade::Hermite.derivative(1.0), 0.0);
        // 6t⁵ − 15t⁴ + 10t³ at t = 0.25, written out.
        let t: f64 = 0.25;
        let expanded = 6.0 * t.powi(5) - 15.0 * t.powi(4) + 10.0 * t.powi(3);
        assert!((Fade::Quintic.apply(t) - expanded).abs() < 1e-15);
    }
}
