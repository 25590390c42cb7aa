#pragma once
// SHA-256 digests (OpenSSL libcrypto) as lowercase hex: the provenance of scenarios and the checks that tie a
// sweep point's recorded outcome to the point and to its result files.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace rsoc::platform {

std::string sha256_hex(std::string_view text);
// The digest of the file's bytes, or nothing when it cannot be read.
std::optional<std::string> sha256_file(const std::filesystem::path& path);

}  // namespace rsoc::platform
