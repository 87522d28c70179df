//! `parse_config` on hostile input: random bytes, and random mutations of the shipped presets.
//! It never panics, and every config it accepts is within the documented limits. Bounded to a
//! few seconds: a few thousand cases.

use bevy_perlin_terrain::config::{
    MAX_IN_FLIGHT_BYTES, MAX_UPLOAD_BYTES, MAX_VIEW_CHUNKS, parse_config,
};
use proptest::prelude::*;

const PRESETS: [&str; 4] = ["default", "islands", "alps", "dunes"];

fn preset(name: &str) -> String {
    let path = format!(
        "{}/../../assets/terrain/{name}.terrain.ron",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Whatever `parse_config` accepted must be within the limits of `TerrainConfig::validate`.
fn assert_bounded(bytes: &[u8]) {
    if let Ok(config) = parse_config("fuzz.terrain.ron", bytes) {
        assert_eq!(config.validate(), Ok(()));
        let reach = config.view_distance as f64 / config.chunk_size as f64 + 1.0;
        assert!(std::f64::consts::PI * reach * reach <= MAX_VIEW_CHUNKS as f64);
        let n = config.chunk_resolution as u64;
        assert!((5..=1025).contains(&n));
        let chunk = 48 * (n * n + 4 * n);
        assert!(config.max_tasks_in_flight as u64 * chunk <= MAX_IN_FLIGHT_BYTES.max(chunk));
        assert!(config.max_uploads_per_frame as u64 * chunk <= MAX_UPLOAD_BYTES.max(chunk));
    }
}

/// A mutation of a text: replace a span by one of a few troublesome snippets.
fn mutate(text: &str, at: usize, len: usize, snippet: usize) -> String {
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
    let chars: Vec<char> = text.chars().collect();
    let at = at % (chars.len() + 1);
    let end = (at + len).min(chars.len());
    let mut out: String = chars[..at].iter().collect();
    out.push_str(SNIPPETS[snippet % SNIPPETS.len()]);
    out.extend(&chars[end..]);
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        assert_bounded(&bytes);
    }

    #[test]
    fn mutated_presets_never_panic_and_stay_bounded(
        which in 0usize..4,
        edits in proptest::collection::vec((any::<usize>(), 0usize..12, any::<usize>()), 1..4),
    ) {
        let mut text = preset(PRESETS[which]);
        for (at, len, snippet) in edits {
            text = mutate(&text, at, len, snippet);
        }
        assert_bounded(text.as_bytes());
    }

    #[test]
    fn numbers_in_presets_are_bounded(
        which in 0usize..4,
        field in 0usize..64,
        value in prop_oneof![any::<f64>(), -1e7f64..1e7, 0f64..2.0],
    ) {
        // Replace the `field`-th number of a preset by `value`.
        let text = preset(PRESETS[which]);
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
        assert_bounded(out.as_bytes());
    }
}
