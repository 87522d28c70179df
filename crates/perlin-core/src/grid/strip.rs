//! Strips: a fill works through its rows a strip at a time, every layer of a strip before the
//! next, with the strip's sums and finished samples in buffers small enough to stay in cache.
//! Here are how many rows a strip holds, the buffers (kept per thread, so that repeated fills
//! reuse the memory) and the copy of a finished strip into the caller's buffers.

use super::erosion::ErosionScratch;
use super::layer::Layer;
use std::cell::RefCell;
use std::ops::Range;

/// Samples per strip: tall enough that a coarse octave's band constants serve many rows, few
/// enough that a strip's sums stay in the L2 cache.
pub(super) const STRIP_SAMPLES: usize = 16384;
/// Samples per strip of a plain fill (values only, no warp, contrast or erosion), whose strip
/// holds one buffer of sums instead of up to a dozen.
pub(super) const PLAIN_STRIP_SAMPLES: usize = 65536;
/// Rows per strip, at least and at most.
const STRIP_ROWS: Range<usize> = 4..257;

/// Rows per strip of a grid `height` rows tall whose rows hold `padded` samples. Strips are
/// balanced (the last one at most a row shorter): the strip buffers then keep their size from
/// one strip, and one fill, to the next instead of being zeroed as they grow.
pub(super) fn strip_rows(padded: usize, height: usize, samples: usize) -> usize {
    let most = (samples / padded.max(1)).clamp(STRIP_ROWS.start, STRIP_ROWS.end - 1);
    let strips = height.div_ceil(most).max(1);
    height.div_ceil(strips).max(1)
}

/// Whether rows `width` samples apart lie within 32 bytes of a multiple of 4 KiB apart. A
/// walk down a block's column then stores into the same few cache sets row after row (and,
/// where rows are a few bytes more or less than 4 KiB apart, into lines each row's stores
/// split). One-octave fills of 1000 × 777 took about a third less time as one strip than
/// in strips of 16 rows; with rows 1024, 1025 or 1028 samples apart, 5–120 % more
/// (2026-11-28, AMD EPYC with AVX-512; `docs/benchmarks.md`). [`padded_width`] keeps the
/// strip buffers' rows off the same hazard with its own rule, measured on the sums' walks.
pub(super) fn crowds_cache_sets(width: usize) -> bool {
    const PAGE: usize = 1024; // samples of 4 bytes
    let off = width % PAGE;
    off.min(PAGE - off) < 8
}

/// Samples per strip row: `width` rounded up to whole registers, plus one register where rows
/// would be a multiple of 1 KiB apart (a block's column of a tall strip would then crowd a few
/// cache sets and evict its own sums).
pub(super) fn padded_width(width: usize, lanes: usize) -> usize {
    let padded = width.div_ceil(lanes) * lanes;
    if padded.is_multiple_of(256) {
        padded + lanes
    } else {
        padded
    }
}

/// Samples in a 64-byte cache line. Each strip buffer starts on a line, and its rows are whole
/// registers long, so no register a walk loads or stores straddles two lines. Where the
/// allocator left the start (a multiple of 16 bytes, often not of 64), every 64-byte register
/// could; fills of six octaves took 5–9 % longer (2026-11-28, `docs/benchmarks.md`).
const ALIGN_SAMPLES: usize = 16;

/// A strip's buffers, padded width × strip rows each.
#[derive(Default)]
pub(super) struct StripBuffers {
    /// `[value, ∂/∂x, ∂/∂y]` sums of the octaves.
    sums: [Vec<f32>; 3],
    /// The same for the two warp noises.
    warp: [[Vec<f32>; 3]; 2],
    displacement: [Vec<f32>; 2],
    jacobian: [Vec<f32>; 4],
    /// `[value, ∂/∂x, ∂/∂y]` finished.
    out: [Vec<f32>; 3],
    creases: Vec<f32>,
}

