#pragma once
// A strict, declarative JSON schema for scenario files.
//
// A Schema is a tree of nodes built fluently:
//
//   Schema::object({
//       {"clock_mhz", Schema::number().unit("MHz").exclusive_min(0).max(10000).default_value(100.0)
//                         .doc("CPU clock")},
//       {"name", Schema::string().pattern_identifier().doc("unique name")},  // required: no default
//   })
//
// resolve() validates a parsed document against the schema and returns the resolved document, in which every
// key the schema declares is present (defaults filled in), together with every problem found, in document
// order. Unknown keys are errors. document() and document_markdown() export the schema as a reference table,
// and apply_override() applies a command-line `--set path=value` assignment to a document before resolution.

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/scenario_error.h"

namespace rsoc::platform {

class Schema {
 public:
  enum class Kind {
    kObject,       // fixed keys, each with its own schema
    kMap,          // user-chosen keys, all values share one schema
    kArray,        // items share one schema
    kInteger,      // JSON integer, resolved to int64
    kNumber,       // JSON number (integers accepted), resolved to double
    kBoolean,      // true / false
    kString,       // any string, optionally length- or pattern-restricted
    kEnumeration,  // one string out of a fixed list
    kAddress,      // non-negative integer or hex string "0x...", resolved to uint64
  };
  struct Field;

  // --- node kinds
  // Throws std::invalid_argument on an empty or duplicated key.
  static Schema object(std::vector<Field> fields);
  static Schema map(Schema value);
  static Schema array(Schema item);
  static Schema integer();
  static Schema number();
  static Schema boolean();
  static Schema string();
  // Throws std::invalid_argument on an empty or duplicated list.
  static Schema enumeration(std::vector<std::string> values);
  static Schema address();

  // --- fluent settings
  // A setting that does not apply to the node kind throws std::logic_error (a schema declaration bug).
  Schema& doc(std::string text);
  Schema& unit(std::string unit);  // integer, number, address only
  // The value used when the key is absent; resolved through this schema like any input (so an address default
  // may be a hex string). A default that does not validate throws std::logic_error when used or documented.
  Schema& default_value(nlohmann::json value);
  Schema& required();  // no default: absence is an issue (the initial state of every node)
  Schema& nullable(bool allow = true);
  // Inclusive / exclusive bounds; integer, number, address only.
  Schema& min(double bound);
  Schema& max(double bound);
  Schema& exclusive_min(double bound);
  Schema& exclusive_max(double bound);
  // String only.
  Schema& min_length(std::size_t length);
  Schema& max_length(std::size_t length);
  Schema& pattern_identifier();  // [a-z][a-z0-9_]*
  // Array and map only (number of items / entries).
  Schema& min_items(std::size_t count);
  Schema& max_items(std::size_t count);
  // Map only.
  Schema& key_enum(std::vector<std::string> keys);  // restricts keys to this list
  Schema& key_pattern_identifier();                 // keys must match [a-z][a-z0-9_]*
  Schema& key_name(std::string name);               // placeholder in documented paths: "<name>"
  Schema& key_doc(std::string text);                // what a key means, appended to the map's description

  // --- inspection
  struct Bound {
    double value = 0;
    bool exclusive = false;
  };
  Kind kind() const { return kind_; }
  const std::string& doc_text() const { return doc_; }
  const std::string& unit_text() const { return unit_; }
  bool has_default() const { return default_.has_value(); }
  const nlohmann::json& default_json() const;  // throws std::logic_error when there is no default
  bool is_nullable() const { return nullable_; }
  // True when an absent key resolves without an issue: it has a default, or it is an object whose fields all
  // resolve when absent.
  bool resolves_when_absent() const;
  const std::optional<Bound>& lower() const { return lower_; }
  const std::optional<Bound>& upper() const { return upper_; }
  std::optional<std::size_t> min_length_value() const { return min_length_; }
  std::optional<std::size_t> max_length_value() const { return max_length_; }
  bool identifier_only() const { return identifier_; }
  std::optional<std::size_t> min_items_value() const { return min_items_; }
  std::optional<std::size_t> max_items_value() const { return max_items_; }
  const std::vector<Field>& fields() const { return fields_; }  // object only
  const Field* find_field(std::string_view key) const;          // object only; nullptr when unknown
  const Schema& element() const;  // array item / map value schema; throws std::logic_error otherwise
  const std::vector<std::string>& enum_values() const { return enum_values_; }
  const std::vector<std::string>& key_values() const { return key_values_; }  // map key restriction
  bool identifier_keys() const { return identifier_keys_; }
  const std::string& key_name_text() const { return key_name_; }
  const std::string& key_doc_text() const { return key_doc_; }

  // Short type text used in documentation and "missing key" messages: "number", "integer", "boolean",
  // "string", "enum: async | sync", "address", "object", "array of object", "map of number"; " or null"
  // appended when nullable.
  std::string type_text() const;
  // The expected value in messages: "a number (MHz)", "an integer", "one of \"async\", \"sync\"", ...
  std::string expected_text() const;

 private:
  explicit Schema(Kind kind) : kind_(kind) {}
  void require_kind(std::initializer_list<Kind> kinds, const char* setting) const;

