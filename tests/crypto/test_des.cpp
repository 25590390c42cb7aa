// DES / Triple-DES known-answer tests (FIPS 46-3 worked example, SP 800-17 tables) and round-level checks.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "models/crypto/des.h"
#include "tests/crypto/crypto_test_support.h"

namespace rsoc::crypto {
namespace {

struct DesRow {
  std::string table;
  int index = 0;
  std::uint64_t key = 0;
  std::uint64_t plaintext = 0;
  std::uint64_t ciphertext = 0;
};

std::vector<DesRow> load_sp800_17() {
  const std::string path = test::data_file("des_sp800_17_tables.txt");
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<DesRow> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    DesRow r;
    std::string key, pt, ct;
    if (!(ls >> r.table >> r.index >> key >> pt >> ct)) throw std::runtime_error("malformed line: " + line);
    r.key = test::hex64(key);
    r.plaintext = test::hex64(pt);
    r.ciphertext = test::hex64(ct);
    rows.push_back(r);
  }
  return rows;
}

// Straightforward bit-by-bit permutation (FIPS 46-3 table notation) used as an independent reference.
std::uint64_t table_permute(std::uint64_t in, int in_bits, const std::vector<int>& table) {
  std::uint64_t out = 0;
  for (int t : table) out = (out << 1) | ((in >> (in_bits - t)) & 1U);
  return out;
}

const std::vector<int> kIpTable = {58, 50, 42, 34, 26, 18, 10, 2, 60, 52, 44, 36, 28, 20, 12, 4,
                                   62, 54, 46, 38, 30, 22, 14, 6, 64, 56, 48, 40, 32, 24, 16, 8,
                                   57, 49, 41, 33, 25, 17, 9,  1, 59, 51, 43, 35, 27, 19, 11, 3,
                                   61, 53, 45, 37, 29, 21, 13, 5, 63, 55, 47, 39, 31, 23, 15, 7};
const std::vector<int> kFpTable = {40, 8, 48, 16, 56, 24, 64, 32, 39, 7, 47, 15, 55, 23, 63, 31,
                                   38, 6, 46, 14, 54, 22, 62, 30, 37, 5, 45, 13, 53, 21, 61, 29,
                                   36, 4, 44, 12, 52, 20, 60, 28, 35, 3, 43, 11, 51, 19, 59, 27,
                                   34, 2, 42, 10, 50, 18, 58, 26, 33, 1, 41, 9,  49, 17, 57, 25};

using test::kExampleCipher;
using test::kExampleKey;
using test::kExamplePlain;

TEST(CryptoDes, ClassicExampleEncryptDecrypt) {
  const Des des(kExampleKey);
  EXPECT_EQ(des.encrypt(kExamplePlain), kExampleCipher);
  EXPECT_EQ(des.decrypt(kExampleCipher), kExamplePlain);
}

TEST(CryptoDes, ByteArrayFormsAreBigEndian) {
  const Des des(kExampleKey);
  std::uint8_t buf[8] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF};
  des.encrypt(buf, buf);
  const std::uint8_t expected[8] = {0x85, 0xE8, 0x13, 0x54, 0x0F, 0x0A, 0xB4, 0x05};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(buf[i], expected[i]) << "byte " << i;
  des.decrypt(buf, buf);
  EXPECT_EQ(buf[0], 0x01);
  EXPECT_EQ(buf[7], 0xEF);
}

// Intermediate values of the same example (key 133457799BBCDFF1, M = 0123456789ABCDEF) as worked through in
// the well-known step-by-step DES walkthrough.
TEST(CryptoDes, ClassicExampleIntermediateValues) {
  const std::uint64_t cd = Des::pc1(kExampleKey);
  EXPECT_EQ(cd >> 28, 0xF0CCAAFU);        // C0 = 1111000 0110011 0010101 0101111
  EXPECT_EQ(cd & 0xFFFFFFF, 0x556678FU);  // D0 = 0101010 1011001 1001111 0001111
  const auto k = Des::key_schedule(kExampleKey);
  EXPECT_EQ(k[0], 0x1B02EFFC7072U);   // K1 = 000110 110000 001011 101111 111111 000111 000001 110010
  EXPECT_EQ(k[15], 0xCB3D8B0E17F5U);  // K16 = 110010 110011 110110 001011 000011 100001 011111 110101
  const std::uint64_t ip = Des::initial_permutation(kExamplePlain);
  EXPECT_EQ(ip, 0xCC00CCFFF0AAF0AAU);
  EXPECT_EQ(Des::feistel(static_cast<std::uint32_t>(ip), k[0]), 0x234AA9BBU);  // f(R0, K1)
  // R1 = L0 xor f(R0, K1)
  EXPECT_EQ((ip >> 32) ^ 0x234AA9BBU, 0xEF4A6544U);
}

