#pragma once
// The firmware of a hardware security module that signs with RSA (scenarios/hsm_rsa2048.md: Cryptech's libhal
// and stm32 firmware as of May 2018), an application on the modeled OS: RPC tasks under the cooperative
// scheduler of the HSM's CPU serve clients on hosts that send sign requests over one UART. The cores are
// those of the platform's static slots, handed out by the runtime's manager as libhal's core library does.
// The firmware is a single-core tasker: its tasks run on the scheduler's first hardware thread (thread 0 of
// the scenario's first CPU), whatever other CPUs the platform has (they run the scenario's other processes).
//
// A client (tests/parallel-signatures.py: every client a coroutine of one host process, no think time) calls
// sign: its host work, the request over the UART, then it waits for the response; its latency runs from the
// call to the answer. The firmware takes received bytes from the UART on its tick (rx_tick) and wakes a task.
// For every signature a task, step by step along the firmware's code path (every step's CPU cycles in
// HsmCosts; none yields unless said):
//   1. decodes the request (rx_per_byte per byte, dispatch);
//   2. fetches the wrapped key: the keystore lock (task_mutex_lock: yield while taken) around the index
//      search and the copy only (ks.c since May 2018), then the KEK;
//   3. unwraps it (RFC 5649) on any free AES core: hal_core_alloc takes the least recently used idle one (an
//      attempt of core_alloc cycles; none free: yield and retry), the KEK is loaded, and every AES block is
//      do_block: 4 data words and CTRL written, a yield before every status read (hal_io_wait), 4 words
//      read; unwrap_per_block cycles around each; freeing the core yields (hal_core_free);
//   4. parses the key (key_parse), encodes the digest (pad);
//   5. blinds: the blinding-factor cache (rsa.c, by modulus, least recently used replaced; its own task
//      lock): a hit squares both factors mod n (blinding_hit); a miss draws r, computes r^e mod n on one
//      modexp core (hal_modexp) and r^-1 mod n (blinding_miss); then m * bf mod n (blind);
//   6. runs m^dP mod p and m^dQ mod q on two modexp cores at once (hal_modexp2): operand_unpack; the pair
//      taken as hal_core_alloc2 does (the first core, then the second; the second not free: the first is
//      freed, which yields, and the task tries again); per core MODULUS_BITS and the prime, then the
//      precomputed Montgomery coefficient and factor, the mode, the message unreduced, the exponent and its
//      length, CTRL zero and next (8h + 5 word writes for an h-word prime: 261 for RSA-2048); then rounds of
//      a yield and a status read of each core not yet done (hal_io_wait2), the h result words of each read
//      (h + 1 reads with BUFFER_BITS), both cores freed (two yields); result_read;
//   7. recombines (crt: Garner) and unblinds (unblind), encodes the response (encode);
//   8. sends it byte by byte, polling the UART (HAL_UART_Transmit): tx_per_byte each, and the CPU busy until
//      the last byte is on the line.
// The calibrated remainder runs where HsmParams::remainder_at puts it (RemainderAt, below).
// Every value is computed for real: the signature is m^d mod n with the key the firmware unwrapped from
// memory, checked against the reference RSA operation like every request's output (RequestScope).
// Timing contract: software steps cost their cycles on the CPU under the scheduler; device work costs what
// the accesses do over the bus models; the UART carries bytes at its baud rate, one sender at a time per
// direction; a yield costs the scheduler's yield_cycles (and a switch its context_switch_cycles).

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/crypto/modexp.h"
#include "models/crypto/rsa_key.h"
#include "models/name_table.h"
#include "models/statistics.h"
#include "models/uart.h"
#include "runtime/drivers.h"
#include "runtime/manager.h"
#include "runtime/mutex.h"
#include "runtime/request_record.h"
#include "runtime/scheduler.h"

