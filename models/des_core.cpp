// The DES / 3DES core (core kind "des").
// Registers (models/ip_core.h): KEY[0..1] = K1, KEY[2..3] = K2, KEY[4..5] = K3; BLOCK[0..1] -> RESULT[0..1];
// CONFIG.ENCRYPT chooses the direction, CONFIG.TRIPLE selects 3DES EDE.
// Timing contract: CTRL.INIT keeps the core busy for key_setup_cycles, CTRL.NEXT for block_cycles per DES
// pass (three passes for 3DES); a streamed block costs the same. A PIO replay of many cipher blocks has them
// computed together (compute_many: crypto::Des on many blocks, interleaved), the same results and cycles.
#include <array>
#include <memory>
#include <vector>

#include "models/core_kinds.h"
#include "models/crypto/bytes.h"
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
    const Setup s = set_up();
    const std::uint64_t out = s.triple ? (s.encrypt ? tdes_->encrypt(in) : tdes_->decrypt(in))
                                       : (s.encrypt ? des_->encrypt(in) : des_->decrypt(in));
    out_words[0] = static_cast<std::uint32_t>(out >> 32);
    out_words[1] = static_cast<std::uint32_t>(out);
    return s.cycles;
  }
  bool compute_many(const std::uint32_t* in_words, std::uint32_t* out_words, std::size_t n,
                    std::uint64_t& cycles) override {
    const Setup s = set_up();
    blocks_.resize(n);
    std::uint64_t* b = blocks_.data();
    for (std::size_t i = 0; i < n; ++i) b[i] = u64_of(in_words, 2 * i);
    if (s.triple)
      s.encrypt ? tdes_->encrypt(b, b, n) : tdes_->decrypt(b, b, n);
    else
      s.encrypt ? des_->encrypt(b, b, n) : des_->decrypt(b, b, n);
    for (std::size_t i = 0; i < n; ++i) {
      out_words[2 * i] = static_cast<std::uint32_t>(b[i] >> 32);
      out_words[2 * i + 1] = static_cast<std::uint32_t>(b[i]);
    }
    cycles = s.cycles;
    return true;
  }
  void on_reset() override {
    des_.reset();
    tdes_.reset();
  }

 private:
  // The direction and passes CONFIG selects, their key schedules ready, and a block's cycles.
  struct Setup {
    bool encrypt, triple;
    std::uint64_t cycles;
  };
  Setup set_up() {
    const std::uint32_t config = regs_.at(config_);
    const bool triple = config & reg::kConfigTriple;
    if (!des_) schedule();
    if (triple && !tdes_) tdes_ = std::make_unique<crypto::TripleDes>(keys_[0], keys_[1], keys_[2]);
    return {(config & reg::kConfigEncrypt) != 0, triple,
            static_cast<std::uint64_t>(params().block_cycles) * (triple ? 3 : 1)};
  }
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
  std::vector<std::uint64_t> blocks_;  // compute_many()
};

std::unique_ptr<IpCore> make_des_core(std::string name, const CoreParams& params) {
  return std::make_unique<DesCore>(std::move(name), params);
}

// 3DES EDE: three keys, three passes a block (CONFIG.TRIPLE).
bool triple(const FunctionalityInfo& f) {
  return f.key_bytes == 24;
}

// DES and 3DES through their 64-bit interface (the byte-array one converts byte by byte), all the blocks in
// one call (interleaved: ECB blocks are independent).
Bytes des_reference(const FunctionalityInfo& f, const Bytes& key, const Bytes& data, bool encrypt) {
  Bytes out(data.size());
  auto each_block64 = [&](const auto& cipher) {
    const std::size_t n = data.size() / 8;
    std::vector<std::uint64_t> blocks(n);
    for (std::size_t i = 0; i < n; ++i) blocks[i] = crypto::load_be64(&data[8 * i]);
    encrypt ? cipher.encrypt(blocks.data(), blocks.data(), n)
            : cipher.decrypt(blocks.data(), blocks.data(), n);
    for (std::size_t i = 0; i < n; ++i) crypto::store_be64(&out[8 * i], blocks[i]);
  };
  if (triple(f)) {
    each_block64(crypto::TripleDes(crypto::load_be64(key.data()), crypto::load_be64(key.data() + 8),
                                   crypto::load_be64(key.data() + 16)));
  } else {
    each_block64(crypto::Des(crypto::load_be64(key.data())));
  }
  return out;
}

}  // namespace

const CoreKindEntry kDesKind = {
    CoreKind::kDes,
    "des",
    "DES and 3DES EDE (FIPS 46-3), both directions",
    make_des_core,
    {{1, "des", 8, 8, CoreKind::kDes, 0, false}, {2, "3des", 8, 24, CoreKind::kDes, 0, false}},
    [](const FunctionalityInfo& f, bool encrypt, const Bytes&) {
      return cipher_interface(f,
                              (encrypt ? reg::kConfigEncrypt : 0u) | (triple(f) ? reg::kConfigTriple : 0u));
    },
    [](const FunctionalityInfo& f, const CoreParams& params) {
      return std::uint64_t{params.block_cycles} * (triple(f) ? 3 : 1);
    },
    des_reference,
};

}  // namespace rsoc::models
