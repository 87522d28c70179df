//! `Fbm::validate`: every nonsensical setting is reported with its field and allowed range.

use super::Fbm;
use std::fmt;

/// The most octaves an [`Fbm`] may have.
pub const MAX_OCTAVES: u32 = 32;

/// A setting of an [`Fbm`] outside its allowed range.
#[derive(Clone, Debug, PartialEq)]
pub struct FbmError {
    /// The field's name as written in a config file, e.g. `"lacunarity"` or `"warp.frequency"`.
    pub field: &'static str,
    /// The offending value, printed.
    pub value: String,
    /// The allowed range, in words.
    pub allowed: &'static str,
}

impl fmt::Display for FbmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is {}, allowed: {}",
            self.field, self.value, self.allowed
        )
    }
}

impl std::error::Error for FbmError {}

/// Checks `low <= value <= high` (or `low < value` when `open_low`), finite.
fn check(
    field: &'static str,
    value: f64,
    low: f64,
    open_low: bool,
    high: f64,
    allowed: &'static str,
) -> Result<(), FbmError> {
    let above = if open_low { value > low } else { value >= low };
    if value.is_finite() && above && value <= high {
        Ok(())
    } else {
        Err(FbmError {
            field,
            value: value.to_string(),
            allowed,
        })
    }
}

impl Fbm {
    /// Returns the first setting that makes no sense, naming the field and its allowed range.
    pub fn validate(&self) -> Result<(), FbmError> {
        if !(1..=MAX_OCTAVES).contains(&self.octaves) {
            return Err(FbmError {
                field: "octaves",
                value: self.octaves.to_string(),
                allowed: "1 to 32",
            });
        }
        check(
            "frequency",
            self.frequency,
            0.0,
            true,
            1e9,
            "finite, > 0 and <= 1e9",
        )?;
        check(
            "amplitude",
            self.amplitude,
            0.0,
            true,
            1e9,
            "finite, > 0 and <= 1e9",
        )?;
        check(
            "lacunarity",
            self.lacunarity,
            0.0,
            true,
            16.0,
            "finite, > 0 and <= 16",
        )?;
        check(
            "persistence",
            self.persistence,
            0.0,
            false,
            4.0,
            "finite, 0 to 4",
        )?;
        check(
            "contrast",
            self.contrast,
            0.0,
            true,
            16.0,
            "finite, > 0 and <= 16",
        )?;
        check(
            "noise_size",
            self.noise_size,
            -1e9,
            false,
            1e9,
            "finite, -1e9 to 1e9",
        )?;
        check(
            "octave_shift",
            self.octave_shift,
            -1e6,
            false,
            1e6,
            "finite, -1e6 to 1e6",
        )?;
        let top = self.frequency * self.lacunarity.powi(self.octaves as i32 - 1);
        if !(top.is_finite() && top > 0.0 && top <= 1e12) {
            return Err(FbmError {
                field: "lacunarity",
                value: self.lacunarity.to_string(),
                allowed: "such that frequency * lacunarity^(octaves - 1) stays in (0, 1e12]",
            });
        }
        if let Some(w) = self.warp {
            check(
                "warp.amplitude",
                w.amplitude,
                0.0,
                false,
                1e6,
                "finite, 0 to 1e6",
            )?;
            check(
                "warp.frequency",
                w.frequency,
                0.0,
                true,
                1e9,
                "finite, > 0 and <= 1e9",
            )?;
        }
        Ok(())
    }
}
