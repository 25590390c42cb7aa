// The AES core (core kind "aes128", which also takes 256-bit keys as Cryptech's aes core does).
// Registers (models/ip_core.h): KEY[0..7], BLOCK[0..3] -> RESULT[0..3]; CONFIG.ENCRYPT chooses the direction,
// CONFIG.AES256 a 256-bit key in KEY[0..7] (clear: AES-128 with KEY[0..3]).
// Timing contract: CTRL.INIT (key expansion) keeps the core busy for key_setup_cycles, CTRL.NEXT for
// block_cycles; a streamed block costs block_cycles (the common contract of models/ip_core.h). Both are
// AES-128's: an iterative core takes a round at a time, so AES-256 (14 rounds, 15 round keys) takes
// ceil(block_cycles * 14 / 10) per block and ceil(key_setup_cycles * 15 / 11) per expansion. A PIO replay of
// many cipher blocks has them computed together (compute_many), the same results and cycles.
#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "models/core_kinds.h"
#include "models/crypto/aes128.h"
#include "models/ip_core.h"

namespace rsoc::models {

namespace {

using sc_core::sc_time;

// AES-128 or AES-256 (FIPS-197): KEY[0..7], BLOCK[0..3] -> RESULT[0..3].
class AesCore : public IpCore {
 public:
  AesCore(std::string name, const CoreParams& params) : IpCore(std::move(name), params) {
    key_ = regs_.add({"KEY", reg::kKey, 8, RegAccess::kWriteOnly, 0});
    block_ = regs_.add({"BLOCK", reg::kBlock, 4, RegAccess::kReadWrite, 0});
    add_result_bank("RESULT", reg::kResult, 4);
  }
  unsigned block_words() const override { return 4; }

 protected:
  std::uint64_t on_init(const sc_time&) override {
    expand();
    return wide_key() ? (params().key_setup_cycles * 15 + 10) / 11 : params().key_setup_cycles;
  }
  void on_reset() override {
    aes128_.reset();
    aes256_.reset();
  }
  std::uint64_t compute(const std::uint32_t* in_words, std::uint32_t* out_words) override {
    std::uint64_t cycles = 0;
    compute_many(in_words, out_words, 1, cycles);
    return cycles;
  }
  bool compute_many(const std::uint32_t* in_words, std::uint32_t* out_words, std::size_t n,
                    std::uint64_t& cycles) override {
    if (!aes128_ && !aes256_) expand();
    bytes_.resize(16 * n);
    words_to_bytes(in_words, 4 * n, bytes_.data());
    const bool encrypt = regs_.at(config_) & reg::kConfigEncrypt;
    std::uint8_t* data = bytes_.data();
    if (aes256_) {
      encrypt ? aes256_->encrypt(data, data, n) : aes256_->decrypt(data, data, n);
    } else {
      encrypt ? aes128_->encrypt(data, data, n) : aes128_->decrypt(data, data, n);
    }
    bytes_to_words(bytes_.data(), 4 * n, out_words);
    cycles = aes256_ ? (params().block_cycles * 14 + 9) / 10 : params().block_cycles;
    return true;
  }

 private:
  bool wide_key() const { return regs_.at(config_) & reg::kConfigAes256; }
  // The key schedule of KEY under CONFIG's key length (CTRL.INIT, or the first block after a reset).
  void expand() {
    aes128_.reset();
    aes256_.reset();
    if (wide_key()) {
      crypto::Aes256::Key key{};
      words_to_bytes(regs_.bank(key_).data(), 8, key.data());
      aes256_ = std::make_unique<crypto::Aes256>(key);
    } else {
      crypto::Aes128::Key key{};
      words_to_bytes(regs_.bank(key_).data(), 4, key.data());
      aes128_ = std::make_unique<crypto::Aes128>(key);
    }
  }
  RegisterFile::Id key_{};
  std::unique_ptr<crypto::Aes128> aes128_;
  std::unique_ptr<crypto::Aes256> aes256_;
  std::vector<std::uint8_t> bytes_;  // compute_many()
};

std::unique_ptr<IpCore> make_aes128_core(std::string name, const CoreParams& params) {
  return std::make_unique<AesCore>(std::move(name), params);
}

Bytes aes_reference(const FunctionalityInfo&, const Bytes& key, const Bytes& data, bool encrypt) {
  crypto::Aes128::Key k{};
  std::copy(key.begin(), key.end(), k.begin());
  const crypto::Aes128 aes(k);
  Bytes out(data.size());
  const std::size_t n = data.size() / crypto::Aes128::kBlockBytes;  // all in one call (interleaved)
  encrypt ? aes.encrypt(data.data(), out.data(), n) : aes.decrypt(data.data(), out.data(), n);
  return out;
}

}  // namespace

const CoreKindEntry kAes128Kind = {
    CoreKind::kAes128,
    "aes128",
    "AES-128 (FIPS-197), both directions; AES-256 with CONFIG.AES256 set",
    make_aes128_core,
    {{0, "aes128", 16, 16, CoreKind::kAes128, 0, false}},
    [](const FunctionalityInfo& f, bool encrypt, const Bytes&) {
      return cipher_interface(f, encrypt ? reg::kConfigEncrypt : 0u);
    },
    [](const FunctionalityInfo&, const CoreParams& params) { return std::uint64_t{params.block_cycles}; },
    aes_reference,
};

}  // namespace rsoc::models
