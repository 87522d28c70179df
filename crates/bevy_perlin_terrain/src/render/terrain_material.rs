//! [`TerrainMaterial`]: Bevy's `StandardMaterial` extended with the terrain's own fragment
//! shader (`terrain.wgsl`, embedded in the crate), and the uniform it reads, built from the
//! config's `colours`.

use super::textures::LayerTextureSlots;
use crate::config::{LayerTexture, MAX_BANDS, TerrainColours, TerrainConfig};
use bevy::material::OpaqueRendererMethod;
use bevy::pbr::{ExtendedMaterial, MaterialExtension};
use bevy::prelude::*;
use bevy::render::render_resource::{AsBindGroup, ShaderType};
use bevy::shader::ShaderRef;

/// The terrain's material: PBR lighting (shadows, fog, tonemapping) from Bevy's
/// `StandardMaterial`, colour, roughness and shading normal from [`TerrainMaterialExtension`].
pub type TerrainMaterial = ExtendedMaterial<StandardMaterial, TerrainMaterialExtension>;

/// The terrain's part of [`TerrainMaterial`]: the layer rules as a uniform, and the layer
/// textures as two texture arrays (albedo, normal), bound only when a layer has a texture.
#[derive(Asset, AsBindGroup, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct TerrainMaterialExtension {
    /// The layer rules (from the config's `colours` and `sea_level`).
    #[uniform(100)]
    pub shading: TerrainShading,
    /// Every layer's albedo image, one array layer each (sRGB, mipmapped).
    #[texture(101, dimension = "2d_array")]
    #[sampler(102)]
    pub albedo: Option<Handle<Image>>,
    /// Every layer's normal map, one array layer each (linear, mipmapped).
    #[texture(103, dimension = "2d_array")]
    #[sampler(104)]
    pub normals: Option<Handle<Image>>,
}

/// Layers in the shading table: the sea bed, up to [`MAX_BANDS`] bands, rock, snow (and one
/// spare, for a table of a multiple of four).
const LAYERS: usize = MAX_BANDS + 4;
const SEA_BED: usize = 0;
const ROCK: usize = MAX_BANDS + 1;
const SNOW: usize = MAX_BANDS + 2;

/// The uniform of the terrain shader: the config's layer rules packed in `vec4`s (as WGSL's
/// uniform layout wants). See `terrain.wgsl` for how each is read.
#[derive(ShaderType, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct TerrainShading {
    /// Per layer: linear RGB and perceptual roughness. Layer 0 is the sea bed, 1 to 8 the
    /// bands, 9 rock, 10 snow.
    pub layers: [Vec4; LAYERS],
    /// Per layer: albedo array layer (−1 for none), normal array layer (−1 for none), repeats
    /// per metre, unused.
    pub textures: [Vec4; LAYERS],
    /// The lower edge of each band, metres above sea level (bands 0–3, then 4–7).
    pub band_edges: [Vec4; 2],
    /// Sea level, band blend width, band count, edge noise height (metres).
    pub heights: Vec4,
    /// Rock slope, rock blend width, edge noise slope, 1 / edge noise size.
    pub slopes: Vec4,
    /// Snow line, its blend width, snow's maximum slope, its slope blend (all 0 without snow:
    /// see `flags`).
    pub snow: Vec4,
    /// Snow on (1) or off (0), crease strength, height blend, textures on (1) or off (0).
    pub flags: Vec4,
    /// Detail strength, 1 / detail size, fade distance, unused.
    pub detail: Vec4,
}

impl Default for TerrainShading {
    fn default() -> Self {
        Self::new(
            &TerrainConfig::default().colours,
            0.0,
            &LayerTextureSlots::default(),
        )
    }
}

