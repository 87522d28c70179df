//! [`GroundEdits`]: every stamp and path of the terrain in the order they apply, with a grid
//! index so that a chunk (or one height query) finds the few that touch it without looking at
//! the others (`apply.rs` applies them to a grid of samples).

use super::modifier::Modifier;
use crate::space::{Bounds, cell_count, cells_covering};
use bevy::math::{DVec2, IVec2};
use bevy::platform::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};

/// Side of the index's cells, in metres.
const CELL: f64 = 256.0;

/// An item covering more cells than this is kept in a list every query looks at.
const MOST_CELLS: i64 = 256;

/// Path segments per indexed piece.
const PIECE: usize = 16;

/// What the index holds: a whole stamp, or a run of a path's segments.
#[derive(Clone, Debug)]
struct Item {
    modifier: u32,
    segments: Range<u32>,
    bounds: Bounds,
}

/// The modifiers touching a region, in the order they apply; for a path, the segments (indices,
/// ascending) that can matter there.
#[derive(Clone, Debug, Default)]
pub(crate) struct Touching {
    pub(super) modifiers: Vec<(u32, Vec<u32>)>,
}

impl Touching {
    /// Whether no modifier touches the region.
    pub fn is_empty(&self) -> bool {
        self.modifiers.is_empty()
    }
}

/// Every stamp and path of the terrain, resolved into its space, in the order they apply (see
/// [`TerrainStamp`](crate::TerrainStamp)), and a grid index over them. Immutable: an edit makes a
/// new one (shared with tasks as an `Arc`).
#[derive(Debug, Default)]
pub struct GroundEdits {
    pub(super) modifiers: Vec<Modifier>,
    items: Vec<Item>,
    cells: HashMap<IVec2, Vec<u32>>,
    /// Items too large for the cells.
    large: Vec<u32>,
    /// Which set of edits this is: a new one gets a new number.
    version: u64,
}

static VERSIONS: AtomicU64 = AtomicU64::new(1);

impl GroundEdits {
    /// The index over `modifiers` (in the order they apply).
    pub(crate) fn new(modifiers: Vec<Modifier>) -> Self {
        let mut items = Vec::new();
        for (m, modifier) in modifiers.iter().enumerate() {
            let count = modifier.segment_count();
            if count == 0 {
                items.push(Item {
                    modifier: m as u32,
                    segments: 0..0,
                    bounds: modifier.bounds,
                });
                continue;
            }
            for start in (0..count).step_by(PIECE) {
                let end = (start + PIECE).min(count);
                let bounds = (start..end)
                    .filter_map(|s| modifier.segment(s).map(|seg| seg.bounds))
                    .reduce(Bounds::union)
                    .unwrap_or(modifier.bounds);
                items.push(Item {
                    modifier: m as u32,
                    segments: start as u32..end as u32,
                    bounds,
                });
            }
        }
        let mut cells: HashMap<IVec2, Vec<u32>> = HashMap::default();
        let mut large = Vec::new();
        for (k, item) in items.iter().enumerate() {
            match cells_covering(&item.bounds, CELL) {
                Some((low, high)) if cell_count((low, high)) <= MOST_CELLS => {
                    for z in low.y..=high.y {
                        for x in low.x..=high.x {
                            cells.entry(IVec2::new(x, z)).or_default().push(k as u32);
                        }
                    }
                }
                _ => large.push(k as u32),
            }
        }
        Self {
            modifiers,
            items,
            cells,
            large,
            version: VERSIONS.fetch_add(1, Ordering::Relaxed),
        }
    }

    /// No edits.
    pub(crate) fn empty() -> Self {
        Self::new(Vec::new())
    }

    /// How many stamps and paths there are.
    pub fn len(&self) -> usize {
        self.modifiers.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.modifiers.is_empty()
    }

    /// Which set of edits this is (every new set has a new number).
    pub(crate) fn version(&self) -> u64 {
        self.version
    }

