//! The climate and the biomes: each biome's fields, that their climate ranges tile climate space
//! (no overlap, no gap), and the climate nodes the view's coarsest chunk reads.

use super::ConfigError;
use super::fields::{finite, finite_metres, validate_colors, validate_water};
use crate::config::ranges;
use crate::config::{Biome, CLIMATE_AXES, MAX_BIOMES, NODES_PER_SCALE, TerrainConfig};
use perlin_core::FieldError;

/// Climate lattice nodes a side of the coarsest chunk, at most.
const MAX_CLIMATE_NODES: f64 = 256.0;

/// One biome's fields, and that its climate ranges overlap none of `before`'s.
fn validate_biome(b: &Biome, before: &[Biome]) -> Result<(), ConfigError> {
    FieldError::require(
        !b.name.is_empty() && b.name.chars().count() <= 64,
        "name",
        format!("{:?}", b.name),
        "1 to 64 characters",
    )?;
    if let Some(j) = before.iter().position(|o| o.name == b.name) {
        return Err(FieldError::new(
            "name",
            format!("{:?}", b.name),
            format!("a name of its own (biomes[{j}] has it)"),
        ));
    }
    let climate = &ranges::CLIMATE_RANGE;
    for (axis, (low, high)) in CLIMATE_AXES.iter().zip(b.ranges()) {
        if !(climate.contains_f32(low) && climate.contains_f32(high) && low < high) {
            return Err(FieldError::new(
                *axis,
                format!("({low}, {high})"),
                format!(
                    "(low, high) with {} <= low < high <= {} (a range that is not empty)",
                    climate.min as f32, climate.max as f32
                ),
            ));
        }
    }
    b.noise.validate().map_err(|e| e.within("noise"))?;
    finite("height_scale", b.height_scale, &ranges::HEIGHT_SCALE)?;
    finite("height_offset", b.height_offset, &ranges::HEIGHT_OFFSET)?;
    if let Some(colors) = &b.colors {
        validate_colors(colors)?;
    }
    if let Some(water) = &b.water {
        validate_water(water)?;
    }
    for (j, other) in before.iter().enumerate() {
        let overlap = b
            .ranges()
            .into_iter()
            .zip(other.ranges())
            .map(|((a0, a1), (b0, b1))| a1.min(b1) - a0.max(b0))
            .collect::<Vec<_>>();
        if overlap.iter().all(|&o| o > 0.0) {
            // The axis where the overlap is thinnest: the easiest to move apart.
            let axis = (0..3)
                .min_by(|&a, &b| overlap[a].total_cmp(&overlap[b]))
                .unwrap_or(0);
            let (low, high) = b.ranges()[axis];
            let (o0, o1) = other.ranges()[axis];
            return Err(FieldError::new(
                CLIMATE_AXES[axis],
                format!("({low}, {high})"),
                format!(
                    "a range that does not overlap biomes[{j}] ({:?}, {} ({o0}, {o1})) where their other ranges overlap too: the ranges of two biomes may touch but not overlap",
                    other.name, CLIMATE_AXES[axis]
                ),
            ));
        }
    }
    Ok(())
}

/// A climate point in no biome's ranges, reported on `biomes`. The ranges' ends cut each axis
/// into intervals; the biomes cover climate space when they cover the centre of every cell.
fn climate_gap(biomes: &[Biome]) -> Result<(), ConfigError> {
    let (first, last) = (
        ranges::CLIMATE_RANGE.min as f32,
        ranges::CLIMATE_RANGE.max as f32,
    );
    let cuts: [Vec<f32>; 3] = std::array::from_fn(|axis| {
        let mut cut: Vec<f32> = biomes
            .iter()
            .flat_map(|b| {
                let (low, high) = b.ranges()[axis];
                [low, high]
            })
            .chain([first, last])
            .collect();
        cut.sort_by(f32::total_cmp);
        cut.dedup();
        cut
    });
    let centres = |axis: usize| {
        cuts[axis]
            .windows(2)
            .map(|w| 0.5 * (w[0] + w[1]))
            .collect::<Vec<_>>()
    };
    let [ts, ms, cs] = [centres(0), centres(1), centres(2)];
    for &t in &ts {
        for &m in &ms {
            for &c in &cs {
                let inside = |b: &Biome| {
                    b.ranges()
                        .iter()
                        .zip([t, m, c])
                        .all(|(&(low, high), v)| low <= v && v <= high)
                };
                if !biomes.iter().any(inside) {
                    return Err(FieldError::new(
                        "biomes",
                        format!(
                            "no biome at temperature {t:.3}, moisture {m:.3}, continentalness {c:.3}"
                        ),
                        format!(
                            "biomes whose climate ranges cover every climate point ({first} to {last} on each axis): widen a biome's range or add one there"
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

impl TerrainConfig {
    /// The climate and the biomes: each biome's fields, then that their climate ranges tile
    /// climate space (no overlap, no gap), then the climate nodes the coarsest chunk needs.
    pub(super) fn validate_biomes(&self) -> Result<(), ConfigError> {
        if self.biomes.is_empty() {
            return Ok(());
        }
        FieldError::require(
            self.biomes.len() <= MAX_BIOMES,
            "biomes",
            self.biomes.len(),
            &format!("at most {MAX_BIOMES} biomes"),
        )?;
        let c = &self.climate;
        finite_metres("climate.scale", c.scale, &ranges::CLIMATE_SCALE)?;
        finite_metres(
            "climate.continent_scale",
            c.continent_scale,
            &ranges::CLIMATE_CONTINENT_SCALE,
        )?;
        let narrowest = ranges::CLIMATE_BLEND.min as f32;
        let widest = ranges::climate_blend_max(c.scale, c.continent_scale);
        FieldError::require(
            c.blend.is_finite() && (narrowest..=widest).contains(&c.blend),
            "climate.blend",
            c.blend,
            &format!(
                "finite, {narrowest} to a quarter of the smaller climate scale ({widest} metres)"
            ),
        )?;
        for (i, biome) in self.biomes.iter().enumerate() {
            validate_biome(biome, &self.biomes[..i])
                .map_err(|e| e.within(&format!("biomes[{i}]")))?;
        }
        climate_gap(&self.biomes)?;
        // The coarsest chunk reads the climate nodes over its area: a bounded number.
        let top = self.chunk_size as f64 * f64::from(self.max_lod()).exp2();
        let smaller = c.scale.min(c.continent_scale) as f64;
        let nodes = top * NODES_PER_SCALE / smaller;
        let least = (top * NODES_PER_SCALE / MAX_CLIMATE_NODES).ceil();
        FieldError::require(
            nodes <= MAX_CLIMATE_NODES,
            if c.scale <= c.continent_scale {
                "climate.scale"
            } else {
                "climate.continent_scale"
            },
            smaller,
            &format!(
                "at least {least} metres for the coarsest chunk of this view ({top:.0} m a side: its climate is read from at most {MAX_CLIMATE_NODES} nodes a side), or a shorter view_distance"
            ),
        )
    }
}
