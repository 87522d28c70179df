//! The shaders' weather against the sampler: `weather.wgsl` runs as a compute shader on a
//! Vulkan adapter (the software renderer CI's render test installs, lavapipe) at 10 000 points,
//! and its Perlin noise, cloud cover, sea height and sea normal are compared with perlin-core's
//! and `TerrainSampler`'s. Needs an adapter, so it is ignored by a plain `cargo test`;
//! `scripts/render-smoke.sh` runs it (`cargo test -- --ignored weather_shader`).

use bevy::math::DVec3;
use bevy::prelude::*;
use bevy::render::render_resource::encase::UniformBuffer;
use bevy_perlin_terrain::WeatherUniform;
use bevy_perlin_terrain::perlin_core::{NoiseTables, Perlin};
use bevy_perlin_terrain::prelude::*;
use std::sync::Arc;

/// Points compared.
const POINTS: usize = 10_000;

/// The kernel: for each point `(x, z, shore, t-noise)`, the noise and its gradient, the cloud
/// cover, the sea's height and its normal.
const KERNEL: &str = r"
@group(0) @binding(0) var<storage, read> points: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> noise: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> sky: array<vec4<f32>>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i >= arrayLength(&points) {
        return;
    }
    let q = points[i];
    noise[i] = perlin3(vec3(q.x * 0.0137, q.y * 0.0191, q.w));
    let n = water_normal(q.xy, q.z);
    sky[i] = vec4(cloud_cover(q.xy), water_height(q.xy, q.z), n.x, n.z);
}
";

/// `weather.wgsl` as one module with the kernel: its import path line dropped, its bind group
/// the kernel's.
fn shader() -> String {
    let library = include_str!("../../src/render/weather.wgsl");
    let body: String = library
        .lines()
        .filter(|l| !l.starts_with("#define_import_path"))
        .collect::<Vec<_>>()
        .join("\n")
        .replace("#{MATERIAL_BIND_GROUP}", "0");
    format!("{body}\n{KERNEL}")
}

/// Runs the kernel over `points` with `uniform`: (noise, sky) per point.
fn run_on_gpu(uniform: &WeatherUniform, points: &[[f32; 4]]) -> (Vec<[f32; 4]>, Vec<[f32; 4]>) {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::VULKAN,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = bevy::tasks::block_on(
        instance.request_adapter(&wgpu::RequestAdapterOptions::default()),
    )
    .expect(
        "a Vulkan adapter (install mesa-vulkan-drivers and set VK_ICD_FILENAMES to lavapipe's)",
    );
    let (device, queue) =
        bevy::tasks::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default()))
            .expect("a device");
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("weather check"),
        source: wgpu::ShaderSource::Wgsl(shader().into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("weather check"),
        layout: None,
        module: &module,
        entry_point: Some("main"),
        compilation_options: Default::default(),
        cache: None,
    });
    let mut bytes = UniformBuffer::new(Vec::<u8>::new());
    bytes.write(uniform).expect("the uniform packs");
    let bytes = bytes.into_inner();
    let buffer = |size: u64, usage: wgpu::BufferUsages| {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size,
            usage,
            mapped_at_creation: false,
        })
    };
    let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
    let out_size = (points.len() * 16) as u64;
    let weather = buffer(
        bytes.len() as u64,
        wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
    );
    let input = buffer(
        out_size,
        wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
    );
    let noise = buffer(out_size, storage);
    let sky = buffer(out_size, storage);
    let read = [
        buffer(
            out_size,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        ),
        buffer(
            out_size,
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        ),
    ];
    queue.write_buffer(&weather, 0, &bytes);
    let flat: Vec<u8> = points
        .iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    queue.write_buffer(&input, 0, &flat);
    let layout = pipeline.get_bind_group_layout(0);
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: input.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: noise.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: sky.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 120,
                resource: weather.as_entire_binding(),
            },
        ],
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(points.len().div_ceil(64) as u32, 1, 1);
    }
    encoder.copy_buffer_to_buffer(&noise, 0, &read[0], 0, out_size);
    encoder.copy_buffer_to_buffer(&sky, 0, &read[1], 0, out_size);
    queue.submit([encoder.finish()]);
    for r in &read {
        r.slice(..)
            .map_async(wgpu::MapMode::Read, |result| result.expect("mapped"));
    }
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("the GPU finishes");
    let values = |b: &wgpu::Buffer| -> Vec<[f32; 4]> {
        let data = b.slice(..).get_mapped_range();
        data.chunks_exact(16)
            .map(|c| {
                std::array::from_fn(|k| {
                    f32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]])
                })
            })
            .collect()
    };
    (values(&read[0]), values(&read[1]))
}