/// Everything a grid fill allocates, kept per thread so repeated fills (one chunk after
/// another) reuse the memory.
#[derive(Default)]
pub(super) struct Scratch {
    pub xs: Vec<f64>,
    pub ys: Vec<f64>,
    pub octaves: Vec<Layer>,
    pub warp: [Layer; 2],
    pub erosion: ErosionScratch,
    pub strip: StripBuffers,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
    /// For a fill inside a fill (the erosion filter's coarse terrain).
    static NESTED: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs `f` with this thread's reusable `T`, or a fresh one if `f` is already running on this
/// thread (a fill inside a fill). The one pattern behind every per-thread scratch buffer of the
/// workspace.
pub fn with_thread_scratch<T: Default + 'static, R>(
    key: &'static std::thread::LocalKey<RefCell<T>>,
    f: impl FnOnce(&mut T) -> R,
) -> R {
    key.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut T::default()),
    })
}

/// Runs `f` with this thread's fill scratch, or, for a fill inside a fill (the erosion filter's
/// coarse terrain), with the nested one.
pub(super) fn with_fill_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|primary| match primary.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => with_thread_scratch(&NESTED, f),
    })
}

impl StripBuffers {
    /// The buffers of a strip of `len` samples, each exactly as long as it is used (empty when
    /// not): the sums that are not `fresh` (the octaves', the warp noises') zeroed, the rest
    /// left to be overwritten. The vectors only grow, so fills of varying sizes (a chunk, its
    /// parent, a biome's part of it) do not zero what they are about to overwrite.
    pub fn strip(&mut self, len: usize, slopes: bool, warped: bool, fresh: [bool; 2]) -> Strip<'_> {
        fn sized(v: &mut Vec<f32>, on: bool, len: usize) -> &mut [f32] {
            let len = if on { len } else { 0 };
            if len == 0 {
                return &mut [];
            }
            // Room to move the start up to the next cache line.
            if v.len() < len + ALIGN_SAMPLES {
                v.resize(len + ALIGN_SAMPLES, 0.0);
            }
            let start = v.as_ptr().align_offset(64).min(ALIGN_SAMPLES);
            &mut v[start..start + len]
        }
        fn sums(v: &mut Vec<f32>, on: bool, len: usize, fresh: bool) -> &mut [f32] {
            let sums = sized(v, on, len);
            if !fresh {
                sums.fill(0.0);
            }
            sums
        }
        if len == 0 {
            // A fill that keeps nothing in a strip (one plain octave): every buffer empty.
            return Strip::empty();
        }
        let [value, dx, dy] = self.sums.each_mut();
        let warp = self.warp.each_mut().map(|[v, x, y]| {
            [
                sums(v, warped, len, fresh[1]),
                sums(x, warped && slopes, len, fresh[1]),
                sums(y, warped && slopes, len, fresh[1]),
            ]
        });
        let [out_value, out_dx, out_dy] = self.out.each_mut();
        Strip {
            sums: [
                sums(value, true, len, fresh[0]),
                sums(dx, slopes, len, fresh[0]),
                sums(dy, slopes, len, fresh[0]),
            ],
            warp,
            displacement: self.displacement.each_mut().map(|v| sized(v, warped, len)),
            jacobian: self
                .jacobian
                .each_mut()
                .map(|v| sized(v, warped && slopes, len)),
            out: [
                sized(out_value, true, len),
                sized(out_dx, slopes, len),
                sized(out_dy, slopes, len),
            ],
            creases: sized(&mut self.creases, true, len),
        }
    }
}

