//! The fly example's settings panel (bevy_egui): every field of the terrain config (the biomes
//! and the layers' biomes included), grouped as in the RON, each on a slider within its validated range; changes apply live through
//! [`TerrainConfigSource`]; save writes the config as a `.terrain.ron` of what differs from the
//! defaults (`TerrainConfig::to_ron`), load picks any file in `assets/terrain/`; a minimap shows
//! the ground around the camera from above. Tab opens and closes it.
//!
//! The widgets edit a draft; a system in `Update` applies the draft when it differs from what
//! was last applied and validates (egui may run its pass twice a frame, so the pass itself only
//! edits the draft).

use crate::support::top_view;
use bevy::camera_controller::free_camera::FreeCameraState;
use bevy::prelude::*;
use bevy_egui::egui::{self, Ui};
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass};
use bevy_perlin_terrain::perlin_core::{
    BaseNoise, DomainWarp, Erosion, Fade, Fbm, FractalMode, Hashing, Interpolation,
};
use bevy_perlin_terrain::prelude::*;
use bevy_perlin_terrain::{HeightBand, ScatterLayer, Snow, SoftRange, TerrainColors, Water};
use std::ops::RangeInclusive;

/// Where presets live, and where the panel saves: `assets/terrain/` under the asset root Bevy
/// uses (`BEVY_ASSET_ROOT`, else the package directory under `cargo run`).
fn terrain_dir() -> String {
    let root = std::env::var("BEVY_ASSET_ROOT")
        .or_else(|_| std::env::var("CARGO_MANIFEST_DIR"))
        .unwrap_or_else(|_| ".".into());
    format!("{root}/assets/terrain")
}
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
    minimap_for: Option<(Vec3, TerrainConfig)>,
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
    camera: Single<&Transform, With<Camera3d>>,
) {
    let (Some(active), Some(sampler)) = (active, sampler) else {
        return;
    };
    if !panel.open {
        return;
    }
    let here = camera.translation;
    let fresh = panel.minimap_for.as_ref().is_some_and(|(at, config)| {
        config == active.config() && at.distance(here) < MINIMAP_METRES as f32 / 5.0
    });
    if fresh {
        return;
    }
    let centre = [here.x as f64, here.z as f64];
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

/// A slider on `value` within `range` that never rewrites a value the user did not touch.
fn slider<'a, N: egui::emath::Numeric>(
    value: &'a mut N,
    range: RangeInclusive<N>,
    text: &str,
) -> egui::Slider<'a> {
    egui::Slider::new(value, range)
        .text(text)
        .clamping(egui::SliderClamping::Edits)
}

/// A soft range's three numbers on sliders within `low..=high`.
fn soft_range(ui: &mut Ui, name: &str, r: &mut SoftRange, low: f32, high: f32) {
    ui.label(name);
    ui.add(slider(&mut r.min, low..=high, "min"));
    ui.add(slider(&mut r.max, r.min..=high, "max"));
    ui.add(slider(&mut r.fade, 0.0..=(high - low), "fade"));
}

/// A combo box choosing among `options`.
fn choose<T: PartialEq + Copy + std::fmt::Debug>(
    ui: &mut Ui,
    label: &str,
    value: &mut T,
    options: &[T],
) {
    egui::ComboBox::from_label(label)
        .selected_text(format!("{value:?}"))
        .show_ui(ui, |ui| {
            for &o in options {
                ui.selectable_value(value, o, format!("{o:?}"));
            }
        });
}

