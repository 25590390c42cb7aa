#include "models/dma_engine.h"

#include "models/stream.h"

namespace rsoc::models {

using sc_core::sc_time;

DmaEngine::DmaEngine(const sc_core::sc_module_name& name, const DmaParams& params)
    : sc_module(name), params_(params) {
  target.register_b_transport(this, &DmaEngine::b_transport);
  target.register_transport_dbg(this, &DmaEngine::transport_dbg);
  regs_.add({"SRC", dma_reg::kSrc});
  regs_.add({"DST", dma_reg::kDst});
  regs_.add({"WORDS", dma_reg::kWords});
  regs_.add({"CTRL", dma_reg::kCtrl}, nullptr, [this](std::uint32_t, std::uint32_t value, const sc_time& at) {
    if (!(value & dma_reg::kCtrlStart) || (regs_.at("STATUS") & dma_reg::kStatusBusy)) return;
    regs_.at("STATUS") = dma_reg::kStatusBusy;
    start_.notify(at - sc_core::sc_time_stamp());
  });
  regs_.add({"STATUS", dma_reg::kStatus, 1, RegAccess::kReadOnly, 0});
  SC_HAS_PROCESS(DmaEngine);
  SC_THREAD(run);
}

void DmaEngine::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const sc_time cost = params_.clock_period * static_cast<double>(params_.access_cycles);
  trans.set_response_status(regs_.access(trans, sc_core::sc_time_stamp() + delay + cost));
  delay += cost;
}

void DmaEngine::run() {
  for (;;) {
    sc_core::wait(start_);
    const sc_time begin = sc_core::sc_time_stamp();
    sc_time delay = params_.clock_period * static_cast<double>(params_.setup_cycles);
    const bool dst_fixed = regs_.at("CTRL") & dma_reg::kCtrlDstFixed;
    const auto result =
        stream_words(initiator, this, name(), regs_.at("SRC"), regs_.at("DST"), dst_fixed, regs_.at("WORDS"),
                     params_.clock_period * static_cast<double>(params_.cycles_per_word), params_.chunk_words,
                     delay, [](sc_time& d) {
                       sc_core::wait(d);
                       d = sc_core::SC_ZERO_TIME;
                     });
    sc_core::wait(delay);
    words_ += result.words_moved;
    ++transfers_;
    busy_ += sc_core::sc_time_stamp() - begin;
    regs_.at("STATUS") =
        dma_reg::kStatusDone | (result.status == tlm::TLM_OK_RESPONSE ? 0 : dma_reg::kStatusError);
    done_.notify(sc_core::SC_ZERO_TIME);
  }
}

}  // namespace rsoc::models
