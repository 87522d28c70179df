//! [`TerrainSampler`]: the terrain's height and normal anywhere, for placing objects, walking
//! characters and keeping cameras above ground.

use super::edits::{GroundEdits, config_edits};
use super::recipe::GroundRecipe;
use super::samples::with_thread_samples;
use crate::config::TerrainConfig;
use crate::weather::{Weather, cloud_cover, shore_factor, wave_surface};
use bevy::math::{DVec2, Vec2, Vec3};
use bevy::prelude::*;
use perlin_core::{Detail, Fbm, GridSpec, NoiseTables};
use std::sync::Arc;

/// Height and normal of the current terrain at any position in the terrain's own space (world
/// space while the [`TerrainRoot`](crate::TerrainRoot) keeps its default transform). Cheap to
/// clone (the tables are shared); replaced whenever a config changes the ground. For a config
/// set in code it exists from the first frame; for an asset, once it has loaded.
///
/// It includes every [`TerrainStamp`](crate::TerrainStamp) and [`TerrainPath`](crate::TerrainPath)
/// (of the config, and the components once the plugin has collected them: from the frame they
/// are added, in [`TerrainSystems::Edits`](crate::TerrainSystems::Edits)).
///
/// It is the full-detail surface: at a vertex of a level-0 chunk (`x`, `z` equal to the
/// vertex's, as `f64`, e.g. from [`TerrainConfig::vertex_position`]) it returns exactly the
/// vertex's height and normal, since both come from the same grid path over the same position
/// with the same detail. Between vertices it returns the true surface, which the mesh
/// approximates with triangles; far chunks (coarser levels) leave out what their spacing cannot
/// show, so there the drawn ground is a smoothed version of this one.
#[derive(Resource, Reflect, Clone, Debug)]
#[reflect(Resource, Debug)]
pub struct TerrainSampler {
    #[reflect(ignore)]
    tables: Arc<NoiseTables>,
    /// The noise and height scale, or the biomes.
    #[reflect(ignore)]
    ground: GroundRecipe,
    /// Metres between the vertices of a level-0 chunk: the detail the sampler shows.
    #[reflect(ignore)]
    spacing: f64,
    /// The stamps and paths.
    #[reflect(ignore)]
    edits: Arc<GroundEdits>,
    /// The sea level, the waves and the clouds.
    #[reflect(ignore)]
    weather: Arc<Weather>,
}

impl TerrainSampler {
    /// A sampler for `config` (with the config's own stamps and paths), sharing `tables`. Tables built from another seed than
    /// `config.seed` are not used (the sampler would disagree with every chunk): a warning is
    /// logged and the sampler builds its own.
    pub fn new(tables: Arc<NoiseTables>, config: &TerrainConfig) -> Self {
        let tables = if tables.seed() == config.seed {
            tables
        } else {
            warn!(
                "TerrainSampler::new: tables of seed {} for a config of seed {}; building the config's own",
                tables.seed(),
                config.seed
            );
            Arc::new(NoiseTables::from_seed(config.seed))
        };
        Self {
            tables,
            ground: GroundRecipe::of(config),
            spacing: config.vertex_spacing(0),
            edits: Arc::new(config_edits(config)),
            weather: Arc::new(Weather::of(config)),
        }
    }

    /// Puts the sea and sky of `config` in force (a change of the look keeps the ground).
    pub(crate) fn set_weather(&mut self, config: &TerrainConfig) {
        let weather = Weather::of(config);
        if *self.weather != weather {
            self.weather = Arc::new(weather);
        }
    }

    /// The stamps and paths the ground includes.
    pub fn edits(&self) -> &Arc<GroundEdits> {
        &self.edits
    }

    /// Puts `edits` in force (the edit system's).
    pub(crate) fn set_edits(&mut self, edits: Arc<GroundEdits>) {
        self.edits = edits;
    }

    /// Whether a stamp or path with `clear_scatter` keeps the scatter layers off `(x, z)`.
    pub fn is_cleared(&self, x: f64, z: f64) -> bool {
        self.edits.clears(DVec2::new(x, z))
    }

    /// The detail of the full-detail surface: what a level-0 chunk shows.
    pub(crate) fn detail(&self) -> Detail {
        Detail::at_spacing(self.spacing)
    }

    /// Height, unit normal and crease mask at `(x, z)`; flat ground at 0 if the position cannot
    /// be sampled (never for finite coordinates).
    pub(crate) fn sample(&self, x: f64, z: f64) -> (f32, Vec3, f32) {
        // One sample of a grid with a level-0 chunk's step: the same detail, the same bits.
        let spec = GridSpec::new([x, z], self.spacing, [1, 1]);
        with_thread_samples(|samples| {
            let filled = samples.fill(
                &self.tables,
                &self.ground,
                &self.edits,
                &spec,
                self.detail(),
            );
            match (filled, samples.ground(0), samples.crease(0)) {
                (Ok(()), Some((h, n)), Some(c)) => (h, n, c),
                _ => (0.0, Vec3::Y, 0.5),
            }
        })
    }