  Kind kind_;
  std::string doc_;
  std::string unit_;
  std::optional<nlohmann::json> default_;
  bool nullable_ = false;
  std::optional<Bound> lower_;
  std::optional<Bound> upper_;
  std::optional<std::size_t> min_length_;
  std::optional<std::size_t> max_length_;
  bool identifier_ = false;
  std::optional<std::size_t> min_items_;
  std::optional<std::size_t> max_items_;
  std::vector<Field> fields_;
  std::shared_ptr<const Schema> element_;  // immutable once built, so copies may share it
  std::vector<std::string> enum_values_;
  std::vector<std::string> key_values_;
  bool identifier_keys_ = false;
  std::string key_name_ = "key";
  std::string key_doc_;
};

struct Schema::Field {
  std::string key;
  Schema schema;
};

// --- resolution

struct Resolution {
  nlohmann::json value;  // the resolved document (best effort when there are issues)
  IssueList issues;      // every problem, in document order; the caller may add its own before throwing
  bool ok() const { return issues.empty(); }
};

// Validates `input` against `schema`. Issues name `file`. Objects are visited in the input's key order, so an
// ordered_json input (see read_ordered_json_file) reports issues in the order of the source text; a
// nlohmann::json input visits keys sorted. Within an object, its own issues (missing keys) come before those
// of its children.
Resolution resolve(const nlohmann::json& input, const Schema& schema, std::string_view file);
Resolution resolve(const nlohmann::ordered_json& input, const Schema& schema, std::string_view file);
// Same, throwing a ScenarioError carrying every issue.
nlohmann::json resolve_or_throw(const nlohmann::json& input, const Schema& schema, std::string_view file);
nlohmann::json resolve_or_throw(const nlohmann::ordered_json& input, const Schema& schema,
                                std::string_view file);

// --- command-line overrides

// Applies one `path=value` assignment to `doc`. The path is dotted ("platform.cpus.0.clock_mhz") or a JSON
// pointer ("/platform/cpus/0/clock_mhz"); the value is parsed as JSON when it parses, else taken as a plain
// string. Absent intermediate objects and arrays are created; an array index must exist or equal the array
// size (append; "-" appends too). Keys are checked against the schema; values are not (the resolve pass that
// follows checks them). Issues name the flag as their file: `source` when given ("--param a.b=1"), else
// "--set <assignment>". Returns false, leaving `doc` unchanged, when there is an issue; else sets
// `*set_pointer` (when given) to the JSON pointer of the value it set.
bool apply_override(nlohmann::json& doc, std::string_view assignment, const Schema& schema,
                    IssueList& issues);
bool apply_override(nlohmann::ordered_json& doc, std::string_view assignment, const Schema& schema,
                    IssueList& issues, std::string_view source = {}, std::string* set_pointer = nullptr);
// Throwing variants: one assignment, or all of them with every issue reported together.
void apply_override(nlohmann::json& doc, std::string_view assignment, const Schema& schema);
void apply_override(nlohmann::ordered_json& doc, std::string_view assignment, const Schema& schema);
void apply_overrides(nlohmann::json& doc, const std::vector<std::string>& assignments, const Schema& schema);
void apply_overrides(nlohmann::ordered_json& doc, const std::vector<std::string>& assignments,
                     const Schema& schema);

// --- documentation

struct SchemaDocRow {
  std::string path;          // "platform.cpus[].clock_mhz"; map values: "software.<functionality>"
  std::string type;          // Schema::type_text()
  std::string unit;          // "MHz", or ""
  std::string default_text;  // compact JSON of the default, "required", or "see fields" for an object whose
                             // fields all have defaults
  std::string range;         // "> 0, <= 10000", "at least 1 item", "length >= 1", "keys: a | b", or ""
  std::string doc;
  bool operator==(const SchemaDocRow& other) const;
};

// One row per key path, depth first in declaration order (the root itself has no row). Array items get a
// "path[]" row only when they are not objects (object items are described by their fields' rows). Throws
// std::logic_error when a default does not validate against its own schema.
std::vector<SchemaDocRow> document(const Schema& schema);
// The rows as a Markdown table with columns Key, Type, Unit, Default, Range, Description.
std::string document_markdown(const Schema& schema);
// Paths of rows with an empty description.
std::vector<std::string> undocumented_paths(const Schema& schema);

// Damerau-Levenshtein (optimal string alignment) distance.
std::size_t edit_distance(std::string_view a, std::string_view b);
// The candidate nearest to `word`, when reasonably close (distance <= max(2, |word| / 3) and not a complete
// rewrite); ties go to the earliest candidate.
std::optional<std::string> nearest_match(std::string_view word, const std::vector<std::string>& candidates);

// The schema's messages, for what the resolver checks against lists only a scenario knows (the
// functionalities its custom cores add): a value that is not in `allowed`, a map key that is not.
std::string not_one_of_message(std::string_view value, const std::vector<std::string>& allowed);
std::string unknown_key_message(std::string_view key, const std::vector<std::string>& allowed);

}  // namespace rsoc::platform
