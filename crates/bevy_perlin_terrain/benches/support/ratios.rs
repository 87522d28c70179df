//! What the `edit_ratios` and `biome_ratios` benches share: how many rounds to run and the
//! quantiles of what they measured.

/// The rounds the command line asks for (its first number), else `default`; at least one.
pub fn rounds(default: usize) -> usize {
    std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or(default)
        .max(1)
}

/// The value at quantile `q` of `values`, sorted.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    values[((values.len() - 1) as f64 * q).round() as usize]
}
