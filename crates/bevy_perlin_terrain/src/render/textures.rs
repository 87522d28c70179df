//! Layer textures: the images the config's layers name, gathered into two mipmapped texture
//! arrays (albedo, normal) that the terrain material samples.
//!
//! A name is looked up in [`TerrainTextures`] first (images a game made in code), then loaded as
//! an asset path. When every named image is loaded, the arrays are built; a missing, mis-sized
//! or non-RGBA8 image is reported (naming the layer) and the layers draw their flat colors.

use crate::config::{LayerTexture, TerrainConfig};
use crate::ground::ActiveTerrainConfig;
use crate::sets::TerrainSystems;
use bevy::asset::RenderAssetUsages;
use bevy::image::{ImageAddressMode, ImageSampler, ImageSamplerDescriptor};
use bevy::log::error;
use bevy::platform::collections::HashMap;
use bevy::prelude::*;
use bevy::render::render_resource::{
    Extent3d, TextureDimension, TextureFormat, TextureViewDescriptor, TextureViewDimension,
};

/// Images a game makes in code for the terrain's layers, by the name a
/// [`LayerTexture`] uses (`albedo: "rock"`). Names not here are
/// loaded as asset paths. Images must keep their data in the main world
/// (`RenderAssetUsages::MAIN_WORLD`): the plugin copies them into its texture arrays.
///
/// ```
/// # use bevy::prelude::*;
/// # use bevy_perlin_terrain::prelude::*;
/// # fn my_rock_albedo() -> Image { Image::default() }
/// # fn my_rock_normal() -> Image { Image::default() }
/// fn textures(mut images: ResMut<Assets<Image>>, mut textures: ResMut<TerrainTextures>) {
///     textures.insert("rock", images.add(my_rock_albedo())); // `albedo: "rock"`
///     textures.insert("rock-normal", images.add(my_rock_normal())); // `normal: Some("rock-normal")`
/// }
/// ```
///
/// Every layer image must be square, a power of two wide, all of one size, and 8-bit RGBA; else
/// the error names the image and the layers keep their flat colors. The material projects the
/// textures from above on gentle ground and triplanar on steep ground, and blends two offset
/// copies from above so that neither repeats visibly. The `textured` example makes its images
/// with perlin-core and registers them here.
#[derive(Resource, Reflect, Clone, Debug, Default)]
#[reflect(Resource, Debug, Default)]
pub struct TerrainTextures {
    images: HashMap<String, Handle<Image>>,
}

impl TerrainTextures {
    /// Registers `image` under `name` (replacing an image of that name).
    pub fn insert(&mut self, name: impl Into<String>, image: Handle<Image>) {
        self.images.insert(name.into(), image);
    }

    /// The image registered under `name`.
    pub fn get(&self, name: &str) -> Option<&Handle<Image>> {
        self.images.get(name)
    }
}

/// The texture arrays in use and which array layer each image name got.
#[derive(Resource, Clone, Debug, Default, PartialEq)]
pub(crate) struct LayerTextureSlots {
    pub albedo: Option<Handle<Image>>,
    pub normals: Option<Handle<Image>>,
    albedo_slots: HashMap<String, u32>,
    normal_slots: HashMap<String, u32>,
}

impl LayerTextureSlots {
    /// The shader's entry for `texture`: albedo layer, normal layer (−1 for none), repeats per
    /// metre, unused.
    pub fn shading(&self, texture: &LayerTexture) -> Vec4 {
        let slot = |slots: &HashMap<String, u32>, name: Option<&String>| {
            name.and_then(|n| slots.get(n)).map_or(-1.0, |&s| s as f32)
        };
        Vec4::new(
            slot(&self.albedo_slots, Some(&texture.albedo)),
            slot(&self.normal_slots, texture.normal.as_ref()),
            1.0 / texture.size,
            0.0,
        )
    }
}

