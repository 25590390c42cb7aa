#include "platform/rtl_build.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>

#include "platform/digest.h"
#include "platform/log.h"

extern char** environ;

namespace rsoc::platform {

namespace fs = std::filesystem;

namespace {

// The shim's ABI: bumped when the shim or RtlPort changes, so that the cache never loads an older one.
constexpr int kShimAbi = 2;
// How the model is compiled (part of the cache's key).
constexpr const char* kBuildFlags = "-fPIC OPT_FAST=-O1 OPT_SLOW=-O1; shim -O2";

// One port of the register port: its name, direction and width.
struct PortSpec {
  const char* name;
  bool input;
  unsigned width;
};
constexpr PortSpec kRegisterPort[] = {
    {"clk", true, 1},          {"rst", true, 1},        {"req_valid", true, 1},  {"req_write", true, 1},
    {"req_addr", true, 16},    {"req_wdata", true, 32}, {"req_ready", false, 1}, {"resp_valid", false, 1},
    {"resp_rdata", false, 32}, {"busy", false, 1},
};
constexpr PortSpec kStreamPort[] = {
    {"in_valid", true, 1},   {"in_data", true, 32},   {"in_last", true, 1},   {"in_ready", false, 1},
    {"out_valid", false, 1}, {"out_data", false, 32}, {"out_last", false, 1}, {"out_ready", true, 1},
};

// The shim compiled with the verilated model: the register port's signals (and with RSOC_STREAM the stream
// port's) in the layout of models::RtlPort, one rising edge per call.
constexpr const char* kShim =
    R"(// rsoc's shim of a verilated design behind the register port (platform/rtl_build.cpp)
#include <cstdint>
#include "Vrtl.h"
#include "verilated.h"
extern "C" {
struct rsoc_rtl_port {
  std::uint32_t rst, req_valid, req_write, req_addr, req_wdata, taken, req_ready, resp_valid, resp_rdata, busy;
  std::uint32_t in_valid, in_data, in_last, out_ready, in_taken, out_taken, out_word, out_word_last;
  std::uint32_t in_ready, out_valid, out_data, out_last;
};
int rsoc_rtl_abi() { return RSOC_SHIM_ABI; }
void* rsoc_rtl_create() {
  auto* context = new VerilatedContext;
  auto* model = new Vrtl(context, "rtl");
  model->clk = 0;
  model->eval();
  return model;
}
void rsoc_rtl_destroy(void* p) {
  auto* model = static_cast<Vrtl*>(p);
  VerilatedContext* context = model->contextp();
  model->final();
  delete model;
  delete context;
}
void rsoc_rtl_edge(void* p, rsoc_rtl_port* s) {
  auto* m = static_cast<Vrtl*>(p);
  m->rst = s->rst;
  m->req_valid = s->req_valid;
  m->req_write = s->req_write;
  m->req_addr = s->req_addr;
  m->req_wdata = s->req_wdata;
#if RSOC_STREAM
  m->in_valid = s->in_valid;
  m->in_data = s->in_data;
  m->in_last = s->in_last;
  m->out_ready = s->out_ready;
#endif
  m->clk = 0;
  m->eval();
  s->taken = s->req_valid && m->req_ready;
#if RSOC_STREAM
  s->in_taken = s->in_valid && m->in_ready;
  s->out_taken = s->out_ready && m->out_valid;
  s->out_word = m->out_data;
  s->out_word_last = m->out_last;
#endif
  m->clk = 1;
  m->eval();
  s->req_ready = m->req_ready;
  s->resp_valid = m->resp_valid;
  s->resp_rdata = m->resp_rdata;
  s->busy = m->busy;
#if RSOC_STREAM
  s->in_ready = m->in_ready;
  s->out_valid = m->out_valid;
  s->out_data = m->out_data;
  s->out_last = m->out_last;
#endif
}
}
)";

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : "";
}