namespace rsoc::runtime {

// A key as the keystore holds it: the RSA key and, as Cryptech's keystore keeps them with the key, the
// Montgomery coefficient and factor of each prime (crypto::montgomery_coefficient / montgomery_factor at the
// prime's word count) that the modexp cores are given instead of deriving them on every signature.
struct KeyRecord {
  crypto::RsaKey key;
  crypto::BigInt p_coeff, p_factor, q_coeff, q_factor;
};
// The record before wrapping: each of n, e, d, p, q, dP, dQ, qInv, pC, pF, qC, qF as a 2-byte big-endian
// length and the big-endian number, zero-padded to `bytes` (the keystore's record size); the Montgomery
// values are computed here, when the key is stored. Throws std::invalid_argument when the key does not fit.
std::vector<std::uint8_t> serialize_key(const crypto::RsaKey& key, std::size_t bytes);
std::optional<KeyRecord> parse_key(const std::vector<std::uint8_t>& record);

// EMSA-PKCS1-v1_5 encoding of a SHA-256 digest for a `modulus_bytes` modulus (RFC 8017 section 9.2).
std::vector<std::uint8_t> pkcs1_sha256_encoding(const std::array<std::uint8_t, 32>& digest,
                                                std::size_t modulus_bytes);

// CPU cycles of the firmware's software, by step of its code path (see the header comment).
struct HsmCosts {
  std::uint64_t rx_per_byte = 0;
  std::uint64_t dispatch = 0;
  std::uint64_t keystore_fetch = 0;
  std::uint64_t copy_per_word = 0;
  std::uint64_t kek = 0;
  std::uint64_t unwrap_per_block = 0;
  std::uint64_t key_parse = 0;
  std::uint64_t pad = 0;
  std::uint64_t blinding_hit = 0;
  std::uint64_t blinding_miss = 0;
  std::uint64_t blind = 0;
  std::uint64_t operand_unpack = 0;
  std::uint64_t core_alloc = 300;
  std::uint64_t result_read = 0;
  std::uint64_t crt = 0;
  std::uint64_t unblind = 0;
  std::uint64_t encode = 0;
  std::uint64_t tx_per_byte = 0;
  std::uint64_t remainder = 0;
};

// Where the calibrated remainder (HsmCosts::remainder, the ARM time per signature the derivations leave
// unexplained) runs, along the code path:
// - kBignum: in the bignum steps of a signature (key_parse, blinding_hit, blind, operand_unpack, result_read,
//   crt, unblind): each takes (1 + remainder / their sum) times its cycles; none yields;
// - kUnwrap: spread evenly over the AES blocks of the key unwrap, one share before each block (a yield comes
//   before every status read, so other tasks run between the shares);
// - kDispatch: as one step at dispatch, before the keystore (no yield).
enum class RemainderAt { kBignum, kUnwrap, kDispatch };
inline constexpr models::NameTable<RemainderAt, 3> kRemainderAtNames{
    {{{RemainderAt::kBignum, "bignum"},
      {RemainderAt::kUnwrap, "unwrap"},
      {RemainderAt::kDispatch, "dispatch"}}}};
// The bignum steps of a signature that RemainderAt::kBignum slows down. A blinding-cache miss (once per key
// while the HSM runs) keeps its estimate: the calibration's signatures found the cache warm.
inline std::array<std::uint64_t*, 7> bignum_steps(HsmCosts& c) {
  return {&c.key_parse, &c.blinding_hit, &c.blind, &c.operand_unpack, &c.result_read, &c.crt, &c.unblind};
}

struct HsmParams {
  unsigned rpc_tasks = 4;
  int task_priority = 10;
  unsigned clients = 1;
  std::uint64_t signatures_per_client = 20;
  sc_core::sc_time host_time{20, sc_core::SC_MS};  // per signature, on the client's host
  double host_jitter = 0;  // each host_time drawn uniformly in host_time * (1 +- host_jitter)
  sc_core::sc_time rx_tick{1, sc_core::SC_MS};  // received bytes are taken on this tick (zero: at once)
  std::uint64_t request_bytes = 80, response_bytes = 280;
  unsigned blinding_cache = 2;  // entries; 0: fresh blinding factors every time
  HsmCosts cycles;
  RemainderAt remainder_at = RemainderAt::kBignum;
  DriverCosts io;                  // poll_loop_cycles around a status read, max_polls before a wait fails
  std::uint64_t blob_address = 0;  // the wrapped key in memory
  std::uint64_t seed = 1;
};

class HsmFirmware final : public models::StatisticsSource {
 public:
  // A signature, for tests that check it.
  struct Signature {
    std::array<std::uint8_t, 32> digest;
    std::vector<std::uint8_t> signature;  // modulus-sized, big-endian
  };

  // The wrapped key (`blob_bytes` bytes) is stored at params.blob_address; `kek` is the AES-256
  // key-encryption key (the firmware reads it from its master key memory). `key` is the private key the
  // model checks every signature against (the firmware knows only the wrapped one).
  HsmFirmware(Scheduler& scheduler, Manager& manager, models::Uart& uart, const HsmParams& params,
              const crypto::RsaKey& key, std::size_t blob_bytes, const std::array<std::uint8_t, 32>& kek);

