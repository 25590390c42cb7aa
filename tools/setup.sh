#!/usr/bin/env bash
# Installs from Debian whatever the build needs and is missing (apt-get runs only then), then configures and
# builds rsoc in ./build. Running it again does nothing but a no-op incremental build.
#   tools/setup.sh            # optimised build with line tables in ./build
#   BUILD_DIR=out tools/setup.sh
#   tools/setup.sh --packages-only  # only the packages (tools/check.sh and tools/fuzz.sh start with this)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  cmake g++ make pkg-config          # toolchain
  ccache                             # the compiler cache (CMakeLists.txt; -DRSOC_CCACHE=OFF goes without)
  libsystemc-dev                     # SystemC 2.3.4 + TLM-2.0 (pkg-config systemc), built as C++17
  libboost-program-options-dev       # the rsoc command line
  nlohmann-json3-dev                 # scenarios and result files
  libssl-dev                         # SHA-256 provenance; reference ciphers in tests
  libgmp-dev                         # modexp arithmetic
  libgtest-dev libbenchmark-dev      # tests and benchmarks
  python3-matplotlib                 # tools/plot.py (run with /usr/bin/python3)
  parallel                           # GNU Parallel: rsoc sweep --emit parallel (and its test)
  gcc-arm-none-eabi python3-unicorn  # tools/hsm_fmc_cycles.py: the HSM firmware's FMC paths, compiled and run
  libunicorn-dev                     # the instruction-set CPU's emulator (models/riscv_hart.h)
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf  # the software it runs (scenarios/software)
  verilator                          # RTL cores (scenarios/rtl), verilated when a scenario is loaded
)

tools/install_missing.sh "${packages[@]}"
if [ "${1:-}" = --packages-only ]; then exit 0; fi

build="${BUILD_DIR:-build}"
if [ ! -f "$build/CMakeCache.txt" ]; then
  # -O2 with line tables (-g1): backtraces, profiles and sanitizer reports name files and lines; a quarter less
  # compile time than full debug information (-g). For a debugger's view of variables: CMAKE_BUILD_TYPE=Debug.
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" >&2
fi
cmake --build "$build" -j "$(nproc)" >&2
