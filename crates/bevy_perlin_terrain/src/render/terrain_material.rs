//! [`TerrainMaterial`]: Bevy's `StandardMaterial` extended with the terrain's own fragment
//! shader (`terrain.wgsl`, embedded in the crate), and the uniform it reads, built from the
//! config's `colors`.

use super::textures::LayerTextureSlots;
use crate::chunk::{
    ATTRIBUTE_BIOME_WEIGHTS, ATTRIBUTE_BIOME_WEIGHTS_HIGH, ATTRIBUTE_BIOMES, ATTRIBUTE_MORPH,
};
use crate::config::{
    LayerTexture, MAX_BANDS, MAX_BIOMES, MAX_FAR_COLORS, MAX_LOD, TerrainColors, TerrainConfig,
};
use bevy::material::OpaqueRendererMethod;
use bevy::mesh::{MeshVertexAttribute, MeshVertexBufferLayoutRef};
use bevy::pbr::{
    ExtendedMaterial, MaterialExtension, MaterialExtensionKey, MaterialExtensionPipeline,
};
use bevy::prelude::*;
use bevy::render::render_resource::{
    AsBindGroup, RenderPipelineDescriptor, ShaderType, SpecializedMeshPipelineError,
};
use bevy::shader::ShaderRef;

/// The terrain's material: PBR lighting (shadows, fog, tonemapping) from Bevy's
/// `StandardMaterial`, color, roughness and shading normal from [`TerrainMaterialExtension`],
/// and the geomorphing of the chunks' vertices towards their parent level's surface (its own
/// vertex shaders for the main pass, the prepass and the shadow maps, which all morph alike).
/// It draws meshes with normals; meshes with the chunk's morph attribute
/// ([`ATTRIBUTE_MORPH`]) are morphed, and meshes with biome
/// weights ([`ATTRIBUTE_BIOMES`]) blend their biomes' looks.
pub type TerrainMaterial = ExtendedMaterial<StandardMaterial, TerrainMaterialExtension>;

/// The terrain's part of [`TerrainMaterial`]: the layer rules as a uniform, and the layer
/// textures as two texture arrays (albedo, normal), bound only when a layer has a texture.
#[derive(Asset, AsBindGroup, Reflect, Clone, Debug, Default, PartialEq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct TerrainMaterialExtension {
    /// The layer rules (from the config's `colors` and `sea_level`).
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
    /// The clouds (for their shade on the ground) and the sun, at this frame's
    /// [`TerrainClock`](crate::TerrainClock).
    #[uniform(120)]
    pub weather: super::WeatherUniform,
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
    /// The looks of the ground: with biomes, biome `i`'s at `i` (its own `colors`, or the
    /// config's); without, the config's `colors` at 0.
    pub looks: [GroundLook; MAX_BIOMES],
    /// Grain strength, 1 / grain size, fade distance, unused.
    pub grain: Vec4,
    /// Per level of detail, two a register: the distance where a chunk of that level begins
    /// to morph to its parent's surface, and 1 / the length of its morph (0 at the top level,
    /// which never morphs).
    pub morph: [Vec4; MORPH_REGISTERS],
    /// The viewers the chunks were chosen for, in world space: `x`, `z`, two a register.
    pub viewers: [Vec4; 2],
    /// How many of `viewers` are set (at most four: the morph measures from the first four).
    pub viewer_count: Vec4,
    /// The height of each of the four viewers over the ground near it (see
    /// `ChunkRegistry::viewer_heights`): the morph measures `max(|dx|, |dz|, height)`.
    pub viewer_heights: Vec4,
    /// The far colors of the scatter layers that have one, four registers each: color and
    /// cover; height range above sea level and its fade, and the layer's view distance; slope
    /// range and fade, and the layer's biomes (bit `i` for biome `i`; 0 for everywhere); crease
    /// range and fade, and whether the layer has a crease rule.
    pub canopy: [Vec4; 4 * MAX_FAR_COLORS],
    /// How many far colors are set.
    pub canopy_count: Vec4,
}

