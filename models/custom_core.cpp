// A custom core (core kind "custom"): an accelerator described in a scenario. It computes one of the block
// functions of models/crypto/block_function.h on blocks of custom.input_bytes, giving custom.output_bytes
// each. Registers (models/ip_core.h): the common ones; with the PIO interface KEY[0..key words) at kKey,
// BLOCK[0..input words) at kCustomBlock and RESULT[0..output words) at kCustomResult (at most
// kCustomKeyWords and kCustomBankWords words); the streaming windows always (a stream-only core has no
// banks). Blocks and keys travel as big-endian words: word 0 holds the first four bytes. Timing contract:
// CTRL.INIT (the set-up of a request: the key taken, the core prepared) keeps the core busy for setup_cycles;
// CTRL.NEXT for block_cycles (the latency of one block); a stream write completing n blocks occupies it for
// block_cycles + (n - 1) x initiation_interval_cycles when it is pipelined, n x block_cycles when not
// (models/ip_core.h).
#include <memory>
#include <stdexcept>
#include <vector>

#include "models/core_kinds.h"
#include "models/ip_core.h"

namespace rsoc::models {

namespace {

using sc_core::sc_time;

class CustomCore : public IpCore {
 public:
  CustomCore(std::string name, const CoreParams& params)
      : IpCore(std::move(name), params),
        custom_(params.custom),
        in_(custom_.input_bytes),
        out_(custom_.output_bytes),
        key_(custom_.key_bytes) {
    if (!custom_.computes) throw std::invalid_argument("custom core " + this->name() + " computes nothing");
    if (custom_.input_bytes == 0 || custom_.input_bytes % 4 || custom_.output_bytes == 0 ||
        custom_.output_bytes % 4 || custom_.key_bytes % 4)
      throw std::invalid_argument("custom core " + this->name() + ": blocks and keys are whole 32-bit words");
    if (custom_.key_bytes / 4 > reg::kCustomKeyWords ||
        (custom_.pio && (custom_.input_bytes / 4 > reg::kCustomBankWords ||
                         custom_.output_bytes / 4 > reg::kCustomBankWords)))
      throw std::invalid_argument("custom core " + this->name() + ": larger than its banks");
    if (custom_.key_bytes)
      key_bank_ = regs_.add({"KEY", reg::kKey, custom_.key_bytes / 4, RegAccess::kWriteOnly, 0});
    if (custom_.pio) {
      block_ = regs_.add({"BLOCK", reg::kCustomBlock, custom_.input_bytes / 4, RegAccess::kReadWrite, 0});
      add_result_bank("RESULT", reg::kCustomResult, custom_.output_bytes / 4);
    }
  }

 protected:
  std::uint64_t on_init(const sc_time&) override {
    take_key();
    return params().setup_cycles;
  }
  unsigned block_words() const override { return custom_.input_bytes / 4; }
  unsigned result_words() const override { return custom_.output_bytes / 4; }
  std::uint64_t compute(const std::uint32_t* in, std::uint32_t* out) override {
    words_to_bytes(in, in_.size() / 4, in_.data());
    custom_.computes->compute(key_.data(), key_.size(), in_.data(), in_.size(), out_.data(), out_.size());
    bytes_to_words(out_.data(), out_.size() / 4, out);
    return params().block_cycles;
  }
  void on_reset() override { std::fill(key_.begin(), key_.end(), std::uint8_t{0}); }

 private:
  void take_key() {
    if (custom_.pio && custom_.key_bytes)
      words_to_bytes(regs_.bank(key_bank_).data(), key_.size() / 4, key_.data());
  }
  CustomCoreParams custom_;
  std::vector<std::uint8_t> in_, out_, key_;  // one block, its result, the key taken at CTRL.INIT
  RegisterFile::Id key_bank_{};
};

std::unique_ptr<IpCore> make_custom_core(std::string name, const CoreParams& params) {
  return std::make_unique<CustomCore>(std::move(name), params);
}

// Set up (CTRL.INIT) for every request: the key in KEY, a block in BLOCK, its result in RESULT.
CoreInterface custom_interface(const FunctionalityInfo& f, bool, const Bytes&) {
  CoreInterface c;
  if (f.key_bytes) c.key = {{reg::kKey, 0, f.key_bytes, false}};
  c.block = {reg::kCustomBlock, 0, f.block_bytes, false};
  c.result = {reg::kCustomResult, 0, f.output_bytes(), false};
  c.init_every_request = true;
  return c;
}

// The functionality's block function, block by block.
Bytes custom_reference(const FunctionalityInfo& f, const Bytes& key, const Bytes& data, bool) {
  if (!f.computes)
    throw std::logic_error(std::string("custom functionality ") + f.name + " computes nothing");
  const std::size_t blocks = data.size() / f.block_bytes;
  Bytes out(blocks * f.output_bytes());
  for (std::size_t b = 0; b < blocks; ++b)
    f.computes->compute(key.data(), key.size(), &data[b * f.block_bytes], f.block_bytes,
                        &out[b * f.output_bytes()], f.output_bytes());
  return out;
}

}  // namespace

// A scenario names a custom core's functionality (runtime::FunctionalityCatalog): the kind has no built-in
// one.
const CoreKindEntry kCustomKind = {
    CoreKind::kCustom,
    "custom",
    "an accelerator described in the scenario: its functionality, block sizes, timing and block function",
    make_custom_core,
    {},
    custom_interface,
    [](const FunctionalityInfo&, const CoreParams& params) { return std::uint64_t{params.block_cycles}; },
    custom_reference,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    {{"setup_cycles", "custom: core cycles of CTRL.INIT, the set-up of every request", "cycles", 0,
      1000000000, 0, nullptr, nullptr, [](CoreParams& p, unsigned v) { p.setup_cycles = v; }}},
};

}  // namespace rsoc::models