TEST(CryptoDes, Sp800_17TablesEncryptDecrypt) {
  const auto rows = load_sp800_17();
  ASSERT_EQ(rows.size(), 120U);
  int t1 = 0;
  int t2 = 0;
  for (const auto& r : rows) {
    (r.table == "T1" ? t1 : t2)++;
    const Des des(r.key);
    EXPECT_EQ(des.encrypt(r.plaintext), r.ciphertext) << r.table << " #" << r.index;
    EXPECT_EQ(des.decrypt(r.ciphertext), r.plaintext) << r.table << " #" << r.index;
  }
  EXPECT_EQ(t1, 64);
  EXPECT_EQ(t2, 56);
}

TEST(CryptoTripleDes, EqualKeysReproduceSp800_17Tables) {
  const auto rows = load_sp800_17();
  ASSERT_EQ(rows.size(), 120U);
  for (const auto& r : rows) {
    const TripleDes tdes(r.key, r.key, r.key);
    EXPECT_EQ(tdes.encrypt(r.plaintext), r.ciphertext) << r.table << " #" << r.index;
    EXPECT_EQ(tdes.decrypt(r.ciphertext), r.plaintext) << r.table << " #" << r.index;
  }
}

// NIST SP 800-67 Rev. 1 example: three keys, plaintext "The qufck brown fox jump".
TEST(CryptoTripleDes, Sp800_67Example) {
  const TripleDes tdes(0x0123456789ABCDEF, 0x23456789ABCDEF01, 0x456789ABCDEF0123);
  const std::uint64_t pt[3] = {0x5468652071756663, 0x6B2062726F776E20, 0x666F78206A756D70};
  const std::uint64_t ct[3] = {0xA826FD8CE53B855F, 0xCCE21C8112256FE6, 0x68D5C05DD9B6B900};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(tdes.encrypt(pt[i]), ct[i]) << "block " << i;
    EXPECT_EQ(tdes.decrypt(ct[i]), pt[i]) << "block " << i;
  }
}

TEST(CryptoTripleDes, IsEdeCompositionOfSingleDes) {
  std::mt19937_64 rng(0x3de5);
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t k1 = rng(), k2 = rng(), k3 = rng(), x = rng();
    const TripleDes tdes(k1, k2, k3);
    const std::uint64_t expected = Des(k3).encrypt(Des(k2).decrypt(Des(k1).encrypt(x)));
    ASSERT_EQ(tdes.encrypt(x), expected) << "iteration " << i;
    ASSERT_EQ(tdes.decrypt(expected), x) << "iteration " << i;
    ASSERT_EQ(tdes.decrypt(x), Des(k1).decrypt(Des(k2).encrypt(Des(k3).decrypt(x)))) << "iteration " << i;
  }
}

TEST(CryptoDes, PermutationsMatchFips46Tables) {
  std::mt19937_64 rng(46);
  for (int i = 0; i < 10000; ++i) {
    const std::uint64_t x = rng();
    ASSERT_EQ(Des::initial_permutation(x), table_permute(x, 64, kIpTable)) << std::hex << x;
    ASSERT_EQ(Des::final_permutation(x), table_permute(x, 64, kFpTable)) << std::hex << x;
  }
  // Single bits: IP moves bit 58 to position 1 and bit 7 to position 64.
  EXPECT_EQ(Des::initial_permutation(std::uint64_t{1} << (64 - 58)), std::uint64_t{1} << 63);
  EXPECT_EQ(Des::initial_permutation(std::uint64_t{1} << (64 - 7)), std::uint64_t{1});
}

TEST(CryptoDes, Rotate28) {
  EXPECT_EQ(Des::rotate28(0x8000001, 1), 0x0000003U);
  EXPECT_EQ(Des::rotate28(0xC000000, 2), 0x0000003U);
  EXPECT_EQ(Des::rotate28(0x1234567, 0), 0x1234567U);
  EXPECT_EQ(Des::rotate28(0x1234567, 28), 0x1234567U);
  EXPECT_EQ(Des::rotate28(0x0000003, -1), 0x8000001U);
  EXPECT_EQ(Des::rotate28(0xF0000001, 4), 0x0000010U);  // bits above the 28-bit half are dropped
  int total = 0;
  for (int r : Des::kRotations) total += r;
  EXPECT_EQ(total, 28);  // C16 = C0, D16 = D0
}