/// One look of the ground in [`TerrainShading`]: a [`TerrainColors`] packed for the shader.
#[derive(ShaderType, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Debug, Clone, PartialEq)]
pub struct GroundLook {
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
}

/// Registers of [`TerrainShading::morph`]: two levels each, levels 0 to [`MAX_LOD`].
const MORPH_REGISTERS: usize = (MAX_LOD as usize + 2) / 2;

impl Default for TerrainShading {
    fn default() -> Self {
        Self::new(
            &TerrainConfig::default(),
            &LayerTextureSlots::default(),
            &[],
        )
    }
}

impl TerrainShading {
    /// The shading of `config`'s look, with the texture layers `slots` assigned to the layers'
    /// textures, its chunks morphing by distance from `viewers` (world `x`, `z`, and the
    /// viewer's height over the ground).
    pub(crate) fn new(
        config: &TerrainConfig,
        slots: &LayerTextureSlots,
        viewers: &[(Vec2, f32)],
    ) -> Self {
        let grain = &config.colors.grain;
        let mut shading = Self {
            looks: [GroundLook::default(); MAX_BIOMES],
            grain: Vec4::new(
                grain.strength,
                1.0 / grain.size.max(1e-3),
                grain.fade_distance,
                0.0,
            ),
            morph: [Vec4::ZERO; MORPH_REGISTERS],
            viewers: [Vec4::ZERO; 2],
            viewer_count: Vec4::ZERO,
            viewer_heights: Vec4::ZERO,
            canopy: [Vec4::ZERO; 4 * MAX_FAR_COLORS],
            canopy_count: Vec4::ZERO,
        };
        shading.looks[0] = GroundLook::new(&config.colors, config.sea_level, slots);
        for (look, biome) in shading.looks.iter_mut().zip(&config.biomes) {
            let colors = biome.colors.as_ref().unwrap_or(&config.colors);
            *look = GroundLook::new(colors, config.sea_level, slots);
        }
        let layout = config.lod_layout();
        for lod in 0..=MAX_LOD {
            // The top level never morphs: it starts beyond everything, at no rate.
            let (start, rate) = match layout.morph_range(lod) {
                Some((start, end)) => (start as f32, (1.0 / (end - start).max(1e-3)) as f32),
                None => (1.0e30, 0.0),
            };
            let register = &mut shading.morph[lod as usize / 2];
            if lod % 2 == 0 {
                (register.x, register.y) = (start, rate);
            } else {
                (register.z, register.w) = (start, rate);
            }
        }
        for (k, &(v, height)) in viewers.iter().take(4).enumerate() {
            shading.viewer_heights[k] = height;
            let register = &mut shading.viewers[k / 2];
            if k % 2 == 0 {
                (register.x, register.y) = (v.x, v.y);
            } else {
                (register.z, register.w) = (v.x, v.y);
            }
        }
        shading.viewer_count.x = viewers.len().min(4) as f32;
        let far = config
            .scatter
            .iter()
            .filter_map(|l| l.far_color.as_ref().map(|f| (l, f)))
            .take(MAX_FAR_COLORS);
        for (k, (layer, far)) in far.enumerate() {
            let range = |r: &crate::config::SoftRange| Vec3::new(r.min, r.max, r.fade);
            shading.canopy[4 * k] = Vec3::from(far.color).extend(far.cover);
            shading.canopy[4 * k + 1] = range(&layer.height).extend(layer.view_distance);
            // The layer's biomes as a bit mask (at most 16 bits: exact in an f32).
            let biomes = layer.biomes.iter().fold(0u32, |mask, name| {
                let index = config.biomes.iter().position(|b| &b.name == name);
                index.map_or(mask, |i| mask | (1 << i))
            });
            shading.canopy[4 * k + 2] = range(&layer.slope).extend(biomes as f32);
            shading.canopy[4 * k + 3] = match &layer.creases {
                Some(c) => range(c).extend(1.0),
                None => Vec4::ZERO,
            };
            shading.canopy_count.x = (k + 1) as f32;
        }
        shading
    }
}

