//! Which chunks the viewers want and how the chunks on screen become them: pure functions of
//! positions, the [`LodLayout`] and what is on screen, tested without an `App`.
//!
//! - [`wanted_leaves`]: the quadtree the viewers want. Top-level chunks within the view distance
//!   of a viewer, each split while a viewer is nearer than the reach of its children's level,
//!   its height over the ground counting as distance (Strugar's CDLOD, 2009, measures levels in
//!   3D for the same reason: a viewer high up sees no full detail under it).
//! - [`transitions`]: how the chunks on screen become that tree without a moment of hole or
//!   overlap. Each step replaces a set of chunks on screen by chunks covering exactly the same
//!   ground, and happens at once, when every replacement is built. A chunk to be refined is
//!   replaced by its four children (one level at a time, so detail arrives quickly however far
//!   the viewer flew); chunks to be coarsened are replaced by their wanted ancestor.

use crate::config::{HYSTERESIS, LodLayout, MAX_LOD};
use crate::space::{cells_around, distance_to_square};
use bevy::math::{DVec2, DVec3, IVec2};
use bevy::platform::collections::{HashMap, HashSet};

/// A node of the chunk quadtree: level `lod` (0 = full detail) and its coordinates in chunks of
/// that level (`chunk_size · 2^lod` metres on a side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ChunkKey {
    pub lod: u8,
    pub coord: IVec2,
}

/// By level, then row (`z`), then `x`: a stable order for the chunks of a step.
impl Ord for ChunkKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.lod, self.coord.y, self.coord.x).cmp(&(other.lod, other.coord.y, other.coord.x))
    }
}

impl PartialOrd for ChunkKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl ChunkKey {
    pub fn new(lod: u8, coord: IVec2) -> Self {
        Self { lod, coord }
    }

    /// The chunk of the next coarser level that contains this one.
    pub fn parent(self) -> Option<ChunkKey> {
        (self.lod < MAX_LOD)
            .then(|| ChunkKey::new(self.lod + 1, self.coord.div_euclid(IVec2::splat(2))))
    }

    /// Its four children, `None` at level 0 (or where their coordinates leave `i32`).
    pub fn children(self) -> Option<[ChunkKey; 4]> {
        let lod = self.lod.checked_sub(1)?;
        let x = self.coord.x.checked_mul(2)?;
        let z = self.coord.y.checked_mul(2)?;
        let (x1, z1) = (x.checked_add(1)?, z.checked_add(1)?);
        Some(
            [(x, z), (x1, z), (x, z1), (x1, z1)].map(|(x, z)| ChunkKey::new(lod, IVec2::new(x, z))),
        )
    }

    /// Its ancestors, from its parent up to level `top`.
    pub fn ancestors(self, top: u8) -> impl Iterator<Item = ChunkKey> {
        std::iter::successors(self.parent(), |k| k.parent()).take_while(move |k| k.lod <= top)
    }

    /// Whether `other` lies inside this chunk (or is it).
    #[cfg(test)]
    pub fn contains(self, other: ChunkKey) -> bool {
        other.lod <= self.lod && {
            let shift = u32::from(self.lod - other.lod);
            let scale = IVec2::splat(1 << shift.min(31));
            shift < 32 && other.coord.div_euclid(scale) == self.coord
        }
    }

    /// Its corner with the smallest `x` and `z`, and its side, in metres.
    pub fn square(self, layout: &LodLayout) -> (DVec2, f64) {
        let size = layout.size(self.lod);
        (self.coord.as_dvec2() * size, size)
    }

    /// Horizontal distance from the nearest of `viewers` to this chunk (0 inside it).
    pub fn distance(self, layout: &LodLayout, viewers: &[DVec2]) -> f64 {
        let (min, size) = self.square(layout);
        viewers
            .iter()
            .map(|&v| distance_to_square(v, min, size))
            .fold(f64::INFINITY, f64::min)
    }

    /// The level distance ([`Viewpoint::level_distance`]) from the nearest of `viewers` to this
    /// chunk's centre: what levels of detail are chosen by (see [`LodLayout`]).
    pub fn centre_distance(self, layout: &LodLayout, viewers: &[Viewpoint]) -> f64 {
        let (min, size) = self.square(layout);
        let centre = min + DVec2::splat(0.5 * size);
        viewers
            .iter()
            .map(|v| v.level_distance(centre))
            .fold(f64::INFINITY, f64::min)
    }
}

