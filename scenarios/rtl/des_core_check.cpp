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
#include "verilated.h"
static Vdes_core* t;
static long cycles = 0;
static void edge() {
  t->clk = 0;
  t->eval();
  t->clk = 1;
  t->eval();
  ++cycles;
}
static void wr(unsigned a, unsigned v) {
  t->req_valid = 1;
  t->req_write = 1;
  t->req_addr = a;
  t->req_wdata = v;
  edge();
  t->req_valid = 0;
}
static unsigned rd(unsigned a) {
  t->req_valid = 1;
  t->req_write = 0;
  t->req_addr = a;
  edge();
  t->req_valid = 0;
  return t->resp_rdata;
}
static unsigned be(const unsigned char* p) {
  return p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}
int main() {
  VerilatedContext ctx;
  t = new Vdes_core(&ctx);
  t->rst = 1;
  edge();
  t->rst = 0;
  edge();
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
    for (int i = 0; i < 6; ++i) wr(0x40 + 4 * i, be(key + 4 * i));
    wr(0x28, enc | triple << 1);
    wr(0x20, 1);
    for (int i = 0; i < 2; ++i) wr(0x80 + 4 * i, be(in + 4 * i));
    wr(0x20, 2);
    const long c0 = cycles;
    while ((rd(0x24) & 3) != 3) {
    }
    const long next_c = cycles - c0;
    for (int i = 0; i < 2; ++i) {
      unsigned w = rd(0xc0 + 4 * i);
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
  delete t;
  return bad ? 1 : 0;
}