impl GroundLook {
    /// The layer rules of `colors` with the sea at `sea_level`, with the texture layers
    /// `slots` assigned to the layers' textures.
    fn new(colors: &TerrainColors, sea_level: f32, slots: &LayerTextureSlots) -> Self {
        let mut layers = [Vec4::ZERO; LAYERS];
        let mut textures = [Vec4::new(-1.0, -1.0, 0.25, 0.0); LAYERS];
        let mut set =
            |k: usize, color: [f32; 3], roughness: f32, texture: &Option<LayerTexture>| {
                layers[k] = Vec3::from(color).extend(roughness);
                if let Some(t) = texture {
                    textures[k] = slots.shading(t);
                }
            };
        set(SEA_BED, colors.sea_bed, 0.85, &None);
        for (k, band) in colors.bands.iter().take(MAX_BANDS).enumerate() {
            set(1 + k, band.color, band.roughness, &band.texture);
        }
        set(
            ROCK,
            colors.rock,
            colors.rock_roughness,
            &colors.rock_texture,
        );
        if let Some(snow) = &colors.snow {
            set(SNOW, snow.color, snow.roughness, &snow.texture);
        }
        // Band k's lower edge is band k − 1's `up_to`; the first starts at sea level.
        let mut edges = [0.0; 2 * 4];
        for (edge, band) in edges.iter_mut().skip(1).zip(&colors.bands) {
            *edge = band.up_to;
        }
        let snow = colors.snow.as_ref().map_or(Vec4::ZERO, |s| {
            Vec4::new(s.from, s.blend, s.max_slope, s.slope_blend)
        });
        let textured = textures.iter().any(|t| t.x >= 0.0);
        Self {
            layers,
            textures,
            band_edges: [Vec4::from_slice(&edges[..4]), Vec4::from_slice(&edges[4..])],
            heights: Vec4::new(
                sea_level,
                colors.band_blend,
                colors.bands.len().min(MAX_BANDS) as f32,
                colors.edge_noise.height,
            ),
            slopes: Vec4::new(
                colors.rock_slope,
                colors.rock_blend,
                colors.edge_noise.slope,
                1.0 / colors.edge_noise.size.max(1e-3),
            ),
            snow,
            flags: Vec4::new(
                f32::from(colors.snow.is_some()),
                colors.creases,
                colors.height_blend,
                f32::from(textured),
            ),
        }
    }
}

impl TerrainMaterialExtension {
    /// The extension for `config`'s look, with the layer textures in `slots`, its chunks
    /// morphing by distance from `viewers` (world `x`, `z`, and the viewer's height over the
    /// ground).
    pub(crate) fn new(
        config: &TerrainConfig,
        slots: &LayerTextureSlots,
        viewers: &[(Vec2, f32)],
    ) -> Self {
        Self {
            shading: TerrainShading::new(config, slots, viewers),
            albedo: slots.albedo.clone(),
            normals: slots.normals.clone(),
            weather: super::WeatherUniform::default(),
        }
    }
}

/// The shaders' embedded paths: `src/render/*.wgsl` in this crate.
const TERRAIN_SHADER: &str = "embedded://bevy_perlin_terrain/render/terrain.wgsl";
const TERRAIN_VERTEX_SHADER: &str = "embedded://bevy_perlin_terrain/render/terrain_vertex.wgsl";
const TERRAIN_PREPASS_SHADER: &str = "embedded://bevy_perlin_terrain/render/terrain_prepass.wgsl";

/// The shader location of [`ATTRIBUTE_MORPH`]: past every location Bevy's mesh and prepass
/// pipelines use (0 to 7).
const MORPH_LOCATION: u32 = 8;
/// The shader locations of [`ATTRIBUTE_BIOMES`] and its two weight attributes.
const BIOMES_LOCATION: u32 = 9;

impl MaterialExtension for TerrainMaterialExtension {
    fn fragment_shader() -> ShaderRef {
        TERRAIN_SHADER.into()
    }

    fn vertex_shader() -> ShaderRef {
        TERRAIN_VERTEX_SHADER.into()
    }

