//! A chunk's index topology: two triangles per quad of its grid and the skirts hanging from its
//! edges, the same for every chunk of one resolution (each thread keeps its last list).

use perlin_core::with_thread_scratch;
use std::cell::RefCell;
use std::thread::LocalKey;

/// The grid vertices of a chunk's four edges, `n` per side: `z = 0`, `z = n − 1`, `x = 0`,
/// `x = n − 1`. The skirt vertices follow the grid in this order.
pub(super) fn skirt_edges(n: usize) -> [impl Iterator<Item = usize> + Clone; 4] {
    let last = n - 1;
    [(0, 1), (last * n, 1), (0, n), (last, n)]
        .map(|(first, stride)| (0..n).map(move |k| first + k * stride))
}

/// A vertex index type of a chunk's triangle list (`u16` or `u32`).
pub(super) trait VertexIndex: Copy + 'static {
    /// Vertex `v`; callers only pass indices below the mesh's vertex count, which fits.
    fn at(v: usize) -> Self;

    /// This thread's last triangle list of this index type: its resolution and its indices.
    fn last_triangles() -> &'static LocalKey<RefCell<(usize, Vec<Self>)>>;
}

thread_local! {
    static LAST_U16: RefCell<(usize, Vec<u16>)> = const { RefCell::new((0, Vec::new())) };
    static LAST_U32: RefCell<(usize, Vec<u32>)> = const { RefCell::new((0, Vec::new())) };
}

impl VertexIndex for u16 {
    #[inline]
    fn at(v: usize) -> Self {
        v as u16
    }

    fn last_triangles() -> &'static LocalKey<RefCell<(usize, Vec<Self>)>> {
        &LAST_U16
    }
}

impl VertexIndex for u32 {
    #[inline]
    fn at(v: usize) -> Self {
        v as u32
    }

    fn last_triangles() -> &'static LocalKey<RefCell<(usize, Vec<Self>)>> {
        &LAST_U32
    }
}

/// [`triangles`]`(n)`, copied from the last list this thread built: a chunk's triangle list
/// depends on its resolution only, and a copy costs a fraction of building it.
pub(super) fn shared_triangles<T: VertexIndex>(n: usize) -> Vec<T> {
    with_thread_scratch(T::last_triangles(), |(resolution, list)| {
        if *resolution != n || list.is_empty() {
            *list = triangles(n);
            *resolution = n;
        }
        list.clone()
    })
}

/// Writes `vertices` into `out`, one index at a time (building a small array of indices and
/// copying it stalls on store forwarding).
#[inline]
fn write_indices<T: VertexIndex, const N: usize>(out: &mut [T], vertices: [usize; N]) {
    for (index, v) in out.iter_mut().zip(vertices) {
        *index = T::at(v);
    }
}

/// Two triangles per quad of the `n × n` grid vertices (row-major, `x` first) into `grid`
/// (`6 (n − 1)²` indices), counter-clockwise seen from above (+Y).
fn fill_grid<T: VertexIndex>(grid: &mut [T], n: usize) {
    let quads = n - 1;
    for (j, row) in grid.chunks_exact_mut(6 * quads).enumerate() {
        for (v00, quad) in (j * n..).zip(row.chunks_exact_mut(6)) {
            let (v10, v01, v11) = (v00 + 1, v00 + n, v00 + n + 1);
            write_indices(quad, [v00, v01, v10, v10, v01, v11]);
        }
    }
}

/// The triangle list of a plain `n × n` grid of vertices (row-major, `x` first), as a chunk's
/// without its skirts: the sea's grids.
#[cfg(feature = "render")]
pub(crate) fn grid_triangles(n: usize) -> Vec<u32> {
    let quads = n.max(2) - 1;
    let mut indices = vec![0; 6 * quads * quads];
    fill_grid(&mut indices, quads + 1);
    indices
}

/// The triangle list of a chunk of `n × n` grid vertices followed by its `4n` skirt vertices:
/// two triangles per quad, counter-clockwise seen from above (+Y), then each skirt strip in
/// both windings so it shows from any side.
pub(super) fn triangles<T: VertexIndex>(n: usize) -> Vec<T> {
    let quads = n - 1;
    let mut indices = vec![T::at(0); 6 * quads * quads + 4 * 12 * quads];
    let (grid, skirts) = indices.split_at_mut(6 * quads * quads);
    fill_grid(grid, n);
    let mut strips = skirts.chunks_exact_mut(12);
    let mut low = n * n;
    for edge in skirt_edges(n) {
        for ((top0, top1), strip) in edge.clone().zip(edge.skip(1)).zip(&mut strips) {
            let (low0, low1) = (low, low + 1);
            // The quad in one winding, then in the other.
            let both = [
                top0, low0, top1, top1, low0, low1, top0, top1, low0, top1, low1, low0,
            ];
            write_indices(strip, both);
            low += 1;
        }
        low += 1;
    }
    indices
}
