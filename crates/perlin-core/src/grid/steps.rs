//! One fill, step by step: the sample positions and every layer's per-axis work, once; then,
//! strip by strip, the warp field, the octaves, the finish (normalisation, contrast, noise size,
//! the chain rule through the warp), the erosion filter and the copy into the caller's buffers.
//! Each step's arithmetic is a kernel of its own file; this one only sequences them.

use super::erosion::{ErosionPass, ErosionScratch};
use super::finish::{Finish, Unpadded, WarpField};
use super::layer::{Layer, Positions, Prepare, Route, run_layer};
use super::point::Displacement;
use super::strip::{
    Copied, Out, PLAIN_STRIP_SAMPLES, STRIP_SAMPLES, Scratch, Strip, copy_out, crowds_cache_sets,
    padded_width, strip_rows,
};
use super::{GridSpec, Sums};
use crate::fbm::erosion::ErosionPlan;
use crate::fbm::{Detail, DomainWarp, Fbm, FractalMode, Octave, WARP_OFFSETS};
use crate::simd::Isa;
use crate::tables::NoiseTables;
use std::ops::Range;

impl Fbm {
    /// One fill, in this thread's `scratch`: the sample positions and every layer's per-axis
    /// work, once; then, strip by strip, the warp field, the octaves, the finish, the erosion
    /// filter and the copy into `out`.
    pub(super) fn fill_in(
        &self,
        scratch: &mut Scratch,
        isa: Isa,
        tables: &NoiseTables,
        spec: &GridSpec,
        detail: Detail,
        mut out: Out,
    ) {
        let lanes = isa.lanes();
        let [width, height] = spec.size;
        let padded = padded_width(width, lanes);
        let erosion = self.grid_erosion(tables, spec, detail);
        let Scratch {
            xs,
            ys,
            octaves,
            warp,
            erosion: erosion_scratch,
            strip: buffers,
        } = scratch;
        let fill = Fill {
            fbm: self,
            isa,
            tables,
            main_route: Route::of(self, self.warp.is_some()),
            warp_route: Route::of(self, false),
            width,
            padded,
            slopes: out.gradients.is_some() || erosion.is_some(),
        };
        isa.run(Positions {
            spec,
            size: [padded, height],
            xs,
            ys,
        });
        let count = fill.prepare(detail, xs, ys, octaves, warp);
        // Whether the fill is eroded: decided once, for every strip (only positions too far
        // out for the cell arithmetic leave a grid uneroded).
        let erosion =
            erosion.filter(|plan| erosion_scratch.prepare(plan, &xs[..width], &xs[..], ys, lanes));
        let strips = fill.strips(count, erosion.is_some(), height);
        for first in (0..height).step_by(strips.rows) {
            let rows = first..(first + strips.rows).min(height);
            let len = if strips.unstripped {
                0
            } else {
                rows.len() * padded
            };
            let mut strip = buffers.strip(len, fill.slopes, self.warp.is_some(), strips.fresh);
            if let Some(w) = self.warp {
                fill.warp_field(&strips, w, warp, &rows, &mut strip);
            }
            let caller_rows = rows.start * width..rows.end * width;
            let caller = &mut out.values[caller_rows.clone()];
            fill.octaves(&strips, octaves, &rows, &mut strip, caller);
            // Without erosion, the values need nothing after `Finish`: it writes them in place.
            let values = erosion.is_none().then(|| Unpadded {
                rows: &mut out.values[caller_rows],
                width,
                padded,
            });
            let direct = values.is_some();
            if !strips.finished_by_last {
                fill.finish(&strips, &mut strip, values);
            }
            if let Some(plan) = &erosion {
                fill.erode(plan, erosion_scratch, &rows, &mut strip);
            }
            copy_out(
                &strip.out,
                strip.creases,
                Copied {
                    values: !direct,
                    eroded: erosion.is_some(),
                },
                rows,
                width,
                padded,
                &mut out,
            );
        }
    }
}

/// What every layer and strip of one fill shares.
struct Fill<'a> {
    fbm: &'a Fbm,
    isa: Isa,
    tables: &'a NoiseTables,
    /// The octaves' route (the point path when the fill is warped), and the warp noises'.
    main_route: Route,
    warp_route: Route,
    /// Samples per row: the caller's, and the strip buffers' (whole registers).
    width: usize,
    padded: usize,
    /// Whether the fill sums gradients: for the caller, or for the erosion filter.
    slopes: bool,
}

