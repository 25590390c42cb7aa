// rsoc schema: the scenario key reference.

#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "analysis/output_file.h"
#include "platform/scenario_schema.h"
#include "tools/cli.h"

namespace rsoc::cli {

namespace {

int cmd_schema(const std::vector<std::string>& args) {
  po::options_description opts("rsoc schema [options]\n\nPrints the scenario key reference.\n\noptions");
  opts.add_options()("help,h", "this help")("markdown",
                                            "as a Markdown table (the one in scenarios/README.md)");
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  if (vm.count("markdown")) {
    std::cout << rsoc::platform::document_markdown(rsoc::platform::scenario_schema());
  } else {
    for (const auto& row : rsoc::platform::document(rsoc::platform::scenario_schema()))
      std::cout << row.path << "  (" << row.type << (row.unit.empty() ? "" : ", " + row.unit) << "; default "
                << row.default_text << (row.range.empty() ? "" : "; " + row.range) << ")  " << row.doc
                << "\n";
  }
  return kOk;
}

}  // namespace

extern const Command kSchemaCommand = {
    "schema", "schema", "print every scenario key with its type, unit, default and range", false, cmd_schema};

}  // namespace rsoc::cli
