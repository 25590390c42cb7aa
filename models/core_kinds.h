#pragma once
// The registry of IP core kinds. A kind owns its whole contract, written in its one file under models/
// (aes128_core.cpp, des_core.cpp, modexp_core.cpp, custom_core.cpp) as a CoreKindEntry: its name and
// documentation, the model it builds, the built-in functionalities its cores serve, how a driver programs a
// core for one of them (its register interface), the core cycles of a block, the reference output every
// result is checked against, the checks and shaping of its keys, and the parameters of its own that a
// scenario's core object gives (KindParam). The entries are registered below, in
// the order that numbers the built-in functionalities (ids 0, 1, ... in that order, each kind's in its own
// order). The scenario schema (platform.cores[].type), the resolver, the functionality table
// (runtime/functionality.h) and the drivers all read this one list.
//
// A new built-in kind is three pieces: its model file (the IpCore subclass, its timing contract and its
// CoreKindEntry), its algorithm under models/crypto/, and its registration here (an enumerator, the
// declaration of its entry and its place in registered_core_kinds()). scenarios/README.md shows one.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/crypto/block_function.h"

namespace rsoc::models {

class IpCore;
struct CoreParams;

enum class CoreKind { kAes128, kDes, kModexp, kCustom };

// A functionality a kind's cores compute: its block and key sizes. Built-in ones are listed by their kind's
// entry; a scenario's custom ones (runtime::FunctionalityCatalog) are served by custom cores.
struct FunctionalityInfo {
  unsigned id;
  const char* name;
  unsigned block_bytes;  // the input of one block: a cipher block, a message, a custom core's input_bytes
  unsigned key_bytes;
  CoreKind core;
  unsigned operand_bits;  // modexp: modulus and exponent size; RSA-CRT: prime size (0 for the others)
  bool crt;               // an RSA private operation by the CRT on a modexp core (CONFIG.CRT)
  // An RSA public operation: bytes of the public exponent at the end of the key, after the modulus (0: none)
  unsigned public_exponent_bytes = 0;
  // A custom functionality: what it computes, and the output of one block (the built-ins give block_bytes).
  const crypto::BlockFunction* computes = nullptr;
  unsigned result_bytes = 0;
  unsigned output_bytes() const { return computes ? result_bytes : block_bytes; }
};

// A run of bytes of the key (or of a block) and the register bank that takes it. Bytes are grouped in
// big-endian 32-bit words; a `lsw_first` bank holds the word of the last four bytes at its lowest address (a
// number, least-significant word first), otherwise the first four bytes.
struct BankField {
  std::uint32_t offset = 0;  // register offset of word 0
  unsigned byte_offset = 0;  // where the field starts in the key or block
  unsigned bytes = 0;
  bool lsw_first = false;
};

// How a driver programs a core for one functionality (register map in models/ip_core.h): the key fields and
// the set-up writes (register, value) before CTRL.INIT, where a block is written and where its result is
// read.
struct CoreInterface {
  std::vector<BankField> key;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> setup;
  BankField block, result;
  // CTRL.INIT starts every request (a custom core's set-up), not only a new key
  bool init_every_request = false;
};

using Bytes = std::vector<std::uint8_t>;

// The most built-in functionalities one kind serves.
inline constexpr std::size_t kMaxKindFunctionalities = 8;

// A parameter a kind's cores take beside the common ones, as a scenario's core object spells it: a whole
// number (its unit, range and default) or, where `choices` is given, one of those names (its default is
// `default_choice`). The scenario schema documents and checks it and the resolver hands its value to `set`
// (an enumeration's: the position of the chosen name). Kinds may share a key when they agree on its range
// and default; its documentation is each one's line, joined.
struct KindParam {
  const char* key = nullptr;
  const char* doc = nullptr;
  const char* unit = nullptr;  // null: none
  unsigned min = 0, max = 0, fallback = 0;
  std::vector<std::string> (*choices)() = nullptr;
  const char* default_choice = nullptr;
  void (*set)(CoreParams& params, unsigned value) = nullptr;
};

// The most parameters of its own one kind takes.
inline constexpr std::size_t kMaxKindParams = 8;

struct CoreKindEntry {
  CoreKind kind;
  const char* name;  // as scenarios write it
  const char* doc;   // what a core of the kind computes, for the scenario documentation
  std::unique_ptr<IpCore> (*make)(std::string name, const CoreParams& params);
  // Its built-in functionalities (the first ones with a name), with consecutive ids.
  FunctionalityInfo functionalities[kMaxKindFunctionalities];
  // How a driver programs the core for `f` (`key`: the request's, which may be empty where the interface
  // does not depend on it).
  CoreInterface (*interface)(const FunctionalityInfo& f, bool encrypt, const Bytes& key);
  // Core cycles of one block of `f` on a core with `params`.
  std::uint64_t (*cycles_per_block)(const FunctionalityInfo& f, const CoreParams& params);
  // The output of whole blocks `data` under `key` (sizes already checked), by the plain-C++ algorithm.
  Bytes (*reference)(const FunctionalityInfo& f, const Bytes& key, const Bytes& data, bool encrypt);
  // Optional (null: none). How the key's bytes are laid out, for an error about its size (" (modulus then
  // exponent, ...)"); why a key of the right size cannot be used ("" when it can); how random bytes become
  // a usable key and usable input blocks.
  std::string (*key_layout)(const FunctionalityInfo& f) = nullptr;
  std::string (*key_problem)(const FunctionalityInfo& f, const Bytes& key) = nullptr;
  void (*shape_key)(const FunctionalityInfo& f, Bytes& key) = nullptr;
  void (*shape_data)(const FunctionalityInfo& f, Bytes& data) = nullptr;
  // Its parameters beyond the common ones (the first ones with a key), in the order the schema lists them.
  KindParam params[kMaxKindParams] = {};
};

// Each kind's entry, defined in its own file.
extern const CoreKindEntry kAes128Kind;
extern const CoreKindEntry kDesKind;
extern const CoreKindEntry kModexpKind;
extern const CoreKindEntry kCustomKind;

// The registration: every kind, in the order that numbers the built-in functionalities.
inline std::vector<std::reference_wrapper<const CoreKindEntry>> registered_core_kinds() {
  return {kAes128Kind, kDesKind, kModexpKind, kCustomKind};
}

// The registered kinds, in order; checked when first read (every hook given, the functionalities numbered
// in order and of their kind): a broken registration throws std::logic_error.
const std::vector<std::reference_wrapper<const CoreKindEntry>>& core_kinds();
// The check core_kinds() makes of its list.
void check_core_kind_registration(const std::vector<std::reference_wrapper<const CoreKindEntry>>& kinds);

const CoreKindEntry& core_kind(CoreKind kind);
std::optional<CoreKind> core_kind_from_name(std::string_view name);
std::vector<std::string> core_kind_names();
const char* to_string(CoreKind kind);
// The built-in functionalities of every kind, in id order.
const std::vector<const FunctionalityInfo*>& builtin_functionality_infos();

// The kinds' own parameters by key, in the order of the kinds and of each kind's list: for each key, the
// parameter of every kind that takes it.
const std::vector<std::vector<const KindParam*>>& kind_params_by_key();

// A core of `params.kind` named `name`.
std::unique_ptr<IpCore> make_core(const std::string& name, const CoreParams& params);

}  // namespace rsoc::models
