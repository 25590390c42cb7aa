#pragma once
// The functionalities the runtime knows: their block sizes, key sizes and the core type that implements them.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/ip_core.h"

namespace rsoc::runtime {

enum class Functionality { kAes128, kDes, kTripleDes };

struct FunctionalityInfo {
  Functionality id;
  const char* name;
  unsigned block_bytes;
  unsigned key_bytes;
  models::CoreKind core;
};

const FunctionalityInfo& info(Functionality f);
std::optional<Functionality> functionality_from_name(const std::string& name);
std::vector<std::string> functionality_names();

// Reference encryption/decryption of whole blocks with the plain-C++ ciphers.
std::vector<std::uint8_t> reference_cipher(Functionality f, const std::vector<std::uint8_t>& key,
                                           const std::vector<std::uint8_t>& data, bool encrypt);

}  // namespace rsoc::runtime
