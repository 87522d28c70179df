//! One error type for every "this setting is out of range" in the workspace: the noise's own
//! [`Fbm::validate`](crate::Fbm::validate) and the terrain plugin's config validation both report
//! the field's path as written in a config file, its value and what is allowed.

use std::fmt;

/// A setting outside its allowed range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// The field's path as written in a config file, e.g. `lacunarity` or `noise.warp.frequency`.
    pub field: String,
    /// The offending value, printed.
    pub value: String,
    /// The allowed range, in words.
    pub allowed: String,
}

impl FieldError {
    /// The error for `field`, holding `value`, which must be `allowed`.
    pub fn new(
        field: impl Into<String>,
        value: impl fmt::Display,
        allowed: impl Into<String>,
    ) -> Self {
        Self {
            field: field.into(),
            value: value.to_string(),
            allowed: allowed.into(),
        }
    }

    /// `Ok` when `ok`, else the error for `field` (see [`FieldError::new`]).
    pub fn require(
        ok: bool,
        field: &str,
        value: impl fmt::Display,
        allowed: &str,
    ) -> Result<(), FieldError> {
        if ok {
            Ok(())
        } else {
            Err(Self::new(field, value, allowed))
        }
    }

    /// The same error with `parent.` in front of its field, for a setting nested in another.
    pub fn within(mut self, parent: &str) -> Self {
        self.field = format!("{parent}.{}", self.field);
        self
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is {}, allowed: {}",
            self.field, self.value, self.allowed
        )
    }
}

impl std::error::Error for FieldError {}

/// `Ok` when `value` is finite and `low <= value <= high`.
pub(crate) fn finite_within(
    field: &str,
    value: f64,
    low: f64,
    high: f64,
    allowed: &str,
) -> Result<(), FieldError> {
    FieldError::require(
        value.is_finite() && (low..=high).contains(&value),
        field,
        value,
        allowed,
    )
}

/// `Ok` when `value` is finite and `low < value <= high`.
pub(crate) fn finite_above(
    field: &str,
    value: f64,
    low: f64,
    high: f64,
    allowed: &str,
) -> Result<(), FieldError> {
    FieldError::require(
        value.is_finite() && value > low && value <= high,
        field,
        value,
        allowed,
    )
}
