#include "platform/schema.h"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>
#include <stdexcept>
#include <utility>

#include "platform/json_file.h"

namespace rsoc::platform {

namespace {

using Json = nlohmann::json;
using Kind = Schema::Kind;

constexpr const char* kIdentifierPattern = "[a-z][a-z0-9_]*";
constexpr std::size_t kMaxQuotedChars = 60;  // longer strings are shortened in messages

// --- text helpers

// A string in a message (a key, a name, a value the user gave): quoted, shortened when long, so that a
// message stays a line however long what it quotes.
std::string Quote(std::string_view text) {
  const auto quote = [](std::string_view t) {
    return Json(std::string(t)).dump(-1, ' ', false, Json::error_handler_t::replace);
  };
  if (text.size() <= kMaxQuotedChars) return quote(text);
  std::size_t cut = kMaxQuotedChars;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // keep UTF-8 whole
  std::string quoted = quote(text.substr(0, cut));
  quoted.insert(quoted.size() - 1, "...");
  return quoted;
}


std::string Join(const std::vector<std::string>& items, std::string_view separator) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += separator;
    text += items[i];
  }
  return text;
}

std::string QuotedList(const std::vector<std::string>& items) {
  std::vector<std::string> quoted;
  quoted.reserve(items.size());
  for (const std::string& item : items) quoted.push_back(Quote(item));
  return Join(quoted, ", ");
}

std::string Count(std::size_t n, std::string_view singular, std::string_view plural) {
  return std::to_string(n) + ' ' + std::string(n == 1 ? singular : plural);
}

std::string Hex(std::uint64_t value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "0x%" PRIX64, value);
  return buffer;
}

// A bound declared in the schema: integral values without a fraction, addresses in hex.
std::string FormatBound(double value, bool hex) {
  if (hex && value >= 0 && value < 18446744073709551616.0 && std::floor(value) == value) {
    return Hex(static_cast<std::uint64_t>(value));
  }
  char buffer[64];
  if (std::floor(value) == value && std::fabs(value) < 1e15) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
    return buffer;
  }
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