    /// Height and unit normal at `(x, z)`.
    pub fn height_and_normal(&self, x: f64, z: f64) -> (f32, Vec3) {
        let (h, n, _) = self.sample(x, z);
        (h, n)
    }

    /// Ground height in metres at `(x, z)`.
    pub fn height(&self, x: f64, z: f64) -> f32 {
        self.sample(x, z).0
    }

    /// Unit ground normal at `(x, z)`.
    pub fn normal(&self, x: f64, z: f64) -> Vec3 {
        self.sample(x, z).1
    }

    /// The density of the config's clouds over `(x, z)` at time `t` (seconds, as
    /// [`TerrainClock`](crate::TerrainClock) counts them): 0 clear to 1 overcast, what the sky
    /// shows over that point and what shades the ground under it (with the sun overhead); 0
    /// for a config without `clouds`. Continuous in space and time, the same in every run.
    pub fn cloud_cover(&self, x: f64, z: f64, t: f64) -> f32 {
        match &self.weather.clouds {
            Some(clouds) => cloud_cover(&self.tables, clouds, x, z, t),
            None => 0.0,
        }
    }

    /// The height of the sea's surface at `(x, z)` at time `t` (seconds, as
    /// [`TerrainClock`](crate::TerrainClock) counts them): `sea_level` plus the config's
    /// `waves`, which fade to nothing where the water is shallow, so it is `sea_level` itself on
    /// land (the waves fade with the depth of the water over the ground at the point, so the sea
    /// never rises over dry land). `None` for a config without `water`, or for a coordinate
    /// that is not finite. It is the surface the grid of waves around the first viewer draws
    /// ([`TerrainWaves`](crate::TerrainWaves)), at its vertices within a millimetre, out to
    /// where the grid fades into the flat far sea, whose waves are in its shading only.
    pub fn water_height(&self, x: f64, z: f64, t: f64) -> Option<f32> {
        let sea_level = self.weather.sea_level?;
        if !(x.is_finite() && z.is_finite() && t.is_finite()) {
            return None;
        }
        let Some(waves) = &self.weather.waves else {
            return Some(sea_level);
        };
        let shore = self.shore(sea_level, waves.shore_depth, x, z);
        if shore == 0.0 {
            return Some(sea_level);
        }
        let (shape, _) = wave_surface(&self.tables, waves, x, z, t);
        Some(sea_level + waves.height * shore * shape as f32)
    }

    /// The unit normal of the sea's surface at `(x, z)` at time `t`: the slope of the waves
    /// (at the height the shore leaves them; the fade itself is taken as level, as the drawn
    /// sea shades it); straight up without waves or water.
    pub fn water_normal(&self, x: f64, z: f64, t: f64) -> Vec3 {
        let (Some(sea_level), Some(waves)) = (self.weather.sea_level, &self.weather.waves) else {
            return Vec3::Y;
        };
        let shore = self.shore(sea_level, waves.shore_depth, x, z);
        if shore == 0.0 || !(x.is_finite() && z.is_finite() && t.is_finite()) {
            return Vec3::Y;
        }
        let (_, slope) = wave_surface(&self.tables, waves, x, z, t);
        let k = f64::from(waves.height * shore);
        Vec3::new((-k * slope[0]) as f32, 1.0, (-k * slope[1]) as f32).normalize_or(Vec3::Y)
    }

    /// The share of the waves' full height at `(x, z)`: 0 on land and in the first quarter
    /// metre of water, rising to 1 where the water is `waves.shore_depth` deeper, by the depth of
    /// the water over the ground there; 0 without waves or water.
    pub fn wave_share(&self, x: f64, z: f64) -> f32 {
        match (self.weather.sea_level, &self.weather.waves) {
            (Some(sea_level), Some(waves)) => self.shore(sea_level, waves.shore_depth, x, z),
            _ => 0.0,
        }
    }

    /// How tall the waves are at `(x, z)` for the depth of water there (see
    /// `weather::shore_factor`).
    fn shore(&self, sea_level: f32, shore_depth: f32, x: f64, z: f64) -> f32 {
        shore_factor(self.height(x, z), sea_level, shore_depth)
    }

    /// The crease mask at `(x, z)`: 0 on ridges and peaks, 1 in gullies and valley floors, ½
    /// where the noise has no erosion.
    pub fn crease(&self, x: f64, z: f64) -> f32 {
        self.sample(x, z).2
    }

    /// Ground height at `p = (x, z)`.
    pub fn height_at(&self, p: Vec2) -> f32 {
        self.height(p.x as f64, p.y as f64)
    }

    /// The ground under (or over) `p`: the point on the ground with `p`'s `x` and `z`, and the
    /// unit normal there.
    pub fn ground(&self, p: Vec3) -> (Vec3, Vec3) {
        let (h, n, _) = self.sample(p.x as f64, p.z as f64);
        (Vec3::new(p.x, h, p.z), n)
    }

