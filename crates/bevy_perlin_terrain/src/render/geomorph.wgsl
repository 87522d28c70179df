// Geomorphing (Strugar's CDLOD, 2009): each vertex of a chunk blends from its own height and
// normal to its parent level's surface (carried in the mesh's morph attribute) as its level
// distance to the nearest viewer (`max(|dx|, |dz|, the viewer's height over the ground)`, as
// levels are chosen by) grows through its level's morph range (`LodLayout`). The range
// ends before the parent replaces the chunk, so the switch moves nothing, and begins beyond
// every point where a finer neighbour meets the chunk, so edges between levels match. The
// distances are measured from where the viewers were when the chunks were chosen (not from the
// camera drawing them), so the main pass, the depth prepass and every shadow map morph alike.
#define_import_path bevy_perlin_terrain::geomorph

#import bevy_pbr::mesh_functions
#import bevy_perlin_terrain::terrain_bindings::shading

// World `xz` of viewer `i` (two to a vec4).
fn viewer(i: u32) -> vec2<f32> {
    let two = shading.viewers[i / 2u];
    return select(two.xy, two.zw, (i % 2u) == 1u);
}

// Horizontal distance from world `xz` to the nearest viewer the chunks were chosen for.
fn nearest_viewer(xz: vec2<f32>) -> f32 {
    var nearest = 1.0e30;
    for (var i = 0u; i < u32(shading.viewer_count.x); i++) {
        nearest = min(nearest, distance(xz, viewer(i)));
    }
    return nearest;
}

// Level distance (`max(|dx|, |dz|, height)`, what levels of detail are chosen by;
// `ChunkRegistry::level_distance` in Rust) from world `xz` to the nearest viewer the chunks
// were chosen for.
fn nearest_viewer_level(xz: vec2<f32>) -> f32 {
    var nearest = 1.0e30;
    for (var i = 0u; i < u32(shading.viewer_count.x); i++) {
        let d = abs(xz - viewer(i));
        nearest = min(nearest, max(max(d.x, d.y), shading.viewer_heights[i]));
    }
    return nearest;
}

// The morph of a vertex of a chunk of level `level` at world `xz`: 0 (its own surface) to 1
// (its parent's); `LodLayout::morph_at` in Rust.
fn morph_factor(level: u32, xz: vec2<f32>) -> f32 {
    let pair = shading.morph[min(level, 25u) / 2u];
    let range = select(pair.xy, pair.zw, (level % 2u) == 1u);
    return clamp((nearest_viewer_level(xz) - range.x) * range.y, 0.0, 1.0);
}

// The morphed local position (`xyz`) of `position`, whose parent's height is `coarse`, and the
// morph (`w`); the chunk's level is its mesh tag.
fn morphed(instance_index: u32, world_from_local: mat4x4<f32>, position: vec3<f32>, coarse: f32) -> vec4<f32> {
    let world = mesh_functions::mesh_position_local_to_world(world_from_local, vec4<f32>(position, 1.0));
    let k = morph_factor(mesh_functions::get_tag(instance_index), world.xz);
    return vec4<f32>(position.x, mix(position.y, coarse, k), position.z, k);
}
