//! A path's segments: a straight piece of the centre line, the box it can matter in, and the
//! part of each row it can reach, left to its neighbours in the chain where they are as near.

use crate::space::Bounds;
use bevy::math::DVec2;

/// A straight piece of a path's centre line, from `a` (height `ya`) to `b` (height `yb`), and
/// the box within which it can matter (its reach: half the width plus the falloff).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Segment {
    pub a: DVec2,
    pub b: DVec2,
    pub ya: f64,
    pub yb: f64,
    pub bounds: Bounds,
    /// `1 / |b − a|²` (zero for a point).
    pub(super) inv_len2: f64,
    /// Where the row at `z` holds the samples within reach of the segment's line: `half`
    /// either side of `a.x − (z − a.y)·drift`, as `(drift, half)`; `None` for a segment along
    /// `x` (the rows within `reach` of its line hold it whole) or a point.
    band: Option<(f64, f64)>,
    /// The reach, with the band's margin.
    reach: f64,
    /// Which samples its neighbours in the chain take instead (see [`Segment::in_chain`]):
    /// it looks at none behind the half-plane `behind`, and beyond its end only at those in
    /// one of the half-planes `ahead`.
    behind: Option<HalfPlane>,
    ahead: Option<[HalfPlane; 2]>,
}

/// The points `p` with `(p − origin)·dir ≤ margin` (`dir` a unit vector), as rows see them: in
/// the row at `z`, the samples at most or at least `x = edge − (z − z0)·drift`, or, for a `dir`
/// along `z`, the whole row where `dir.y·(z − z0) ≤ margin` and none elsewhere.
#[derive(Clone, Copy, Debug, PartialEq)]
enum HalfPlane {
    AtMost { edge: f64, z0: f64, drift: f64 },
    AtLeast { edge: f64, z0: f64, drift: f64 },
    Rows { dy: f64, z0: f64, margin: f64 },
}

/// Where a half-plane holds the samples of a row.
#[derive(Clone, Copy, Debug, PartialEq)]
enum RowCut {
    All,
    Nothing,
    AtMost(f64),
    AtLeast(f64),
}

impl HalfPlane {
    fn new(origin: DVec2, dir: DVec2, margin: f64) -> Self {
        if dir.x.abs() > 1e-12 {
            let (edge, z0, drift) = (origin.x + margin / dir.x, origin.y, dir.y / dir.x);
            if dir.x > 0.0 {
                HalfPlane::AtMost { edge, z0, drift }
            } else {
                HalfPlane::AtLeast { edge, z0, drift }
            }
        } else {
            HalfPlane::Rows {
                dy: dir.y,
                z0: origin.y,
                margin,
            }
        }
    }

    /// The row at `z` as the half-plane cuts it.
    fn on_row(self, z: f64) -> RowCut {
        match self {
            HalfPlane::AtMost { edge, z0, drift } => RowCut::AtMost(edge - (z - z0) * drift),
            HalfPlane::AtLeast { edge, z0, drift } => RowCut::AtLeast(edge - (z - z0) * drift),
            HalfPlane::Rows { dy, z0, margin } if dy * (z - z0) <= margin => RowCut::All,
            HalfPlane::Rows { .. } => RowCut::Nothing,
        }
    }
}

impl RowCut {
    /// The closed interval `(low, high)` cut down to where this holds (empty as `low > high`).
    fn within(self, (low, high): (f64, f64)) -> (f64, f64) {
        match self {
            RowCut::All => (low, high),
            RowCut::Nothing => (f64::INFINITY, f64::NEG_INFINITY),
            RowCut::AtMost(edge) => (low, at_most(high, edge)),
            RowCut::AtLeast(edge) => (at_least(low, edge), high),
        }
    }

    /// The least cut that holds both (a row's interval holding the samples of either).
    fn or(self, other: Self) -> Self {
        match (self, other) {
            (RowCut::Nothing, cut) | (cut, RowCut::Nothing) => cut,
            (RowCut::AtMost(a), RowCut::AtMost(b)) => RowCut::AtMost(at_least(a, b)),
            (RowCut::AtLeast(a), RowCut::AtLeast(b)) => RowCut::AtLeast(at_most(a, b)),
            _ => RowCut::All,
        }
    }
}

