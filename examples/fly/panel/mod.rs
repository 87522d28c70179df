//! The fly example's settings panel (bevy_egui): every field of the terrain config (the biomes
//! and the layers' biomes included), grouped as in the RON (`fields`), each on a slider over the
//! typical values of its range in the config's range table (`widgets`); changes apply live
//! through [`TerrainConfigSource`]; save writes the config as a `.terrain.ron` of what differs
//! from the defaults (`TerrainConfig::to_ron`), load picks any file in `assets/terrain/`
//! (`files`); a minimap shows the ground around the camera from above. Tab opens and closes it.
//!
//! The widgets edit a draft; a system in `Update` applies the draft when it differs from what
//! was last applied and validates (egui may run its pass twice a frame, so the pass itself only
//! edits the draft).

mod fields;
mod files;
mod widgets;

use crate::support::top_view;
use bevy::camera_controller::free_camera::FreeCameraState;
use bevy::prelude::*;
use bevy_egui::egui;
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass};
use bevy_perlin_terrain::prelude::*;

/// Minimap side in pixels, and the metres it covers.
const MINIMAP_PIXELS: usize = 160;
const MINIMAP_METRES: f64 = 3000.0;

/// The panel and its sub-systems.
pub struct PanelPlugin {
    /// Whether the panel starts open (screenshot of the panel).
    pub open: bool,
}

impl Plugin for PanelPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins(EguiPlugin::default())
            .insert_resource(Panel {
                open: self.open,
                save_name: "my-terrain".into(),
                ..default()
            })
            .add_systems(PreUpdate, gate_camera)
            .add_systems(
                Update,
                (
                    toggle,
                    apply_draft.before(TerrainSystems::Config),
                    follow_active.after(TerrainSystems::Config),
                    update_minimap.after(follow_active),
                ),
            )
            .add_systems(EguiPrimaryContextPass, draw);
    }
}

/// The panel's state.
#[derive(Resource, Default)]
pub struct Panel {
    pub open: bool,
    /// What the widgets edit.
    draft: Option<TerrainConfig>,
    /// What was last applied (or came from elsewhere: a preset, a hot reload).
    applied: Option<TerrainConfig>,
    /// Why the draft is not applied, if it is not.
    error: Option<String>,
    /// The file name to save as (in `assets/terrain/`, without the extension).
    save_name: String,
    /// The last save's or load's outcome.
    status: String,
    /// A file to load, picked in the panel.
    load: Option<String>,
    /// New minimap pixels for the pass to upload, and the uploaded texture.
    minimap_pixels: Option<egui::ColorImage>,
    minimap: Option<egui::TextureHandle>,
    /// Where the minimap was last drawn around, and for which config.
    minimap_for: Option<(bevy::math::DVec3, TerrainConfig)>,
}

/// Tab opens and closes the panel.
fn toggle(keys: Res<ButtonInput<KeyCode>>, wants: Res<EguiWantsInput>, mut panel: ResMut<Panel>) {
    if keys.just_pressed(KeyCode::Tab) && !wants.wants_any_keyboard_input() {
        panel.open = !panel.open;
    }
}

/// The camera ignores the mouse and keys while egui wants them (the pointer over the panel, a
/// field being typed in), except in the middle of a look-around drag.
fn gate_camera(
    wants: Res<EguiWantsInput>,
    mut cameras: Query<&mut FreeCameraState>,
    mouse: Res<ButtonInput<MouseButton>>,
) {
    let looking = mouse.pressed(MouseButton::Right);
    let enabled = looking || !(wants.wants_any_pointer_input() || wants.wants_any_keyboard_input());
    for mut state in &mut cameras {
        if state.enabled != enabled {
            state.enabled = enabled;
        }
    }
}

/// Keeps the draft in step with the config in force when it changes from elsewhere.
fn follow_active(active: Option<Res<ActiveTerrainConfig>>, mut panel: ResMut<Panel>) {
    let Some(active) = active else { return };
    if panel.applied.as_ref() != Some(active.config()) {
        panel.applied = Some(active.config().clone());
        panel.draft = Some(active.config().clone());
        panel.error = None;
    }
}

