//! The draft's fields, grouped as in the RON: the noise, heights and chunks, streaming, colors,
//! water, collision, biomes and scatter. Every slider spans its field's typical values from the
//! config's range table (`bevy_perlin_terrain::config::ranges`); a value typed outside them is
//! kept, and the validation refuses one outside the allowed range.

use super::widgets::{choose, color, grid_sizes, ranged, slider, soft_range};
use bevy_egui::egui::{self, Ui};
use bevy_perlin_terrain::config::ranges;
use bevy_perlin_terrain::perlin_core::{
    BaseNoise, DomainWarp, Erosion, Fade, Fbm, FractalMode, Hashing, Interpolation,
};
use bevy_perlin_terrain::prelude::*;
use bevy_perlin_terrain::{HeightBand, ScatterLayer, Snow, SoftRange, TerrainColors, Water};

/// The seed and the config's noise.
pub(super) fn noise(ui: &mut Ui, d: &mut TerrainConfig) {
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
    ui.add(ranged(&mut n.octaves, &ranges::NOISE_OCTAVES, "octaves"));
    ui.add(
        ranged(
            &mut n.frequency,
            &ranges::NOISE_FREQUENCY,
            "frequency (cells per metre)",
        )
        .logarithmic(true),
    );
    ui.add(ranged(
        &mut n.amplitude,
        &ranges::NOISE_AMPLITUDE,
        "amplitude",
    ));
    ui.add(ranged(
        &mut n.lacunarity,
        &ranges::NOISE_LACUNARITY,
        "lacunarity",
    ));
    ui.add(ranged(
        &mut n.persistence,
        &ranges::NOISE_PERSISTENCE,
        "persistence",
    ));
    ui.add(ranged(&mut n.contrast, &ranges::NOISE_CONTRAST, "contrast"));
    ui.add(ranged(&mut n.noise_size, &ranges::NOISE_SIZE, "noise size"));
    ui.add(ranged(
        &mut n.octave_shift,
        &ranges::NOISE_OCTAVE_SHIFT,
        "octave shift",
    ));
    let mut warped = n.warp.is_some();
    ui.checkbox(&mut warped, "domain warp");
    if warped {
        let w = n.warp.get_or_insert(DomainWarp::default());
        ui.add(ranged(
            &mut w.amplitude,
            &ranges::NOISE_WARP_AMPLITUDE,
            "warp amplitude (m)",
        ));
        ui.add(
            ranged(
                &mut w.frequency,
                &ranges::NOISE_WARP_FREQUENCY,
                "warp frequency",
            )
            .logarithmic(true),
        );
    } else {
        n.warp = None;
    }
    let mut eroded = n.erosion.is_some();
    ui.checkbox(&mut eroded, "erosion");
    if eroded {
        let e = n.erosion.get_or_insert(Erosion::default());
        ui.add(ranged(
            &mut e.strength,
            &ranges::EROSION_STRENGTH,
            "strength",
        ));
        ui.add(ranged(&mut e.scale, &ranges::EROSION_SCALE, "scale"));
        ui.add(ranged(&mut e.octaves, &ranges::EROSION_OCTAVES, "octaves"));
        ui.add(ranged(
            &mut e.lacunarity,
            &ranges::EROSION_LACUNARITY,
            "lacunarity",
        ));
        ui.add(ranged(&mut e.gain, &ranges::EROSION_GAIN, "gain"));
        ui.add(ranged(
            &mut e.sharpness,
            &ranges::EROSION_SHARPNESS,
            "sharpness",
        ));
        ui.add(ranged(&mut e.detail, &ranges::EROSION_DETAIL, "detail"));
        ui.add(
            ranged(
                &mut e.slope_onset,
                &ranges::EROSION_SLOPE_ONSET,
                "slope onset",
            )
            .logarithmic(true),
        );
        ui.add(ranged(
            &mut e.preserve,
            &ranges::EROSION_PRESERVE,
            "preserve",
        ));
    } else {
        n.erosion = None;
    }
}