/// The images the layers asked for, while they load.
#[derive(Resource, Default)]
struct WantedTextures {
    /// Every texture name in the config, albedo names first, with its image.
    albedo: Vec<(String, Handle<Image>)>,
    normals: Vec<(String, Handle<Image>)>,
    /// The first field naming each image (`biomes[2].colors.rock_texture.albedo`), for
    /// error messages.
    fields: HashMap<String, String>,
    /// Whether the arrays for these names are built (or failed and were reported).
    settled: bool,
}

pub(super) struct TerrainTexturesPlugin;

impl Plugin for TerrainTexturesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<TerrainTextures>()
            .init_resource::<LayerTextureSlots>()
            .init_resource::<WantedTextures>()
            .register_type::<TerrainTextures>()
            .add_systems(
                Update,
                (
                    request_textures.run_if(textures_may_change),
                    build_texture_arrays.run_if(arrays_wanted),
                )
                    .chain_ignore_deferred()
                    .in_set(TerrainSystems::Materials),
            );
    }
}

/// Every layer texture of `config`'s looks (its `colors` and its biomes'), with the field it
/// is in (for error messages).
fn layer_textures(config: &TerrainConfig) -> Vec<(String, &LayerTexture)> {
    let biomes = config.biomes.iter().enumerate().filter_map(|(i, b)| {
        let colors = b.colors.as_ref()?;
        Some((format!("biomes[{i}].colors"), colors))
    });
    let looks = std::iter::once(("colors".to_string(), &config.colors)).chain(biomes);
    looks
        .flat_map(|(field, c)| {
            let bands = c.bands.iter().enumerate().filter_map(|(i, b)| {
                let t = b.texture.as_ref()?;
                Some((format!("{field}.bands[{i}].texture"), t))
            });
            let rock = c
                .rock_texture
                .as_ref()
                .map(|t| (format!("{field}.rock_texture"), t));
            let snow = c
                .snow
                .as_ref()
                .and_then(|s| s.texture.as_ref())
                .map(|t| (format!("{field}.snow.texture"), t));
            bands.chain(rock).chain(snow).collect::<Vec<_>>()
        })
        .collect()
}

/// Run condition of [`request_textures`]: whether the config or the texture registry changed.
fn textures_may_change(
    active: Option<Res<ActiveTerrainConfig>>,
    registry: Res<TerrainTextures>,
) -> bool {
    active.is_some_and(|a| a.is_changed()) || registry.is_changed()
}

/// Resolves the config's texture names to images when the config or the registry changes.
fn request_textures(
    active: Option<Res<ActiveTerrainConfig>>,
    registry: Res<TerrainTextures>,
    assets: Option<Res<AssetServer>>,
    mut wanted: ResMut<WantedTextures>,
    mut slots: ResMut<LayerTextureSlots>,
) {
    let (Some(active), Some(assets)) = (active, assets) else {
        return;
    };
    let resolve = |name: &String| {
        let image = registry
            .get(name)
            .cloned()
            .unwrap_or_else(|| assets.load(name.clone()));
        (name.clone(), image)
    };
    let textures = layer_textures(active.config());
    let mut albedo: Vec<(String, Handle<Image>)> = Vec::new();
    let mut normals: Vec<(String, Handle<Image>)> = Vec::new();
    let mut fields = HashMap::new();
    for (field, texture) in &textures {
        if !albedo.iter().any(|(n, _)| *n == texture.albedo) {
            albedo.push(resolve(&texture.albedo));
            fields.insert(texture.albedo.clone(), format!("{field}.albedo"));
        }
        if let Some(normal) = &texture.normal
            && !normals.iter().any(|(n, _)| n == normal)
        {
            normals.push(resolve(normal));
            fields
                .entry(normal.clone())
                .or_insert_with(|| format!("{field}.normal"));
        }
    }
    if albedo != wanted.albedo || normals != wanted.normals {
        *wanted = WantedTextures {
            albedo,
            normals,
            fields,
            settled: false,
        };
        if wanted.albedo.is_empty() {
            slots.set_if_neq(LayerTextureSlots::default());
            wanted.settled = true;
        }
    }
}

