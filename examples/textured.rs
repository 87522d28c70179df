//! Texture layers: sand, grass and rock images made in code with perlin-core (no downloaded
//! assets), registered under names the config's layers use, blended by the terrain material's
//! height, slope and height-in-alpha rules, projected triplanar on cliffs.
//!
//! ```sh
//! cargo run --release --example textured
//! ```
//!
//! WASD fly, E/Q up/down, right mouse button to look. `TERRAIN_SCREENSHOT=out.png` saves one
//! picture once the terrain is in and exits.

use bevy::asset::RenderAssetUsages;
use bevy::camera_controller::free_camera::{FreeCamera, FreeCameraPlugin};
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy_perlin_terrain::perlin_core::{NoiseTables, Perlin};
use bevy_perlin_terrain::prelude::*;
use bevy_perlin_terrain::{HeightBand, LayerTexture};
use std::f64::consts::TAU;
use support::ScreenshotPlugin;

mod support;

/// Pixels per side of each generated texture.
const SIDE: usize = 256;

fn main() -> AppExit {
    let mut app = App::new();
    app.add_plugins((
        DefaultPlugins,
        FreeCameraPlugin,
        PerlinTerrainPlugin::from_config(textured_config()),
    ))
    .add_plugins(support::sky::SkyPlugin)
    .add_systems(Startup, (make_textures, setup));
    if let Some(path) = support::screenshot_path() {
        app.add_plugins(ScreenshotPlugin { path });
    }
    app.run()
}

/// The default terrain with textured sand, grass and rock layers.
fn textured_config() -> TerrainConfig {
    let mut config = TerrainConfig::default();
    let texture = |albedo: &str, size: f32| {
        Some(LayerTexture {
            albedo: albedo.into(),
            normal: Some(format!("{albedo}-normal")),
            size,
        })
    };
    let colors = &mut config.colors;
    // White layer colors: the images carry the color.
    colors.bands = vec![
        HeightBand {
            texture: texture("sand", 3.0),
            ..HeightBand::new(3.0, [1.0, 1.0, 1.0])
        },
        HeightBand {
            texture: texture("grass", 2.5),
            ..HeightBand::new(1.0e9, [1.0, 1.0, 1.0])
        },
    ];
    colors.rock = [1.0, 1.0, 1.0];
    colors.rock_texture = texture("rock", 6.0);
    colors.rock_slope = 0.3;
    colors.height_blend = 0.8;
    config
}

/// Makes each layer's albedo (height in alpha) and normal map, and registers them by name.
fn make_textures(mut images: ResMut<Assets<Image>>, mut textures: ResMut<TerrainTextures>) {
    let tables = NoiseTables::from_seed(7);
    let layers: [(&str, Surface); 3] = [
        ("sand", Surface::SAND),
        ("grass", Surface::GRASS),
        ("rock", Surface::ROCK),
    ];
    for (name, surface) in layers {
        let height = surface.height(&tables);
        let albedo = surface.albedo(&tables, &height);
        let normal = normal_map(&height, surface.bumpiness);
        textures.insert(name, images.add(rgba_image(albedo, true)));
        textures.insert(
            format!("{name}-normal"),
            images.add(rgba_image(normal, false)),
        );
    }
}

/// How one generated surface looks: two colors mixed by a noise, and a height field.
struct Surface {
    light: [f32; 3],
    dark: [f32; 3],
    /// Lattice cells across the image, of the height field and of the color.
    cells: f64,
    color_cells: f64,
    octaves: u32,
    /// Ridged height (cracked rock) instead of smooth.
    ridged: bool,
    /// Slope of the normal map per unit of height change per pixel.
    bumpiness: f32,
}

impl Surface {
    // sRGB colors.
    const SAND: Self = Self {
        light: [0.86, 0.76, 0.55],
        dark: [0.70, 0.58, 0.38],
        cells: 24.0,
        color_cells: 6.0,
        octaves: 3,
        ridged: false,
        bumpiness: 2.0,
    };
    const GRASS: Self = Self {
        light: [0.38, 0.52, 0.16],
        dark: [0.20, 0.34, 0.08],
        cells: 40.0,
        color_cells: 14.0,
        octaves: 4,
        ridged: false,
        bumpiness: 5.0,
    };
    const ROCK: Self = Self {
        light: [0.58, 0.55, 0.50],
        dark: [0.30, 0.28, 0.26],
        cells: 6.0,
        color_cells: 3.0,
        octaves: 5,
        ridged: true,
        bumpiness: 10.0,
    };

