#pragma once
// The registry of IP core kinds: the one list that names each kind for the scenario schema
// (platform.cores[].type), the resolver, the functionality table (runtime/functionality.h: which kind serves
// a functionality) and the drivers, and builds its model. A kind is one file under models/ (its registers,
// timing contract and behaviour: aes128_core.cpp, des_core.cpp, modexp_core.cpp, custom_core.cpp) and one
// entry below.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rsoc::models {

class IpCore;
struct CoreParams;

enum class CoreKind { kAes128, kDes, kModexp, kCustom };

// Each kind's builder, defined in its own file.
std::unique_ptr<IpCore> make_aes128_core(std::string name, const CoreParams& params);
std::unique_ptr<IpCore> make_des_core(std::string name, const CoreParams& params);
std::unique_ptr<IpCore> make_modexp_core(std::string name, const CoreParams& params);
std::unique_ptr<IpCore> make_custom_core(std::string name, const CoreParams& params);

struct CoreKindEntry {
  CoreKind kind;
  const char* name;  // as scenarios write it
  const char* doc;   // what a core of the kind computes, for the scenario documentation
  std::unique_ptr<IpCore> (*make)(std::string name, const CoreParams& params);
};

inline const std::vector<CoreKindEntry>& core_kinds() {
  static const std::vector<CoreKindEntry> kinds = {
      {CoreKind::kAes128, "aes128", "AES-128 (FIPS-197), both directions; AES-256 with CONFIG.AES256 set",
       make_aes128_core},
      {CoreKind::kDes, "des", "DES and 3DES EDE (FIPS 46-3), both directions", make_des_core},
      {CoreKind::kModexp, "modexp", "modular exponentiation and RSA private operations by the CRT",
       make_modexp_core},
      {CoreKind::kCustom, "custom",
       "an accelerator described in the scenario: its functionality, block sizes, timing and block function",
       make_custom_core},
  };
  return kinds;
}

const CoreKindEntry& core_kind(CoreKind kind);
std::optional<CoreKind> core_kind_from_name(std::string_view name);
std::vector<std::string> core_kind_names();
const char* to_string(CoreKind kind);

// A core of `params.kind` named `name`.
std::unique_ptr<IpCore> make_core(const std::string& name, const CoreParams& params);

}  // namespace rsoc::models