/// Run condition of [`build_texture_arrays`]: whether the wanted arrays are not built yet, in
/// an app with images (a headless app has none).
fn arrays_wanted(wanted: Res<WantedTextures>, images: Option<Res<Assets<Image>>>) -> bool {
    !wanted.settled && images.is_some()
}

/// Builds the arrays once every wanted image is loaded (or reports why it cannot).
fn build_texture_arrays(
    mut wanted: ResMut<WantedTextures>,
    mut slots: ResMut<LayerTextureSlots>,
    assets: Option<Res<AssetServer>>,
    mut images: Option<ResMut<Assets<Image>>>,
) {
    let (Some(assets), Some(images)) = (assets, images.as_mut()) else {
        return;
    };
    let all = wanted.albedo.iter().chain(&wanted.normals);
    for (name, handle) in all.clone() {
        if let Some(bevy::asset::LoadState::Failed(e)) = assets.get_load_state(handle) {
            let field = wanted.fields.get(name).map_or("", String::as_str);
            error!(
                "terrain texture \"{name}\" ({field}) failed to load: {e}; layers keep their colors"
            );
            wanted.settled = true;
            return;
        }
    }
    if all.clone().any(|(_, handle)| images.get(handle).is_none()) {
        return; // still loading
    }
    wanted.settled = true;
    let albedo = stack(&wanted.albedo, images, true);
    let normals = stack(&wanted.normals, images, false);
    match (albedo, normals) {
        (Ok(albedo), Ok(normals)) => {
            let index = |names: &[(String, Handle<Image>)]| {
                (0u32..)
                    .zip(names)
                    .map(|(i, (n, _))| (n.clone(), i))
                    .collect()
            };
            *slots = LayerTextureSlots {
                albedo_slots: index(&wanted.albedo),
                normal_slots: index(&wanted.normals),
                albedo: albedo.map(|a| images.add(a)),
                normals: normals.map(|n| images.add(n)),
            };
        }
        (Err(e), _) | (_, Err(e)) => {
            error!("terrain textures: {e}; layers keep their colors");
            slots.set_if_neq(LayerTextureSlots::default());
        }
    }
}

/// The images `named` as one mipmapped texture array (`None` for no image): every image must
/// be square, a power of two, the size of the first, and 8-bit RGBA. `srgb`: albedo (filtered
/// in linear light, sampled as sRGB) or normal map (filtered as stored).
fn stack(
    named: &[(String, Handle<Image>)],
    images: &Assets<Image>,
    srgb: bool,
) -> Result<Option<Image>, String> {
    let Some((first_name, first)) = named.first() else {
        return Ok(None);
    };
    let size = images.get(first).map_or(0, |i| i.width());
    let mut layers = Vec::with_capacity(named.len());
    for (name, handle) in named {
        let Some(image) = images.get(handle) else {
            return Err(format!("\"{name}\" is not loaded"));
        };
        let format = image.texture_descriptor.format;
        let rgba8 = matches!(
            format,
            TextureFormat::Rgba8Unorm | TextureFormat::Rgba8UnormSrgb
        );
        if !rgba8 || image.texture_descriptor.size.depth_or_array_layers != 1 {
            return Err(format!(
                "\"{name}\" is {format:?} with {} layers; layer textures are one 8-bit RGBA image",
                image.texture_descriptor.size.depth_or_array_layers
            ));
        }
        if image.width() != size || image.height() != size || !size.is_power_of_two() {
            return Err(format!(
                "\"{name}\" is {}×{}; layer textures are square, a power of two wide, all the size of \"{first_name}\" ({size}×{size})",
                image.width(),
                image.height()
            ));
        }
        let Some(data) = image.data.as_deref() else {
            return Err(format!(
                "\"{name}\" has no pixels in the main world (keep RenderAssetUsages::MAIN_WORLD)"
            ));
        };
        let wanted = size as usize * size as usize * 4;
        if data.len() < wanted {
            return Err(format!(
                "\"{name}\" holds {} bytes of pixels, fewer than its {size}×{size} RGBA8 size ({wanted})",
                data.len()
            ));
        }
        layers.push(data);
    }
    let mips = size.ilog2() + 1;
    let mut data = Vec::new();
    for layer in layers {
        mip_chain(layer, size as usize, srgb, &mut data);
    }
    let format = if srgb {
        TextureFormat::Rgba8UnormSrgb
    } else {
        TextureFormat::Rgba8Unorm
    };
    let mut array = Image::new_uninit(
        Extent3d {
            width: size,
            height: size,
            depth_or_array_layers: named.len() as u32,
        },
        TextureDimension::D2,
        format,
        RenderAssetUsages::RENDER_WORLD,
    );
    array.texture_descriptor.mip_level_count = mips;
    array.data = Some(data);
    // A one-layer array must still be viewed as an array.
    array.texture_view_descriptor = Some(TextureViewDescriptor {
        dimension: Some(TextureViewDimension::D2Array),
        ..default()
    });
    array.sampler = ImageSampler::Descriptor(ImageSamplerDescriptor {
        address_mode_u: ImageAddressMode::Repeat,
        address_mode_v: ImageAddressMode::Repeat,
        ..ImageSamplerDescriptor::linear()
    });
    Ok(Some(array))
}

