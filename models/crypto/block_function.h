#pragma once
// Block functions: what a custom core (models/custom_core.h) and its software implementation compute on one
// block, chosen by name in a scenario. Each has a reference implementation, so that outputs are verified like
// those of the cipher cores: the runtime compares every output with the function applied to the request's
// bytes. Plain C++ (SHA-256 by OpenSSL's libcrypto).
//
// The one list of functions is kBlockFunctions in block_function.cpp: adding a function is one entry there
// (its name, what it outputs, whether it takes a key, and its computation) and its test.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rsoc::crypto {

struct BlockFunction {
  const char* name;
  const char* doc;  // one line for the scenario documentation
  // Bytes of the output of one block: output_bytes; 0: as many as the block has (copy, xor_key) or, for a
  // function whose output is not checked, whatever the scenario says.
  unsigned output_bytes;
  bool keyed;    // takes a key of key_bytes > 0 bytes (xor_key); the others take none
  bool checked;  // outputs are verified (none: timing only, outputs not checked)
  // Computes one block of `in_bytes` into `out` (`out_bytes`, as output_bytes says) with `key`.
  void (*compute)(const std::uint8_t* key, std::size_t key_bytes, const std::uint8_t* in,
                  std::size_t in_bytes, std::uint8_t* out, std::size_t out_bytes);
};

const std::vector<BlockFunction>& block_functions();
// The function named `name`, or null.
const BlockFunction* find_block_function(const std::string& name);
std::vector<std::string> block_function_names();

// CRC-32 as zlib, PNG and Ethernet compute it (reflected polynomial 0xEDB88320, initial and final XOR
// 0xFFFFFFFF): crc32("123456789") = 0xCBF43926.
std::uint32_t crc32(const std::uint8_t* data, std::size_t bytes);

}  // namespace rsoc::crypto
