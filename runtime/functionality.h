#pragma once
// The functionalities the runtime knows: their block and key sizes, the core kind that implements them, how a
// driver programs that core, and the reference implementation every output is checked against. Each is its
// core kind's (models/core_kinds.h): the functions below ask the kind of a functionality.
//
// Custom functionalities (served by custom cores, models/custom_core.cpp): a block of block_bytes gives
// output_bytes() computed by a block function (models/crypto/block_function.h) with a key of key_bytes (none
// when 0); the function is the reference its outputs are checked against (none: not checked).
//
// Ciphers (aes128, des, 3des): a block is one cipher block; the key is the cipher key.
// Modular exponentiation (modexp1024, modexp2048, modexp4096): a block is one message of the operand size;
// the key is the modulus followed by the exponent, each operand-sized and big-endian (a private or public RSA
// key); the output of a block is message ^ exponent mod modulus. The modulus must be odd with its top bit
// set.
// RSA private operation by the CRT (rsa2048_crt, rsa4096_crt): the key is p, q, dP, dQ, qInv, each
// prime-sized and big-endian; the output of a block is message ^ d mod pq. RSA public operation
// (rsa4096_verify, as RSA_verify computes it): the key is the modulus (operand-sized) followed by the public
// exponent (public_exponent_bytes(), big-endian, odd and at least 3); the output of a block is message ^ e
// mod n. The exponent is not secret: the core is told its real bit length.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/core_kinds.h"
#include "models/crypto/block_function.h"
#include "models/crypto/modexp.h"
#include "models/ip_core.h"
#include "models/modexp_core.h"

namespace rsoc::runtime {

using models::FunctionalityInfo;

// A functionality: one of the built-in ones (Functionality::kAes128, ...) or one a scenario defines for its
// custom cores (FunctionalityCatalog). A small handle: copies name the same functionality; two handles are
// equal when their ids are, and order by id (built-ins first, in the order of models/core_kinds.h, then a
// scenario's own in the order it declares them). A scenario's own handles are valid while its catalog lives.
class Functionality {
 public:
  static const Functionality kAes128, kDes, kTripleDes, kModexp1024, kModexp2048, kModexp4096, kRsaCrt2048,
      kRsaCrt4096, kRsaVerify4096;

  constexpr explicit Functionality(const FunctionalityInfo* info) : info_(info) {}
  const FunctionalityInfo& info() const { return *info_; }
  unsigned id() const;
  friend bool operator==(Functionality a, Functionality b) { return a.id() == b.id(); }
  friend bool operator!=(Functionality a, Functionality b) { return a.id() != b.id(); }
  friend bool operator<(Functionality a, Functionality b) { return a.id() < b.id(); }

 private:
  const FunctionalityInfo* info_;
};

// The first id of a scenario's own functionalities (the built-in ones, numbered by models/core_kinds.h, come
// before).
inline constexpr unsigned kFirstCustomFunctionalityId = 256;

inline unsigned Functionality::id() const {
  return info_->id;
}
inline constexpr Functionality Functionality::kAes128{&models::kAes128Kind.functionalities[0]};
inline constexpr Functionality Functionality::kDes{&models::kDesKind.functionalities[0]};
inline constexpr Functionality Functionality::kTripleDes{&models::kDesKind.functionalities[1]};
inline constexpr Functionality Functionality::kModexp1024{&models::kModexpKind.functionalities[0]};
inline constexpr Functionality Functionality::kModexp2048{&models::kModexpKind.functionalities[1]};
inline constexpr Functionality Functionality::kModexp4096{&models::kModexpKind.functionalities[2]};
inline constexpr Functionality Functionality::kRsaCrt2048{&models::kModexpKind.functionalities[3]};
inline constexpr Functionality Functionality::kRsaCrt4096{&models::kModexpKind.functionalities[4]};
inline constexpr Functionality Functionality::kRsaVerify4096{&models::kModexpKind.functionalities[5]};

inline const FunctionalityInfo& info(Functionality f) {
  return f.info();
}
// A built-in functionality by name.
std::optional<Functionality> functionality_from_name(const std::string& name);
std::vector<std::string> functionality_names();  // the built-in ones

// The functionalities a scenario knows: the built-in ones and those its custom cores serve. Handles it hands
// out stay valid while it lives (share it).
class FunctionalityCatalog {
 public:
  struct Custom {
    std::string name;
    const crypto::BlockFunction* computes = nullptr;
    unsigned input_bytes = 4, output_bytes = 4, key_bytes = 0;
  };
  FunctionalityCatalog() = default;
  explicit FunctionalityCatalog(const std::vector<Custom>& customs);
  FunctionalityCatalog(const FunctionalityCatalog&) = delete;
  FunctionalityCatalog& operator=(const FunctionalityCatalog&) = delete;

