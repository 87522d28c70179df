//! One navigation tile from the full-detail ground: which cells of a 2 m grid an agent may
//! stand on, merged into rectangles, with the ground's own heights under them. Pure functions:
//! the systems only schedule them.

use super::space::TerrainSpace;
use crate::config::{Navigation, TerrainConfig};
use crate::ground::TerrainSampler;
use bevy::math::{DVec2, IVec2, Vec3};
use landmass::{HeightNavigationMesh, HeightPolygon, NavigationMesh, ValidNavigationMesh};
use std::sync::Arc;

/// Metres along a navigation tile's side.
pub const TILE_SIZE: f32 = 256.0;
/// Metres between the ground samples a tile is built from.
pub const CELL_SIZE: f32 = 2.0;
/// Cells along a tile's side.
const CELLS: usize = (TILE_SIZE / CELL_SIZE) as usize;
/// The most cells along a rectangle's side (its height mesh takes every k-th sample past 15
/// cells, so that its at most 16 × 16 samples fit its `u8` indices).
const MAX_RECT: usize = 64;
/// Cells between the fixed vertices along a tile's border: between two, the border's heights
/// are the straight line joining theirs, so the edges of two neighbouring tiles lie on the
/// same line wherever their own corners cut them, and join.
const SEAM_STEP: usize = 8;
const _: () = assert!(
    CELLS.is_multiple_of(SEAM_STEP),
    "a tile's corners are fixed seam vertices"
);
/// The type index of open ground.
pub(super) const GROUND: usize = 0;
/// The type index of a road.
pub(super) const ROAD: usize = 1;

/// What makes a cell walkable: the config's [`Navigation`] and sea, in the form the cells test.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Walkable {
    /// The smallest `y` of a walkable ground normal: `cos(max_slope)`.
    min_normal_y: f32,
    /// The most the ground may rise between two neighbouring samples.
    max_rise: f32,
    /// The lowest walkable ground: `sea_level − wade_depth` (with water).
    lowest: Option<f32>,
    /// Cells between walkable ground and what is not: the agent's radius, rounded up.
    margin: usize,
}

impl Walkable {
    /// The walkable ground of `config`.
    pub fn of(config: &TerrainConfig) -> Self {
        let Navigation {
            max_slope,
            step_height,
            agent_radius,
            wade_depth,
            ..
        } = config.navigation;
        let slope = max_slope.to_radians();
        Self {
            min_normal_y: slope.cos(),
            max_rise: slope.tan() * CELL_SIZE + step_height,
            lowest: config.water.as_ref().map(|_| config.sea_level - wade_depth),
            margin: (agent_radius / CELL_SIZE).ceil() as usize,
        }
    }

    /// Metres beyond a tile's square its cells look at: the margin and the cell it starts from.
    pub fn margin_metres(&self) -> f64 {
        (self.margin + 1) as f64 * f64::from(CELL_SIZE)
    }
}

/// A navigation tile built: its mesh, if any of it is walkable, and what it holds.
#[derive(Clone)]
pub struct NavigationTile {
    pub(super) mesh: Option<Arc<ValidNavigationMesh<TerrainSpace>>>,
    walkable_cells: usize,
    polygons: usize,
    bytes: usize,
}

impl NavigationTile {
    /// A tile with nowhere to walk.
    pub(super) fn empty() -> Self {
        Self {
            mesh: None,
            walkable_cells: 0,
            polygons: 0,
            bytes: 0,
        }
    }

    /// The 2 m cells an agent may stand on, of the tile's 128 × 128.
    pub fn walkable_cells(&self) -> usize {
        self.walkable_cells
    }

    /// The polygons the walkable cells merged into.
    pub fn polygons(&self) -> usize {
        self.polygons
    }

    /// Bytes of the mesh handed to the path finder: vertices, polygons and the height mesh
    /// (the path finder's own indices of it come on top).
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

/// The square a tile covers: `[coord · TILE_SIZE, (coord + 1) · TILE_SIZE]` along `x` and `z`.
pub fn tile_origin(coord: IVec2) -> DVec2 {
    coord.as_dvec2() * f64::from(TILE_SIZE)
}

/// Builds tile `coord` of the ground `sampler` answers, walkable by `config.navigation`, on the
/// calling thread. `None` if the ground cannot be sampled there.
pub fn build_navigation_tile(
    sampler: &TerrainSampler,
    config: &TerrainConfig,
    coord: IVec2,
) -> Option<NavigationTile> {
    build_tile(sampler, &Walkable::of(config), coord)
}

/// [`build_navigation_tile`] for the walkable ground `walk`.
pub(crate) fn build_tile(
    sampler: &TerrainSampler,
    walk: &Walkable,
    coord: IVec2,
) -> Option<NavigationTile> {
    let ground = walkable_cells(sampler, walk, coord)?;
    let walkable_cells = ground.cells.iter().filter(|&&c| c != Cell::Blocked).count();
    let rects = rectangles(&ground.cells);
    let (mesh, polygons, bytes) = match mesh(coord, &ground, &rects) {
        Some((mesh, bytes)) => (Some(Arc::new(mesh)), rects.len(), bytes),
        None => (None, 0, 0),
    };
    Some(NavigationTile {
        mesh,
        walkable_cells,
        polygons,
        bytes,
    })
}

/// What a cell of a tile is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cell {
    Blocked,
    Ground,
    Road,
}

