#!/usr/bin/env bash
# Installs from Debian whatever the build needs and is missing (apt-get runs only then), then configures and
# builds rsoc in ./build. Running it again does nothing but a no-op incremental build.
#   tools/setup.sh            # Release-with-debug-info build in ./build
#   BUILD_DIR=out tools/setup.sh
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake g++ make pkg-config          # toolchain
  libsystemc-dev                     # SystemC 2.3.4 + TLM-2.0 (pkg-config systemc), built as C++17
  libboost-program-options-dev       # the rsoc command line
  nlohmann-json3-dev                 # scenarios and result files
  libssl-dev                         # SHA-256 provenance; reference ciphers in tests
  libgmp-dev                         # modexp arithmetic
  libgtest-dev libbenchmark-dev      # tests and benchmarks
  python3-matplotlib                 # tools/plot.py (run with /usr/bin/python3)
  parallel                           # GNU Parallel: rsoc sweep --emit parallel (and its test)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then missing+=("$p"); fi
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

build="${BUILD_DIR:-build}"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >&2
fi
cmake --build "$build" -j "$(nproc)" >&2
