// Benchmark: the ciphers the cores and the references compute, in nanoseconds per cipher block: AES-128 on
// the AES instructions (where the host has them) and on the tables, DES and 3DES. Every block's output feeds
// the next input, so the figures are latencies, as in the models one block at a time; the references and the
// cores' replays of many cipher blocks also run many independent blocks in one call (interleaved), a
// throughput. Asserts nothing.
//   build/tests/bench_ciphers [BLOCKS]   (default 2,000,000 per cipher)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "models/crypto/aes128.h"
#include "models/crypto/des.h"

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <typename Step>
void measure(const char* name, unsigned long long blocks, Step step) {
  const double start = now_s();
  const unsigned long long check = step(blocks);
  const double ns = (now_s() - start) / static_cast<double>(blocks) * 1e9;
  std::printf("%-28s %7.1f ns per block  (%llx)\n", name, ns, check & 0xffff);
}

}  // namespace

int main(int argc, char* argv[]) {
  using rsoc::crypto::Aes128;
  const unsigned long long blocks = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 2'000'000;
  if (blocks == 0) {
    std::fprintf(stderr, "bench_ciphers: BLOCKS must be a positive number\n");
    return 2;
  }
  Aes128::Key key{};
  for (unsigned i = 0; i < key.size(); ++i) key[i] = static_cast<std::uint8_t>(i * 17 + 3);
  std::printf("AES instructions on this host: %s\n", Aes128::host_has_aes_instructions() ? "yes" : "no");
  for (const auto impl : {Aes128::Implementation::kFastest, Aes128::Implementation::kTables}) {
    const Aes128 aes(key, impl);
    const char* name = aes.uses_aes_instructions() ? "AES-128, AES instructions" : "AES-128, tables";
    measure(name, blocks, [&](unsigned long long n) {
      std::uint8_t b[16] = {1};
      for (unsigned long long i = 0; i < n; ++i) aes.encrypt(b, b);
      unsigned long long x = 0;
      std::memcpy(&x, b, 8);
      return x;
    });
  }
  const rsoc::crypto::Des des(0x133457799BBCDFF1ull);
  measure("DES", blocks, [&](unsigned long long n) {
    std::uint64_t x = 1;
    for (unsigned long long i = 0; i < n; ++i) x = des.encrypt(x);
    return x;
  });
  const rsoc::crypto::TripleDes tdes(0x0123456789ABCDEFull, 0x23456789ABCDEF01ull, 0x456789ABCDEF0123ull);
  measure("3DES", blocks / 3, [&](unsigned long long n) {
    std::uint64_t x = 1;
    for (unsigned long long i = 0; i < n; ++i) x = tdes.encrypt(x);
    return x;
  });
  // The references' form: 4 KiB of blocks a call, independent (ECB), encrypted in place again and again.
  {
    const Aes128 aes(key);
    std::vector<std::uint8_t> bytes(4096);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i * 131);
    measure(aes.uses_aes_instructions() ? "AES-128, 256 blocks a call" : "AES-128 (tables), 256 blocks a call",
            std::max(256ull, blocks / 256 * 256), [&](unsigned long long n) {
              for (unsigned long long i = 0; i < n; i += 256) aes.encrypt(bytes.data(), bytes.data(), 256);
              unsigned long long x = 0;
              std::memcpy(&x, bytes.data(), 8);
              return x;
            });
  }
  std::vector<std::uint64_t> page(512);
  for (std::size_t i = 0; i < page.size(); ++i) page[i] = i * 0x9E3779B97F4A7C15ull;
  measure("DES, 512 blocks a call", std::max(512ull, blocks / 512 * 512), [&](unsigned long long n) {
    for (unsigned long long i = 0; i < n; i += 512) des.encrypt(page.data(), page.data(), 512);
    return page[0];
  });
  measure("3DES, 512 blocks a call", std::max(512ull, blocks / 3 / 512 * 512), [&](unsigned long long n) {
    for (unsigned long long i = 0; i < n; i += 512) tdes.encrypt(page.data(), page.data(), 512);
    return page[0];
  });
  return 0;
}
