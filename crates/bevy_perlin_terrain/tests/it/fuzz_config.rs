//! `parse_config` on hostile input: random bytes (it never panics), and mutations of every
//! shipped preset's text, `world` and its biomes included (it never panics, and every config it
//! accepts is one the plugin can use). Bounded to a few seconds: a few thousand cases.

use bevy::math::IVec2;
use bevy_perlin_terrain::TerrainSampler;
use bevy_perlin_terrain::chunk::{ChunkJob, build_chunk_mesh};
use bevy_perlin_terrain::config::{MAX_VIEW_CHUNKS, parse_config};
use bevy_perlin_terrain::perlin_core::NoiseTables;
use proptest::prelude::*;
use proptest::sample::select;
use std::sync::Arc;
use terrain_test_support::{preset_names, preset_text};

/// Whatever `parse_config` accepted is a config the plugin can use: it saves and reads back
/// the same, its tree stays within the bound, its ground is finite, and a chunk of its coarsest
/// level (the largest spacing: where aliasing erosion would cost most) builds finite.
fn assert_usable(bytes: &[u8]) {
    let Ok(config) = parse_config("fuzz.terrain.ron", bytes) else {
        return;
    };
    let again = parse_config("saved.terrain.ron", config.to_ron().as_bytes());
    assert!(
        again.as_ref().is_ok_and(|c| *c == config),
        "{}",
        config.to_ron()
    );
    assert!(config.lod_layout().most_chunks() <= MAX_VIEW_CHUNKS as f64);
    let tables = Arc::new(NoiseTables::from_seed(config.seed));
    let sampler = TerrainSampler::new(tables.clone(), &config);
    assert!(sampler.height(12.5, -3.25).is_finite());
    if config.chunk_resolution <= 129 {
        let job = ChunkJob::new(tables, &config, IVec2::new(-1, 2), config.max_lod());
        let mesh = build_chunk_mesh(&job);
        let n = config.chunk_resolution as usize;
        assert_eq!(mesh.positions.len(), n * n + 4 * n);
        assert!(mesh.positions.iter().flatten().all(|c| c.is_finite()));
        assert!(mesh.morph.iter().flatten().all(|c| c.is_finite()));
    }
}

/// The troublesome snippets that a mutation puts in a preset's text.
const SNIPPETS: [&str; 16] = [
    "",
    "1e308",
    "-1e308",
    "inf",
    "NaN",
    "0",
    "-0.0",
    "99999999999999999999",
    "(",
    ")",
    "Some(())",
    "None",
    "\"x\"",
    "[]",
    ",,",
    "octaves: 4000000000",
];

/// A mutation of a text: replace a span by one of the [`SNIPPETS`].
fn mutate(text: &str, at: usize, len: usize, snippet: usize) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = at % (chars.len() + 1);
    let end = (at + len).min(chars.len());
    let mut out: String = chars[..at].iter().collect();
    out.push_str(SNIPPETS[snippet % SNIPPETS.len()]);
    out.extend(&chars[end..]);
    out
}

#[test]
fn every_preset_mutated_by_every_snippet_never_panics_and_stays_bounded() {
    // Every shipped preset, unmutated first (it must parse), then each snippet over spans at 16
    // places spread over the whole text: none is left to chance.
    let names = preset_names();
    assert!(!names.is_empty(), "no preset found");
    for name in &names {
        let text = preset_text(name);
        if let Err(e) = parse_config("fuzz.terrain.ron", text.as_bytes()) {
            panic!("{name} does not parse: {e}");
        }
        assert_usable(text.as_bytes());
        let length = text.chars().count();
        for snippet in 0..SNIPPETS.len() {
            for k in 0..16 {
                let at = k * length / 16 + snippet;
                let mutated = mutate(&text, at, (k + snippet) % 12, snippet);
                assert_usable(mutated.as_bytes());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Random bytes almost never parse: this holds the parser to never panicking, whatever the
    /// bytes. The mutations below are what reach the configs it accepts.
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = parse_config("fuzz.terrain.ron", &bytes);
    }

    #[test]
    fn mutated_presets_never_panic_and_stay_bounded(
        name in select(preset_names()),
        edits in proptest::collection::vec((any::<usize>(), 0usize..12, any::<usize>()), 1..4),
    ) {
        let mut text = preset_text(&name);
        for (at, len, snippet) in edits {
            text = mutate(&text, at, len, snippet);
        }
        assert_usable(text.as_bytes());
    }

    #[test]
    fn numbers_in_presets_are_bounded(
        name in select(preset_names()),
        field in 0usize..64,
        value in prop_oneof![any::<f64>(), -1e7f64..1e7, 0f64..2.0],
    ) {
        // Replace the `field`-th number of a preset by `value`.
        let text = preset_text(&name);
        let mut count = 0;
        let mut out = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                let mut number = c.to_string();
                while let Some(&d) = chars.peek() {
                    if d.is_ascii_digit() || d == '.' || d == 'e' {
                        number.push(d);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push_str(&if count == field { format!("{value:?}") } else { number });
                count += 1;
            } else {
                out.push(c);
            }
        }
        assert_usable(out.as_bytes());
    }
}
