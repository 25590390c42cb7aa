#pragma once
// OpenSSL libcrypto as the independent DES / 3DES reference of the desrnd verification (`rsoc verify des` and
// tests/crypto). Header-only so that both the command line and the tests use this very code; whoever includes
// it links OpenSSL::Crypto.
//
// It uses the low-level DES_* API. In OpenSSL 3 single DES through EVP needs the legacy provider, which a
// user's installation may not ship or may not allow; the low-level functions work without any provider and
// are also much cheaper to re-key for every pair (millions of pairs). They are deprecated since 3.0, so the
// deprecation warning is silenced here, around these calls only.

#include <openssl/des.h>

#include <cstdint>
#include <string>

#include "models/crypto/desrnd_verify.h"

namespace rsoc::tools {

class OpenSslDesReference : public rsoc::crypto::DesReference {
 public:
  std::string name() const override { return "OpenSSL libcrypto DES_ecb_encrypt / DES_ecb3_encrypt"; }

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  std::uint64_t des(bool encrypt, std::uint64_t key, std::uint64_t block) override {
    DES_key_schedule ks;
    schedule(key, ks);
    DES_cblock in, out;
    to_bytes(block, in);
    DES_ecb_encrypt(&in, &out, &ks, encrypt ? DES_ENCRYPT : DES_DECRYPT);
    return from_bytes(out);
  }

  std::uint64_t triple_des(bool encrypt, std::uint64_t k1, std::uint64_t k2, std::uint64_t k3,
                           std::uint64_t block) override {
    DES_key_schedule ks1, ks2, ks3;
    schedule(k1, ks1);
    schedule(k2, ks2);
    schedule(k3, ks3);
    DES_cblock in, out;
    to_bytes(block, in);
    // Encryption is E_k3(D_k2(E_k1(x))), decryption D_k1(E_k2(D_k3(x))), as TripleDes.
    DES_ecb3_encrypt(&in, &out, &ks1, &ks2, &ks3, encrypt ? DES_ENCRYPT : DES_DECRYPT);
    return from_bytes(out);
  }

 private:
  // Parity bits are ignored (FIPS 46-3), hence the unchecked key setup.
  static void schedule(std::uint64_t key, DES_key_schedule& ks) {
    DES_cblock k;
    to_bytes(key, k);
    DES_set_key_unchecked(&k, &ks);
  }
#pragma GCC diagnostic pop

  static void to_bytes(std::uint64_t v, DES_cblock& b) {
    for (int i = 7; i >= 0; --i, v >>= 8) b[i] = static_cast<unsigned char>(v);
  }
  static std::uint64_t from_bytes(const DES_cblock& b) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | b[i];
    return v;
  }
};

}  // namespace rsoc::tools
