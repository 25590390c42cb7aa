// AES-128 and AES-256 (FIPS-197): compile-time generated T-tables, key expansion once per key.
#include "models/crypto/aes128.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define RSOC_AES_NI 1
#else
#define RSOC_AES_NI 0
#endif

namespace rsoc::crypto {
namespace {

using Table = std::array<std::uint32_t, 256>;

// --- GF(2^8) arithmetic with the FIPS-197 reduction polynomial x^8 + x^4 + x^3 + x + 1 --------------------
constexpr std::uint8_t xtime(std::uint8_t x) {
  return static_cast<std::uint8_t>((x << 1) ^ ((x & 0x80) != 0 ? 0x1b : 0x00));
}

constexpr std::uint8_t gmul(std::uint8_t a, std::uint8_t b) {
  std::uint8_t p = 0;
  while (b != 0) {
    if ((b & 1) != 0) p ^= a;
    a = xtime(a);
    b = static_cast<std::uint8_t>(b >> 1);
  }
  return p;
}

// Multiplicative inverse as x^254 (maps 0 to 0, as FIPS-197 section 5.1.1 requires).
constexpr std::uint8_t ginv(std::uint8_t x) {
  std::uint8_t result = 1;
  std::uint8_t base = x;
  for (int e = 254; e != 0; e >>= 1) {
    if ((e & 1) != 0) result = gmul(result, base);
    base = gmul(base, base);
  }
  return result;
}

constexpr std::uint8_t rotl8(std::uint8_t x, int n) {
  return static_cast<std::uint8_t>((x << n) | (x >> (8 - n)));
}

constexpr std::uint32_t rotr32(std::uint32_t x, int n) {
  return (x >> n) | (x << (32 - n));
}

constexpr std::uint32_t word(std::uint8_t b0, std::uint8_t b1, std::uint8_t b2, std::uint8_t b3) {
  return (std::uint32_t{b0} << 24) | (std::uint32_t{b1} << 16) | (std::uint32_t{b2} << 8) | std::uint32_t{b3};
}

struct Tables {
  std::array<std::uint8_t, 256> s{};
  std::array<std::uint8_t, 256> inv_s{};
  std::array<Table, 4> te{};  // te[k][x] = rotr(S[x] * (02,01,01,03), 8k): SubBytes+MixColumns column k
  std::array<Table, 4> td{};  // td[k][x] = rotr(S^-1[x] * (0e,09,0d,0b), 8k)
};

constexpr Tables make_tables() {
  Tables t;
  for (int i = 0; i < 256; ++i) {
    const std::uint8_t b = ginv(static_cast<std::uint8_t>(i));
    // Affine transformation, FIPS-197 equation (5.1).
    const std::uint8_t s =
        static_cast<std::uint8_t>(b ^ rotl8(b, 1) ^ rotl8(b, 2) ^ rotl8(b, 3) ^ rotl8(b, 4) ^ 0x63);
    t.s[static_cast<std::size_t>(i)] = s;
    t.inv_s[s] = static_cast<std::uint8_t>(i);
  }
  for (std::size_t i = 0; i < 256; ++i) {
    const std::uint8_t s = t.s[i];
    const std::uint8_t is = t.inv_s[i];
    const std::uint32_t e = word(gmul(s, 2), s, s, gmul(s, 3));
    const std::uint32_t d = word(gmul(is, 0x0e), gmul(is, 0x09), gmul(is, 0x0d), gmul(is, 0x0b));
    for (int k = 0; k < 4; ++k) {
      t.te[static_cast<std::size_t>(k)][i] = k == 0 ? e : rotr32(e, 8 * k);
      t.td[static_cast<std::size_t>(k)][i] = k == 0 ? d : rotr32(d, 8 * k);
    }
  }
  return t;
}

constexpr Tables kTables = make_tables();
constexpr const auto& kS = kTables.s;
constexpr const auto& kInvS = kTables.inv_s;
constexpr const Table& kTe0 = kTables.te[0];
constexpr const Table& kTe1 = kTables.te[1];
constexpr const Table& kTe2 = kTables.te[2];
constexpr const Table& kTe3 = kTables.te[3];
constexpr const Table& kTd0 = kTables.td[0];
constexpr const Table& kTd1 = kTables.td[1];
constexpr const Table& kTd2 = kTables.td[2];
constexpr const Table& kTd3 = kTables.td[3];

static_assert(kS[0x00] == 0x63 && kS[0x53] == 0xed && kS[0xff] == 0x16, "FIPS-197 Figure 7");
static_assert(kInvS[0x63] == 0x00 && kInvS[0xed] == 0x53, "FIPS-197 Figure 14");

inline std::uint32_t load_be32(const std::uint8_t* p) {
  return word(p[0], p[1], p[2], p[3]);
}

inline void store_be32(std::uint8_t* p, std::uint32_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 24);
  p[1] = static_cast<std::uint8_t>(v >> 16);
  p[2] = static_cast<std::uint8_t>(v >> 8);
  p[3] = static_cast<std::uint8_t>(v);
}

inline std::size_t b0(std::uint32_t x) {
  return x >> 24;
}
inline std::size_t b1(std::uint32_t x) {
  return (x >> 16) & 0xff;
}
inline std::size_t b2(std::uint32_t x) {
  return (x >> 8) & 0xff;
}
inline std::size_t b3(std::uint32_t x) {
  return x & 0xff;
}

// SubWord(w) (FIPS-197 section 5.2).
inline std::uint32_t sub_word(std::uint32_t w) {
  return word(kS[b0(w)], kS[b1(w)], kS[b2(w)], kS[b3(w)]);
}

}  // namespace