bool IsIdentifier(std::string_view text) {
  if (text.empty() || text[0] < 'a' || text[0] > 'z') return false;
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

std::size_t Utf8Length(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

std::string UnknownKeyMessage(std::string_view key, const std::vector<std::string>& allowed) {
  std::string message = "unknown key " + Quote(key);
  if (std::optional<std::string> near = nearest_match(key, allowed)) {
    return message + "; did you mean " + Quote(*near) + "?";
  }
  return message + " (allowed: " + (allowed.empty() ? std::string("none") : Join(allowed, ", ")) + ")";
}

std::vector<std::string> FieldKeys(const Schema& schema) {
  std::vector<std::string> keys;
  for (const Schema::Field& field : schema.fields()) keys.push_back(field.key);
  return keys;
}

// "a value of this kind" without "or null", for range messages.
std::string Noun(const Schema& schema) {
  std::string unit = schema.unit_text().empty() ? "" : " (" + schema.unit_text() + ")";
  switch (schema.kind()) {
    case Kind::kObject:
    case Kind::kMap:
      return "an object";
    case Kind::kArray:
      return "an array";
    case Kind::kInteger:
      return "an integer" + unit;
    case Kind::kNumber:
      return "a number" + unit;
    case Kind::kBoolean:
      return "a boolean";
    case Kind::kString:
      return "a string";
    case Kind::kEnumeration:
      return "one of " + QuotedList(schema.enum_values());
    case Kind::kAddress:
      return "an address" + unit;
  }
  return "a value";
}

bool IsNumeric(Kind kind) {
  return kind == Kind::kInteger || kind == Kind::kNumber || kind == Kind::kAddress;
}

// "> 0 and <= 10000" (messages, separator " and ") or "> 0, <= 10000" (documentation, separator ", ").
std::string NumericRange(const Schema& schema, std::string_view separator) {
  const bool hex = schema.kind() == Kind::kAddress;
  std::vector<std::string> parts;
  if (const auto& lower = schema.lower()) {
    parts.push_back(std::string(lower->exclusive ? "> " : ">= ") + FormatBound(lower->value, hex));
  }
  if (const auto& upper = schema.upper()) {
    parts.push_back(std::string(upper->exclusive ? "< " : "<= ") + FormatBound(upper->value, hex));
  }
  return Join(parts, separator);
}

bool InRange(const Schema& schema, long double value) {
  if (const auto& lower = schema.lower()) {
    const long double bound = lower->value;
    if (lower->exclusive ? !(value > bound) : !(value >= bound)) return false;
  }
  if (const auto& upper = schema.upper()) {
    const long double bound = upper->value;
    if (upper->exclusive ? !(value < bound) : !(value <= bound)) return false;
  }
  return true;
}

std::string RangeIssue(const std::string& value_text, const Schema& schema) {
  return value_text + " is out of range; expected " + Noun(schema) + ' ' + NumericRange(schema, " and ");
}

// Parses "0x..." (or "0X...") into a 64-bit address.
std::optional<std::uint64_t> ParseHexAddress(std::string_view text) {
  if (text.size() < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) return std::nullopt;
  std::uint64_t value = 0;
  for (char c : text.substr(2)) {
    unsigned digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      digit = static_cast<unsigned>(c - 'A' + 10);
    } else {
      return std::nullopt;
    }
    if (value > (std::numeric_limits<std::uint64_t>::max() >> 4)) return std::nullopt;
    value = (value << 4) | digit;
  }
  return value;
}

// --- value descriptions

template <typename J>
std::string Describe(const J& value) {
  if (value.is_null()) return "null";
  if (value.is_boolean()) return std::string("a boolean ") + (value.template get<bool>() ? "true" : "false");
  if (value.is_number_integer()) return "an integer " + value.dump();
  if (value.is_number_float()) return "a number " + value.dump();
  if (value.is_string()) return "a string " + Quote(value.template get_ref<const std::string&>());
  if (value.is_array()) return "an array";
  if (value.is_object()) return "an object";
  return "an unsupported value";
}

// --- resolution

Json ResolveAbsent(const Schema& schema, const std::string& pointer);

template <typename J>
class Resolver {
 public:
  explicit Resolver(IssueList& issues) : issues_(issues) {}

  Json Resolve(const J& in, const Schema& schema, const std::string& pointer) {
    if (in.is_null() && schema.is_nullable()) return nullptr;
    switch (schema.kind()) {
      case Kind::kObject:
        return ResolveObject(in, schema, pointer);
      case Kind::kMap:
        return ResolveMap(in, schema, pointer);
      case Kind::kArray:
        return ResolveArray(in, schema, pointer);
      case Kind::kInteger:
        return ResolveInteger(in, schema, pointer);
      case Kind::kNumber:
        return ResolveNumber(in, schema, pointer);
      case Kind::kBoolean:
        if (!in.is_boolean()) return TypeIssue(in, schema, pointer);
        return in.template get<bool>();
      case Kind::kString:
        return ResolveString(in, schema, pointer);
      case Kind::kEnumeration:
        return ResolveEnumeration(in, schema, pointer);
      case Kind::kAddress:
        return ResolveAddress(in, schema, pointer);
    }
    return Json(in);
  }

 private:
  Json TypeIssue(const J& in, const Schema& schema, const std::string& pointer) {
    issues_.add(pointer, "expected " + schema.expected_text() + ", got " + Describe(in));
    return Json(in);
  }

  Json ResolveObject(const J& in, const Schema& schema, const std::string& pointer) {
    if (!in.is_object()) return TypeIssue(in, schema, pointer);
    for (const Schema::Field& field : schema.fields()) {
      if (in.contains(field.key) || field.schema.resolves_when_absent()) continue;
      std::string detail = field.schema.type_text();
      if (!field.schema.unit_text().empty()) detail += " in " + field.schema.unit_text();
      if (!field.schema.doc_text().empty()) detail += ": " + field.schema.doc_text();
      issues_.add(pointer, "missing required key " + Quote(field.key) + " (" + detail + ")");
    }
    Json out = Json::object();
    for (auto it = in.begin(); it != in.end(); ++it) {
      const std::string child = pointer_child(pointer, it.key());
      const Schema::Field* field = schema.find_field(it.key());
      if (field == nullptr) {
        issues_.add(child, UnknownKeyMessage(it.key(), FieldKeys(schema)));
        continue;
      }
      out[it.key()] = Resolve(it.value(), field->schema, child);
    }
    for (const Schema::Field& field : schema.fields()) {
      if (in.contains(field.key) || !field.schema.resolves_when_absent()) continue;
      out[field.key] = ResolveAbsent(field.schema, pointer_child(pointer, field.key));
    }
    return out;
  }

  // Returns false when there are more items than the schema allows: then they are not looked at one by one
  // (millions of them would only exhaust memory).
  bool CheckCount(std::size_t count, const Schema& schema, const std::string& pointer,
                  std::string_view singular, std::string_view plural) {
    if (schema.min_items_value() && count < *schema.min_items_value()) {
      issues_.add(pointer, "expected at least " + Count(*schema.min_items_value(), singular, plural) +
                               ", got " + std::to_string(count));
    } else if (schema.max_items_value() && count > *schema.max_items_value()) {
      issues_.add(pointer, "expected at most " + Count(*schema.max_items_value(), singular, plural) +
                               ", got " + std::to_string(count));
      return false;
    }
    return true;
  }

  Json ResolveMap(const J& in, const Schema& schema, const std::string& pointer) {
    if (!in.is_object()) return TypeIssue(in, schema, pointer);
    if (!CheckCount(in.size(), schema, pointer, "entry", "entries")) return Json::object();
    Json out = Json::object();
    for (auto it = in.begin(); it != in.end(); ++it) {
      const std::string child = pointer_child(pointer, it.key());
      const std::vector<std::string>& keys = schema.key_values();
      if (!keys.empty() && std::find(keys.begin(), keys.end(), it.key()) == keys.end()) {
        issues_.add(child, UnknownKeyMessage(it.key(), keys));
        continue;
      }
      if (schema.identifier_keys() && !IsIdentifier(it.key())) {
        issues_.add(child, "key " + Quote(it.key()) +
                               " is not a valid identifier; expected a key matching " + kIdentifierPattern);
      }
      out[it.key()] = Resolve(it.value(), schema.element(), child);
    }
    return out;
  }

  Json ResolveArray(const J& in, const Schema& schema, const std::string& pointer) {
    if (!in.is_array()) return TypeIssue(in, schema, pointer);
    if (!CheckCount(in.size(), schema, pointer, "item", "items")) return Json::array();
    Json out = Json::array();
    for (std::size_t i = 0; i < in.size(); ++i)
      out.push_back(Resolve(in[i], schema.element(), pointer_child(pointer, i)));
    return out;
  }

  Json ResolveInteger(const J& in, const Schema& schema, const std::string& pointer) {
    if (!in.is_number_integer()) return TypeIssue(in, schema, pointer);
    if (in.is_number_unsigned() && in.template get<std::uint64_t>() >
                                       static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
      issues_.add(pointer,
                  in.dump() + " is out of range; expected " + Noun(schema) + " that fits in 64 bits");
      return Json(in);
    }
    const auto value = in.template get<std::int64_t>();
    if (!InRange(schema, static_cast<long double>(value)))
      issues_.add(pointer, RangeIssue(in.dump(), schema));
    return value;
  }

  Json ResolveNumber(const J& in, const Schema& schema, const std::string& pointer) {
    if (!in.is_number()) return TypeIssue(in, schema, pointer);
    const auto value = in.template get<double>();
    if (!InRange(schema, static_cast<long double>(value)))
      issues_.add(pointer, RangeIssue(in.dump(), schema));
    return value;
  }

  Json ResolveString(const J& in, const Schema& schema, const std::string& pointer) {
    if (!in.is_string()) return TypeIssue(in, schema, pointer);
    const auto& value = in.template get_ref<const std::string&>();
    const std::size_t length = Utf8Length(value);
    if (schema.min_length_value() && length < *schema.min_length_value()) {
      issues_.add(pointer, Quote(value) + " is too short; expected a string of at least " +
                               Count(*schema.min_length_value(), "character", "characters"));
    } else if (schema.max_length_value() && length > *schema.max_length_value()) {
      issues_.add(pointer, Quote(value) + " is too long; expected a string of at most " +
                               Count(*schema.max_length_value(), "character", "characters"));
    } else if (schema.identifier_only() && !IsIdentifier(value)) {
      issues_.add(pointer, Quote(value) + " is not a valid identifier; expected a string matching " +
                               kIdentifierPattern);
    }
    return value;
  }

  Json ResolveEnumeration(const J& in, const Schema& schema, const std::string& pointer) {
    if (!in.is_string()) return TypeIssue(in, schema, pointer);
    const auto& value = in.template get_ref<const std::string&>();
    const std::vector<std::string>& values = schema.enum_values();
    if (std::find(values.begin(), values.end(), value) == values.end()) {
      issues_.add(pointer, not_one_of_message(value, values));
    }
    return value;
  }

  Json ResolveAddress(const J& in, const Schema& schema, const std::string& pointer) {
    std::uint64_t value = 0;
    std::string text;
    if (in.is_number_unsigned() || (in.is_number_integer() && in.template get<std::int64_t>() >= 0)) {
      value = in.template get<std::uint64_t>();
      text = in.dump();
    } else if (in.is_string()) {
      const auto& hex = in.template get_ref<const std::string&>();
      std::optional<std::uint64_t> parsed = ParseHexAddress(hex);
      if (!parsed) return TypeIssue(in, schema, pointer);
      value = *parsed;
      text = hex;
    } else {
      return TypeIssue(in, schema, pointer);
    }
    if (!InRange(schema, static_cast<long double>(value))) issues_.add(pointer, RangeIssue(text, schema));
    return value;
  }

  IssueList& issues_;
};

// The resolved value of an absent key; only called when schema.resolves_when_absent().
Json ResolveAbsent(const Schema& schema, const std::string& pointer) {
  IssueList issues("schema default");
  Resolver<Json> resolver(issues);
  Json value = schema.has_default() ? resolver.Resolve(schema.default_json(), schema, pointer)
                                    : resolver.Resolve(Json::object(), schema, pointer);
  if (!issues.empty()) throw std::logic_error("invalid default in the schema: " + issues.to_string());
  return value;
}

template <typename J>
Resolution ResolveDocument(const J& input, const Schema& schema, std::string_view file) {
  Resolution resolution{Json(), IssueList(std::string(file))};
  Resolver<J> resolver(resolution.issues);
  resolution.value = resolver.Resolve(input, schema, "");
  return resolution;
}

template <typename J>
Json ResolveOrThrow(const J& input, const Schema& schema, std::string_view file) {
  Resolution resolution = ResolveDocument(input, schema, file);
  resolution.issues.throw_if_any();
  return std::move(resolution.value);
}

// --- overrides

// Splits a dotted path or a JSON pointer into unescaped tokens; returns an error text on failure.
std::optional<std::string> SplitPath(std::string_view path, std::vector<std::string>& tokens) {
  if (path.front() == '/') {
    std::string token;
    for (std::size_t i = 1; i <= path.size(); ++i) {
      if (i == path.size() || path[i] == '/') {
        tokens.push_back(token);
        token.clear();
      } else if (path[i] == '~') {
        if (i + 1 < path.size() && (path[i + 1] == '0' || path[i + 1] == '1')) {
          token += path[i + 1] == '0' ? '~' : '/';
          ++i;
        } else {
          return "invalid escape in JSON pointer " + Quote(path) + "; use ~0 for '~' and ~1 for '/'";
        }
      } else {
        token += path[i];
      }
    }
    return std::nullopt;
  }
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    std::string_view token =
        path.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (token.empty()) return "empty key in path " + Quote(path);
    tokens.emplace_back(token);
    if (dot == std::string_view::npos) return std::nullopt;
    start = dot + 1;
  }
}

