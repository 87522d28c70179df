//! Vertex colours: bands by height above sea level, blended at their edges, turning to rock
//! where the ground is steep.

use crate::config::TerrainColours;
use bevy::math::Vec3;

/// [`TerrainColours`] prepared for colouring many vertices: band edges, the reciprocal of the
/// blend width and the rock ramp computed once per chunk instead of once per vertex.
#[derive(Clone, Debug, PartialEq)]
pub struct ColourRamp {
    sea_level: f32,
    sea_bed: Vec3,
    /// Each band's lower edge (metres above sea level) and colour.
    bands: Vec<(f32, Vec3)>,
    /// Half the blend width, and `1 / width` (unused when the width is 0: hard edges).
    half: f32,
    inv_width: f32,
    rock: Vec3,
    /// Slope where rock starts to show, and `1 / (rock_slope − start)`.
    rock_start: f32,
    inv_rock_ramp: f32,
}

impl ColourRamp {
    /// The ramp of `colours` with the sea at `sea_level` metres.
    pub fn new(colours: &TerrainColours, sea_level: f32) -> Self {
        // Band k starts where band k − 1 ends; the first starts at sea level.
        let lower_edges = std::iter::once(0.0).chain(colours.bands.iter().map(|b| b.up_to));
        let bands = lower_edges
            .zip(&colours.bands)
            .map(|(edge, b)| (edge, Vec3::from(b.colour)))
            .collect();
        let half = 0.5 * colours.band_blend;
        // Rock blends in over the last fifth of `rock_slope`.
        let rock_start = colours.rock_slope * 0.8;
        Self {
            sea_level,
            sea_bed: Vec3::from(colours.sea_bed),
            bands,
            half,
            inv_width: if half > 0.0 { 1.0 / (2.0 * half) } else { 0.0 },
            rock: Vec3::from(colours.rock),
            rock_start,
            inv_rock_ramp: 1.0 / (colours.rock_slope - rock_start).max(1e-6),
        }
    }

    /// Linear RGBA of ground at `height` metres with unit normal `normal`: the reference
    /// that [`fill`](Self::fill) matches bit for bit.
    #[inline]
    pub fn colour(&self, height: f32, normal: Vec3) -> [f32; 4] {
        // From the sea bed up, each band's lower edge mixes in its colour over the blend width.
        let above = height - self.sea_level;
        let mut ground = self.sea_bed;
        for &(edge, colour) in &self.bands {
            ground = ground.lerp(colour, self.band_weight(above, edge));
        }
        let c = ground.lerp(self.rock, self.rock_weight(normal.y));
        [c.x, c.y, c.z, 1.0]
    }

    /// Appends to `out` the colour of every vertex of `positions` with its unit normal in
    /// `normals`: the same values as [`colour`](Self::colour), computed one band at a time over
    /// batches of vertices so that the compiler runs them in SIMD lanes.
    pub fn fill(&self, positions: &[[f32; 3]], normals: &[[f32; 3]], out: &mut Vec<[f32; 4]>) {
        let mut above = [0.0; BATCH];
        let mut rock = [0.0; BATCH];
        for (ps, ns) in positions.chunks(BATCH).zip(normals.chunks(BATCH)) {
            for ((a, r), (p, n)) in above.iter_mut().zip(&mut rock).zip(ps.iter().zip(ns)) {
                *a = p[1] - self.sea_level;
                *r = self.rock_weight(n[1]);
            }
            let mut rgb = self.sea_bed.to_array().map(|c| [c; BATCH]);
            for &(edge, colour) in &self.bands {
                for (k, &a) in above.iter().enumerate() {
                    let t = self.band_weight(a, edge);
                    for (channel, c) in rgb.iter_mut().zip(colour.to_array()) {
                        channel[k] = lerp(channel[k], c, t);
                    }
                }
            }
            let [r, g, b] = &rgb;
            let vertices = ps.len().min(ns.len());
            out.extend((0..vertices).map(|k| {
                let t = rock[k];
                [
                    lerp(r[k], self.rock.x, t),
                    lerp(g[k], self.rock.y, t),
                    lerp(b[k], self.rock.z, t),
                    1.0,
                ]
            }));
        }
    }

