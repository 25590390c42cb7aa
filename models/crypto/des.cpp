// DES / Triple-DES (FIPS 46-3): SP tables and permutation tables generated at compile time.
#include "models/crypto/des.h"

#include <cstddef>

#include "models/crypto/bytes.h"

namespace rsoc::crypto {
namespace {

// --- FIPS 46-3 tables (1-based bit numbers, bit 1 = most significant) ------------------------------------
constexpr std::array<std::uint8_t, 56> kPc1 = {57, 49, 41, 33, 25, 17, 9,  1,  58, 50, 42, 34, 26, 18,
                                               10, 2,  59, 51, 43, 35, 27, 19, 11, 3,  60, 52, 44, 36,
                                               63, 55, 47, 39, 31, 23, 15, 7,  62, 54, 46, 38, 30, 22,
                                               14, 6,  61, 53, 45, 37, 29, 21, 13, 5,  28, 20, 12, 4};

constexpr std::array<std::uint8_t, 48> kPc2 = {
    14, 17, 11, 24, 1,  5,  3,  28, 15, 6,  21, 10, 23, 19, 12, 4,  26, 8,  16, 7,  27, 20, 13, 2,
    41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48, 44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32};

constexpr std::array<std::uint8_t, 32> kP = {16, 7, 20, 21, 29, 12, 28, 17, 1,  15, 23, 26, 5,  18, 31, 10,
                                             2,  8, 24, 14, 32, 27, 3,  9,  19, 13, 30, 6,  22, 11, 4,  25};

// S1..S8, each 4 rows x 16 columns.
constexpr std::uint8_t kSBoxes[8][64] = {
    {14, 4,  13, 1, 2,  15, 11, 8, 3, 10, 6, 12, 5,  9,  0,  7,  0,  15, 7,  4,  14, 2,
     13, 1,  10, 6, 12, 11, 9,  5, 3, 8,  4, 1,  14, 8,  13, 6,  2,  11, 15, 12, 9,  7,
     3,  10, 5,  0, 15, 12, 8,  2, 4, 9,  1, 7,  5,  11, 3,  14, 10, 0,  6,  13},
    {15, 1,  8,  14, 6,  11, 3,  4, 9,  7,  2, 13, 12, 0,  5,  10, 3,  13, 4,  7, 15, 2,
     8,  14, 12, 0,  1,  10, 6,  9, 11, 5,  0, 14, 7,  11, 10, 4,  13, 1,  5,  8, 12, 6,
     9,  3,  2,  15, 13, 8,  10, 1, 3,  15, 4, 2,  11, 6,  7,  12, 0,  5,  14, 9},
    {10, 0,  9,  14, 6, 3,  15, 5,  1,  13, 12, 7, 11, 4,  2,  8,  13, 7, 0,  9, 3, 4,
     6,  10, 2,  8,  5, 14, 12, 11, 15, 1,  13, 6, 4,  9,  8,  15, 3,  0, 11, 1, 2, 12,
     5,  10, 14, 7,  1, 10, 13, 0,  6,  9,  8,  7, 4,  15, 14, 3,  11, 5, 2,  12},
    {7, 13, 14, 3, 0, 6,  9, 10, 1,  2, 8,  5, 11, 12, 4,  15, 13, 8,  11, 5, 6, 15,
     0, 3,  4,  7, 2, 12, 1, 10, 14, 9, 10, 6, 9,  0,  12, 11, 7,  13, 15, 1, 3, 14,
     5, 2,  8,  4, 3, 15, 0, 6,  10, 1, 13, 8, 9,  4,  5,  11, 12, 7,  2,  14},
    {2,  12, 4, 1,  7,  10, 11, 6, 8, 5,  3, 15, 13, 0,  14, 9,  14, 11, 2,  12, 4,  7,
     13, 1,  5, 0,  15, 10, 3,  9, 8, 6,  4, 2,  1,  11, 10, 13, 7,  8,  15, 9,  12, 5,
     6,  3,  0, 14, 11, 8,  12, 7, 1, 14, 2, 13, 6,  15, 0,  9,  10, 4,  5,  3},
    {12, 1,  10, 15, 9,  2,  6, 8,  0, 13, 3,  4,  14, 7,  5, 11, 10, 15, 4, 2, 7, 12,
     9,  5,  6,  1,  13, 14, 0, 11, 3, 8,  9,  14, 15, 5,  2, 8,  12, 3,  7, 0, 4, 10,
     1,  13, 11, 6,  4,  3,  2, 12, 9, 5,  15, 10, 11, 14, 1, 7,  6,  0,  8, 13},
    {4, 11, 2,  14, 15, 0,  8,  13, 3, 12, 9,  7, 5,  10, 6,  1,  13, 0,  11, 7,  4, 9,
     1, 10, 14, 3,  5,  12, 2,  15, 8, 6,  1,  4, 11, 13, 12, 3,  7,  14, 10, 15, 6, 8,
     0, 5,  9,  2,  6,  11, 13, 8,  1, 4,  10, 7, 9,  5,  0,  15, 14, 2,  3,  12},
    {13, 2, 8,  4, 6, 15, 11, 1,  10, 9,  3, 14, 5,  0,  12, 7,  1,  15, 13, 8, 10, 3,
     7,  4, 12, 5, 6, 11, 0,  14, 9,  2,  7, 11, 4,  1,  9,  12, 14, 2,  0,  6, 10, 13,
     15, 3, 5,  8, 2, 1,  14, 7,  4,  10, 8, 13, 15, 12, 9,  0,  3,  5,  6,  11}};

// Generic bit selection: output bit j (1-based from the MSB of an out_bits-wide value) is input bit
// table[j-1] (1-based from the MSB of an in_bits-wide value).
template <std::size_t N>
constexpr std::uint64_t select_bits(std::uint64_t in, int in_bits, const std::array<std::uint8_t, N>& table) {
  std::uint64_t out = 0;
  for (std::size_t j = 0; j < N; ++j) out = (out << 1) | ((in >> (in_bits - table[j])) & 1U);
  return out;
}

// A bit selection evaluated as one lookup per input nibble: row n holds the output for every value of input
// nibble n (nibble 0 = the least significant one).
template <int InBits, std::size_t N>
struct NibblePermutation {
  std::array<std::array<std::uint64_t, 16>, InBits / 4> rows{};