std::optional<std::size_t> ParseIndex(std::string_view token) {
  if (token.empty() || token.size() > 18 || (token.size() > 1 && token[0] == '0')) return std::nullopt;
  std::size_t index = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return std::nullopt;
    index = index * 10 + static_cast<std::size_t>(c - '0');
  }
  return index;
}

// A problem an override's path meets: where, and what.
struct PathError {
  std::string pointer, message;
};

// One key `token` of an override's path into an object or map `node_schema` at `pointer`; `node` moves to
// the document's value there (nullptr once the path leaves the existing document).
template <typename J>
std::optional<PathError> StepIntoObject(const Schema*& node_schema, const J*& node, const std::string& token,
                                        const std::string& pointer) {
  const bool present = node != nullptr && !node->is_null();
  const Schema* child_schema = nullptr;
  if (node_schema->kind() == Kind::kObject) {
    const Schema::Field* field = node_schema->find_field(token);
    if (field == nullptr)
      return PathError{pointer_child(pointer, token), UnknownKeyMessage(token, FieldKeys(*node_schema))};
    child_schema = &field->schema;
  } else {
    const std::vector<std::string>& keys = node_schema->key_values();
    if (!keys.empty() && std::find(keys.begin(), keys.end(), token) == keys.end()) {
      return PathError{pointer_child(pointer, token), UnknownKeyMessage(token, keys)};
    }
    child_schema = &node_schema->element();
  }
  if (present && !node->is_object()) {
    return PathError{pointer,
                     "cannot set " + Quote(token) + " here: expected an object, got " + Describe(*node)};
  }
  if (present) {
    auto it = node->find(token);
    node = it == node->end() ? nullptr : &*it;
  } else {
    node = nullptr;
  }
  node_schema = child_schema;
  return std::nullopt;
}