// The 16 rounds composed by hand from the building blocks give exactly Des::encrypt / Des::decrypt; this is
// how a datapath computing one round per step is modelled.
TEST(CryptoDes, RoundsByHandEqualEncrypt) {
  std::mt19937_64 rng(0xde5);
  for (int i = 0; i < 500; ++i) {
    const std::uint64_t key = i == 0 ? kExampleKey : rng();
    const std::uint64_t block = i == 0 ? kExamplePlain : rng();
    // Key schedule by hand.
    const std::uint64_t cd = Des::pc1(key);
    std::uint32_t c = static_cast<std::uint32_t>(cd >> 28);
    std::uint32_t d = static_cast<std::uint32_t>(cd & 0xFFFFFFF);
    std::array<std::uint64_t, 16> subkeys{};
    for (int r = 0; r < 16; ++r) {
      c = Des::rotate28(c, Des::kRotations[static_cast<std::size_t>(r)]);
      d = Des::rotate28(d, Des::kRotations[static_cast<std::size_t>(r)]);
      subkeys[static_cast<std::size_t>(r)] = Des::pc2(c, d);
      ASSERT_LT(subkeys[static_cast<std::size_t>(r)], std::uint64_t{1} << 48);
    }
    ASSERT_EQ(subkeys, Des::key_schedule(key));
    EXPECT_EQ(c, static_cast<std::uint32_t>(cd >> 28));  // a full turn of rotations

    // Encryption: L_i = R_{i-1}, R_i = L_{i-1} xor f(R_{i-1}, K_i); output IP^-1(R16 L16).
    auto run = [](std::uint64_t in, const std::array<std::uint64_t, 16>& ks, bool reverse) {
      const std::uint64_t x = Des::initial_permutation(in);
      std::uint32_t l = static_cast<std::uint32_t>(x >> 32);
      std::uint32_t r = static_cast<std::uint32_t>(x);
      for (int round = 0; round < 16; ++round) {
        const std::uint64_t k = ks[static_cast<std::size_t>(reverse ? 15 - round : round)];
        const std::uint32_t next_r = l ^ Des::feistel(r, k);
        l = r;
        r = next_r;
      }
      return Des::final_permutation((std::uint64_t{r} << 32) | l);
    };
    const Des des(key);
    const std::uint64_t ct = des.encrypt(block);
    ASSERT_EQ(run(block, subkeys, false), ct) << "iteration " << i;
    ASSERT_EQ(run(ct, subkeys, true), block) << "iteration " << i;
    ASSERT_EQ(des.decrypt(ct), block) << "iteration " << i;
  }
}

TEST(CryptoDes, ParityBitsAreIgnored) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200; ++i) {
    const std::uint64_t key = rng(), x = rng();
    EXPECT_EQ(Des(key).encrypt(x), Des(key ^ 0x0101010101010101).encrypt(x));
    EXPECT_NE(Des(key).encrypt(x), Des(key ^ 0x0202020202020202).encrypt(x));
  }
}

// FIPS 46-3 complementation property: E_{~K}(~P) = ~E_K(P).
TEST(CryptoDes, ComplementationProperty) {
  std::mt19937_64 rng(8);
  for (int i = 0; i < 200; ++i) {
    const std::uint64_t key = rng(), x = rng();
    EXPECT_EQ(Des(~key).encrypt(~x), ~Des(key).encrypt(x));
  }
}

TEST(CryptoDes, ManyBlocksAtOnceAreEachBlockAlone) {
  // Every count from none to 29 (groups of eight, four and two and the block left over), both directions, in
  // place and into another array; single DES and 3DES.
  std::mt19937_64 rng(46);
  const Des des(rng());
  const TripleDes tdes(rng(), rng(), rng());
  for (std::size_t n = 0; n <= 29; ++n) {
    std::vector<std::uint64_t> in(n);
    for (auto& b : in) b = rng();
    std::vector<std::uint64_t> out(n), in_place = in;
    des.encrypt(in.data(), out.data(), n);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(out[i], des.encrypt(in[i])) << n << " blocks, #" << i;
    des.decrypt(out.data(), out.data(), n);
    EXPECT_EQ(out, in) << n;
    tdes.encrypt(in_place.data(), in_place.data(), n);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(in_place[i], tdes.encrypt(in[i])) << n << " blocks, #" << i;
    std::vector<std::uint64_t> back(n);
    tdes.decrypt(in_place.data(), back.data(), n);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(back[i], tdes.decrypt(in_place[i]));
    EXPECT_EQ(back, in) << n;
  }
}

}  // namespace
}  // namespace rsoc::crypto