/// A tile's cells and the ground they were judged on.
struct TileGround {
    /// `CELLS²` cells, row-major, `x` first.
    cells: Vec<Cell>,
    /// The heights of the `n²` samples from `margin` cells before the tile's corner.
    heights: Vec<f32>,
    n: usize,
    margin: usize,
}

impl TileGround {
    /// The height of the tile's cell corner `(i, j)`.
    fn height(&self, i: usize, j: usize) -> f32 {
        self.heights[(j + self.margin) * self.n + i + self.margin]
    }
}

/// The tile's cells: blocked where the cell or any within the agent's margin of it is too
/// steep, too sheer or too deep; a road where its centre is on one.
fn walkable_cells(sampler: &TerrainSampler, walk: &Walkable, coord: IVec2) -> Option<TileGround> {
    let m = walk.margin;
    let span = CELLS + 2 * m;
    let n = span + 1;
    let cell = f64::from(CELL_SIZE);
    let origin = tile_origin(coord) - DVec2::splat(m as f64 * cell);
    let mut heights = vec![0.0; n * n];
    let mut normals = vec![Vec3::Y; n * n];
    if !sampler.sample_grid(origin.into(), cell, [n, n], &mut heights, &mut normals) {
        return None;
    }
    // Each sample on its own: steep, or under deep water.
    let sample_ok: Vec<bool> = (heights.iter().zip(&normals))
        .map(|(&h, n)| n.y >= walk.min_normal_y && walk.lowest.is_none_or(|low| h >= low))
        .collect();
    // A cell: its four corners fine, and no edge or diagonal rising more than a step past the
    // slope (a cliff between samples).
    let mut open = vec![false; span * span];
    for j in 0..span {
        for i in 0..span {
            let k = [
                j * n + i,
                j * n + i + 1,
                (j + 1) * n + i,
                (j + 1) * n + i + 1,
            ];
            let h = k.map(|k| heights[k]);
            let rises = [(0, 1), (2, 3), (0, 2), (1, 3)]
                .iter()
                .all(|&(a, b)| (h[a] - h[b]).abs() <= walk.max_rise)
                && [(0, 3), (1, 2)]
                    .iter()
                    .all(|&(a, b)| (h[a] - h[b]).abs() <= walk.max_rise * std::f32::consts::SQRT_2);
            open[j * span + i] = rises && k.iter().all(|&k| sample_ok[k]);
        }
    }
    // The agent's margin: a cell is walkable if every cell within `m` of it is open (a min
    // filter along rows, then columns).
    let mut rows = vec![false; span * CELLS];
    for j in 0..span {
        for i in 0..CELLS {
            rows[j * CELLS + i] = open[j * span + i..=j * span + i + 2 * m].iter().all(|&o| o);
        }
    }
    let mut roads = Vec::new();
    let centre = tile_origin(coord) + DVec2::splat(0.5 * cell);
    sampler
        .edits()
        .roads_on_grid(centre, cell, [CELLS, CELLS], &mut roads);
    let cells = (0..CELLS * CELLS)
        .map(|k| {
            let (i, j) = (k % CELLS, k / CELLS);
            let walkable = (j..=j + 2 * m).all(|r| rows[r * CELLS + i]);
            match (walkable, roads[k]) {
                (false, _) => Cell::Blocked,
                (true, false) => Cell::Ground,
                (true, true) => Cell::Road,
            }
        })
        .collect();
    Some(TileGround {
        cells,
        heights,
        n,
        margin: m,
    })
}

/// A rectangle of cells of one kind: `[i0, i1) × [j0, j1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Rect {
    i0: usize,
    j0: usize,
    i1: usize,
    j1: usize,
    road: bool,
}