/// How a fill goes through its rows, decided once for every strip.
struct Strips {
    /// Σ amplitudes: the divisor that normalises the sums.
    norm: f64,
    /// `noise_size / norm`, rounded once from `f64`.
    scale: f32,
    /// The octaves summed (those the fill's detail keeps).
    count: usize,
    /// One plain octave: nothing is kept in the strips' buffers.
    unstripped: bool,
    /// Whether the last octave writes the finished values itself (a plain fill).
    finished_by_last: bool,
    /// Rows per strip.
    rows: usize,
    /// Whether the octaves' and the warp noises' sums start fresh (see [`Sums::fresh`]).
    fresh: [bool; 2],
}

impl Fill<'_> {
    /// The per-axis work of every layer, once per fill: of the octaves `detail` keeps (their
    /// count is returned), and of the two warp noises if the fill is warped.
    fn prepare(
        &self,
        detail: Detail,
        xs: &[f64],
        ys: &[f64],
        octaves: &mut Vec<Layer>,
        warp: &mut [Layer; 2],
    ) -> usize {
        let (fbm, lanes) = (self.fbm, self.isa.lanes());
        let count = fbm.detailed_octaves(detail).count();
        octaves.resize_with(count, Layer::default);
        for (o, layer) in fbm.detailed_octaves(detail).zip(octaves.iter_mut()) {
            self.isa.run(Prepare {
                tables: self.tables,
                layer,
                route: &self.main_route,
                lanes,
                xs,
                ys,
                octave: &o,
                shift: [o.shift, o.shift],
                slopes: self.slopes,
            });
        }
        if let Some(w) = fbm.warp {
            let octave = Octave {
                frequency: w.frequency,
                amplitude: 1.0,
                shift: 0.0,
            };
            for (layer, offset) in warp.iter_mut().zip(WARP_OFFSETS) {
                self.isa.run(Prepare {
                    tables: self.tables,
                    layer,
                    route: &self.warp_route,
                    lanes,
                    xs,
                    ys,
                    octave: &octave,
                    shift: offset,
                    slopes: self.slopes,
                });
            }
        }
        count
    }

    /// How the fill goes through its `height` rows, with `count` octaves, eroded or not.
    fn strips(&self, count: usize, eroded: bool, height: usize) -> Strips {
        let fbm = self.fbm;
        let norm = fbm.amplitude_sum();
        let scale = (fbm.noise_size / norm) as f32;
        // The plain case (values only, on the band path, without contrast, warp or erosion):
        // the last octave finishes the values itself, saving a pass over the strip.
        let plain = !self.slopes
            && !eroded
            && fbm.warp.is_none()
            && fbm.contrast == 1.0
            && self.main_route.band.is_some()
            && count > 0;
        // A single octave keeps nothing in the strip's buffers. The grid is then one strip,
        // whose bands are whole lattice rows: each block's constants are worked out once per
        // lattice row. Only a large grid whose rows crowd a few cache sets (see
        // `crowds_cache_sets`) keeps short strips, so that a walk down a block's column
        // stores to few rows at a time.
        let unstripped = plain && count == 1;
        // Not after several octaves where the caller's rows are a multiple of 1 KiB apart: the
        // last one's walk down a block's column would crowd a few cache sets (see
        // `padded_width`), which costs more than the pass.
        let finished_by_last = plain && (unstripped || !self.width.is_multiple_of(256));
        let samples = if plain && !unstripped {
            PLAIN_STRIP_SAMPLES
        } else {
            STRIP_SAMPLES
        };
        let one_strip = unstripped
            && (self.padded * height <= PLAIN_STRIP_SAMPLES || !crowds_cache_sets(self.width));
        let rows = if one_strip {
            height
        } else {
            strip_rows(self.padded, height, samples)
        };
        // Band layers fill fresh sums (when there is a layer); point layers add to zeroed ones.
        let fresh = [
            self.main_route.band.is_some() && count > 0,
            self.warp_route.band.is_some(),
        ];
        Strips {
            norm,
            scale,
            count,
            unstripped,
            finished_by_last,
            rows,
            fresh,
        }
    }

    /// The warp field of the strip's `rows`: both warp noises (`layers`) into their sums, then
    /// the displacement and the Jacobian of the warped points.
    fn warp_field(
        &self,
        strips: &Strips,
        w: DomainWarp,
        layers: &mut [Layer; 2],
        rows: &Range<usize>,
        strip: &mut Strip<'_>,
    ) {
        for (k, layer) in layers.iter_mut().enumerate() {
            let [qv, qx, qy] = &mut strip.warp[k];
            let sums = Sums {
                value: qv,
                dx: qx,
                dy: qy,
                width: self.padded,
                rows: rows.clone(),
                fresh: strips.fresh[1],
            };
            run_layer(
                self.isa,
                self.tables,
                &self.warp_route,
                layer,
                FractalMode::Standard,
                sums,
                None,
                None,
            );
        }
        let [qx, qy] = &strip.warp;
        let [j00, j01, j10, j11] = &mut strip.jacobian;
        let [ddx, ddy] = &mut strip.displacement;
        self.isa.run(WarpField {
            amplitude: w.amplitude as f32,
            q: [[qx[0], qx[1], qx[2]], [qy[0], qy[1], qy[2]]],
            displacement: [ddx, ddy],
            jacobian: [j00, j01, j10, j11],
        });
    }

    /// Every octave (`layers`) over the strip's `rows`, into its sums, at the displaced points
    /// of a warped fill. In a plain fill the last octave writes the finished values to `values`
    /// (the caller's rows of the strip) instead.
    fn octaves(
        &self,
        strips: &Strips,
        layers: &mut [Layer],
        rows: &Range<usize>,
        strip: &mut Strip<'_>,
        values: &mut [f32],
    ) {
        let displacement = self
            .fbm
            .warp
            .map(|_| Displacement::new(strip.displacement[0], strip.displacement[1]));
        let [value, dx, dy] = &mut strip.sums;
        for (k, layer) in layers.iter_mut().enumerate() {
            let sums = Sums {
                value,
                dx,
                dy,
                width: self.padded,
                rows: rows.clone(),
                fresh: strips.fresh[0] && k == 0,
            };
            let finish = if strips.finished_by_last && k + 1 == strips.count {
                let to = Unpadded {
                    rows: &mut *values,
                    width: self.width,
                    padded: self.padded,
                };
                Some((strips.scale, to))
            } else {
                None
            };
            run_layer(
                self.isa,
                self.tables,
                &self.main_route,
                layer,
                self.fbm.mode,
                sums,
                displacement,
                finish,
            );
        }
    }

    /// The strip's finished samples from its sums: normalisation, contrast, noise size and the
    /// chain rule through the warp; the values go to `values` (the caller's rows) where set.
    fn finish(&self, strips: &Strips, strip: &mut Strip<'_>, values: Option<Unpadded<'_>>) {
        let fbm = self.fbm;
        let [value, dx, dy] = &strip.sums;
        let [ov, ox, oy] = &mut strip.out;
        let jacobian = &strip.jacobian;
        self.isa.run(Finish {
            inverse_norm: (1.0 / strips.norm) as f32,
            scale: strips.scale,
            contrast: fbm.contrast as f32,
            noise_size: fbm.noise_size as f32,
            sums: [&value[..], &dx[..], &dy[..]],
            jacobian: (fbm.warp.is_some() && self.slopes).then(|| {
                [
                    &jacobian[0][..],
                    &jacobian[1][..],
                    &jacobian[2][..],
                    &jacobian[3][..],
                ]
            }),
            out: [&mut ov[..], &mut ox[..], &mut oy[..]],
            values,
        });
    }

    /// The erosion filter over the strip's finished samples, in place, and its creases.
    fn erode(
        &self,
        plan: &ErosionPlan,
        scratch: &mut ErosionScratch,
        rows: &Range<usize>,
        strip: &mut Strip<'_>,
    ) {
        scratch.windows_for(self.isa, self.tables, plan, rows.clone());
        let [ov, ox, oy] = &mut strip.out;
        self.isa.run(ErosionPass {
            plan,
            scratch,
            width: self.padded,
            strip: rows.clone(),
            samples: [&mut ov[..], &mut ox[..], &mut oy[..]],
            creases: strip.creases,
        });
    }
}
