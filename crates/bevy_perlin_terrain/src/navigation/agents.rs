//! The crate's own agents: [`TerrainAgent`] entities that walk to their target over the
//! navigation, keeping clear of each other, their feet on the ground.

use super::TerrainNavigation;
use crate::ground::TerrainSampler;
use crate::space::{RootFrame, RootQuery, current_affine};
use crate::stream::{ChunkRegistry, TerrainRoot};
use bevy::prelude::*;
use landmass::{Agent, AgentState};

/// A character the plugin walks over the terrain to its `target`: along a way the
/// [`TerrainNavigation`] finds (preferring roads), around the other agents, its feet on the
/// sampler's ground. Its `Transform` (an entity without a parent, in the world; the terrain
/// root's space while the root keeps its default transform) is where its feet are, and the
/// plugin moves it every frame it walks; [`TerrainAgentMotion`] says how and why. A target
/// change plans a new way; so does a tile rebuilt under the old one.
#[derive(Component, Reflect, Clone, Copy, Debug, PartialEq)]
#[reflect(Component, Default, Debug)]
#[require(Transform, TerrainAgentMotion)]
pub struct TerrainAgent {
    /// Where to walk to, in the root's space (its height is not used); `None` to stand.
    pub target: Option<Vec3>,
    /// Metres a second it walks at (taken up to 100). Default 1.4.
    pub speed: f32,
    /// Metres from its centre to its side, which the others keep clear of (taken within 0.01 to
    /// 10). Default 0.4 (the
    /// ground's margin is the config's `navigation.agent_radius`).
    pub radius: f32,
}

impl Default for TerrainAgent {
    fn default() -> Self {
        Self {
            target: None,
            speed: 1.4,
            radius: 0.4,
        }
    }
}

/// How a [`TerrainAgent`] moved in the last frame it was walked, and why (the plugin writes it).
#[derive(Component, Reflect, Clone, Copy, Debug, Default, PartialEq)]
#[reflect(Component, Default, Debug)]
pub struct TerrainAgentMotion {
    /// Metres a second, in the root's space, along the ground.
    pub velocity: Vec3,
    /// Where it stands in its walk.
    pub status: TerrainAgentStatus,
}

/// Where a [`TerrainAgent`] stands in its walk.
#[derive(Reflect, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[reflect(Default, Debug, Clone, PartialEq)]
pub enum TerrainAgentStatus {
    /// No target.
    #[default]
    Idle,
    /// On its way.
    Walking,
    /// At its target.
    Arrived,
    /// Where it stands is not on the navigation (its tile is not built yet, or not walkable).
    OffTheWay,
    /// Its target is not on the navigation.
    TargetOffTheWay,
    /// No way joins it to its target.
    NoWay,
}

impl From<AgentState> for TerrainAgentStatus {
    fn from(state: AgentState) -> Self {
        match state {
            AgentState::Idle | AgentState::Paused => Self::Idle,
            AgentState::ReachedTarget => Self::Arrived,
            AgentState::Moving
            | AgentState::ReachedAnimationLink
            | AgentState::UsingAnimationLink => Self::Walking,
            AgentState::AgentNotOnNavMesh => Self::OffTheWay,
            AgentState::TargetNotOnNavMesh => Self::TargetOffTheWay,
            AgentState::NoPath => Self::NoWay,
        }
    }
}

/// Run condition of [`walk_agents`]: whether an agent walks, one went, or islands came or went
/// (the archipelago joins them).
pub(super) fn agents_or_new_islands(
    agents: Query<(), With<TerrainAgent>>,
    navigation: Option<Res<TerrainNavigation>>,
) -> bool {
    navigation.is_some_and(|n| n.islands_changed || !agents.is_empty() || !n.agents.is_empty())
}

/// Hands the agents to the archipelago (new ones added, gone ones removed, each where it
/// stands, how it moves and where it goes), lets it join new islands and steer, and walks each
/// agent by its desired velocity, its feet put on the ground.
pub(super) fn walk_agents(
    mut agents: Query<(
        Entity,
        &TerrainAgent,
        &mut TerrainAgentMotion,
        &mut Transform,
        &GlobalTransform,
        Has<ChildOf>,
    )>,
    roots: RootQuery<(With<TerrainRoot>, Without<TerrainAgent>)>,
    chunks: Option<Res<ChunkRegistry>>,
    sampler: Option<Res<TerrainSampler>>,
    time: Res<Time>,
    mut navigation: ResMut<TerrainNavigation>,
) {
    let Some(sampler) = sampler else { return };
    let navigation = &mut *navigation;
    let frame = RootFrame::of(chunks.and_then(|c| c.root()), &roots);

    // Agents that went.
    let gone: Vec<Entity> = (navigation.agents.keys())
        .filter(|e| !agents.contains(**e))
        .copied()
        .collect();
    for entity in gone {
        if let Some(id) = navigation.agents.remove(&entity) {
            navigation.archipelago.remove_agent(id);
        }
    }
    // Where each stands and goes.
    for (entity, agent, motion, local, global, parented) in &agents {
        let p = frame
            .to_root(current_affine((local, global, parented)).translation.into())
            .as_vec3();
        if !p.is_finite() {
            continue;
        }
        // Its feet, on the ground (where the game spawned it, or where it was walked).
        let p = sampler.ground(p).0;
        let speed = if agent.speed.is_finite() {
            agent.speed.clamp(0.0, 100.0)
        } else {
            0.0
        };
        let radius = if agent.radius.is_finite() {
            agent.radius.clamp(0.01, 10.0)
        } else {
            0.4
        };
        let id = *navigation.agents.entry(entity).or_insert_with(|| {
            navigation.archipelago.add_agent(Agent::create(
                p,
                Vec3::ZERO,
                radius,
                speed,
                1.5 * speed,
            ))
        });
        if let Some(a) = navigation.archipelago.get_agent_mut(id) {
            a.position = p;
            a.velocity = motion.velocity;
            a.radius = radius;
            a.desired_speed = speed;
            a.max_speed = 1.5 * speed;
            a.current_target = (agent.target)
                .filter(|t| t.is_finite())
                .map(|t| sampler.ground(t).0);
        }
    }

    let dt = time.delta_secs();
    navigation.archipelago.update(dt);
    navigation.islands_changed = false;

    for (entity, _, mut motion, mut local, _, parented) in &mut agents {
        let Some(a) =
            (navigation.agents.get(&entity)).and_then(|id| navigation.archipelago.get_agent(*id))
        else {
            continue;
        };
        let status = TerrainAgentStatus::from(a.state());
        let desired = *a.get_desired_velocity();
        let step = Vec3::new(desired.x, 0.0, desired.z) * dt;
        let from = a.position;
        let to = from + step;
        let (feet, _) = sampler.ground(to);
        let velocity = if dt > 0.0 {
            (feet - from) / dt
        } else {
            Vec3::ZERO
        };
        if motion.status != status || motion.velocity != velocity {
            *motion = TerrainAgentMotion { velocity, status };
        }
        if step != Vec3::ZERO && step.is_finite() && !parented {
            local.translation = frame.to_world(feet.as_dvec3());
        }
    }
}
