// Random-pair and known-answer verification of DES / 3DES on the desrnd unit.
#include "models/crypto/desrnd_verify.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>

#include "models/crypto/des.h"
#include "models/crypto/des_on_desrnd.h"

namespace rsoc::crypto {
namespace {

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llX", static_cast<unsigned long long>(v));
  return buf;
}

std::uint64_t parse_hex64(const std::string& s) {
  if (s.empty() || s.size() > 16) throw std::invalid_argument("not a 64-bit hex value");
  std::size_t used = 0;
  const unsigned long long v = std::stoull(s, &used, 16);
  if (used != s.size()) throw std::invalid_argument("not a 64-bit hex value");
  return v;
}

std::string variant_name(bool triple, bool encrypt, unsigned rounds_per_instruction) {
  return std::string(triple ? "3DES" : "DES") + (encrypt ? " encrypt, " : " decrypt, ") +
         std::to_string(rounds_per_instruction) + " round" + (rounds_per_instruction == 1 ? "" : "s") +
         "/instruction";
}

// The four variants of one unit configuration, in the order they are checked.
void add_variants(std::vector<std::string>& out, unsigned rounds_per_instruction) {
  for (bool triple : {false, true})
    for (bool encrypt : {true, false}) out.push_back(variant_name(triple, encrypt, rounds_per_instruction));
}

std::vector<DesRoundUnit> make_units(const std::vector<unsigned>& rounds_per_instruction) {
  if (rounds_per_instruction.empty())
    throw std::invalid_argument("desrnd verification: no unit configuration");
  std::vector<DesRoundUnit> units;
  for (unsigned n : rounds_per_instruction) units.emplace_back(n);  // throws unless 1 or 2
  return units;
}

// The comparisons of one case (a random pair or a vector) on one unit configuration. Builds the mismatch
// record only when a block differs (the common path allocates nothing).
struct CaseCheck {
  DesrndVerifyResult& result;
  unsigned rounds_per_instruction;
  std::uint64_t k1, k2, k3;
  std::uint64_t pair;                  // for "pair N"
  const std::string* where = nullptr;  // instead, when set

  // Compares one block; fills result.mismatch and returns false when it differs.
  bool operator()(bool triple, bool encrypt, std::uint64_t data, std::uint64_t expected,
                  std::uint64_t got) const {
    ++result.comparisons;
    if (got == expected) return true;
    result.mismatch =
        DesrndMismatch{variant_name(triple, encrypt, rounds_per_instruction),
                       where ? *where : "pair " + std::to_string(pair),
                       triple ? std::vector<std::uint64_t>{k1, k2, k3} : std::vector<std::uint64_t>{k1},
                       data,
                       expected,
                       got};
    return false;
  }
};

}  // namespace

std::uint64_t TableDesReference::des(bool encrypt, std::uint64_t key, std::uint64_t block) {
  const Des des(key);
  return encrypt ? des.encrypt(block) : des.decrypt(block);
}

std::uint64_t TableDesReference::triple_des(bool encrypt, std::uint64_t k1, std::uint64_t k2,
                                            std::uint64_t k3, std::uint64_t block) {
  const TripleDes tdes(k1, k2, k3);
  return encrypt ? tdes.encrypt(block) : tdes.decrypt(block);
}

std::string describe(const DesrndMismatch& m) {
  std::string keys;
  for (std::uint64_t k : m.keys) keys += (keys.empty() ? "" : " ") + hex64(k);
  return m.variant + " mismatch at " + m.where + ": key " + keys + ", data " + hex64(m.data) + ", expected " +
         hex64(m.expected) + ", got " + hex64(m.got);
}