#[test]
#[ignore = "needs a Vulkan adapter: scripts/render-smoke.sh runs it on lavapipe"]
fn weather_shader_matches_the_sampler_at_ten_thousand_points() {
    // At home, and seen from a floating origin 10 000 km out on both axes (a 2 km grid's
    // cell): the shader adds the uniform's origin to its positions, the octaves hold the rest.
    compare_at(DVec3::ZERO);
    compare_at(DVec3::new(1e7 + 4000.0, 2000.0, -1e7 - 2000.0));
}

/// The shader's weather, drawn in a world whose origin is at `origin`, against the sampler at
/// the same true positions.
fn compare_at(origin: DVec3) {
    let config = TerrainConfig {
        clouds: Some(Clouds {
            coverage: 0.5,
            softness: 0.2,
            ..Clouds::default()
        }),
        waves: Some(Waves {
            height: 2.0,
            ..Waves::default()
        }),
        ..TerrainConfig::default()
    };
    let tables = Arc::new(NoiseTables::from_seed(config.seed));
    let sampler = TerrainSampler::new(tables.clone(), &config);
    // A moment a day and a half in, far past any shader clock's wrap.
    let t = 131_072.25;
    let uniform = WeatherUniform::seen_from(&tables, &config, t, Vec3::new(0.3, 0.8, 0.2), origin);
    let shift = uniform.origin;
    // Points over 4 km around the origin, with the shore factor the sea's vertices carry there
    // (the sampler's own, as the sea's grid computes it) and a time coordinate for the noise.
    let mut s = 12_345u64;
    let mut next = move || {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let points: Vec<[f32; 4]> = (0..POINTS)
        .map(|_| {
            let (x, z) = ((next() - 0.5) * 4000.0, (next() - 0.5) * 4000.0);
            let (x, z) = (x as f32, z as f32);
            let shore = sampler.wave_share(origin.x + f64::from(x), origin.z + f64::from(z));
            [x, z, shore, (next() * 200.0) as f32]
        })
        .collect();
    // What the shader takes: world positions plus the uniform's origin, in `f32`.
    let shifted: Vec<[f32; 4]> = points
        .iter()
        .map(|p| [p[0] + shift.x, p[1] + shift.z, p[2], p[3]])
        .collect();
    let (noise, sky) = run_on_gpu(&uniform, &shifted);
    let perlin = Perlin::default();
    let (mut worst_noise, mut worst_cover, mut worst_height, mut worst_normal) =
        (0.0f64, 0.0f32, 0.0f32, 0.0f32);
    for ((p, q), (n, w)) in points.iter().zip(&shifted).zip(noise.iter().zip(&sky)) {
        let (x, z) = (origin.x + f64::from(p[0]), origin.z + f64::from(p[1]));
        let (value, grad) = perlin.sample3_with_gradient(
            &tables,
            f64::from(q[0] * 0.0137),
            f64::from(q[1] * 0.0191),
            f64::from(q[3]),
        );
        worst_noise = worst_noise.max((value - f64::from(n[0])).abs()).max(
            (0..3)
                .map(|a| (grad[a] - f64::from(n[a + 1])).abs())
                .fold(0.0, f64::max),
        );
        worst_cover = worst_cover.max((sampler.cloud_cover(x, z, t) - w[0]).abs());
        let height = sampler.water_height(x, z, t).expect("a sea");
        worst_height = worst_height.max((height - w[1]).abs());
        let normal = sampler.water_normal(x, z, t);
        worst_normal = worst_normal
            .max((normal.x - w[2]).abs())
            .max((normal.z - w[3]).abs());
    }
    println!(
        "weather.wgsl vs CPU at {POINTS} points seen from {origin}: noise {worst_noise:.2e}, cloud cover {worst_cover:.2e}, sea height {worst_height:.2e} m, normal {worst_normal:.2e}"
    );
    assert!(worst_noise < 1e-5, "perlin3 differs by {worst_noise}");
    assert!(worst_cover < 1e-3, "cloud cover differs by {worst_cover}");
    assert!(
        worst_height < 1e-3,
        "sea height differs by {worst_height} m"
    );
    assert!(worst_normal < 1e-3, "sea normal differs by {worst_normal}");
}
