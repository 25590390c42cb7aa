#include "models/core_kinds.h"

#include <algorithm>
#include <stdexcept>

#include "models/ip_core.h"
#include "models/rtl_core.h"

namespace rsoc::models {

namespace {

// A parameter's description is complete and its default is one of its values.
void check_kind_param(const std::string& where, const KindParam& k) {
  const std::string what = where + ": parameter " + k.key;
  if (!k.doc || !k.set) throw std::logic_error(what + " needs a doc and a set");
  if (k.choices) {
    const std::vector<std::string> names = k.choices();
    if (!k.default_choice || std::find(names.begin(), names.end(), k.default_choice) == names.end())
      throw std::logic_error(what + ": its default_choice must be one of its choices");
  } else if (k.min > k.fallback || k.fallback > k.max) {
    throw std::logic_error(what + ": expected min <= fallback <= max");
  }
}

bool same_text(const char* a, const char* b) {
  return a == b || (a && b && std::string_view(a) == b);
}

// Two kinds may share a key only for the same values.
bool same_values(const KindParam& a, const KindParam& b) {
  if (!a.choices != !b.choices) return false;
  if (a.choices) return a.choices() == b.choices() && same_text(a.default_choice, b.default_choice);
  return same_text(a.unit, b.unit) && a.min == b.min && a.max == b.max && a.fallback == b.fallback;
}

}  // namespace

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
    for (const KindParam& k : e.params) {
      if (!k.key) break;  // the end of the kind's list
      check_kind_param(where, k);
      for (std::size_t j = 0; j <= i; ++j)
        for (const KindParam& other : kinds[j].get().params) {
          if (!other.key || &other == &k) break;
          if (std::string_view(other.key) == k.key && !same_values(other, k))
            throw std::logic_error(where + ": parameter " + k.key + " takes other values than core kind " +
                                   kinds[j].get().name + "'s");
        }
    }
  }
}

const std::vector<std::vector<const KindParam*>>& kind_params_by_key() {
  static const std::vector<std::vector<const KindParam*>> by_key = [] {
    std::vector<std::vector<const KindParam*>> out;
    for (const CoreKindEntry& e : core_kinds())
      for (const KindParam& k : e.params) {
        if (!k.key) break;
        auto same = std::find_if(out.begin(), out.end(), [&](const auto& params) {
          return std::string_view(params[0]->key) == k.key;
        });
        if (same == out.end())
          out.push_back({&k});
        else
          same->push_back(&k);
      }
    return out;
  }();
  return by_key;
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
  if (params.rtl) return make_rtl_core(name, params);
  return core_kind(params.kind).make(name, params);
}

}  // namespace rsoc::models