DesrndVerifyResult verify_des_on_desrnd(const DesrndVerifyOptions& options, DesReference& reference,
                                        const DesrndProgress& progress) {
  if (options.pairs == 0) throw std::invalid_argument("desrnd verification: needs at least one pair");
  std::vector<DesRoundUnit> units = make_units(options.rounds_per_instruction);
  DesrndVerifyResult result;
  for (const auto& unit : units) add_variants(result.variants, unit.rounds_per_instruction());
  std::mt19937_64 rng(options.seed);
  constexpr std::uint64_t kProgressEvery = 1024;
  for (std::uint64_t pair = 0; pair < options.pairs; ++pair) {
    const std::uint64_t k1 = rng(), k2 = rng(), k3 = rng(), x = rng();
    const std::uint64_t des_enc = reference.des(true, k1, x);
    const std::uint64_t des_dec = reference.des(false, k1, x);
    const std::uint64_t tdes_enc = reference.triple_des(true, k1, k2, k3, x);
    const std::uint64_t tdes_dec = reference.triple_des(false, k1, k2, k3, x);
    for (DesRoundUnit& unit : units) {
      const unsigned n = unit.rounds_per_instruction();
      DesOnDesrnd des(unit, k1);
      TripleDesOnDesrnd tdes(unit, k1, k2, k3);
      const CaseCheck check{result, n, k1, k2, k3, pair};
      if (!check(false, true, x, des_enc, des.encrypt(x)) ||
          !check(false, false, x, des_dec, des.decrypt(x)) ||
          !check(true, true, x, tdes_enc, tdes.encrypt(x)) ||
          !check(true, false, x, tdes_dec, tdes.decrypt(x))) {
        if (progress) progress(pair, options.pairs);
        return result;
      }
    }
    ++result.cases;
    if (progress && (result.cases % kProgressEvery == 0 || result.cases == options.pairs))
      progress(result.cases, options.pairs);
  }
  return result;
}

std::vector<DesVector> load_des_vectors(const std::string& path) {
  errno = 0;
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the DES vectors file: " + std::strerror(errno));
  std::vector<DesVector> rows;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
    std::istringstream ls(line);
    DesVector v;
    std::string key, pt, ct, extra;
    try {
      if (!(ls >> v.table >> v.index >> key >> pt >> ct) || (ls >> extra)) throw std::invalid_argument("");
      v.key = parse_hex64(key);
      v.plaintext = parse_hex64(pt);
      v.ciphertext = parse_hex64(ct);
    } catch (const std::exception&) {
      throw std::runtime_error(path + ":" + std::to_string(number) +
                               ": expected `table index key plaintext ciphertext` (hex values), got \"" +
                               line + "\"");
    }
    rows.push_back(v);
  }
  // A read error (a directory opens, then fails to read) is not an empty file.
  if (in.bad()) {
    const int error = errno;
    throw std::runtime_error(
        path + ": cannot read the DES vectors file: " + std::strerror(error != 0 ? error : EIO));
  }
  if (rows.empty()) throw std::runtime_error(path + ": no DES vectors in the file");
  return rows;
}

DesrndVerifyResult verify_des_vectors_on_desrnd(const std::vector<DesVector>& vectors,
                                                const std::vector<unsigned>& rounds_per_instruction) {
  std::vector<DesRoundUnit> units = make_units(rounds_per_instruction);
  DesrndVerifyResult result;
  for (const auto& unit : units) add_variants(result.variants, unit.rounds_per_instruction());
  for (const DesVector& v : vectors) {
    const std::string where = "SP 800-17 " + v.table + " #" + std::to_string(v.index);
    for (DesRoundUnit& unit : units) {
      const unsigned n = unit.rounds_per_instruction();
      DesOnDesrnd des(unit, v.key);
      TripleDesOnDesrnd tdes(unit, v.key, v.key, v.key);
      const CaseCheck check{result, n, v.key, v.key, v.key, 0, &where};
      if (!check(false, true, v.plaintext, v.ciphertext, des.encrypt(v.plaintext)) ||
          !check(false, false, v.ciphertext, v.plaintext, des.decrypt(v.ciphertext)) ||
          !check(true, true, v.plaintext, v.ciphertext, tdes.encrypt(v.plaintext)) ||
          !check(true, false, v.ciphertext, v.plaintext, tdes.decrypt(v.ciphertext)))
        return result;
    }
    ++result.cases;
  }
  return result;
}

}  // namespace rsoc::crypto
