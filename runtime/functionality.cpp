#include "runtime/functionality.h"

#include <algorithm>
#include <cstring>
#include <random>
#include <stdexcept>

#include "models/crypto/modexp.h"
#include "models/splitmix.h"

namespace rsoc::runtime {

namespace {

const models::CoreKindEntry& kind_of(Functionality f) {
  return models::core_kind(info(f).core);
}

}  // namespace

std::optional<Functionality> functionality_from_name(const std::string& name) {
  for (const FunctionalityInfo* i : models::builtin_functionality_infos())
    if (name == i->name) return Functionality(i);
  return std::nullopt;
}

std::vector<std::string> functionality_names() {
  std::vector<std::string> out;
  for (const FunctionalityInfo* i : models::builtin_functionality_infos()) out.emplace_back(i->name);
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
                                0,
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
  for (const FunctionalityInfo* i : models::builtin_functionality_infos()) out.emplace_back(i);
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
  for (const FunctionalityInfo* i : models::builtin_functionality_infos())
    if (i->operand_bits == bits && !i->crt && !i->public_exponent_bytes) return Functionality(i);
  throw std::invalid_argument("no modexp functionality for " + std::to_string(bits) + "-bit operands");
}

CoreInterface core_interface(Functionality f, bool encrypt, const std::vector<std::uint8_t>& key) {
  return kind_of(f).interface(info(f), encrypt, key);
}

std::uint64_t core_cycles_per_block(Functionality f, const models::CoreParams& params) {
  return kind_of(f).cycles_per_block(info(f), params);
}

std::string key_problem(Functionality f, const std::vector<std::uint8_t>& key) {
  const FunctionalityInfo& fi = info(f);
  const models::CoreKindEntry& kind = kind_of(f);
  if (key.size() != fi.key_bytes && fi.key_bytes == 0)
    return std::string(fi.name) + " takes no key, got " + std::to_string(key.size()) + " bytes";
  if (key.size() != fi.key_bytes)
    return "expected a " + std::to_string(fi.key_bytes) + "-byte " + fi.name + " key" +
           (kind.key_layout ? kind.key_layout(fi) : "") + ", got " + std::to_string(key.size()) + " bytes";
  return kind.key_problem ? kind.key_problem(fi, key) : "";
}

void shape_key(Functionality f, std::vector<std::uint8_t>& key) {
  if (const auto shape = kind_of(f).shape_key) shape(info(f), key);
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
  if (const auto shape = kind_of(f).shape_data) shape(info(f), data);
}

std::vector<std::uint8_t> reference_output(Functionality f, const std::vector<std::uint8_t>& key,
                                           const std::vector<std::uint8_t>& data, bool encrypt) {
  const auto& fi = info(f);
  if (key.size() != fi.key_bytes || data.size() % fi.block_bytes != 0)
    throw std::invalid_argument("reference_output: bad key or data size");
  return kind_of(f).reference(fi, key, data, encrypt);
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
