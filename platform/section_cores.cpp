// Configuration unit: platform.cores: each core design, its kind's own parameters, its bitstream and (custom)
// what it computes. Its schema and its resolution (platform/scenario_sections.h).
#include <algorithm>

#include "models/core_kinds.h"
#include "models/crypto/block_function.h"
#include "platform/rtl_build.h"
#include "platform/scenario_sections.h"

namespace rsoc::platform::sections {

namespace {

// A key of the core kinds' own parameters (`params`: every kind's that takes it, which agree on its values).
Schema kind_param(const std::vector<const models::KindParam*>& params) {
  const models::KindParam& k = *params[0];
  Schema s = k.choices
                 ? Schema::enumeration(k.choices()).default_value(k.default_choice)
                 : Schema::integer().min(k.min).max(k.max).default_value(static_cast<long long>(k.fallback));
  if (k.unit) s.unit(k.unit);
  std::string doc;
  for (const models::KindParam* p : params) doc += std::string(doc.empty() ? "" : "; ") + p->doc;
  return s.doc(doc);
}

// platform.cores[].rtl: the design's sources, top module and port protocol.
Schema rtl_schema() {
  return Schema::object({
      {"sources", Schema::array(Schema::string().min_length(1).doc("a source file"))
                      .min_items(1)
                      .max_items(1000)
                      .doc("its Verilog/SystemVerilog sources: paths relative to the scenario's folder, or "
                           "absolute (files they `include` are found in their folders)")},
      {"top", Schema::string().min_length(1).doc("the top module, with the protocol's ports")},
      {"protocol", Schema::enumeration({"register", "stream"})
                       .default_value("register")
                       .doc("register: the register port (scenarios/rtl/README.md): register accesses of the "
                            "CPU reach the design, which implements the kind's register map; stream: the "
                            "stream port beside it, which takes the blocks DMA writes to the STREAM_IN "
                            "window and gives the results read from STREAM_OUT (for "
                            "runtime.driver.data_path dma and custom interface stream)")},
  });
}

}  // namespace

// The element of platform.cores: a core design, its bitstream and (custom) what it computes.
Schema core_schema() {
  Schema bitstream = Schema::object({
      {"memory", Schema::string().doc("name of the memory holding the partial bitstream")},
      {"address", Schema::address().doc("CPU address of the bitstream in that memory")},
      {"size_kib",
       Schema::number().unit("KiB").exclusive_min(0).max(1048576).doc("size of the partial bitstream")},
  });

  std::string kinds;
  for (const models::CoreKindEntry& k : models::core_kinds())
    kinds += std::string(kinds.empty() ? "" : "; ") + k.name + ": " + k.doc;
  Schema custom = Schema::object({
      {"functionality",
       Schema::string().doc("name of the functionality the core serves (applications and /software use it); "
                            "not a built-in one")},
      {"computes", Schema::enumeration(crypto::block_function_names())
                       .doc("what it computes on each block, checked against its reference "
                            "(none: timing only, outputs not checked)")},
      {"input_bytes", Schema::integer().unit("bytes").min(4).max(1 << 20).doc(
                          "bytes of one block it takes (a whole number of 32-bit words)")},
      {"output_bytes",
       Schema::integer().unit("bytes").min(4).max(1 << 20).nullable().default_value(nullptr).doc(
           "bytes it gives per block; null: what `computes` gives (copy, xor_key: input_bytes; crc32: 4; "
           "sha256: 32; none: input_bytes)")},
      {"key_bytes", Schema::integer().unit("bytes").min(0).max(64).default_value(0).doc(
                        "bytes of the key a request gives (xor_key: at least 4; the others take none)")},
      {"interface", Schema::enumeration(kCustomInterfaceNames.names())
                        .default_value("pio")
                        .doc("pio: KEY, BLOCK and RESULT registers (blocks up to 2048 bytes) besides the "
                             "streaming windows; "
                             "stream: the streaming windows only (runtime.driver.data_path dma)")},
  });

  std::vector<Schema::Field> fields = {
      {"name", name_field("core design")},
      {"type", Schema::enumeration(models::core_kind_names()).doc("the core kind: " + kinds)},
      {"clock_mhz", clock(100).doc("core clock")},
      {"access_cycles", cycles(1, 10000).doc("core cycles per register word access")},
      {"key_setup_cycles", cycles(0).doc("core cycles of CTRL.INIT (key expansion; not custom cores)")},
      {"block_cycles",
       cycles(10).doc("core cycles per block (AES, custom: the latency of one block) or per DES pass (3DES: "
                      "three passes)")},
      {"initiation_interval_cycles",
       cycles(0).doc("pipelined cores: core cycles between two blocks entering the core when streamed "
                     "(at most block_cycles); 0: one block after the other")},
  };
  // the kinds' own (models/core_kinds.h)
  for (const auto& params : models::kind_params_by_key())
    fields.push_back({params[0]->key, kind_param(params)});
  fields.push_back({"fifo_words", Schema::integer().unit("words").min(2).max(1 << 20).default_value(1024).doc(
                                      "streaming interface: input and result words the core holds")});
  fields.push_back({"bitstream", bitstream.doc("the partial bitstream that configures this core")});
  fields.push_back({"custom", Schema::object(custom.fields())
                                  .nullable()
                                  .default_value(nullptr)
                                  .doc("type custom: the functionality it serves and what it computes "
                                       "(required for a custom core, refused for the others)")});
  fields.push_back(
      {"rtl", Schema::object(rtl_schema().fields())
                  .nullable()
                  .default_value(nullptr)
                  .doc("the core's logic as RTL, verilated when the scenario is loaded (cached; "
                       "$RSOC_RTL_CACHE sets the folder): its clock edges, at clock_mhz, time it, and "
                       "access_cycles, key_setup_cycles, block_cycles and initiation_interval_cycles are "
                       "measured from it; null: the kind's behavioural model")});
  return Schema::object(std::move(fields));
}

void Resolver::cores(const json& pl, ScenarioParams& p) {
  std::vector<std::pair<std::string, Device>> images;  // bitstreams placed in memories
  for (std::size_t i = 0; i < pl["cores"].size(); ++i) {
    const json& c = pl["cores"][i];
    const std::string ptr = "/platform/cores/" + std::to_string(i);
    CoreSpec s;
    s.name = c["name"];
    s.id = static_cast<std::uint32_t>(i);
    const auto kind = models::core_kind_from_name(c["type"].get<std::string>());
    if (!kind) throw std::logic_error("a core type the schema let through");
    s.params.kind = *kind;
    s.params.clock_period = period_of(c["clock_mhz"], ptr + "/clock_mhz");
    s.params.access_cycles = u(c["access_cycles"]);
    s.params.key_setup_cycles = u(c["key_setup_cycles"]);
    s.params.block_cycles = u(c["block_cycles"]);
    s.params.initiation_interval_cycles = u(c["initiation_interval_cycles"]);
    if (s.params.initiation_interval_cycles > s.params.block_cycles)
      issues_.add(ptr + "/initiation_interval_cycles",
                  std::to_string(s.params.initiation_interval_cycles) + " is more than block_cycles (" +
                      std::to_string(s.params.block_cycles) +
                      "); expected a number of cycles <= block_cycles (a block enters the pipeline at most "
                      "as late as the one before it leaves)");
    custom_core(c, ptr, i, s);
    kind_params(c, s.params);
    rtl_core(c, ptr, s);
    s.params.fifo_words = u(c["fifo_words"]);
    const json& bs = c["bitstream"];
    s.memory = bs["memory"];
    s.bitstream_address = u64(bs["address"]);
    s.bitstream_bytes = kib_bytes(bs["size_kib"]);
    if (s.bitstream_bytes < 4 * (models::kBitstreamHeaderWords + 1))
      issues_.add(ptr + "/bitstream/size_kib", "a bitstream must hold at least 20 bytes");
    if (known("memories", s.memory, ptr + "/bitstream/memory", "memory")) {
      const MemorySpec* m = nullptr;
      for (const auto& mm : p.memories)
        if (mm.name == s.memory) m = &mm;
      if (m && !inside(s.bitstream_address, s.bitstream_bytes, m->base, m->params.size_bytes)) {
        issues_.add(ptr + "/bitstream/address", "bitstream " + span(s.bitstream_address, s.bitstream_bytes) +
                                                    " lies outside memory \"" + m->name + "\" " +
                                                    span(m->base, m->params.size_bytes));
      } else if (m) {
        for (const auto& [other, d] : images) {
          if (s.bitstream_address < d.base + d.size && d.base < s.bitstream_address + s.bitstream_bytes)
            issues_.add(
                ptr + "/bitstream/address",
                "bitstream of core \"" + s.name + "\" overlaps the bitstream of core \"" + other + "\"");
        }
        images.push_back({s.name, Device{s.name, s.memory, ptr, s.bitstream_address, s.bitstream_bytes}});
      }
    }
    p.cores.push_back(s);
  }
  // The functionalities of the custom cores, each once (cores that serve the same one agree on it).
  std::vector<runtime::FunctionalityCatalog::Custom> customs;
  for (std::size_t i = 0; i < p.cores.size(); ++i) {
    const auto c = custom_of_.find(i);
    if (c == custom_of_.end()) continue;
    const auto same = std::find_if(customs.begin(), customs.end(),
                                   [&](const auto& other) { return other.name == c->second.name; });
    if (same == customs.end()) {
      customs.push_back(c->second);
    } else if (same->computes != c->second.computes || same->input_bytes != c->second.input_bytes ||
               same->output_bytes != c->second.output_bytes || same->key_bytes != c->second.key_bytes) {
      issues_.add("/platform/cores/" + std::to_string(i) + "/custom",
                  "another core serves \"" + c->second.name +
                      "\" with other blocks, key or computation; expected the same computes, input_bytes, "
                      "output_bytes and key_bytes for one functionality");
    }
  }
  p.functionalities = std::make_shared<const runtime::FunctionalityCatalog>(customs);
  for (const auto& [i, c] : custom_of_)
    if (p.cores[i].params.kind == models::CoreKind::kCustom)
      p.cores[i].serves = p.functionalities->find(c.name);
}

void Resolver::kind_params(const json& c, models::CoreParams& params) {
  for (const models::KindParam& k : models::core_kind(params.kind).params) {
    if (!k.key) break;
    const json& v = c[k.key];
    if (!k.choices) {
      k.set(params, u(v));
      continue;
    }
    const std::vector<std::string> names = k.choices();
    const auto chosen = std::find(names.begin(), names.end(), v.get<std::string>());
    if (chosen == names.end()) throw std::logic_error("a choice the schema let through");
    k.set(params, static_cast<unsigned>(chosen - names.begin()));
  }
}

void Resolver::rtl_core(const json& c, const std::string& ptr, CoreSpec& s) {
  namespace fs = std::filesystem;
  const json& r = c["rtl"];
  if (r.is_null()) return;
  RtlSources d;
  d.top = r["top"];
  d.stream = r["protocol"] == "stream";
  if (!d.stream && c["custom"].is_object() && c["custom"]["interface"] == "stream")
    issues_.add(ptr + "/rtl/protocol",
                "the stream interface of an RTL core is its stream port: expected \"stream\" (or custom "
                "interface \"pio\")");
  const fs::path folder(folder_);
  for (std::size_t i = 0; i < r["sources"].size(); ++i) {
    const fs::path source(r["sources"][i].get<std::string>());
    // absolute, so that Verilator's messages name the file whatever folder it searched
    std::error_code ec;
    d.sources.push_back(
        fs::absolute(source.is_absolute() ? source : folder / source, ec).lexically_normal().string());
  }
  if (s.params.kind == models::CoreKind::kModexp) {
    issues_.add(ptr + "/rtl",
                "an RTL core of type modexp is not available (its timing depends on its operands "
                "beyond one measured request); expected null, or a core of type aes128, des or "
                "custom");
    return;
  }
  try {
    s.params.rtl = load_rtl_design(d);
  } catch (const RtlBuildError& e) {
    issues_.add(e.source() >= 0 ? ptr + "/rtl/sources/" + std::to_string(e.source())
                : e.about_top() ? ptr + "/rtl/top"
                                : ptr + "/rtl",
                e.what());
    return;
  }
  // Its timing as the estimate states it, from one request through the design (models/rtl_core.h).
  models::FunctionalityInfo f = models::core_kind(s.params.kind).functionalities[0];
  const models::CustomCoreParams& cc = s.params.custom;
  const std::string custom_name =
      c["custom"].is_object() ? c["custom"]["functionality"].get<std::string>() : "";
  if (s.params.kind == models::CoreKind::kCustom) {
    if (!cc.computes) return;  // (its description has an issue already)
    f = {0, custom_name.c_str(), cc.input_bytes, cc.key_bytes, models::CoreKind::kCustom, 0, false,
         0, cc.computes,         cc.output_bytes};
  }
  try {
    const models::RtlCycles cycles = models::measure_rtl_cycles(s.params, f);
    s.params.access_cycles = static_cast<unsigned>(cycles.access);
    (s.params.kind == models::CoreKind::kCustom ? s.params.setup_cycles : s.params.key_setup_cycles) =
        static_cast<unsigned>(cycles.init);
    s.params.block_cycles = static_cast<unsigned>(cycles.block);
    s.params.initiation_interval_cycles = static_cast<unsigned>(cycles.interval);
  } catch (const std::exception& e) {
    issues_.add(ptr + "/rtl", "measuring " + d.top + " through one request of " + f.name + ": " + e.what());
  }
}

void Resolver::custom_core(const json& c, const std::string& ptr, std::size_t index, CoreSpec& s) {
  const json& d = c["custom"];
  const bool custom = s.params.kind == models::CoreKind::kCustom;
  if (custom != !d.is_null())
    issues_.add(ptr + "/custom", custom ? "a custom core needs its description (functionality, computes, "
                                          "input_bytes); expected an object"
                                        : "only a custom core takes a custom description (this core is " +
                                              c["type"].get<std::string>() + "); expected null");
  // A description on another kind of core still names its functionality: the applications and software
  // that use it are not reported again.
  if (d.is_null()) return;
  runtime::FunctionalityCatalog::Custom f;
  f.name = d["functionality"];
  f.computes = crypto::find_block_function(d["computes"].get<std::string>());
  if (!f.computes) throw std::logic_error("a block function the schema let through");
  f.input_bytes = u(d["input_bytes"]);
  f.key_bytes = u(d["key_bytes"]);
  const std::string fn = f.computes->name;
  if (runtime::functionality_from_name(f.name))
    issues_.add(ptr + "/custom/functionality", "\"" + f.name +
                                                   "\" is a built-in functionality; expected a name of "
                                                   "the custom core's own");
  if (f.input_bytes % 4)
    issues_.add(
        ptr + "/custom/input_bytes",
        std::to_string(f.input_bytes) + " is not a whole number of 32-bit words; expected a multiple of 4");
  const unsigned natural = f.computes->output_bytes ? f.computes->output_bytes : f.input_bytes;
  f.output_bytes = d["output_bytes"].is_null() ? natural : u(d["output_bytes"]);
  if (f.output_bytes % 4)
    issues_.add(ptr + "/custom/output_bytes", std::to_string(f.output_bytes) +
                                                  " is not a whole number of 32-bit words; expected a "
                                                  "multiple of 4");
  else if (f.computes->checked && f.output_bytes != natural)
    issues_.add(ptr + "/custom/output_bytes", std::to_string(f.output_bytes) + " bytes is not what " + fn +
                                                  " gives for a block of " + std::to_string(f.input_bytes) +
                                                  " bytes; expected " + std::to_string(natural) +
                                                  " (or null)");
  if (f.computes->keyed && (f.key_bytes == 0 || f.key_bytes % 4))
    issues_.add(ptr + "/custom/key_bytes", fn + " takes a key; expected a multiple of 4 from 4 to 64");
  else if (!f.computes->keyed && f.key_bytes)
    issues_.add(ptr + "/custom/key_bytes", fn + " takes no key; expected 0");
  const bool pio = kCustomInterfaceNames.at(d["interface"].get<std::string>());
  constexpr unsigned kBankBytes = 4 * models::reg::kCustomBankWords;
  for (const auto& [key, bytes] :
       {std::pair<const char*, unsigned>{"input_bytes", f.input_bytes}, {"output_bytes", f.output_bytes}})
    if (pio && bytes > kBankBytes)
      issues_.add(ptr + "/custom/" + key, std::to_string(bytes) + " bytes do not fit the PIO bank (" +
                                              std::to_string(kBankBytes) +
                                              " bytes); expected at most that, or interface stream");
  custom_of_[index] = f;
  if (!custom) return;
  if (!pio) stream_only_cores_.push_back(ptr + "/custom/interface");
  s.params.custom = models::CustomCoreParams{f.computes, f.input_bytes, f.output_bytes, f.key_bytes, pio};
}

}  // namespace rsoc::platform::sections
