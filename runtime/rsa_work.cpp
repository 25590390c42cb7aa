#include "runtime/rsa_work.h"

namespace rsoc::runtime {

using crypto::BigInt;

namespace {

bool bit(const BigInt& e, int i) {
  return mpz_tstbit(e.get(), static_cast<mp_bitcnt_t>(i)) != 0;
}

// The replay's steps: plain modular arithmetic standing for the Montgomery products.
BigInt product(const ExpReplay* replay, const BigInt& a, const BigInt& b) {
  return replay ? crypto::mod(a * b, replay->modulus) : BigInt();
}

constexpr double kUnitBits = 2048;
constexpr int kBlindingRefresh = 32;  // BN_BLINDING_COUNTER: uses of one blinding factor

}  // namespace

ExpWork mod_exp_mont_work(const BigInt& exponent, ExpReplay* replay) {
  ExpWork w;
  const int bits = static_cast<int>(exponent.bit_length());
  if (bits == 0) {  // BN_mod_exp_mont answers 1 at once
    if (replay) replay->result = crypto::mod(BigInt(1), replay->modulus);
    return w;
  }
  const int window = bits > 671 ? 6 : bits > 239 ? 5 : bits > 79 ? 4 : bits > 23 ? 3 : 1;
  // val[i] = base^(2i+1): the base converted, its square, then the odd powers.
  std::vector<BigInt> val(1);
  ++w.conversions;
  if (replay) val[0] = crypto::mod(replay->base, replay->modulus);
  if (window > 1) {
    ++w.squarings;
    const BigInt square = product(replay, val[0], val[0]);
    for (int i = 1; i < 1 << (window - 1); ++i) {
      ++w.multiplications;
      val.push_back(product(replay, val.back(), square));
    }
  }
  ++w.half_steps;  // r = 1 converted
  BigInt r(1);
  bool start = true;  // r is still 1: no squaring
  int wstart = bits - 1;
  for (;;) {
    if (!bit(exponent, wstart)) {
      if (!start) {
        ++w.squarings;
        r = product(replay, r, r);
      }
      if (wstart == 0) break;
      --wstart;
      continue;
    }
    // The longest window from wstart (at most `window` bits) that ends on a set bit.
    int wvalue = 1, wend = 0;
    for (int i = 1; i < window && wstart - i >= 0; ++i)
      if (bit(exponent, wstart - i)) {
        wvalue = (wvalue << (i - wend)) | 1;
        wend = i;
      }
    if (!start)
      for (int i = 0; i <= wend; ++i) {
        ++w.squarings;
        r = product(replay, r, r);
      }
    ++w.multiplications;  // also at the start: r = 1 (R in the domain) times the window's power
    r = product(replay, r, val[static_cast<std::size_t>(wvalue >> 1)]);
    wstart -= wend + 1;
    start = false;
    if (wstart < 0) break;
  }
  ++w.half_steps;  // out of the domain
  if (replay) replay->result = r;
  return w;
}

ExpWork mod_exp_mont_consttime_work(const BigInt& exponent, ExpReplay* replay) {
  ExpWork w;
  int bits = static_cast<int>(exponent.bit_length());
  if (bits == 0) {
    if (replay) replay->result = crypto::mod(BigInt(1), replay->modulus);
    return w;
  }
  const int window = bits > 937 ? 6 : bits > 306 ? 5 : bits > 89 ? 4 : bits > 22 ? 3 : 1;
  // table[i] = base^i for every i below 2^window: 1 and the base converted, then products by the base.
  ++w.half_steps;
  ++w.conversions;
  std::vector<BigInt> table(2);
  if (replay) table = {crypto::mod(BigInt(1), replay->modulus), crypto::mod(replay->base, replay->modulus)};
  if (window > 1)
    for (int i = 2; i < 1 << window; ++i) {
      ++w.multiplications;
      table.push_back(product(replay, table.back(), table[1]));
    }
  // The top bits, fewer than a window when the length is not a multiple of it, pick the first power; then
  // every window is `window` squarings and one product with the power it names.
  --bits;
  int wvalue = 0;
  for (int i = bits % window; i >= 0; --i, --bits) wvalue = (wvalue << 1) | (bit(exponent, bits) ? 1 : 0);
  BigInt r = table[static_cast<std::size_t>(wvalue)];
  while (bits >= 0) {
    wvalue = 0;
    for (int i = 0; i < window; ++i, --bits) {
      ++w.squarings;
      r = product(replay, r, r);
      wvalue = (wvalue << 1) | (bit(exponent, bits) ? 1 : 0);
    }
    ++w.multiplications;
    r = product(replay, r, table[static_cast<std::size_t>(wvalue)]);
  }
  ++w.half_steps;
  if (replay) replay->result = r;
  return w;
}

double units(double montgomery_multiplications, unsigned bits) {
  const double scale = bits / kUnitBits;
  return montgomery_multiplications * scale * scale;
}

RsaPrivateWork rsa_private_work(unsigned modulus_bits, const BigInt& public_exponent) {
  const unsigned half = modulus_bits / 2;
  BigInt private_exponent;  // the work depends on its length alone: half the modulus
  mpz_setbit(private_exponent.get(), half - 1);
  RsaPrivateWork w;
  w.exponentiations =
      2 * units(mod_exp_mont_consttime_work(private_exponent).montgomery_multiplications(), half);
  const double check = rsa_public_work(modulus_bits, public_exponent);
  w.result_check = check;
  w.blinding = units(4, modulus_bits) + check / kBlindingRefresh;
  w.recombination = units(5 * 0.5, half);
  return w;
}

double rsa_public_work(unsigned modulus_bits, const BigInt& public_exponent) {
  return units(mod_exp_mont_work(public_exponent).montgomery_multiplications(), modulus_bits);
}

std::optional<double> software_work(Functionality f) {
  const BigInt e(kAssumedPublicExponent);
  const FunctionalityInfo& fi = info(f);
  if (fi.crt) return rsa_private_work(8 * fi.block_bytes, e).total();
  if (public_exponent_bytes(f)) return rsa_public_work(8 * fi.block_bytes, e);
  return std::nullopt;
}

}  // namespace rsoc::runtime
