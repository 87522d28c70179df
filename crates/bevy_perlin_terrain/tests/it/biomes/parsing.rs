//! Bad biome configs: the error names the file, the field and what is allowed.

use bevy_perlin_terrain::config::parse_config;

#[test]
fn bad_biomes_name_the_field_and_what_is_allowed() {
    let many = (0..17)
        .map(|k| {
            format!(
                "(name: \"b{k}\", temperature: ({}, {}))",
                -1.0 + k as f32 / 8.5,
                -1.0 + (k + 1) as f32 / 8.5
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    for (ron, field, allowed) in [
        (
            "(biomes: [(name: \"a\"), (name: \"b\")])".to_string(),
            "`biomes[1].temperature`",
            "may touch but not overlap",
        ),
        (
            "(biomes: [(name: \"a\", moisture: (0.5, 0.5))])".into(),
            "`biomes[0].moisture`",
            "not empty",
        ),
        (
            "(biomes: [(name: \"a\", continentalness: (-1.0, 0.0))])".into(),
            "`biomes`",
            "cover every climate point",
        ),
        (
            "(biomes: [(name: \"a\", temperature: (-1.0, 0.0)), (name: \"a\", temperature: (0.0, 1.0))])".into(),
            "`biomes[1].name`",
            "a name of its own",
        ),
        (
            "(biomes: [(name: \"\")])".into(),
            "`biomes[0].name`",
            "1 to 64 characters",
        ),
        (
            "(biomes: [(name: \"a\", height_scale: 0.0)])".into(),
            "`biomes[0].height_scale`",
            "0.001 to 100000",
        ),
        (
            "(biomes: [(name: \"a\", noise: (octaves: 99))])".into(),
            "`biomes[0].noise.octaves`",
            "1 to 32",
        ),
        (
            "(climate: (blend: 0.0), biomes: [(name: \"a\")])".into(),
            "`climate.blend`",
            "1 to a quarter",
        ),
        (format!("(biomes: [{many}])"), "`biomes`", "at most 16 biomes"),
        (
            "(biomes: [(name: \"a\")], scatter: [(name: \"t\", biomes: [\"a\", \"b\"])])".into(),
            "`scatter[0].biomes[1]`",
            "the name of one of the config's biomes",
        ),
        (
            "(biomes: [(name: \"a\", colors: Some((bands: [(up_to: 5.0, color: (2.0, 0.0, 0.0))])))])".into(),
            "`biomes[0].colors.bands[0].color`",
            "three numbers from 0 to 1",
        ),
        (
            "(biomes: [(name: \"a\", look: 3)])".into(),
            "biomes",
            "look",
        ),
    ] {
        let text = match parse_config("terrain/bad.terrain.ron", ron.as_bytes()) {
            Ok(_) => panic!("accepted {ron}"),
            Err(e) => e.to_string(),
        };
        assert!(
            text.contains("terrain/bad.terrain.ron") && text.contains(field) && text.contains(allowed),
            "{ron}: {text}"
        );
    }
}
