//! The tile systems: plan (drop, cancel, schedule) and place finished tiles.

use super::plan::{distance_to_tile, tiles_within};
use super::tile::{NavigationTile, TILE_SIZE, build_tile};
use super::{TerrainNavigation, TerrainNavigator};
use crate::config::ranges::NAVIGATION_RADIUS;
use crate::ground::{ActiveTerrainConfig, TerrainSampler};
use crate::space::{RootFrame, RootQuery, current_affine};
use crate::stream::{ChunkRegistry, TerrainRoot};
use crate::tasks::{Job, Urgency};
use bevy::math::Vec3Swizzles;
use bevy::platform::collections::HashSet;
use bevy::prelude::*;

/// A game removed the [`TerrainNavigation`]: a new one builds the tiles again (it has no
/// entities to take with it).
pub(super) fn recover_navigation(mut commands: Commands) {
    warn!("the TerrainNavigation resource was removed; the plugin builds its tiles again");
    commands.insert_resource(TerrainNavigation::new());
}

/// Run condition of [`plan_tiles`]: whether there is a navigator to follow, a tile to keep or
/// take away, or work the last plan left.
pub(super) fn navigators_or_tiles(
    navigators: Query<(), With<TerrainNavigator>>,
    navigation: Option<Res<TerrainNavigation>>,
) -> bool {
    navigation.is_some_and(|n| {
        !navigators.is_empty()
            || !n.tiles.is_empty()
            || !n.pending.is_empty()
            || n.dirty
            || !n.planned
    })
}

/// Run condition of [`place_tiles`]: whether a tile is being built.
pub(super) fn tiles_in_flight(navigation: Option<Res<TerrainNavigation>>) -> bool {
    navigation.is_some_and(|n| !n.pending.is_empty())
}

/// Where the navigators are (in the terrain root's space), which tiles they want, and the work
/// that follows: tiles no navigator is near go, tasks start for missing or outdated tiles,
/// missing first, then nearest. While no navigator moves by a quarter of a tile, a frame costs
/// a look at each and no planning.
pub(super) fn plan_tiles(
    navigators: Query<(
        &TerrainNavigator,
        &Transform,
        &GlobalTransform,
        Has<ChildOf>,
    )>,
    roots: RootQuery<With<TerrainRoot>>,
    active: Option<Res<ActiveTerrainConfig>>,
    sampler: Option<Res<TerrainSampler>>,
    chunks: Option<Res<ChunkRegistry>>,
    mut navigation: ResMut<TerrainNavigation>,
) {
    let (Some(active), Some(sampler)) = (active, sampler) else {
        return;
    };
    let config = active.config();
    let navigation = &mut *navigation;
    let reshaped = navigation.follow_shape(config, &sampler);
    if sampler.is_changed() || navigation.sampler.is_none() {
        // The same ground with other edits, or a new one: paths follow it from now on.
        navigation.sampler = Some(sampler.clone());
    }

    let frame = RootFrame::of(chunks.and_then(|c| c.root()), &roots);
    let mut at: Vec<(Vec3, f32)> = (navigators.iter())
        .filter_map(|(navigator, local, global, parented)| {
            let p = frame
                .to_root(current_affine((local, global, parented)).translation.into())
                .as_vec3();
            let radius = navigator.radius.unwrap_or(config.navigation.radius);
            let radius = radius.clamp(NAVIGATION_RADIUS.min as f32, NAVIGATION_RADIUS.max as f32);
            (p.is_finite() && radius.is_finite()).then_some((p, radius))
        })
        .collect();
    at.sort_by(|a, b| a.0.x.total_cmp(&b.0.x).then(a.0.z.total_cmp(&b.0.z)));

    let threshold = 0.25 * TILE_SIZE;
    let moved = at.len() != navigation.planned_for.len()
        || at
            .iter()
            .zip(&navigation.planned_for)
            .any(|((p, r), (q, s))| p.xz().distance(q.xz()) > threshold || r != s);
    if !(moved || reshaped || navigation.dirty || !navigation.planned) {
        return;
    }
    navigation.planned = true;
    navigation.dirty = false;
    navigation.planned_for.clone_from(&at);

    // The radius and the move that replans: every tile within the radius stays built until the
    // next plan.
    let mut wanted = HashSet::default();
    for &(p, radius) in &at {
        tiles_within(p.xz(), radius + threshold, &mut wanted);
    }
    // Tiles stay until half a tile beyond the radius: no churn at the edge.
    let near = |coord: IVec2, reach: f32| {
        at.iter()
            .any(|&(p, radius)| distance_to_tile(p.xz(), coord) <= radius + threshold + reach)
    };
    let generation = navigation.generation;
    let gone: Vec<IVec2> = (navigation.tiles.iter())
        .filter(|(coord, tile)| {
            let keep = wanted.contains(*coord)
                || (tile.generation == generation && near(**coord, 0.5 * TILE_SIZE));
            !keep
        })
        .map(|(coord, _)| *coord)
        .collect();
    for coord in gone {
        navigation.drop_tile(coord);
    }
    navigation
        .pending
        .retain(|coord, g| *g == generation && wanted.contains(coord));

    let Some(shape) = navigation.shape.as_ref() else {
        return;
    };
    let mut jobs = Vec::new();
    for &coord in &wanted {
        let outdated = navigation
            .tiles
            .get(&coord)
            .is_none_or(|t| t.generation != generation);
        if !outdated || navigation.pending.get(&coord).is_some() {
            continue;
        }
        let distance = at
            .iter()
            .map(|(p, _)| distance_to_tile(p.xz(), coord))
            .fold(f32::INFINITY, f32::min);
        let (ground, walk) = ((*sampler).clone(), shape.walk.clone());
        jobs.push(Job {
            key: coord,
            meta: generation,
            urgency: Urgency {
                hole: !navigation.tiles.contains_key(&coord),
                distance,
            },
            work: move || build_tile(&ground, &walk, coord),
        });
    }
    navigation.dirty = navigation
        .pending
        .start(jobs, config.max_tasks_in_flight as usize);
    navigation.wanted = wanted;
}

/// Puts the finished tiles in place, each replacing its old island.
pub(super) fn place_tiles(mut navigation: ResMut<TerrainNavigation>) {
    let navigation = &mut *navigation;
    let finished = navigation.pending.finished(usize::MAX);
    if !finished.is_empty() {
        // Task slots freed up for tiles that may be waiting.
        navigation.dirty = true;
    }
    for (coord, generation, tile) in finished {
        if generation != navigation.generation || !navigation.wanted.contains(&coord) {
            continue;
        }
        // A tile whose ground cannot be sampled is kept empty, not built again.
        let tile = tile.unwrap_or_else(|| {
            warn!("navigation tile {coord}: the ground there cannot be sampled; left empty");
            NavigationTile::empty()
        });
        navigation.place(coord, tile, generation);
    }
}
