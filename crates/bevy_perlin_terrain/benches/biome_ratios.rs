//! The chunks of the `chunk` bench's 10 km views of the `world` preset against the same chunks
//! of their strongest biome's recipe alone, built in turn in one process: a ratio of two arms
//! that criterion measures a minute apart is as much the machine's drift as the biomes' cost.
//!
//! Each round builds every chunk of the views twice in a row, once as the world builds it and
//! once with its biome alone (which goes first alternates from round to round), and sums each
//! arm's times; the figure is the median over the rounds of the world's sum ÷ the alone sum
//! (with the quartiles beside it). The last 32 chunks stay alive, as in the `chunk` bench's
//! groups. Release, one thread:
//!
//! `cargo bench -p bevy_perlin_terrain --no-default-features --bench biome_ratios [-- ROUNDS]`
//! (30 rounds unless told; a round takes about a second).

#[path = "support/alive.rs"]
mod alive;
#[path = "support/ratios.rs"]
mod ratios;
mod support;
#[path = "support/views.rs"]
mod views;

use alive::Alive;
use bevy_perlin_terrain::chunk::{ChunkJob, build_chunk_mesh};
use bevy_perlin_terrain::perlin_core::NoiseTables;
use ratios::quantile;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;
use support::preset;

fn main() {
    let rounds = ratios::rounds(30);
    let world = preset("world");
    let tables = Arc::new(NoiseTables::from_seed(world.seed));
    let (world_jobs, alone_jobs) = views::view_jobs(&world, &tables);
    let mut alive = Alive::new();
    let mut build = |job: &ChunkJob| {
        let start = Instant::now();
        alive.push(build_chunk_mesh(black_box(job)));
        start.elapsed().as_secs_f64()
    };
    let (mut ratios, mut world_sums, mut alone_sums) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds + 1 {
        let (mut world_sum, mut alone_sum) = (0.0, 0.0);
        for (world_job, alone_job) in world_jobs.iter().zip(&alone_jobs) {
            if round % 2 == 0 {
                world_sum += build(world_job);
                alone_sum += build(alone_job);
            } else {
                alone_sum += build(alone_job);
                world_sum += build(world_job);
            }
        }
        // Round 0 warms up.
        if round > 0 {
            ratios.push(world_sum / alone_sum);
            world_sums.push(world_sum);
            alone_sums.push(alone_sum);
        }
    }
    for values in [&mut ratios, &mut world_sums, &mut alone_sums] {
        values.sort_by(f64::total_cmp);
    }
    println!(
        "{rounds} rounds of {} chunks of 10 km views of the world preset, each built as the world \
         builds it and with its biome alone, in turn:",
        world_jobs.len()
    );
    println!(
        "world {:.1} ms, alone {:.1} ms a round (medians); world ÷ alone per round: median {:.3}, \
         quartiles {:.3}–{:.3}",
        quantile(&world_sums, 0.5) * 1e3,
        quantile(&alone_sums, 0.5) * 1e3,
        quantile(&ratios, 0.5),
        quantile(&ratios, 0.25),
        quantile(&ratios, 0.75),
    );
}