/// A viewer as levels of detail see it: where it is (terrain-space `x`, `z`) and how high it
/// is over the ground near it (metres, at least 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Viewpoint {
    pub xz: DVec2,
    pub height: f64,
}

impl Viewpoint {
    /// The distance levels of detail are chosen and morphed by, from this viewer to `xz`:
    /// `max(|dx|, |dz|, height)`. The square distance alone would give a viewer 900 m up the
    /// full detail under it, a metre between vertices seen from 900 m; with its height counted,
    /// the finest level under it is the one whose reach is its height. The height is one number
    /// for the viewer, not a vertex's own, so two chunks sharing an edge morph it alike.
    pub fn level_distance(&self, xz: DVec2) -> f64 {
        (self.xz - xz).abs().max_element().max(self.height)
    }
}

impl Viewpoint {
    /// The height of a viewer at `p` (terrain space) over the highest of the ground under it
    /// and the ground on a ring around it as wide as it is high (eight points): a peak beside
    /// a viewer flying over a valley counts, not only the valley. At least 0 (a viewer under the
    /// ground is on it). `ground(x, z)` is the ground's height.
    pub fn height_over_ground(p: DVec3, ground: impl Fn(f64, f64) -> f64) -> f64 {
        let below = ground(p.x, p.z);
        let height = p.y - below;
        if height.is_nan() || height <= 0.0 {
            return 0.0;
        }
        let highest = (0..8)
            .map(|k| {
                let angle = f64::from(k) * std::f64::consts::FRAC_PI_4;
                ground(p.x + height * angle.cos(), p.z + height * angle.sin())
            })
            .fold(below, f64::max);
        (p.y - highest).max(0.0)
    }
}

/// On the ground: tests and tools that place viewers by `x`, `z` only.
impl From<DVec2> for Viewpoint {
    fn from(xz: DVec2) -> Self {
        Self { xz, height: 0.0 }
    }
}

/// A chunk of the wanted tree and its distance to the nearest viewer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Wanted {
    pub key: ChunkKey,
    pub distance: f64,
}

/// The chunks on screen, as the planner sees them: which, and which have a descendant on screen
/// (they are split now).
pub(crate) struct Shown<'a> {
    pub chunks: &'a HashSet<ChunkKey>,
    pub split: &'a HashSet<ChunkKey>,
}

impl Shown<'_> {
    /// The chunks with a descendant in `chunks`.
    pub fn split_of(chunks: &HashSet<ChunkKey>, top: u8) -> HashSet<ChunkKey> {
        let mut split = HashSet::default();
        for key in chunks {
            for ancestor in key.ancestors(top) {
                if !split.insert(ancestor) {
                    break;
                }
            }
        }
        split
    }
}