    /// The modifiers (and path segments) that can change the ground in `region`.
    pub(crate) fn touching(&self, region: &Bounds) -> Touching {
        if self.items.is_empty() {
            return Touching::default();
        }
        let mut found: Vec<u32> = Vec::new();
        let few_cells = cells_covering(region, CELL)
            .filter(|&cells| cell_count(cells) <= self.items.len() as i64);
        match few_cells {
            Some((low, high)) => {
                for z in low.y..=high.y {
                    for x in low.x..=high.x {
                        if let Some(items) = self.cells.get(&IVec2::new(x, z)) {
                            found.extend_from_slice(items);
                        }
                    }
                }
                found.extend_from_slice(&self.large);
            }
            None => found.extend(0..self.items.len() as u32),
        }
        found.sort_unstable();
        found.dedup();
        let mut touching = Touching::default();
        for k in found {
            let item = &self.items[k as usize];
            if !item.bounds.intersects(region) {
                continue;
            }
            let modifier = &self.modifiers[item.modifier as usize];
            if !modifier.bounds.intersects(region) {
                continue;
            }
            let segments = item.segments.clone().filter(|&s| {
                modifier
                    .segment(s as usize)
                    .is_some_and(|seg| seg.bounds.intersects(region))
            });
            match touching.modifiers.last_mut() {
                Some((m, list)) if *m == item.modifier => list.extend(segments),
                _ => {
                    let list: Vec<u32> = segments.collect();
                    if item.segments.is_empty() || !list.is_empty() {
                        touching.modifiers.push((item.modifier, list));
                    }
                }
            }
        }
        // Items come in index order, which is modifier order: paths' lists are ascending.
        touching
    }

    /// Whether a stamp or path with `clear_scatter` covers `p`.
    pub(crate) fn clears(&self, p: DVec2) -> bool {
        let region = Bounds { min: p, max: p };
        self.touching(&region)
            .modifiers
            .iter()
            .any(|(m, segments)| self.modifiers[*m as usize].clears(p, segments))
    }

    /// Whether any edit is a road (a path with [`PathOp::Road`](crate::PathOp::Road)).
    #[cfg(feature = "navigation")]
    pub(crate) fn has_roads(&self) -> bool {
        self.modifiers.iter().any(Modifier::is_road)
    }

    /// Which of the `size[0] × size[1]` points (row-major, `x` first) `spacing` apart from
    /// `origin` lie on a road (a path with [`PathOp::Road`](crate::PathOp::Road), within half
    /// its width of the centre line): `out` gets one flag a point, `false` where no road is.
    #[cfg(feature = "navigation")]
    pub(crate) fn roads_on_grid(
        &self,
        origin: DVec2,
        spacing: f64,
        size: [usize; 2],
        out: &mut Vec<bool>,
    ) {
        out.clear();
        out.resize(size[0] * size[1], false);
        let far = origin + DVec2::new(size[0] as f64, size[1] as f64) * spacing;
        let region = Bounds {
            min: origin,
            max: far,
        };
        for (m, segments) in &self.touching(&region).modifiers {
            let Some((mut pass, half_width)) = self.modifiers[*m as usize].road_pass(segments)
            else {
                continue;
            };
            for (k, flag) in out.iter_mut().enumerate() {
                let (i, j) = (k % size[0], k / size[0]);
                let p = origin + DVec2::new(i as f64, j as f64) * spacing;
                *flag = *flag || pass.distance(p).is_some_and(|r| r <= half_width);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::resolve::stamp_at;
    use super::*;

    #[test]
    fn a_region_finds_exactly_the_stamps_that_reach_it_among_ten_thousand() {
        // 100 × 100 stamps 50 m apart (each reaches 32 m: 16 m radius, 16 m falloff).
        let modifiers: Vec<Modifier> = (0..10_000)
            .map(|k| stamp_at((k % 100) as f64 * 50.0, (k / 100) as f64 * 50.0))
            .collect();
        let edits = GroundEdits::new(modifiers.clone());
        for (min, max) in [
            (DVec2::new(-1000.0, -1000.0), DVec2::new(-40.0, -40.0)),
            (DVec2::new(90.0, 90.0), DVec2::new(160.0, 120.0)),
            (DVec2::new(1234.5, 600.0), DVec2::new(1234.5, 600.0)),
            (DVec2::new(-1e7, -1e7), DVec2::new(1e7, 1e7)),
        ] {
            let region = Bounds { min, max };
            let found: Vec<u32> = edits
                .touching(&region)
                .modifiers
                .iter()
                .map(|(m, _)| *m)
                .collect();
            let expected: Vec<u32> = (0..modifiers.len() as u32)
                .filter(|&m| modifiers[m as usize].bounds.intersects(&region))
                .collect();
            assert_eq!(found, expected, "{min} to {max}");
        }
        assert!(
            edits
                .touching(&Bounds {
                    min: DVec2::splat(-500.0),
                    max: DVec2::splat(-33.0)
                })
                .is_empty()
        );
    }
}