/// Heights and chunks.
pub(super) fn heights(ui: &mut Ui, d: &mut TerrainConfig) {
    ui.add(
        ranged(
            &mut d.height_scale,
            &ranges::HEIGHT_SCALE,
            "height scale (m)",
        )
        .logarithmic(true),
    );
    ui.add(ranged(
        &mut d.sea_level,
        &ranges::SEA_LEVEL,
        "sea level (m)",
    ));
    ui.add(ranged(&mut d.chunk_size, &ranges::CHUNK_SIZE, "chunk size (m)").logarithmic(true));
    choose(
        ui,
        "chunk resolution",
        &mut d.chunk_resolution,
        &grid_sizes(&ranges::CHUNK_RESOLUTION),
    );
    let mut auto = d.skirt_depth.is_none();
    ui.checkbox(&mut auto, "automatic skirt depth");
    if auto {
        d.skirt_depth = None;
    } else {
        let s = d.skirt_depth.get_or_insert(10.0);
        ui.add(ranged(s, &ranges::SKIRT_DEPTH, "skirt depth (m)"));
    }
}

/// How the terrain streams: the view, the levels of detail and the budgets.
pub(super) fn streaming(ui: &mut Ui, d: &mut TerrainConfig) {
    // The nearest ends follow the chunk size, as the validation's bounds do.
    let nearest = ranges::VIEW_DISTANCE_MIN_CHUNKS * d.chunk_size;
    let farthest = ranges::VIEW_DISTANCE.typical.1 as f32;
    ui.add(
        slider(
            &mut d.view_distance,
            nearest..=farthest.max(nearest),
            "view distance (m)",
        )
        .logarithmic(true),
    );
    let nearest = ranges::LOD_DISTANCE_MIN_CHUNKS * d.chunk_size;
    let farthest = ranges::LOD_DISTANCE.typical.1 as f32;
    ui.add(
        slider(
            &mut d.lod_distance,
            nearest..=farthest.max(nearest),
            "full detail out to (m)",
        )
        .logarithmic(true),
    );
    ui.add(ranged(
        &mut d.max_tasks_in_flight,
        &ranges::MAX_TASKS_IN_FLIGHT,
        "tasks in flight",
    ));
    ui.add(ranged(
        &mut d.max_uploads_per_frame,
        &ranges::MAX_UPLOADS_PER_FRAME,
        "uploads per frame",
    ));
}

/// The ground's look (the config's or a biome's).
pub(super) fn colors(ui: &mut Ui, c: &mut TerrainColors) {
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
            // Bands rise: each starts a little above the one before.
            let floor = if low.is_finite() { low + 0.1 } else { -500.0 };
            ui.add(slider(
                &mut band.up_to,
                floor..=floor.max(0.0) + 3000.0,
                "up to (m)",
            ));
            ui.add(ranged(&mut band.roughness, &ranges::ROUGHNESS, "roughness"));
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
    ui.add(ranged(
        &mut c.band_blend,
        &ranges::BAND_BLEND,
        "band blend (m)",
    ));
    color(ui, "rock", &mut c.rock);
    ui.add(ranged(&mut c.rock_slope, &ranges::ROCK_SLOPE, "rock slope"));
    ui.add(ranged(&mut c.rock_blend, &ranges::ROCK_BLEND, "rock blend"));
    ui.add(ranged(
        &mut c.rock_roughness,
        &ranges::ROUGHNESS,
        "rock roughness",
    ));
    let mut snowy = c.snow.is_some();
    ui.checkbox(&mut snowy, "snow");
    if snowy {
        let s = c.snow.get_or_insert(Snow::default());
        color(ui, "snow", &mut s.color);
        ui.add(ranged(&mut s.from, &ranges::SNOW_FROM, "from (m)"));
        ui.add(ranged(&mut s.blend, &ranges::SNOW_BLEND, "blend (m)"));
        ui.add(ranged(
            &mut s.max_slope,
            &ranges::SNOW_MAX_SLOPE,
            "max slope",
        ));
        ui.add(ranged(
            &mut s.slope_blend,
            &ranges::SNOW_SLOPE_BLEND,
            "slope blend",
        ));
        ui.add(ranged(&mut s.roughness, &ranges::ROUGHNESS, "roughness"));
    } else {
        c.snow = None;
    }
    ui.add(ranged(
        &mut c.edge_noise.height,
        &ranges::EDGE_NOISE_HEIGHT,
        "edge noise height (m)",
    ));
    ui.add(ranged(
        &mut c.edge_noise.slope,
        &ranges::EDGE_NOISE_SLOPE,
        "edge noise slope",
    ));
    ui.add(ranged(
        &mut c.edge_noise.size,
        &ranges::EDGE_NOISE_SIZE,
        "edge noise size (m)",
    ));
    ui.add(ranged(&mut c.creases, &ranges::CREASES, "creases"));
    ui.add(ranged(
        &mut c.grain.strength,
        &ranges::GRAIN_STRENGTH,
        "grain strength",
    ));
    ui.add(ranged(
        &mut c.grain.size,
        &ranges::GRAIN_SIZE,
        "grain size (m)",
    ));
    ui.add(ranged(
        &mut c.grain.fade_distance,
        &ranges::GRAIN_FADE_DISTANCE,
        "grain fade (m)",
    ));
    ui.add(ranged(
        &mut c.height_blend,
        &ranges::HEIGHT_BLEND,
        "height blend",
    ));
    ui.label("Texture layers are named images: edit them in the .terrain.ron.");
}

