// A check of des_core.v on its own, before rsoc loads it: 400 random keys and blocks, DES and 3DES,
// encrypting and decrypting in turn, through the register port against OpenSSL's 3DES (EDE; single DES as EDE
// with K1 = K2 = K3, which needs no legacy provider); prints NEXT's cycles with its status polls. Exits 1 on
// a mismatch. From this folder (one command line):
//   verilator -Wall --cc des_core.v --exe "$PWD/des_core_check.cpp" -Mdir /tmp/des_rtl -LDFLAGS -lcrypto
//   --build /tmp/des_rtl/Vdes_core
#include <openssl/evp.h>

#include <cstdio>
#include <cstring>
#include <random>

#include "Vdes_core.h"
#include "register_port_harness.h"
#include "verilated.h"
static RegisterPortHarness<Vdes_core> port;
int main() {
  VerilatedContext ctx;
  port.m = new Vdes_core(&ctx);
  port.reset();
  std::mt19937 rng(1);
  int bad = 0;
  for (int trial = 0; trial < 400; ++trial) {
    unsigned char key[24], in[8], ref[8], out[8];
    for (auto& b : key) b = rng();
    for (auto& b : in) b = rng();
    const int enc = trial & 1, triple = (trial >> 1) & 1;
    if (!triple) std::memcpy(key + 8, key, 8), std::memcpy(key + 16, key, 8);
    EVP_CIPHER_CTX* c = EVP_CIPHER_CTX_new();
    EVP_CipherInit_ex(c, EVP_des_ede3_ecb(), nullptr, key, nullptr, enc);
    EVP_CIPHER_CTX_set_padding(c, 0);
    int n;
    EVP_CipherUpdate(c, ref, &n, in, 8);
    EVP_CIPHER_CTX_free(c);
    for (int i = 0; i < 6; ++i) port.write(0x40 + 4 * i, be32(key + 4 * i));
    port.write(0x28, enc | triple << 1);
    port.write(0x20, 1);
    for (int i = 0; i < 2; ++i) port.write(0x80 + 4 * i, be32(in + 4 * i));
    port.write(0x20, 2);
    const long c0 = port.cycles;
    while ((port.read(0x24) & 3) != 3) {
    }
    const long next_c = port.cycles - c0;
    for (int i = 0; i < 2; ++i) {
      unsigned w = port.read(0xc0 + 4 * i);
      out[4 * i] = w >> 24;
      out[4 * i + 1] = w >> 16;
      out[4 * i + 2] = w >> 8;
      out[4 * i + 3] = w;
    }
    if (std::memcmp(out, ref, 8)) {
      ++bad;
      if (bad < 4) std::printf("mismatch trial %d enc %d triple %d\n", trial, enc, triple);
    }
    if (trial < 4)
      std::printf("%s %s: next %ld cycles (with polls)\n", triple ? "3DES" : "DES", enc ? "enc" : "dec",
                  next_c);
  }
  std::printf("%d mismatches of 400\n", bad);
  delete port.m;
  return bad ? 1 : 0;
}