#if RSOC_AES_NI
namespace {
// AESENC/AESDEC apply one round (FIPS-197's, and the equivalent inverse cipher's) to the state in memory byte
// order; the round keys are the schedules' words stored big-endian.
template <int kRounds>
__attribute__((target("aes,sse2"))) void encrypt_ni(const std::uint8_t* keys, const std::uint8_t* in,
                                                    std::uint8_t* out) {
  const auto* k = reinterpret_cast<const __m128i*>(keys);
  __m128i s = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in)), _mm_load_si128(k));
  for (int r = 1; r < kRounds; ++r) s = _mm_aesenc_si128(s, _mm_load_si128(k + r));
  s = _mm_aesenclast_si128(s, _mm_load_si128(k + kRounds));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), s);
}
template <int kRounds>
__attribute__((target("aes,sse2"))) void decrypt_ni(const std::uint8_t* keys, const std::uint8_t* in,
                                                    std::uint8_t* out) {
  const auto* k = reinterpret_cast<const __m128i*>(keys);
  __m128i s = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in)), _mm_load_si128(k));
  for (int r = 1; r < kRounds; ++r) s = _mm_aesdec_si128(s, _mm_load_si128(k + r));
  s = _mm_aesdeclast_si128(s, _mm_load_si128(k + kRounds));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), s);
}
// One round, and the last, of encryption or of the equivalent inverse cipher.
template <bool kDecrypt>
__attribute__((target("aes,sse2"))) inline __m128i round_ni(__m128i s, __m128i key) {
  return kDecrypt ? _mm_aesdec_si128(s, key) : _mm_aesenc_si128(s, key);
}
template <bool kDecrypt>
__attribute__((target("aes,sse2"))) inline __m128i last_round_ni(__m128i s, __m128i key) {
  return kDecrypt ? _mm_aesdeclast_si128(s, key) : _mm_aesenclast_si128(s, key);
}
// `n` blocks, four at a time with their rounds interleaved, then one by one.
template <bool kDecrypt, int kRounds>
__attribute__((target("aes,sse2"))) void many_ni(const std::uint8_t* keys, const std::uint8_t* in,
                                                 std::uint8_t* out, std::size_t n) {
  const auto* k = reinterpret_cast<const __m128i*>(keys);
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const auto* src = reinterpret_cast<const __m128i*>(in + 16 * i);
    __m128i s[4];
    for (int j = 0; j < 4; ++j) s[j] = _mm_xor_si128(_mm_loadu_si128(src + j), _mm_load_si128(k));
    for (int r = 1; r < kRounds; ++r) {
      const __m128i key = _mm_load_si128(k + r);
      for (int j = 0; j < 4; ++j) s[j] = round_ni<kDecrypt>(s[j], key);
    }
    const __m128i key = _mm_load_si128(k + kRounds);
    auto* dst = reinterpret_cast<__m128i*>(out + 16 * i);
    for (int j = 0; j < 4; ++j) _mm_storeu_si128(dst + j, last_round_ni<kDecrypt>(s[j], key));
  }
  for (; i < n; ++i) {
    const auto* src = reinterpret_cast<const __m128i*>(in + 16 * i);
    __m128i s = _mm_xor_si128(_mm_loadu_si128(src), _mm_load_si128(k));
    for (int r = 1; r < kRounds; ++r) s = round_ni<kDecrypt>(s, _mm_load_si128(k + r));
    s = last_round_ni<kDecrypt>(s, _mm_load_si128(k + kRounds));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 16 * i), s);
  }
}
bool cpu_has_aes() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  return __get_cpuid(1, &a, &b, &c, &d) != 0 && (c & bit_AES) != 0 && (d & bit_SSE2) != 0;
}
}  // namespace
#endif

