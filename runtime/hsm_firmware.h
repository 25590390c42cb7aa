#pragma once
// The firmware of a hardware security module that signs with RSA-2048 (REFERENCE.md section 3): clients on
// hosts send sign requests over one UART; RPC tasks of the modeled OS (a cooperative scheduler on the HSM's
// CPU) serve them. For every signature a task
//   1. takes the request (rpc_cycles, plus uart_cycles_per_byte per byte received),
//   2. locks the keystore, reads the wrapped private-key blob from memory (a burst read, copy_cycles_per_word
//      per word), unwraps it with AES key wrap (RFC 5649) — every AES block operation on the AES core through
//      the core driver (PIO: words over the bus, status polls that yield) — and unlocks the keystore,
//   3. parses the key (parse_cycles), blinds the message (blinding_cycles: m * r^e mod n),
//   4. runs the two CRT halves m^dP mod p and m^dQ mod q on the modexp cores as Cryptech's hal_modexp2 does —
//      in parallel when there are two (set both up, start both, then collect both), one after the other on
//      one core. Per half: BUFFER_BITS read, MODULUS_WORDS and the prime, the prime's Montgomery coefficient
//      and factor and the blinded message unreduced (CONFIG.WIDE_MESSAGE | PRECALC), each in modulus-sized
//      buffers (2h words for an h-word prime), the exponent and its length, CTRL zero and next: 8h + 5 word
//      writes (261 for RSA-2048), then the status polled and the h result words read (h + 1 reads),
//   5. recombines (crt_cycles: Garner), unblinds (unblinding_cycles), and
//   6. sends the signature back (uart_cycles_per_byte per byte, then the task waits for the UART).
// Every value is computed for real: the signature is m^d mod n with the key the firmware unwrapped, checked
// by the tests with OpenSSL. A client is a closed loop on its own host: host_time of host work, the request
// over the UART, the wait for the response. Timing contract: software steps cost their cycles under the
// scheduler; device work costs what the drivers do over the bus models; the UART carries bytes at its baud
// rate, one sender at a time per direction.

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <systemc>
#include <vector>

#include "models/crypto/modexp.h"
#include "models/uart.h"
#include "runtime/drivers.h"
#include "runtime/mutex.h"
#include "runtime/request_record.h"
#include "runtime/rsa_key.h"
#include "runtime/scheduler.h"

namespace rsoc::runtime {

// A key as the keystore holds it: the RSA key and, as Cryptech's keystore keeps them with the key, the
// Montgomery coefficient and factor of each prime (crypto::montgomery_coefficient / montgomery_factor at the
// prime's word count) that the modexp cores are given instead of deriving them on every signature.
struct KeyRecord {
  RsaKey key;
  crypto::BigInt p_coeff, p_factor, q_coeff, q_factor;
};
// The record before wrapping: each of n, e, d, p, q, dP, dQ, qInv, pC, pF, qC, qF as a 2-byte big-endian
// length and the big-endian number, zero-padded to `bytes` (the keystore's record size); the Montgomery
// values are computed here, when the key is stored. Throws std::invalid_argument when the key does not fit.
std::vector<std::uint8_t> serialize_key(const RsaKey& key, std::size_t bytes);
std::optional<KeyRecord> parse_key(const std::vector<std::uint8_t>& record);

// EMSA-PKCS1-v1_5 encoding of a SHA-256 digest for a `modulus_bytes` modulus (RFC 8017 section 9.2).
std::vector<std::uint8_t> pkcs1_sha256_encoding(const std::array<std::uint8_t, 32>& digest,
                                                std::size_t modulus_bytes);

struct HsmCosts {                          // CPU cycles
  std::uint64_t rpc_cycles = 0;            // per request: framing, dispatch
  std::uint64_t uart_cycles_per_byte = 0;  // per byte received or sent
  std::uint64_t copy_cycles_per_word = 0;  // copying the key blob
  std::uint64_t parse_cycles = 0;
  std::uint64_t blinding_cycles = 0;
  std::uint64_t crt_cycles = 0;
  std::uint64_t unblinding_cycles = 0;
  std::uint64_t core_alloc_cycles = 300;  // one attempt to take the modexp cores
};

struct HsmParams {
  unsigned rpc_tasks = 4;
  int task_priority = 10;
  unsigned clients = 1;
  std::uint64_t signatures_per_client = 10;
  sc_core::sc_time host_time{20, sc_core::SC_MS};  // per signature, on the client's own host
  double host_jitter = 0;  // each host_time drawn uniformly in host_time * (1 +- host_jitter)
  std::uint64_t request_bytes = 80, response_bytes = 280;
  HsmCosts cycles;
  std::uint64_t aes_base = 0;               // the AES core
  std::vector<std::uint64_t> modexp_bases;  // one or more modexp cores
  std::string aes_slot;                     // names, for the records
  std::vector<std::string> modexp_slots;
  std::uint64_t blob_address = 0;  // the wrapped key in memory
  std::uint64_t seed = 1;
};

class HsmFirmware {
 public:
  // A signature, for tests that check it.
  struct Signature {
    std::array<std::uint8_t, 32> digest;
    std::vector<std::uint8_t> signature;  // modulus-sized, big-endian
  };
  using Sink = std::function<void(const RequestRecord&, const Signature&)>;

