// A check of aes128_core.v on its own, before rsoc loads it: 200 random keys and blocks, encrypting and
// decrypting in turn, through the register port against OpenSSL's AES-128; prints the cycles of INIT and of
// NEXT with their status polls (a read takes two edges: the request, then the response). Exits 1 on a
// mismatch.
// From this folder (one command line):
//   verilator -Wall --cc aes128_core.v --exe "$PWD/aes128_core_check.cpp" -Mdir /tmp/aes_rtl -LDFLAGS -lcrypto --build
//   /tmp/aes_rtl/Vaes128_core
#include <openssl/evp.h>

#include <cstdio>
#include <cstring>
#include <random>

#include "Vaes128_core.h"
#include "register_port_harness.h"
#include "verilated.h"
static RegisterPortHarness<Vaes128_core> port;
int main() {
  VerilatedContext ctx;
  port.m = new Vaes128_core(&ctx);
  port.reset();
  std::mt19937 rng(1);
  int bad = 0;
  for (int trial = 0; trial < 200; ++trial) {
    unsigned char key[16], in[16], ref[16], out[16];
    for (auto& b : key) b = rng();
    for (auto& b : in) b = rng();
    const int enc = trial & 1;
    EVP_CIPHER_CTX* c = EVP_CIPHER_CTX_new();
    EVP_CipherInit_ex(c, EVP_aes_128_ecb(), nullptr, key, nullptr, enc);
    EVP_CIPHER_CTX_set_padding(c, 0);
    int n;
    EVP_CipherUpdate(c, ref, &n, in, 16);
    EVP_CIPHER_CTX_free(c);
    for (int i = 0; i < 4; ++i) port.write(0x40 + 4 * i, be32(key + 4 * i));
    port.write(0x28, enc);
    port.write(0x20, 1);
    long c0 = port.cycles;
    int polls = 0;
    while (!(port.read(0x24) & 1)) ++polls;
    long init_c = port.cycles - c0;
    for (int i = 0; i < 4; ++i) port.write(0x80 + 4 * i, be32(in + 4 * i));
    port.write(0x20, 2);
    c0 = port.cycles;
    while ((port.read(0x24) & 3) != 3) ++polls;
    long next_c = port.cycles - c0;
    for (int i = 0; i < 4; ++i) {
      unsigned w = port.read(0xc0 + 4 * i);
      out[4 * i] = w >> 24;
      out[4 * i + 1] = w >> 16;
      out[4 * i + 2] = w >> 8;
      out[4 * i + 3] = w;
    }
    if (memcmp(out, ref, 16)) {
      ++bad;
      if (bad < 4) std::printf("mismatch trial %d enc %d\n", trial, enc);
    }
    if (trial < 2) std::printf("init %ld cycles, next %ld cycles (with polls)\n", init_c, next_c);
  }
  std::printf("%d mismatches of 200\n", bad);
  delete port.m;
  return bad ? 1 : 0;
}