/// The sea surface, if any.
pub(super) fn water(ui: &mut Ui, w: &mut Option<Water>) {
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
    ui.add(ranged(
        &mut w.depth,
        &ranges::WATER_DEPTH,
        "depth of full color (m)",
    ));
    ui.add(ranged(&mut w.foam, &ranges::WATER_FOAM, "foam (m)"));
    ui.add(ranged(&mut w.ripples, &ranges::WATER_RIPPLES, "ripples"));
}

/// The sea's waves, or none.
pub(super) fn waves(ui: &mut Ui, w: &mut Option<Waves>) {
    let mut on = w.is_some();
    ui.checkbox(&mut on, "waves");
    if !on {
        *w = None;
        return;
    }
    let w = w.get_or_insert(Waves::default());
    ui.add(ranged(&mut w.height, &ranges::WAVE_HEIGHT, "height (m)"));
    ui.add(ranged(&mut w.length, &ranges::WAVE_LENGTH, "length (m)"));
    ui.add(ranged(
        &mut w.direction,
        &ranges::WAVE_DIRECTION,
        "direction (°)",
    ));
    ui.add(ranged(
        &mut w.shore_depth,
        &ranges::WAVE_SHORE_DEPTH,
        "full height from depth (m)",
    ));
    ui.add(ranged(&mut w.foam, &ranges::WAVE_FOAM, "foam"));
}

/// The cloud layer, or a clear sky.
pub(super) fn clouds(ui: &mut Ui, c: &mut Option<Clouds>) {
    let mut on = c.is_some();
    ui.checkbox(&mut on, "clouds");
    if !on {
        *c = None;
        return;
    }
    let c = c.get_or_insert(Clouds::default());
    ui.add(ranged(&mut c.altitude, &ranges::CLOUD_ALTITUDE, "base (m)"));
    ui.add(ranged(
        &mut c.thickness,
        &ranges::CLOUD_THICKNESS,
        "thickness (m)",
    ));
    ui.add(ranged(&mut c.coverage, &ranges::CLOUD_COVERAGE, "coverage"));
    ui.add(ranged(&mut c.scale, &ranges::CLOUD_SCALE, "size (m)"));
    ui.add(ranged(&mut c.wind[0], &ranges::CLOUD_WIND, "wind x (m/s)"));
    ui.add(ranged(&mut c.wind[1], &ranges::CLOUD_WIND, "wind z (m/s)"));
    ui.add(ranged(&mut c.softness, &ranges::CLOUD_SOFTNESS, "softness"));
}

/// The colliders' radius and resolution.
pub(super) fn collision(ui: &mut Ui, d: &mut TerrainConfig) {
    ui.add(ranged(
        &mut d.collision.radius,
        &ranges::COLLISION_RADIUS,
        "radius",
    ));
    let mut own = d.collision.resolution.is_some();
    ui.checkbox(&mut own, "own resolution");
    if own {
        let r = d.collision.resolution.get_or_insert(d.chunk_resolution);
        choose(
            ui,
            "resolution",
            r,
            &grid_sizes(&ranges::COLLISION_RESOLUTION),
        );
    } else {
        d.collision.resolution = None;
    }
}