// One element `token` (an index, "-" to append, or an element's name, made its index) of an override's path
// into an array `node_schema` at `pointer`.
template <typename J>
std::optional<PathError> StepIntoArray(const Schema*& node_schema, const J*& node, std::string& token,
                                       const std::string& pointer) {
  const bool present = node != nullptr && !node->is_null();
  if (present && !node->is_array()) {
    return PathError{pointer,
                     "cannot set item " + Quote(token) + " here: expected an array, got " + Describe(*node)};
  }
  const std::size_t size = present ? node->size() : 0;
  std::optional<std::size_t> index = token == "-" ? std::optional<std::size_t>(size) : ParseIndex(token);
  // An element of an array of named elements, by its name (platform.buses.plb.clock_mhz).
  const bool digits = !token.empty() && token.find_first_not_of("0123456789") == std::string::npos;
  std::vector<std::string> names;
  for (std::size_t k = 0; !index && !digits && k < size; ++k) {
    const J& element = (*node)[k];
    if (!element.is_object() || !element.contains("name") || !element["name"].is_string()) continue;
    names.push_back(element["name"].template get<std::string>());
    if (names.back() == token) index = k;
  }
  if (!index && !names.empty()) {
    std::string message = "no element named " + Quote(token);
    if (std::optional<std::string> near = nearest_match(token, names))
      return PathError{pointer_child(pointer, token), message + "; did you mean " + Quote(*near) + "?"};
    return PathError{pointer_child(pointer, token), message + " (the names: " + QuotedList(names) +
                                                        "; or an index: 0, 1, ..., or - to append)"};
  }
  if (!index) {
    return PathError{pointer_child(pointer, token),
                     "expected an array index (0, 1, ..., or - to append), got " + Quote(token)};
  }
  if (*index > size) {
    return PathError{pointer_child(pointer, token),
                     "index " + std::to_string(*index) + " is out of range; the array has " +
                         Count(size, "item", "items") + " (index " + std::to_string(size) + " appends)"};
  }
  token = std::to_string(*index);
  node = *index < size ? &(*node)[*index] : nullptr;
  node_schema = &node_schema->element();
  return std::nullopt;
}

