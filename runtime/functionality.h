#pragma once
// The functionalities the runtime knows: their block and key sizes, the core kind that implements them, how a
// driver programs that core, and the reference implementation every output is checked against.
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

namespace rsoc::runtime {

struct FunctionalityInfo;

// A functionality: one of the built-in ones (Functionality::kAes128, ...) or one a scenario defines for its
// custom cores (FunctionalityCatalog). A small handle: copies name the same functionality; two handles are
// equal when their ids are, and order by id (built-ins first, in the order below, then a scenario's own in
// the order it declares them). A scenario's own handles are valid while its catalog lives.
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

struct FunctionalityInfo {
  unsigned id;
  const char* name;
  unsigned block_bytes;  // the input of one block: a cipher block, a message, a custom core's input_bytes
  unsigned key_bytes;
  models::CoreKind core;
  unsigned operand_bits;  // modexp: modulus and exponent size; RSA-CRT: prime size (0 for the others)
  bool crt;               // an RSA private operation by the CRT on a modexp core (CONFIG.CRT)
  // A custom functionality: what it computes, and the output of one block (the built-ins give block_bytes).
  const crypto::BlockFunction* computes = nullptr;
  unsigned result_bytes = 0;
  unsigned output_bytes() const { return computes ? result_bytes : block_bytes; }
};

// The built-in functionalities, in id order.
inline constexpr FunctionalityInfo kBuiltinFunctionalities[] = {
    {0, "aes128", 16, 16, models::CoreKind::kAes128, 0, false},
    {1, "des", 8, 8, models::CoreKind::kDes, 0, false},
    {2, "3des", 8, 24, models::CoreKind::kDes, 0, false},
    {3, "modexp1024", 128, 256, models::CoreKind::kModexp, 1024, false},
    {4, "modexp2048", 256, 512, models::CoreKind::kModexp, 2048, false},
    {5, "modexp4096", 512, 1024, models::CoreKind::kModexp, 4096, false},
    {6, "rsa2048_crt", 256, 640, models::CoreKind::kModexp, 1024, true},
    {7, "rsa4096_crt", 512, 1280, models::CoreKind::kModexp, 2048, true},
    {8, "rsa4096_verify", 512, 516, models::CoreKind::kModexp, 4096, false},
};
inline constexpr unsigned kFirstCustomFunctionalityId = 256;

inline unsigned Functionality::id() const {
  return info_->id;
}
inline constexpr Functionality Functionality::kAes128{&kBuiltinFunctionalities[0]};
inline constexpr Functionality Functionality::kDes{&kBuiltinFunctionalities[1]};
inline constexpr Functionality Functionality::kTripleDes{&kBuiltinFunctionalities[2]};
inline constexpr Functionality Functionality::kModexp1024{&kBuiltinFunctionalities[3]};
inline constexpr Functionality Functionality::kModexp2048{&kBuiltinFunctionalities[4]};
inline constexpr Functionality Functionality::kModexp4096{&kBuiltinFunctionalities[5]};
inline constexpr Functionality Functionality::kRsaCrt2048{&kBuiltinFunctionalities[6]};
inline constexpr Functionality Functionality::kRsaCrt4096{&kBuiltinFunctionalities[7]};
inline constexpr Functionality Functionality::kRsaVerify4096{&kBuiltinFunctionalities[8]};

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
unsigned public_exponent_bytes(Functionality f);
// The public exponent the costs of an RSA public operation assume when they cannot see the key (the
// analytic estimates, software costs derived per functionality): 65537, the exponent of every RSA key
// OpenSSL generates by default.
inline constexpr std::uint32_t kAssumedPublicExponent = 65537;

// A run of bytes of the key (or of a block) and the register bank that takes it. Bytes are grouped in
// big-endian 32-bit words; a `lsw_first` bank holds the word of the last four bytes at its lowest address (a
// number, least-significant word first), otherwise the first four bytes.
struct BankField {
  std::uint32_t offset = 0;  // register offset of word 0
  unsigned byte_offset = 0;  // where the field starts in the key or block
  unsigned bytes = 0;
  bool lsw_first = false;
};

// How a driver programs the core of a functionality (register map in models/ip_core.h): the key fields and
// the set-up writes (register, value) before CTRL.INIT, where a block is written and where its result is
// read. An RSA public operation tells the core the bit length of the exponent in `key` (without a key: that
// of kAssumedPublicExponent).
struct CoreInterface {
  std::vector<BankField> key;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> setup;
  BankField block, result;
  bool init_every_request =
      false;  // CTRL.INIT starts every request (a custom core's set-up), not only a new key
};
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