// The program `name` on PATH, or empty.
fs::path on_path(const std::string& name) {
  std::stringstream path(env("PATH"));
  std::string dir;
  while (std::getline(path, dir, ':')) {
    if (dir.empty()) continue;
    const fs::path p = fs::path(dir) / name;
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return {};
}

// Runs `args` with stdin from /dev/null and stdout and stderr appended to `log`; returns its exit status (-1:
// it could not be started or did not exit).
int run_logged(const std::vector<std::string>& args, const fs::path& log) {
  {
    std::ofstream out(log, std::ios::app);
    for (const std::string& a : args) out << a << ' ';
    out << '\n';
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int err = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// What `command` prints (stdout), or nothing when it fails.
std::optional<std::string> output_of(const std::vector<std::string>& args, const fs::path& scratch) {
  std::error_code ec;
  fs::remove(scratch, ec);
  if (run_logged(args, scratch) != 0) return std::nullopt;
  std::ifstream in(scratch);
  std::string first, text;
  std::getline(in, first);  // the command line run_logged wrote
  std::getline(in, text);
  fs::remove(scratch, ec);
  return text;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Verilator, the compiler and make, found once: their paths, Verilator's version and root.
struct Toolchain {
  fs::path verilator, make, compiler;
  std::string version, root;
};

const Toolchain& toolchain(const fs::path& cache) {
  static std::optional<Toolchain> found;
  if (found) return *found;
  Toolchain t;
  t.verilator = on_path("verilator");
  if (t.verilator.empty())
    throw RtlBuildError(
        "verilator is not installed (RTL cores are verilated when a scenario is loaded); install it with "
        "`sudo apt-get install verilator` (Debian's 5.006 is the one rsoc is tested with), or run "
        "tools/setup.sh");
  t.make = on_path("make");
  t.compiler = on_path("g++");
  if (t.make.empty() || t.compiler.empty())
    throw RtlBuildError(
        "building a verilated RTL core needs make and g++ on PATH (sudo apt-get install make g++)");
  const fs::path scratch = cache / ("verilator-version." + std::to_string(::getpid()));
  const auto version = output_of({t.verilator.string(), "--version"}, scratch);
  const auto root = output_of({t.verilator.string(), "--getenv", "VERILATOR_ROOT"}, scratch);
  if (!version || !root || version->empty() || root->empty())
    throw RtlBuildError(t.verilator.string() + " --version failed: is the verilator package complete?");
  t.version = *version;
  t.root = *root;
  found = t;
  return *found;
}

// The first lines of `log` that Verilator or the compiler marked as errors.
std::string errors_in(const fs::path& log) {
  std::ifstream in(log);
  std::string line, out;
  int n = 0;
  while (std::getline(in, line))
    if (line.rfind("%Error", 0) == 0 || line.find(": error:") != std::string::npos) {
      if (n++ < 8) out += "\n  " + line;
    }
  if (n > 8) out += "\n  ... (" + std::to_string(n - 8) + " more)";
  return out;
}

// The files Verilator read (its __ver.d), as absolute paths.
std::vector<fs::path> inputs_read(const fs::path& obj) {
  const std::string text = read_file(obj / "Vrtl__ver.d");
  std::vector<fs::path> files;
  const auto colon = text.find(" : ");
  if (colon == std::string::npos) return files;
  std::istringstream deps(text.substr(colon + 3));
  std::string f;
  while (deps >> f) {
    const fs::path p = fs::absolute(f);
    if (p.filename() == "verilator_bin" || p.filename() == "verilator_bin_dbg") continue;
    if (std::find(files.begin(), files.end(), p) == files.end()) files.push_back(p);
  }
  return files;
}

// The manifest of a build: every input's digest. Valid when each input still has it.
void write_manifest(const fs::path& dir, const std::vector<fs::path>& inputs) {
  std::ofstream out(dir / "manifest.txt");
  out << "rsoc-rtl " << kShimAbi << '\n';
  for (const fs::path& p : inputs) out << sha256_file(p).value_or("unreadable") << ' ' << p.string() << '\n';
}
bool manifest_holds(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_regular_file(dir / "design.so", ec)) return false;
  std::ifstream in(dir / "manifest.txt");
  std::string head;
  if (!std::getline(in, head) || head != "rsoc-rtl " + std::to_string(kShimAbi)) return false;
  std::string line;
  while (std::getline(in, line)) {
    const auto space = line.find(' ');
    if (space == std::string::npos) return false;
    if (sha256_file(line.substr(space + 1)) != line.substr(0, space)) return false;
  }
  return true;
}

// The ports the generated header declares: name -> (input, width).
std::map<std::string, std::pair<bool, unsigned>> declared_ports(const fs::path& header) {
  static const std::regex port(R"(VL_(IN|OUT)(8|16|64|W)?\(&(\w+),(\d+),(\d+)(,\d+)?\))");
  std::map<std::string, std::pair<bool, unsigned>> ports;
  const std::string text = read_file(header);
  for (std::sregex_iterator i(text.begin(), text.end(), port), end; i != end; ++i) {
    const auto& m = *i;
    ports[m[3]] = {m[1] == "IN", static_cast<unsigned>(std::stoul(m[4]) - std::stoul(m[5]) + 1)};
  }
  return ports;
}

std::string describe(bool input, unsigned width) {
  return std::string(input ? "input" : "output") + ", " + std::to_string(width) +
         (width == 1 ? " bit" : " bits");
}

// The ports of `d`'s protocol, and the protocol's name for messages.
std::vector<PortSpec> protocol_ports(const RtlSources& d) {
  std::vector<PortSpec> ports(std::begin(kRegisterPort), std::end(kRegisterPort));
  if (d.stream) ports.insert(ports.end(), std::begin(kStreamPort), std::end(kStreamPort));
  return ports;
}
const char* protocol_name(const RtlSources& d) {
  return d.stream ? "the register and stream ports" : "the register port";
}

void check_ports(const fs::path& header, const RtlSources& d) {
  const auto ports = declared_ports(header);
  const std::vector<PortSpec> wanted = protocol_ports(d);
  const std::string& top = d.top;
  std::string all;
  for (const PortSpec& p : wanted) all += std::string(all.empty() ? "" : ", ") + p.name;
  for (const PortSpec& p : wanted) {
    const auto it = ports.find(p.name);
    if (it == ports.end())
      throw RtlBuildError("the top module " + top + " has no port `" + p.name + "` (" +
                              describe(p.input, p.width) + "); " + protocol_name(d) +
                              " (scenarios/rtl/README.md): " + all,
                          -1, true);
    if (it->second.first != p.input || it->second.second != p.width)
      throw RtlBuildError("port `" + std::string(p.name) + "` of " + top + " is " +
                              describe(it->second.first, it->second.second) + "; the " +
                              (&p >= wanted.data() + std::size(kRegisterPort) ? "stream" : "register") +
                              " port's is " + describe(p.input, p.width),
                          -1, true);
  }
  for (const auto& [name, spec] : ports) {
    if (!spec.first) continue;
    bool known = false;
    for (const PortSpec& p : wanted) known = known || name == p.name;
    if (!known)
      throw RtlBuildError(
          "input `" + name + "` of " + top + " is not a signal of " + protocol_name(d) + " (" + all +
              "): nothing would drive it; tie it off in a wrapper module" +
              (d.stream ? "" : ", or give the core protocol \"stream\" if it is the stream port's"),
          -1, true);
  }
}

// Verilator's own run-time objects, the same for every design of one Verilator: compiled with the first
// design, kept in the cache (`runtime`) and copied into later builds, which then compile their model alone.
constexpr const char* kRuntimeObjects[] = {"verilated.o", "verilated_threads.o"};
void reuse_runtime(const fs::path& runtime, const fs::path& obj) {
  std::error_code ec;
  for (const char* o : kRuntimeObjects)
    if (!fs::is_regular_file(runtime / o, ec)) return;
  for (const char* o : kRuntimeObjects)
    fs::copy_file(runtime / o, obj / o, fs::copy_options::overwrite_existing, ec);
}
void keep_runtime(const fs::path& runtime, const fs::path& obj) {
  std::error_code ec;
  if (fs::is_directory(runtime, ec)) return;
  const fs::path fresh = runtime.string() + ".new-" + std::to_string(::getpid());
  fs::create_directories(fresh, ec);
  for (const char* o : kRuntimeObjects) fs::copy_file(obj / o, fresh / o, ec);
  fs::rename(fresh, runtime, ec);  // (another process may have kept them first)
  fs::remove_all(fresh, ec);
}

// Builds the design into `dir` (a fresh folder); a failure names `kept`, where its log is kept. Verilator's
// run-time objects come from `runtime` when it has them.
void build(const RtlSources& d, const Toolchain& t, const fs::path& dir, const fs::path& kept,
           const fs::path& runtime) {
  const fs::path obj = dir / "obj", log = dir / "build.log";
  fs::create_directories(obj);
  std::vector<std::string> verilate = {t.verilator.string(), "--cc",    "--prefix",   "Vrtl",
                                       "--top-module",       d.top,     "-Wno-fatal", "-Mdir",
                                       obj.string(),         "-CFLAGS", "-fPIC"};
  std::vector<fs::path> dirs;
  for (const std::string& s : d.sources) {
    const fs::path parent = fs::absolute(s).lexically_normal().parent_path();
    if (std::find(dirs.begin(), dirs.end(), parent) == dirs.end()) dirs.push_back(parent);
  }
  for (const fs::path& p : dirs) verilate.push_back("-I" + p.string());
  for (const std::string& s : d.sources) verilate.push_back(s);
  if (run_logged(verilate, log) != 0) {
    const std::string errors = errors_in(log);
    throw RtlBuildError("verilator could not build " + d.top + ":" +
                            (errors.empty() ? std::string(" (no %Error line)") : errors) +
                            "\n  (its log: " + kept.string() + ")",
                        -1, errors.find("top-module") != std::string::npos);
  }
  check_ports(obj / "Vrtl.h", d);
  {
    std::ofstream shim(dir / "shim.cpp");
    shim << "#define RSOC_SHIM_ABI " << kShimAbi << "\n#define RSOC_STREAM " << d.stream << '\n' << kShim;
  }
  reuse_runtime(runtime, obj);
  const std::string jobs = std::to_string(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  const std::string include = t.root + "/include";
  if (run_logged({t.make.string(), "-s", "-j", jobs, "-C", obj.string(), "-f", "Vrtl.mk", "CXXFLAGS=-fPIC",
                  "OPT_FAST=-O1", "OPT_SLOW=-O1", "Vrtl__ALL.a", "verilated.o", "verilated_threads.o"},
                 log) != 0 ||
      run_logged({t.compiler.string(), "-shared", "-fPIC", "-O2", "-std=gnu++17", "-Wl,-Bsymbolic", "-o",
                  (dir / "design.so").string(), (dir / "shim.cpp").string(), "-I" + obj.string(),
                  "-I" + include, "-I" + include + "/vltstd", (obj / "Vrtl__ALL.a").string(),
                  (obj / "verilated.o").string(), (obj / "verilated_threads.o").string(), "-pthread"},
                 log) != 0)
    throw RtlBuildError("the verilated model of " + d.top + " did not compile:" + errors_in(log) +
                        "\n  (its log: " + kept.string() + ")");
  keep_runtime(runtime, obj);
  write_manifest(dir, inputs_read(obj));
}

template <typename F>
F symbol(void* library, const char* name, const fs::path& so) {
  void* s = ::dlsym(library, name);
  if (!s) throw RtlBuildError(so.string() + " has no " + name + ": not a design rsoc built");
  return reinterpret_cast<F>(s);
}

std::shared_ptr<models::RtlDesign> open_design(const fs::path& so, const std::string& top, bool stream) {
  void* library = ::dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) throw RtlBuildError("cannot load " + so.string() + ": " + ::dlerror());
  auto d = std::make_shared<models::RtlDesign>();
  d->library = std::shared_ptr<void>(library, [](void* l) { ::dlclose(l); });
  if (symbol<int (*)()>(library, "rsoc_rtl_abi", so)() != kShimAbi)
    throw RtlBuildError(so.string() + " was built for another rsoc");
  d->name = top;
  d->stream = stream;
  d->create = symbol<void* (*)()>(library, "rsoc_rtl_create", so);
  d->destroy = symbol<void (*)(void*)>(library, "rsoc_rtl_destroy", so);
  d->edge = symbol<void (*)(void*, models::RtlPort*)>(library, "rsoc_rtl_edge", so);
  return d;
}

// An exclusive lock on `path` for the life of the object (released when the process ends, too).
class FileLock {
 public:
  explicit FileLock(const fs::path& path) : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0) throw RtlBuildError("cannot write the RTL cache " + path.parent_path().string());
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) throw RtlBuildError("cannot lock " + path.string());
  }
  ~FileLock() { ::close(fd_); }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

}  // namespace