/// The leaves of the tree the `viewers` want, with their (horizontal) distances, at most
/// `limit` of them (then the farthest stay coarser). Top-level chunks within the view distance
/// of a viewer (plus a quarter chunk ahead; a half once on screen); a chunk of level `k > 0` is
/// split while a viewer is nearer its centre than the reach of level `k − 1`, in level distance
/// ([`Viewpoint::level_distance`]; by [`HYSTERESIS`]: nearer than `1 − HYSTERESIS` of it to
/// split, no farther than `1 + HYSTERESIS` of it to stay split).
pub(crate) fn wanted_leaves(
    viewpoints: &[Viewpoint],
    layout: &LodLayout,
    shown: &Shown,
    limit: usize,
) -> Vec<Wanted> {
    let viewpoints: Vec<Viewpoint> = viewpoints
        .iter()
        .filter(|v| v.xz.is_finite() && v.height.is_finite())
        .copied()
        .collect();
    let viewers: Vec<DVec2> = viewpoints.iter().map(|v| v.xz).collect();
    let viewers = &viewers[..];
    let top = layout.top();
    let size = layout.size(top);
    let mut roots: HashSet<ChunkKey> = HashSet::default();
    for v in viewers {
        // Beyond the addressable plane there is nothing to want.
        let Some((low, high)) = cells_around(*v, layout.view_distance() + 0.5 * size, size) else {
            continue;
        };
        for z in low.y..=high.y {
            for x in low.x..=high.x {
                roots.insert(ChunkKey::new(top, IVec2::new(x, z)));
            }
        }
    }
    let mut open: Vec<Wanted> = roots
        .into_iter()
        .filter_map(|key| {
            let distance = key.distance(layout, viewers);
            let on_screen = shown.chunks.contains(&key) || shown.split.contains(&key);
            let margin = if on_screen { 0.5 } else { 0.25 };
            (distance <= layout.view_distance() + margin * size).then_some(Wanted { key, distance })
        })
        .collect();
    // Nearest first, so that the limit coarsens the farthest.
    open.sort_by(|a, b| b.distance.total_cmp(&a.distance));
    let mut leaves = Vec::with_capacity(open.len() * 4);
    while let Some(node) = open.pop() {
        let key = node.key;
        let split = key.lod > 0 && {
            let reach = layout.reach(key.lod - 1);
            let factor = if shown.split.contains(&key) {
                1.0 + HYSTERESIS
            } else {
                1.0 - HYSTERESIS
            };
            key.centre_distance(layout, &viewpoints) < reach * factor
        };
        let children = key
            .children()
            .filter(|_| split && leaves.len() + open.len() + 4 <= limit);
        match children {
            Some(children) => {
                for child in children {
                    let distance = child.distance(layout, viewers);
                    open.push(Wanted {
                        key: child,
                        distance,
                    });
                }
            }
            None => leaves.push(node),
        }
    }
    leaves
}

/// One step from the chunks on screen towards the wanted tree: `old` (on screen) are replaced by
/// `new` (to build), which cover exactly their ground (or, for a chunk that goes out of range,
/// `new` is empty; for one that comes into range, `old` is).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Transition {
    pub old: Vec<ChunkKey>,
    pub new: Vec<ChunkKey>,
    /// Metres from the nearest viewer to the step's ground.
    pub distance: f64,
}

/// The steps from the chunks on screen (`shown`, each with whether it is of the current
/// generation) to `wanted`:
/// - a chunk on screen and wanted stays, or is rebuilt in place if it is outdated;
/// - a chunk on screen with wanted chunks inside it is replaced by its four children;
/// - wanted chunks with chunks on screen inside them replace those chunks;
/// - a wanted chunk with nothing on screen where it goes is shown when built;
/// - a chunk on screen with nothing wanted over or inside it goes at once.
pub(crate) fn transitions(
    wanted: &[Wanted],
    shown: &HashMap<ChunkKey, bool>,
    layout: &LodLayout,
    viewers: &[DVec2],
) -> Vec<Transition> {
    let top = layout.top();
    let wanted_at: HashMap<ChunkKey, f64> = wanted.iter().map(|w| (w.key, w.distance)).collect();
    // Every ancestor (up to `MAX_LOD`, so that chunks of a former, coarser top level are found)
    // of a wanted chunk.
    let above_wanted = Shown::split_of(&wanted_at.keys().copied().collect(), MAX_LOD);
    let mut merges: HashMap<ChunkKey, Vec<ChunkKey>> = HashMap::default();
    let mut steps = Vec::new();
    for (&key, &current) in shown {
        if let Some(&distance) = wanted_at.get(&key) {
            if !current {
                steps.push(Transition {
                    old: vec![key],
                    new: vec![key],
                    distance,
                });
            }
            continue;
        }
        if let Some(ancestor) = key.ancestors(top).find(|a| wanted_at.contains_key(a)) {
            merges.entry(ancestor).or_default().push(key);
            continue;
        }
        let distance = key.distance(layout, viewers);
        if above_wanted.contains(&key)
            && let Some(children) = key.children()
        {
            steps.push(Transition {
                old: vec![key],
                new: children.to_vec(),
                distance,
            });
            continue;
        }
        steps.push(Transition {
            old: vec![key],
            new: Vec::new(),
            distance,
        });
    }
    for w in wanted {
        if shown.contains_key(&w.key) || w.key.ancestors(MAX_LOD).any(|a| shown.contains_key(&a)) {
            continue;
        }
        let mut old = merges.remove(&w.key).unwrap_or_default();
        old.sort();
        steps.push(Transition {
            old,
            new: vec![w.key],
            distance: w.distance,
        });
    }
    steps
}

#[cfg(test)]
mod tests;