/// The larger of `a` and `b` (`a` where `b` is NaN, which a row's bounds never are): one
/// instruction, where `f64::max` spends three on NaNs.
#[inline(always)]
fn at_least(a: f64, b: f64) -> f64 {
    if b > a { b } else { a }
}

/// The smaller of `a` and `b` (`a` where `b` is NaN), as [`at_least`].
#[inline(always)]
fn at_most(a: f64, b: f64) -> f64 {
    if b < a { b } else { a }
}

/// How much wider than the reach a row's band is taken: samples just outside it (by rounding)
/// are still looked at, and gain nothing there.
const BAND_MARGIN: f64 = 1e-6;

impl Segment {
    /// The segment from `a` (height `ya`) to `b` (height `yb`), mattering within `reach`.
    pub fn new(a: DVec2, b: DVec2, ya: f64, yb: f64, reach: f64) -> Self {
        let u = b - a;
        let len2 = u.length_squared();
        let normal = u.perp().normalize_or_zero();
        let wide = reach * (1.0 + BAND_MARGIN) + BAND_MARGIN;
        Self {
            a,
            b,
            ya,
            yb,
            bounds: Bounds {
                min: a.min(b) - DVec2::splat(reach),
                max: a.max(b) + DVec2::splat(reach),
            },
            inv_len2: if len2 > 0.0 { 1.0 / len2 } else { 0.0 },
            band: (normal.x != 0.0).then(|| (normal.y / normal.x, wide / normal.x.abs())),
            reach: wide,
            behind: None,
            ahead: None,
        }
    }

    /// The segment as a link of a path's chain: its start the end of `before`'s, its end the
    /// start of `after`'s (`None` at the path's ends). Its neighbours then take some of the
    /// samples it would look at, for the same distance:
    /// - behind its start (`t < 0`), the segment's nearest point is its start, which the one
    ///   before offers too, as near or nearer;
    /// - beyond its end (`t > 1`), its nearest point is its end, which the one after offers
    ///   too: only where that one leaves the sample out, behind its own start (the outside of
    ///   the bend), must this one look.
    ///
    /// Following the samples left out from segment to segment (backwards from one behind a
    /// start, forwards from one beyond an end) ends at a segment that looks, as near as any.
    /// Every half-plane is taken a millionth of the reach (and of a metre) wider, so that
    /// rounding never leaves a sample to no one.
    pub fn in_chain(mut self, before: bool, after: Option<&Segment>) -> Self {
        let Some(dir) = (self.b - self.a).try_normalize() else {
            return self;
        };
        let margin = BAND_MARGIN * (1.0 + self.reach);
        if before {
            self.behind = Some(HalfPlane::new(self.a, -dir, margin));
        }
        let next = after.and_then(|next| (next.b - next.a).try_normalize());
        self.ahead = next.and_then(|next| {
            let ahead = [
                HalfPlane::new(self.b, dir, margin),
                HalfPlane::new(self.b, next, margin),
            ];
            // Kept on opposite sides, the two hold every row's samples between them.
            match ahead {
                [HalfPlane::AtMost { .. }, HalfPlane::AtLeast { .. }]
                | [HalfPlane::AtLeast { .. }, HalfPlane::AtMost { .. }] => None,
                _ => Some(ahead),
            }
        });
        self
    }

