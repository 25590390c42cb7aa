#include "models/ip_core.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "models/address_map.h"
#include "models/crypto/aes128.h"
#include "models/crypto/des.h"
#include "models/crypto/modexp.h"
#include "models/kernel_time.h"
#include "models/stream.h"

namespace rsoc::models {

using sc_core::sc_time;

const char* to_string(CoreKind kind) {
  switch (kind) {
    case CoreKind::kAes128:
      return "aes128";
    case CoreKind::kDes:
      return "des";
    case CoreKind::kModexp:
      return "modexp";
  }
  return "?";
}

IpCore::IpCore(std::string name, const CoreParams& params)
    : name_(std::move(name)),
      params_(params),
      word_access_(
          periods(params.clock_period, static_cast<double>(params.access_cycles), "a core register access")) {
  const std::string kind = to_string(params.kind);
  auto word_of = [&](std::size_t i) {
    std::uint32_t w = 0;
    for (std::size_t b = 0; b < 4; ++b)
      w = (w << 8) | static_cast<std::uint8_t>(i + b < kind.size() ? kind[i + b] : ' ');
    return w;
  };
  regs_.add({"NAME0", reg::kName0, 1, RegAccess::kReadOnly, word_of(0)});
  regs_.add({"NAME1", reg::kName1, 1, RegAccess::kReadOnly, word_of(4)});
  regs_.add({"VERSION", reg::kVersion, 1, RegAccess::kReadOnly, 0x00010000});
  ctrl_ = regs_.add({"CTRL", reg::kCtrl, 1, RegAccess::kReadWrite, 0}, nullptr,
                    [this](std::uint32_t, std::uint32_t value, const sc_time& at) { control(value, at); });
  regs_.add({"STATUS", reg::kStatus, 1, RegAccess::kReadOnly, reg::kStatusReady},
            [this](std::uint32_t, const sc_time& at) {
              const bool ready = !busy_at(at);
              return (ready ? reg::kStatusReady : 0u) | (ready && valid_ ? reg::kStatusValid : 0u);
            });
  config_ = regs_.add({"CONFIG", reg::kConfig, 1, RegAccess::kReadWrite, reg::kConfigEncrypt});
  regs_.add({"FIFO_WORDS", reg::kFifoWords, 1, RegAccess::kReadOnly, params.fifo_words});
  regs_.add({"OUT_WORDS", reg::kOutWords, 1, RegAccess::kReadOnly, 0},
            [this](std::uint32_t, const sc_time& at) {
              std::uint32_t ready = 0;
              for (const auto& word : stream_out_) ready += word.second <= at ? 1 : 0;
              return ready;
            });
}

void IpCore::control(std::uint32_t value, const sc_time& at) {
  regs_.at(ctrl_) = 0;  // self-clearing command bits
  if (!(value & (reg::kCtrlInit | reg::kCtrlNext))) return;
  if (busy_at(at)) {
    ++ignored_starts_;
    return;
  }
  std::uint64_t cycles = 0;
  if (value & reg::kCtrlInit) cycles += on_init(at);
  if (value & reg::kCtrlNext) cycles += next();
  const sc_time busy = periods(params_.clock_period, static_cast<double>(cycles), "a core's operation");
  done_at_ = at + busy;
  busy_ += busy;
  ++operations_;
  if (activity_ && busy != sc_core::SC_ZERO_TIME) {
    static const char* const kOperation[] = {"", "init", "block", "init, block"};  // by CTRL.NEXT, CTRL.INIT
    static_assert(reg::kCtrlInit == 1 && reg::kCtrlNext == 2);
    activity_->core_work(activity_lane_, kOperation[value & (reg::kCtrlInit | reg::kCtrlNext)], to_ps(at),
                         to_ps(done_at_));
  }
}

std::uint64_t IpCore::next() {
  scratch_.resize(std::max(block_words(), result_words()));
  const std::uint64_t cycles = compute(regs_.bank(block_).data(), scratch_.data());
  publish(scratch_.data(), result_words());
  return cycles;
}

void IpCore::occupy(tlm::tlm_generic_payload& trans, const sc_time& at, const sc_time& ready,
                    const sc_time& access, const sc_time& compute, sc_time& latency) {
  const sc_time wait = ready > at ? ready - at : sc_core::SC_ZERO_TIME;
  const sc_time occupancy = std::max(access, compute);
  if (StreamExtension* stream = stream_of(trans)) {
    // The chunk's other stages are on the stream already (the core is its last stage): moving the data takes
    // the slowest of them and the core's access time; computing longer than that is waiting for the core.
    const sc_time moving = std::max(access, stream->slowest());
    stream_wait_ += wait + (compute > moving ? compute - moving : sc_core::SC_ZERO_TIME);
    latency += wait;  // waiting for the core is annotated; its occupancy is its stage of the chunk
    stream->add(this, name_.c_str(), occupancy);
  } else {
    latency += wait + occupancy;
  }
}

void IpCore::stream_access(tlm::tlm_generic_payload& trans, const sc_time& at, sc_time& latency) {
  const std::uint64_t address = trans.get_address();
  const unsigned length = trans.get_data_length();
  const bool in = address < reg::kStreamOut;
  if (length % 4 != 0 || address % 4 != 0 || address >= reg::kStreamOut + reg::kStreamWindowBytes ||
      trans.is_write() != in) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  const std::size_t words = length / 4;
  const sc_time access = periods(word_access_, static_cast<double>(words), "a core stream access");
  unsigned char* data = trans.get_data_ptr();
  if (!in) {
    if (words > stream_out_.size()) {  // underflow
      trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
      return;
    }
    occupy(trans, at, stream_out_[words - 1].second, access, sc_core::SC_ZERO_TIME, latency);
    for (std::size_t i = 0; i < words; ++i) {
      std::memcpy(data + 4 * i, &stream_out_.front().first, 4);
      stream_out_.pop_front();
    }
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  if (stream_in_.size() + stream_out_.size() + words > params_.fifo_words) {  // overflow
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  // Every block this write completes is computed now; its results are ready when the core's occupancy ends.
  const unsigned block = block_words();
  std::vector<std::uint32_t> out(std::max(block, result_words()));
  std::uint64_t cycles = 0;
  std::size_t first_result = stream_out_.size();
  for (std::size_t i = 0; i < words; ++i) {
    std::uint32_t w = 0;
    std::memcpy(&w, data + 4 * i, 4);
    stream_in_.push_back(w);
    if (stream_in_.size() < block) continue;
    cycles += compute(stream_in_.data(), out.data());
    ++operations_;
    stream_in_.clear();
    for (unsigned r = 0; r < result_words(); ++r) stream_out_.emplace_back(out[r], sc_core::SC_ZERO_TIME);
  }
  const sc_time compute_time = periods(params_.clock_period, static_cast<double>(cycles), "a core's operation");
  const sc_time start = std::max(at, done_at_);
  occupy(trans, at, done_at_, access, compute_time, latency);
  done_at_ = start + std::max(access, compute_time);
  busy_ += compute_time;
  if (activity_ && compute_time != sc_core::SC_ZERO_TIME)
    activity_->core_work(activity_lane_, "stream", to_ps(start), to_ps(start + compute_time));
  for (std::size_t i = first_result; i < stream_out_.size(); ++i) stream_out_[i].second = done_at_;
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void IpCore::pio_access(tlm::tlm_generic_payload& trans, const sc_time& at, sc_time& latency,
                        PioReplayExtension& pio) {
  if (pio.replaying) return replay(trans, pio);
  PioRecording& recording = *pio.recording;
  if (trans.get_address() >= reg::kStreamIn) {  // the streaming windows are not replayed
    recording.refuse();
    return stream_access(trans, at, latency);
  }
  const sc_time before = latency;
  register_access(trans, at, latency);
  PioRecording::Entry e;
  e.owner = this;
  e.at = at + (latency - before);  // when the registers took it
  e.address = trans.get_address();
  e.words = (trans.get_data_length() + 3) / 4;
  e.write = trans.is_write();
  if (e.write && e.words == 1) {
    std::memcpy(&e.value, trans.get_data_ptr(), 4);
  } else if (e.write && !regs_.holds(block_, e.address)) {
    recording.refuse();  // a burst written elsewhere than the block bank is not kept
  }
  recording.add_target_access(e);
}

void IpCore::replay(tlm::tlm_generic_payload& trans, const PioReplayExtension& pio) {
  const unsigned in = block_words(), out = result_words();
  if (trans.get_data_length() < 4 * std::max(in, out)) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  unsigned char* data = trans.get_data_ptr();
  std::memcpy(regs_.bank(block_).data(), data, 4 * in);
  const auto [first, last] = pio.recording->entries_of(this);
  for (const PioRecording::Entry* e = first; e != last; ++e) {
    if (!e->write) {
      words_read_ += e->words;
      status_reads_ += e->address == reg::kStatus;
      continue;
    }
    words_written_ += e->words;
    if (!regs_.holds(block_, e->address)) regs_.write_word(e->address, e->value, e->at + pio.shift);
  }
  std::memcpy(data, result_.data(), 4 * out);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

void IpCore::add_result_bank(const std::string& name, std::uint32_t offset, std::uint32_t words) {
  result_.assign(words, 0);
  previous_result_.assign(words, 0);
  regs_.add({name, offset, words, RegAccess::kReadOnly, 0}, [this](std::uint32_t index, const sc_time& at) {
    return busy_at(at) ? previous_result_[index] : result_[index];
  });
}

void IpCore::publish(const std::uint32_t* values, std::size_t n) {
  previous_result_.swap(result_);
  const std::size_t kept = std::min(n, previous_result_.size());
  std::copy(values, values + kept, result_.begin());
  std::fill(result_.begin() + static_cast<std::ptrdiff_t>(kept), result_.end(), 0);
  valid_ = true;
}

void IpCore::reset() {
  on_reset();
  regs_.reset();
  std::fill(result_.begin(), result_.end(), 0);
  std::fill(previous_result_.begin(), previous_result_.end(), 0);
  valid_ = false;
  stream_in_.clear();
  stream_out_.clear();
}

namespace {

std::array<std::uint8_t, 16> bytes_of(const std::uint32_t* words, std::size_t n) {
  std::array<std::uint8_t, 16> out{};
  for (std::size_t i = 0; i < n; ++i) {  // big-endian: word 0 holds the first bytes
    out[4 * i] = static_cast<std::uint8_t>(words[i] >> 24);
    out[4 * i + 1] = static_cast<std::uint8_t>(words[i] >> 16);
    out[4 * i + 2] = static_cast<std::uint8_t>(words[i] >> 8);
    out[4 * i + 3] = static_cast<std::uint8_t>(words[i]);
  }
  return out;
}

std::uint64_t u64_of(const std::uint32_t* words, std::size_t i) {
  return (static_cast<std::uint64_t>(words[i]) << 32) | words[i + 1];
}

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
    cipher_ = std::make_unique<crypto::Aes128>(bytes_of(regs_.bank(key_).data(), 4));
    return params().key_setup_cycles;
  }
  void on_reset() override { cipher_.reset(); }
  std::uint64_t compute(const std::uint32_t* in_words, std::uint32_t* out_words) override {
    if (!cipher_) cipher_ = std::make_unique<crypto::Aes128>(bytes_of(regs_.bank(key_).data(), 4));
    const auto in = bytes_of(in_words, 4);
    std::array<std::uint8_t, 16> out{};
    if (regs_.at(config_) & reg::kConfigEncrypt) {
      cipher_->encrypt(in.data(), out.data());
    } else {
      cipher_->decrypt(in.data(), out.data());
    }
    for (std::size_t i = 0; i < 4; ++i)
      out_words[i] = (std::uint32_t{out[4 * i]} << 24) | (std::uint32_t{out[4 * i + 1]} << 16) |
                     (std::uint32_t{out[4 * i + 2]} << 8) | out[4 * i + 3];
    return params().block_cycles;
  }

 private:
  RegisterFile::Id key_{};
  std::unique_ptr<crypto::Aes128> cipher_;
};

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

// Modular exponentiation RESULT = MESSAGE ^ EXPONENT mod MODULUS on MODULUS_WORDS words, EXPONENT_BITS bits.
// Right-to-left binary exponentiation with two Montgomery multipliers working in parallel (square and
// multiply every step, whatever the bit: constant time).
// ModExpA7-style operation (Cryptech's core, as its driver hal_modexp2 programs it): BUFFER_BITS tells the
// driver the widest operand; CONFIG.PRECALC makes the core take the Montgomery coefficient -n^-1 mod R and
// factor R^2 mod n (R = 2^(32 * MODULUS_WORDS)) from the MODULUS_COEFF and MONTGOMERY_FACTOR banks instead
// of deriving them (setup_cycles is that derivation, skipped); wrong values give a wrong result, as in the
// hardware. CONFIG.WIDE_MESSAGE (ModExpA7's "CRT mode") takes a MESSAGE of twice MODULUS_WORDS words and
// reduces it modulo MODULUS first, one more Montgomery multiplication.
// CRT mode (CONFIG.CRT): an RSA private operation with h = MODULUS_WORDS-word primes. MODULUS holds p (words
// 0..h-1) and q (words h..2h-1), EXPONENT dP and dQ the same way, QINV qInv; MESSAGE and RESULT have 2h
// words: RESULT = MESSAGE^d mod pq, recombined from MESSAGE^dP mod p and MESSAGE^dQ mod q by Garner's formula
// (RFC 8017 5.1.2); busy for rsa_crt_cycles().
class ModexpCore : public IpCore {
 public:
  ModexpCore(std::string name, const CoreParams& params) : IpCore(std::move(name), params) {
    const std::uint32_t max_words = (params.max_operand_bits + 31) / 32;
    modulus_words_ = regs_.add({"MODULUS_WORDS", reg::kModulusWords, 1, RegAccess::kReadWrite, max_words});
    exponent_bits_ =
        regs_.add({"EXPONENT_BITS", reg::kExponentBits, 1, RegAccess::kReadWrite, params.max_operand_bits});
    regs_.add({"BUFFER_BITS", reg::kBufferBits, 1, RegAccess::kReadOnly, 32 * max_words});
    modulus_ = regs_.add({"MODULUS", reg::kModulus, reg::kModexpBankWords, RegAccess::kWriteOnly, 0});
    block_ = regs_.add({"MESSAGE", reg::kMessage, reg::kModexpBankWords, RegAccess::kWriteOnly, 0});
    exponent_ = regs_.add({"EXPONENT", reg::kExponent, reg::kModexpBankWords, RegAccess::kWriteOnly, 0});
    qinv_ = regs_.add({"QINV", reg::kQinv, reg::kModexpBankWords / 2, RegAccess::kWriteOnly, 0});
    coeff_ =
        regs_.add({"MODULUS_COEFF", reg::kModulusCoeff, reg::kModexpBankWords, RegAccess::kWriteOnly, 0});
    factor_ = regs_.add(
        {"MONTGOMERY_FACTOR", reg::kMontgomeryFactor, reg::kModexpBankWords, RegAccess::kWriteOnly, 0});
    add_result_bank("RESULT", reg::kModResult, reg::kModexpBankWords);
  }

 protected:
  std::uint64_t on_init(const sc_time&) override { return 0; }
  unsigned block_words() const override { return (crt() || wide() ? 2 : 1) * operand_words(); }
  unsigned result_words() const override { return (crt() ? 2 : 1) * operand_words(); }
  std::uint64_t compute(const std::uint32_t* in, std::uint32_t* out) override {
    if (crt()) return compute_crt(in, out);
    const std::uint32_t max_words = (params().max_operand_bits + 31) / 32;
    const std::uint32_t words = operand_words();
    const std::uint32_t exp_bits = std::min(std::max(regs_.at(exponent_bits_), 1u), 32 * max_words);
    const crypto::BigInt modulus = bank(modulus_, words);
    std::vector<std::uint32_t> result(words, 0);
    if (!modulus.is_zero()) {
      // Only the low exp_bits of the exponent take part, as in the hardware.
      std::vector<std::uint32_t> e(regs_.bank(exponent_).begin(),
                                   regs_.bank(exponent_).begin() + static_cast<long>((exp_bits + 31) / 32));
      if (exp_bits % 32 != 0) e.back() &= (1u << (exp_bits % 32)) - 1;
      const crypto::BigInt exponent = crypto::BigInt::from_words(e);
      const crypto::BigInt message = crypto::BigInt::from_words(in, (wide() ? 2 : 1) * words);
      crypto::BigInt r;
      if (precalc() && modulus.is_odd())
        r = crypto::montgomery_modexp(message, exponent, modulus, bank(coeff_, words), bank(factor_, words),
                                      words);
      else
        r = crypto::modexp(message, exponent, modulus);
      result = r.to_words(words);
    }
    std::copy(result.begin(), result.end(), out);
    return modexp_cycles(params(), 32 * words, exp_bits) - (precalc() ? params().setup_cycles : 0) +
           (wide() ? montmul_cycles(params(), 32 * words) : 0);
  }

 private:
  bool crt() const { return regs_.at(config_) & reg::kConfigCrt; }
  bool wide() const { return !crt() && (regs_.at(config_) & reg::kConfigWideMessage); }
  bool precalc() const { return regs_.at(config_) & reg::kConfigPrecalc; }
  // Words of one operand (of a prime in CRT mode), at most what the core takes and half a bank when a message
  // has two operands' words.
  std::uint32_t operand_words() const {
    const std::uint32_t max_words =
        std::min((params().max_operand_bits + 31) / 32,
                 crt() || wide() ? reg::kModexpBankWords / 2 : reg::kModexpBankWords);
    return std::min(std::max(regs_.at(modulus_words_), 1u), max_words);
  }
  crypto::BigInt bank(RegisterFile::Id id, std::uint32_t words, std::uint32_t first = 0) const {
    return crypto::BigInt::from_words(regs_.bank(id).data() + first, words);
  }
  std::uint64_t compute_crt(const std::uint32_t* in, std::uint32_t* out) {
    const std::uint32_t h = operand_words();
    const crypto::BigInt p = bank(modulus_, h), q = bank(modulus_, h, h);
    std::vector<std::uint32_t> result(2 * h, 0);
    if (!p.is_zero() && !q.is_zero()) {
      const crypto::BigInt s = crypto::rsa_crt(crypto::BigInt::from_words(in, 2 * h), p, q,
                                               bank(exponent_, h), bank(exponent_, h, h), bank(qinv_, h));
      result = s.to_words(2 * h);
    }
    std::copy(result.begin(), result.end(), out);
    return rsa_crt_cycles(params(), 32 * h);
  }
  RegisterFile::Id modulus_words_{}, exponent_bits_{}, modulus_{}, exponent_{}, qinv_{}, coeff_{}, factor_{};
};

}  // namespace

std::uint64_t montmul_cycles(const CoreParams& params, unsigned modulus_bits) {
  const std::uint64_t digits =
      (modulus_bits + params.multiplier_width_bits - 1) / params.multiplier_width_bits;
  return 2 * digits * digits + params.montmul_overhead_cycles;
}

std::uint64_t modexp_cycles(const CoreParams& params, unsigned modulus_bits, unsigned exponent_bits) {
  // One Montgomery multiplication per exponent bit (square and multiply in parallel), plus the conversions
  // into and out of the Montgomery domain.
  return params.setup_cycles + (std::uint64_t{exponent_bits} + 2) * montmul_cycles(params, modulus_bits);
}

std::uint64_t rsa_crt_cycles(const CoreParams& params, unsigned half_bits) {
  return 2 * modexp_cycles(params, half_bits, half_bits) + 2 * montmul_cycles(params, half_bits);
}

std::unique_ptr<IpCore> make_core(const std::string& name, const CoreParams& params) {
  switch (params.kind) {
    case CoreKind::kAes128:
      return std::make_unique<AesCore>(name, params);
    case CoreKind::kDes:
      return std::make_unique<DesCore>(name, params);
    case CoreKind::kModexp:
      return std::make_unique<ModexpCore>(name, params);
  }
  throw ElaborationError("unknown core kind");
}

}  // namespace rsoc::models
