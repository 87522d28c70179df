//! Vertex colors (the [`TerrainRenderMode::VertexColors`] fallback and the preview tool): bands by
//! height above sea level, blended at their edges, rock where the ground is steep, snow on flat
//! high ground. The terrain material applies the same rules per pixel.
//!
//! [`TerrainRenderMode::VertexColors`]: crate::TerrainRenderMode::VertexColors

use crate::config::TerrainColors;
use bevy::math::Vec3;

/// [`TerrainColors`] prepared for coloring many vertices: band edges, reciprocals of the blend
/// widths, the rock and snow ramps, computed once per chunk instead of once per vertex.
#[derive(Clone, Debug, PartialEq)]
pub struct ColorRamp {
    sea_level: f32,
    sea_bed: Vec3,
    /// Each band's lower edge (metres above sea level) and color.
    bands: Vec<(f32, Vec3)>,
    /// The band edges' blend.
    band_edge: Ramp,
    rock: Vec3,
    /// Rock by slope (`1 − normal.y`): from `rock_slope − rock_blend` to `rock_slope`.
    rock_ramp: Ramp,
    /// Snow's color, its height ramp (metres above sea level) and the slope ramp that sheds it;
    /// `None` without snow.
    snow: Option<(Vec3, Ramp, Ramp)>,
}

/// A linear step from 0 at `start` to 1 at `start + width` (a hard step at `start` when the
/// width is 0).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Ramp {
    start: f32,
    inv_width: f32,
    hard: bool,
}

impl Ramp {
    /// The ramp centred on `middle`, `width` wide.
    fn centred(middle: f32, width: f32) -> Self {
        Self::from(middle - 0.5 * width, width)
    }

    fn from(start: f32, width: f32) -> Self {
        let hard = width <= 0.0;
        Self {
            start,
            inv_width: if hard { 0.0 } else { 1.0 / width },
            hard,
        }
    }

    /// The ramp's value at `x`, 0 to 1.
    #[inline]
    fn at(self, x: f32) -> f32 {
        if self.hard {
            f32::from(x >= self.start)
        } else {
            ((x - self.start) * self.inv_width).clamp(0.0, 1.0)
        }
    }
}

impl ColorRamp {
    /// The ramp of `colors` with the sea at `sea_level` metres.
    pub fn new(colors: &TerrainColors, sea_level: f32) -> Self {
        // Band k starts where band k − 1 ends; the first starts at sea level.
        let lower_edges = std::iter::once(0.0).chain(colors.bands.iter().map(|b| b.up_to));
        let bands = lower_edges
            .zip(&colors.bands)
            .map(|(edge, b)| (edge, Vec3::from(b.color)))
            .collect();
        Self {
            sea_level,
            sea_bed: Vec3::from(colors.sea_bed),
            bands,
            band_edge: Ramp::centred(0.0, colors.band_blend),
            rock: Vec3::from(colors.rock),
            rock_ramp: Ramp::from(colors.rock_slope - colors.rock_blend, colors.rock_blend),
            snow: colors.snow.as_ref().map(|s| {
                (
                    Vec3::from(s.color),
                    Ramp::centred(s.from, s.blend),
                    Ramp::centred(s.max_slope, s.slope_blend),
                )
            }),
        }
    }

    /// Linear RGBA of ground at `height` metres with unit normal `normal`: the reference
    /// that [`fill`](Self::fill) matches bit for bit.
    #[inline]
    pub fn color(&self, height: f32, normal: Vec3) -> [f32; 4] {
        // From the sea bed up, each band's lower edge mixes in its color over the blend width;
        // then rock by slope, then snow where it is high and flat enough.
        let above = height - self.sea_level;
        let slope = 1.0 - normal.y;
        let mut ground = self.sea_bed;
        for &(edge, color) in &self.bands {
            ground = ground.lerp(color, self.band_edge.at(above - edge));
        }
        ground = ground.lerp(self.rock, self.rock_ramp.at(slope));
        if let Some((snow, _, _)) = self.snow {
            ground = ground.lerp(snow, self.snow_weight(above, slope));
        }
        [ground.x, ground.y, ground.z, 1.0]
    }

