//! [`TerrainConfig::to_ron`]: a config as the `.terrain.ron` a person would write, naming only
//! what differs from the defaults.
//!
//! Every struct of the config is `#[serde(default)]`, so a nested struct that is present takes
//! its missing fields from its own type's `Default` (not from the parent's default: the default
//! config's `noise.frequency` is 1/600, `Fbm::default().frequency` is 1). So a nested field is
//! left out when it equals the parent default's, and otherwise written as `field: ( … )` with the
//! sub-fields that differ from its type's default. Values are written by `ron` itself, so
//! floats come back bit for bit.

use super::{
    Biome, Climate, Clouds, Collision, EdgeNoise, Grain, Navigation, ScatterLayer, Snow,
    TerrainColors, TerrainConfig, Water, Waves,
};
use perlin_core::{Erosion, Fbm};
use serde::Serialize;
use std::fmt::Write;

/// The text being written, and its indentation.
struct Out {
    text: String,
    depth: usize,
}

impl Out {
    fn line(&mut self, line: impl std::fmt::Display) {
        let _ = writeln!(self.text, "{}{line}", "    ".repeat(self.depth));
    }

    /// `name: value,` with the value as `ron` writes it.
    fn leaf<T: Serialize>(&mut self, name: &str, value: &T) {
        // Every type of the config serializes; there is nothing to write otherwise.
        if let Ok(v) = ron::to_string(value) {
            self.line(format_args!("{name}: {v},"));
        }
    }

    /// `name: ( … ),` with the fields of `value` that differ from its type's default.
    fn nested<T: Fields>(&mut self, name: &str, value: &T) {
        self.line(format_args!("{name}: ("));
        self.depth += 1;
        value.write_fields(self);
        self.depth -= 1;
        self.line("),");
    }

    /// `name: [ ( … ), … ],` with the fields of each item that differ from its type's default;
    /// nothing for an empty list (every list's default).
    fn list<T: Fields>(&mut self, name: &str, items: &[T]) {
        if items.is_empty() {
            return;
        }
        self.line(format_args!("{name}: ["));
        self.depth += 1;
        for item in items {
            self.line("(");
            self.depth += 1;
            item.write_fields(self);
            self.depth -= 1;
            self.line("),");
        }
        self.depth -= 1;
        self.line("],");
    }

    /// `name: None,` or `name: Some(( … )),`.
    fn optional<T: Fields>(&mut self, name: &str, value: &Option<T>) {
        match value {
            None => self.line(format_args!("{name}: None,")),
            Some(v) => {
                self.line(format_args!("{name}: Some(("));
                self.depth += 1;
                v.write_fields(self);
                self.depth -= 1;
                self.line(")),");
            }
        }
    }
}

/// A config struct whose fields can be written as differences from its default.
trait Fields: Default + PartialEq {
    fn write_fields(&self, out: &mut Out);

    /// The names of the fields `write_fields` writes: every field of the type.
    #[cfg(test)]
    const NAMES: &'static [&'static str];
}

/// Implements [`Fields`] for `$ty`: writes each listed field that differs from `$ty::default()`'s,
/// in the order listed: `leaf` fields whole, `nested` ones as structs, `optional` ones as `None`
/// or `Some(struct)`, `list` ones as lists of structs. The list is matched against the struct's
/// fields in full (an exhaustive pattern), so a new field is a compile error here until it is
/// written.
macro_rules! impl_fields {
    ($ty:ident { $($kind:ident $field:ident),* $(,)? }) => {
        impl Fields for $ty {
            fn write_fields(&self, out: &mut Out) {
                let $ty { $($field: _),* } = self;
                let default = $ty::default();
                $(
                    if self.$field != default.$field {
                        out.$kind(stringify!($field), &self.$field);
                    }
                )*
            }

            #[cfg(test)]
            const NAMES: &'static [&'static str] = &[$(stringify!($field)),*];
        }
    };
}

impl_fields!(TerrainConfig {
    leaf seed,
    nested noise,
    leaf height_scale,
    leaf chunk_size,
    leaf chunk_resolution,
    leaf view_distance,
    leaf lod_distance,
    leaf max_tasks_in_flight,
    leaf max_uploads_per_frame,
    leaf sea_level,
    leaf skirt_depth,
    optional water,
    optional waves,
    optional clouds,
    nested colors,
    nested collision,
    nested navigation,
    list scatter,
    // Stamps and paths as `ron` writes them: one line each list.
    leaf stamps,
    leaf paths,
    nested climate,
    list biomes,
});

