#pragma once
// The cycle formulas of the modexp core (models/modexp_core.cpp), for the runtime's cost estimates. Two
// architectures (CoreParams::modexp_architecture):
// - generic: one Montgomery multiplication of d = ceil(bits / multiplier_width_bits) digits takes
//   2 d^2 + montmul_overhead_cycles; a modexp takes setup_cycles + (exponent bits + 2) of them.
// - modexpa7: Cryptech's ModExpA7 (its RTL, cryptech core/math/modexpa7 of 2018, with 2^P processing
//   elements, P = systolic_array_power, each of latency 4), counted from its state machines and checked cycle
//   by cycle in simulation: for n 32-bit words, a Montgomery product M = 5n(n/2^P + 6) + 6n + 3n/2^P + 29
//   cycles; a modexp setup_cycles + E (M + 2n + 8) + 2M + 6n + 25 for E exponent bits (the exponent length
//   written: the core steps through every bit, constant time), one more M to reduce a double-width message.
//   A core uses 10 + 2 (2 + 7 * 2^P) DSP slices.

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

// The public exponent the costs of an RSA public operation assume when they cannot see the key (the
// analytic estimates, software costs derived per functionality): 65537, the exponent of every RSA key
// OpenSSL generates by default.
inline constexpr std::uint32_t kAssumedPublicExponent = 65537;

}  // namespace rsoc::models