/// One strip's buffers (see [`StripBuffers`]), each as long as the strip uses it.
pub(super) struct Strip<'a> {
    /// `[value, ∂/∂x, ∂/∂y]` sums of the octaves.
    pub sums: [&'a mut [f32]; 3],
    /// The same for the two warp noises.
    pub warp: [[&'a mut [f32]; 3]; 2],
    pub displacement: [&'a mut [f32]; 2],
    pub jacobian: [&'a mut [f32]; 4],
    /// `[value, ∂/∂x, ∂/∂y]` finished.
    pub out: [&'a mut [f32]; 3],
    pub creases: &'a mut [f32],
}

impl Strip<'_> {
    /// A strip of no samples.
    fn empty() -> Self {
        Strip {
            sums: [&mut [], &mut [], &mut []],
            warp: [[&mut [], &mut [], &mut []], [&mut [], &mut [], &mut []]],
            displacement: [&mut [], &mut []],
            jacobian: [&mut [], &mut [], &mut [], &mut []],
            out: [&mut [], &mut [], &mut []],
            creases: &mut [],
        }
    }
}

/// The buffers a fill writes.
pub(super) struct Out<'a> {
    pub values: &'a mut [f32],
    pub gradients: Option<&'a mut [[f32; 2]]>,
    pub creases: Option<&'a mut [f32]>,
}

/// What [`copy_out`] copies: the values unless `Finish` wrote them in place; the creases if
/// the strip was eroded (else they are ½).
pub(super) struct Copied {
    pub values: bool,
    pub eroded: bool,
}

/// Copies a finished strip (padded width) into the caller's buffers (real width).
pub(super) fn copy_out(
    finished: &[&mut [f32]; 3],
    creases: &[f32],
    copied: Copied,
    rows: Range<usize>,
    width: usize,
    padded: usize,
    out: &mut Out,
) {
    if !copied.values && out.gradients.is_none() && out.creases.is_none() {
        return;
    }
    for (k, r) in rows.enumerate() {
        let from = k * padded..k * padded + width;
        let to = r * width..(r + 1) * width;
        if copied.values {
            out.values[to.clone()].copy_from_slice(&finished[0][from.clone()]);
        }
        if let Some(g) = out.gradients.as_deref_mut() {
            for ((g, &dx), &dy) in g[to.clone()]
                .iter_mut()
                .zip(&finished[1][from.clone()])
                .zip(&finished[2][from.clone()])
            {
                *g = [dx, dy];
            }
        }
        if let Some(c) = out.creases.as_deref_mut() {
            if copied.eroded {
                c[to].copy_from_slice(&creases[from]);
            } else {
                c[to].fill(0.5);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::StripBuffers;

    /// Every buffer a strip uses starts on a cache line and is exactly as long as asked, however
    /// the strips before it sized the vectors; the unused ones are empty.
    #[test]
    fn strip_buffers_start_on_a_cache_line() {
        let mut buffers = StripBuffers::default();
        for (len, slopes, warped) in [
            (1, false, false),
            (80 * 65, true, true),
            (1008 * 65, true, true),
            (17, true, false),
            (80 * 4, false, true),
        ] {
            let strip = buffers.strip(len, slopes, warped, [false, true]);
            let all = strip
                .sums
                .iter()
                .chain(strip.warp.iter().flatten())
                .chain(&strip.displacement)
                .chain(&strip.jacobian)
                .chain(&strip.out)
                .chain([&strip.creases]);
            let mut used = 0;
            for buffer in all {
                assert!(
                    buffer.is_empty() || buffer.len() == len,
                    "{len}: {}",
                    buffer.len()
                );
                if !buffer.is_empty() {
                    used += 1;
                    assert_eq!(
                        buffer.as_ptr() as usize % 64,
                        0,
                        "a buffer of {len} samples"
                    );
                }
            }
            // The value's sums, its finished values and the creases; with slopes two more of
            // each; with a warp each noise's value and the displacement; with both, the warp's
            // slopes and the Jacobian.
            let (s, w) = (usize::from(slopes), usize::from(warped));
            let expected = 3 + 4 * s + 4 * w + 8 * s * w;
            assert_eq!(used, expected, "{len}, slopes {slopes}, warped {warped}");
        }
    }
}
