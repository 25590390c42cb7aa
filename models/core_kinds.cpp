#include "models/core_kinds.h"

#include <stdexcept>

#include "models/ip_core.h"

namespace rsoc::models {

void check_core_kind_registration(const std::vector<std::reference_wrapper<const CoreKindEntry>>& kinds) {
  unsigned next_id = 0;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const CoreKindEntry& e = kinds[i];
    const std::string where =
        "core kind " + std::string(e.name ? e.name : "(unnamed)") + " (models/core_kinds.h)";
    if (!e.name || !e.doc || !e.make || !e.interface || !e.cycles_per_block || !e.reference)
      throw std::logic_error(where +
                             ": a name, doc, make, interface, cycles_per_block and reference are "
                             "required");
    for (std::size_t j = 0; j < i; ++j)
      if (kinds[j].get().kind == e.kind || std::string_view(kinds[j].get().name) == e.name)
        throw std::logic_error(where + ": registered twice");
    for (const FunctionalityInfo& f : e.functionalities) {
      if (!f.name) break;  // the end of the kind's list
      if (f.id != next_id++ || f.core != e.kind)
        throw std::logic_error(where + ": functionality " + f.name + " must have id " +
                               std::to_string(next_id - 1) + " and this kind");
    }
  }
}

const std::vector<std::reference_wrapper<const CoreKindEntry>>& core_kinds() {
  static const std::vector<std::reference_wrapper<const CoreKindEntry>> kinds = [] {
    std::vector<std::reference_wrapper<const CoreKindEntry>> k = registered_core_kinds();
    check_core_kind_registration(k);
    return k;
  }();
  return kinds;
}

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

const std::vector<const FunctionalityInfo*>& builtin_functionality_infos() {
  static const std::vector<const FunctionalityInfo*> infos = [] {
    std::vector<const FunctionalityInfo*> out;
    for (const CoreKindEntry& e : core_kinds())
      for (const FunctionalityInfo& f : e.functionalities) {
        if (!f.name) break;
        out.push_back(&f);
      }
    return out;
  }();
  return infos;
}

std::unique_ptr<IpCore> make_core(const std::string& name, const CoreParams& params) {
  return core_kind(params.kind).make(name, params);
}

}  // namespace rsoc::models
