//! The `.terrain.ron` asset loader: RON through serde, then [`TerrainConfig::validate`]. Every
//! error names the file, the field and what is allowed.

use super::{ConfigError, TerrainConfig};
use bevy::asset::io::Reader;
use bevy::asset::{AssetLoader, LoadContext};
use bevy::reflect::TypePath;

/// Loads [`TerrainConfig`] assets from `.terrain.ron` files.
#[derive(Default, TypePath)]
pub(crate) struct TerrainConfigLoader;

/// Why a `.terrain.ron` file did not become a [`TerrainConfig`].
#[derive(Debug, thiserror::Error)]
pub enum TerrainConfigLoadError {
    /// The file could not be read.
    #[error("{path}: could not be read: {source}")]
    Io {
        /// The asset path.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not valid RON for a `TerrainConfig`.
    #[error("{path}:{line}:{column}: `{field}`: {message}")]
    Parse {
        /// The asset path.
        path: String,
        /// Where in the file, 1-based.
        line: usize,
        /// Column, 1-based.
        column: usize,
        /// The field being read, e.g. `noise.octaves` (`.` for the top level).
        field: String,
        /// What the parser expected.
        message: String,
    },
    /// The file parsed, but a value is out of range.
    #[error("{path}: {error}")]
    Invalid {
        /// The asset path.
        path: String,
        /// The field, its value and the allowed range.
        error: ConfigError,
    },
}

/// Keys of 0.2's first files that now have another name: the old key, the new one, and the
/// field path the old key is recognised under (`None`: anywhere). A file that still uses one is
/// rejected with a message that says what to write, rather than serde's list of known fields.
const RENAMED_KEYS: [(&str, &str, Option<&str>); 4] = [
    ("colours", "colors", None),
    ("colour", "color", None),
    ("far_colour", "far_color", None),
    ("detail", "grain", Some("colors")),
];

/// The message for a file that uses a renamed key, if the parser's `message` about `field` is
/// about one (RON names an unknown field "Unexpected field named `key` in ...", and the path
/// ends with the key).
fn renamed_key(field: &str, message: &str) -> Option<String> {
    let unknown = message
        .strip_prefix("Unexpected field named `")?
        .split('`')
        .next()?;
    let parent = field.strip_suffix(unknown)?.trim_end_matches('.');
    RENAMED_KEYS
        .iter()
        .find(|(old, _, under)| *old == unknown && under.is_none_or(|under| parent == under))
        .map(|(old, new, _)| format!("`{old}` is now spelled `{new}`: write `{new}: ...` instead"))
}

/// What a file still using 0.1's `lod_distances` is told.
const LOD_DISTANCES_REPLACED: &str = "`lod_distances` is gone: levels of detail now double the chunk size as they halve the detail (a quadtree), so one distance lays them all out. Write `lod_distance: 320.0` instead: the metres out to which full detail is drawn (at least 4.5 × chunk_size), each coarser level reaching twice as far; `view_distance` can then be tens of kilometres.";

/// Parses and validates a config; `path` only labels the errors. The loader's whole work,
/// callable without an `App` (tools, tests): never panics, whatever the bytes.
pub fn parse_config(path: &str, bytes: &[u8]) -> Result<TerrainConfig, TerrainConfigLoadError> {
    let parse_error =
        |line, column, field: String, message: String| TerrainConfigLoadError::Parse {
            path: path.to_owned(),
            line,
            column,
            field,
            message,
        };
    let mut deserializer = ron::Deserializer::from_bytes(bytes).map_err(|e| {
        parse_error(
            e.span.start.line,
            e.span.start.col,
            ".".into(),
            e.code.to_string(),
        )
    })?;
    let config: TerrainConfig =
        serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
            let mut field = e.path().to_string();
            let position = deserializer.span_error(ron::Error::Eof).span.start;
            let mut message = e.into_inner().to_string();
            if message.contains("`lod_distances`") {
                // A preset written for 0.1's levels of detail: say what it means now.
                field = "lod_distances".into();
                message = LOD_DISTANCES_REPLACED.into();
            } else if let Some(renamed) = renamed_key(&field, &message) {
                message = renamed;
            }
            parse_error(position.line, position.col, field, message)
        })?;
    deserializer.end().map_err(|e| {
        let position = deserializer.span_error(ron::Error::Eof).span.start;
        parse_error(
            position.line,
            position.col,
            ".".into(),
            format!("{e} after the config"),
        )
    })?;
    config
        .validate()
        .map_err(|error| TerrainConfigLoadError::Invalid {
            path: path.to_owned(),
            error,
        })?;
    Ok(config)
}

impl AssetLoader for TerrainConfigLoader {
    type Asset = TerrainConfig;
    type Settings = ();
    type Error = TerrainConfigLoadError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        load_context: &mut LoadContext<'_>,
    ) -> Result<TerrainConfig, TerrainConfigLoadError> {
        let path = load_context.path().to_string();
        let mut bytes = Vec::new();
        reader
            .read_to_end(&mut bytes)
            .await
            .map_err(|source| TerrainConfigLoadError::Io {
                path: path.clone(),
                source,
            })?;
        parse_config(&path, &bytes)
    }

    fn extensions(&self) -> &[&str] {
        &["terrain.ron"]
    }
}