// Pass 1 of an override: checks every key of `tokens` against the schema and the document's shape without
// touching the document; array elements become their indices (is_index), `pointer` the path's JSON pointer.
template <typename J>
std::optional<PathError> CheckPath(const J& doc, const Schema& schema, std::vector<std::string>& tokens,
                                   std::vector<bool>& is_index, std::string& pointer) {
  const Schema* node_schema = &schema;
  const J* node = &doc;  // nullptr once the path leaves the existing document
  is_index.assign(tokens.size(), false);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    std::string& token = tokens[i];
    std::optional<PathError> error;
    switch (node_schema->kind()) {
      case Kind::kObject:
      case Kind::kMap:
        error = StepIntoObject(node_schema, node, token, pointer);
        break;
      case Kind::kArray:
        error = StepIntoArray(node_schema, node, token, pointer);
        is_index[i] = true;
        break;
      default:
        return PathError{pointer_child(pointer, token),
                         "unknown key " + Quote(token) + ": the value at " +
                             (pointer.empty() ? std::string("the root") : pointer) + " is " +
                             Noun(*node_schema) + ", not an object"};
    }
    if (error) return error;
    pointer = pointer_child(pointer, token);
  }
  return std::nullopt;
}

// The value of an override: JSON, or else the text as a string (name=aes, not name="aes"); a number no
// double holds is an error, not the string "1e400".
template <typename J>
std::optional<std::string> ParseValue(std::string_view text, J& value) {
  if (json_too_deep(text))  // before it is parsed: walking it would exhaust the stack
    return "the value is JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
  try {
    value = J::parse(text);
  } catch (const typename J::parse_error&) {
    value = J(std::string(text));
  } catch (const typename J::out_of_range& error) {  // "... number overflow parsing '1e400'"
    const std::string what = error.what();
    const std::size_t open = what.find('\''), close = what.rfind('\'');
    const std::string number = open != std::string::npos && close > open
                                   ? what.substr(open + 1, close - open - 1)
                                   : std::string(text);
    return "number " + number + " is out of range (beyond what a double holds: about 1.8e308)";
  }
  return std::nullopt;
}

// PATH=VALUE split, its path into keys; the problem if it is malformed.
std::optional<std::string> SplitAssignment(std::string_view assignment, std::vector<std::string>& tokens,
                                           std::string_view& text) {
  // Scenarios are JSON text: UTF-8 (a byte that is not would end up in results that must be valid JSON).
  if (const auto bad = invalid_utf8(assignment)) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(assignment[*bad]));
    return "malformed override: not UTF-8 text (byte " + std::string(hex) + " at offset " +
           std::to_string(*bad) + ")";
  }
  const std::size_t equals = assignment.find('=');
  if (equals == std::string_view::npos) return "malformed override: expected PATH=VALUE";
  const std::string_view path = assignment.substr(0, equals);
  text = assignment.substr(equals + 1);
  if (path.empty()) return "malformed override: empty path; expected PATH=VALUE";
  if (std::optional<std::string> error = SplitPath(path, tokens)) return "malformed override: " + *error;
  return std::nullopt;
}

template <typename J>
bool ApplyOverride(J& doc, std::string_view assignment, const Schema& schema, IssueList& issues,
                   std::string_view source = {}, std::string* set_pointer = nullptr) {
  const std::string flag =
      printable_text(source.empty() ? "--set " + std::string(assignment) : std::string(source));
  auto fail = [&](std::string pointer, std::string message) {
    issues.add(ScenarioIssue{flag, std::move(pointer), std::move(message)});
    return false;
  };
  std::vector<std::string> tokens;
  std::string_view text;
  if (std::optional<std::string> error = SplitAssignment(assignment, tokens, text)) return fail("", *error);
  std::vector<bool> is_index;
  std::string pointer;
  if (std::optional<PathError> error = CheckPath(doc, schema, tokens, is_index, pointer))
    return fail(error->pointer, error->message);
  J value;
  if (std::optional<std::string> error = ParseValue(text, value)) return fail(pointer, *error);

  // Pass 2: create what is missing along the path and assign.
  J* target = &doc;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (is_index[i]) {
      if (!target->is_array()) *target = J::array();
      const std::size_t index = std::stoul(tokens[i]);
      if (index == target->size()) target->push_back(J());
      target = &(*target)[index];
    } else {
      if (!target->is_object()) *target = J::object();
      target = &(*target)[tokens[i]];
    }
  }
  *target = std::move(value);
  if (set_pointer) *set_pointer = pointer;
  return true;
}

template <typename J>
void ApplyOverrides(J& doc, const std::vector<std::string>& assignments, const Schema& schema) {
  IssueList issues;
  for (const std::string& assignment : assignments) ApplyOverride(doc, assignment, schema, issues);
  issues.throw_if_any();
}

