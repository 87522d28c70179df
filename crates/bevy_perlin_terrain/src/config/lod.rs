//! [`LodLayout`]: where each level of detail is drawn.

use super::TerrainConfig;

/// The coarsest level a config may need (chunks of `chunk_size · 2^24` metres).
pub const MAX_LOD: u8 = 24;

/// A chunk splits when a viewer comes within `1 − HYSTERESIS` of the reach of its children's
/// level and merges again only beyond `1 + HYSTERESIS`: a viewer hovering at a boundary does not
/// make chunks flip back and forth.
pub(crate) const HYSTERESIS: f64 = 0.02;

/// A level's morph ends this much of its reach before the distance where its chunks are
/// split from their parent: the children are built while the viewer crosses that margin, and
/// appear fully morphed, showing the parent's surface.
pub(crate) const SPLIT_MARGIN: f64 = 0.04;

/// The streaming replans once a viewer moved this many chunk sizes (or came or went).
pub(crate) const REPLAN: f64 = 0.25;

/// The shortest morph range a level may have, as a share of its chunk's side (see
/// [`LodLayout::morph_range`]).
pub const MIN_MORPH: f64 = 0.15;

/// Where each level of detail is drawn, for one config: the levels as a quadtree over the
/// endless plane.
///
/// A chunk of level `k` covers `chunk_size · 2^k` metres on a side with the same
/// `chunk_resolution` vertices, so each level doubles the vertex spacing and quarters the
/// number of chunks per area. Level `k` is drawn out to `lod_distance · 2^k` metres from the
/// nearest viewer (its *reach*): a chunk of level `k + 1` nearer than level `k`'s reach is
/// split into its four children. Since each level reaches twice as far as the one below it and
/// its chunks are twice as large, the number of chunks a viewer needs grows with the logarithm
/// of the view distance, not its square (Ulrich's chunked LOD, 2002; Strugar's CDLOD, 2009).
///
/// Levels are chosen by the *level distance* `max(|dx|, |dz|, h)` from the nearest viewer to a
/// chunk's centre, `h` being the viewer's height over the ground near it (the rings of detail are
/// squares, as the chunks are; a viewer 900 m up gets no finer level under it than the one whose
/// reach is 900 m, as 3D distance would give: Strugar's CDLOD, 2009), and vertices morph by their
/// own level distance (`ChunkRegistry::level_distance`); the view itself ends on a circle
/// (`view_distance`, top-level chunks). Neighbouring chunks then differ by at most one level once
/// the reach of level 0 is about 3.3 × `chunk_size`. As a chunk nears the distance where its parent
/// replaces it, the terrain material blends its vertices to the parent's surface over its *morph
/// range* ([`LodLayout::morph_range`]), so the switch moves nothing on screen: validation asks for
/// a reach of level 0 of at least
/// [`LOD_DISTANCE_MIN_CHUNKS`](super::ranges::LOD_DISTANCE_MIN_CHUNKS) × `chunk_size`, and for
/// every level a morph range of at least [`MIN_MORPH`] of its chunk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LodLayout {
    chunk_size: f64,
    lod_distance: f64,
    view_distance: f64,
    top: u8,
}

impl LodLayout {
    /// The layout of `config`.
    pub fn new(config: &TerrainConfig) -> Self {
        let chunk_size = config.chunk_size as f64;
        let lod_distance = config.lod_distance as f64;
        let view_distance = config.view_distance as f64;
        let mut top = 0;
        while top < MAX_LOD && lod_distance * f64::from(1u32 << top) < view_distance {
            top += 1;
        }
        Self {
            chunk_size,
            lod_distance,
            view_distance,
            top,
        }
    }

    /// Side of a chunk of level `lod`, in metres.
    pub fn size(&self, lod: u8) -> f64 {
        self.chunk_size * pow2(lod)
    }

    /// How far from the nearest viewer level `lod` is drawn: `lod_distance · 2^lod`.
    pub fn reach(&self, lod: u8) -> f64 {
        self.lod_distance * pow2(lod)
    }

    /// The coarsest level the view needs: the first whose reach is the view distance.
    pub fn top(&self) -> u8 {
        self.top
    }

    /// Metres within which the chunks are wanted around a viewer.
    pub fn view_distance(&self) -> f64 {
        self.view_distance
    }

    /// The level distances (`max(|dx|, |dz|, h)` from the nearest viewer, in metres) over which
    /// a vertex of a chunk of level `lod` blends from its own height to its parent's surface:
    /// none before the first, fully from the second on.
    ///
    /// A parent is split when a viewer comes within `reach(lod) · (1 − HYSTERESIS)` of its
    /// centre, and its children merge again beyond `(1 + HYSTERESIS)` (2 %): its vertices are
    /// then at least a child's side nearer. The second distance comes before both, by the
    /// distance a viewer may move between two plans (a quarter chunk) and by 4 % of the reach
    /// more for the time the children take to build, so new children show the parent's surface
    /// and leaving ones show it too, and so does every edge with a coarser neighbour.
    /// The first lies beyond every point where a finer neighbour may touch the chunk (the finer
    /// level's split distance, with hysteresis, plus half this level's side), so the chunk
    /// shows its own surface wherever a finer neighbour meets it. `None` for the top level (no
    /// parent).
    pub fn morph_range(&self, lod: u8) -> Option<(f64, f64)> {
        if lod >= self.top {
            return None;
        }
        let end = self.reach(lod) * (1.0 - HYSTERESIS - SPLIT_MARGIN)
            - self.size(lod)
            - REPLAN * self.chunk_size;
        let start = if lod == 0 {
            0.6 * end
        } else {
            self.reach(lod - 1) * (1.0 + HYSTERESIS) + 0.5 * self.size(lod)
        };
        Some((start.min(end), end))
    }

