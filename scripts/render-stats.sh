#!/usr/bin/env bash
# Counts the GPU's work in the standard views with the fly example's render-statistics mode
# (`TERRAIN_RENDER_STATS`, see examples/fly/stats.rs) on the software renderer under Xvfb, and
# prints one table: the triangles submitted (all passes, the shadow cascades counted as casters
# times triangles), the main pass's fragment-shader invocations per screen pixel and the median
# frame time (the software renderer's CPU time: compare it only within one run).
# Usage: scripts/render-stats.sh [SHOT...], a shot being NAME=PRESET:CAMERA[:SPEED[:VIEW]] with
# CAMERA as `TERRAIN_CAMERA` (x,z,height,yaw,pitch); default: the standard views below.
# `FLY=path/to/fly` measures another build of the example (old against new, in one run).
# The files land in $CARGO_TARGET_DIR/render-stats/ (or $RENDER_STATS_OUT).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/bpt-target}"
export VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.x86_64.json
export BEVY_ASSET_ROOT="$PWD"
fly="${FLY:-}"
if [ -z "$fly" ]; then
  cargo build --workspace --locked --examples
  fly="$CARGO_TARGET_DIR/debug/examples/fly"
fi
out="${RENDER_STATS_OUT:-$CARGO_TARGET_DIR/render-stats}"
mkdir -p "$out"
shots=("$@")
((${#shots[@]})) || shots=(
  "horizon=default:0,0,900,16.7,-5.1:0:30000"
  "flight=default:0,0,120,16.7,-6.8:300"
  "alps=alps:0,0,900,16.7,-5.1"
  "world=world:0,0,900,16.7,-5.1"
  "closeup=default:0,0,2,16.7,-7"
  "down=default:0,0,300,0,-90"
)
status=0
printf '%-9s %12s %12s %14s %10s\n' shot main_tris all_tris frag_per_px frame_ms
for shot in "${shots[@]}"; do
  name=${shot%%=*}; rest=${shot#*=}
  IFS=: read -r preset camera speed view <<<"$rest"
  file="$out/$name.txt"
  rm -f "$file" "$out/$name.png"
  if TERRAIN_PRESET=$preset TERRAIN_CAMERA=$camera TERRAIN_SPEED=${speed:-0} TERRAIN_VIEW=${view:-} \
      TERRAIN_RENDER_STATS="$file" timeout 900 xvfb-run -a -s "-screen 0 1280x720x24" "$fly" \
      >"$out/$name.log" 2>&1 && [ -s "$file" ]; then
    main=$(awk '$1 == "pass" && $2 ~ /main_opaque_pass_3d$/ { print $4 }' "$file")
    read -r all fpp ms < <(awk '$1 == "frame" { print $9, $11, $13 }' "$file")
    printf '%-9s %12s %12s %14s %10s\n' "$name" "${main:-?}" "$all" "$fpp" "$ms"
  else
    echo "$name: the fly example failed; its last lines:"; tail -20 "$out/$name.log"; status=1
  fi
done
exit $status