impl TerrainShading {
    /// The shading of `colours` with the sea at `sea_level`, with the texture layers `slots`
    /// assigned to the layers' textures.
    pub(crate) fn new(colours: &TerrainColours, sea_level: f32, slots: &LayerTextureSlots) -> Self {
        let mut layers = [Vec4::ZERO; LAYERS];
        let mut textures = [Vec4::new(-1.0, -1.0, 0.25, 0.0); LAYERS];
        let mut set =
            |k: usize, colour: [f32; 3], roughness: f32, texture: &Option<LayerTexture>| {
                layers[k] = Vec3::from(colour).extend(roughness);
                if let Some(t) = texture {
                    textures[k] = slots.shading(t);
                }
            };
        set(SEA_BED, colours.sea_bed, 0.85, &None);
        for (k, band) in colours.bands.iter().take(MAX_BANDS).enumerate() {
            set(1 + k, band.colour, band.roughness, &band.texture);
        }
        set(
            ROCK,
            colours.rock,
            colours.rock_roughness,
            &colours.rock_texture,
        );
        if let Some(snow) = &colours.snow {
            set(SNOW, snow.colour, snow.roughness, &snow.texture);
        }
        // Band k's lower edge is band k − 1's `up_to`; the first starts at sea level.
        let mut edges = [0.0; 2 * 4];
        for (edge, band) in edges.iter_mut().skip(1).zip(&colours.bands) {
            *edge = band.up_to;
        }
        let snow = colours.snow.as_ref().map_or(Vec4::ZERO, |s| {
            Vec4::new(s.from, s.blend, s.max_slope, s.slope_blend)
        });
        let textured = textures.iter().any(|t| t.x >= 0.0);
        Self {
            layers,
            textures,
            band_edges: [Vec4::from_slice(&edges[..4]), Vec4::from_slice(&edges[4..])],
            heights: Vec4::new(
                sea_level,
                colours.band_blend,
                colours.bands.len().min(MAX_BANDS) as f32,
                colours.edge_noise.height,
            ),
            slopes: Vec4::new(
                colours.rock_slope,
                colours.rock_blend,
                colours.edge_noise.slope,
                1.0 / colours.edge_noise.size.max(1e-3),
            ),
            snow,
            flags: Vec4::new(
                f32::from(colours.snow.is_some()),
                colours.creases,
                colours.height_blend,
                f32::from(textured),
            ),
            detail: Vec4::new(
                colours.detail.strength,
                1.0 / colours.detail.size.max(1e-3),
                colours.detail.fade_distance,
                0.0,
            ),
        }
    }
}

impl TerrainMaterialExtension {
    /// The extension for `config`'s look, with the layer textures in `slots`.
    pub(crate) fn new(config: &TerrainConfig, slots: &LayerTextureSlots) -> Self {
        Self {
            shading: TerrainShading::new(&config.colours, config.sea_level, slots),
            albedo: slots.albedo.clone(),
            normals: slots.normals.clone(),
        }
    }
}

/// The shader's embedded path: `src/render/terrain.wgsl` in this crate.
const TERRAIN_SHADER: &str = "embedded://bevy_perlin_terrain/render/terrain.wgsl";

impl MaterialExtension for TerrainMaterialExtension {
    fn fragment_shader() -> ShaderRef {
        TERRAIN_SHADER.into()
    }
}

/// Embeds the terrain and water shaders and the noise functions they import.
pub(super) fn embed_shaders(app: &mut App) {
    bevy::shader::load_shader_library!(app, "noise.wgsl");
    bevy::asset::embedded_asset!(app, "terrain.wgsl");
    bevy::asset::embedded_asset!(app, "water.wgsl");
}

/// A new terrain material for `config` (textures follow once loaded).
pub(super) fn new_material(config: &TerrainConfig) -> TerrainMaterial {
    ExtendedMaterial {
        base: StandardMaterial {
            base_color: Color::WHITE,
            metallic: 0.0,
            reflectance: 0.3,
            // The shader colours the ground in the forward pass; no deferred variant.
            opaque_render_method: OpaqueRendererMethod::Forward,
            ..default()
        },
        extension: TerrainMaterialExtension::new(config, &LayerTextureSlots::default()),
    }
}