    /// The morph of a vertex of a chunk of level `lod` at level distance `distance` from the
    /// nearest viewer: 0 (its own surface) to 1 (its parent's). What the terrain material's
    /// vertex shaders compute, for tests and tools.
    pub fn morph_at(&self, lod: u8, distance: f64) -> f64 {
        match self.morph_range(lod) {
            Some((start, end)) if end > start => {
                ((distance - start) / (end - start)).clamp(0.0, 1.0)
            }
            Some((_, end)) => f64::from(distance >= end),
            None => 0.0,
        }
    }

    /// The level of detail drawn at `distance` metres from a viewer: the first level whose
    /// reach it is within.
    pub fn lod_at(&self, distance: f64) -> u8 {
        (0..self.top)
            .find(|&lod| distance <= self.reach(lod))
            .unwrap_or(self.top)
    }

    /// The shortest morph range of any level, as a share of its chunk's side (at least
    /// [`MIN_MORPH`] in a valid config).
    pub fn shortest_morph(&self) -> f64 {
        (0..self.top)
            .filter_map(|lod| self.morph_range(lod).map(|(a, b)| (b - a) / self.size(lod)))
            .fold(f64::INFINITY, f64::min)
    }

    /// An upper bound on the chunks of the tree around one viewer: at each level, the chunks
    /// that fit in the square ring where that level can be drawn (the top level: in the view's
    /// circle, with its margin).
    pub fn most_chunks(&self) -> f64 {
        (0..=self.top)
            .map(|lod| {
                let size = self.size(lod);
                // Not split: its centre is at least the finer reach away.
                let inner = if lod == 0 {
                    0.0
                } else {
                    (2.0 * self.reach(lod - 1) * (1.0 - HYSTERESIS) - size).max(0.0)
                };
                let outer_area = if lod == self.top {
                    let r = self.view_distance + 0.5 * size + std::f64::consts::SQRT_2 * size;
                    std::f64::consts::PI * r * r
                } else {
                    // Its parent split: the parent's centre within the reach.
                    let side = 2.0 * (self.reach(lod) * (1.0 + HYSTERESIS) + size);
                    side * side
                };
                (outer_area - (inner * inner).min(outer_area)) / (size * size)
            })
            .sum()
    }
}

/// `2^lod` as `f64`.
fn pow2(lod: u8) -> f64 {
    f64::from(lod).exp2()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(lod_distance: f32, view_distance: f32) -> LodLayout {
        LodLayout::new(&TerrainConfig {
            chunk_size: 64.0,
            lod_distance,
            view_distance,
            ..TerrainConfig::default()
        })
    }

    #[test]
    fn each_level_doubles_the_chunk_and_its_reach() {
        let l = layout(320.0, 30_000.0);
        assert_eq!(l.size(3), 512.0);
        assert_eq!(l.reach(3), 2560.0);
        // 320 · 2^6 = 20 480 < 30 000 <= 320 · 2^7.
        assert_eq!(l.top(), 7);
        assert_eq!(l.lod_at(0.0), 0);
        assert_eq!(l.lod_at(320.0), 0);
        assert_eq!(l.lod_at(321.0), 1);
        assert_eq!(l.lod_at(1e9), 7);
        assert_eq!(layout(320.0, 300.0).top(), 0);
    }

    #[test]
    fn morph_ranges_end_before_the_parent_takes_over_and_start_past_finer_neighbours() {
        // At the smallest reach validation allows, every level still morphs over its share.
        for lod_distance in [288.0, 320.0, 1000.0] {
            let l = layout(lod_distance, 30_000.0);
            assert_eq!(l.morph_range(l.top()), None);
            for lod in 0..l.top() {
                let (start, end) = l.morph_range(lod).expect("below the top");
                assert!(
                    end - start >= MIN_MORPH * l.size(lod),
                    "level {lod}: {start} .. {end}"
                );
                assert!(
                    end < l.reach(lod) * (1.0 - HYSTERESIS) - l.size(lod) - REPLAN * 64.0,
                    "ends before the split, a replan late"
                );
                if lod > 0 {
                    let finer = l.reach(lod - 1) * (1.0 + HYSTERESIS) + 0.5 * l.size(lod);
                    assert!(start >= finer, "level {lod}");
                }
                assert_eq!(l.morph_at(lod, start), 0.0);
                assert_eq!(l.morph_at(lod, end), 1.0);
                assert!((l.morph_at(lod, 0.5 * (start + end)) - 0.5).abs() < 1e-9);
            }
        }
    }
}
