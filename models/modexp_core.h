#pragma once
// The cycle formulas of the modexp core (models/modexp_core.cpp), for the runtime's cost estimates.

#include <cstdint>

#include "models/ip_core.h"

namespace rsoc::models {

// Cycles of one Montgomery multiplication of `modulus_bits`-bit operands: 2 * digits^2 + overhead.
std::uint64_t montmul_cycles(const CoreParams& params, unsigned modulus_bits);
// Cycles of a constant-time modexp (see ModexpCore in modexp_core.cpp).
std::uint64_t modexp_cycles(const CoreParams& params, unsigned modulus_bits, unsigned exponent_bits);
// Cycles of an RSA private operation by the CRT with `half_bits`-bit primes: two modexps of half_bits, one
// after the other, and Garner's recombination (two Montgomery multiplications).
std::uint64_t rsa_crt_cycles(const CoreParams& params, unsigned half_bits);

}  // namespace rsoc::models
