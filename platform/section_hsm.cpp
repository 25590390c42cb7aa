// Configuration unit: workload.hsm: the HSM firmware, its costs, its key and its clients.
// Its schema and its resolution (platform/scenario_sections.h).
#include <algorithm>

#include "platform/scenario_sections.h"
#include "runtime/hsm_firmware.h"
#include "runtime/rsa_work.h"

namespace rsoc::platform::sections {

// Workload.hsm: the HSM firmware and its clients.
Schema hsm_schema() {
  // The firmware's software, step by step along its code path (scenarios/hsm_rsa2048.md): CPU cycles, none of
  // them yielding unless the description says so.
  auto step = [](long long def, const char* what) { return cycles(def, 1000000000000LL).doc(what); };
  Schema hsm_cycles = Schema::object({
      {"rx_per_byte", step(0, "per request byte: SLIP decoding in the tick interrupt")},
      {"dispatch", step(0, "RPC decoding (XDR), handle look-ups, dispatch to the signing code")},
      {"keystore_fetch", step(0, "keystore index search, under the keystore lock")},
      {"copy_per_word",
       step(0, "copying the wrapped key out of the keystore, per 32-bit word (under the lock)")},
      {"kek", step(0, "reading the key-encryption key from the master key memory")},
      {"unwrap_per_block",
       step(0,
            "key unwrap loop per AES block operation (counter XOR, loop, calls); runs between the "
            "yields of the block's status reads")},
      {"key_parse", step(0, "DER decoding of the unwrapped key into bignums")},
      {"pad", step(0, "PKCS#1 v1.5 encoding of the digest")},
      {"blinding_hit", step(0, "blinding factors from the cache: two squarings mod n")},
      {"blinding_miss",
       step(0, "fresh blinding factors: random r and r^-1 mod n (r^e mod n runs on a modexp core)")},
      {"blind", step(0, "blinding the message: m * bf mod n")},
      {"operand_unpack",
       step(0, "the message, exponents and primes from bignums to the cores' byte buffers")},
      {"core_alloc", step(300,
                          "one attempt to take cores (the core table searched in a critical section); a "
                          "task that finds none yields and tries again")},
      {"result_read", step(0, "the cores' results back into bignums")},
      {"crt", step(0, "CRT recombination (Garner)")},
      {"unblind", step(0, "unblinding (s * ubf mod n) and the signature to bytes")},
      {"encode", step(0, "RPC response encoding (XDR)")},
      {"tx_per_byte", step(0,
                           "per response byte: SLIP encoding and the UART write (then the CPU polls the "
                           "UART, busy, until the byte is on the line)")},
      {"remainder", step(0,
                         "calibrated: what the firmware does per signature beyond the steps above (runs "
                         "where remainder_at puts it)")},
  });

  return Schema::object({
      {"clients",
       Schema::integer().min(1).max(4096).default_value(1).doc("client hosts, each a closed loop")},
      {"signatures_per_client",
       Schema::integer().min(1).max(1e9).default_value(20).doc("signatures each client asks for")},
      {"rpc_tasks", Schema::integer().min(1).max(256).default_value(4).doc("RPC tasks of the firmware")},
      {"task_priority", Schema::integer().min(0).max(99).default_value(10).doc("priority of the RPC tasks")},
      {"host_us", Schema::number().unit("us").min(0).max(1e12).default_value(20000.0).doc(
                      "client-side work per signature (host software, framing, the serial link's driver), "
                      "inside the latency the client measures")},
      {"host_jitter", Schema::number().min(0).max(1).default_value(0.0).doc(
                          "spread of each client's host work: uniform in host_us * (1 +- host_jitter), drawn "
                          "from the seed")},
      {"uart", Schema::string().doc("name of the UART (platform.uarts) that links the clients and the HSM")},
      {"rx_tick_us",
       Schema::number().unit("us").min(0).max(1e9).default_value(1000.0).doc(
           "received bytes are taken from the UART's DMA buffer on this tick: a request is seen "
           "at the first tick after its last byte; 0: at once")},
      {"request_bytes", Schema::integer().unit("bytes").min(1).max(1e9).default_value(80).doc(
                            "a sign request on the line (framing included)")},
      {"response_bytes", Schema::integer().unit("bytes").min(1).max(1e9).default_value(280).doc(
                             "a signature response on the line (framing included)")},
      {"key_bits", Schema::integer().unit("bits").min(2048).max(4096).default_value(2048).doc(
                       "RSA modulus size: 2048 or 4096 (the CRT halves run as modexp of half the size)")},
      {"key_record_bytes", Schema::integer().unit("bytes").min(64).max(1 << 20).default_value(3290).doc(
                               "the keystore record of the private key, before wrapping")},
      {"keystore_memory", Schema::string().doc("memory holding the wrapped key")},
      {"keystore_address", Schema::address().doc("CPU address of the wrapped key in that memory")},
      {"blinding_cache", Schema::integer().min(0).max(64).default_value(2).doc(
                             "entries of the blinding-factor cache (by modulus, least recently used "
                             "replaced); 0: fresh factors for every signature")},
      {"cycles", hsm_cycles.doc("CPU cycles of the firmware's software, by step")},
      {"remainder_at", Schema::enumeration(runtime::kRemainderAtNames.names())
                           .default_value("bignum")
                           .doc("where cycles.remainder runs: bignum (the bignum steps, each slower in "
                                "proportion), unwrap (a share before every AES block of the key unwrap) or "
                                "dispatch (one step before the keystore)")},
  });
}

std::pair<std::size_t, unsigned> Resolver::static_cores(const ScenarioParams& p,
                                                        models::CoreKind kind) const {
  std::size_t n = 0;
  unsigned widest = 4096;
  for (const auto& sl : p.slots)
    for (const auto& c : p.cores)
      if (!sl.params.reconfigurable && c.name == sl.core && c.params.kind == kind) {
        ++n;
        widest = std::min(widest, c.params.max_operand_bits);
      }
  return {n, widest};
}

void Resolver::hsm(ScenarioParams& p) {
  const json& h = doc_["workload"]["hsm"];
  if (h.is_null()) return;
  const std::string ptr = "/workload/hsm";
  HsmSpec s;
  runtime::HsmParams& hp = s.params;
  hp.clients = u(h["clients"]);
  hp.signatures_per_client = u64(h["signatures_per_client"]);
  hp.rpc_tasks = u(h["rpc_tasks"]);
  hp.task_priority = static_cast<int>(h["task_priority"].get<std::int64_t>());
  hp.host_time = sc_time(h["host_us"].get<double>(), sc_core::SC_US);
  hp.host_jitter = h["host_jitter"].get<double>();
  hp.rx_tick = sc_time(h["rx_tick_us"].get<double>(), sc_core::SC_US);
  hp.request_bytes = u64(h["request_bytes"]);
  hp.response_bytes = u64(h["response_bytes"]);
  hp.blinding_cache = u(h["blinding_cache"]);
  hp.remainder_at = runtime::kRemainderAtNames.at(h["remainder_at"].get<std::string>());
  hp.io = p.runtime.driver;  // the firmware's status waits: poll_loop_cycles, max_polls, the watchdog
  hp.seed = p.seed;
  hsm_costs(h["cycles"], hp, ptr);
  s.uart = h["uart"];
  known("uarts", s.uart, ptr + "/uart", "UART");
  hsm_key(p, h, ptr, s);
  p.hsm = s;
}

void Resolver::hsm_costs(const json& c, runtime::HsmParams& hp, const std::string& ptr) {
  runtime::HsmCosts& k = hp.cycles;
  for (auto [key, field] : std::initializer_list<std::pair<const char*, std::uint64_t runtime::HsmCosts::*>>{
           {"rx_per_byte", &runtime::HsmCosts::rx_per_byte},
           {"dispatch", &runtime::HsmCosts::dispatch},
           {"keystore_fetch", &runtime::HsmCosts::keystore_fetch},
           {"copy_per_word", &runtime::HsmCosts::copy_per_word},
           {"kek", &runtime::HsmCosts::kek},
           {"unwrap_per_block", &runtime::HsmCosts::unwrap_per_block},
           {"key_parse", &runtime::HsmCosts::key_parse},
           {"pad", &runtime::HsmCosts::pad},
           {"blinding_hit", &runtime::HsmCosts::blinding_hit},
           {"blinding_miss", &runtime::HsmCosts::blinding_miss},
           {"blind", &runtime::HsmCosts::blind},
           {"operand_unpack", &runtime::HsmCosts::operand_unpack},
           {"core_alloc", &runtime::HsmCosts::core_alloc},
           {"result_read", &runtime::HsmCosts::result_read},
           {"crt", &runtime::HsmCosts::crt},
           {"unblind", &runtime::HsmCosts::unblind},
           {"encode", &runtime::HsmCosts::encode},
           {"tx_per_byte", &runtime::HsmCosts::tx_per_byte},
           {"remainder", &runtime::HsmCosts::remainder}})
    k.*field = u64(c[key]);
  if (hp.remainder_at == runtime::RemainderAt::kBignum && k.remainder > 0) {
    std::uint64_t bignum = 0;
    for (const std::uint64_t* step : runtime::bignum_steps(k)) bignum += *step;
    if (bignum == 0)
      issues_.add(ptr + "/remainder_at",
                  "bignum: the remainder (" + std::to_string(k.remainder) +
                      " cycles) runs in the bignum steps in proportion to their cycles, and "
                      "cycles.key_parse, blinding_hit, blind, operand_unpack, result_read, crt and unblind "
                      "are all 0; expected unwrap or dispatch, or cycles for those steps");
  }
}

void Resolver::hsm_key(const ScenarioParams& p, const json& h, const std::string& ptr, HsmSpec& s) {
  runtime::HsmParams& hp = s.params;
  s.key_bits = u(h["key_bits"]);
  const bool key_bits_ok = s.key_bits == 2048 || s.key_bits == 4096;
  if (!key_bits_ok)
    issues_.add(
        ptr + "/key_bits",
        "expected 2048 or 4096 (the modexp cores take the message unreduced, at most 4096 bits), got " +
            std::to_string(s.key_bits));
  s.key_record_bytes = u64(h["key_record_bytes"]);
  // n, d: the modulus size; p, q, dP, dQ, qInv and the primes' Montgomery coefficients and factors: half of
  // it; e: 3 bytes; a 2-byte length each.
  const std::size_t needed = 2 * s.key_bits / 8 + 9 * s.key_bits / 16 + 3 + 24;
  if (s.key_record_bytes < needed)
    issues_.add(ptr + "/key_record_bytes",
                "a " + std::to_string(s.key_bits) + "-bit key needs a record of at least " +
                    std::to_string(needed) + " bytes, got " + std::to_string(s.key_record_bytes));
  // The firmware's core library takes the cores of the platform's static slots: an AES core unwraps the
  // key; the CRT pair needs two modexp cores that take the unreduced message.
  if (static_cores(p, models::CoreKind::kAes128).first == 0)
    issues_.add(ptr,
                "the HSM firmware unwraps keys on an AES core: no static slot (reconfigurable: false) "
                "holds an aes128 core");
  const auto [modexp, width] = static_cores(p, models::CoreKind::kModexp);
  if (modexp < 2)
    issues_.add(ptr, "the HSM firmware runs the CRT halves on two modexp cores at once (hal_modexp2): " +
                         std::to_string(modexp) + " static slot" + (modexp == 1 ? " holds" : "s hold") +
                         " a modexp core");
  else if (key_bits_ok && width < s.key_bits)
    issues_.add(ptr + "/key_bits", "a modexp core of the platform takes at most " + std::to_string(width) +
                                       "-bit operands; the unreduced message of a " +
                                       std::to_string(s.key_bits) + "-bit key needs " +
                                       std::to_string(s.key_bits));
  // The wrapped key (RFC 5649: the record rounded up to 8 bytes, plus 8) inside its memory.
  const std::uint64_t blob = 8 * ((s.key_record_bytes + 7) / 8 + 1);
  const std::string memory = h["keystore_memory"];
  hp.blob_address = u64(h["keystore_address"]);
  if (known("memories", memory, ptr + "/keystore_memory", "memory"))
    for (const auto& m : p.memories)
      if (m.name == memory && !inside(hp.blob_address, blob, m.base, m.params.size_bytes))
        issues_.add(ptr + "/keystore_address", "the wrapped key " + span(hp.blob_address, blob) +
                                                   " lies outside memory \"" + memory + "\"");
}

}  // namespace rsoc::platform::sections
