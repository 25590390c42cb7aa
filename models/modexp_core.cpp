// The modular exponentiation core (core kind "modexp"); its cycle formulas are declared in
// models/modexp_core.h.
#include "models/modexp_core.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "models/core_kinds.h"
#include "models/crypto/modexp.h"
#include "models/crypto/rsa_key.h"
#include "models/ip_core.h"

namespace rsoc::models {

namespace {

using sc_core::sc_time;

// Modular exponentiation RESULT = MESSAGE ^ EXPONENT mod MODULUS on MODULUS_WORDS words, EXPONENT_BITS bits.
// Right-to-left binary exponentiation with two Montgomery multipliers working in parallel (square and
// multiply every step, whatever the bit: constant time).
// ModExpA7-style operation (Cryptech's core, as its driver hal_modexp2 programs it): BUFFER_BITS tells the
// driver the widest operand; CONFIG.PRECALC makes the core take the Montgomery coefficient -n^-1 mod R and
// factor R^2 mod n (R = 2^(32 * MODULUS_WORDS)) from the MODULUS_COEFF and MONTGOMERY_FACTOR banks instead
// of deriving them (setup_cycles is that derivation, skipped); wrong values give a wrong result, as in the
// hardware. CONFIG.WIDE_MESSAGE (ModExpA7's "CRT mode") takes a MESSAGE of twice MODULUS_WORDS words and
// reduces it modulo MODULUS first, one more Montgomery multiplication.
// CRT mode (CONFIG.CRT): an RSA private operation with h = MODULUS_WORDS-word primes. MODULUS holds p (words
// 0..h-1) and q (words h..2h-1), EXPONENT dP and dQ the same way, QINV qInv; MESSAGE and RESULT have 2h
// words: RESULT = MESSAGE^d mod pq, recombined from MESSAGE^dP mod p and MESSAGE^dQ mod q by Garner's formula
// (RFC 8017 5.1.2); busy for rsa_crt_cycles().
class ModexpCore : public IpCore {
 public:
  ModexpCore(std::string name, const CoreParams& params) : IpCore(std::move(name), params) {
    const std::uint32_t max_words = (params.max_operand_bits + 31) / 32;
    modulus_words_ = regs_.add({"MODULUS_WORDS", reg::kModulusWords, 1, RegAccess::kReadWrite, max_words});
    exponent_bits_ =
        regs_.add({"EXPONENT_BITS", reg::kExponentBits, 1, RegAccess::kReadWrite, params.max_operand_bits});
    regs_.add({"BUFFER_BITS", reg::kBufferBits, 1, RegAccess::kReadOnly, 32 * max_words});
    modulus_ = regs_.add({"MODULUS", reg::kModulus, reg::kModexpBankWords, RegAccess::kWriteOnly, 0});
    block_ = regs_.add({"MESSAGE", reg::kMessage, reg::kModexpBankWords, RegAccess::kWriteOnly, 0});
    exponent_ = regs_.add({"EXPONENT", reg::kExponent, reg::kModexpBankWords, RegAccess::kWriteOnly, 0});
    qinv_ = regs_.add({"QINV", reg::kQinv, reg::kModexpBankWords / 2, RegAccess::kWriteOnly, 0});
    coeff_ =
        regs_.add({"MODULUS_COEFF", reg::kModulusCoeff, reg::kModexpBankWords, RegAccess::kWriteOnly, 0});
    factor_ = regs_.add(
        {"MONTGOMERY_FACTOR", reg::kMontgomeryFactor, reg::kModexpBankWords, RegAccess::kWriteOnly, 0});
    add_result_bank("RESULT", reg::kModResult, reg::kModexpBankWords);
  }

 protected:
  std::uint64_t on_init(const sc_time&) override { return 0; }
  unsigned block_words() const override { return (crt() || wide() ? 2 : 1) * operand_words(); }
  unsigned result_words() const override { return (crt() ? 2 : 1) * operand_words(); }
  std::uint64_t compute(const std::uint32_t* in, std::uint32_t* out) override {
    if (crt()) return compute_crt(in, out);
    const std::uint32_t max_words = (params().max_operand_bits + 31) / 32;
    const std::uint32_t words = operand_words();
    const std::uint32_t exp_bits = std::min(std::max(regs_.at(exponent_bits_), 1u), 32 * max_words);
    const crypto::BigInt modulus = bank(modulus_, words);
    std::vector<std::uint32_t> result(words, 0);
    if (!modulus.is_zero()) {
      // Only the low exp_bits of the exponent take part, as in the hardware.
      std::vector<std::uint32_t> e(regs_.bank(exponent_).begin(),
                                   regs_.bank(exponent_).begin() + static_cast<long>((exp_bits + 31) / 32));
      if (exp_bits % 32 != 0) e.back() &= (1u << (exp_bits % 32)) - 1;
      const crypto::BigInt exponent = crypto::BigInt::from_words(e);
      const crypto::BigInt message = crypto::BigInt::from_words(in, (wide() ? 2 : 1) * words);
      crypto::BigInt r;
      if (precalc() && modulus.is_odd())
        r = crypto::montgomery_modexp(message, exponent, modulus, bank(coeff_, words), bank(factor_, words),
                                      words);
      else
        r = crypto::modexp(message, exponent, modulus);
      result = r.to_words(words);
    }
    std::copy(result.begin(), result.end(), out);
    return modexp_cycles(params(), 32 * words, exp_bits) - (precalc() ? params().setup_cycles : 0) +
           (wide() ? montmul_cycles(params(), 32 * words) : 0);
  }