/// A color (linear RGB), written back only when the picker changes it.
fn color(ui: &mut Ui, label: &str, c: &mut [f32; 3]) {
    ui.horizontal(|ui| {
        let mut edit = *c;
        if ui.color_edit_button_rgb(&mut edit).changed() {
            *c = edit;
        }
        ui.label(label);
    });
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
            files(ui, panel);
            if let Some(error) = &panel.error {
                ui.colored_label(egui::Color32::LIGHT_RED, error.as_str());
            }
            let Some(d) = panel.draft.as_mut() else {
                return;
            };
            egui::CollapsingHeader::new("Seed and noise")
                .default_open(true)
                .show(ui, |ui| noise(ui, d));
            ui.collapsing("Heights and chunks", |ui| heights(ui, d));
            ui.collapsing("Streaming", |ui| streaming(ui, d));
            ui.collapsing("Colors", |ui| colors(ui, &mut d.colors));
            ui.collapsing("Water", |ui| water(ui, &mut d.water));
            ui.collapsing("Collision", |ui| {
                ui.add(slider(&mut d.collision.radius, 0.0..=256.0, "radius"));
                let mut own = d.collision.resolution.is_some();
                ui.checkbox(&mut own, "own resolution");
                if own {
                    let r = d.collision.resolution.get_or_insert(d.chunk_resolution);
                    choose(ui, "resolution", r, &[5, 9, 17, 33, 65, 129, 257]);
                } else {
                    d.collision.resolution = None;
                }
            });
            ui.collapsing("Biomes", |ui| biomes(ui, d));
            ui.collapsing("Scatter", |ui| scatter(ui, d));
        });
    Ok(())
}

/// The climate and the biomes: each biome's climate ranges, heights, noise, and its own colors
/// and sea if it has them. A draft whose
/// ranges overlap or leave a gap is refused with the field named (shown above), and the
/// terrain stays as it was.
fn biomes(ui: &mut Ui, d: &mut TerrainConfig) {
    let c = &mut d.climate;
    ui.add(slider(&mut c.scale, 500.0..=50_000.0, "climate scale (m)").logarithmic(true));
    ui.add(
        slider(
            &mut c.continent_scale,
            500.0..=100_000.0,
            "continent scale (m)",
        )
        .logarithmic(true),
    );
    let widest = 0.25 * c.scale.min(c.continent_scale);
    ui.add(slider(&mut c.blend, 1.0..=widest, "blend (m)").logarithmic(true));
    let (look, sea) = (d.colors.clone(), d.water.clone().unwrap_or_default());
    let mut remove = None;
    for (i, b) in d.biomes.iter_mut().enumerate() {
        ui.push_id(("biome", i), |ui| {
            ui.collapsing(b.name.clone(), |ui| {
                ui.text_edit_singleline(&mut b.name);
                for (label, range) in [
                    ("temperature", &mut b.temperature),
                    ("moisture", &mut b.moisture),
                    ("continentalness", &mut b.continentalness),
                ] {
                    ui.add(slider(&mut range.0, -1.0..=1.0, &format!("{label} from")));
                    ui.add(slider(&mut range.1, -1.0..=1.0, &format!("{label} to")));
                }
                ui.add(
                    slider(&mut b.height_scale, 1.0..=2000.0, "height scale (m)").logarithmic(true),
                );
                ui.add(slider(
                    &mut b.height_offset,
                    -1000.0..=1000.0,
                    "height offset (m)",
                ));
                ui.collapsing("noise", |ui| fbm(ui, &mut b.noise));
                // Its own look and sea, starting from the config's.
                let mut own = b.colors.is_some();
                ui.checkbox(&mut own, "own colors");
                match own {
                    true => {
                        let look = b.colors.get_or_insert_with(|| look.clone());
                        ui.collapsing("colors", |ui| colors(ui, look));
                    }
                    false => b.colors = None,
                }
                let mut own = b.water.is_some();
                ui.checkbox(&mut own, "own sea");
                match own {
                    true => {
                        let water = b.water.get_or_insert_with(|| sea.clone());
                        ui.collapsing("sea", |ui| water_look(ui, water));
                    }
                    false => b.water = None,
                }
                if ui.small_button("remove biome").clicked() {
                    remove = Some(i);
                }
            });
        });
    }
    if let Some(i) = remove {
        d.biomes.remove(i);
    }
    if d.biomes.len() < bevy_perlin_terrain::MAX_BIOMES && ui.small_button("+ biome").clicked() {
        // A new biome claims nothing until its ranges are moved apart from the others'.
        let name = format!("biome {}", d.biomes.len() + 1);
        d.biomes.push(Biome {
            name,
            ..Biome::default()
        });
    }
}