// --- documentation

std::string JoinPath(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + '.' + std::string(key);
}

std::string RangeText(const Schema& schema) {
  std::vector<std::string> parts;
  if (IsNumeric(schema.kind())) {
    std::string numeric = NumericRange(schema, ", ");
    if (!numeric.empty()) parts.push_back(numeric);
  }
  if (schema.min_length_value()) parts.push_back("length >= " + std::to_string(*schema.min_length_value()));
  if (schema.max_length_value()) parts.push_back("length <= " + std::to_string(*schema.max_length_value()));
  if (schema.identifier_only()) parts.emplace_back(kIdentifierPattern);
  const bool map = schema.kind() == Kind::kMap;
  if (schema.min_items_value()) {
    parts.push_back("at least " +
                    Count(*schema.min_items_value(), map ? "entry" : "item", map ? "entries" : "items"));
  }
  if (schema.max_items_value()) {
    parts.push_back("at most " +
                    Count(*schema.max_items_value(), map ? "entry" : "item", map ? "entries" : "items"));
  }
  if (!schema.key_values().empty()) parts.push_back("keys: " + Join(schema.key_values(), " | "));
  if (schema.identifier_keys()) parts.push_back(std::string("keys: ") + kIdentifierPattern);
  return Join(parts, ", ");
}

void DocumentChildren(const Schema& schema, const std::string& path, std::vector<SchemaDocRow>& rows);

void DocumentNode(const Schema& schema, const std::string& path, std::vector<SchemaDocRow>& rows) {
  SchemaDocRow row;
  row.path = path;
  row.type = schema.type_text();
  row.unit = schema.unit_text();
  if (schema.has_default()) {
    ResolveAbsent(schema, "");  // throws when the default does not validate
    row.default_text = schema.default_json().dump(-1, ' ', false, Json::error_handler_t::replace);
  } else {
    row.default_text = schema.resolves_when_absent() ? "see fields" : "required";
  }
  row.range = RangeText(schema);
  row.doc = schema.doc_text();
  if (schema.kind() == Kind::kMap && !schema.key_doc_text().empty()) {
    row.doc += (row.doc.empty() ? "" : " ") + std::string("Keys: ") + schema.key_doc_text();
  }
  rows.push_back(std::move(row));
  DocumentChildren(schema, path, rows);
}

void DocumentChildren(const Schema& schema, const std::string& path, std::vector<SchemaDocRow>& rows) {
  switch (schema.kind()) {
    case Kind::kObject:
      for (const Schema::Field& field : schema.fields())
        DocumentNode(field.schema, JoinPath(path, field.key), rows);
      break;
    case Kind::kArray:
      if (schema.element().kind() == Kind::kObject) {
        DocumentChildren(schema.element(), path + "[]", rows);
      } else {
        DocumentNode(schema.element(), path + "[]", rows);
      }
      break;
    case Kind::kMap:
      DocumentNode(schema.element(), JoinPath(path, "<" + schema.key_name_text() + ">"), rows);
      break;
    default:
      break;
  }
}

std::string MarkdownCell(std::string_view text) {
  std::string cell;
  for (char c : text) {
    if (c == '|') {
      cell += "\\|";
    } else if (c == '\n' || c == '\r') {
      cell += ' ';
    } else {
      cell += c;
    }
  }
  return cell;
}

std::string Code(std::string_view text) {
  return text.empty() ? "" : "`" + std::string(text) + "`";
}

}  // namespace

// --- Schema

Schema Schema::object(std::vector<Field> fields) {
  std::set<std::string> seen;
  for (const Field& field : fields) {
    if (field.key.empty()) throw std::invalid_argument("schema object with an empty key");
    if (!seen.insert(field.key).second)
      throw std::invalid_argument("schema object declares key \"" + field.key + "\" twice");
  }
  Schema schema(Kind::kObject);
  schema.fields_ = std::move(fields);
  return schema;
}

Schema Schema::map(Schema value) {
  Schema schema(Kind::kMap);
  schema.element_ = std::make_shared<const Schema>(std::move(value));
  return schema;
}

Schema Schema::array(Schema item) {
  Schema schema(Kind::kArray);
  schema.element_ = std::make_shared<const Schema>(std::move(item));
  return schema;
}

Schema Schema::integer() {
  return Schema(Kind::kInteger);
}
Schema Schema::number() {
  return Schema(Kind::kNumber);
}
Schema Schema::boolean() {
  return Schema(Kind::kBoolean);
}
Schema Schema::string() {
  return Schema(Kind::kString);
}
Schema Schema::address() {
  return Schema(Kind::kAddress);
}

Schema Schema::enumeration(std::vector<std::string> values) {
  if (values.empty()) throw std::invalid_argument("schema enumeration without values");
  if (std::set<std::string>(values.begin(), values.end()).size() != values.size()) {
    throw std::invalid_argument("schema enumeration with a duplicated value");
  }
  Schema schema(Kind::kEnumeration);
  schema.enum_values_ = std::move(values);
  return schema;
}

