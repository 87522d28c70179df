//! The chunks of the `chunk` bench's 10 km views of the `world` preset against the same chunks
//! of their strongest biome's recipe alone, built in turn in one process: a ratio of two arms
//! that criterion measures a minute apart is as much the machine's drift as the biomes' cost.
//!
//! Each round builds every chunk of the views twice in a row, once as the world builds it and
//! once with its biome alone (which goes first alternates from round to round), and sums each
//! arm's times; the figure is the median over the rounds of the world's sum ÷ the alone sum
//! (with the quartiles beside it), and the same per level of detail and for the chunks inside
//! one biome (those whose mesh shows one biome's look: no other weighs in anywhere over them,
//! by the chunk's own weights), the 1.1× arm; and again for those of them whose parent
//! chunk shows one biome too, so that their morph targets blend no other (a chunk builds its
//! parent level's grid for them, on that level's coarser weight lattice, where a border
//! reaches farther). The last 32 chunks stay alive, as in the `chunk` bench's groups. Release,
//! one thread:
//!
//! `cargo bench -p bevy_perlin_terrain --no-default-features --bench biome_ratios [-- ROUNDS] [--colors]`
//! (30 rounds unless told; a round takes about a second).
//!
//! The chunks carry no vertex colors, as the plugin builds them for its terrain material;
//! with `-- --colors` they do, as it builds them without it.
//!
//! With `-- --floor` it measures instead how close any design that computes each biome only
//! where it weighs in could come to the target: per chunk, the mesh without noise (the
//! chunk with a one-octave recipe, `t₀`) plus, for each biome weighing in at one of 17 × 17
//! points of the chunk (by the sampler's weights), that biome's own chunk less `t₀` times the
//! share of the points where it weighs in; against the area-weighted average of the biomes'
//! own chunks (each times the share of the points where it weighs most).

#[path = "support/alive.rs"]
mod alive;
#[path = "support/ratios.rs"]
mod ratios;
#[path = "support/views.rs"]
mod views;

use alive::Alive;
use bevy::math::IVec2;
use bevy_perlin_terrain::chunk::{ChunkJob, build_chunk_mesh};
use bevy_perlin_terrain::perlin_core::{Fbm, NoiseTables};
use bevy_perlin_terrain::{TerrainConfig, TerrainSampler};
use ratios::quantile;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;
use terrain_test_support::preset;