/// Save and load.
fn files(ui: &mut Ui, panel: &mut Panel) {
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

fn noise(ui: &mut Ui, d: &mut TerrainConfig) {
    ui.add(egui::DragValue::new(&mut d.seed).speed(1.0).prefix("seed "));
    if !d.biomes.is_empty() {
        ui.label("(with biomes, each biome has its own noise: see Biomes)");
    }
    fbm(ui, &mut d.noise);
}

/// The widgets of one fractal noise (the config's or a biome's).
fn fbm(ui: &mut Ui, n: &mut Fbm) {
    choose(
        ui,
        "base",
        &mut n.base,
        &[BaseNoise::Perlin, BaseNoise::Simplex, BaseNoise::Value],
    );
    choose(
        ui,
        "fade",
        &mut n.fade,
        &[Fade::Linear, Fade::Hermite, Fade::Quintic],
    );
    choose(
        ui,
        "interpolation (value noise)",
        &mut n.interpolation,
        &[
            Interpolation::Linear,
            Interpolation::Cosine,
            Interpolation::Cubic,
        ],
    );
    choose(
        ui,
        "hashing",
        &mut n.hashing,
        &[Hashing::Integer, Hashing::Table],
    );
    choose(
        ui,
        "mode",
        &mut n.mode,
        &[
            FractalMode::Standard,
            FractalMode::Ridged,
            FractalMode::Billow,
            FractalMode::Turbulence,
        ],
    );
    ui.add(slider(&mut n.octaves, 1..=12, "octaves"));
    ui.add(slider(&mut n.frequency, 1e-4..=0.05, "frequency (cells per metre)").logarithmic(true));
    ui.add(slider(&mut n.amplitude, 0.05..=4.0, "amplitude"));
    ui.add(slider(&mut n.lacunarity, 1.1..=4.0, "lacunarity"));
    ui.add(slider(&mut n.persistence, 0.0..=1.0, "persistence"));
    ui.add(slider(&mut n.contrast, 0.25..=4.0, "contrast"));
    ui.add(slider(&mut n.noise_size, -4.0..=4.0, "noise size"));
    ui.add(slider(
        &mut n.octave_shift,
        -1000.0..=1000.0,
        "octave shift",
    ));
    let mut warped = n.warp.is_some();
    ui.checkbox(&mut warped, "domain warp");
    if warped {
        let w = n.warp.get_or_insert(DomainWarp::default());
        ui.add(slider(&mut w.amplitude, 0.0..=500.0, "warp amplitude (m)"));
        ui.add(slider(&mut w.frequency, 1e-4..=0.1, "warp frequency").logarithmic(true));
    } else {
        n.warp = None;
    }
    let mut eroded = n.erosion.is_some();
    ui.checkbox(&mut eroded, "erosion");
    if eroded {
        let e = n.erosion.get_or_insert(Erosion::default());
        ui.add(slider(&mut e.strength, 0.0..=1.0, "strength"));
        ui.add(slider(&mut e.scale, 0.01..=4.0, "scale"));
        ui.add(slider(&mut e.octaves, 1..=8, "octaves"));
        ui.add(slider(&mut e.lacunarity, 1.5..=4.0, "lacunarity"));
        ui.add(slider(&mut e.gain, 0.0..=1.0, "gain"));
        ui.add(slider(&mut e.sharpness, 0.0..=1.0, "sharpness"));
        ui.add(slider(&mut e.detail, 0.5..=4.0, "detail"));
        ui.add(slider(&mut e.slope_onset, 0.01..=100.0, "slope onset").logarithmic(true));
        ui.add(slider(&mut e.preserve, 0.0..=1.0, "preserve"));
    } else {
        n.erosion = None;
    }
}

fn heights(ui: &mut Ui, d: &mut TerrainConfig) {
    ui.add(slider(&mut d.height_scale, 1.0..=2000.0, "height scale (m)").logarithmic(true));
    ui.add(slider(&mut d.sea_level, -1000.0..=1000.0, "sea level (m)"));
    ui.add(slider(&mut d.chunk_size, 8.0..=512.0, "chunk size (m)").logarithmic(true));
    choose(
        ui,
        "chunk resolution",
        &mut d.chunk_resolution,
        &[17, 33, 65, 129, 257],
    );
    let mut auto = d.skirt_depth.is_none();
    ui.checkbox(&mut auto, "automatic skirt depth");
    if auto {
        d.skirt_depth = None;
    } else {
        let s = d.skirt_depth.get_or_insert(10.0);
        ui.add(slider(s, 0.0..=200.0, "skirt depth (m)"));
    }
}

fn streaming(ui: &mut Ui, d: &mut TerrainConfig) {
    ui.add(
        slider(
            &mut d.view_distance,
            d.chunk_size..=60_000.0,
            "view distance (m)",
        )
        .logarithmic(true),
    );
    ui.add(
        slider(
            &mut d.lod_distance,
            4.5 * d.chunk_size..=20.0 * d.chunk_size,
            "full detail out to (m)",
        )
        .logarithmic(true),
    );
    ui.add(slider(
        &mut d.max_tasks_in_flight,
        1..=64,
        "tasks in flight",
    ));
    ui.add(slider(
        &mut d.max_uploads_per_frame,
        1..=64,
        "uploads per frame",
    ));
}

fn colors(ui: &mut Ui, c: &mut TerrainColors) {
    color(ui, "sea bed", &mut c.sea_bed);
    let mut remove = None;
    let mut low = f32::NEG_INFINITY;
    for (i, band) in c.bands.iter_mut().enumerate() {
        ui.push_id(i, |ui| {
            ui.horizontal(|ui| {
                color(ui, &format!("band {}", i + 1), &mut band.color);
                if ui.small_button("−").clicked() {
                    remove = Some(i);
                }
            });
            let floor = if low.is_finite() { low + 0.1 } else { -500.0 };
            ui.add(slider(
                &mut band.up_to,
                floor..=floor.max(0.0) + 3000.0,
                "up to (m)",
            ));
            ui.add(slider(&mut band.roughness, 0.0..=1.0, "roughness"));
            low = band.up_to;
        });
    }
    if let Some(i) = remove {
        c.bands.remove(i);
    }
    if c.bands.len() < bevy_perlin_terrain::config::MAX_BANDS && ui.small_button("+ band").clicked()
    {
        let top = c.bands.last().map_or(10.0, |b| b.up_to.min(1e5) + 50.0);
        c.bands.push(HeightBand::new(top, [0.3, 0.3, 0.3]));
    }
    ui.add(slider(&mut c.band_blend, 0.0..=100.0, "band blend (m)"));
    color(ui, "rock", &mut c.rock);
    ui.add(slider(&mut c.rock_slope, 0.0..=1.0, "rock slope"));
    ui.add(slider(&mut c.rock_blend, 0.0..=1.0, "rock blend"));
    ui.add(slider(&mut c.rock_roughness, 0.0..=1.0, "rock roughness"));
    let mut snowy = c.snow.is_some();
    ui.checkbox(&mut snowy, "snow");
    if snowy {
        let s = c.snow.get_or_insert(Snow::default());
        color(ui, "snow", &mut s.color);
        ui.add(slider(&mut s.from, -500.0..=3000.0, "from (m)"));
        ui.add(slider(&mut s.blend, 0.0..=200.0, "blend (m)"));
        ui.add(slider(&mut s.max_slope, 0.0..=1.0, "max slope"));
        ui.add(slider(&mut s.slope_blend, 0.0..=1.0, "slope blend"));
        ui.add(slider(&mut s.roughness, 0.0..=1.0, "roughness"));
    } else {
        c.snow = None;
    }
    ui.add(slider(
        &mut c.edge_noise.height,
        0.0..=100.0,
        "edge noise height (m)",
    ));
    ui.add(slider(
        &mut c.edge_noise.slope,
        0.0..=0.5,
        "edge noise slope",
    ));
    ui.add(slider(
        &mut c.edge_noise.size,
        1.0..=500.0,
        "edge noise size (m)",
    ));
    ui.add(slider(&mut c.creases, 0.0..=1.0, "creases"));
    ui.add(slider(&mut c.grain.strength, 0.0..=1.0, "grain strength"));
    ui.add(slider(&mut c.grain.size, 0.05..=10.0, "grain size (m)"));
    ui.add(slider(
        &mut c.grain.fade_distance,
        1.0..=1000.0,
        "grain fade (m)",
    ));
    ui.add(slider(&mut c.height_blend, 0.0..=1.0, "height blend"));
    ui.label("Texture layers are named images: edit them in the .terrain.ron.");
}

fn water(ui: &mut Ui, w: &mut Option<Water>) {
    let mut wet = w.is_some();
    ui.checkbox(&mut wet, "sea surface");
    if !wet {
        *w = None;
        return;
    }
    water_look(ui, w.get_or_insert(Water::default()));
}

/// The look of a sea: the config's, or a biome's own.
fn water_look(ui: &mut Ui, w: &mut Water) {
    color(ui, "shallow", &mut w.shallow);
    color(ui, "deep", &mut w.deep);
    color(ui, "sky", &mut w.sky);
    ui.add(slider(
        &mut w.depth,
        0.01..=200.0,
        "depth of full color (m)",
    ));
    ui.add(slider(&mut w.foam, 0.0..=10.0, "foam (m)"));
    ui.add(slider(&mut w.waves, 0.0..=1.0, "waves"));
}

fn scatter(ui: &mut Ui, d: &mut TerrainConfig) {
    let view = d.view_distance;
    let biome_names: Vec<String> = d.biomes.iter().map(|b| b.name.clone()).collect();
    let mut remove = None;
    for (i, l) in d.scatter.iter_mut().enumerate() {
        ui.push_id(("layer", i), |ui| {
            ui.collapsing(l.name.clone(), |ui| {
                ui.text_edit_singleline(&mut l.name);
                ui.add(slider(&mut l.spacing, 0.5..=50.0, "spacing (m)").logarithmic(true));
                let most = 1e4 / (l.spacing * l.spacing);
                ui.add(slider(&mut l.density, 0.0..=most, "density (per ha)").logarithmic(true));
                soft_range(ui, "height above sea (m)", &mut l.height, -1000.0, 3000.0);
                soft_range(ui, "slope", &mut l.slope, 0.0, 1.0);
                let mut creased = l.creases.is_some();
                ui.checkbox(&mut creased, "by creases");
                if creased {
                    let c = l.creases.get_or_insert(SoftRange {
                        min: 0.0,
                        max: 1.0,
                        fade: 0.0,
                    });
                    soft_range(ui, "creases", c, 0.0, 1.0);
                } else {
                    l.creases = None;
                }
                ui.add(slider(&mut l.scale.0, 0.05..=10.0, "scale from"));
                ui.add(slider(&mut l.scale.1, l.scale.0..=10.0, "scale to"));
                ui.add(slider(&mut l.rotation, 0.0..=180.0, "turn (±°)"));
                ui.add(slider(&mut l.tilt, 0.0..=90.0, "lean (°)"));
                ui.checkbox(&mut l.align_to_normal, "along the ground normal");
                ui.add(slider(&mut l.sink, -5.0..=5.0, "sink (m)"));
                ui.add(slider(
                    &mut l.view_distance,
                    0.0..=view.min(2000.0),
                    "view distance (m)",
                ));
                if !biome_names.is_empty() {
                    ui.label("grows in (none: everywhere)");
                    for name in &biome_names {
                        let mut on = l.biomes.contains(name);
                        if ui.checkbox(&mut on, name.as_str()).changed() {
                            if on {
                                l.biomes.push(name.clone());
                            } else {
                                l.biomes.retain(|b| b != name);
                            }
                        }
                    }
                }
                let mut far = l.far_color.is_some();
                ui.checkbox(&mut far, "color beyond its view distance");
                if far {
                    let f = l.far_color.get_or_insert_default();
                    color(ui, "far color", &mut f.color);
                    ui.add(slider(&mut f.cover, 0.0..=1.0, "far cover"));
                } else {
                    l.far_color = None;
                }
                if ui.small_button("remove layer").clicked() {
                    remove = Some(i);
                }
            });
        });
    }
    if let Some(i) = remove {
        d.scatter.remove(i);
    }
    if d.scatter.len() < bevy_perlin_terrain::config::MAX_SCATTER_LAYERS
        && ui.small_button("+ layer").clicked()
    {
        let name = format!("layer {}", d.scatter.len() + 1);
        d.scatter.push(ScatterLayer {
            name,
            ..ScatterLayer::default()
        });
    }
}