    /// Heights at `points` (`x`, `z`) into `out`, pairwise, without allocating: as many as the
    /// shorter of the two holds.
    pub fn heights_at(&self, points: &[Vec2], out: &mut [f32]) {
        for (p, h) in points.iter().zip(out) {
            *h = self.height_at(*p);
        }
    }

    /// Heights and unit normals of the `size[0] × size[1]` grid (row-major) whose sample
    /// `(i, j)` is at `origin + (i, j) · spacing`, in one pass of the grid path (much faster than
    /// one query per point). `heights` and `normals` must hold `size[0] · size[1]` entries;
    /// `false` (nothing written) if they do not, or if the grid is more than the ground takes
    /// at once (2²⁶ samples; with biomes, at full detail, a square of about 130 km at the world
    /// preset's blend): sample such an area in tiles.
    pub fn sample_grid(
        &self,
        origin: [f64; 2],
        spacing: f64,
        size: [usize; 2],
        heights: &mut [f32],
        normals: &mut [Vec3],
    ) -> bool {
        let spec = GridSpec::new(origin, spacing, size);
        let fits = spec
            .len()
            .is_some_and(|n| heights.len() == n && normals.len() == n);
        if !fits {
            return false;
        }
        with_thread_samples(|samples| {
            if samples
                .fill(
                    &self.tables,
                    &self.ground,
                    &self.edits,
                    &spec,
                    self.detail(),
                )
                .is_err()
            {
                return false;
            }
            for (k, (h, n)) in heights.iter_mut().zip(normals.iter_mut()).enumerate() {
                (*h, *n) = samples.ground(k).unwrap_or((0.0, Vec3::Y));
            }
            true
        })
    }

    /// The shared noise tables.
    pub fn tables(&self) -> &Arc<NoiseTables> {
        &self.tables
    }

    /// The noise the heights come from (of a config without biomes; with biomes, each biome
    /// has its own).
    pub fn noise(&self) -> &Fbm {
        &self.ground.noise
    }

    /// Metres per unit of noise (of a config without biomes).
    pub fn height_scale(&self) -> f32 {
        self.ground.height_scale
    }

    /// The name of the biome that weighs most at `(x, z)` (the first of equals); `None` for a
    /// config without biomes.
    pub fn biome(&self, x: f64, z: f64) -> Option<&str> {
        let biomes = self.ground.biomes.as_ref()?;
        let weights = biomes.weights_at(&self.tables, x, z, self.spacing);
        let (k, _) = weights
            .into_iter()
            .reduce(|best, next| if next.1 > best.1 { next } else { best })?;
        biomes.list().get(k).map(|b| b.name.as_str())
    }

    /// The biomes that weigh in at `(x, z)` and their weights (summing to 1), in the config's
    /// order; empty for a config without biomes. The full-detail ground there is the weighted
    /// mean of these biomes' grounds.
    pub fn biome_weights(&self, x: f64, z: f64) -> Vec<(&str, f32)> {
        let Some(biomes) = self.ground.biomes.as_ref() else {
            return Vec::new();
        };
        biomes
            .weights_at(&self.tables, x, z, self.spacing)
            .into_iter()
            .filter_map(|(k, w)| Some((biomes.list().get(k)?.name.as_str(), w)))
            .collect()
    }

    /// Each biome's weight at every sample of the grid of `size` samples `spacing` apart from
    /// `origin` (row-major, `x` first), for the biomes that weigh in somewhere on it:
    /// `(index in the config's biomes, weights)`. The weights are those a chunk of that vertex
    /// spacing blends its ground with (borders smoothed over its coarser lattice). Nothing
    /// without biomes or for a grid too large to address. (The sea's look follows the biomes
    /// with it.)
    #[cfg(feature = "render")]
    pub(crate) fn biome_weight_grid(
        &self,
        origin: [f64; 2],
        spacing: f64,
        size: [usize; 2],
    ) -> Vec<(usize, Vec<f32>)> {
        let spec = GridSpec::new(origin, spacing, size);
        let (Some(biomes), Some(n)) = (self.ground.biomes.as_ref(), spec.len()) else {
            return Vec::new();
        };
        let mut window = super::weights::WeightWindow::default();
        if !biomes.weight_window(&self.tables, &spec, spacing, &mut window) {
            return Vec::new();
        }
        let (mut weights, mut gradients) = (Vec::new(), Vec::new());
        biomes.fill_weights(&spec, &window, &mut weights, &mut gradients);
        (window.live.iter().enumerate())
            .filter_map(|(slot, &biome)| {
                Some((biome, weights.get(slot * n..(slot + 1) * n)?.to_vec()))
            })
            .collect()
    }

    /// What the ground is made of (the jobs of chunks, colliders and scatter carry the same).
    pub(crate) fn ground_recipe(&self) -> &GroundRecipe {
        &self.ground
    }
}
