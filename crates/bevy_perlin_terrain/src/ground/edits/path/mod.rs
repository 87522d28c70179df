//! A road or channel over the samples of a grid, one row at a time.
//!
//! A path's centre line is a chain of straight segments. A sample's distance to it is the
//! smallest of its distances to the segments: for each, the sample's projection on the
//! segment's line, clamped to its ends (`t = (p − a)·u / |u|²` in `[0, 1]`), is the segment's
//! point nearest it. So the nearest point is inside a segment where the projection falls
//! between the ends (the ground there follows the segment's grade) and a vertex elsewhere (the
//! outside of a bend, the path's ends). The first segment in the path's order wins a tie.
//! Where two segments meet, a sample whose nearest point of one is the vertex they share is
//! left to the other (except on the outside of the bend, where the vertex is nearest):
//! about a vertex, most samples look at one segment instead of two.
//!
//! A row asks each segment whose box (its reach: half the width plus the falloff, about it)
//! holds the row for the columns its band can reach, then works sixteen samples at a time
//! (eight without AVX-512): every segment whose columns meet them, then the blend, in `f32`
//! lanes that
//! [`SimdLevel::vectorise`](perlin_core::SimdLevel::vectorise) compiles for the widest vector
//! instructions the CPU has (the same bits on every build). Whether a segment counts for a
//! sample is decided by comparing the sample's own `x` with bounds that depend only on the row's
//! `z`, and a lane's arithmetic never looks at another lane, so a grid and a single sample at
//! the same place agree bit for bit.
//!
//! The blend is the stamps' (see `modifier.rs`): `w = 1 − S(d / falloff)` from the distance
//! `d` beyond half the width, the height pulled towards the centre line's height there (less
//! the depth, for a channel) with its exact gradient.
//!
//! `segment.rs` holds a segment's geometry and which rows and columns it can reach,
//! `nearest.rs` the nearest point of the segments for a block of lanes, and `pass.rs` the pass
//! that cuts each row and blends its samples.

mod nearest;
mod pass;
mod segment;

pub(crate) use pass::{GridRow, PathPass};
pub(crate) use segment::Segment;

/// Samples side by side (`L` below): sixteen where the rows are compiled for AVX-512 (one
/// register of `f32` lanes), eight elsewhere (one AVX2 register, or plain code). Lanes never
/// mix, so the width changes no bit.
const WIDE: usize = 16;
const NARROW: usize = 8;