    /// How much of the band starting `edge` metres above sea level shows `above` metres up.
    #[inline]
    fn band_weight(&self, above: f32, edge: f32) -> f32 {
        if self.half > 0.0 {
            ((above - edge + self.half) * self.inv_width).clamp(0.0, 1.0)
        } else {
            f32::from(above >= edge)
        }
    }

    /// How much rock shows where the unit normal's upward part is `normal_y`.
    #[inline]
    fn rock_weight(&self, normal_y: f32) -> f32 {
        let slope = 1.0 - normal_y;
        ((slope - self.rock_start) * self.inv_rock_ramp).clamp(0.0, 1.0)
    }
}

/// Vertices per batch in [`ColourRamp::fill`].
const BATCH: usize = 64;

/// `a` to `b` by `t`, in the order `Vec3::lerp` computes it (so both paths agree bit for bit).
#[inline]
fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a * (1.0 - t) + b * t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::HeightBand;

    fn colours(band_blend: f32) -> TerrainColours {
        TerrainColours {
            sea_bed: [0.0, 0.0, 1.0],
            bands: vec![
                HeightBand::new(10.0, [1.0, 0.0, 0.0]),
                HeightBand::new(1e9, [0.0, 1.0, 0.0]),
            ],
            band_blend,
            rock: [0.5, 0.5, 0.5],
            rock_slope: 0.5,
        }
    }

    #[test]
    fn bands_blend_across_their_edges_and_steep_ground_is_rock() {
        let flat = Vec3::Y;
        // 100 m sea level: inside each band its own colour, half-way at each edge.
        let ramp = ColourRamp::new(&colours(2.0), 100.0);
        assert_eq!(ramp.colour(90.0, flat), [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(ramp.colour(100.0, flat), [0.5, 0.0, 0.5, 1.0]);
        assert_eq!(ramp.colour(100.5, flat), [0.75, 0.0, 0.25, 1.0]);
        assert_eq!(ramp.colour(105.0, flat), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(ramp.colour(110.5, flat), [0.25, 0.75, 0.0, 1.0]);
        assert_eq!(ramp.colour(500.0, flat), [0.0, 1.0, 0.0, 1.0]);
        // Without blending the edges are steps.
        let hard = ColourRamp::new(&colours(0.0), 0.0);
        assert_eq!(hard.colour(-0.01, flat), [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(hard.colour(0.0, flat), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(hard.colour(10.0, flat), [0.0, 1.0, 0.0, 1.0]);
        // Rock starts at 0.4 (four fifths of rock_slope) and is whole at 0.5.
        let steep = |slope: f32| Vec3::new((1.0 - (1.0 - slope).powi(2)).sqrt(), 1.0 - slope, 0.0);
        assert_eq!(ramp.colour(500.0, steep(0.39)), [0.0, 1.0, 0.0, 1.0]);
        let half_rock = ramp.colour(500.0, steep(0.45));
        assert!((half_rock[0] - 0.25).abs() < 1e-5 && (half_rock[1] - 0.75).abs() < 1e-5);
        assert_eq!(ramp.colour(500.0, Vec3::X), [0.5, 0.5, 0.5, 1.0]);
    }

    #[test]
    fn overlapping_blends_mix_every_band_they_reach() {
        // Bands 1 m apart with a 4 m blend: at the first edge all three colours contribute.
        let mut c = colours(4.0);
        c.bands.insert(1, HeightBand::new(11.0, [0.0, 0.0, 0.0]));
        let ramp = ColourRamp::new(&c, 0.0);
        let [r, g, b, _] = ramp.colour(10.0, Vec3::Y);
        assert!(r > 0.0 && g > 0.0 && b == 0.0, "{r} {g} {b}");
    }

    #[test]
    fn fill_equals_colour_bit_for_bit() {
        // Heights across every band edge and blend, slopes from flat to vertical, and a count
        // that leaves a partial batch.
        let config = crate::TerrainConfig::default();
        for blend in [0.0, 2.0, 40.0] {
            let mut colours = config.colours.clone();
            colours.band_blend = blend;
            let ramp = ColourRamp::new(&colours, -12.0);
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
                let expected = ramp.colour(p[1], Vec3::from(*n));
                assert_eq!(
                    c.map(f32::to_bits),
                    expected.map(f32::to_bits),
                    "{p:?} {n:?}"
                );
            }
        }
    }
}
