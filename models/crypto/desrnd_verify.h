#pragma once
// Verification of the desrnd extension the way its designers did it (scenarios/desrnd_3des.md, "The published
// system"): DES and 3DES computed by the routines on the unit (models/crypto/des_on_desrnd.h) against an
// independent implementation, for random key/data pairs from a seeded generator and for the NIST SP 800-17
// known-answer tables. Timing contract: none (plain C++, no SystemC); this is a functional check shared by
// `rsoc verify des` and the tests.
//
// The reference is a parameter: the command line and the tests pass OpenSSL's libcrypto
// (tools/openssl_des_reference.h); TableDesReference (our Des / TripleDes) is available where libcrypto is
// not. Note that the unit is built from the same round-level blocks as Des, so only an outside reference such
// as OpenSSL is independent of the S-box and permutation tables.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rsoc::crypto {

// The DES / 3DES the routines are compared with. Blocks and keys are big-endian 64-bit values (des.h).
class DesReference {
 public:
  virtual ~DesReference() = default;
  virtual std::string name() const = 0;
  virtual std::uint64_t des(bool encrypt, std::uint64_t key, std::uint64_t block) = 0;
  // Keying option 1: encryption E_k3(D_k2(E_k1(x))), decryption D_k1(E_k2(D_k3(x))).
  virtual std::uint64_t triple_des(bool encrypt, std::uint64_t k1, std::uint64_t k2, std::uint64_t k3,
                                   std::uint64_t block) = 0;
};

// Our table-driven Des / TripleDes (tested against OpenSSL and SP 800-17 in tests/crypto).
class TableDesReference : public DesReference {
 public:
  std::string name() const override { return "rsoc table-driven DES"; }
  std::uint64_t des(bool encrypt, std::uint64_t key, std::uint64_t block) override;
  std::uint64_t triple_des(bool encrypt, std::uint64_t k1, std::uint64_t k2, std::uint64_t k3,
                           std::uint64_t block) override;
};

// The first block on which the unit and the reference disagree.
struct DesrndMismatch {
  std::string variant;              // e.g. "3DES decrypt, 2 rounds/instruction"
  std::string where;                // "pair 1234" (0-based) or "SP 800-17 T1 #3"
  std::vector<std::uint64_t> keys;  // one key for DES, k1 k2 k3 for 3DES
  std::uint64_t data = 0, expected = 0, got = 0;
};

// One line naming the variant, the case, the key(s), the data, the expected and the computed block, in hex.
std::string describe(const DesrndMismatch& m);

struct DesrndVerifyResult {
  std::uint64_t cases = 0;        // pairs (or vectors) checked in every variant
  std::uint64_t comparisons = 0;  // blocks compared
  std::vector<std::string> variants;
  std::optional<DesrndMismatch> mismatch;  // the first one; checking stops there
  bool ok() const { return !mismatch; }
};

struct DesrndVerifyOptions {
  std::uint64_t pairs = 0;  // random pairs, at least 1
  std::uint64_t seed = 0;   // of the std::mt19937_64 that draws k1, k2, k3 and the block of every pair
  std::vector<unsigned> rounds_per_instruction{1, 2};  // unit configurations checked
};

// Progress: pairs done of the total, reported every 1024 pairs and at the end.
using DesrndProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

// For every pair: a key k1 (with k2, k3 for 3DES) and a block x, drawn in that order; on every unit
// configuration, DES under k1 and 3DES under k1, k2, k3, encrypting x and decrypting x, each compared with
// `reference`. Throws std::invalid_argument on zero pairs or a configuration other than 1 or 2.
DesrndVerifyResult verify_des_on_desrnd(const DesrndVerifyOptions& options, DesReference& reference,
                                        const DesrndProgress& progress = {});

// A row of the SP 800-17 tables file (`table index key plaintext ciphertext`, '#' comments).
struct DesVector {
  std::string table;
  int index = 0;
  std::uint64_t key = 0, plaintext = 0, ciphertext = 0;
};

// Reads a vectors file; throws std::runtime_error naming the file (and line) when it cannot.
std::vector<DesVector> load_des_vectors(const std::string& path);

// Every vector through DES (encrypt plaintext, decrypt ciphertext) and 3DES with k1 = k2 = k3 (which equals
// DES) on every configuration.
DesrndVerifyResult verify_des_vectors_on_desrnd(const std::vector<DesVector>& vectors,
                                                const std::vector<unsigned>& rounds_per_instruction);

}  // namespace rsoc::crypto