template <int kKeyWords>
bool AesCipher<kKeyWords>::host_has_aes_instructions() {
#if RSOC_AES_NI
  static const bool has = cpu_has_aes();
  return has;
#else
  return false;
#endif
}

template <int kKeyWords>
AesCipher<kKeyWords>::AesCipher(const Key& key, Implementation implementation) {
  // Key expansion, FIPS-197 Figure 11 (Nk = 4 or 8).
  constexpr std::size_t nk = kKeyWords;
  for (std::size_t i = 0; i < nk; ++i) enc_[i] = load_be32(&key[4 * i]);
  std::uint8_t rcon = 0x01;
  for (std::size_t i = nk; i < enc_.size(); ++i) {
    std::uint32_t temp = enc_[i - 1];
    if (i % nk == 0) {
      temp = sub_word((temp << 8) | (temp >> 24)) ^ (std::uint32_t{rcon} << 24);
      rcon = xtime(rcon);
    } else if (nk > 6 && i % nk == 4) {
      temp = sub_word(temp);
    }
    enc_[i] = enc_[i - nk] ^ temp;
  }
  // Equivalent inverse cipher (FIPS-197 section 5.3.5): round keys in reverse order, InvMixColumns applied to
  // rounds 1..Nr-1. Td*[S[x]] is InvMixColumns of a single byte because Td* already includes InvSubBytes.
  for (std::size_t r = 0; r <= kRounds; ++r) {
    for (std::size_t c = 0; c < 4; ++c) {
      const std::uint32_t w = enc_[4 * (kRounds - r) + c];
      dec_[4 * r + c] = (r == 0 || r == kRounds)
                            ? w
                            : kTd0[kS[b0(w)]] ^ kTd1[kS[b1(w)]] ^ kTd2[kS[b2(w)]] ^ kTd3[kS[b3(w)]];
    }
  }
  for (std::size_t i = 0; i < enc_.size(); ++i) {
    store_be32(&enc_bytes_[4 * i], enc_[i]);
    store_be32(&dec_bytes_[4 * i], dec_[i]);
  }
  use_ni_ = implementation == Implementation::kFastest && host_has_aes_instructions();
}

template <int kKeyWords>
void AesCipher<kKeyWords>::encrypt(const std::uint8_t* in, std::uint8_t* out) const {
#if RSOC_AES_NI
  if (use_ni_) return encrypt_ni<kRounds>(enc_bytes_.data(), in, out);
#endif
  const std::uint32_t* rk = enc_.data();
  std::uint32_t s0 = load_be32(in) ^ rk[0];
  std::uint32_t s1 = load_be32(in + 4) ^ rk[1];
  std::uint32_t s2 = load_be32(in + 8) ^ rk[2];
  std::uint32_t s3 = load_be32(in + 12) ^ rk[3];
  for (int r = 1; r < kRounds; ++r) {
    rk += 4;
    const std::uint32_t t0 = kTe0[b0(s0)] ^ kTe1[b1(s1)] ^ kTe2[b2(s2)] ^ kTe3[b3(s3)] ^ rk[0];
    const std::uint32_t t1 = kTe0[b0(s1)] ^ kTe1[b1(s2)] ^ kTe2[b2(s3)] ^ kTe3[b3(s0)] ^ rk[1];
    const std::uint32_t t2 = kTe0[b0(s2)] ^ kTe1[b1(s3)] ^ kTe2[b2(s0)] ^ kTe3[b3(s1)] ^ rk[2];
    const std::uint32_t t3 = kTe0[b0(s3)] ^ kTe1[b1(s0)] ^ kTe2[b2(s1)] ^ kTe3[b3(s2)] ^ rk[3];
    s0 = t0;
    s1 = t1;
    s2 = t2;
    s3 = t3;
  }
  rk += 4;  // last round: SubBytes, ShiftRows, AddRoundKey (no MixColumns)
  store_be32(out, word(kS[b0(s0)], kS[b1(s1)], kS[b2(s2)], kS[b3(s3)]) ^ rk[0]);
  store_be32(out + 4, word(kS[b0(s1)], kS[b1(s2)], kS[b2(s3)], kS[b3(s0)]) ^ rk[1]);
  store_be32(out + 8, word(kS[b0(s2)], kS[b1(s3)], kS[b2(s0)], kS[b3(s1)]) ^ rk[2]);
  store_be32(out + 12, word(kS[b0(s3)], kS[b1(s0)], kS[b2(s1)], kS[b3(s2)]) ^ rk[3]);
}