  constexpr explicit NibblePermutation(const std::array<std::uint8_t, N>& table) {
    for (int n = 0; n < InBits / 4; ++n) {
      for (std::uint64_t v = 0; v < 16; ++v) {
        rows[static_cast<std::size_t>(n)][v] = select_bits(v << (4 * n), InBits, table);
      }
    }
  }

  std::uint64_t operator()(std::uint64_t in) const {
    std::uint64_t out = 0;
    for (std::size_t n = 0; n < rows.size(); ++n) out |= rows[n][(in >> (4 * n)) & 0xf];
    return out;
  }
};

constexpr NibblePermutation<64, 56> kPc1Perm(kPc1);
constexpr NibblePermutation<56, 48> kPc2Perm(kPc2);

// SP tables: kSp[i][x] = P(S_{i+1}(x) placed in output nibble i+1), x the 6-bit S-box input b1..b6 with b1
// the most significant bit (row = b1 b6, column = b2..b5).
using SpTables = std::array<std::array<std::uint32_t, 64>, 8>;

constexpr SpTables make_sp() {
  SpTables sp{};
  for (std::size_t i = 0; i < 8; ++i) {
    for (std::size_t x = 0; x < 64; ++x) {
      const std::size_t row = ((x >> 4) & 2) | (x & 1);
      const std::size_t col = (x >> 1) & 0xf;
      const std::uint64_t s = std::uint64_t{kSBoxes[i][row * 16 + col]} << (28 - 4 * i);
      sp[i][x] = static_cast<std::uint32_t>(select_bits(s, 32, kP));
    }
  }
  return sp;
}

constexpr SpTables kSp = make_sp();

constexpr std::uint32_t rotl32(std::uint32_t x, int n) {
  return (x << n) | (x >> (32 - n));
}

// f(R, K) on a packed round key. The E expansion makes S-box i (0-based) read R bits 4i .. 4i+5 (1-based,
// bit 0 = bit 32), i.e. the low 6 bits of rotl(R, 4i + 5). With a = rotl(R, 5) the inputs of boxes 0, 2, 4, 6
// sit in bits 0, 24, 16, 8 of a; with b = rotl(R, 9) those of boxes 1, 3, 5, 7 sit in the same lanes of b.
inline std::uint32_t f_packed(std::uint32_t r, std::uint32_t k_even, std::uint32_t k_odd) {
  const std::uint32_t u = rotl32(r, 5) ^ k_even;
  const std::uint32_t v = rotl32(r, 9) ^ k_odd;
  return kSp[0][u & 0x3f] ^ kSp[6][(u >> 8) & 0x3f] ^ kSp[4][(u >> 16) & 0x3f] ^ kSp[2][(u >> 24) & 0x3f] ^
         kSp[1][v & 0x3f] ^ kSp[7][(v >> 8) & 0x3f] ^ kSp[5][(v >> 16) & 0x3f] ^ kSp[3][(v >> 24) & 0x3f];
}

// Delta swap: exchanges the bits selected by `mask` with the bits `shift` positions above them.
constexpr std::uint64_t delta_swap(std::uint64_t x, int shift, std::uint64_t mask) {
  const std::uint64_t t = ((x >> shift) ^ x) & mask;
  return x ^ t ^ (t << shift);
}

// IP as a network of five delta swaps; each is an involution, so IP^-1 applies them in reverse order.
// (Written out with literal shifts so that the compiler emits immediate-operand shifts.)
constexpr std::uint64_t ip(std::uint64_t x) {
  x = delta_swap(x, 3, 0x1111111111111111);
  x = delta_swap(x, 6, 0x0303030303030303);
  x = delta_swap(x, 9, 0x0055005500550055);
  x = delta_swap(x, 18, 0x0000333300003333);
  return delta_swap(x, 36, 0x000000000f0f0f0f);
}

constexpr std::uint64_t fp(std::uint64_t x) {
  x = delta_swap(x, 36, 0x000000000f0f0f0f);
  x = delta_swap(x, 18, 0x0000333300003333);
  x = delta_swap(x, 9, 0x0055005500550055);
  x = delta_swap(x, 6, 0x0303030303030303);
  return delta_swap(x, 3, 0x1111111111111111);
}

static_assert(ip(0x0123456789abcdef) == 0xcc00ccfff0aaf0aa, "IP of the FIPS 46-3 worked example");
static_assert(fp(ip(0x0123456789abcdef)) == 0x0123456789abcdef, "IP^-1 inverts IP");

inline std::uint32_t hi32(std::uint64_t x) {
  return static_cast<std::uint32_t>(x >> 32);
}
inline std::uint32_t lo32(std::uint64_t x) {
  return static_cast<std::uint32_t>(x);
}
inline std::uint64_t join(std::uint32_t hi, std::uint32_t lo) {
  return (std::uint64_t{hi} << 32) | lo;
}

}  // namespace

// --- round-level building blocks ---------------------------------------------------------------------------

std::uint64_t Des::initial_permutation(std::uint64_t block) {
  return ip(block);
}

std::uint64_t Des::final_permutation(std::uint64_t preoutput) {
  return fp(preoutput);
}

Des::RoundKey Des::pack(std::uint64_t subkey48) {
  // 6-bit chunk i (0-based) of K feeds S-box i.
  auto chunk = [subkey48](int i) { return static_cast<std::uint32_t>((subkey48 >> (42 - 6 * i)) & 0x3f); };
  return RoundKey{chunk(0) | (chunk(6) << 8) | (chunk(4) << 16) | (chunk(2) << 24),
                  chunk(1) | (chunk(7) << 8) | (chunk(5) << 16) | (chunk(3) << 24)};
}

std::uint32_t Des::feistel(std::uint32_t r, std::uint64_t subkey48) {
  const RoundKey k = pack(subkey48);
  return f_packed(r, k.even, k.odd);
}

std::uint64_t Des::pc1(std::uint64_t key) {
  return kPc1Perm(key);
}

std::uint32_t Des::rotate28(std::uint32_t half, int n) {
  half &= 0x0fffffffU;
  n %= 28;
  if (n < 0) n += 28;
  if (n == 0) return half;
  return ((half << n) | (half >> (28 - n))) & 0x0fffffffU;
}

std::uint64_t Des::pc2(std::uint32_t c, std::uint32_t d) {
  return kPc2Perm((std::uint64_t{c & 0x0fffffffU} << 28) | (d & 0x0fffffffU));
}

std::array<std::uint64_t, Des::kRounds> Des::key_schedule(std::uint64_t key) {
  const std::uint64_t cd = pc1(key);
  std::uint32_t c = static_cast<std::uint32_t>(cd >> 28);
  std::uint32_t d = static_cast<std::uint32_t>(cd & 0x0fffffffU);
  std::array<std::uint64_t, kRounds> subkeys{};
  for (std::size_t i = 0; i < subkeys.size(); ++i) {
    c = rotate28(c, kRotations[i]);
    d = rotate28(d, kRotations[i]);
    subkeys[i] = pc2(c, d);
  }
  return subkeys;
}

// --- Des
// -----------------------------------------------------------------------------------------------------

Des::Des(std::uint64_t key) {
  const auto subkeys = key_schedule(key);
  for (std::size_t i = 0; i < subkeys.size(); ++i) keys_[i] = pack(subkeys[i]);
}

void Des::encrypt_rounds(std::uint32_t& left, std::uint32_t& right) const {
  std::uint32_t l = left;
  std::uint32_t r = right;
  for (std::size_t i = 0; i < keys_.size(); i += 2) {
    l ^= f_packed(r, keys_[i].even, keys_[i].odd);
    r ^= f_packed(l, keys_[i + 1].even, keys_[i + 1].odd);
  }
  left = l;
  right = r;
}

void Des::decrypt_rounds(std::uint32_t& left, std::uint32_t& right) const {
  std::uint32_t l = left;
  std::uint32_t r = right;
  for (std::size_t i = keys_.size(); i != 0; i -= 2) {
    l ^= f_packed(r, keys_[i - 1].even, keys_[i - 1].odd);
    r ^= f_packed(l, keys_[i - 2].even, keys_[i - 2].odd);
  }
  left = l;
  right = r;
}

template <std::size_t N>
void Des::rounds(bool decrypting, std::uint32_t (&left)[N], std::uint32_t (&right)[N]) const {
  constexpr std::size_t kLast = kRounds - 1;
  for (std::size_t i = 0; i < keys_.size(); i += 2) {
    const RoundKey& a = keys_[decrypting ? kLast - i : i];
    const RoundKey& b = keys_[decrypting ? kLast - i - 1 : i + 1];
    for (std::size_t j = 0; j < N; ++j) left[j] ^= f_packed(right[j], a.even, a.odd);
    for (std::size_t j = 0; j < N; ++j) right[j] ^= f_packed(left[j], b.even, b.odd);
  }
}

namespace {
// `n` blocks through `stages` (the rounds on the halves after IP of a few blocks interleaved: eight, then four,
// then two at a time, so that their independent table lookups overlap), the one left over through `one`.
template <std::size_t kLanes, typename Stages>
std::size_t interleave(const std::uint64_t* in, std::uint64_t* out, std::size_t i, std::size_t n,
                       const Stages& stages) {
  for (; i + kLanes <= n; i += kLanes) {
    std::uint32_t l[kLanes], r[kLanes];
    for (std::size_t j = 0; j < kLanes; ++j) {
      const std::uint64_t x = ip(in[i + j]);
      l[j] = hi32(x);
      r[j] = lo32(x);
    }
    stages(l, r);
    for (std::size_t j = 0; j < kLanes; ++j) out[i + j] = fp(join(r[j], l[j]));  // preoutput R16 L16
  }
  return i;
}

template <typename Stages, typename One>
void interleaved(const std::uint64_t* in, std::uint64_t* out, std::size_t n, const Stages& stages,
                 const One& one) {
  std::size_t i = interleave<8>(in, out, 0, n, stages);
  i = interleave<4>(in, out, i, n, stages);
  i = interleave<2>(in, out, i, n, stages);
  for (; i < n; ++i) out[i] = one(in[i]);
}
}  // namespace

void Des::encrypt(const std::uint64_t* in, std::uint64_t* out, std::size_t n) const {
  interleaved(
      in, out, n, [this](auto& l, auto& r) { rounds(false, l, r); },
      [this](std::uint64_t b) { return encrypt(b); });
}

void Des::decrypt(const std::uint64_t* in, std::uint64_t* out, std::size_t n) const {
  interleaved(
      in, out, n, [this](auto& l, auto& r) { rounds(true, l, r); },
      [this](std::uint64_t b) { return decrypt(b); });
}

std::uint64_t Des::encrypt(std::uint64_t block) const {
  const std::uint64_t x = ip(block);
  std::uint32_t l = hi32(x);
  std::uint32_t r = lo32(x);
  encrypt_rounds(l, r);
  return fp(join(r, l));  // preoutput R16 L16
}

std::uint64_t Des::decrypt(std::uint64_t block) const {
  const std::uint64_t x = ip(block);
  std::uint32_t l = hi32(x);
  std::uint32_t r = lo32(x);
  decrypt_rounds(l, r);
  return fp(join(r, l));
}

void Des::encrypt(const std::uint8_t* in8, std::uint8_t* out8) const {
  store_be64(out8, encrypt(load_be64(in8)));
}

void Des::decrypt(const std::uint8_t* in8, std::uint8_t* out8) const {
  store_be64(out8, decrypt(load_be64(in8)));
}

// --- TripleDes
// ----------------------------------------------------------------------------------------------- Between two
// stages IP(IP^-1(x)) = x, so the permutations are applied only once and each stage starts from the swapped
// halves (R16, L16) of the previous one.

TripleDes::TripleDes(std::uint64_t k1, std::uint64_t k2, std::uint64_t k3) : d1_(k1), d2_(k2), d3_(k3) {}

std::uint64_t TripleDes::encrypt(std::uint64_t block) const {
  const std::uint64_t x = ip(block);
  std::uint32_t l = hi32(x);
  std::uint32_t r = lo32(x);
  d1_.encrypt_rounds(l, r);
  d2_.decrypt_rounds(r, l);
  d3_.encrypt_rounds(l, r);
  return fp(join(r, l));
}

std::uint64_t TripleDes::decrypt(std::uint64_t block) const {
  const std::uint64_t x = ip(block);
  std::uint32_t l = hi32(x);
  std::uint32_t r = lo32(x);
  d3_.decrypt_rounds(l, r);
  d2_.encrypt_rounds(r, l);
  d1_.decrypt_rounds(l, r);
  return fp(join(r, l));
}

void TripleDes::encrypt(const std::uint64_t* in, std::uint64_t* out, std::size_t n) const {
  interleaved(
      in, out, n,
      [this](auto& l, auto& r) {
        d1_.rounds(false, l, r);
        d2_.rounds(true, r, l);
        d3_.rounds(false, l, r);
      },
      [this](std::uint64_t b) { return encrypt(b); });
}

void TripleDes::decrypt(const std::uint64_t* in, std::uint64_t* out, std::size_t n) const {
  interleaved(
      in, out, n,
      [this](auto& l, auto& r) {
        d3_.rounds(true, l, r);
        d2_.rounds(false, r, l);
        d1_.rounds(true, l, r);
      },
      [this](std::uint64_t b) { return decrypt(b); });
}

void TripleDes::encrypt(const std::uint8_t* in8, std::uint8_t* out8) const {
  store_be64(out8, encrypt(load_be64(in8)));
}

void TripleDes::decrypt(const std::uint8_t* in8, std::uint8_t* out8) const {
  store_be64(out8, decrypt(load_be64(in8)));
}

}  // namespace rsoc::crypto