/// Applies a changed, valid draft; loads a picked file.
fn apply_draft(mut panel: ResMut<Panel>, mut source: ResMut<TerrainConfigSource>) {
    if let Some(file) = panel.load.take() {
        *source = TerrainConfigSource::Path(format!("terrain/{file}"));
        panel.status = format!("loaded {file}");
        return;
    }
    let Some(draft) = panel.draft.clone() else {
        return;
    };
    if panel.applied.as_ref() == Some(&draft) {
        return;
    }
    match draft.validate() {
        Ok(()) => {
            panel.error = None;
            panel.applied = Some(draft.clone());
            *source = TerrainConfigSource::Fixed(draft);
        }
        Err(e) => panel.error = Some(e.to_string()),
    }
}

/// Draws the minimap again when the config changed or the camera moved a fifth of it.
fn update_minimap(
    mut panel: ResMut<Panel>,
    active: Option<Res<ActiveTerrainConfig>>,
    sampler: Option<Res<TerrainSampler>>,
    camera: Single<(&Transform, &big_space::prelude::CellCoord), With<Camera3d>>,
) {
    let (Some(active), Some(sampler)) = (active, sampler) else {
        return;
    };
    if !panel.open {
        return;
    }
    let here = super::far::true_position(camera.1, camera.0);
    let fresh = panel.minimap_for.as_ref().is_some_and(|(at, config)| {
        config == active.config() && at.distance(here) < MINIMAP_METRES / 5.0
    });
    if fresh {
        return;
    }
    let centre = [here.x, here.z];
    if let Some((rgb, _)) = top_view(
        active.config(),
        &sampler,
        centre,
        MINIMAP_METRES,
        MINIMAP_PIXELS,
    ) {
        panel.minimap_pixels = Some(egui::ColorImage::from_rgb(
            [MINIMAP_PIXELS, MINIMAP_PIXELS],
            &rgb,
        ));
        panel.minimap_for = Some((here, active.config().clone()));
    }
}

/// The egui pass: the window and the draft's widgets.
fn draw(mut contexts: EguiContexts, mut panel: ResMut<Panel>) -> Result {
    if !panel.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let panel = &mut *panel;
    if let Some(image) = panel.minimap_pixels.take() {
        match &mut panel.minimap {
            Some(handle) => handle.set(image, egui::TextureOptions::LINEAR),
            None => {
                panel.minimap =
                    Some(ctx.load_texture("minimap", image, egui::TextureOptions::LINEAR));
            }
        }
    }
    egui::Window::new("Terrain")
        .anchor(egui::Align2::RIGHT_TOP, [-8.0, 8.0])
        .default_width(330.0)
        .default_height(680.0)
        .resizable(false)
        .vscroll(true)
        .show(ctx, |ui| {
            if let Some(minimap) = &panel.minimap {
                ui.image(egui::load::SizedTexture::new(minimap.id(), [160.0, 160.0]));
            }
            files::files(ui, panel);
            if let Some(error) = &panel.error {
                ui.colored_label(egui::Color32::LIGHT_RED, error.as_str());
            }
            let Some(d) = panel.draft.as_mut() else {
                return;
            };
            egui::CollapsingHeader::new("Seed and noise")
                .default_open(true)
                .show(ui, |ui| fields::noise(ui, d));
            ui.collapsing("Heights and chunks", |ui| fields::heights(ui, d));
            ui.collapsing("Streaming", |ui| fields::streaming(ui, d));
            ui.collapsing("Colors", |ui| fields::colors(ui, &mut d.colors));
            ui.collapsing("Water", |ui| fields::water(ui, &mut d.water));
            ui.collapsing("Waves", |ui| fields::waves(ui, &mut d.waves));
            ui.collapsing("Clouds", |ui| fields::clouds(ui, &mut d.clouds));
            ui.collapsing("Collision", |ui| fields::collision(ui, d));
            ui.collapsing("Biomes", |ui| fields::biomes(ui, d));
            ui.collapsing("Scatter", |ui| fields::scatter(ui, d));
        });
    Ok(())
}
