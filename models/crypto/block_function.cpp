#include "models/crypto/block_function.h"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>

#include "models/crypto/bytes.h"

namespace rsoc::crypto {

namespace {

void copy(const std::uint8_t*, std::size_t, const std::uint8_t* in, std::size_t in_bytes, std::uint8_t* out,
          std::size_t) {
  std::memcpy(out, in, in_bytes);
}

void xor_key(const std::uint8_t* key, std::size_t key_bytes, const std::uint8_t* in, std::size_t in_bytes,
             std::uint8_t* out, std::size_t) {
  for (std::size_t i = 0; i < in_bytes; ++i) out[i] = in[i] ^ key[i % key_bytes];
}

void crc32_block(const std::uint8_t*, std::size_t, const std::uint8_t* in, std::size_t in_bytes,
                 std::uint8_t* out, std::size_t) {
  store_be32(out, crc32(in, in_bytes));
}

void sha256(const std::uint8_t*, std::size_t, const std::uint8_t* in, std::size_t in_bytes, std::uint8_t* out,
            std::size_t) {
  unsigned length = 0;
  if (EVP_Digest(in, in_bytes, out, &length, EVP_sha256(), nullptr) != 1 || length != 32)
    throw std::runtime_error("OpenSSL SHA-256 failed");
}

void none(const std::uint8_t*, std::size_t, const std::uint8_t*, std::size_t, std::uint8_t* out,
          std::size_t out_bytes) {
  std::fill(out, out + out_bytes, std::uint8_t{0});
}

const std::vector<BlockFunction> kBlockFunctions = {
    {"copy", "the block itself (a loopback: output bytes = input bytes)", 0, false, true, copy},
    {"xor_key", "the block XOR the key, repeated over the block (output bytes = input bytes)", 0, true, true,
     xor_key},
    {"crc32", "the CRC-32 of the block (zlib's), 4 bytes big-endian", 4, false, true, crc32_block},
    {"sha256", "the SHA-256 digest of the block (FIPS 180-4, by OpenSSL), 32 bytes", 32, false, true, sha256},
    {"none", "timing only: the output is zeros and is not checked (any output size)", 0, false, false, none},
};

}  // namespace

const std::vector<BlockFunction>& block_functions() {
  return kBlockFunctions;
}

const BlockFunction* find_block_function(const std::string& name) {
  for (const BlockFunction& f : kBlockFunctions)
    if (name == f.name) return &f;
  return nullptr;
}

std::vector<std::string> block_function_names() {
  std::vector<std::string> out;
  for (const BlockFunction& f : kBlockFunctions) out.emplace_back(f.name);
  return out;
}

std::uint32_t crc32(const std::uint8_t* data, std::size_t bytes) {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = 0; i < bytes; ++i) c = table[(c ^ data[i]) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

}  // namespace rsoc::crypto
