#!/usr/bin/env bash
# Checks the shaders' weather against the sampler (a compute shader), then renders every preset
# with the fly example's screenshot mode under Xvfb (software Vulkan) and fails unless each
# picture shows terrain. Installs xvfb and mesa-vulkan-drivers when missing.
# Usage: scripts/render-smoke.sh [SHOT...], a shot being [EXAMPLE/]PRESET[:KIND][@VIEW], the
# example `fly` unless named, KIND one of the fly example's `TERRAIN_SHOT`s (closeup, stamps, horizon,
# border, shore, sunset, flight, panel, far) and VIEW a view distance in metres. Default: the world preset (biomes: sea,
# coast, lowlands and snowy mountains) to its 30 km horizon, and a border between two of its
# biomes' looks from 450 m up, and into its setting sun; the default, islands and dunes
# presets from the air (the default one also 10 000 km out, through the floating origin), and the islands' waves on a shore; the alps among their clouds and the
# default preset to a 30 km horizon; the default preset
# from 2 m above the ground, with a levelled site and a crater, in a 300 m/s flight (a picture every 12 frames, then the settled
# one) and with the settings panel open; and the walk example on the default preset with its
# road and its 100 balls.
# Builds the example in the dev profile, as the tests are, so CI compiles Bevy once.
# The pictures and logs land in $CARGO_TARGET_DIR/render-smoke/ (or $RENDER_SMOKE_OUT).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/bpt-target}"
icd=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
missing=()
command -v xvfb-run >/dev/null || missing+=(xvfb xauth)
[ -f "$icd" ] || missing+=(mesa-vulkan-drivers)
# winit's X11 backend loads these at run time.
for lib in libX11.so.6 libXcursor.so.1 libXrandr.so.2 libXi.so.6 libxkbcommon-x11.so.0; do
  ldconfig -p | grep -q "$lib" || { missing+=(libx11-6 libxcursor1 libxrandr2 libxi6 libxkbcommon-x11-0); break; }
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
export VK_ICD_FILENAMES="$icd"
# The example binary runs outside `cargo run`: tell Bevy where `assets/` is.
export BEVY_ASSET_ROOT="$PWD"
# `--workspace`: the same feature unification as `cargo test --workspace`, so Bevy builds once.
cargo build --workspace --locked --examples
# The shaders' clouds and waves against the sampler, as a compute shader on lavapipe.
cargo test --workspace --locked --test it -- --ignored weather_shader --nocapture
out="${RENDER_SMOKE_OUT:-$CARGO_TARGET_DIR/render-smoke}"
mkdir -p "$out"
status=0
shots=("$@")
((${#shots[@]})) || shots=(world:horizon world:border default default:far alps:horizon default:horizon@30000 islands islands:shore world:sunset dunes default:closeup default:stamps default:flight default:panel walk/default)
for shot in "${shots[@]}"; do
  example=fly
  if [[ $shot == */* ]]; then example=${shot%%/*}; shot=${shot#*/}; fi
  view=
  if [[ $shot == *@* ]]; then view=${shot##*@}; shot=${shot%@*}; fi
  preset=${shot%%:*}
  kind=${shot#"$preset"}; kind=${kind#:}
  name=$([ "$example" = fly ] && echo "$preset${kind:+-$kind}${view:+-$view}" || echo "$example-$preset${kind:+-$kind}")
  rm -f "$out/$name.png" "$out/$name"-frame*.png
  start=$(date +%s)
  if TERRAIN_PRESET=$preset TERRAIN_SHOT=$kind TERRAIN_VIEW=$view TERRAIN_SCREENSHOT="$out/$name.png" \
      timeout 600 xvfb-run -a -s "-screen 0 1280x720x24" "$CARGO_TARGET_DIR/debug/examples/$example" >"$out/$name.log" 2>&1; then
    echo "$name: rendered in $(( $(date +%s) - start )) s"
    shopt -s nullglob; frames=("$out/$name"-frame*.png); shopt -u nullglob
    python3 scripts/check_screenshot.py "$out/$name.png" "${frames[@]}" || status=1
  else
    echo "$name: the $example example failed; its last lines:"; tail -20 "$out/$name.log"; status=1
  fi
done
exit $status
