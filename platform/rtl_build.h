#pragma once
// RTL designs as rsoc loads them: a core's Verilog/SystemVerilog sources verilated with Debian's `verilator`,
// compiled with a shim that speaks the register port (and the stream port) (scenarios/rtl/README.md,
// models/rtl_core.h) into a shared object, and loaded (dlopen). The cache: each build is a folder of the
// cache (rtl_cache_dir()) named by the SHA-256 of the top module, the protocol, `verilator --version`, the
// shim's ABI and every listed source's name and bytes; its manifest records the digest of every file
// Verilator read (the `include`d ones too), so that a changed include rebuilds as a changed source does, and
// an unchanged design is loaded without a build (a second run, every point of a sweep, every core of the same
// design). Builds are made in a folder of their own and renamed into place under a lock (flock) on the entry,
// so that concurrent processes build a design once and never load a half-written one. Nothing else in the
// cache is touched.

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/rtl_core.h"

namespace rsoc::platform {

struct RtlSources {
  std::vector<std::string> sources;  // paths as the process opens them (the first is the top's, by custom)
  std::string top;                   // the top module
  bool stream = false;               // protocol stream: the stream port beside the register port
};

// Why a design cannot be built or loaded. `source` is the index of the source it is about (-1: the design as
// a whole, or its `top`); the message says what and where (Verilator's own file:line lines for its errors).
class RtlBuildError : public std::runtime_error {
 public:
  RtlBuildError(const std::string& what, int source = -1, bool about_top = false)
      : std::runtime_error(what), source_(source), about_top_(about_top) {}
  int source() const { return source_; }
  bool about_top() const { return about_top_; }

 private:
  int source_;
  bool about_top_;
};

// The cache folder: $RSOC_RTL_CACHE, else $XDG_CACHE_HOME/rsoc/rtl, else ~/.cache/rsoc/rtl.
std::filesystem::path rtl_cache_dir();

// The design, from the cache or built into it. Throws RtlBuildError. A design loaded once in this process is
// shared by every later load of the same sources.
std::shared_ptr<const models::RtlDesign> load_rtl_design(const RtlSources& design);

}  // namespace rsoc::platform