  // The wrapped key (`blob_bytes` bytes) is stored at params.blob_address; `kek` is the AES-128
  // key-encryption key the AES core is loaded with.
  HsmFirmware(Scheduler& scheduler, models::Uart& uart, CoreDriver& driver, const HsmParams& params,
              const RsaKey& public_key, std::size_t blob_bytes, const std::array<std::uint8_t, 16>& kek,
              Sink sink);

  // Starts the RPC tasks and the clients; when the last client has its last signature, `done` runs.
  void start(std::function<void()> done);

  const Mutex& keystore() const { return keystore_; }
  std::uint64_t signatures() const { return signatures_; }
  std::uint64_t aes_block_operations() const { return aes_operations_; }
  std::uint64_t modexp_alloc_attempts() const { return alloc_attempts_; }

 private:
  struct Request {
    unsigned client;
    std::uint64_t id;
    sc_core::sc_time issued, arrived;
    std::array<std::uint8_t, 32> digest;
    sc_core::sc_event* answered;  // notified when the response has reached the host
    sc_core::sc_time* answered_at;
  };
  void client(unsigned index);
  void rpc_task(Process& p);
  // The signature of `request` (the whole firmware path); fills the record.
  std::vector<std::uint8_t> sign(Process& p, const Request& request, RequestRecord& record);
  std::vector<std::uint8_t> modexp_pair(Process& p, const KeyRecord& record, const crypto::BigInt& blinded);
  // Cores are allocated to one task at a time (the AES core under the keystore lock): two modexp cores at
  // once (one when the FPGA has only one), as Cryptech's hal_core_alloc2 does it: an attempt costs
  // core_alloc_cycles; a task that finds them taken yields and tries again when the scheduler comes back to
  // it (so the cores go to the waiting tasks in turn, and every attempt costs the CPU). Failed attempts and
  // the turns of others they wait through count as kSlotWait.
  std::vector<std::size_t> allocate_modexp(Process& p);
  void release_modexp(const std::vector<std::size_t>& cores);

  Scheduler& scheduler_;
  models::Uart& uart_;
  CoreDriver& driver_;
  HsmParams params_;
  RsaKey public_key_;
  std::size_t blob_bytes_;
  std::vector<std::uint8_t> kek_;
  std::vector<bool> modexp_busy_;
  Sink sink_;
  Mutex keystore_;
  std::deque<Request> queue_;
  sc_core::sc_event queued_;
  std::function<void()> done_;
  unsigned clients_left_ = 0;
  std::uint64_t next_id_ = 0, signatures_ = 0, aes_operations_ = 0, alloc_attempts_ = 0;
};

}  // namespace rsoc::runtime
