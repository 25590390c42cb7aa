#include "models/stream.h"

#include "models/kernel_time.h"

namespace rsoc::models {

void StreamExtension::add(const void* owner, const char* name, const sc_core::sc_time& occupancy) {
  for (auto& s : stages_) {
    if (s.owner == owner) {
      s.occupancy += occupancy;
      return;
    }
  }
  stages_.push_back(Stage{owner, name, occupancy});
}

sc_core::sc_time StreamExtension::occupancy_of(const void* owner) const {
  for (const auto& s : stages_)
    if (s.owner == owner) return s.occupancy;
  return sc_core::SC_ZERO_TIME;
}

const StreamExtension::Stage* StreamExtension::slowest_stage() const {
  const Stage* best = nullptr;
  for (const auto& s : stages_)
    if (!best || s.occupancy > best->occupancy) best = &s;
  return best;
}

sc_core::sc_time StreamExtension::slowest() const {
  const Stage* best = slowest_stage();
  return best ? best->occupancy : sc_core::SC_ZERO_TIME;
}

std::string StreamExtension::slowest_name() const {
  const Stage* best = slowest_stage();
  return best ? best->name : std::string();
}

}  // namespace rsoc::models

namespace rsoc::models {

StreamResult stream_words(tlm::tlm_base_initiator_socket<>& socket, const void* mover,
                          const std::string& mover_name, std::uint64_t src, bool src_fixed, std::uint64_t dst,
                          bool dst_fixed, std::uint64_t words, const sc_core::sc_time& mover_word_time,
                          unsigned chunk_words, sc_core::sc_time& delay,
                          const std::function<void(sc_core::sc_time&)>& after_chunk, EnergyAccount* payer) {
  StreamResult result;
  std::vector<unsigned char> buffer(4ull * std::min<std::uint64_t>(words, chunk_words));
  static std::uint64_t streams = 0;
  StreamExtension ext;
  ext.burst = ++streams;
  EnergyTag tag;
  tag.account = payer;
  tlm::tlm_generic_payload trans;
  trans.set_extension(&ext);
  trans.set_extension(&tag);
  // The extensions live on this stack: they are taken off the payload however this function ends (a target
  // that throws, a duration past 2^57 ps), or the payload's destructor would free them.
  struct Detach {
    tlm::tlm_generic_payload& trans;
    StreamExtension& ext;
    EnergyTag& tag;
    ~Detach() {
      trans.clear_extension(&ext);
      trans.clear_extension(&tag);
    }
  } detach{trans, ext, tag};
  const char* bottleneck = nullptr;  // the slowest stage of the last chunk
  for (std::uint64_t done = 0; done < words;) {
    const std::uint64_t n = std::min<std::uint64_t>(chunk_words, words - done);
    const unsigned length = static_cast<unsigned>(4 * n);
    ext.clear();
    ext.last_chunk = done + n == words;
    for (int phase = 0; phase < 2 && result.status == tlm::TLM_OK_RESPONSE; ++phase) {
      const bool read = phase == 0;
      trans.set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
      trans.set_address(read ? (src_fixed ? src : src + 4 * done) : (dst_fixed ? dst : dst + 4 * done));
      trans.set_data_ptr(buffer.data());
      trans.set_data_length(length);
      trans.set_streaming_width((read ? src_fixed : dst_fixed) ? 4 : length);  // a FIFO window: one word wide
      trans.set_byte_enable_ptr(nullptr);
      trans.set_dmi_allowed(false);
      trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      if (!read)
        ext.add(mover, mover_name.c_str(),
                periods(mover_word_time, static_cast<double>(n), "a stream chunk"));
      socket->b_transport(trans, delay);
      if (trans.is_response_error()) result.status = trans.get_response_status();
    }
    if (result.status != tlm::TLM_OK_RESPONSE) break;
    const StreamExtension::Stage* slowest = ext.slowest_stage();
    if (slowest) delay += slowest->occupancy;
    bottleneck = slowest ? slowest->name : "";
    done += n;
    result.words_moved = done;
    if (after_chunk) after_chunk(delay);
  }
  if (bottleneck) result.bottleneck = bottleneck;
  return result;
}

}  // namespace rsoc::models
