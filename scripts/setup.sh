#!/usr/bin/env bash
# Installs everything simt-sim needs to build and test, on Debian 12, as root
# (or through sudo). Idempotent: running it again changes nothing.
#   bash scripts/setup.sh        the packages the build and the tests need
#   bash scripts/setup.sh mpi    the same, plus Open MPI for `mpirun simt-sim sweep` (optional:
#                                without it the build leaves the MPI driver out)
set -euo pipefail
packages=(
  build-essential cmake                 # compiler and build
  libboost-program-options-dev          # command line
  libyaml-cpp-dev                       # configs
  libfccp-dev                           # CSV reading (libfccp/csv.h)
  libnlopt-cxx-dev                      # simt-sim calibrate: derivative-free fitting (NLopt)
  catch2                                # tests (Catch2 v2)
  libsfml-dev xvfb                      # viz/ and its headless test (Xvfb)
  fonts-dejavu-core libgl1-mesa-dri     # viz/: text, and software OpenGL under Xvfb
  python3 python3-matplotlib           # tools/plot_validation.py, tools/plot_sweep.py
)
for component in "$@"; do
  case "$component" in
    mpi) packages+=(libopenmpi-dev openmpi-bin) ;;  # simt-sim sweep over MPI ranks (sim/sweep_mpi/)
    *) echo "setup: unknown component '$component' (known: mpi)" >&2; exit 1 ;;
  esac
done
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
