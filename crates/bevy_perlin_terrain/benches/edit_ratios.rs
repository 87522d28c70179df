//! Each edited chunk of the `chunk` bench's `chunk_edits` group against the same chunk
//! untouched, the arms built in turn in one process: a ratio of two arms that criterion measures
//! a minute apart is as much the machine's drift as the edit's cost.
//!
//! Each round builds every arm's chunk [`BUILDS`] times, the arms in an order that rotates from
//! round to round; an arm's figure is the median over the rounds of its time ÷ the untouched
//! chunk's time in the same round (with the quartiles beside it). The last 32 chunks stay
//! alive, as in the `chunk` bench's groups. Release, one thread:
//!
//! `cargo bench -p bevy_perlin_terrain --no-default-features --bench edit_ratios [-- ROUNDS]`
//! (300 rounds unless told).

#[path = "support/alive.rs"]
mod alive;
#[path = "support/edits.rs"]
mod edits;
#[path = "support/ratios.rs"]
mod ratios;

use alive::Alive;
use bevy_perlin_terrain::chunk::{ChunkJob, build_chunk_mesh};
use bevy_perlin_terrain::perlin_core::NoiseTables;
use ratios::quantile;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;
use terrain_test_support::preset;

/// Builds of one arm's chunk in a row, within a round.
const BUILDS: usize = 20;

fn main() {
    let rounds = ratios::rounds(300);
    let plain = preset("default");
    let tables = Arc::new(NoiseTables::from_seed(plain.seed));
    let arms: Vec<(&str, ChunkJob)> = edits::edited(&plain)
        .into_iter()
        .map(|(label, config)| {
            let job = ChunkJob::new(tables.clone(), &config, edits::CHUNK, 0).without_colors();
            (label, job)
        })
        .collect();
    let mut alive = Alive::new();
    let mut times = vec![Vec::with_capacity(rounds); arms.len()];
    for round in 0..rounds + 1 {
        for k in 0..arms.len() {
            let arm = (round + k) % arms.len();
            let start = Instant::now();
            for _ in 0..BUILDS {
                alive.push(build_chunk_mesh(black_box(&arms[arm].1)));
            }
            // Round 0 warms up.
            if round > 0 {
                times[arm].push(start.elapsed().as_secs_f64() / BUILDS as f64);
            }
        }
    }
    println!(
        "{rounds} rounds of {BUILDS} builds an arm; the edited chunk ÷ the untouched one, per round:"
    );
    println!(
        "{:<26} {:>12} {:>8} {:>16}",
        "arm", "median µs", "ratio", "quartiles"
    );
    for (arm, (label, _)) in arms.iter().enumerate() {
        let mut ratios: Vec<f64> = times[arm]
            .iter()
            .zip(&times[0])
            .map(|(t, untouched)| t / untouched)
            .collect();
        ratios.sort_by(f64::total_cmp);
        let mut own = times[arm].clone();
        own.sort_by(f64::total_cmp);
        println!(
            "{label:<26} {:>12.1} {:>8.3} {:>7.3}–{:<7.3}",
            quantile(&own, 0.5) * 1e6,
            quantile(&ratios, 0.5),
            quantile(&ratios, 0.25),
            quantile(&ratios, 0.75),
        );
    }
}