/// The walkable cells as rectangles of one kind, at most `MAX_RECT` a side, greedily: from the
/// first free cell in row order, as wide as the row allows, then as deep as every row below
/// allows.
fn rectangles(cells: &[Cell]) -> Vec<Rect> {
    let mut taken = vec![false; cells.len()];
    let mut rects = Vec::new();
    for j0 in 0..CELLS {
        for i0 in 0..CELLS {
            let kind = cells[j0 * CELLS + i0];
            if kind == Cell::Blocked || taken[j0 * CELLS + i0] {
                continue;
            }
            let free = |i: usize, j: usize| cells[j * CELLS + i] == kind && !taken[j * CELLS + i];
            let mut i1 = i0 + 1;
            while i1 < CELLS && i1 - i0 < MAX_RECT && free(i1, j0) {
                i1 += 1;
            }
            let mut j1 = j0 + 1;
            while j1 < CELLS && j1 - j0 < MAX_RECT && (i0..i1).all(|i| free(i, j1)) {
                j1 += 1;
            }
            for j in j0..j1 {
                taken[j * CELLS + i0..j * CELLS + i1].fill(true);
            }
            rects.push(Rect {
                i0,
                j0,
                i1,
                j1,
                road: kind == Cell::Road,
            });
        }
    }
    rects
}