 private:
  bool crt() const { return regs_.at(config_) & reg::kConfigCrt; }
  bool wide() const { return !crt() && (regs_.at(config_) & reg::kConfigWideMessage); }
  bool precalc() const { return regs_.at(config_) & reg::kConfigPrecalc; }
  // Words of one operand (of a prime in CRT mode), at most what the core takes and half a bank when a message
  // has two operands' words.
  std::uint32_t operand_words() const {
    const std::uint32_t max_words =
        std::min((params().max_operand_bits + 31) / 32,
                 crt() || wide() ? reg::kModexpBankWords / 2 : reg::kModexpBankWords);
    return std::min(std::max(regs_.at(modulus_words_), 1u), max_words);
  }
  crypto::BigInt bank(RegisterFile::Id id, std::uint32_t words, std::uint32_t first = 0) const {
    return crypto::BigInt::from_words(regs_.bank(id).data() + first, words);
  }
  std::uint64_t compute_crt(const std::uint32_t* in, std::uint32_t* out) {
    const std::uint32_t h = operand_words();
    const crypto::BigInt p = bank(modulus_, h), q = bank(modulus_, h, h);
    std::vector<std::uint32_t> result(2 * h, 0);
    if (!p.is_zero() && !q.is_zero()) {
      const crypto::BigInt s = crypto::rsa_crt(crypto::BigInt::from_words(in, 2 * h), p, q,
                                               bank(exponent_, h), bank(exponent_, h, h), bank(qinv_, h));
      result = s.to_words(2 * h);
    }
    std::copy(result.begin(), result.end(), out);
    return rsa_crt_cycles(params(), 32 * h);
  }
  RegisterFile::Id modulus_words_{}, exponent_bits_{}, modulus_{}, exponent_{}, qinv_{}, coeff_{}, factor_{};
};

}  // namespace

namespace {
// ModExpA7's operand words and their share per processing element (at least one).
std::uint64_t words_of(unsigned bits) { return (std::uint64_t{bits} + 31) / 32; }
std::uint64_t per_element(const CoreParams& params, std::uint64_t n) {
  const std::uint64_t elements = std::uint64_t{1} << std::min(params.systolic_array_power, 16u);
  return std::max<std::uint64_t>(1, (n + elements - 1) / elements);
}
}  // namespace

std::uint64_t montmul_cycles(const CoreParams& params, unsigned modulus_bits) {
  if (params.modexp_architecture == ModexpArchitecture::kModExpA7) {
    const std::uint64_t n = words_of(modulus_bits), s = per_element(params, n);
    return 5 * n * (s + 6) + 6 * n + 3 * s + 29;
  }
  const std::uint64_t digits =
      (modulus_bits + params.multiplier_width_bits - 1) / params.multiplier_width_bits;
  return 2 * digits * digits + params.montmul_overhead_cycles;
}

std::uint64_t modexp_cycles(const CoreParams& params, unsigned modulus_bits, unsigned exponent_bits) {
  // One Montgomery multiplication per exponent bit (square and multiply in parallel), plus the conversions
  // into and out of the Montgomery domain.
  const std::uint64_t m = montmul_cycles(params, modulus_bits);
  if (params.modexp_architecture == ModexpArchitecture::kModExpA7) {
    const std::uint64_t n = words_of(modulus_bits);
    return params.setup_cycles + std::uint64_t{exponent_bits} * (m + 2 * n + 8) + 2 * m + 6 * n + 25;
  }
  return params.setup_cycles + (std::uint64_t{exponent_bits} + 2) * m;
}

std::uint64_t rsa_crt_cycles(const CoreParams& params, unsigned half_bits) {
  return 2 * modexp_cycles(params, half_bits, half_bits) + 2 * montmul_cycles(params, half_bits);
}

namespace {

std::unique_ptr<IpCore> make_modexp_core(std::string name, const CoreParams& params) {
  return std::make_unique<ModexpCore>(std::move(name), params);
}

using crypto::BigInt;

// The public exponent of an RSA public operation's key.
BigInt public_exponent(const FunctionalityInfo& f, const Bytes& key) {
  const unsigned n = f.block_bytes;
  return BigInt::from_bytes_be(key.data() + n, key.size() - n);
}

// The bit length of the public exponent in `key`, or of kAssumedPublicExponent when it holds none.
std::uint32_t public_exponent_bits(const FunctionalityInfo& f, const Bytes& key) {
  return static_cast<std::uint32_t>(
      (key.size() == f.key_bytes ? public_exponent(f, key) : BigInt(kAssumedPublicExponent)).bit_length());
}

// CRT: p, q at MODULUS, dP, dQ at EXPONENT (each a prime's words apart), qInv at QINV, with CONFIG.CRT.
// A public operation: the modulus and the public exponent, its real bit length; CONFIG is written (the core
// may have run a CRT operation last). Otherwise the modulus and an exponent of the operand size.
CoreInterface modexp_interface(const FunctionalityInfo& f, bool, const Bytes& key) {
  CoreInterface c;
  const unsigned n = f.block_bytes;
  c.block = {reg::kMessage, 0, n, true};
  c.result = {reg::kModResult, 0, n, true};
  if (f.crt) {
    const unsigned h = n / 2, hw = h / 4;  // a prime, in bytes and words
    c.key = {{reg::kModulus, 0, h, true},
             {reg::kModulus + 4 * hw, h, h, true},
             {reg::kExponent, 2 * h, h, true},
             {reg::kExponent + 4 * hw, 3 * h, h, true},
             {reg::kQinv, 4 * h, h, true}};
    c.setup = {
        {reg::kModulusWords, hw}, {reg::kExponentBits, f.operand_bits}, {reg::kConfig, reg::kConfigCrt}};
  } else if (const unsigned e = f.public_exponent_bytes) {
    c.key = {{reg::kModulus, 0, n, true}, {reg::kExponent, n, e, true}};
    c.setup = {
        {reg::kModulusWords, n / 4}, {reg::kExponentBits, public_exponent_bits(f, key)}, {reg::kConfig, 0}};
  } else {
    c.key = {{reg::kModulus, 0, n, true}, {reg::kExponent, n, n, true}};
    c.setup = {{reg::kModulusWords, n / 4}, {reg::kExponentBits, f.operand_bits}};
  }
  return c;
}

// The constant-time formula at the operand size; an RSA public operation at the bit length of
// kAssumedPublicExponent.
std::uint64_t modexp_block_cycles(const FunctionalityInfo& f, const CoreParams& params) {
  if (f.crt) return rsa_crt_cycles(params, f.operand_bits);
  return modexp_cycles(params, f.operand_bits,
                       f.public_exponent_bytes ? public_exponent_bits(f, {}) : f.operand_bits);
}

Bytes modexp_reference(const FunctionalityInfo& f, const Bytes& key, const Bytes& data, bool) {
  Bytes out(data.size());
  const std::size_t n = f.block_bytes;
  auto each_block = [&](auto&& compute) {
    for (std::size_t i = 0; i < data.size(); i += n) {
      const auto r = compute(BigInt::from_bytes_be(&data[i], n)).to_bytes_be(n);
      std::copy(r.begin(), r.end(), out.begin() + static_cast<std::ptrdiff_t>(i));
    }
  };
  if (f.crt) {
    const std::size_t h = n / 2;
    auto part = [&](std::size_t i) { return BigInt::from_bytes_be(&key[i * h], h); };
    each_block(
        [&](const BigInt& m) { return crypto::rsa_crt(m, part(0), part(1), part(2), part(3), part(4)); });
    return out;
  }
  const BigInt modulus = BigInt::from_bytes_be(key.data(), n);
  const BigInt exponent = BigInt::from_bytes_be(key.data() + n, key.size() - n);
  // A public exponent is no secret: the faster exponentiation gives the same number.
  const auto power = f.public_exponent_bytes ? crypto::modexp_public : crypto::modexp;
  each_block([&](const BigInt& m) { return power(m, exponent, modulus); });
  return out;
}

std::string modexp_key_layout(const FunctionalityInfo& f) {
  if (f.crt) return "";
  if (const unsigned e = f.public_exponent_bytes)
    return " (modulus, " + std::to_string(f.block_bytes) + " bytes, then public exponent, " +
           std::to_string(e) + " bytes)";
  return " (modulus then exponent, " + std::to_string(f.block_bytes) + " bytes each)";
}

std::string modexp_key_problem(const FunctionalityInfo& f, const Bytes& key) {
  if (f.crt) {
    const unsigned h = f.block_bytes / 2;
    for (unsigned at : {0u, h})
      if (!(key[at] & 0x80) || !(key[at + h - 1] & 1))
        return std::string("p and q of a ") + f.name + " key must be odd with their top bits set";
    return "";
  }
  if (!(key.front() & 0x80) || !(key[f.block_bytes - 1] & 1))
    return std::string("the modulus of a ") + f.name + " key must be odd with its top bit set";
  if (f.public_exponent_bytes && (!(key.back() & 1) || public_exponent(f, key) < BigInt(3)))
    return std::string("the public exponent of a ") + f.name + " key must be odd and at least 3, got " +
           public_exponent(f, key).to_hex() + " (hex)";
  return "";
}

// RSA: a real key drawn from the random bytes (its public half for a public operation); plain modexp: the
// modulus's top and bottom bits set.
void modexp_shape_key(const FunctionalityInfo& f, Bytes& key) {
  if (key.size() != f.key_bytes) return;
  if (!f.crt && !f.public_exponent_bytes) {
    key.front() |= 0x80;
    key[f.block_bytes - 1] |= 1;
    return;
  }
  std::uint64_t seed = 0;
  for (std::size_t i = 0; i < 8; ++i) seed = (seed << 8) | key[i];
  const crypto::RsaKey k = crypto::generate_rsa_key(8 * f.block_bytes, seed);
  key.clear();
  auto append = [&](const BigInt& v, std::size_t bytes) {
    const auto b = v.to_bytes_be(bytes);
    key.insert(key.end(), b.begin(), b.end());
  };
  if (!f.crt) {  // the public half
    append(k.n, f.block_bytes);
    append(k.e, f.public_exponent_bytes);
    return;
  }
  for (const BigInt* v : {&k.p, &k.q, &k.dp, &k.dq, &k.qinv}) append(*v, f.block_bytes / 2);
}

// Each message's top byte cleared, so it is below the modulus.
void modexp_shape_data(const FunctionalityInfo& f, Bytes& data) {
  for (std::size_t i = 0; i < data.size(); i += f.block_bytes) data[i] = 0;
}

}  // namespace

const CoreKindEntry kModexpKind = {
    CoreKind::kModexp,
    "modexp",
    "modular exponentiation and RSA private operations by the CRT",
    make_modexp_core,
    {{3, "modexp1024", 128, 256, CoreKind::kModexp, 1024, false},
     {4, "modexp2048", 256, 512, CoreKind::kModexp, 2048, false},
     {5, "modexp4096", 512, 1024, CoreKind::kModexp, 4096, false},
     {6, "rsa2048_crt", 256, 640, CoreKind::kModexp, 1024, true},
     {7, "rsa4096_crt", 512, 1280, CoreKind::kModexp, 2048, true},
     {8, "rsa4096_verify", 512, 516, CoreKind::kModexp, 4096, false, 4}},
    modexp_interface,
    modexp_block_cycles,
    modexp_reference,
    modexp_key_layout,
    modexp_key_problem,
    modexp_shape_key,
    modexp_shape_data,
    {{"architecture",
      "modexp: generic (the multiplier width and overhead below) or modexpa7 (Cryptech's "
      "ModExpA7, timed by its RTL)",
      nullptr, 0, 0, 0, [] { return kModexpArchitectureNames.names(); }, "generic",
      [](CoreParams& p, unsigned v) { p.modexp_architecture = kModexpArchitectureNames.entries()[v].value; }},
     {"multiplier_width_bits", "modexp, generic: Montgomery multiplier width", "bits", 1, 4096, 32, nullptr,
      nullptr, [](CoreParams& p, unsigned v) { p.multiplier_width_bits = v; }},
     {"montmul_overhead_cycles", "modexp, generic: extra core cycles per Montgomery multiplication", "cycles",
      0, 1000000000, 0, nullptr, nullptr, [](CoreParams& p, unsigned v) { p.montmul_overhead_cycles = v; }},
     {"systolic_array_power", "modexp, modexpa7: P, the core's 2^P processing elements", nullptr, 0, 6, 1,
      nullptr, nullptr, [](CoreParams& p, unsigned v) { p.systolic_array_power = v; }},
     {"setup_cycles", "modexp: core cycles of precomputation per operation", "cycles", 0, 1000000000, 0,
      nullptr, nullptr, [](CoreParams& p, unsigned v) { p.setup_cycles = v; }},
     {"max_operand_bits", "modexp: widest operand", "bits", 32, 4096, 4096, nullptr, nullptr,
      [](CoreParams& p, unsigned v) { p.max_operand_bits = v; }}},
};

}  // namespace rsoc::models
