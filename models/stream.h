#pragma once
// Pipelined stream transfers (bitstream copies, DMA bursts).
// Timing contract: a payload that carries a StreamExtension is one chunk of a pipelined stream. Every stage
// on its path (memory, bus, configuration port, and the mover itself: CPU copy loop or DMA engine) adds its
// own occupancy for the chunk to the extension instead of to the annotated delay; the mover then advances by
// the slowest stage's total. A stage that appears twice (a bus crossed by the read and by the write) adds up.
// Waiting for a contended resource is still annotated on the delay as usual.

#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "models/energy.h"

namespace rsoc::models {

class StreamExtension : public tlm::tlm_extension<StreamExtension> {
 public:
  struct Stage {
    const void* owner;
    const char* name;  // not owned: a module's name (or any string that outlives the chunk)
    sc_core::sc_time occupancy;
  };

  // Adds `occupancy` to the stage identified by `owner`.
  void add(const void* owner, const char* name, const sc_core::sc_time& occupancy);
  // What `owner` has accumulated so far in this chunk (zero when it has not taken part yet).
  sc_core::sc_time occupancy_of(const void* owner) const;
  // The slowest stage (the first of equals), nullptr when there is none.
  const Stage* slowest_stage() const;
  // The slowest stage's accumulated occupancy, and its name.
  sc_core::sc_time slowest() const;
  std::string slowest_name() const;
  const std::vector<Stage>& stages() const { return stages_; }
  // Forgets the stages (a new chunk of the same stream).
  void clear() { stages_.clear(); }

  tlm::tlm_extension_base* clone() const override { return new StreamExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    const auto& o = static_cast<const StreamExtension&>(other);
    stages_ = o.stages_;
    burst = o.burst;
    last_chunk = o.last_chunk;
  }

  // Which stream the chunk belongs to (stream_words numbers the streams of a process from 1) and whether it
  // is the stream's last chunk: timelines draw a stream as one burst on every bus it crosses.
  std::uint64_t burst = 0;
  bool last_chunk = false;

 private:
  std::vector<Stage> stages_;
};

// Returns the stream extension of `trans`, or nullptr when it is an ordinary access.
inline StreamExtension* stream_of(tlm::tlm_generic_payload& trans) {
  StreamExtension* ext = nullptr;
  trans.get_extension(ext);
  return ext;
}

}  // namespace rsoc::models

#include <functional>

namespace rsoc::models {

struct StreamResult {
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  std::uint64_t words_moved = 0;
  std::string bottleneck;  // name of the slowest stage of the last chunk
};

// Moves `words` 32-bit words from `src` to `dst` through `socket` as pipelined chunks of at most
// `chunk_words`: each chunk is a read burst then a write burst sharing one StreamExtension, with the mover's
// own stage
// (`mover_word_time` per word) entered in between. `delay` advances by each chunk's slowest stage (plus any
// waiting for contended resources); `after_chunk(delay)` lets the mover synchronise between chunks. With
// `src_fixed` every chunk is read from `src`, with `dst_fixed` written at `dst` (FIFO windows). The chunks'
// energy is charged to `payer` (models/energy.h; null: nobody).
StreamResult stream_words(tlm::tlm_base_initiator_socket<>& socket, const void* mover,
                          const std::string& mover_name, std::uint64_t src, bool src_fixed, std::uint64_t dst,
                          bool dst_fixed, std::uint64_t words, const sc_core::sc_time& mover_word_time,
                          unsigned chunk_words, sc_core::sc_time& delay,
                          const std::function<void(sc_core::sc_time&)>& after_chunk,
                          EnergyAccount* payer = nullptr);

}  // namespace rsoc::models