  std::optional<Functionality> find(const std::string& name) const;
  std::vector<Functionality> all() const;  // in id order
  std::vector<std::string> names() const;
  std::vector<Functionality> customs() const;

 private:
  struct Entry {
    std::string name;  // owns the text info.name points to
    FunctionalityInfo info;
  };
  std::vector<std::unique_ptr<Entry>> customs_;
};

// The modexp functionality of exactly `bits`-bit operands. Throws std::invalid_argument for other sizes.
Functionality functionality_for_operand_bits(unsigned bits);
// Bytes of the public exponent at the end of the key of an RSA public operation (0 for the others).
inline unsigned public_exponent_bytes(Functionality f) {
  return info(f).public_exponent_bytes;
}
using models::kAssumedPublicExponent;

using models::BankField;
// How a driver programs the core of `f` (its kind's interface, models/core_kinds.h). An RSA public operation
// tells the core the bit length of the exponent in `key` (without a key: that of kAssumedPublicExponent).
using models::CoreInterface;
CoreInterface core_interface(Functionality f, bool encrypt, const std::vector<std::uint8_t>& key = {});

// Core cycles of one block on a core with `params` (modexp: the constant-time formula at the operand size; an
// RSA public operation: at the bit length of kAssumedPublicExponent).
std::uint64_t core_cycles_per_block(Functionality f, const models::CoreParams& params);

// Why `key` cannot be used for `f` ("" when it can): its size, and for modexp an odd modulus with its top bit
// set and an exponent below 2^operand_bits (an RSA public operation: an odd public exponent of at least 3).
std::string key_problem(Functionality f, const std::vector<std::uint8_t>& key);
// Makes random bytes a usable key of `f` (modexp: sets the modulus's top and bottom bits; RSA: a real key
// drawn from the bytes, its public half for a public operation, with exponent 65537).
void shape_key(Functionality f, std::vector<std::uint8_t>& key);
// A key of `f` drawn from `seed`: key_bytes random bytes made usable by shape_key. An RSA key takes a
// fraction of a second (its primes are searched for).
std::vector<std::uint8_t> draw_key(Functionality f, std::uint64_t seed);
// Makes random bytes usable input blocks of `f` (modexp: clears each message's top byte, so it is below the
// modulus).
void shape_data(Functionality f, std::vector<std::uint8_t>& data);
// Fills `data` with bytes drawn from `seed` (SplitMix64, eight bytes a draw): the workload's request inputs,
// cheap to seed per request, whatever their size.
void draw_data(std::uint64_t seed, std::vector<std::uint8_t>& data);

// Reference output of whole blocks with the plain-C++ implementations (models/crypto); `encrypt` is ignored
// by modexp.
std::vector<std::uint8_t> reference_output(Functionality f, const std::vector<std::uint8_t>& key,
                                           const std::vector<std::uint8_t>& data, bool encrypt);

// Checks outputs of one key against reference_output() exactly, and cheaply where the key allows: an RSA
// private key with CRT parameters (p, q, dP, dQ, qInv) whose p and q are distinct primes, with qInv * q = 1
// mod p and a public exponent e of at most 64 bits (e * dP = 1 mod p-1, e * dQ = 1 mod q-1) has for every
// input block m exactly one output s below n = p*q with s^e = m mod n, the one the CRT computes; so a
// candidate block is the reference one when it is below n and its e-th power is m mod n: a public operation
// (17 squarings for e = 65537) instead of a private one. Any other key or functionality is checked by
// computing the reference. Building the check of an RSA key tests its primes (a few exponentiations), so a
// caller keeps it for the key's requests.
class OutputCheck {
 public:
  OutputCheck(Functionality f, const std::vector<std::uint8_t>& key);
  // Whether `output` equals reference_output(f, key, data, encrypt).
  bool matches(const std::vector<std::uint8_t>& data, bool encrypt, const std::vector<std::uint8_t>& output) const;
  // True when matches() uses the public operation rather than the reference.
  bool by_public_operation() const { return e_.has_value(); }
  Functionality functionality() const { return f_; }
  const std::vector<std::uint8_t>& key() const { return key_; }

 private:
  Functionality f_;
  std::vector<std::uint8_t> key_;
  std::optional<crypto::BigInt> n_, e_;
};

}  // namespace rsoc::runtime
