#include "runtime/hsm_firmware.h"

#include <algorithm>
#include <exception>
#include <random>
#include <stdexcept>

#include "models/address_map.h"
#include "models/crypto/aes_keywrap.h"
#include "models/crypto/bytes.h"
#include "models/ip_core.h"
#include "runtime/request_scope.h"

namespace rsoc::runtime {

using crypto::BigInt;
using sc_core::sc_time;

namespace {

// DigestInfo prefix of SHA-256 (RFC 8017 section 9.2, note 1).
constexpr std::uint8_t kSha256DigestInfo[] = {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
                                              0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20};

// The fields of a record, in order.
std::array<BigInt*, 12> record_fields(KeyRecord& r) {
  crypto::RsaKey& k = r.key;
  return {&k.n,  &k.e,    &k.d,       &k.p,        &k.q,       &k.dp,
          &k.dq, &k.qinv, &r.p_coeff, &r.p_factor, &r.q_coeff, &r.q_factor};
}
// Words of a prime of `key` (the modexp cores' MODULUS_WORDS).
std::size_t prime_words(const crypto::RsaKey& key) {
  return (std::max(key.p.bit_length(), key.q.bit_length()) + 31) / 32;
}
}  // namespace

std::vector<std::uint8_t> serialize_key(const crypto::RsaKey& key, std::size_t bytes) {
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

namespace {
namespace reg = models::reg;

// Runs `work`, then `release` whether or not it threw, and rethrows what it threw. The release (freeing a
// core yields) runs outside any exception handler: a switch to another task while an exception is handled
// would let a `throw;` rethrow the exception that task caught meanwhile.
template <typename Work, typename Release>
void then_release(Work&& work, Release&& release) {
  std::exception_ptr failed;
  try {
    work();
  } catch (...) {
    failed = std::current_exception();
  }
  release();
  if (failed) std::rethrow_exception(failed);
}

// Time a process spent from `before` until now on computing and waiting for the CPU, counted instead as
// waiting for a shared resource (a core): spinning for it.
void count_as_waiting(Process& p, const Process::Ledger& before) {
  p.recount_between(before, p.spent(), {TimeUse::kCpuCompute, TimeUse::kCpuWait}, TimeUse::kSlotWait);
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

// `widest_bits`: the widest operand the calculation will write (an unreduced message is twice the modulus).
void setup_modulus(models::CpuThread& cpu, std::uint64_t base, const BigInt& modulus, std::size_t h,
                   std::size_t widest_bits) {
  const std::uint32_t buffer_bits = cpu.read32(base + reg::kBufferBits);
  if (buffer_bits < widest_bits)
    throw DriverError("the modexp core at " + models::hex(base) + " takes " + std::to_string(buffer_bits) +
                      "-bit operands, the firmware needs " + std::to_string(widest_bits));
  cpu.write32(base + reg::kModulusWords, static_cast<std::uint32_t>(h));
  write_number(cpu, base + reg::kModulus, modulus, h);
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

BigInt read_result(models::CpuThread& cpu, std::uint64_t base, std::size_t words) {
  return read_number(cpu, base + reg::kModResult, words);
}

// The private key as the reference RSA-CRT operation takes it: p, q, dP, dQ, qInv, each of `half` bytes.
std::vector<std::uint8_t> crt_key_bytes(const crypto::RsaKey& k, std::size_t half) {
  std::vector<std::uint8_t> out;
  for (const BigInt* v : {&k.p, &k.q, &k.dp, &k.dq, &k.qinv}) {
    const auto b = v->to_bytes_be(half);
    out.insert(out.end(), b.begin(), b.end());
  }
  return out;
}
}  // namespace

HsmFirmware::HsmFirmware(Scheduler& scheduler, Manager& manager, models::Uart& uart, const HsmParams& params,
                         const crypto::RsaKey& key, std::size_t blob_bytes,
                         const std::array<std::uint8_t, 32>& kek)
    : scheduler_(scheduler),
      manager_(manager),
      uart_(uart),
      params_(params),
      io_(params.io),
      key_(key),
      blob_bytes_(blob_bytes),
      kek_(kek.begin(), kek.end()) {
  if (manager_.slots().cores_of(models::CoreKind::kAes128) == 0)
    throw std::invalid_argument("the HSM firmware needs an AES core");
  if (manager_.slots().cores_of(models::CoreKind::kModexp) < 2)
    throw std::invalid_argument("the HSM firmware needs two modexp cores");
  steps_ = params_.cycles;
  const std::uint64_t remainder = params_.cycles.remainder;
  switch (params_.remainder_at) {
    case RemainderAt::kDispatch:
      remainder_at_dispatch_ = remainder;
      break;
    case RemainderAt::kUnwrap: {
      // RFC 5649: n + 1 semiblocks of wrapped key take 6n AES blocks.
      const std::uint64_t blocks = std::max<std::uint64_t>(1, 6 * (blob_bytes_ / 8 - 1));
      remainder_per_block_ = (remainder + blocks / 2) / blocks;
      break;
    }
    case RemainderAt::kBignum: {
      std::uint64_t sum = 0;
      for (const std::uint64_t* step : bignum_steps(steps_)) sum += *step;
      if (sum == 0 && remainder > 0)  // the scenario loader refuses this with the key to change
        throw std::invalid_argument("the remainder cannot run in the bignum steps: they have no cycles");
      for (std::uint64_t* step : bignum_steps(steps_))
        *step += static_cast<std::uint64_t>(
            static_cast<double>(*step) * static_cast<double>(remainder) / static_cast<double>(sum) + 0.5);
      break;
    }
  }
}

void HsmFirmware::start(std::function<void()> done) {
  done_ = std::move(done);
  clients_left_ = params_.clients;
  for (unsigned t = 0; t < params_.rpc_tasks; ++t)
    scheduler_.spawn("rpc" + std::to_string(t), params_.task_priority, [this](Process& p) { rpc_task(p); },
                     sc_core::SC_ZERO_TIME,
                     {0});  // the firmware is a single-core tasker: the scheduler's first thread
  for (unsigned c = 0; c < params_.clients; ++c)
    sc_core::sc_spawn([this, c] { client(c); }, ("client" + std::to_string(c)).c_str());
}

// A client: sign() called, the host's part, the request over the UART; the firmware sees it on its next tick;
// then the client waits for the answer and calls again (no think time).
void HsmFirmware::client(unsigned index) {
  std::mt19937_64 rng((params_.seed + 3) * 0x9E3779B97F4A7C15ull ^ index);
  sc_core::sc_event answered;
  for (std::uint64_t i = 0; i < params_.signatures_per_client; ++i) {
    Request r{index, sc_core::sc_time_stamp(), {}, {}, {}, &answered};
    const double spread = params_.host_jitter * (2 * std::uniform_real_distribution<double>()(rng) - 1);
    sc_core::wait(params_.host_time * (1 + spread));
    r.host_done = sc_core::sc_time_stamp();
    for (auto& b : r.digest) b = static_cast<std::uint8_t>(rng());
    r.arrived = uart_.transfer(models::Uart::Direction::kToDevice, params_.request_bytes, r.host_done);
    sc_time seen = r.arrived;
    if (params_.rx_tick != sc_core::SC_ZERO_TIME) {
      const std::uint64_t tick = params_.rx_tick.value();
      seen = sc_time::from_value((r.arrived.value() + tick - 1) / tick * tick);
    }
    sc_core::wait(seen - sc_core::sc_time_stamp());
    queue_.push_back(r);
    queued_.notify(sc_core::SC_ZERO_TIME);
    sc_core::wait(answered);
  }
  if (--clients_left_ == 0 && done_) done_();
}

void HsmFirmware::rpc_task(Process& p) {
  const std::size_t modulus_bytes = (key_.bits() + 7) / 8;
  const Functionality crt = key_.bits() > 2048 ? Functionality::kRsaCrt4096 : Functionality::kRsaCrt2048;
  const OutputCheck check(crt, crt_key_bytes(key_, modulus_bytes / 2));  // by the public operation
  for (;;) {
    while (queue_.empty()) p.wait_for(queued_);  // task_sleep until the tick wakes it
    const Request request = queue_.front();
    queue_.pop_front();
    RequestRecord r = manager_.ledger().open("client" + std::to_string(request.client),
                                             "rsa" + std::to_string(key_.bits()) + "_sign", 1, modulus_bytes,
                                             request.issued.value());
    r.decision = "hardware";
    RequestScope scope(p, r);
    scope.start();
    Signature signature{request.digest, {}};
    std::string reason = "hsm firmware (" + p.name() + ")";
    try {
      signature.signature = sign(p, request, reason, r.slot);
      // The model's check, as for every request: the reference RSA operation on the same encoded digest
      // (OutputCheck: by the public operation).
      scope.verify(check.matches(pkcs1_sha256_encoding(request.digest, modulus_bytes), true, signature.signature),
                   "signature differs from the reference RSA signature");
    } catch (const std::exception& e) {
      scope.fail(e.what());
    }
    r.reason = reason;
    // The response (or an error frame of the same size) goes out byte by byte: SLIP encoding and the write of
    // each byte, the CPU polling the UART until the last one is on the line (HAL_UART_Transmit).
    models::CpuThread& cpu = p.cpu();
    const sc_time delivered =
        uart_.transfer(models::Uart::Direction::kToHost, params_.response_bytes, cpu.now());
    p.compute(params_.cycles.tx_per_byte * params_.response_bytes);
    cpu.busy_wait(delivered);
    scope.close();
    // Before the task took the request: the client's host work, the request on the line, then waiting for
    // the tick and a task (waiting for the CPU).
    r.breakdown[TimeUse::kCpuWait] -= (request.arrived - request.issued).value();
    r.breakdown[TimeUse::kHost] += (request.host_done - request.issued).value();
    r.breakdown[TimeUse::kBusTransfer] += (request.arrived - request.host_done).value();
    r.exec_ps = r.end_ps - r.start_ps;
    ++signatures_;
    manager_.ledger().record(r);
    if (on_signature_) on_signature_(signature);
    p.notify(*request.answered);
  }
}

std::vector<std::uint8_t> HsmFirmware::sign(Process& p, const Request& request, std::string& reason,
                                            std::string& slot) {
  const HsmCosts& c = steps_;
  models::CpuThread& cpu = p.cpu();
  p.compute(c.rx_per_byte * params_.request_bytes + c.dispatch + remainder_at_dispatch_);

  // The keystore lock covers the look-up and the copy of the wrapped key only.
  std::vector<std::uint8_t> blob(blob_bytes_);
  tlm::tlm_response_status status;
  {
    const Mutex::SpinGuard locked(keystore_, p);
    p.compute(c.keystore_fetch);
    status = cpu.read(params_.blob_address, blob.data(), static_cast<unsigned>(blob.size()));
    p.compute(c.copy_per_word * (blob.size() / 4));
  }
  if (status != tlm::TLM_OK_RESPONSE)
    throw DriverError("keystore read failed at " + models::hex(params_.blob_address));
  p.compute(c.kek);
  const std::vector<std::uint8_t> record_bytes = unwrap_key(p, blob, reason);

  p.compute(c.key_parse);
  const std::optional<KeyRecord> stored = parse_key(record_bytes);
  if (!stored) throw DriverError("unwrapped key record is malformed");
  const crypto::RsaKey& key = stored->key;
  const std::size_t k = (key.bits() + 7) / 8;
  p.compute(c.pad);
  const BigInt m = BigInt::from_bytes_be(pkcs1_sha256_encoding(request.digest, k));

  const auto [bf, ubf] = blinding_factors(p, key, reason);
  p.compute(c.blind);
  const BigInt blinded = crypto::mod(m * bf, key.n);

  p.compute(c.operand_unpack);
  const std::vector<std::uint8_t> halves = modexp_pair(p, *stored, blinded, reason, slot);
  p.compute(c.result_read);
  const std::size_t half = halves.size() / 2;
  const BigInt m1 = BigInt::from_bytes_be(halves.data(), half),
               m2 = BigInt::from_bytes_be(&halves[half], half);

  // Garner's recombination, then unblinding.
  p.compute(c.crt);
  const BigInt h = crypto::mod(key.qinv * (m1 - m2), key.p);
  const BigInt s_blinded = m2 + key.q * h;
  p.compute(c.unblind);
  const BigInt s = crypto::mod(s_blinded * ubf, key.n);
  p.compute(c.encode);
  return s.to_bytes_be(k);
}

std::vector<std::uint8_t> HsmFirmware::unwrap_key(Process& p, const std::vector<std::uint8_t>& blob,
                                                  std::string& reason) {
  const CoreLease aes = alloc(p, models::CoreKind::kAes128);
  reason += "; key unwrapped on " + aes.slot_name;
  models::CpuThread& cpu = p.cpu();
  std::optional<std::vector<std::uint8_t>> record;
  then_release([&] {
    // load_kek: the 256-bit KEK, CONFIG (KEYLEN, decrypting) and CTRL.INIT, on every unwrap (the core may
    // have held another key).
    for (std::size_t i = 0; i < kek_.size(); i += 4)
      cpu.write32(aes.base + reg::kKey + i, crypto::load_be32(&kek_[i]));
    cpu.write32(aes.base + reg::kConfig, reg::kConfigAes256);
    cpu.write32(aes.base + reg::kCtrl, reg::kCtrlInit);
    const std::uint64_t per_block = steps_.unwrap_per_block + remainder_per_block_;
    const crypto::BlockCipher do_block = [&](bool, const std::uint8_t* in, std::uint8_t* out) {
      p.compute(per_block);
      for (unsigned i = 0; i < 4; ++i)
        cpu.write32(aes.base + reg::kBlock + 4 * i, crypto::load_be32(in + 4 * i));
      cpu.write32(aes.base + reg::kCtrl, reg::kCtrlNext);
      io_wait(p, {aes.base}, reg::kStatusReady);
      for (unsigned i = 0; i < 4; ++i)
        crypto::store_be32(out + 4 * i, cpu.read32(aes.base + reg::kResult + 4 * i));
      ++aes_operations_;
    };
    record = crypto::key_unwrap_pad(do_block, blob);
  }, [&] { free(p, aes); });
  if (!record) throw DriverError("key blob does not unwrap (wrong KEK or damaged keystore)");
  return *record;
}

std::pair<BigInt, BigInt> HsmFirmware::blinding_factors(Process& p, const crypto::RsaKey& key,
                                                        std::string& reason) {
  const HsmCosts& c = steps_;
  const Mutex::SpinGuard locked(blinding_lock_, p);
  for (auto it = blinding_cache_.begin(); it != blinding_cache_.end(); ++it) {
    if (it->n != key.n) continue;
    // A hit: both factors squared mod n, which keeps bf = (ubf^-1)^e.
    p.compute(c.blinding_hit);
    it->bf = crypto::mod(it->bf * it->bf, key.n);
    it->ubf = crypto::mod(it->ubf * it->ubf, key.n);
    blinding_cache_.splice(blinding_cache_.begin(), blinding_cache_, it);
    ++blinding_hits_;
    reason += "; blinding factors cached";
    return {it->bf, it->ubf};
  }
  // A miss: a fresh r, bf = r^e mod n on a modexp core (hal_modexp; the core derives its Montgomery values),
  // ubf = r^-1 mod n in software.
  ++blinding_misses_;
  reason += "; fresh blinding factors";
  p.compute(c.blinding_miss);
  const std::size_t k = (key.bits() + 7) / 8, words = k / 4;
  std::mt19937_64 rng((params_.seed + 5) * 0xD1B54A32D192ED03ull ^ blinding_misses_);
  std::vector<std::uint8_t> r_bytes(k);
  for (auto& b : r_bytes) b = static_cast<std::uint8_t>(rng());
  const BigInt r = crypto::mod(BigInt::from_bytes_be(r_bytes), key.n);
  const CoreLease core = alloc(p, models::CoreKind::kModexp);
  BigInt bf;
  then_release(
      [&] {
        models::CpuThread& cpu = p.cpu();
        setup_modulus(cpu, core.base, key.n, words, 32 * words);
        cpu.write32(core.base + reg::kConfig, 0);
        write_number(cpu, core.base + reg::kMessage, r, words);
        const std::size_t e_words = (key.e.bit_length() + 31) / 32;
        write_number(cpu, core.base + reg::kExponent, key.e, e_words);
        cpu.write32(core.base + reg::kExponentBits, static_cast<std::uint32_t>(32 * e_words));
        cpu.write32(core.base + reg::kCtrl, 0);
        cpu.write32(core.base + reg::kCtrl, reg::kCtrlNext);
        io_wait(p, {core.base}, reg::kStatusReady | reg::kStatusValid);
        bf = read_result(cpu, core.base, words);
      },
      [&] { free(p, core); });
  const BigInt ubf = crypto::mod_inverse(r, key.n);
  if (params_.blinding_cache > 0) {
    if (blinding_cache_.size() >= params_.blinding_cache) blinding_cache_.pop_back();
    blinding_cache_.push_front(Blinding{key.n, bf, ubf});
  }
  return {bf, ubf};
}

// m^dP mod p and m^dQ mod q on two modexp cores at once (hal_modexp2 with the precomputed values): both set
// up and started before either is collected.
std::vector<std::uint8_t> HsmFirmware::modexp_pair(Process& p, const KeyRecord& record, const BigInt& blinded,
                                                   std::string& reason, std::string& slot) {
  const crypto::RsaKey& key = record.key;
  const std::size_t h = prime_words(key);
  const std::pair<CoreLease, CoreLease> pair = alloc2(p, models::CoreKind::kModexp);
  const CoreLease &first = pair.first, &second = pair.second;  // named (not bindings): the lambdas below use them
  slot = first.slot_name;
  reason += "; CRT halves on " + first.slot_name + " and " + second.slot_name;
  const ModexpHalf half_p{first.base, key.p, key.dp, record.p_coeff, record.p_factor};
  const ModexpHalf half_q{second.base, key.q, key.dq, record.q_coeff, record.q_factor};
  models::CpuThread& cpu = p.cpu();
  std::vector<std::uint8_t> out;
  then_release([&] {
    for (const ModexpHalf* a : {&half_p, &half_q}) setup_modulus(cpu, a->base, a->prime, h, 64 * h);
    for (const ModexpHalf* a : {&half_p, &half_q}) setup_calculation(cpu, *a, h, blinded);
    io_wait(p, {half_p.base, half_q.base}, reg::kStatusReady | reg::kStatusValid);
    out = read_result(cpu, half_p.base, h).to_bytes_be(4 * h);
    const auto q_part = read_result(cpu, half_q.base, h).to_bytes_be(4 * h);
    out.insert(out.end(), q_part.begin(), q_part.end());
  }, [&] {
    free(p, first);
    free(p, second);
  });
  return out;
}

CoreLease HsmFirmware::alloc(Process& p, models::CoreKind kind) {
  for (;;) {
    const Process::Ledger before = p.spent();
    p.compute(params_.cycles.core_alloc);
    ++alloc_attempts_;
    if (const auto core = manager_.slots().take_core(kind)) {
      manager_.slots().stamp(*core);
      return *core;
    }
    p.yield();
    count_as_waiting(p, before);
  }
}

std::pair<CoreLease, CoreLease> HsmFirmware::alloc2(Process& p, models::CoreKind kind) {
  for (;;) {
    const Process::Ledger before = p.spent();
    p.compute(params_.cycles.core_alloc);
    ++alloc_attempts_;
    const auto first = manager_.slots().take_core(kind);
    if (!first) {
      p.yield();
      count_as_waiting(p, before);
      continue;
    }
    p.compute(params_.cycles.core_alloc);
    if (const auto second = manager_.slots().take_core(kind)) {
      manager_.slots().stamp(*first);
      manager_.slots().stamp(*second);
      return {*first, *second};
    }
    free(p, *first);  // hal_core_free yields
    count_as_waiting(p, before);
  }
}

void HsmFirmware::free(Process& p, const CoreLease& core) {
  manager_.slots().give_back(p, core);
  p.yield();
}

void HsmFirmware::io_wait(Process& p, const std::vector<std::uint64_t>& bases, std::uint32_t mask) {
  io_.wait_status(p, bases.data(), bases.size(), mask, CoreDriver::PollPause::kYieldEachRound);
}

void HsmFirmware::statistics(double end_ms, std::vector<models::StatGroup>& out) const {
  models::StatGroup g{"hsm", "firmware", {}};
  const double seconds = end_ms / 1e3;
  const auto count = [](std::uint64_t n) { return static_cast<double>(n); };
  g.add("signatures", count(signatures()), "count", "signatures delivered")
      .add("signatures_per_s", seconds > 0 ? count(signatures()) / seconds : 0.0, "1/s",
           "signatures over simulated time")
      .add("aes_block_operations", count(aes_block_operations()), "count",
           "AES core operations of key unwrapping")
      .add("core_alloc_attempts", count(core_alloc_attempts()), "count",
           "attempts to take cores (one per core, or per pair, when they are free)")
      .add("status_reads", count(status_reads()), "count", "core status reads by the firmware")
      .add("blinding_hits", count(blinding_hits()), "count", "signatures blinded with cached factors")
      .add("blinding_misses", count(blinding_misses()), "count", "signatures that made fresh factors")
      .add("keystore_contended", count(keystore().contended()), "count",
           "times a task found the keystore locked")
      .add("keystore_wait_ms", keystore().wait_time().to_seconds() * 1e3, "ms",
           "time tasks waited for the keystore");
  out.push_back(std::move(g));
}

}  // namespace rsoc::runtime