void Schema::require_kind(std::initializer_list<Kind> kinds, const char* setting) const {
  if (std::find(kinds.begin(), kinds.end(), kind_) == kinds.end()) {
    throw std::logic_error(std::string("schema setting ") + setting + " does not apply to " + type_text());
  }
}

Schema& Schema::doc(std::string text) {
  doc_ = std::move(text);
  return *this;
}

Schema& Schema::unit(std::string unit) {
  require_kind({Kind::kInteger, Kind::kNumber, Kind::kAddress}, "unit");
  unit_ = std::move(unit);
  return *this;
}

Schema& Schema::default_value(Json value) {
  default_ = std::move(value);
  return *this;
}

Schema& Schema::required() {
  default_.reset();
  return *this;
}

Schema& Schema::nullable(bool allow) {
  nullable_ = allow;
  return *this;
}

Schema& Schema::min(double bound) {
  require_kind({Kind::kInteger, Kind::kNumber, Kind::kAddress}, "min");
  lower_ = Bound{bound, false};
  return *this;
}

Schema& Schema::max(double bound) {
  require_kind({Kind::kInteger, Kind::kNumber, Kind::kAddress}, "max");
  upper_ = Bound{bound, false};
  return *this;
}

Schema& Schema::exclusive_min(double bound) {
  require_kind({Kind::kInteger, Kind::kNumber, Kind::kAddress}, "exclusive_min");
  lower_ = Bound{bound, true};
  return *this;
}

Schema& Schema::exclusive_max(double bound) {
  require_kind({Kind::kInteger, Kind::kNumber, Kind::kAddress}, "exclusive_max");
  upper_ = Bound{bound, true};
  return *this;
}

Schema& Schema::min_length(std::size_t length) {
  require_kind({Kind::kString}, "min_length");
  min_length_ = length;
  return *this;
}

Schema& Schema::max_length(std::size_t length) {
  require_kind({Kind::kString}, "max_length");
  max_length_ = length;
  return *this;
}

Schema& Schema::pattern_identifier() {
  require_kind({Kind::kString}, "pattern_identifier");
  identifier_ = true;
  return *this;
}

Schema& Schema::min_items(std::size_t count) {
  require_kind({Kind::kArray, Kind::kMap}, "min_items");
  min_items_ = count;
  return *this;
}

Schema& Schema::max_items(std::size_t count) {
  require_kind({Kind::kArray, Kind::kMap}, "max_items");
  max_items_ = count;
  return *this;
}

Schema& Schema::key_enum(std::vector<std::string> keys) {
  require_kind({Kind::kMap}, "key_enum");
  key_values_ = std::move(keys);
  return *this;
}

Schema& Schema::key_pattern_identifier() {
  require_kind({Kind::kMap}, "key_pattern_identifier");
  identifier_keys_ = true;
  return *this;
}

Schema& Schema::key_name(std::string name) {
  require_kind({Kind::kMap}, "key_name");
  key_name_ = std::move(name);
  return *this;
}

Schema& Schema::key_doc(std::string text) {
  require_kind({Kind::kMap}, "key_doc");
  key_doc_ = std::move(text);
  return *this;
}

const Json& Schema::default_json() const {
  if (!default_) throw std::logic_error("schema node has no default");
  return *default_;
}

bool Schema::resolves_when_absent() const {
  if (default_) return true;
  if (kind_ != Kind::kObject) return false;
  return std::all_of(fields_.begin(), fields_.end(),
                     [](const Field& field) { return field.schema.resolves_when_absent(); });
}

const Schema::Field* Schema::find_field(std::string_view key) const {
  for (const Field& field : fields_) {
    if (field.key == key) return &field;
  }
  return nullptr;
}

const Schema& Schema::element() const {
  if (!element_) throw std::logic_error("schema node has no element schema");
  return *element_;
}

std::string Schema::type_text() const {
  std::string text;
  switch (kind_) {
    case Kind::kObject:
      text = "object";
      break;
    case Kind::kMap:
      text = "map of " + element_->type_text();
      break;
    case Kind::kArray:
      text = "array of " + element_->type_text();
      break;
    case Kind::kInteger:
      text = "integer";
      break;
    case Kind::kNumber:
      text = "number";
      break;
    case Kind::kBoolean:
      text = "boolean";
      break;
    case Kind::kString:
      text = "string";
      break;
    case Kind::kEnumeration:
      text = "enum: " + Join(enum_values_, " | ");
      break;
    case Kind::kAddress:
      text = "address";
      break;
  }
  return nullable_ ? text + " or null" : text;
}

std::string Schema::expected_text() const {
  std::string text = Noun(*this);
  if (kind_ == Kind::kAddress) text += ": a non-negative integer or a hex string like \"0x40000000\"";
  return nullable_ ? text + " or null" : text;
}

// --- free functions

