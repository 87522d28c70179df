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
    Biome, Climate, Collision, EdgeNoise, GroundDetail, ScatterLayer, Snow, TerrainColours,
    TerrainConfig, Water,
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
}

/// Writes each listed field of `$value` that differs from `$default`'s: `leaf` fields whole,
/// `nested` ones as structs, `optional` ones as `None` or `Some(struct)`.
macro_rules! fields {
    ($out:ident, $value:ident, $default:ident; $($kind:ident $field:ident),* $(,)?) => {
        $(
            if $value.$field != $default.$field {
                $out.$kind(stringify!($field), &$value.$field);
            }
        )*
    };
}

impl Fields for TerrainConfig {
    fn write_fields(&self, out: &mut Out) {
        // Named in full, so a new field is a compile error here until it is written.
        let TerrainConfig {
            seed: _,
            noise,
            height_scale: _,
            chunk_size: _,
            chunk_resolution: _,
            view_distance: _,
            lod_distance: _,
            max_tasks_in_flight: _,
            max_uploads_per_frame: _,
            sea_level: _,
            skirt_depth: _,
            colours,
            water,
            collision,
            scatter,
            stamps: _,
            paths: _,
            climate,
            biomes,
        } = self;
        let d = TerrainConfig::default();
        fields!(out, self, d; leaf seed);
        if *noise != d.noise {
            out.nested("noise", noise);
        }
        fields!(out, self, d;
            leaf height_scale, leaf chunk_size, leaf chunk_resolution, leaf view_distance,
            leaf lod_distance, leaf max_tasks_in_flight, leaf max_uploads_per_frame,
            leaf sea_level, leaf skirt_depth);
        if *water != d.water {
            out.optional("water", water);
        }
        if *colours != d.colours {
            out.nested("colours", colours);
        }
        if *collision != d.collision {
            out.nested("collision", collision);
        }
        out.list("scatter", scatter);
        // Stamps and paths as `ron` writes them: one line each list.
        fields!(out, self, d; leaf stamps, leaf paths);
        if *climate != d.climate {
            out.nested("climate", climate);
        }
        out.list("biomes", biomes);
    }
}

impl Fields for Climate {
    fn write_fields(&self, out: &mut Out) {
        let d = Climate::default();
        fields!(out, self, d; leaf scale, leaf continent_scale, leaf blend);
    }
}

impl Fields for Biome {
    fn write_fields(&self, out: &mut Out) {
        let d = Biome::default();
        fields!(out, self, d;
            leaf name, leaf temperature, leaf moisture, leaf continentalness);
        if self.noise != d.noise {
            out.nested("noise", &self.noise);
        }
        fields!(out, self, d;
            leaf height_scale, leaf height_offset, optional colours, optional water);
    }
}

impl Fields for Fbm {
    fn write_fields(&self, out: &mut Out) {
        let d = Fbm::default();
        fields!(out, self, d;
            leaf base, leaf fade, leaf interpolation, leaf hashing, leaf octaves, leaf frequency,
            leaf amplitude, leaf lacunarity, leaf persistence, leaf contrast, leaf noise_size,
            leaf octave_shift, leaf mode, leaf warp, optional erosion);
    }
}

impl Fields for Erosion {
    fn write_fields(&self, out: &mut Out) {
        let d = Erosion::default();
        fields!(out, self, d;
            leaf strength, leaf scale, leaf octaves, leaf lacunarity, leaf gain, leaf sharpness,
            leaf detail, leaf slope_onset, leaf preserve);
    }
}

impl Fields for TerrainColours {
    fn write_fields(&self, out: &mut Out) {
        let d = TerrainColours::default();
        fields!(out, self, d;
            leaf sea_bed, leaf bands, leaf band_blend, leaf rock, leaf rock_slope, leaf rock_blend,
            leaf rock_roughness, leaf rock_texture, optional snow, nested edge_noise,
            leaf creases, nested detail, leaf height_blend);
    }
}

impl Fields for Snow {
    fn write_fields(&self, out: &mut Out) {
        let d = Snow::default();
        fields!(out, self, d;
            leaf colour, leaf from, leaf blend, leaf max_slope, leaf slope_blend, leaf roughness,
            leaf texture);
    }
}

impl Fields for EdgeNoise {
    fn write_fields(&self, out: &mut Out) {
        let d = EdgeNoise::default();
        fields!(out, self, d; leaf height, leaf slope, leaf size);
    }
}

impl Fields for GroundDetail {
    fn write_fields(&self, out: &mut Out) {
        let d = GroundDetail::default();
        fields!(out, self, d; leaf strength, leaf size, leaf fade_distance);
    }
}

impl Fields for Water {
    fn write_fields(&self, out: &mut Out) {
        let d = Water::default();
        fields!(out, self, d; leaf shallow, leaf deep, leaf depth, leaf foam, leaf waves, leaf sky);
    }
}

impl Fields for Collision {
    fn write_fields(&self, out: &mut Out) {
        let d = Collision::default();
        fields!(out, self, d; leaf radius, leaf resolution);
    }
}

impl Fields for ScatterLayer {
    fn write_fields(&self, out: &mut Out) {
        let d = ScatterLayer::default();
        fields!(out, self, d;
            leaf name, leaf density, leaf spacing, leaf height, leaf slope, leaf creases,
            leaf scale, leaf rotation, leaf tilt, leaf align_to_normal, leaf sink,
            leaf view_distance, leaf far_colour, leaf biomes);
    }
}

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