    /// The height field, 0 to 1.
    fn height(&self, tables: &NoiseTables) -> Vec<f32> {
        let field = tileable(tables, self.cells, self.octaves, 0.0);
        let shape = |v: f32| {
            if self.ridged {
                1.0 - v.abs()
            } else {
                0.5 + 0.5 * v
            }
        };
        normalise(field.into_iter().map(shape).collect())
    }

    /// sRGB RGBA8: the color (darker in the hollows), the height in alpha.
    fn albedo(&self, tables: &NoiseTables, height: &[f32]) -> Vec<[u8; 4]> {
        let tint = normalise(tileable(tables, self.color_cells, 3, 17.0));
        height
            .iter()
            .zip(tint)
            .map(|(&h, t)| {
                let shade = 0.75 + 0.25 * h;
                let c = |k: usize| {
                    let v = (self.dark[k] + (self.light[k] - self.dark[k]) * t) * shade;
                    (v * 255.0).round() as u8
                };
                [c(0), c(1), c(2), (h * 255.0).round() as u8]
            })
            .collect()
    }
}

/// Fractal Perlin noise on a `SIDE`² image that tiles: pixel `(u, v)` samples 4D noise on a
/// torus, a circle of circumference `cells` lattice cells per image axis, so both edges wrap.
fn tileable(tables: &NoiseTables, cells: f64, octaves: u32, offset: f64) -> Vec<f32> {
    let mut out = Vec::with_capacity(SIDE * SIDE);
    for y in 0..SIDE {
        for x in 0..SIDE {
            let (u, v) = (x as f64 / SIDE as f64 * TAU, y as f64 / SIDE as f64 * TAU);
            let mut sum = 0.0;
            let mut amplitude = 1.0;
            for octave in 0..octaves {
                let r = cells * f64::from(1u32 << octave) / TAU;
                let o = offset + 31.7 * f64::from(octave);
                sum += amplitude
                    * Perlin::default().sample4(
                        tables,
                        r * u.cos() + o,
                        r * u.sin() + o,
                        r * v.cos() + o,
                        r * v.sin() + o,
                    );
                amplitude *= 0.5;
            }
            out.push(sum as f32);
        }
    }
    out
}

/// `values` stretched to 0..1.
fn normalise(values: Vec<f32>) -> Vec<f32> {
    let (low, high) = values
        .iter()
        .fold((f32::MAX, f32::MIN), |(l, h), &v| (l.min(v), h.max(v)));
    let range = (high - low).max(1e-6);
    values.into_iter().map(|v| (v - low) / range).collect()
}

/// A tangent-space normal map (+Y up in the image's green channel) of a tiling height field.
fn normal_map(height: &[f32], bumpiness: f32) -> Vec<[u8; 4]> {
    let at = |x: usize, y: usize| height[(y % SIDE) * SIDE + x % SIDE];
    let mut out = Vec::with_capacity(SIDE * SIDE);
    for y in 0..SIDE {
        for x in 0..SIDE {
            let dx = at(x + 1, y) - at(x + SIDE - 1, y);
            let dy = at(x, y + 1) - at(x, y + SIDE - 1);
            let n = Vec3::new(-dx * bumpiness, dy * bumpiness, 1.0).normalize();
            let byte = |c: f32| ((c * 0.5 + 0.5) * 255.0).round() as u8;
            out.push([byte(n.x), byte(n.y), byte(n.z), 255]);
        }
    }
    out
}

fn rgba_image(pixels: Vec<[u8; 4]>, srgb: bool) -> Image {
    let format = if srgb {
        TextureFormat::Rgba8UnormSrgb
    } else {
        TextureFormat::Rgba8Unorm
    };
    Image::new(
        Extent3d {
            width: SIDE as u32,
            height: SIDE as u32,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        pixels.concat(),
        format,
        // The plugin copies the pixels into its texture arrays: keep them in the main world.
        RenderAssetUsages::MAIN_WORLD | RenderAssetUsages::RENDER_WORLD,
    )
}

fn setup(mut commands: Commands, sampler: Res<TerrainSampler>) {
    // A few metres above a shore of the default terrain, looking along it.
    let eye = Vec2::new(40.0, -120.0);
    let height = sampler.height_at(eye) + 8.0;
    commands.spawn((
        Camera3d::default(),
        Transform::from_xyz(eye.x, height, eye.y).looking_to(Vec3::new(0.5, -0.3, -1.0), Vec3::Y),
        FreeCamera::default(),
        TerrainViewer,
        support::anti_aliasing(),
    ));
    commands.spawn(support::sky::sun(60.0, 800.0));
}
