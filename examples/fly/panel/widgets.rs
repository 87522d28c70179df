//! The panel's widgets: sliders over a field's typical values from the config's range table,
//! soft ranges, choices and colors.

use bevy_egui::egui::{self, Ui};
use bevy_perlin_terrain::SoftRange;
use bevy_perlin_terrain::config::FieldRange;
use std::ops::RangeInclusive;

/// A slider on `value` within `range` that never rewrites a value the user did not touch.
pub(super) fn slider<'a, N: egui::emath::Numeric>(
    value: &'a mut N,
    range: RangeInclusive<N>,
    text: &str,
) -> egui::Slider<'a> {
    egui::Slider::new(value, range)
        .text(text)
        .clamping(egui::SliderClamping::Edits)
}

/// A number a slider edits, and the typical values of its field's range in its own type.
pub(super) trait Ranged: egui::emath::Numeric {
    /// [`FieldRange::typical`] as a slider's span.
    fn span(range: &FieldRange) -> RangeInclusive<Self>;
}

impl Ranged for f32 {
    fn span(range: &FieldRange) -> RangeInclusive<f32> {
        range.typical_f32()
    }
}

impl Ranged for f64 {
    fn span(range: &FieldRange) -> RangeInclusive<f64> {
        range.typical_f64()
    }
}

impl Ranged for u32 {
    fn span(range: &FieldRange) -> RangeInclusive<u32> {
        range.typical_u32()
    }
}

/// A slider on `value` over the typical values of its field's `range` (see
/// `bevy_perlin_terrain::config::ranges`).
pub(super) fn ranged<'a, N: Ranged>(
    value: &'a mut N,
    range: &FieldRange,
    text: &str,
) -> egui::Slider<'a> {
    slider(value, N::span(range), text)
}

/// A soft range's three numbers on sliders: `min` and `max` over the typical values of `ends`,
/// `fade` over those of `fade`.
pub(super) fn soft_range(
    ui: &mut Ui,
    name: &str,
    r: &mut SoftRange,
    ends: &FieldRange,
    fade: &FieldRange,
) {
    let span = ends.typical_f32();
    ui.label(name);
    ui.add(slider(&mut r.min, span.clone(), "min"));
    ui.add(slider(&mut r.max, r.min..=*span.end(), "max"));
    ui.add(ranged(&mut r.fade, fade, "fade"));
}

/// The grid sizes `2^k + 1` among the typical values of `range` (a chunk's or a collider's
/// resolution).
pub(super) fn grid_sizes(range: &FieldRange) -> Vec<u32> {
    let typical = range.typical_u32();
    (1..31)
        .map(|k| (1u32 << k) + 1)
        .filter(|n| typical.contains(n))
        .collect()
}

/// A combo box choosing among `options`.
pub(super) fn choose<T: PartialEq + Copy + std::fmt::Debug>(
    ui: &mut Ui,
    label: &str,
    value: &mut T,
    options: &[T],
) {
    egui::ComboBox::from_label(label)
        .selected_text(format!("{value:?}"))
        .show_ui(ui, |ui| {
            for &o in options {
                ui.selectable_value(value, o, format!("{o:?}"));
            }
        });
}

/// A color (linear RGB), written back only when the picker changes it.
pub(super) fn color(ui: &mut Ui, label: &str, c: &mut [f32; 3]) {
    ui.horizontal(|ui| {
        let mut edit = *c;
        if ui.color_edit_button_rgb(&mut edit).changed() {
            *c = edit;
        }
        ui.label(label);
    });
}