    /// Appends to `out` the color of every vertex of `positions` with its unit normal in
    /// `normals`: the same values as [`color`](Self::color), computed one layer at a time over
    /// batches of vertices so that the compiler runs them in SIMD lanes. Always inlined, so
    /// that a chunk's row kernel compiles it for the widest vector instructions the CPU has.
    #[inline(always)]
    pub fn fill(&self, positions: &[[f32; 3]], normals: &[[f32; 3]], out: &mut Vec<[f32; 4]>) {
        let mut above = [0.0; BATCH];
        let mut slope = [0.0; BATCH];
        for (ps, ns) in positions.chunks(BATCH).zip(normals.chunks(BATCH)) {
            for ((a, s), (p, n)) in above.iter_mut().zip(&mut slope).zip(ps.iter().zip(ns)) {
                *a = p[1] - self.sea_level;
                *s = 1.0 - n[1];
            }
            let mut rgb = self.sea_bed.to_array().map(|c| [c; BATCH]);
            let mut weights = [0.0; BATCH];
            for &(edge, color) in &self.bands {
                for (w, &a) in weights.iter_mut().zip(&above) {
                    *w = self.band_edge.at(a - edge);
                }
                mix(&mut rgb, color, &weights);
            }
            for (w, &s) in weights.iter_mut().zip(&slope) {
                *w = self.rock_ramp.at(s);
            }
            mix(&mut rgb, self.rock, &weights);
            if let Some((snow, _, _)) = self.snow {
                for ((w, &a), &s) in weights.iter_mut().zip(&above).zip(&slope) {
                    *w = self.snow_weight(a, s);
                }
                mix(&mut rgb, snow, &weights);
            }
            let [r, g, b] = &rgb;
            let vertices = ps.len().min(ns.len());
            out.extend((0..vertices).map(|k| [r[k], g[k], b[k], 1.0]));
        }
    }

    /// How much snow lies `above` metres over the sea where the slope is `slope`.
    #[inline]
    fn snow_weight(&self, above: f32, slope: f32) -> f32 {
        self.snow.map_or(0.0, |(_, height, shed)| {
            height.at(above) * (1.0 - shed.at(slope))
        })
    }
}

/// Vertices per batch in [`ColorRamp::fill`].
const BATCH: usize = 64;

/// Mixes `color` into a batch of colors by `weights`, channel by channel.
#[inline]
fn mix(rgb: &mut [[f32; BATCH]; 3], color: Vec3, weights: &[f32; BATCH]) {
    for (channel, c) in rgb.iter_mut().zip(color.to_array()) {
        for (v, &t) in channel.iter_mut().zip(weights) {
            *v = lerp(*v, c, t);
        }
    }
}

