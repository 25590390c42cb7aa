// The DES / 3DES core (core kind "des").
// Registers (models/ip_core.h): KEY[0..1] = K1, KEY[2..3] = K2, KEY[4..5] = K3; BLOCK[0..1] -> RESULT[0..1];
// CONFIG.ENCRYPT chooses the direction, CONFIG.TRIPLE selects 3DES EDE.
// Timing contract: CTRL.INIT keeps the core busy for key_setup_cycles, CTRL.NEXT for block_cycles per DES
// pass (three passes for 3DES); a streamed block costs the same.
#include <array>
#include <memory>

#include "models/core_kinds.h"
#include "models/crypto/des.h"
#include "models/ip_core.h"

namespace rsoc::models {

namespace {

using sc_core::sc_time;

std::uint64_t u64_of(const std::uint32_t* words, std::size_t i) {
  return (static_cast<std::uint64_t>(words[i]) << 32) | words[i + 1];
}

// DES / 3DES (FIPS 46-3): KEY[0..1] = K1, KEY[2..3] = K2, KEY[4..5] = K3; BLOCK[0..1] -> RESULT[0..1].
// CONFIG.TRIPLE selects 3DES EDE (three passes).
class DesCore : public IpCore {
 public:
  DesCore(std::string name, const CoreParams& params) : IpCore(std::move(name), params) {
    key_ = regs_.add({"KEY", reg::kKey, 6, RegAccess::kWriteOnly, 0});
    block_ = regs_.add({"BLOCK", reg::kBlock, 2, RegAccess::kReadWrite, 0});
    add_result_bank("RESULT", reg::kResult, 2);
  }
  unsigned block_words() const override { return 2; }

 protected:
  // The key is taken at INIT (key_setup_cycles), as in the hardware; the 3DES schedule is computed from it
  // when first used.
  std::uint64_t on_init(const sc_time&) override {
    schedule();
    return params().key_setup_cycles;
  }
  std::uint64_t compute(const std::uint32_t* in_words, std::uint32_t* out_words) override {
    const std::uint64_t in = u64_of(in_words, 0);
    const std::uint32_t config = regs_.at(config_);
    const bool encrypt = config & reg::kConfigEncrypt;
    const bool triple = config & reg::kConfigTriple;
    if (!des_) schedule();
    if (triple && !tdes_) tdes_ = std::make_unique<crypto::TripleDes>(keys_[0], keys_[1], keys_[2]);
    const std::uint64_t out = triple ? (encrypt ? tdes_->encrypt(in) : tdes_->decrypt(in))
                                     : (encrypt ? des_->encrypt(in) : des_->decrypt(in));
    out_words[0] = static_cast<std::uint32_t>(out >> 32);
    out_words[1] = static_cast<std::uint32_t>(out);
    return static_cast<std::uint64_t>(params().block_cycles) * (triple ? 3 : 1);
  }
  void on_reset() override {
    des_.reset();
    tdes_.reset();
  }

 private:
  void schedule() {
    const std::uint32_t* key = regs_.bank(key_).data();
    keys_ = {u64_of(key, 0), u64_of(key, 2), u64_of(key, 4)};
    des_ = std::make_unique<crypto::Des>(keys_[0]);
    tdes_.reset();
  }
  RegisterFile::Id key_{};
  std::array<std::uint64_t, 3> keys_{};  // K1, K2, K3 as taken by the last schedule()
  std::unique_ptr<crypto::Des> des_;
  std::unique_ptr<crypto::TripleDes> tdes_;
};

}  // namespace

std::unique_ptr<IpCore> make_des_core(std::string name, const CoreParams& params) {
  return std::make_unique<DesCore>(std::move(name), params);
}

}  // namespace rsoc::models
