//! Save and load: the draft as a `.terrain.ron` of what differs from the defaults
//! (`TerrainConfig::to_ron`), and any file in `assets/terrain/`.

use super::Panel;
use bevy_egui::egui::{self, Ui};

/// Where presets live, and where the panel saves: `assets/terrain/` under the asset root Bevy
/// uses (`BEVY_ASSET_ROOT`, else the package directory under `cargo run`).
fn terrain_dir() -> String {
    let root = std::env::var("BEVY_ASSET_ROOT")
        .or_else(|_| std::env::var("CARGO_MANIFEST_DIR"))
        .unwrap_or_else(|_| ".".into());
    format!("{root}/assets/terrain")
}

/// Save and load.
pub(super) fn files(ui: &mut Ui, panel: &mut Panel) {
    ui.horizontal(|ui| {
        ui.text_edit_singleline(&mut panel.save_name);
        if ui.button("Save").clicked()
            && let Some(config) = &panel.applied
        {
            let name: String = panel
                .save_name
                .chars()
                .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            let path = format!("{}/{name}.terrain.ron", terrain_dir());
            panel.status = match std::fs::write(&path, config.to_ron()) {
                Ok(()) => format!("saved {path}"),
                Err(e) => format!("{path}: {e}"),
            };
        }
    });
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt("load")
            .selected_text("Load…")
            .show_ui(ui, |ui| {
                let mut names: Vec<String> = std::fs::read_dir(terrain_dir())
                    .into_iter()
                    .flatten()
                    .flatten()
                    .filter_map(|e| e.file_name().into_string().ok())
                    .filter(|n| n.ends_with(".terrain.ron"))
                    .collect();
                names.sort();
                for name in names {
                    if ui.selectable_label(false, name.as_str()).clicked() {
                        panel.load = Some(name);
                    }
                }
            });
        ui.label(panel.status.as_str());
    });
}