Resolution resolve(const Json& input, const Schema& schema, std::string_view file) {
  return ResolveDocument(input, schema, file);
}

Resolution resolve(const nlohmann::ordered_json& input, const Schema& schema, std::string_view file) {
  return ResolveDocument(input, schema, file);
}

Json resolve_or_throw(const Json& input, const Schema& schema, std::string_view file) {
  return ResolveOrThrow(input, schema, file);
}

Json resolve_or_throw(const nlohmann::ordered_json& input, const Schema& schema, std::string_view file) {
  return ResolveOrThrow(input, schema, file);
}

bool apply_override(Json& doc, std::string_view assignment, const Schema& schema, IssueList& issues) {
  return ApplyOverride(doc, assignment, schema, issues);
}

bool apply_override(nlohmann::ordered_json& doc, std::string_view assignment, const Schema& schema,
                    IssueList& issues, std::string_view source, std::string* set_pointer) {
  return ApplyOverride(doc, assignment, schema, issues, source, set_pointer);
}

void apply_override(Json& doc, std::string_view assignment, const Schema& schema) {
  ApplyOverrides(doc, std::vector<std::string>{std::string(assignment)}, schema);
}

void apply_override(nlohmann::ordered_json& doc, std::string_view assignment, const Schema& schema) {
  ApplyOverrides(doc, std::vector<std::string>{std::string(assignment)}, schema);
}

void apply_overrides(Json& doc, const std::vector<std::string>& assignments, const Schema& schema) {
  ApplyOverrides(doc, assignments, schema);
}

void apply_overrides(nlohmann::ordered_json& doc, const std::vector<std::string>& assignments,
                     const Schema& schema) {
  ApplyOverrides(doc, assignments, schema);
}

bool SchemaDocRow::operator==(const SchemaDocRow& other) const {
  return path == other.path && type == other.type && unit == other.unit &&
         default_text == other.default_text && range == other.range && doc == other.doc;
}

std::vector<SchemaDocRow> document(const Schema& schema) {
  std::vector<SchemaDocRow> rows;
  DocumentChildren(schema, "", rows);
  return rows;
}

std::string document_markdown(const Schema& schema) {
  std::string text =
      "| Key | Type | Unit | Default | Range | Description |\n"
      "|-----|------|------|---------|-------|-------------|\n";
  for (const SchemaDocRow& row : document(schema)) {
    const bool json_default = row.default_text != "required" && row.default_text != "see fields";
    text += "| " + MarkdownCell(Code(row.path)) + " | " + MarkdownCell(row.type) + " | " +
            MarkdownCell(row.unit) + " | " +
            MarkdownCell(json_default ? Code(row.default_text) : row.default_text) + " | " +
            MarkdownCell(row.range) + " | " + MarkdownCell(row.doc) + " |\n";
  }
  return text;
}

std::vector<std::string> undocumented_paths(const Schema& schema) {
  std::vector<std::string> paths;
  for (const SchemaDocRow& row : document(schema)) {
    if (row.doc.empty()) paths.push_back(row.path);
  }
  return paths;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: insertions, deletions, substitutions and adjacent transpositions. Three rows of
  // the table at a time: memory O(|b|).
  const std::size_t m = b.size();
  std::vector<std::size_t> before(m + 1), previous(m + 1), current(m + 1);
  for (std::size_t j = 0; j <= m; ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[m];
}

std::optional<std::string> nearest_match(std::string_view word, const std::vector<std::string>& candidates) {
  // A suggestion is for a typo: none for words longer than any name one types (and no quadratic work on
  // them).
  constexpr std::size_t kLongest = 256;
  if (word.size() > kLongest) return std::nullopt;
  const std::string lower_word = Lower(word);
  // A name cut short ("aes" for "aes128") is what one means when only one name begins with it.
  std::optional<std::string> begins;
  std::size_t beginning = 0;
  for (const std::string& candidate : candidates)
    if (word.size() >= 2 && candidate.size() > word.size() && Lower(candidate).rfind(lower_word, 0) == 0) {
      begins = candidate;
      ++beginning;
    }
  if (beginning == 1) return begins;
  const std::size_t threshold = std::max<std::size_t>(2, word.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const std::string& candidate : candidates) {
    const std::size_t longer = std::max(word.size(), candidate.size());
    if (longer - std::min(word.size(), candidate.size()) > threshold) continue;  // too far by length alone
    const std::size_t distance = edit_distance(lower_word, Lower(candidate));
    if (distance > threshold || distance >= longer) continue;
    if (!best || distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::string not_one_of_message(std::string_view value, const std::vector<std::string>& allowed) {
  std::string message = Quote(value) + " is not one of " + QuotedList(allowed);
  if (std::optional<std::string> near = nearest_match(value, allowed))
    message += "; did you mean " + Quote(*near) + "?";
  return message;
}

std::string unknown_key_message(std::string_view key, const std::vector<std::string>& allowed) {
  return UnknownKeyMessage(key, allowed);
}

}  // namespace rsoc::platform