/// `a` to `b` by `t`, in the order `Vec3::lerp` computes it (so both paths agree bit for bit).
#[inline]
fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a * (1.0 - t) + b * t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::HeightBand;

    fn colors(band_blend: f32) -> TerrainColors {
        TerrainColors {
            sea_bed: [0.0, 0.0, 1.0],
            bands: vec![
                HeightBand::new(10.0, [1.0, 0.0, 0.0]),
                HeightBand::new(1e9, [0.0, 1.0, 0.0]),
            ],
            band_blend,
            rock: [0.5, 0.5, 0.5],
            rock_slope: 0.5,
            rock_blend: 0.1,
            snow: None,
            ..TerrainColors::default()
        }
    }

    #[test]
    fn bands_blend_across_their_edges_and_steep_ground_is_rock() {
        let flat = Vec3::Y;
        // 100 m sea level: inside each band its own color, half-way at each edge.
        let ramp = ColorRamp::new(&colors(2.0), 100.0);
        assert_eq!(ramp.color(90.0, flat), [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(ramp.color(100.0, flat), [0.5, 0.0, 0.5, 1.0]);
        assert_eq!(ramp.color(100.5, flat), [0.75, 0.0, 0.25, 1.0]);
        assert_eq!(ramp.color(105.0, flat), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(ramp.color(110.5, flat), [0.25, 0.75, 0.0, 1.0]);
        assert_eq!(ramp.color(500.0, flat), [0.0, 1.0, 0.0, 1.0]);
        // Without blending the edges are steps.
        let hard = ColorRamp::new(&colors(0.0), 0.0);
        assert_eq!(hard.color(-0.01, flat), [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(hard.color(0.0, flat), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(hard.color(10.0, flat), [0.0, 1.0, 0.0, 1.0]);
        // Rock starts at 0.4 (rock_slope − rock_blend) and is whole at 0.5.
        let steep = |slope: f32| Vec3::new((1.0 - (1.0 - slope).powi(2)).sqrt(), 1.0 - slope, 0.0);
        assert_eq!(ramp.color(500.0, steep(0.39)), [0.0, 1.0, 0.0, 1.0]);
        let half_rock = ramp.color(500.0, steep(0.45));
        assert!((half_rock[0] - 0.25).abs() < 1e-5 && (half_rock[1] - 0.75).abs() < 1e-5);
        assert_eq!(ramp.color(500.0, Vec3::X), [0.5, 0.5, 0.5, 1.0]);
    }

    #[test]
    fn snow_lies_above_its_line_on_ground_flatter_than_its_slope() {
        let mut c = colors(2.0);
        c.snow = Some(crate::config::Snow {
            color: [1.0, 1.0, 1.0],
            from: 50.0,
            blend: 10.0,
            max_slope: 0.3,
            slope_blend: 0.2,
            ..Default::default()
        });
        let ramp = ColorRamp::new(&c, 0.0);
        let tilted = |slope: f32| Vec3::new((1.0 - (1.0 - slope).powi(2)).sqrt(), 1.0 - slope, 0.0);
        // Below the line (45 m) none, half at 50 m, whole from 55 m; on flat ground.
        assert_eq!(ramp.color(44.9, Vec3::Y), [0.0, 1.0, 0.0, 1.0]);
        assert_eq!(ramp.color(50.0, Vec3::Y), [0.5, 1.0, 0.5, 1.0]);
        assert_eq!(ramp.color(55.0, Vec3::Y), [1.0, 1.0, 1.0, 1.0]);
        // High up it slides off from slope 0.2, half gone at 0.3, gone from 0.4 (where rock
        // starts to show).
        assert_eq!(ramp.color(500.0, tilted(0.19)), [1.0, 1.0, 1.0, 1.0]);
        let half = ramp.color(500.0, tilted(0.3));
        assert!(
            (half[0] - 0.5).abs() < 1e-5 && (half[1] - 1.0).abs() < 1e-5,
            "{half:?}"
        );
        let gone = ramp.color(500.0, tilted(0.401));
        assert!(gone[0] < 0.01 && gone[1] > 0.99, "{gone:?}");
    }

    #[test]
    fn overlapping_blends_mix_every_band_they_reach() {
        // Bands 1 m apart with a 4 m blend: at the first edge all three colors contribute.
        let mut c = colors(4.0);
        c.bands.insert(1, HeightBand::new(11.0, [0.0, 0.0, 0.0]));
        let ramp = ColorRamp::new(&c, 0.0);
        let [r, g, b, _] = ramp.color(10.0, Vec3::Y);
        assert!(r > 0.0 && g > 0.0 && b == 0.0, "{r} {g} {b}");
    }

    #[test]
    fn fill_equals_color_bit_for_bit() {
        // Heights across every band edge and blend, slopes from flat to vertical, and a count
        // that leaves a partial batch.
        let config = crate::config::TerrainConfig::default();
        for blend in [0.0, 2.0, 40.0] {
            let mut colors = config.colors.clone();
            colors.band_blend = blend;
            let ramp = ColorRamp::new(&colors, -12.0);
            let count = 3 * BATCH + 17;
            let positions: Vec<[f32; 3]> = (0..count)
                .map(|k| [0.0, -40.0 + 0.73 * k as f32, 0.0])
                .collect();
            let normals: Vec<[f32; 3]> = (0..count)
                .map(|k| {
                    let y = 1.0 - (k % 23) as f32 / 22.0;
                    [(1.0 - y * y).sqrt(), y, 0.0]
                })
                .collect();
            let mut filled = Vec::new();
            ramp.fill(&positions, &normals, &mut filled);
            assert_eq!(filled.len(), count);
            for ((p, n), c) in positions.iter().zip(&normals).zip(&filled) {
                let expected = ramp.color(p[1], Vec3::from(*n));
                assert_eq!(
                    c.map(f32::to_bits),
                    expected.map(f32::to_bits),
                    "{p:?} {n:?}"
                );
            }
        }
    }
}
