// rsoc verify: DES/3DES on the desrnd unit against OpenSSL.

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "analysis/output_dir.h"
#include "models/crypto/desrnd_verify.h"
#include "platform/log.h"
#include "tools/cli.h"
#include "tools/openssl_des_reference.h"

namespace rsoc::cli {

namespace {

int cmd_verify(const std::vector<std::string>& args) {
  po::options_description opts(
      "rsoc verify des --pairs N [options]\n\nChecks DES and 3DES computed on the desrnd CPU extension unit "
      "(the routines the\nsoftware runs: key halves C, D and data halves L, R in extension registers, one or "
      "two\nrounds per instruction) against OpenSSL libcrypto, in both directions, for N random\nkey/data "
      "pairs; with --vectors, also the NIST SP 800-17 known-answer tables (by default the\ncopy in the "
      "source tree this rsoc was built from, tests/data). Prints a summary; exit 0\nwhen everything agrees, "
      "1 (with key, data, expected and got) when not, 2 when the\nvectors file cannot be read.\n\noptions");
  opts.add_options()("help,h", "this help")("pairs,n", po::value<std::string>(),
                                            "random key/data pairs to check (required, at least 1)")(
      "seed", po::value<std::string>()->default_value("1"), "seed of the pair generator (std::mt19937_64)")(
      "rounds-per-instruction", po::value<std::string>()->default_value("both"),
      "unit configuration checked: 1, 2 or both")(
      "vectors", po::value<std::string>()->value_name("FILE")->implicit_value(RSOC_DES_VECTORS),
      "also check the SP 800-17 tables (`table index key plaintext ciphertext` per line); without FILE, "
      "the build's copy");
  const auto parsed = parse_command(args, opts);
  if (!parsed) return kOk;
  const po::variables_map& vm = *parsed;
  const std::vector<std::string> what =
      vm.count("scenario") ? vm["scenario"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (what.empty()) throw UsageError("verify needs an algorithm (algorithms: des)");
  if (what.size() > 1) throw UsageError("verify takes one algorithm, got " + std::to_string(what.size()));
  if (what.front() != "des")
    throw UsageError("verify: unknown algorithm \"" + what.front() + "\" (algorithms: des)");
  if (!vm.count("pairs")) throw UsageError("verify des needs --pairs N");
  rsoc::crypto::DesrndVerifyOptions options;
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  options.pairs = whole_number("pairs", vm["pairs"].as<std::string>(), 1, kMax);
  options.seed = whole_number("seed", vm["seed"].as<std::string>(), 0, kMax);
  const std::string rpi = vm["rounds-per-instruction"].as<std::string>();
  if (rpi == "1" || rpi == "2")
    options.rounds_per_instruction = {static_cast<unsigned>(std::stoul(rpi))};
  else if (rpi != "both")
    throw UsageError("--rounds-per-instruction " + rpi + ": expected 1, 2 or both");
  std::vector<rsoc::crypto::DesVector> vectors;
  if (vm.count("vectors")) {
    try {
      vectors = rsoc::crypto::load_des_vectors(vm["vectors"].as<std::string>());
    } catch (const std::runtime_error& e) {
      throw UsageError(std::string("--vectors: ") + e.what());
    }
  }

  rsoc::tools::OpenSslDesReference reference;
  const auto mismatch = [](const rsoc::crypto::DesrndMismatch& m) {
    std::cout << "result: MISMATCH\n" << rsoc::crypto::describe(m) << "\n";
    std::cerr << "rsoc: verify des: " << m.variant << " disagrees with the reference at " << m.where << "\n";
    return kSimulationFailure;
  };
  std::cout << "desrnd DES/3DES verification against " << reference.name() << "\n";
  if (vectors.empty()) {
    std::cout << "SP 800-17 vectors: not checked (--vectors [FILE])\n";
  } else {
    const auto kat = rsoc::crypto::verify_des_vectors_on_desrnd(vectors, options.rounds_per_instruction);
    std::cout << "SP 800-17 vectors: " << kat.cases << " of " << vectors.size() << " (" << kat.comparisons
              << " blocks)\n";
    if (kat.mismatch) return mismatch(*kat.mismatch);
  }

  // A progress line each time another 5% of the pairs is done, and at the end.
  std::uint64_t next_percent = 5;
  const auto progress = [&](std::uint64_t done, std::uint64_t total) {
    const std::uint64_t percent = done * 100 / total;
    if (done != total && percent < next_percent) return;
    logging::note() << "rsoc: verify des: " << done << " of " << total << " pairs (" << percent << "%)\n";
    next_percent = percent / 5 * 5 + 5;
  };
  const auto result = rsoc::crypto::verify_des_on_desrnd(options, reference, progress);
  std::string variants;
  for (const auto& v : result.variants) variants += (variants.empty() ? "" : "; ") + v;
  std::cout << "pairs checked: " << result.cases << " of " << options.pairs << " (seed " << options.seed
            << ")\n"
            << "variants: " << result.variants.size() << " (" << variants << ")\n"
            << "blocks compared: " << result.comparisons << "\n";
  if (result.mismatch) return mismatch(*result.mismatch);
  std::cout << "result: all agree\n";
  return kOk;
}

}  // namespace

extern const Command kVerifyCommand = {
    "verify", "verify des", "check DES/3DES on the desrnd extension unit against OpenSSL on random pairs",
    false, cmd_verify};

}  // namespace rsoc::cli