impl_fields!(Climate {
    leaf scale,
    leaf continent_scale,
    leaf blend,
});

impl_fields!(Biome {
    leaf name,
    leaf temperature,
    leaf moisture,
    leaf continentalness,
    nested noise,
    leaf height_scale,
    leaf height_offset,
    optional colors,
    optional water,
});

impl_fields!(Fbm {
    leaf base,
    leaf fade,
    leaf interpolation,
    leaf hashing,
    leaf octaves,
    leaf frequency,
    leaf amplitude,
    leaf lacunarity,
    leaf persistence,
    leaf contrast,
    leaf noise_size,
    leaf octave_shift,
    leaf mode,
    leaf warp,
    optional erosion,
});

impl_fields!(Erosion {
    leaf strength,
    leaf scale,
    leaf octaves,
    leaf lacunarity,
    leaf gain,
    leaf sharpness,
    leaf detail,
    leaf slope_onset,
    leaf preserve,
});

impl_fields!(TerrainColors {
    leaf sea_bed,
    leaf bands,
    leaf band_blend,
    leaf rock,
    leaf rock_slope,
    leaf rock_blend,
    leaf rock_roughness,
    leaf rock_texture,
    optional snow,
    nested edge_noise,
    leaf creases,
    nested grain,
    leaf height_blend,
});

impl_fields!(Snow {
    leaf color,
    leaf from,
    leaf blend,
    leaf max_slope,
    leaf slope_blend,
    leaf roughness,
    leaf texture,
});

impl_fields!(EdgeNoise {
    leaf height,
    leaf slope,
    leaf size,
});

impl_fields!(Grain {
    leaf strength,
    leaf size,
    leaf fade_distance,
});

impl_fields!(Water {
    leaf shallow,
    leaf deep,
    leaf depth,
    leaf foam,
    leaf ripples,
    leaf sky,
});

impl_fields!(Clouds {
    leaf altitude,
    leaf thickness,
    leaf coverage,
    leaf scale,
    leaf wind,
    leaf softness,
});

impl_fields!(Waves {
    leaf height,
    leaf length,
    leaf direction,
    leaf shore_depth,
    leaf foam,
});

impl_fields!(Collision {
    leaf radius,
    leaf resolution,
});

impl_fields!(Navigation {
    leaf radius,
    leaf max_slope,
    leaf step_height,
    leaf agent_radius,
    leaf wade_depth,
    leaf road_cost,
});

impl_fields!(ScatterLayer {
    leaf name,
    leaf density,
    leaf spacing,
    leaf height,
    leaf slope,
    leaf creases,
    leaf scale,
    leaf rotation,
    leaf tilt,
    leaf align_to_normal,
    leaf sink,
    leaf view_distance,
    leaf far_color,
    leaf biomes,
});

impl TerrainConfig {
    /// This config as a readable `.terrain.ron`: one field per line, nested structs indented,
    /// and only what differs from [`TerrainConfig::default`] (a nested struct's fields from
    /// their own type's default), so that [`parse_config`](super::parse_config) reads back
    /// exactly this config. What a settings panel's "save" writes.
    pub fn to_ron(&self) -> String {
        let mut out = Out {
            text: String::from("(\n"),
            depth: 1,
        };
        self.write_fields(&mut out);
        out.text.push_str(")\n");
        out.text
    }
}

#[cfg(test)]
mod tests {
    use super::super::{FarColor, HeightBand, LayerTexture, SoftRange, parse_config};
    use super::*;
    use perlin_core::{BaseNoise, DomainWarp, Fade, FractalMode, Hashing, Interpolation};

    const WORLD: &str = include_str!("../../../../assets/terrain/world.terrain.ron");