fn main() {
    let rounds = ratios::rounds(30);
    let world = preset("world");
    let tables = Arc::new(NoiseTables::from_seed(world.seed));
    let colors = std::env::args().any(|a| a == "--colors");
    let (world_jobs, alone_jobs) = views::view_jobs(&world, &tables, colors);
    if std::env::args().any(|a| a == "--floor") {
        floor(&world, &tables, &world_jobs);
        return;
    }
    // Per chunk, whether its morph targets are one biome's too: at the top level they are its
    // own samples; below, its parent chunk's mesh shows one biome (the parent grid that a chunk
    // builds for its morph targets uses its parent level's weight lattice, which is coarser).
    let view = views::ten_km_view(&world);
    let top = view.lod_layout().top();
    let parent_one_biome: Vec<bool> = world_jobs
        .iter()
        .map(|job| {
            job.lod() == top || {
                let parent = ChunkJob::new(
                    tables.clone(),
                    &view,
                    job.coord().div_euclid(IVec2::splat(2)),
                    job.lod() + 1,
                );
                build_chunk_mesh(&parent.without_colors()).biomes.len() == 1
            }
        })
        .collect();
    let mut alive = Alive::new();
    // The time of a chunk's build, and how many biomes its mesh shows.
    let mut build = |job: &ChunkJob| {
        let start = Instant::now();
        let mesh = build_chunk_mesh(black_box(job));
        let time = start.elapsed().as_secs_f64();
        let biomes = mesh.biomes.len();
        alive.push(mesh);
        (time, biomes)
    };
    let levels = usize::from(world_jobs.iter().map(ChunkJob::lod).max().unwrap_or(0)) + 1;
    let (mut ratios, mut world_sums, mut alone_sums) = (Vec::new(), Vec::new(), Vec::new());
    let mut level_ratios = vec![Vec::new(); levels];
    let mut inside_ratios = Vec::new();
    let mut pure_parent_ratios = Vec::new();
    // Per chunk, whether it lies inside one biome (known after the warm-up round).
    let mut inside = vec![false; world_jobs.len()];
    for round in 0..rounds + 1 {
        // Per level, the world's and the alone arm's time; and the chunks inside one biome's.
        let mut sums = vec![(0.0, 0.0); levels];
        let mut inside_sum = (0.0, 0.0);
        let mut pure_parent_sum = (0.0, 0.0);
        for (k, (world_job, alone_job)) in world_jobs.iter().zip(&alone_jobs).enumerate() {
            let ((world, biomes), (alone, _)) = if round % 2 == 0 {
                let world = build(world_job);
                (world, build(alone_job))
            } else {
                let alone = build(alone_job);
                (build(world_job), alone)
            };
            let sum = &mut sums[usize::from(world_job.lod())];
            sum.0 += world;
            sum.1 += alone;
            if round == 0 {
                inside[k] = biomes == 1;
            } else if inside[k] {
                inside_sum.0 += world;
                inside_sum.1 += alone;
                if parent_one_biome[k] {
                    pure_parent_sum.0 += world;
                    pure_parent_sum.1 += alone;
                }
            }
        }
        // Round 0 warms up.
        if round > 0 {
            let (world_sum, alone_sum) =
                sums.iter().fold((0.0, 0.0), |t, s| (t.0 + s.0, t.1 + s.1));
            ratios.push(world_sum / alone_sum);
            world_sums.push(world_sum);
            alone_sums.push(alone_sum);
            for (ratios, (w, a)) in level_ratios.iter_mut().zip(&sums) {
                ratios.push(w / a);
            }
            inside_ratios.push(inside_sum.0 / inside_sum.1);
            pure_parent_ratios.push(pure_parent_sum.0 / pure_parent_sum.1);
        }
    }
    for values in [
        &mut ratios,
        &mut world_sums,
        &mut alone_sums,
        &mut inside_ratios,
        &mut pure_parent_ratios,
    ]
    .into_iter()
    .chain(level_ratios.iter_mut())
    {
        values.sort_by(f64::total_cmp);
    }
    println!(
        "{rounds} rounds of {} chunks of 10 km views of the world preset, each built as the world \
         builds it and with its biome alone, in turn:",
        world_jobs.len()
    );
    for (level, ratios) in level_ratios.iter().enumerate() {
        let chunks = world_jobs
            .iter()
            .filter(|j| usize::from(j.lod()) == level)
            .count();
        println!(
            "level {level} ({chunks} chunks): world ÷ alone per round: median {:.3}",
            quantile(ratios, 0.5)
        );
    }
    let levels_inside = (0..levels)
        .map(|level| {
            let chunks = world_jobs.iter().zip(&inside);
            let count = chunks.filter(|(j, i)| **i && usize::from(j.lod()) == level);
            count.count().to_string()
        })
        .collect::<Vec<_>>();
    println!(
        "inside one biome ({} chunks; by level {}): world ÷ alone per round: median {:.3}, \
         quartiles {:.3}–{:.3}",
        inside.iter().filter(|i| **i).count(),
        levels_inside.join(", "),
        quantile(&inside_ratios, 0.5),
        quantile(&inside_ratios, 0.25),
        quantile(&inside_ratios, 0.75),
    );
    println!(
        "inside one biome, parent chunk too ({} chunks): median {:.3}, quartiles {:.3}–{:.3}",
        inside
            .iter()
            .zip(&parent_one_biome)
            .filter(|(i, p)| **i && **p)
            .count(),
        quantile(&pure_parent_ratios, 0.5),
        quantile(&pure_parent_ratios, 0.25),
        quantile(&pure_parent_ratios, 0.75),
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

/// The floor of the module's `--floor`: the world's chunks, the floor and the area-weighted
/// denominator, in total and per level (medians of five builds each).
fn floor(world: &TerrainConfig, tables: &Arc<NoiseTables>, world_jobs: &[ChunkJob]) {
    let view = views::ten_km_view(world);
    let sampler = TerrainSampler::new(tables.clone(), &view);
    let mut alive = Alive::new();
    let mut time = |job: &ChunkJob| {
        let mut times = [0.0; 5];
        for t in &mut times {
            let start = Instant::now();
            alive.push(build_chunk_mesh(black_box(job)));
            *t = start.elapsed().as_secs_f64();
        }
        times.sort_by(f64::total_cmp);
        times[2]
    };
    // A chunk of `config` in place of `job`.
    let like = |job: &ChunkJob, config: &TerrainConfig| {
        ChunkJob::new(tables.clone(), config, job.coord(), job.lod()).without_colors()
    };
    let recipe = |noise: Fbm, height_scale: f32| views::recipe_alone(&view, noise, height_scale);
    let one_octave = recipe(
        Fbm {
            octaves: 1,
            ..world.biomes[0].noise
        },
        world.biomes[0].height_scale,
    );
    // Per level: the world, the floor, the denominator (seconds).
    let mut levels = Vec::<[f64; 3]>::new();
    for job in world_jobs {
        let side = view.lod_layout().size(job.lod());
        let (x0, z0) = (job.coord().x as f64 * side, job.coord().y as f64 * side);
        // Per biome, the shares of the points where it weighs in and where it weighs most.
        let mut shares = vec![(0.0, 0.0); world.biomes.len()];
        const POINTS: usize = 17;
        let share = 1.0 / (POINTS * POINTS) as f64;
        for k in 0..POINTS * POINTS {
            let (u, v) = ((k % POINTS) as f64, (k / POINTS) as f64);
            let at = |t: f64| t * side / (POINTS - 1) as f64;
            let weights = sampler.biome_weights(x0 + at(u), z0 + at(v));
            let index = |name: &str| world.biomes.iter().position(|b| b.name == name);
            for (name, w) in &weights {
                if let (Some(b), true) = (index(name), *w > 0.0) {
                    shares[b].0 += share;
                }
            }
            let most = weights.iter().max_by(|a, b| a.1.total_cmp(&b.1));
            if let Some(b) = most.and_then(|(name, _)| index(name)) {
                shares[b].1 += share;
            }
        }
        let t0 = time(&like(job, &one_octave));
        let (mut floor, mut denominator) = (t0, 0.0);
        for (biome, &(weighs, most)) in world.biomes.iter().zip(&shares) {
            if weighs > 0.0 {
                let own = time(&like(job, &recipe(biome.noise, biome.height_scale)));
                floor += weighs * (own - t0);
                denominator += most * own;
            }
        }
        let level = usize::from(job.lod());
        if levels.len() <= level {
            levels.resize(level + 1, [0.0; 3]);
        }
        for (sum, t) in levels[level]
            .iter_mut()
            .zip([time(job), floor, denominator])
        {
            *sum += t;
        }
    }
    let total = levels
        .iter()
        .fold([0.0; 3], |t, l| [t[0] + l[0], t[1] + l[1], t[2] + l[2]]);
    println!(
        "{} chunks of 10 km views of the world preset: world {:.1} ms, floor {:.1} ms, \
         area-weighted biomes alone {:.1} ms",
        world_jobs.len(),
        total[0] * 1e3,
        total[1] * 1e3,
        total[2] * 1e3
    );
    for (level, [w, f, d]) in levels.iter().enumerate() {
        println!(
            "level {level}: world ÷ denominator {:.2}, floor ÷ denominator {:.2}",
            w / d,
            f / d
        );
    }
    println!(
        "world ÷ denominator {:.2}, floor ÷ denominator {:.2}",
        total[0] / total[2],
        total[1] / total[2]
    );
}
