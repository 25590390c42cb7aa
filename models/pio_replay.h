#pragma once
// PIO record and replay: a driver's loop over the cipher blocks of one block (write a cipher block into a
// core, start it, poll its status, read its result) simulated word by word once and repeated for the other
// cipher blocks without a transaction per word.
// Timing contract: while an initiator records, the payload of each of its accesses carries a
// PioReplayExtension naming the recording, and every model on the path notes what the access did to it (a
// bus: the interval it booked and the words; a core: the register, the access's time and the word written).
// A replay is one payload that stands for one more repetition of the recorded accesses, `shift` later, with
// a new cipher block: every model on the path does to its state what the recorded accesses did — counters
// and busy time, its calendar booked at the recorded times plus the shift, a core's register writes
// repeated at their times plus the shift except that its block bank takes the payload's words — and
// annotates nothing; the core returns its result bank in the payload, and the initiator charges itself what
// the recorded repetition cost it. A replay equals the accesses it stands for (same times, counters,
// bookings, results) when their timing does not depend on the data and nothing else uses the path meanwhile;
// contention that the replayed accesses would have met is not felt. A model that cannot replay (an FMC bus,
// whose CPU-side NWAIT polling is per word) refuses while recording, and so does the initiator when an access
// reached no target that noted it (an IP core is the one that does); the initiator then keeps to words.
// One replay payload may stand for `repetitions` repetitions one after the other, each `period` (the recorded
// repetition's duration) after the one before, the payload holding their words in turn (its length divided
// evenly): every model does what that many replays one after the other would do, in order, and the initiator
// sends one only where nothing else could happen between them (no synchronisation with the kernel, no
// preemption). A model that can replay only one repetition at a time (one that draws injected faults for a
// replay at its time, or a core that may hang in one) says so while recording (single()); the initiator then
// sends one each.

#include <cstdint>
#include <systemc>
#include <tlm>
#include <utility>
#include <vector>

namespace rsoc::models {

class PioRecording {
 public:
  // What one access did to one model on its path.
  struct Entry {
    const void* owner = nullptr;
    sc_core::sc_time at;        // a bus: the start of its booking; a core: the access's time
    sc_core::sc_time length;    // a bus: the booking's duration
    std::uint64_t address = 0;  // a core: the register offset
    std::uint32_t words = 0;
    std::uint32_t value = 0;  // a core: the word written (one-word writes)
    bool write = false;
  };
  // What the recorded repetition cost its initiator (set when the recording ends).
  struct InitiatorCost {
    sc_core::sc_time duration{sc_core::SC_ZERO_TIME};  // from the start to the end
    sc_core::sc_time compute{sc_core::SC_ZERO_TIME}, io{sc_core::SC_ZERO_TIME};
    std::uint64_t accesses = 0, cycles = 0;
    // Where the initiator's local time stood, from the start, each time it moved it (a replay moves it the
    // same way, so that it synchronises with the kernel at the same times).
    std::vector<sc_core::sc_time> steps;
  };

  // Forgets what was recorded; a new recording starts at the initiator's local time `start`.
  void begin(const sc_core::sc_time& start) {
    entries_.clear();
    owners_.clear();
    target_accesses_ = 0;
    replayable_ = true;
    repeatable_ = true;
    start_ = start;
    std::vector<sc_core::sc_time> steps = std::move(initiator.steps);  // keeps its capacity
    steps.clear();
    initiator = InitiatorCost{};
    initiator.steps = std::move(steps);
  }
  // The recording is complete: the entries are grouped by model (in the order of their first access, each
  // model's in time order).
  void end();
  // A bus notes its booking; a target notes the access it took (every recorded access must reach a target
  // that can replay it).
  void add(const Entry& e) { entries_.push_back(e); }
  void add_target_access(const Entry& e) {
    entries_.push_back(e);
    ++target_accesses_;
  }
  // A model on the path cannot replay what it did.
  void refuse() { replayable_ = false; }
  // A model on the path can replay one repetition at a time only.
  void single() { repeatable_ = false; }

  bool replayable() const { return replayable_; }
  bool repeatable() const { return repeatable_; }
  std::uint64_t target_accesses() const { return target_accesses_; }
  const std::vector<Entry>& entries() const { return entries_; }
  // What `owner` noted, after end(): [first, last).
  std::pair<const Entry*, const Entry*> entries_of(const void* owner) const {
    for (const auto& o : owners_)
      if (o.owner == owner) return {entries_.data() + o.first, entries_.data() + o.last};
    return {nullptr, nullptr};
  }
  // What a bus noted, after end(), with what a replay books in bulk: each of its bookings ends at or before
  // the next one starts (`ordered`), their total length and their words.
  struct Bookings {
    const Entry* first = nullptr;
    const Entry* last = nullptr;
    bool ordered = true;
    sc_core::sc_time busy{sc_core::SC_ZERO_TIME};
    std::uint64_t words = 0;
  };
  Bookings bookings_of(const void* owner) const {
    for (const auto& o : owners_)
      if (o.owner == owner)
        return {entries_.data() + o.first, entries_.data() + o.last, o.ordered, o.busy, o.words};
    return {};
  }
  const sc_core::sc_time& start() const { return start_; }

  InitiatorCost initiator;

 private:
  struct Owner {
    const void* owner;
    std::size_t first, last;
    bool ordered;
    sc_core::sc_time busy;
    std::uint64_t words;
  };
  std::vector<Entry> entries_;
  std::vector<Owner> owners_;
  std::vector<Entry> grouped_;       // end(): the entries grouped by model (kept for its capacity)
  std::vector<const void*> order_;   // end(): the models in the order of their first access
  std::uint64_t target_accesses_ = 0;
  bool replayable_ = true;
  bool repeatable_ = true;
  sc_core::sc_time start_{sc_core::SC_ZERO_TIME};
};

class PioReplayExtension : public tlm::tlm_extension<PioReplayExtension> {
 public:
  PioRecording* recording = nullptr;              // null: an ordinary access
  bool replaying = false;                         // false: the access is being recorded
  sc_core::sc_time shift{sc_core::SC_ZERO_TIME};  // a replay: from the recorded repetition to this one
  std::uint64_t repetitions = 1;                  // a replay: repetitions it stands for
  sc_core::sc_time period{sc_core::SC_ZERO_TIME};  // a replay: from one repetition to the next

  tlm::tlm_extension_base* clone() const override { return new PioReplayExtension(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const PioReplayExtension&>(other);
  }
};

// The recording or replay `trans` belongs to, or nullptr for an ordinary access.
inline PioReplayExtension* pio_of(tlm::tlm_generic_payload& trans) {
  PioReplayExtension* ext = nullptr;
  trans.get_extension(ext);
  return ext && ext->recording ? ext : nullptr;
}

}  // namespace rsoc::models