/// The navigation mesh of `rects` on `ground`: each rectangle a polygon through its corners and
/// the neighbours' corners on its sides (so neighbours share whole edges), counter-clockwise seen
/// from above, with a height mesh of two triangles a square of its samples; and its bytes.
/// `None` without rectangles.
fn mesh(
    coord: IVec2,
    ground: &TileGround,
    rects: &[Rect],
) -> Option<(ValidNavigationMesh<TerrainSpace>, usize)> {
    if rects.is_empty() {
        return None;
    }
    let n = CELLS + 1;
    let origin = tile_origin(coord);
    let cell = f64::from(CELL_SIZE);
    let at = |i: usize, j: usize| {
        let p = origin + DVec2::new(i as f64, j as f64) * cell;
        Vec3::new(p.x as f32, ground.height(i, j), p.y as f32)
    };
    // A polygon's corner: on the border, on the line between the fixed vertices either side.
    let corner = |i: usize, j: usize| {
        let along = match (i, j) {
            (0 | CELLS, _) => Some((j, [i, j - j % SEAM_STEP], true)),
            (_, 0 | CELLS) => Some((i, [i - i % SEAM_STEP, j], false)),
            _ => None,
        };
        match along {
            Some((k, [i0, j0], vertical)) if k % SEAM_STEP != 0 => {
                let (i1, j1) = if vertical {
                    (i0, j0 + SEAM_STEP)
                } else {
                    (i0 + SEAM_STEP, j0)
                };
                let t = (k % SEAM_STEP) as f32 / SEAM_STEP as f32;
                let mut p = at(i, j);
                p.y = at(i0, j0).y + t * (at(i1, j1).y - at(i0, j0).y);
                p
            }
            _ => at(i, j),
        }
    };
    let mut index = vec![u32::MAX; n * n];
    let mut vertices = Vec::new();
    let mut vertex = |i: usize, j: usize| {
        let k = j * n + i;
        if index[k] == u32::MAX {
            index[k] = vertices.len() as u32;
            vertices.push(corner(i, j));
        }
        index[k] as usize
    };
    let mut polygons = Vec::with_capacity(rects.len());
    let mut types = Vec::with_capacity(rects.len());
    let mut height = HeightNavigationMesh {
        polygons: Vec::with_capacity(rects.len()),
        vertices: Vec::new(),
        triangles: Vec::new(),
    };
    // The corners a side must pass through: every rectangle's, so that two neighbours share
    // the same edges where they meet; and the fixed vertices along the tile's border, where the
    // neighbouring tile's island joins this one (islands join where their edges coincide,
    // heights included).
    let mut corners = vec![false; n * n];
    for r in rects {
        for (i, j) in [(r.i0, r.j0), (r.i1, r.j0), (r.i0, r.j1), (r.i1, r.j1)] {
            corners[j * n + i] = true;
        }
    }
    for k in (0..n).step_by(SEAM_STEP) {
        for (i, j) in [(k, 0), (k, CELLS), (0, k), (CELLS, k)] {
            corners[j * n + i] = true;
        }
    }
    for r in rects {
        // Counter-clockwise with `z` pointing at the viewer's feet: along +x at the far `z`,
        // then towards −z, back along −x, and towards +z.
        let mut polygon = Vec::new();
        let mut side = |points: &mut dyn Iterator<Item = (usize, usize)>| {
            for (i, j) in points {
                if corners[j * n + i] {
                    polygon.push(vertex(i, j));
                }
            }
        };
        side(&mut (r.i0..r.i1).map(|i| (i, r.j1)));
        side(&mut (r.j0 + 1..=r.j1).rev().map(|j| (r.i1, j)));
        side(&mut (r.i0 + 1..=r.i1).rev().map(|i| (i, r.j0)));
        side(&mut (r.j0..r.j1).map(|j| (r.i0, j)));
        polygons.push(polygon);
        types.push(if r.road { ROAD } else { GROUND });

        // The samples of its height mesh: every one, or every k-th past 15 cells (and the last).
        let samples = |from: usize, to: usize| -> Vec<usize> {
            let stride = (to - from).div_ceil(15);
            (from..to).step_by(stride).chain([to]).collect()
        };
        let (xs, zs) = (samples(r.i0, r.i1), samples(r.j0, r.j1));
        let (w, d) = (xs.len(), zs.len());
        height.polygons.push(HeightPolygon {
            base_vertex_index: height.vertices.len() as u32,
            vertex_count: (w * d) as u32,
            base_triangle_index: height.triangles.len() as u32,
            triangle_count: (2 * (w - 1) * (d - 1)) as u32,
        });
        for &j in &zs {
            height.vertices.extend(xs.iter().map(|&i| at(i, j)));
        }
        for b in 0..d - 1 {
            for a in 0..w - 1 {
                let at = |a: usize, b: usize| (b * w + a) as u8;
                let (p00, p10, p01, p11) = (at(a, b), at(a + 1, b), at(a, b + 1), at(a + 1, b + 1));
                height.triangles.push([p00, p01, p11]);
                height.triangles.push([p00, p11, p10]);
            }
        }
    }
    let bytes = size_of::<Vec3>() * (vertices.len() + height.vertices.len())
        + size_of::<usize>() * polygons.iter().map(Vec::len).sum::<usize>()
        + (size_of::<Vec<usize>>() + size_of::<usize>() + size_of::<HeightPolygon>())
            * polygons.len()
        + 3 * height.triangles.len();
    let mesh = NavigationMesh::<TerrainSpace> {
        vertices,
        polygons,
        polygon_type_indices: types,
        height_mesh: Some(height),
    };
    match mesh.validate() {
        Ok(valid) => Some((valid, bytes)),
        Err(error) => {
            bevy::log::error!("navigation tile {coord}: an invalid mesh ({error}); left out");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells_from(rows: &[&str]) -> Vec<Cell> {
        let mut cells = vec![Cell::Blocked; CELLS * CELLS];
        for (j, row) in rows.iter().enumerate() {
            for (i, c) in row.chars().enumerate() {
                cells[j * CELLS + i] = match c {
                    'g' => Cell::Ground,
                    'r' => Cell::Road,
                    _ => Cell::Blocked,
                };
            }
        }
        cells
    }

    #[test]
    fn rectangles_cover_every_walkable_cell_once_with_one_kind_each() {
        let cells = cells_from(&["gggrrg.g", "gggrrg..", "gg.rr...", ".ggggggg"]);
        let rects = rectangles(&cells);
        let mut seen = vec![0; cells.len()];
        for r in &rects {
            assert!(r.i1 - r.i0 <= MAX_RECT && r.j1 - r.j0 <= MAX_RECT);
            for j in r.j0..r.j1 {
                for i in r.i0..r.i1 {
                    let want = if r.road { Cell::Road } else { Cell::Ground };
                    assert_eq!(cells[j * CELLS + i], want, "cell ({i}, {j}) of {r:?}");
                    seen[j * CELLS + i] += 1;
                }
            }
        }
        for (k, c) in cells.iter().enumerate() {
            assert_eq!(seen[k], usize::from(*c != Cell::Blocked), "cell {k}");
        }
        // The first row's ground block is 3 × 2, its road 2 × 3.
        assert_eq!(
            rects[0],
            Rect {
                i0: 0,
                j0: 0,
                i1: 3,
                j1: 2,
                road: false
            }
        );
        assert_eq!(
            rects[1],
            Rect {
                i0: 3,
                j0: 0,
                i1: 5,
                j1: 3,
                road: true
            }
        );
    }

    #[test]
    fn open_ground_is_at_most_sixty_four_cells_a_side_and_the_mesh_is_valid() {
        let cells = vec![Cell::Ground; CELLS * CELLS];
        let rects = rectangles(&cells);
        // 128 = 2 · 64: two rectangles a side.
        assert_eq!(rects.len(), 4);
        let n = CELLS + 1;
        let ground = TileGround {
            heights: (0..n * n).map(|k| (k % n) as f32 * 0.1).collect(),
            cells,
            n,
            margin: 0,
        };
        let (_, bytes) = mesh(IVec2::new(-3, 2), &ground, &rects).expect("a valid mesh");
        assert!(bytes > 0);
    }
}
