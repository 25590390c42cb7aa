#include "runtime/hsm_firmware.h"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "models/address_map.h"
#include "models/crypto/aes_keywrap.h"
#include "models/ip_core.h"

namespace rsoc::runtime {

using crypto::BigInt;
using sc_core::sc_time;

namespace {

std::uint64_t ps(const sc_time& t) {
  return t.value();
}

// DigestInfo prefix of SHA-256 (RFC 8017 section 9.2, note 1).
constexpr std::uint8_t kSha256DigestInfo[] = {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
                                              0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20};

// The fields of a record, in order.
std::array<BigInt*, 12> record_fields(KeyRecord& r) {
  RsaKey& k = r.key;
  return {&k.n,  &k.e,    &k.d,       &k.p,        &k.q,       &k.dp,
          &k.dq, &k.qinv, &r.p_coeff, &r.p_factor, &r.q_coeff, &r.q_factor};
}
// Words of a prime of `key` (the modexp cores' MODULUS_WORDS).
std::size_t prime_words(const RsaKey& key) {
  return (std::max(key.p.bit_length(), key.q.bit_length()) + 31) / 32;
}
}  // namespace

std::vector<std::uint8_t> serialize_key(const RsaKey& key, std::size_t bytes) {
  KeyRecord record{key, {}, {}, {}, {}};
  const std::size_t h = prime_words(key);
  record.p_coeff = crypto::montgomery_coefficient(key.p, h);
  record.p_factor = crypto::montgomery_factor(key.p, h);
  record.q_coeff = crypto::montgomery_coefficient(key.q, h);
  record.q_factor = crypto::montgomery_factor(key.q, h);
  std::vector<std::uint8_t> out;
  for (const BigInt* v : record_fields(record)) {
    const std::size_t len = std::max<std::size_t>((v->bit_length() + 7) / 8, 1);
    const auto be = v->to_bytes_be(len);
    out.push_back(static_cast<std::uint8_t>(len >> 8));
    out.push_back(static_cast<std::uint8_t>(len));
    out.insert(out.end(), be.begin(), be.end());
  }
  if (out.size() > bytes)
    throw std::invalid_argument("an RSA key of " + std::to_string(key.bits()) + " bits needs " +
                                std::to_string(out.size()) + " bytes, the keystore record has " +
                                std::to_string(bytes));
  out.resize(bytes, 0);
  return out;
}

std::optional<KeyRecord> parse_key(const std::vector<std::uint8_t>& bytes) {
  KeyRecord record;
  std::size_t at = 0;
  for (BigInt* v : record_fields(record)) {
    if (at + 2 > bytes.size()) return std::nullopt;
    const std::size_t len = (std::size_t{bytes[at]} << 8) | bytes[at + 1];
    at += 2;
    if (len == 0 || at + len > bytes.size()) return std::nullopt;
    *v = BigInt::from_bytes_be(&bytes[at], len);
    at += len;
  }
  return record;
}

std::vector<std::uint8_t> pkcs1_sha256_encoding(const std::array<std::uint8_t, 32>& digest,
                                                std::size_t modulus_bytes) {
  const std::size_t t = sizeof kSha256DigestInfo + digest.size();
  if (modulus_bytes < t + 11)
    throw std::invalid_argument("modulus too short for EMSA-PKCS1-v1_5 with SHA-256");
  std::vector<std::uint8_t> em(modulus_bytes, 0xFF);
  em[0] = 0x00;
  em[1] = 0x01;
  em[modulus_bytes - t - 1] = 0x00;
  std::copy(std::begin(kSha256DigestInfo), std::end(kSha256DigestInfo), em.end() - static_cast<long>(t));
  std::copy(digest.begin(), digest.end(), em.end() - static_cast<long>(digest.size()));
  return em;
}

HsmFirmware::HsmFirmware(Scheduler& scheduler, models::Uart& uart, CoreDriver& driver,
                         const HsmParams& params, const RsaKey& public_key, std::size_t blob_bytes,
                         const std::array<std::uint8_t, 16>& kek, Sink sink)
    : scheduler_(scheduler),
      uart_(uart),
      driver_(driver),
      params_(params),
      public_key_(public_key),
      blob_bytes_(blob_bytes),
      kek_(kek.begin(), kek.end()),
      modexp_busy_(params.modexp_bases.size(), false),
      sink_(std::move(sink)) {
  if (params_.modexp_bases.empty()) throw std::invalid_argument("the HSM firmware needs a modexp core");
}

void HsmFirmware::start(std::function<void()> done) {
  done_ = std::move(done);
  clients_left_ = params_.clients;
  for (unsigned t = 0; t < params_.rpc_tasks; ++t)
    scheduler_.spawn("rpc" + std::to_string(t), params_.task_priority, [this](Process& p) { rpc_task(p); });
  for (unsigned c = 0; c < params_.clients; ++c)
    sc_core::sc_spawn([this, c] { client(c); }, ("client" + std::to_string(c)).c_str());
}

// A client host: host work, the request over the UART, the wait for the answer; closed loop.
void HsmFirmware::client(unsigned index) {
  std::mt19937_64 rng((params_.seed + 3) * 0x9E3779B97F4A7C15ull ^ index);
  sc_core::sc_event answered;
  sc_time answered_at;
  for (std::uint64_t i = 0; i < params_.signatures_per_client; ++i) {
    const double spread = params_.host_jitter * (2 * std::uniform_real_distribution<double>()(rng) - 1);
    sc_core::wait(params_.host_time * (1 + spread));
    Request r{index, next_id_++, sc_core::sc_time_stamp(), {}, {}, &answered, &answered_at};
    for (auto& b : r.digest) b = static_cast<std::uint8_t>(rng());
    r.arrived = uart_.transfer(models::Uart::Direction::kToDevice, params_.request_bytes, r.issued);
    sc_core::wait(r.arrived - sc_core::sc_time_stamp());
    queue_.push_back(r);
    queued_.notify(sc_core::SC_ZERO_TIME);
    sc_core::wait(answered);
  }
  if (--clients_left_ == 0 && done_) done_();
}

void HsmFirmware::rpc_task(Process& p) {
  for (;;) {
    while (queue_.empty()) p.wait_for(queued_);
    const Request request = queue_.front();
    queue_.pop_front();
    const Process::Ledger at_entry = p.spent();
    RequestRecord record;
    record.id = request.id;
    record.app = "client" + std::to_string(request.client);
    record.functionality = "rsa" + std::to_string(public_key_.bits()) + "_sign";
    record.blocks = 1;
    record.bytes = (public_key_.bits() + 7) / 8;
    record.decision = "hardware";
    record.reason = "hsm firmware (" + p.name() + ")";
    record.slot = params_.modexp_slots.empty() ? "" : params_.modexp_slots.front();
    record.issue_ps = ps(request.issued);
    record.start_ps = ps(p.cpu().now());
    Signature signature{request.digest, {}};
    try {
      signature.signature = sign(p, request, record);
      // Verification of the result against the public key (the model's check; the firmware's time is above).
      const BigInt s = BigInt::from_bytes_be(signature.signature);
      record.verified = crypto::modexp(s, public_key_.e, public_key_.n) ==
                        BigInt::from_bytes_be(pkcs1_sha256_encoding(request.digest, record.bytes));
      if (!record.verified) {
        record.ok = false;
        record.error = "signature does not verify";
      }
    } catch (const std::exception& e) {
      record.ok = false;
      record.error = e.what();
    }
    // The response (or an error frame of the same size) goes back over the UART; the task waits for it.
    p.compute(params_.cycles.uart_cycles_per_byte * params_.response_bytes);
    const Process::Ledger spent = p.spent();  // the task's part ends here: the rest is the UART's
    const sc_time now = p.cpu().now();
    const sc_time delivered = uart_.transfer(models::Uart::Direction::kToHost, params_.response_bytes, now);
    sc_core::sc_event sent;
    sent.notify(delivered - sc_core::sc_time_stamp());
    p.wait_for(sent, TimeUse::kBusTransfer);
    record.end_ps = ps(delivered);
    record.exec_ps = record.end_ps - record.start_ps;
    // Where the latency went: the request on the UART, queued until a task took it, the task's ledger until
    // it handed the response to the UART, the response on the UART.
    for (std::size_t i = 0; i < kRequestTimeUses; ++i) record.breakdown.ps[i] = spent[i] - at_entry[i];
    record.breakdown[TimeUse::kBusTransfer] +=
        ps(request.arrived) - record.issue_ps + ps(delivered) - ps(now);
    record.breakdown[TimeUse::kCpuWait] += record.start_ps - ps(request.arrived);
    ++signatures_;
    if (sink_) sink_(record, signature);
    *request.answered_at = delivered;
    request.answered->notify(sc_core::SC_ZERO_TIME);
  }
}

std::vector<std::uint8_t> HsmFirmware::sign(Process& p, const Request& request, RequestRecord& record) {
  const HsmCosts& c = params_.cycles;
  models::CpuThread& cpu = p.cpu();
  p.compute(c.rpc_cycles + c.uart_cycles_per_byte * params_.request_bytes);

  // The keystore: the wrapped key read from memory and unwrapped through the AES core, block by block.
  keystore_.lock(p);
  std::vector<std::uint8_t> blob(blob_bytes_);
  std::optional<std::vector<std::uint8_t>> record_bytes;
  try {
    if (cpu.read(params_.blob_address, blob.data(), static_cast<unsigned>(blob.size())) !=
        tlm::TLM_OK_RESPONSE)
      throw DriverError("keystore read failed at " + std::to_string(params_.blob_address));
    p.compute(c.copy_cycles_per_word * (blob.size() / 4));
    const crypto::BlockCipher aes_core = [&](bool encrypt, const std::uint8_t* in, std::uint8_t* out) {
      const auto result = driver_.run(p, params_.aes_base, Functionality::kAes128, kek_,
                                      std::vector<std::uint8_t>(in, in + 16), encrypt);
      std::copy(result.begin(), result.end(), out);
      ++aes_operations_;
    };
    record_bytes = crypto::key_unwrap_pad(aes_core, blob);
  } catch (...) {
    keystore_.unlock();
    throw;
  }
  keystore_.unlock();
  if (!record_bytes) throw DriverError("key blob does not unwrap (wrong KEK or damaged keystore)");
  p.compute(c.parse_cycles);
  const std::optional<KeyRecord> stored = parse_key(*record_bytes);
  if (!stored) throw DriverError("unwrapped key record is malformed");
  const RsaKey* key = &stored->key;

  // Blinding: m * r^e mod n with a fresh r.
  const std::size_t k = record.bytes;
  const BigInt m = BigInt::from_bytes_be(pkcs1_sha256_encoding(request.digest, k));
  std::mt19937_64 rng((params_.seed + 5) * 0xD1B54A32D192ED03ull ^ request.id);
  std::vector<std::uint8_t> r_bytes(k);
  for (auto& b : r_bytes) b = static_cast<std::uint8_t>(rng());
  const BigInt r = crypto::mod(BigInt::from_bytes_be(r_bytes), key->n);
  p.compute(c.blinding_cycles);
  const BigInt blinded = crypto::mod(m * crypto::modexp(r, key->e, key->n), key->n);

  const std::vector<std::uint8_t> halves = modexp_pair(p, *stored, blinded);
  const std::size_t half = halves.size() / 2;
  const BigInt m1 = BigInt::from_bytes_be(halves.data(), half),
               m2 = BigInt::from_bytes_be(&halves[half], half);

  // Garner's recombination, then unblinding with r^-1.
  p.compute(c.crt_cycles);
  const BigInt h = crypto::mod(key->qinv * (m1 - m2), key->p);
  const BigInt s_blinded = m2 + key->q * h;
  p.compute(c.unblinding_cycles);
  const BigInt s = crypto::mod(s_blinded * crypto::mod_inverse(r, key->n), key->n);
  return s.to_bytes_be(k);
}

namespace {
namespace reg = models::reg;

void write_number(models::CpuThread& cpu, std::uint64_t address, const BigInt& v, std::size_t words) {
  for (const std::uint32_t w : v.to_words(words)) {
    cpu.write32(address, w);
    address += 4;
  }
}

// One CRT half on a modexp core, in the steps of Cryptech's hal_modexp: set-up of the modulus, set-up of the
// calculation (which starts it), and the result.
struct ModexpHalf {
  std::uint64_t base;
  const BigInt& prime;
  const BigInt& exponent;
  const BigInt& coeff;
  const BigInt& factor;
};

void setup_modulus(models::CpuThread& cpu, const ModexpHalf& a, std::size_t h) {
  const std::uint32_t buffer_bits = cpu.read32(a.base + reg::kBufferBits);
  if (buffer_bits < 64 * h)
    throw DriverError("the modexp core at " + models::hex(a.base) + " takes " + std::to_string(buffer_bits) +
                      "-bit operands, a CRT half needs " + std::to_string(64 * h));
  cpu.write32(a.base + reg::kModulusWords, static_cast<std::uint32_t>(h));
  write_number(cpu, a.base + reg::kModulus, a.prime, h);
}

// The message goes unreduced (twice the prime's words): the core reduces it. The coefficient and factor are
// written from modulus-sized buffers, as the firmware declares them.
void setup_calculation(models::CpuThread& cpu, const ModexpHalf& a, std::size_t h, const BigInt& message) {
  write_number(cpu, a.base + reg::kModulusCoeff, a.coeff, 2 * h);
  write_number(cpu, a.base + reg::kMontgomeryFactor, a.factor, 2 * h);
  cpu.write32(a.base + reg::kConfig, reg::kConfigWideMessage | reg::kConfigPrecalc);
  write_number(cpu, a.base + reg::kMessage, message, 2 * h);
  write_number(cpu, a.base + reg::kExponent, a.exponent, h);
  cpu.write32(a.base + reg::kExponentBits, static_cast<std::uint32_t>(32 * h));
  cpu.write32(a.base + reg::kCtrl, 0);  // hal_io_zero
  cpu.write32(a.base + reg::kCtrl, reg::kCtrlNext);
}

std::vector<std::uint8_t> read_result(models::CpuThread& cpu, const ModexpHalf& a, std::size_t h) {
  std::vector<std::uint32_t> words(h);
  for (std::size_t i = 0; i < h; ++i) words[i] = cpu.read32(a.base + reg::kModResult + 4 * i);
  return BigInt::from_words(words).to_bytes_be(4 * h);
}
}  // namespace

// m^dP mod p and m^dQ mod q on the modexp cores (hal_modexp2 with the precomputed values): both set up and
// started before either is collected when there are two, one after the other on one core.
std::vector<std::uint8_t> HsmFirmware::modexp_pair(Process& p, const KeyRecord& record,
                                                   const BigInt& blinded) {
  const RsaKey& key = record.key;
  const std::size_t h = prime_words(key);
  const std::vector<std::size_t> cores = allocate_modexp(p);
  const ModexpHalf half_p{params_.modexp_bases[cores.front()], key.p, key.dp, record.p_coeff,
                          record.p_factor};
  const ModexpHalf half_q{params_.modexp_bases[cores.back()], key.q, key.dq, record.q_coeff, record.q_factor};
  const DriverCosts& costs = driver_.costs();
  models::CpuThread& cpu = p.cpu();
  const std::uint32_t done = reg::kStatusReady | reg::kStatusValid;
  std::vector<std::uint8_t> out, second;
  try {
    if (cores.size() == 2) {
      for (const ModexpHalf* a : {&half_p, &half_q}) {
        cpu.compute(costs.cycles_per_request);
        setup_modulus(cpu, *a, h);
      }
      for (const ModexpHalf* a : {&half_p, &half_q}) {
        cpu.compute(costs.cycles_per_block + costs.cycles_per_cipher_block);  // one message
        setup_calculation(cpu, *a, h, blinded);
      }
      driver_.wait_status(p, half_p.base, done);
      driver_.wait_status(p, half_q.base, done);
      out = read_result(cpu, half_p, h);
      second = read_result(cpu, half_q, h);
    } else {
      for (const ModexpHalf* a : {&half_p, &half_q}) {
        cpu.compute(costs.cycles_per_request);
        setup_modulus(cpu, *a, h);
        cpu.compute(costs.cycles_per_block + costs.cycles_per_cipher_block);  // one message
        setup_calculation(cpu, *a, h, blinded);
        driver_.wait_status(p, a->base, done);
        (a == &half_p ? out : second) = read_result(cpu, *a, h);
      }
    }
  } catch (...) {
    release_modexp(cores);
    throw;
  }
  release_modexp(cores);
  out.insert(out.end(), second.begin(), second.end());
  return out;
}

std::vector<std::size_t> HsmFirmware::allocate_modexp(Process& p) {
  const std::size_t need = std::min<std::size_t>(2, modexp_busy_.size());  // a pair when the FPGA has two
  for (;;) {
    const Process::Ledger before = p.spent();
    p.compute(params_.cycles.core_alloc_cycles);
    ++alloc_attempts_;
    std::vector<std::size_t> free;
    for (std::size_t i = 0; i < modexp_busy_.size() && free.size() < need; ++i)
      if (!modexp_busy_[i]) free.push_back(i);
    if (free.size() == need) {
      for (std::size_t i : free) modexp_busy_[i] = true;
      return free;
    }
    p.yield();
    // A failed attempt and the others' turns it waited through are time waiting for the cores.
    const Process::Ledger after = p.spent();
    for (const TimeUse use : {TimeUse::kCpuCompute, TimeUse::kCpuWait}) {
      const auto i = static_cast<std::size_t>(use);
      p.recount(use, TimeUse::kSlotWait, sc_core::sc_time::from_value(after[i] - before[i]));
    }
  }
}

void HsmFirmware::release_modexp(const std::vector<std::size_t>& cores) {
  for (std::size_t i : cores) modexp_busy_[i] = false;
}

}  // namespace rsoc::runtime
