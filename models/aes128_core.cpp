// The AES-128 core (core kind "aes128").
// Registers (models/ip_core.h): KEY[0..3], BLOCK[0..3] -> RESULT[0..3], CONFIG.ENCRYPT chooses the direction.
// Timing contract: CTRL.INIT (key expansion) keeps the core busy for key_setup_cycles, CTRL.NEXT for
// block_cycles; a streamed block costs block_cycles (the common contract of models/ip_core.h). A PIO replay of
// many cipher blocks has them computed together (compute_many), the same results and cycles.
#include <array>
#include <memory>
#include <vector>

#include "models/core_kinds.h"
#include "models/crypto/aes128.h"
#include "models/ip_core.h"

namespace rsoc::models {

namespace {

using sc_core::sc_time;

// AES-128 (FIPS-197): KEY[0..3], BLOCK[0..3] -> RESULT[0..3]; CONFIG.ENCRYPT chooses the direction.
class AesCore : public IpCore {
 public:
  AesCore(std::string name, const CoreParams& params) : IpCore(std::move(name), params) {
    key_ = regs_.add({"KEY", reg::kKey, 4, RegAccess::kWriteOnly, 0});
    block_ = regs_.add({"BLOCK", reg::kBlock, 4, RegAccess::kReadWrite, 0});
    add_result_bank("RESULT", reg::kResult, 4);
  }
  unsigned block_words() const override { return 4; }

 protected:
  std::uint64_t on_init(const sc_time&) override {
    cipher_ = std::make_unique<crypto::Aes128>(key_bytes());
    return params().key_setup_cycles;
  }
  void on_reset() override { cipher_.reset(); }
  std::uint64_t compute(const std::uint32_t* in_words, std::uint32_t* out_words) override {
    if (!cipher_) cipher_ = std::make_unique<crypto::Aes128>(key_bytes());
    std::array<std::uint8_t, 16> in{}, out{};
    words_to_bytes(in_words, 4, in.data());
    if (regs_.at(config_) & reg::kConfigEncrypt) {
      cipher_->encrypt(in.data(), out.data());
    } else {
      cipher_->decrypt(in.data(), out.data());
    }
    bytes_to_words(out.data(), 4, out_words);
    return params().block_cycles;
  }
  bool compute_many(const std::uint32_t* in_words, std::uint32_t* out_words, std::size_t n,
                    std::uint64_t& cycles) override {
    if (!cipher_) cipher_ = std::make_unique<crypto::Aes128>(key_bytes());
    bytes_.resize(16 * n);
    words_to_bytes(in_words, 4 * n, bytes_.data());
    if (regs_.at(config_) & reg::kConfigEncrypt) {
      cipher_->encrypt(bytes_.data(), bytes_.data(), n);
    } else {
      cipher_->decrypt(bytes_.data(), bytes_.data(), n);
    }
    bytes_to_words(bytes_.data(), 4 * n, out_words);
    cycles = params().block_cycles;
    return true;
  }

 private:
  std::array<std::uint8_t, 16> key_bytes() const {
    std::array<std::uint8_t, 16> key{};
    words_to_bytes(regs_.bank(key_).data(), 4, key.data());
    return key;
  }
  RegisterFile::Id key_{};
  std::unique_ptr<crypto::Aes128> cipher_;
  std::vector<std::uint8_t> bytes_;  // compute_many()
};

}  // namespace

std::unique_ptr<IpCore> make_aes128_core(std::string name, const CoreParams& params) {
  return std::make_unique<AesCore>(std::move(name), params);
}

}  // namespace rsoc::models
