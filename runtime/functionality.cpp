#include "runtime/functionality.h"

#include <array>
#include <stdexcept>

#include "models/crypto/aes128.h"
#include "models/crypto/des.h"

namespace rsoc::runtime {

namespace {
const std::array<FunctionalityInfo, 3> kInfo{{
    {Functionality::kAes128, "aes128", 16, 16, models::CoreKind::kAes128},
    {Functionality::kDes, "des", 8, 8, models::CoreKind::kDes},
    {Functionality::kTripleDes, "3des", 8, 24, models::CoreKind::kDes},
}};

std::uint64_t be64(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return v;
}

void store_be64(std::uint8_t* p, std::uint64_t v) {
  for (int i = 7; i >= 0; --i, v >>= 8) p[i] = static_cast<std::uint8_t>(v);
}

}  // namespace

const FunctionalityInfo& info(Functionality f) {
  return kInfo.at(static_cast<std::size_t>(f));
}

std::optional<Functionality> functionality_from_name(const std::string& name) {
  for (const auto& i : kInfo)
    if (name == i.name) return i.id;
  return std::nullopt;
}

std::vector<std::string> functionality_names() {
  std::vector<std::string> out;
  for (const auto& i : kInfo) out.emplace_back(i.name);
  return out;
}

std::vector<std::uint8_t> reference_cipher(Functionality f, const std::vector<std::uint8_t>& key,
                                           const std::vector<std::uint8_t>& data, bool encrypt) {
  const auto& fi = info(f);
  if (key.size() != fi.key_bytes || data.size() % fi.block_bytes != 0)
    throw std::invalid_argument("reference_cipher: bad key or data size");
  std::vector<std::uint8_t> out(data.size());
  auto each_block = [&](const auto& cipher) {
    for (std::size_t i = 0; i < data.size(); i += fi.block_bytes) {
      if (encrypt) {
        cipher.encrypt(&data[i], &out[i]);
      } else {
        cipher.decrypt(&data[i], &out[i]);
      }
    }
  };
  // DES and 3DES through their 64-bit interface (the byte-array one converts byte by byte).
  auto each_block64 = [&](const auto& cipher) {
    for (std::size_t i = 0; i < data.size(); i += 8) {
      const std::uint64_t in = be64(&data[i]);
      store_be64(&out[i], encrypt ? cipher.encrypt(in) : cipher.decrypt(in));
    }
  };
  switch (f) {
    case Functionality::kAes128: {
      crypto::Aes128::Key k{};
      std::copy(key.begin(), key.end(), k.begin());
      each_block(crypto::Aes128(k));
      break;
    }
    case Functionality::kDes:
      each_block64(crypto::Des(be64(key.data())));
      break;
    case Functionality::kTripleDes:
      each_block64(crypto::TripleDes(be64(key.data()), be64(key.data() + 8), be64(key.data() + 16)));
      break;
  }
  return out;
}

}  // namespace rsoc::runtime