    /// The closed `x` interval of the row at `z` that can hold samples within reach: the
    /// segment's box cut down to the band about its line; `None` where the row has none.
    pub(super) fn row_span(&self, z: f64) -> Option<(f64, f64)> {
        if z < self.bounds.min.y || z > self.bounds.max.y {
            return None;
        }
        let (mut low, mut high) = (self.bounds.min.x, self.bounds.max.x);
        let dz = z - self.a.y;
        match self.band {
            Some((drift, half)) => {
                let centre = self.a.x - dz * drift;
                (low, high) = (at_least(low, centre - half), at_most(high, centre + half));
            }
            // Along `x` (or a point, whose box is its disc's): the band is the box's rows.
            None if self.inv_len2 > 0.0 && dz.abs() > self.reach => return None,
            None => {}
        }
        if let Some(behind) = &self.behind {
            (low, high) = behind.on_row(z).within((low, high));
        }
        if let Some([to_end, next]) = &self.ahead {
            (low, high) = to_end.on_row(z).or(next.on_row(z)).within((low, high));
        }
        (low <= high).then_some((low, high))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reach of the test chains: 15 m, the default road's.
    const REACH: f64 = 15.0;

    /// Segments through `points`, each on its own or linked as `path_modifier` links them.
    fn segments(points: &[(f64, f64)], linked: bool) -> Vec<Segment> {
        let links: Vec<Segment> = points
            .windows(2)
            .map(|w| Segment::new(w[0].into(), w[1].into(), 0.0, 0.0, REACH))
            .collect();
        links
            .iter()
            .enumerate()
            .map(|(i, s)| match linked {
                true => s.clone().in_chain(i > 0, links.get(i + 1)),
                false => s.clone(),
            })
            .collect()
    }

    /// The true distance from `p` to a segment, and where its nearest point is (`t`).
    fn distance(s: &Segment, p: DVec2) -> (f64, f64) {
        let u = s.b - s.a;
        let t = ((p - s.a).dot(u) / u.length_squared()).clamp(0.0, 1.0);
        ((s.a + u * t - p).length(), t)
    }

    /// The segments whose row holds the sample at `p`.
    fn looking(segments: &[Segment], p: DVec2) -> Vec<usize> {
        (0..segments.len())
            .filter(|&i| {
                segments[i]
                    .row_span(p.y)
                    .is_some_and(|(low, high)| low <= p.x && p.x <= high)
            })
            .collect()
    }

    #[test]
    fn linked_segments_leave_a_sample_to_the_ones_that_can_be_nearest() {
        // A straight chain across the grid's rows, a gentle curve (turns of 12° to 25°), a
        // sharp bend and a hairpin's turn (about 150°), on samples 0.37 m apart.
        let chains: [&[(f64, f64)]; 4] = [
            &[
                (-40.0, -31.0),
                (-20.0, -16.0),
                (0.0, -1.0),
                (20.0, 14.0),
                (40.0, 29.0),
            ],
            &[
                (-40.0, -20.0),
                (-25.0, -12.0),
                (-10.0, -7.0),
                (5.0, -5.0),
                (20.0, -8.0),
            ],
            &[(-35.0, -25.0), (5.0, -5.0), (-25.0, 30.0)],
            &[
                (-40.0, -9.0),
                (20.0, -9.0),
                (30.0, 0.0),
                (20.0, 9.0),
                (-40.0, 9.0),
            ],
        ];
        for (k, points) in chains.into_iter().enumerate() {
            let (linked, alone) = (segments(points, true), segments(points, false));
            let (mut looks_linked, mut looks_alone, mut inside) = (0, 0, 0);
            for j in 0..200 {
                for i in 0..260 {
                    let p = DVec2::new(-48.1 + 0.37 * i as f64, -37.3 + 0.37 * j as f64);
                    let (nearest, _) = alone
                        .iter()
                        .map(|s| distance(s, p))
                        .fold((f64::INFINITY, 0.0), |a, b| if b.0 < a.0 { b } else { a });
                    if nearest > REACH {
                        continue;
                    }
                    let looks = looking(&linked, p);
                    // Every sample within reach looks at a segment as near as the nearest.
                    assert!(
                        looks
                            .iter()
                            .any(|&s| distance(&linked[s], p).0 <= nearest + 1e-9),
                        "chain {k}: {p} looks at {looks:?} only"
                    );
                    // Beside one segment of the straight chain, away from its ends, only it.
                    let beside: Vec<usize> = (0..linked.len())
                        .filter(|&s| (0.01..=0.99).contains(&distance(&linked[s], p).1))
                        .collect();
                    if k == 0 && beside.len() == 1 {
                        assert_eq!(looks, beside, "chain {k}: {p}");
                        inside += 1;
                    }
                    looks_linked += looks.len();
                    looks_alone += looking(&alone, p).len();
                }
            }
            assert!(
                k > 0 || inside > 20_000,
                "{inside} samples beside the straight chain"
            );
            // Linked, the segments look at far fewer samples than on their own: about half
            // where the pieces are about as long as the reach and the ends weigh most.
            assert!(
                (looks_linked as f64) < [0.6, 0.6, 0.95, 0.8][k] * looks_alone as f64,
                "chain {k}: {looks_linked} looks linked, {looks_alone} alone"
            );
        }
    }
}
