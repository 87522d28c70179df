//! The presets the fly example switches between: every file in `assets/terrain/`, one number
//! key each.

use bevy::prelude::*;
use bevy_perlin_terrain::prelude::*;

/// The presets the keys cycle through: every `*.terrain.ron` in `assets/terrain/`, sorted by
/// name, so a preset added there is one key away.
pub fn preset_names() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/terrain");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".terrain.ron").map(str::to_owned)
        })
        .collect();
    names.sort();
    if names.is_empty() {
        names.push("default".to_owned());
    }
    names
}

/// The preset on screen and the ones the number keys load, for the HUD and the keys.
#[derive(Resource)]
pub struct Preset {
    pub names: Vec<String>,
    pub current: usize,
}

impl Preset {
    pub fn path(&self, index: usize) -> String {
        format!(
            "terrain/{}.terrain.ron",
            self.names[index % self.names.len()]
        )
    }
}

/// Keys 1–9 load another preset; the terrain regenerates in place.
pub fn switch_preset(
    keys: Res<ButtonInput<KeyCode>>,
    mut preset: ResMut<Preset>,
    mut source: ResMut<TerrainConfigSource>,
) {
    let digits = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    if let Some(index) = digits.iter().position(|k| keys.just_pressed(*k))
        && index < preset.names.len()
        && index != preset.current
    {
        preset.current = index;
        *source = TerrainConfigSource::Path(preset.path(index));
    }
}