/// Appends `pixels` (RGBA8, `size`²) and each of its halvings down to 1×1 to `out`: a 2×2 box
/// filter, in linear light when `srgb`.
fn mip_chain(pixels: &[u8], size: usize, srgb: bool, out: &mut Vec<u8>) {
    let to_linear: Vec<f32> = (0..=255u8)
        .map(|v| {
            let c = v as f32 / 255.0;
            if srgb { Srgba::gamma_function(c) } else { c }
        })
        .collect();
    let from_linear = |c: f32| {
        let c = if srgb {
            Srgba::gamma_function_inverse(c)
        } else {
            c
        };
        (c * 255.0 + 0.5).clamp(0.0, 255.0) as u8
    };
    let start = out.len();
    out.extend_from_slice(&pixels[..size * size * 4]);
    let (mut level, mut side) = (start, size);
    while side > 1 {
        let half = side / 2;
        let next = out.len();
        for y in 0..half {
            for x in 0..half {
                for c in 0..4 {
                    let at = |dx: usize, dy: usize| {
                        let v = out[level + ((2 * y + dy) * side + 2 * x + dx) * 4 + c];
                        // Alpha (the surface height) is linear.
                        if c == 3 {
                            v as f32 / 255.0
                        } else {
                            to_linear[v as usize]
                        }
                    };
                    let mean = 0.25 * (at(0, 0) + at(1, 0) + at(0, 1) + at(1, 1));
                    out.push(if c == 3 {
                        (mean * 255.0 + 0.5) as u8
                    } else {
                        from_linear(mean)
                    });
                }
            }
        }
        (level, side) = (next, half);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mip_chain_halves_to_one_texel_in_linear_light() {
        // 4×4: left half black, right half white (sRGB), alpha 0 and 255.
        let mut pixels = Vec::new();
        for _y in 0..4 {
            for x in 0..4 {
                let v = if x < 2 { 0 } else { 255 };
                pixels.extend_from_slice(&[v, v, v, v]);
            }
        }
        let mut out = Vec::new();
        mip_chain(&pixels, 4, true, &mut out);
        assert_eq!(out.len(), (16 + 4 + 1) * 4);
        // 2×2 level: still black | white; 1×1: half the light, which in sRGB is 188, not 128.
        assert_eq!(&out[64..72], &[0, 0, 0, 0, 255, 255, 255, 255]);
        assert_eq!(&out[80..84], &[188, 188, 188, 128]);
        // As stored (normal maps): the plain mean.
        let mut linear = Vec::new();
        mip_chain(&pixels, 4, false, &mut linear);
        assert_eq!(&linear[80..84], &[128, 128, 128, 128]);
    }
}