fs::path rtl_cache_dir() {
  if (const std::string dir = env("RSOC_RTL_CACHE"); !dir.empty()) return dir;
  if (const std::string xdg = env("XDG_CACHE_HOME"); !xdg.empty()) return fs::path(xdg) / "rsoc" / "rtl";
  if (const std::string home = env("HOME"); !home.empty()) return fs::path(home) / ".cache" / "rsoc" / "rtl";
  return fs::temp_directory_path() / "rsoc-rtl";
}

std::shared_ptr<const models::RtlDesign> load_rtl_design(const RtlSources& d) {
  static std::mutex mutex;
  static std::map<std::string, std::weak_ptr<const models::RtlDesign>> loaded;
  const std::lock_guard<std::mutex> hold(mutex);
  if (d.sources.empty()) throw RtlBuildError("no sources");
  std::string key = "abi " + std::to_string(kShimAbi) + "\ntop " + d.top + "\nprotocol " +
                    (d.stream ? "stream" : "register") + '\n';
  for (std::size_t i = 0; i < d.sources.size(); ++i) {
    std::error_code ec;
    if (!fs::is_regular_file(d.sources[i], ec))
      throw RtlBuildError("no source file \"" + d.sources[i] + "\"", static_cast<int>(i));
    const auto digest = sha256_file(d.sources[i]);
    if (!digest) throw RtlBuildError("cannot read \"" + d.sources[i] + "\"", static_cast<int>(i));
    key += fs::path(d.sources[i]).filename().string() + ' ' + *digest + '\n';
  }
  const fs::path cache = rtl_cache_dir();
  std::error_code ec;
  fs::create_directories(cache, ec);
  if (!fs::is_directory(cache, ec))
    throw RtlBuildError("cannot make the RTL cache folder " + cache.string() + " (set RSOC_RTL_CACHE)");
  const Toolchain& t = toolchain(cache);
  key = sha256_hex(key + "verilator " + t.version + "\nflags " + kBuildFlags + '\n');
  const fs::path entry = cache / key;
  if (const auto it = loaded.find(key); it != loaded.end())
    if (auto design = it->second.lock(); design && manifest_holds(entry)) {
      return design;
    }
  const FileLock lock(cache / (key + ".lock"));
  if (!manifest_holds(entry)) {
    if (logging::notes())
      logging::note() << "rsoc: verilating " << d.top << " into " << entry.string() << " (once)\n";
    const fs::path fresh = cache / (key + ".build-" + std::to_string(::getpid()));
    fs::remove_all(fresh, ec);
    try {
      build(d, t, fresh, cache / (key + ".failed") / "build.log",
            cache / ("verilator-runtime-" + sha256_hex(t.version + kBuildFlags).substr(0, 16)));
    } catch (...) {
      fs::remove_all(cache / (key + ".failed"), ec);
      fs::rename(fresh, cache / (key + ".failed"), ec);  // its log stays for the message's reader
      throw;
    }
    fs::remove_all(entry, ec);
    fs::rename(fresh, entry, ec);
    if (ec) throw RtlBuildError("cannot move the build into " + entry.string() + ": " + ec.message());
  }
  auto design = open_design(entry / "design.so", d.top, d.stream);
  loaded[key] = design;
  return design;
}

}  // namespace rsoc::platform