  // Every signature with its digest; set before start().
  void on_signature(std::function<void(const Signature&)> f) { on_signature_ = std::move(f); }
  // Starts the RPC tasks and the clients; when the last client has its last signature, `done` runs.
  void start(std::function<void()> done);

  const crypto::RsaKey& key() const { return key_; }
  const Mutex& keystore() const { return keystore_; }
  std::uint64_t signatures() const { return signatures_; }
  std::uint64_t aes_block_operations() const { return aes_operations_; }
  std::uint64_t core_alloc_attempts() const { return alloc_attempts_; }
  std::uint64_t status_reads() const { return io_.polls(); }
  std::uint64_t blinding_hits() const { return blinding_hits_; }
  std::uint64_t blinding_misses() const { return blinding_misses_; }
  // StatisticsSource: the `hsm` group (signatures, core operations, blinding, the keystore's lock).
  void statistics(double end_ms, std::vector<models::StatGroup>& out) const override;
  models::StatisticsRank statistics_rank() const override { return models::StatisticsRank::kHsm; }

 private:
  struct Request {
    unsigned client;
    sc_core::sc_time issued, host_done, arrived;  // the call, the end of the host work, the last byte in
    std::array<std::uint8_t, 32> digest;
    sc_core::sc_event* answered;  // notified when the response has reached the host
  };
  struct Blinding {  // one entry of the blinding-factor cache
    crypto::BigInt n, bf, ubf;
  };
  void client(unsigned index);
  void rpc_task(Process& p);
  // The signature of `request` along the firmware's code path; adds what it used to `reason`.
  std::vector<std::uint8_t> sign(Process& p, const Request& request, std::string& reason, std::string& slot);
  std::vector<std::uint8_t> unwrap_key(Process& p, const std::vector<std::uint8_t>& blob,
                                       std::string& reason);
  std::pair<crypto::BigInt, crypto::BigInt> blinding_factors(Process& p, const crypto::RsaKey& key,
                                                             std::string& reason);
  std::vector<std::uint8_t> modexp_pair(Process& p, const KeyRecord& record, const crypto::BigInt& blinded,
                                        std::string& reason, std::string& slot);

  // libhal's core library over the manager's leases: hal_core_alloc (any idle core of `kind`, least
  // recently used first; none: yield and retry), hal_core_alloc2 (two cores of `kind`), hal_core_free
  // (which yields). Failed attempts and the turns they wait through count as kSlotWait.
  CoreLease alloc(Process& p, models::CoreKind kind);
  std::pair<CoreLease, CoreLease> alloc2(Process& p, models::CoreKind kind);
  void free(Process& p, const CoreLease& core);
  // hal_io_wait2: rounds of a yield, then a status read of each core (of `bases`) not done yet, until every
  // one shows `mask`: the platform's driver wait (CoreDriver::wait_status, PollPause::kYieldEachRound) with
  // the firmware's costs. Reads that find a core busy count as kCoreCompute.
  void io_wait(Process& p, const std::vector<std::uint64_t>& bases, std::uint32_t mask);

  Scheduler& scheduler_;
  Manager& manager_;
  models::Uart& uart_;
  HsmParams params_;
  CoreDriver io_;  // the status waits (params_.io)
  crypto::RsaKey key_;
  std::size_t blob_bytes_;
  // The bignum steps' cycles with their share of the remainder (RemainderAt::kBignum), the remainder's share
  // per AES block of the unwrap (kUnwrap) and at dispatch (kDispatch).
  HsmCosts steps_;
  std::uint64_t remainder_per_block_ = 0, remainder_at_dispatch_ = 0;
  std::vector<std::uint8_t> kek_;
  std::function<void(const Signature&)> on_signature_;
  Mutex keystore_, blinding_lock_;
  std::list<Blinding> blinding_cache_;  // most recently used first
  std::deque<Request> queue_;
  sc_core::sc_event queued_;
  std::function<void()> done_;
  unsigned clients_left_ = 0;
  std::uint64_t signatures_ = 0, aes_operations_ = 0, alloc_attempts_ = 0;
  std::uint64_t blinding_hits_ = 0, blinding_misses_ = 0;
};

}  // namespace rsoc::runtime
