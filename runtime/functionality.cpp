#include "runtime/functionality.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <random>
#include <stdexcept>

#include "models/crypto/aes128.h"
#include "models/crypto/bytes.h"
#include "models/crypto/des.h"
#include "models/crypto/modexp.h"
#include "models/modexp_core.h"
#include "models/splitmix.h"
#include "runtime/rsa_key.h"

namespace rsoc::runtime {

namespace {

// The public exponent of an RSA public operation's key.
crypto::BigInt public_exponent(Functionality f, const std::vector<std::uint8_t>& key) {
  const unsigned n = info(f).block_bytes;
  return crypto::BigInt::from_bytes_be(key.data() + n, key.size() - n);
}

// The bit length of the public exponent in `key`, or of kAssumedPublicExponent when it holds none.
std::uint32_t public_exponent_bits(Functionality f, const std::vector<std::uint8_t>& key) {
  return static_cast<std::uint32_t>(
      (key.size() == info(f).key_bytes ? public_exponent(f, key) : crypto::BigInt(kAssumedPublicExponent))
          .bit_length());
}

}  // namespace

std::optional<Functionality> functionality_from_name(const std::string& name) {
  for (const auto& i : kBuiltinFunctionalities)
    if (name == i.name) return Functionality(&i);
  return std::nullopt;
}

std::vector<std::string> functionality_names() {
  std::vector<std::string> out;
  for (const auto& i : kBuiltinFunctionalities) out.emplace_back(i.name);
  return out;
}

FunctionalityCatalog::FunctionalityCatalog(const std::vector<Custom>& customs) {
  for (const Custom& c : customs) {
    auto e = std::make_unique<Entry>();
    e->name = c.name;
    e->info = FunctionalityInfo{kFirstCustomFunctionalityId + static_cast<unsigned>(customs_.size()),
                                nullptr,
                                c.input_bytes,
                                c.key_bytes,
                                models::CoreKind::kCustom,
                                0,
                                false,
                                c.computes,
                                c.output_bytes};
    e->info.name = e->name.c_str();
    customs_.push_back(std::move(e));
  }
}

std::optional<Functionality> FunctionalityCatalog::find(const std::string& name) const {
  if (const auto f = functionality_from_name(name)) return f;
  for (const auto& e : customs_)
    if (e->name == name) return Functionality(&e->info);
  return std::nullopt;
}

std::vector<Functionality> FunctionalityCatalog::all() const {
  std::vector<Functionality> out;
  for (const auto& i : kBuiltinFunctionalities) out.emplace_back(&i);
  for (const auto& e : customs_) out.emplace_back(&e->info);
  return out;
}

std::vector<Functionality> FunctionalityCatalog::customs() const {
  std::vector<Functionality> out;
  for (const auto& e : customs_) out.emplace_back(&e->info);
  return out;
}

std::vector<std::string> FunctionalityCatalog::names() const {
  std::vector<std::string> out;
  for (const Functionality f : all()) out.emplace_back(info(f).name);
  return out;
}

Functionality functionality_for_operand_bits(unsigned bits) {
  for (const auto& i : kBuiltinFunctionalities)
    if (i.operand_bits == bits && !i.crt && !public_exponent_bytes(Functionality(&i)))
      return Functionality(&i);
  throw std::invalid_argument("no modexp functionality for " + std::to_string(bits) + "-bit operands");
}

unsigned public_exponent_bytes(Functionality f) {
  return f == Functionality::kRsaVerify4096 ? 4 : 0;
}

CoreInterface core_interface(Functionality f, bool encrypt, const std::vector<std::uint8_t>& key) {
  namespace reg = models::reg;
  const FunctionalityInfo& fi = info(f);
  CoreInterface c;
  if (fi.core == models::CoreKind::kCustom) {  // models/custom_core.cpp; set up (CTRL.INIT) for every request
    if (fi.key_bytes) c.key = {{reg::kKey, 0, fi.key_bytes, false}};
    c.block = {reg::kCustomBlock, 0, fi.block_bytes, false};
    c.result = {reg::kCustomResult, 0, fi.output_bytes(), false};
    c.init_every_request = true;
    return c;
  }
  if (fi.crt) {
    const unsigned h = fi.block_bytes / 2, hw = h / 4;  // a prime, in bytes and words
    c.key = {{reg::kModulus, 0, h, true},
             {reg::kModulus + 4 * hw, h, h, true},
             {reg::kExponent, 2 * h, h, true},
             {reg::kExponent + 4 * hw, 3 * h, h, true},
             {reg::kQinv, 4 * h, h, true}};
    c.setup = {
        {reg::kModulusWords, hw}, {reg::kExponentBits, fi.operand_bits}, {reg::kConfig, reg::kConfigCrt}};
    c.block = {reg::kMessage, 0, fi.block_bytes, true};
    c.result = {reg::kModResult, 0, fi.block_bytes, true};
    return c;
  }
  if (const unsigned e = public_exponent_bytes(f)) {
    // CONFIG is written: the core may have run a CRT operation last.
    const unsigned n = fi.block_bytes;
    c.key = {{reg::kModulus, 0, n, true}, {reg::kExponent, n, e, true}};
    c.setup = {
        {reg::kModulusWords, n / 4}, {reg::kExponentBits, public_exponent_bits(f, key)}, {reg::kConfig, 0}};
    c.block = {reg::kMessage, 0, n, true};
    c.result = {reg::kModResult, 0, n, true};
    return c;
  }
  if (fi.core == models::CoreKind::kModexp) {
    const unsigned n = fi.block_bytes;
    c.key = {{reg::kModulus, 0, n, true}, {reg::kExponent, n, n, true}};
    c.setup = {{reg::kModulusWords, n / 4}, {reg::kExponentBits, fi.operand_bits}};
    c.block = {reg::kMessage, 0, n, true};
    c.result = {reg::kModResult, 0, n, true};
    return c;
  }
  c.key = {{reg::kKey, 0, fi.key_bytes, false}};
  c.setup = {{reg::kConfig, (encrypt ? reg::kConfigEncrypt : 0u) |
                                (f == Functionality::kTripleDes ? reg::kConfigTriple : 0u)}};
  c.block = {reg::kBlock, 0, fi.block_bytes, false};
  c.result = {reg::kResult, 0, fi.block_bytes, false};
  return c;
}

std::uint64_t core_cycles_per_block(Functionality f, const models::CoreParams& params) {
  const FunctionalityInfo& fi = info(f);
  switch (fi.core) {
    case models::CoreKind::kModexp:
      if (fi.crt) return models::rsa_crt_cycles(params, fi.operand_bits);
      return models::modexp_cycles(params, fi.operand_bits,
                                   public_exponent_bytes(f) ? public_exponent_bits(f, {}) : fi.operand_bits);
    case models::CoreKind::kDes:
      return std::uint64_t{params.block_cycles} * (f == Functionality::kTripleDes ? 3 : 1);
    case models::CoreKind::kAes128:
    case models::CoreKind::kCustom:
      break;
  }
  return params.block_cycles;
}

std::string key_problem(Functionality f, const std::vector<std::uint8_t>& key) {
  const FunctionalityInfo& fi = info(f);
  const unsigned e = public_exponent_bytes(f);
  if (key.size() != fi.key_bytes && fi.key_bytes == 0)
    return std::string(fi.name) + " takes no key, got " + std::to_string(key.size()) + " bytes";
  if (key.size() != fi.key_bytes) {
    std::string layout;
    if (e)
      layout = " (modulus, " + std::to_string(fi.block_bytes) + " bytes, then public exponent, " +
               std::to_string(e) + " bytes)";
    else if (fi.operand_bits)
      layout = " (modulus then exponent, " + std::to_string(fi.block_bytes) + " bytes each)";
    return "expected a " + std::to_string(fi.key_bytes) + "-byte " + fi.name + " key" + layout + ", got " +
           std::to_string(key.size()) + " bytes";
  }
  if (fi.crt) {
    const unsigned h = fi.block_bytes / 2;
    for (unsigned at : {0u, h})
      if (!(key[at] & 0x80) || !(key[at + h - 1] & 1))
        return std::string("p and q of a ") + fi.name + " key must be odd with their top bits set";
    return "";
  }
  if (fi.operand_bits && (!(key.front() & 0x80) || !(key[fi.block_bytes - 1] & 1)))
    return std::string("the modulus of a ") + fi.name + " key must be odd with its top bit set";
  if (e && (!(key.back() & 1) || public_exponent(f, key) < crypto::BigInt(3)))
    return std::string("the public exponent of a ") + fi.name + " key must be odd and at least 3, got " +
           public_exponent(f, key).to_hex() + " (hex)";
  return "";
}

void shape_key(Functionality f, std::vector<std::uint8_t>& key) {
  const FunctionalityInfo& fi = info(f);
  if (!fi.operand_bits || key.size() != fi.key_bytes) return;
  if (fi.crt || public_exponent_bytes(f)) {  // a real key, drawn from the random bytes
    std::uint64_t seed = 0;
    for (std::size_t i = 0; i < 8; ++i) seed = (seed << 8) | key[i];
    const RsaKey k = generate_rsa_key(8 * fi.block_bytes, seed);
    key.clear();
    auto append = [&](const crypto::BigInt& v, std::size_t bytes) {
      const auto b = v.to_bytes_be(bytes);
      key.insert(key.end(), b.begin(), b.end());
    };
    if (!fi.crt) {  // the public half
      append(k.n, fi.block_bytes);
      append(k.e, public_exponent_bytes(f));
      return;
    }
    for (const crypto::BigInt* v : {&k.p, &k.q, &k.dp, &k.dq, &k.qinv}) append(*v, fi.block_bytes / 2);
    return;
  }
  key.front() |= 0x80;
  key[fi.block_bytes - 1] |= 1;
}

std::vector<std::uint8_t> draw_key(Functionality f, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint8_t> key(info(f).key_bytes);
  for (auto& b : key) b = static_cast<std::uint8_t>(rng());
  shape_key(f, key);
  return key;
}

void draw_data(std::uint64_t seed, std::vector<std::uint8_t>& data) {
  for (std::size_t i = 0; i < data.size(); i += 8) {
    const std::uint64_t z = models::splitmix64(seed + (i / 8) * models::kSplitMixGamma);
    std::memcpy(&data[i], &z, std::min<std::size_t>(8, data.size() - i));
  }
}

void shape_data(Functionality f, std::vector<std::uint8_t>& data) {
  const FunctionalityInfo& fi = info(f);
  if (!fi.operand_bits) return;
  for (std::size_t i = 0; i < data.size(); i += fi.block_bytes) data[i] = 0;
}

std::vector<std::uint8_t> reference_output(Functionality f, const std::vector<std::uint8_t>& key,
                                           const std::vector<std::uint8_t>& data, bool encrypt) {
  const auto& fi = info(f);
  if (key.size() != fi.key_bytes || data.size() % fi.block_bytes != 0)
    throw std::invalid_argument("reference_output: bad key or data size");
  if (fi.computes) {  // a custom functionality: its block function
    const std::size_t blocks = data.size() / fi.block_bytes;
    std::vector<std::uint8_t> out(blocks * fi.output_bytes());
    for (std::size_t b = 0; b < blocks; ++b)
      fi.computes->compute(key.data(), key.size(), &data[b * fi.block_bytes], fi.block_bytes,
                           &out[b * fi.output_bytes()], fi.output_bytes());
    return out;
  }
  std::vector<std::uint8_t> out(data.size());
  if (fi.crt) {
    const std::size_t h = fi.block_bytes / 2;
    auto part = [&](std::size_t i) { return crypto::BigInt::from_bytes_be(&key[i * h], h); };
    for (std::size_t i = 0; i < data.size(); i += fi.block_bytes) {
      const auto r = crypto::rsa_crt(crypto::BigInt::from_bytes_be(&data[i], fi.block_bytes), part(0),
                                     part(1), part(2), part(3), part(4))
                         .to_bytes_be(fi.block_bytes);
      std::copy(r.begin(), r.end(), out.begin() + static_cast<std::ptrdiff_t>(i));
    }
    return out;
  }
  if (fi.operand_bits) {
    const std::size_t n = fi.block_bytes;
    const crypto::BigInt modulus = crypto::BigInt::from_bytes_be(key.data(), n);
    const crypto::BigInt exponent = crypto::BigInt::from_bytes_be(key.data() + n, key.size() - n);
    // A public exponent is no secret: the faster exponentiation gives the same number.
    const auto power = public_exponent_bytes(f) ? crypto::modexp_public : crypto::modexp;
    for (std::size_t i = 0; i < data.size(); i += n) {
      const auto r = power(crypto::BigInt::from_bytes_be(&data[i], n), exponent, modulus).to_bytes_be(n);
      std::copy(r.begin(), r.end(), out.begin() + static_cast<std::ptrdiff_t>(i));
    }
    return out;
  }
  // DES and 3DES through their 64-bit interface (the byte-array one converts byte by byte), all the blocks in
  // one call (interleaved: ECB blocks are independent).
  auto each_block64 = [&](const auto& cipher) {
    const std::size_t n = data.size() / 8;
    std::vector<std::uint64_t> blocks(n);
    for (std::size_t i = 0; i < n; ++i) blocks[i] = crypto::load_be64(&data[8 * i]);
    if (encrypt) {
      cipher.encrypt(blocks.data(), blocks.data(), n);
    } else {
      cipher.decrypt(blocks.data(), blocks.data(), n);
    }
    for (std::size_t i = 0; i < n; ++i) crypto::store_be64(&out[8 * i], blocks[i]);
  };
  if (f == Functionality::kAes128) {
    crypto::Aes128::Key k{};
    std::copy(key.begin(), key.end(), k.begin());
    const crypto::Aes128 aes(k);
    const std::size_t n = data.size() / crypto::Aes128::kBlockBytes;  // all in one call (interleaved)
    encrypt ? aes.encrypt(data.data(), out.data(), n) : aes.decrypt(data.data(), out.data(), n);
  } else if (f == Functionality::kDes) {
    each_block64(crypto::Des(crypto::load_be64(key.data())));
  } else if (f == Functionality::kTripleDes) {
    each_block64(crypto::TripleDes(crypto::load_be64(key.data()), crypto::load_be64(key.data() + 8),
                                   crypto::load_be64(key.data() + 16)));
  } else {
    throw std::logic_error(std::string("reference_output: no reference for ") + fi.name);
  }
  return out;
}

OutputCheck::OutputCheck(Functionality f, const std::vector<std::uint8_t>& key) : f_(f), key_(key) {
  const FunctionalityInfo& fi = info(f);
  if (!fi.crt || key.size() != fi.key_bytes) return;
  using crypto::BigInt;
  const std::size_t h = fi.block_bytes / 2;
  auto part = [&](std::size_t i) { return BigInt::from_bytes_be(&key[i * h], h); };
  const BigInt p = part(0), q = part(1), dp = part(2), dq = part(3), qinv = part(4);
  const BigInt one(1);
  if (p <= one || q <= one || p == q) return;
  if (crypto::mod(qinv * q, p) != one) return;  // Garner's recombination would not give the CRT's number
  if (mpz_probab_prime_p(p.get(), 25) == 0 || mpz_probab_prime_p(q.get(), 25) == 0) return;
  const BigInt p1 = p - one, q1 = q - one;
  BigInt e;
  if (mpz_invert(e.get(), dp.get(), p1.get()) == 0) return;  // dP has no inverse: no public exponent
  if (e.bit_length() > 64 || crypto::mod(e * dq, q1) != one) return;
  n_ = p * q;
  e_ = e;
}

bool OutputCheck::matches(const std::vector<std::uint8_t>& data, bool encrypt,
                          const std::vector<std::uint8_t>& output) const {
  if (!e_) return output == reference_output(f_, key_, data, encrypt);
  const std::size_t n = info(f_).block_bytes;
  if (data.size() % n != 0) throw std::invalid_argument("OutputCheck: data is not whole blocks");
  if (output.size() != data.size()) return false;
  for (std::size_t i = 0; i < data.size(); i += n) {
    const crypto::BigInt s = crypto::BigInt::from_bytes_be(&output[i], n);
    if (s >= *n_) return false;  // the reference is below n
    if (crypto::modexp_public(s, *e_, *n_) != crypto::mod(crypto::BigInt::from_bytes_be(&data[i], n), *n_))
      return false;
  }
  return true;
}

}  // namespace rsoc::runtime
