//! `Fbm::validate`: every nonsensical setting is reported with its field and allowed range.

use super::Fbm;
use super::erosion::{Erosion, MAX_EROSION_OCTAVES};
use crate::field_error::{FieldError, finite_above, finite_within};

/// The most octaves an [`Fbm`] may have.
pub const MAX_OCTAVES: u32 = 32;

impl Fbm {
    /// Returns the first setting that makes no sense, naming the field and its allowed range.
    pub fn validate(&self) -> Result<(), FieldError> {
        FieldError::require(
            (1..=MAX_OCTAVES).contains(&self.octaves),
            "octaves",
            self.octaves,
            "1 to 32",
        )?;
        finite_above(
            "frequency",
            self.frequency,
            0.0,
            1e9,
            "finite, > 0 and <= 1e9",
        )?;
        finite_above(
            "amplitude",
            self.amplitude,
            0.0,
            1e9,
            "finite, > 0 and <= 1e9",
        )?;
        finite_above(
            "lacunarity",
            self.lacunarity,
            0.0,
            16.0,
            "finite, > 0 and <= 16",
        )?;
        finite_within("persistence", self.persistence, 0.0, 4.0, "finite, 0 to 4")?;
        finite_above(
            "contrast",
            self.contrast,
            0.0,
            16.0,
            "finite, > 0 and <= 16",
        )?;
        finite_within(
            "noise_size",
            self.noise_size,
            -1e9,
            1e9,
            "finite, -1e9 to 1e9",
        )?;
        finite_within(
            "octave_shift",
            self.octave_shift,
            -1e6,
            1e6,
            "finite, -1e6 to 1e6",
        )?;
        let top = self.frequency * self.lacunarity.powi(self.octaves as i32 - 1);
        FieldError::require(
            top.is_finite() && top > 0.0 && top <= 1e12,
            "lacunarity",
            self.lacunarity,
            "such that frequency * lacunarity^(octaves - 1) stays in (0, 1e12]",
        )?;
        if let Some(w) = self.warp {
            finite_within("warp.amplitude", w.amplitude, 0.0, 1e6, "finite, 0 to 1e6")?;
            finite_above(
                "warp.frequency",
                w.frequency,
                0.0,
                1e9,
                "finite, > 0 and <= 1e9",
            )?;
        }
        if let Some(e) = &self.erosion {
            e.validate().map_err(|error| error.within("erosion"))?;
        }
        Ok(())
    }
}

impl Erosion {
    /// Returns the first setting out of range, naming the field (without the `erosion.`
    /// prefix) and its allowed range.
    pub fn validate(&self) -> Result<(), FieldError> {
        finite_within("strength", self.strength, 0.0, 1.0, "finite, 0 to 1")?;
        finite_within("scale", self.scale, 0.01, 4.0, "finite, 0.01 to 4")?;
        FieldError::require(
            (1..=MAX_EROSION_OCTAVES).contains(&self.octaves),
            "octaves",
            self.octaves,
            "1 to 8",
        )?;
        finite_within("lacunarity", self.lacunarity, 1.5, 4.0, "finite, 1.5 to 4")?;
        finite_within("gain", self.gain, 0.0, 1.0, "finite, 0 to 1")?;
        finite_within("sharpness", self.sharpness, 0.0, 1.0, "finite, 0 to 1")?;
        finite_within("detail", self.detail, 0.5, 4.0, "finite, 0.5 to 4")?;
        finite_within(
            "slope_onset",
            self.slope_onset,
            0.01,
            100.0,
            "finite, 0.01 to 100",
        )?;
        finite_within("preserve", self.preserve, 0.0, 1.0, "finite, 0 to 1")
    }
}