/// The climate and the biomes: each biome's climate ranges, heights, noise, and its own colors
/// and sea if it has them. A draft whose ranges overlap or leave a gap is refused with the field
/// named (shown above), and the terrain stays as it was.
pub(super) fn biomes(ui: &mut Ui, d: &mut TerrainConfig) {
    let c = &mut d.climate;
    ui.add(ranged(&mut c.scale, &ranges::CLIMATE_SCALE, "climate scale (m)").logarithmic(true));
    ui.add(
        ranged(
            &mut c.continent_scale,
            &ranges::CLIMATE_CONTINENT_SCALE,
            "continent scale (m)",
        )
        .logarithmic(true),
    );
    let widest = ranges::climate_blend_max(c.scale, c.continent_scale);
    let narrowest = ranges::CLIMATE_BLEND.min as f32;
    ui.add(slider(&mut c.blend, narrowest..=widest, "blend (m)").logarithmic(true));
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
                    let climate = &ranges::CLIMATE_RANGE;
                    ui.add(ranged(&mut range.0, climate, &format!("{label} from")));
                    ui.add(ranged(&mut range.1, climate, &format!("{label} to")));
                }
                ui.add(
                    ranged(
                        &mut b.height_scale,
                        &ranges::HEIGHT_SCALE,
                        "height scale (m)",
                    )
                    .logarithmic(true),
                );
                ui.add(ranged(
                    &mut b.height_offset,
                    &ranges::HEIGHT_OFFSET,
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

/// The scatter layers: each layer's spacing, density, rules, variation and view.
pub(super) fn scatter(ui: &mut Ui, d: &mut TerrainConfig) {
    let view = d.view_distance;
    let biome_names: Vec<String> = d.biomes.iter().map(|b| b.name.clone()).collect();
    let mut remove = None;
    for (i, l) in d.scatter.iter_mut().enumerate() {
        ui.push_id(("layer", i), |ui| {
            ui.collapsing(l.name.clone(), |ui| {
                ui.text_edit_singleline(&mut l.name);
                ui.add(
                    ranged(&mut l.spacing, &ranges::SCATTER_SPACING, "spacing (m)")
                        .logarithmic(true),
                );
                let fewest = ranges::SCATTER_DENSITY.min as f32;
                let most = ranges::scatter_density_max(l.spacing);
                ui.add(slider(&mut l.density, fewest..=most, "density (per ha)").logarithmic(true));
                soft_range(
                    ui,
                    "height above sea (m)",
                    &mut l.height,
                    &ranges::SCATTER_HEIGHT,
                    &ranges::SCATTER_HEIGHT_FADE,
                );
                soft_range(
                    ui,
                    "slope",
                    &mut l.slope,
                    &ranges::SCATTER_SLOPE,
                    &ranges::SCATTER_SLOPE_FADE,
                );
                let mut creased = l.creases.is_some();
                ui.checkbox(&mut creased, "by creases");
                if creased {
                    let c = l.creases.get_or_insert(SoftRange {
                        min: ranges::SCATTER_CREASES.min as f32,
                        max: ranges::SCATTER_CREASES.max as f32,
                        fade: 0.0,
                    });
                    soft_range(
                        ui,
                        "creases",
                        c,
                        &ranges::SCATTER_CREASES,
                        &ranges::SCATTER_CREASES_FADE,
                    );
                } else {
                    l.creases = None;
                }
                let scale = ranges::SCATTER_SCALE.typical_f32();
                ui.add(slider(&mut l.scale.0, scale.clone(), "scale from"));
                ui.add(slider(&mut l.scale.1, l.scale.0..=*scale.end(), "scale to"));
                ui.add(ranged(
                    &mut l.rotation,
                    &ranges::SCATTER_ROTATION,
                    "turn (±°)",
                ));
                ui.add(ranged(&mut l.tilt, &ranges::SCATTER_TILT, "lean (°)"));
                ui.checkbox(&mut l.align_to_normal, "along the ground normal");
                ui.add(ranged(&mut l.sink, &ranges::SCATTER_SINK, "sink (m)"));
                let seen = &ranges::SCATTER_VIEW_DISTANCE;
                ui.add(slider(
                    &mut l.view_distance,
                    seen.min as f32..=view.min(seen.typical.1 as f32),
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
                    ui.add(ranged(&mut f.cover, &ranges::FAR_COLOR_COVER, "far cover"));
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
