#pragma once
// The big-number work of RSA in software, counted as OpenSSL 0.9.8 does it (crypto/bn/bn_exp.c,
// crypto/rsa/rsa_eay.c, crypto/bn/bn_blind.c), so that the cost of one operation can be derived from the
// calibrated cost of another on the same CPU (software.<functionality>.scaled_from in a scenario). Plain C++.
//
// Unit: one Montgomery multiplication of 2048-bit numbers (BN_mod_mul_montgomery: a product and a Montgomery
// reduction). Squarings count as multiplications; converting the base into the Montgomery domain
// (BN_to_montgomery: a multiplication by R^2) counts as one; converting 1 into it (a product with a one-word
// number) and out of it (BN_from_montgomery: a reduction alone) as half each. A product and a reduction are
// both quadratic in the operand size, so an operation on b-bit numbers counts (b / 2048)^2 units.

#include <optional>

#include "models/crypto/modexp.h"
#include "runtime/functionality.h"

namespace rsoc::runtime {

// The Montgomery operations of one modular exponentiation.
struct ExpWork {
  unsigned squarings = 0;
  unsigned multiplications = 0;  // the precomputed table included
  unsigned conversions = 0;      // the base into the Montgomery domain
  unsigned half_steps = 0;       // 1 into the domain, the result out of it
  double montgomery_multiplications() const {
    return squarings + multiplications + conversions + 0.5 * half_steps;
  }
  bool operator==(const ExpWork& o) const {
    return squarings == o.squarings && multiplications == o.multiplications && conversions == o.conversions &&
           half_steps == o.half_steps;
  }
};

// With a replay, an exponentiation also computes base^exponent mod modulus step by step as it counts (plain
// modular arithmetic in place of the Montgomery domain): a walk that counted the wrong steps would not reach
// the power.
struct ExpReplay {
  crypto::BigInt base, modulus, result;
};

// BN_mod_exp_mont: left-to-right sliding window over the exponent's bits, window size from the exponent's
// length (1 up to 23 bits, 3 up to 79, 4 up to 239, 5 up to 671, else 6), a table of the odd powers below
// 2^window. OpenSSL uses it for public exponents.
ExpWork mod_exp_mont_work(const crypto::BigInt& exponent, ExpReplay* replay = nullptr);
// BN_mod_exp_mont_consttime: fixed windows (1 up to 22 bits, 3 up to 89, 4 up to 306, 5 up to 937, else 6)
// and a table of every power below 2^window; the work depends on the exponent's length alone. OpenSSL 0.9.8
// (from 0.9.8a) uses it for the private exponents of RSA (BN_FLG_CONSTTIME).
ExpWork mod_exp_mont_consttime_work(const crypto::BigInt& exponent, ExpReplay* replay = nullptr);

// Units of work of an operation on `bits`-bit numbers (the quadratic size factor).
double units(double montgomery_multiplications, unsigned bits);

// One RSA private operation as RSA_sign runs it in software (RSA_eay_private_encrypt, RSA_eay_mod_exp): the
// two CRT exponentiations with the private exponents (modulus_bits/2 bits each, constant-time); the check
// of the result by the public operation (rsa_eay.c verifies every CRT result, a fault-attack defence);
// blinding (multiplying in the blinding factor and out its inverse, squaring both for the next use, and a
// fresh factor r^e mod n every 32 uses); the CRT recombination (the message reduced mod p and q, Garner's
// product and reduction, the product by q: a product or a reduction each, half a unit at the prime size).
struct RsaPrivateWork {
  double exponentiations = 0, result_check = 0, blinding = 0, recombination = 0;
  double total() const { return exponentiations + result_check + blinding + recombination; }
};
RsaPrivateWork rsa_private_work(unsigned modulus_bits, const crypto::BigInt& public_exponent);
// One RSA public operation as RSA_verify runs it (RSA_eay_public_decrypt): one exponentiation by the public
// exponent (the padding check and the digest comparison are a few microseconds and not counted).
double rsa_public_work(unsigned modulus_bits, const crypto::BigInt& public_exponent);

// The software work of one block of `f` in units, for the RSA functionalities (keys with
// kAssumedPublicExponent); nothing for the others.
std::optional<double> software_work(Functionality f);

}  // namespace rsoc::runtime