    /// The depth and normal prepasses and every shadow map: the same morph as the main pass.
    fn prepass_vertex_shader() -> ShaderRef {
        TERRAIN_PREPASS_SHADER.into()
    }

    fn deferred_vertex_shader() -> ShaderRef {
        TERRAIN_PREPASS_SHADER.into()
    }

    /// Adds the morph attribute (when the mesh has it) to the vertex layout Bevy built for
    /// the pass: the main pass, a prepass or a shadow map alike; and the biome weights (when
    /// the mesh has them), which the main pass's fragment shader reads.
    fn specialize(
        _pipeline: &MaterialExtensionPipeline,
        descriptor: &mut RenderPipelineDescriptor,
        layout: &MeshVertexBufferLayoutRef,
        _key: MaterialExtensionKey<Self>,
    ) -> Result<(), SpecializedMeshPipelineError> {
        let morph = [ATTRIBUTE_MORPH];
        add_attributes(descriptor, layout, &morph, MORPH_LOCATION, "TERRAIN_MORPH")?;
        let biomes = [
            ATTRIBUTE_BIOMES,
            ATTRIBUTE_BIOME_WEIGHTS,
            ATTRIBUTE_BIOME_WEIGHTS_HIGH,
        ];
        add_attributes(
            descriptor,
            layout,
            &biomes,
            BIOMES_LOCATION,
            "TERRAIN_BIOMES",
        )
    }
}

/// Adds `attributes` at the shader locations from `first` on to the vertex layout Bevy built
/// for a pass, and the shader def `def` to its shaders, when the mesh has the first of them.
pub(super) fn add_attributes(
    descriptor: &mut RenderPipelineDescriptor,
    layout: &MeshVertexBufferLayoutRef,
    attributes: &[MeshVertexAttribute],
    first: u32,
    def: &str,
) -> Result<(), SpecializedMeshPipelineError> {
    let Some(&head) = attributes.first() else {
        return Ok(());
    };
    if !layout.0.contains(head) {
        return Ok(());
    }
    let Some(buffer) = descriptor.vertex.buffers.first_mut() else {
        return Ok(());
    };
    let located: Vec<_> = (first..)
        .zip(attributes)
        .map(|(location, a)| a.at_shader_location(location))
        .collect();
    buffer
        .attributes
        .extend(layout.0.get_layout(&located)?.attributes);
    descriptor.vertex.shader_defs.push(def.into());
    if let Some(fragment) = descriptor.fragment.as_mut() {
        fragment.shader_defs.push(def.into());
    }
    Ok(())
}

/// Embeds the terrain and water shaders and the libraries they import.
pub(super) fn embed_shaders(app: &mut App) {
    bevy::shader::load_shader_library!(app, "noise.wgsl");
    bevy::shader::load_shader_library!(app, "weather.wgsl");
    bevy::shader::load_shader_library!(app, "terrain_bindings.wgsl");
    bevy::shader::load_shader_library!(app, "terrain_io.wgsl");
    bevy::shader::load_shader_library!(app, "geomorph.wgsl");
    bevy::asset::embedded_asset!(app, "terrain.wgsl");
    bevy::asset::embedded_asset!(app, "terrain_vertex.wgsl");
    bevy::asset::embedded_asset!(app, "terrain_prepass.wgsl");
    bevy::asset::embedded_asset!(app, "water.wgsl");
    bevy::asset::embedded_asset!(app, "clouds.wgsl");
    bevy::asset::embedded_asset!(app, "scatter_shade.wgsl");
}

/// A new terrain material for `config` (textures follow once loaded).
pub(super) fn new_material(config: &TerrainConfig) -> TerrainMaterial {
    ExtendedMaterial {
        base: StandardMaterial {
            base_color: Color::WHITE,
            metallic: 0.0,
            reflectance: 0.3,
            // The shader colors the ground in the forward pass; no deferred variant.
            opaque_render_method: OpaqueRendererMethod::Forward,
            ..default()
        },
        extension: TerrainMaterialExtension::new(config, &LayerTextureSlots::default(), &[]),
    }
}