    /// A config change and the field it makes.
    type Edit = (&'static str, fn(&mut TerrainConfig));

    /// One change for each field of each nested struct that `to_ron` writes (the structs'
    /// `impl_fields!` lists name every field, and `every_nested_field_has_an_edit` finds each
    /// here). `TerrainConfig`'s own fields are named in its own list; these are the nested ones.
    const EDITS: &[Edit] = &[
        ("noise.base", |c| c.noise.base = BaseNoise::Simplex),
        ("noise.fade", |c| c.noise.fade = Fade::Hermite),
        ("noise.interpolation", |c| {
            c.noise.interpolation = Interpolation::Linear
        }),
        ("noise.hashing", |c| c.noise.hashing = Hashing::Table),
        ("noise.octaves", |c| c.noise.octaves += 1),
        ("noise.frequency", |c| c.noise.frequency *= 2.0),
        ("noise.amplitude", |c| c.noise.amplitude *= 0.5),
        ("noise.lacunarity", |c| c.noise.lacunarity = 2.5),
        ("noise.persistence", |c| c.noise.persistence = 0.4),
        ("noise.contrast", |c| c.noise.contrast = 1.25),
        ("noise.noise_size", |c| c.noise.noise_size = -1.0),
        ("noise.octave_shift", |c| c.noise.octave_shift = 12.5),
        ("noise.mode", |c| c.noise.mode = FractalMode::Ridged),
        ("noise.warp", |c| {
            c.noise.warp = Some(DomainWarp {
                amplitude: 30.0,
                frequency: 0.002,
            })
        }),
        ("noise.erosion.strength", |c| erosion(c).strength = 0.2),
        ("noise.erosion.scale", |c| erosion(c).scale = 0.2),
        ("noise.erosion.octaves", |c| erosion(c).octaves = 3),
        ("noise.erosion.lacunarity", |c| erosion(c).lacunarity = 2.5),
        ("noise.erosion.gain", |c| erosion(c).gain = 0.4),
        ("noise.erosion.sharpness", |c| erosion(c).sharpness = 0.8),
        ("noise.erosion.detail", |c| erosion(c).detail = 2.0),
        ("noise.erosion.slope_onset", |c| {
            erosion(c).slope_onset = 1.0
        }),
        ("noise.erosion.preserve", |c| erosion(c).preserve = 0.5),
        ("colors.sea_bed", |c| c.colors.sea_bed = [0.1, 0.2, 0.3]),
        ("colors.bands", |c| {
            c.colors.bands.push(HeightBand {
                up_to: 2.0e9,
                color: [0.5, 0.5, 0.5],
                roughness: 0.7,
                texture: Some(LayerTexture {
                    albedo: "gravel".into(),
                    normal: Some("gravel_normal".into()),
                    size: 3.0,
                }),
            })
        }),
        ("colors.band_blend", |c| c.colors.band_blend = 3.0),
        ("colors.rock", |c| c.colors.rock = [0.3, 0.3, 0.3]),
        ("colors.rock_slope", |c| c.colors.rock_slope = 0.5),
        ("colors.rock_blend", |c| c.colors.rock_blend *= 2.0),
        ("colors.rock_roughness", |c| c.colors.rock_roughness = 0.5),
        ("colors.rock_texture", |c| {
            c.colors.rock_texture = texture("rock")
        }),
        ("colors.snow", |c| c.colors.snow = None),
        ("colors.snow.color", |c| snow(c).color = [0.8, 0.8, 0.9]),
        ("colors.snow.from", |c| snow(c).from = 321.0),
        ("colors.snow.blend", |c| snow(c).blend = 20.0),
        ("colors.snow.max_slope", |c| snow(c).max_slope = 0.5),
        ("colors.snow.slope_blend", |c| snow(c).slope_blend = 0.2),
        ("colors.snow.roughness", |c| snow(c).roughness = 0.3),
        ("colors.snow.texture", |c| snow(c).texture = texture("snow")),
        ("colors.edge_noise.height", |c| {
            c.colors.edge_noise.height *= 2.0
        }),
        ("colors.edge_noise.slope", |c| {
            c.colors.edge_noise.slope *= 0.5
        }),
        ("colors.edge_noise.size", |c| {
            c.colors.edge_noise.size *= 2.0
        }),
        ("colors.creases", |c| c.colors.creases = 0.25),
        ("colors.grain.strength", |c| c.colors.grain.strength *= 0.5),
        ("colors.grain.size", |c| c.colors.grain.size *= 2.0),
        ("colors.grain.fade_distance", |c| {
            c.colors.grain.fade_distance *= 2.0
        }),
        ("colors.height_blend", |c| c.colors.height_blend = 0.25),
        ("water", |c| c.water = None),
        ("water.shallow", |c| water(c).shallow = [0.1, 0.4, 0.4]),
        ("water.deep", |c| water(c).deep = [0.0, 0.1, 0.2]),
        ("water.depth", |c| water(c).depth = 7.0),
        ("water.foam", |c| water(c).foam = 0.25),
        ("water.ripples", |c| water(c).ripples = 0.25),
        ("water.sky", |c| water(c).sky = [0.5, 0.6, 0.7]),
        ("clouds", |c| c.clouds = Some(Clouds::default())),
        ("clouds.altitude", |c| clouds(c).altitude = 3100.0),
        ("clouds.thickness", |c| clouds(c).thickness = 250.0),
        ("clouds.coverage", |c| clouds(c).coverage = 0.7),
        ("clouds.scale", |c| clouds(c).scale = 1500.0),
        ("clouds.wind", |c| clouds(c).wind = [-4.0, 11.0]),
        ("clouds.softness", |c| clouds(c).softness = 0.1),
        ("waves", |c| c.waves = Some(Waves::default())),
        ("waves.height", |c| waves(c).height = 2.5),
        ("waves.length", |c| waves(c).length = 75.0),
        ("waves.direction", |c| waves(c).direction = -60.0),
        ("waves.shore_depth", |c| waves(c).shore_depth = 2.0),
        ("waves.foam", |c| waves(c).foam = 0.9),
        ("collision.radius", |c| c.collision.radius = 40.0),
        ("collision.resolution", |c| {
            c.collision.resolution = Some(17)
        }),
        ("navigation.radius", |c| c.navigation.radius = 900.0),
        ("navigation.max_slope", |c| c.navigation.max_slope = 28.0),
        ("navigation.step_height", |c| c.navigation.step_height = 0.3),
        ("navigation.agent_radius", |c| {
            c.navigation.agent_radius = 0.8
        }),
        ("navigation.wade_depth", |c| c.navigation.wade_depth = 1.0),
        ("navigation.road_cost", |c| c.navigation.road_cost = 0.3),
        ("climate.scale", |c| c.climate.scale = 5000.0),
        ("climate.continent_scale", |c| {
            c.climate.continent_scale = 9000.0
        }),
        ("climate.blend", |c| c.climate.blend = 250.0),
        ("biomes[0].name", |c| c.biomes[0].name = "ocean".into()),
        // The climate ranges still tile climate space: a shared edge moves for both sides.
        ("biomes[..].temperature", |c| {
            for b in &mut c.biomes {
                for edge in [&mut b.temperature.0, &mut b.temperature.1] {
                    if *edge == 0.35 {
                        *edge = 0.3;
                    }
                }
            }
        }),
        ("biomes[..].moisture", |c| {
            for b in &mut c.biomes {
                for edge in [&mut b.moisture.0, &mut b.moisture.1] {
                    if *edge == 0.0 {
                        *edge = 0.1;
                    }
                }
            }
        }),
        ("biomes[0..2].continentalness", |c| {
            c.biomes[0].continentalness.1 = -0.55;
            c.biomes[1].continentalness.0 = -0.55;
        }),
        ("biomes[0].noise", |c| c.biomes[0].noise.octaves += 1),
        ("biomes[0].height_scale", |c| {
            c.biomes[0].height_scale = 30.0
        }),
        ("biomes[0].height_offset", |c| {
            c.biomes[0].height_offset = -50.0
        }),
        ("biomes[0].colors", |c| {
            c.biomes[0].colors = Some(TerrainColors {
                band_blend: 3.0,
                ..TerrainColors::default()
            })
        }),
        ("biomes[0].water", |c| c.biomes[0].water = None),
        ("scatter[0].name", |c| c.scatter[0].name = "pines".into()),
        ("scatter[0].density", |c| c.scatter[0].density = 90.0),
        ("scatter[0].spacing", |c| c.scatter[0].spacing = 5.0),
        ("scatter[0].height", |c| {
            c.scatter[0].height = SoftRange {
                min: 5.0,
                max: 300.0,
                fade: 5.0,
            }
        }),
        ("scatter[0].slope", |c| c.scatter[0].slope.max = 0.3),
        ("scatter[0].creases", |c| {
            c.scatter[0].creases = Some(SoftRange {
                min: 0.0,
                max: 0.5,
                fade: 0.1,
            })
        }),
        ("scatter[0].scale", |c| c.scatter[0].scale = (0.5, 2.0)),
        ("scatter[0].rotation", |c| c.scatter[0].rotation = 90.0),
        ("scatter[0].tilt", |c| c.scatter[0].tilt = 8.0),
        ("scatter[0].align_to_normal", |c| {
            c.scatter[0].align_to_normal = !c.scatter[0].align_to_normal
        }),
        ("scatter[0].sink", |c| c.scatter[0].sink = 0.5),
        ("scatter[0].view_distance", |c| {
            c.scatter[0].view_distance = 500.0
        }),
        ("scatter[0].far_color", |c| {
            c.scatter[0].far_color = Some(FarColor {
                color: [0.1, 0.2, 0.1],
                cover: 0.5,
            })
        }),
        ("scatter[0].biomes", |c| {
            c.scatter[0].biomes.push("plains".into())
        }),
    ];

    /// An image named `albedo`, 6 m a repeat.
    fn texture(albedo: &str) -> Option<LayerTexture> {
        Some(LayerTexture {
            albedo: albedo.into(),
            normal: None,
            size: 6.0,
        })
    }

    fn erosion(c: &mut TerrainConfig) -> &mut Erosion {
        c.noise.erosion.get_or_insert_default()
    }

    fn snow(c: &mut TerrainConfig) -> &mut Snow {
        c.colors.snow.get_or_insert_default()
    }

    fn water(c: &mut TerrainConfig) -> &mut Water {
        c.water.get_or_insert_default()
    }

    fn clouds(c: &mut TerrainConfig) -> &mut Clouds {
        c.clouds.get_or_insert_default()
    }

    fn waves(c: &mut TerrainConfig) -> &mut Waves {
        c.waves.get_or_insert_default()
    }

    /// `field` with every index (`[0]`, `[..]`, `[0..2]`) written as `[i]`.
    fn without_indices(field: &str) -> String {
        let mut out = String::new();
        let mut inside = false;
        for c in field.chars() {
            match c {
                '[' => {
                    inside = true;
                    out.push_str("[i]");
                }
                ']' => inside = false,
                c if !inside => out.push(c),
                _ => {}
            }
        }
        out
    }

    /// Every field that a nested struct's `impl_fields!` list names (all its fields) has an
    /// edit in [`EDITS`], of the field itself or of one inside it.
    #[test]
    fn every_nested_field_has_an_edit() {
        let edited: Vec<String> = EDITS.iter().map(|(f, _)| without_indices(f)).collect();
        for (parent, names) in [
            ("noise", Fbm::NAMES),
            ("noise.erosion", Erosion::NAMES),
            ("colors", TerrainColors::NAMES),
            ("colors.snow", Snow::NAMES),
            ("colors.edge_noise", EdgeNoise::NAMES),
            ("colors.grain", Grain::NAMES),
            ("water", Water::NAMES),
            ("collision", Collision::NAMES),
            ("climate", Climate::NAMES),
            ("biomes[i]", Biome::NAMES),
            ("scatter[i]", ScatterLayer::NAMES),
        ] {
            for name in names {
                let field = format!("{parent}.{name}");
                let inner = format!("{field}.");
                assert!(
                    edited.iter().any(|e| *e == field || e.starts_with(&inner)),
                    "{field} has no edit in EDITS"
                );
            }
        }
    }

    /// Each field of each nested struct, changed alone in the world preset, is written and read
    /// back: a field left out of its struct's `impl_fields!` list would not compile, and one
    /// written the wrong way would come back different.
    #[test]
    fn each_nested_field_changed_alone_reads_back() {
        let world = parse_config("world.terrain.ron", WORLD.as_bytes()).expect("the preset");
        let saved = parse_config("saved.terrain.ron", world.to_ron().as_bytes());
        assert!(
            saved.is_ok_and(|c| c == world),
            "the preset itself does not read back"
        );
        for (field, edit) in EDITS {
            let mut config = world.clone();
            edit(&mut config);
            assert!(config != world, "{field}: the change changes nothing");
            let text = config.to_ron();
            let again = parse_config("saved.terrain.ron", text.as_bytes())
                .unwrap_or_else(|e| panic!("{field}: {e}\n{text}"));
            assert!(again == config, "{field} did not read back:\n{text}");
        }
    }
}