template <int kKeyWords>
void AesCipher<kKeyWords>::decrypt(const std::uint8_t* in, std::uint8_t* out) const {
#if RSOC_AES_NI
  if (use_ni_) return decrypt_ni<kRounds>(dec_bytes_.data(), in, out);
#endif
  const std::uint32_t* rk = dec_.data();
  std::uint32_t s0 = load_be32(in) ^ rk[0];
  std::uint32_t s1 = load_be32(in + 4) ^ rk[1];
  std::uint32_t s2 = load_be32(in + 8) ^ rk[2];
  std::uint32_t s3 = load_be32(in + 12) ^ rk[3];
  for (int r = 1; r < kRounds; ++r) {
    rk += 4;
    const std::uint32_t t0 = kTd0[b0(s0)] ^ kTd1[b1(s3)] ^ kTd2[b2(s2)] ^ kTd3[b3(s1)] ^ rk[0];
    const std::uint32_t t1 = kTd0[b0(s1)] ^ kTd1[b1(s0)] ^ kTd2[b2(s3)] ^ kTd3[b3(s2)] ^ rk[1];
    const std::uint32_t t2 = kTd0[b0(s2)] ^ kTd1[b1(s1)] ^ kTd2[b2(s0)] ^ kTd3[b3(s3)] ^ rk[2];
    const std::uint32_t t3 = kTd0[b0(s3)] ^ kTd1[b1(s2)] ^ kTd2[b2(s1)] ^ kTd3[b3(s0)] ^ rk[3];
    s0 = t0;
    s1 = t1;
    s2 = t2;
    s3 = t3;
  }
  rk += 4;  // last round: InvShiftRows, InvSubBytes, AddRoundKey
  store_be32(out, word(kInvS[b0(s0)], kInvS[b1(s3)], kInvS[b2(s2)], kInvS[b3(s1)]) ^ rk[0]);
  store_be32(out + 4, word(kInvS[b0(s1)], kInvS[b1(s0)], kInvS[b2(s3)], kInvS[b3(s2)]) ^ rk[1]);
  store_be32(out + 8, word(kInvS[b0(s2)], kInvS[b1(s1)], kInvS[b2(s0)], kInvS[b3(s3)]) ^ rk[2]);
  store_be32(out + 12, word(kInvS[b0(s3)], kInvS[b1(s2)], kInvS[b2(s1)], kInvS[b3(s0)]) ^ rk[3]);
}

template <int kKeyWords>
void AesCipher<kKeyWords>::encrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t n) const {
#if RSOC_AES_NI
  if (use_ni_) return many_ni<false, kRounds>(enc_bytes_.data(), in, out, n);
#endif
  for (std::size_t i = 0; i < n; ++i) encrypt(in + kBlockBytes * i, out + kBlockBytes * i);
}

template <int kKeyWords>
void AesCipher<kKeyWords>::decrypt(const std::uint8_t* in, std::uint8_t* out, std::size_t n) const {
#if RSOC_AES_NI
  if (use_ni_) return many_ni<true, kRounds>(dec_bytes_.data(), in, out, n);
#endif
  for (std::size_t i = 0; i < n; ++i) decrypt(in + kBlockBytes * i, out + kBlockBytes * i);
}

template <int kKeyWords>
typename AesCipher<kKeyWords>::Block AesCipher<kKeyWords>::encrypt(const Block& in) const {
  Block out;
  encrypt(in.data(), out.data());
  return out;
}

template <int kKeyWords>
typename AesCipher<kKeyWords>::Block AesCipher<kKeyWords>::decrypt(const Block& in) const {
  Block out;
  decrypt(in.data(), out.data());
  return out;
}

template <int kKeyWords>
std::uint8_t AesCipher<kKeyWords>::sbox(std::uint8_t x) {
  return kS[x];
}
template <int kKeyWords>
std::uint8_t AesCipher<kKeyWords>::inv_sbox(std::uint8_t x) {
  return kInvS[x];
}

template class AesCipher<4>;
template class AesCipher<8>;

}  // namespace rsoc::crypto
