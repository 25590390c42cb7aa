#include "platform/digest.h"

#include <openssl/evp.h>

#include <cstdio>
#include <memory>

namespace rsoc::platform {

namespace {

std::string hex(const unsigned char* md, unsigned n) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < n; ++i) {
    out += digits[md[i] >> 4];
    out += digits[md[i] & 15];
  }
  return out;
}

}  // namespace

std::string sha256_hex(std::string_view text) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(text.data(), text.size(), md, &n, EVP_sha256(), nullptr);
  return hex(md, n);
}

std::optional<std::string> sha256_file(const std::filesystem::path& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) return std::nullopt;
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) return std::nullopt;
  char buffer[65536];
  std::size_t count = 0;
  while ((count = std::fread(buffer, 1, sizeof buffer, file.get())) > 0)
    if (EVP_DigestUpdate(ctx.get(), buffer, count) != 1) return std::nullopt;
  if (std::ferror(file.get())) return std::nullopt;
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  if (EVP_DigestFinal_ex(ctx.get(), md, &n) != 1) return std::nullopt;
  return hex(md, n);
}

}  // namespace rsoc::platform
