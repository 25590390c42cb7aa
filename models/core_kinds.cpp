#include "models/core_kinds.h"

#include <stdexcept>

#include "models/ip_core.h"

namespace rsoc::models {

const CoreKindEntry& core_kind(CoreKind kind) {
  for (const CoreKindEntry& e : core_kinds())
    if (e.kind == kind) return e;
  throw std::logic_error("a core kind missing from models/core_kinds.h");
}

std::optional<CoreKind> core_kind_from_name(std::string_view name) {
  for (const CoreKindEntry& e : core_kinds())
    if (name == e.name) return e.kind;
  return std::nullopt;
}

std::vector<std::string> core_kind_names() {
  std::vector<std::string> out;
  for (const CoreKindEntry& e : core_kinds()) out.emplace_back(e.name);
  return out;
}

const char* to_string(CoreKind kind) {
  return core_kind(kind).name;
}

std::unique_ptr<IpCore> make_core(const std::string& name, const CoreParams& params) {
  return core_kind(params.kind).make(name, params);
}

}  // namespace rsoc::models
