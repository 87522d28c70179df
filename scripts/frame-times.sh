#!/usr/bin/env bash
# Frame times of the horizon on a machine with a GPU, through the fly example's frame-time mode
# (`examples/fly/frames.rs`: no window, 1920 × 1080, every frame waits for the GPU): the default
# preset at a 30 km view, the alps preset at its own 32 km and the world preset (biomes) at its
# own view, standing 900 m up once every chunk is built, then flying at 300 m/s. Prints each
# phase's frames, median, 99th percentile and worst.
#
#   scripts/frame-times.sh OUT_DIR [FLY_BINARY]
#
# Without FLY_BINARY it builds the example in release first.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/frame-times.sh OUT_DIR [FLY_BINARY]}
fly=${2:-}
if [ -z "$fly" ]; then
  cargo build --release --locked --example fly
  fly="${CARGO_TARGET_DIR:-target}/release/examples/fly"
fi
export BEVY_ASSET_ROOT="$PWD"
mkdir -p "$out"
logs=$(mktemp -d)
status=0
run() {
  local name=$1
  shift
  if env "$@" TERRAIN_FRAME_TIMES="$out/$name.txt" timeout 300 "$fly" >"$logs/$name.log" 2>&1; then
    echo "== $name"
    head -2 "$out/$name.txt"
  else
    echo "== $name failed; its last lines:"
    tail -20 "$logs/$name.log"
    status=1
  fi
  grep -E "AdapterInfo|frame times" "$logs/$name.log" | sed 's/\x1b\[[0-9;]*m//g' | tail -4 >&2 || true
}
run default TERRAIN_PRESET=default TERRAIN_VIEW=30000
run alps TERRAIN_PRESET=alps
run world TERRAIN_PRESET=world
exit $status
