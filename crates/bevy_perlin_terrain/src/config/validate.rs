//! `TerrainConfig::validate`: every out-of-range value is reported with its field's path in the
//! RON file and the allowed range.

use super::TerrainConfig;
use std::fmt;

/// A field of a [`TerrainConfig`] outside its allowed range.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigError {
    /// The field's path as written in the file, e.g. `chunk_resolution` or `noise.octaves`.
    pub field: String,
    /// The offending value, printed.
    pub value: String,
    /// The allowed range, in words.
    pub allowed: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is {}, allowed: {}",
            self.field, self.value, self.allowed
        )
    }
}

impl std::error::Error for ConfigError {}

fn error(field: &str, value: impl fmt::Display, allowed: &str) -> ConfigError {
    ConfigError {
        field: field.to_owned(),
        value: value.to_string(),
        allowed: allowed.to_owned(),
    }
}

/// `Ok` when `value` is finite and within `low..=high`.
fn range(field: &str, value: f32, low: f32, high: f32, allowed: &str) -> Result<(), ConfigError> {
    if value.is_finite() && value >= low && value <= high {
        Ok(())
    } else {
        Err(error(field, value, allowed))
    }
}

fn colour(field: &str, c: [f32; 3]) -> Result<(), ConfigError> {
    if c.iter().all(|v| v.is_finite() && (0.0..=1.0).contains(v)) {
        Ok(())
    } else {
        Err(error(field, format!("{c:?}"), "three numbers from 0 to 1"))
    }
}

impl TerrainConfig {
    /// Returns the first field that makes no sense, with its allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.noise.validate().map_err(|e| ConfigError {
            field: format!("noise.{}", e.field),
            value: e.value,
            allowed: e.allowed.to_owned(),
        })?;
        range(
            "height_scale",
            self.height_scale,
            1e-3,
            1e5,
            "finite, 0.001 to 100000",
        )?;
        range(
            "chunk_size",
            self.chunk_size,
            0.5,
            1e5,
            "finite, 0.5 to 100000",
        )?;
        let k = self.chunk_resolution.wrapping_sub(1);
        if !(k.is_power_of_two() && (4..=1024).contains(&k)) {
            return Err(error(
                "chunk_resolution",
                self.chunk_resolution,
                "2^k + 1 for k from 2 to 10 (5, 9, 17, 33, 65, 129, 257, 513, 1025)",
            ));
        }
        range(
            "view_distance",
            self.view_distance,
            self.chunk_size * 0.5,
            1e6,
            "finite, from chunk_size / 2 to 1000000",
        )?;
        let mut previous = 0.0;
        for (i, &d) in self.lod_distances.iter().enumerate() {
            if !(d.is_finite() && d > previous) {
                return Err(error(
                    &format!("lod_distances[{i}]"),
                    d,
                    "finite, positive and increasing",
                ));
            }
            previous = d;
        }
        if self.lod_distances.len() as u32 >= k.trailing_zeros() {
            return Err(error(
                "lod_distances",
                self.lod_distances.len(),
                "fewer entries than k in chunk_resolution = 2^k + 1 (every level keeps at least 2 quads per side)",
            ));
        }
        for (field, v) in [
            ("max_tasks_in_flight", self.max_tasks_in_flight),
            ("max_uploads_per_frame", self.max_uploads_per_frame),
        ] {
            if !(1..=256).contains(&v) {
                return Err(error(field, v, "1 to 256"));
            }
        }
        range(
            "sea_level",
            self.sea_level,
            -1e6,
            1e6,
            "finite, -1000000 to 1000000",
        )?;
        if let Some(d) = self.skirt_depth {
            range("skirt_depth", d, 0.0, 1e5, "finite, 0 to 100000")?;
        }
        let c = &self.colours;
        colour("colours.sea_bed", c.sea_bed)?;
        colour("colours.rock", c.rock)?;
        range("colours.rock_slope", c.rock_slope, 0.0, 1.0, "0 to 1")?;
        range(
            "colours.band_blend",
            c.band_blend,
            0.0,
            1e4,
            "finite, 0 to 10000",
        )?;
        let mut previous = f32::NEG_INFINITY;
        for (i, band) in c.bands.iter().enumerate() {
            if !(band.up_to.is_finite() && band.up_to > previous) {
                return Err(error(
                    &format!("colours.bands[{i}].up_to"),
                    band.up_to,
                    "finite and increasing",
                ));
            }
            previous = band.up_to;
            colour(&format!("colours.bands[{i}].colour"), band.colour)?;
        }
        Ok(())
    }
}
