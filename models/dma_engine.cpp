#include "models/dma_engine.h"

#include "models/kernel_time.h"
#include "models/stream.h"

namespace rsoc::models {

using sc_core::sc_time;

DmaEngine::DmaEngine(const sc_core::sc_module_name& name, const DmaParams& params)
    : sc_module(name), params_(params) {
  if (params.energy_pj_per_word) {
    energy_.enable();
    nj_per_word_ = *params.energy_pj_per_word * 1e-3;
  }
  target.register_b_transport(this, &DmaEngine::b_transport);
  target.register_transport_dbg(this, &DmaEngine::transport_dbg);
  src_reg_ = regs_.add({"SRC", dma_reg::kSrc});
  dst_reg_ = regs_.add({"DST", dma_reg::kDst});
  words_reg_ = regs_.add({"WORDS", dma_reg::kWords});
  ctrl_reg_ = regs_.add(
      {"CTRL", dma_reg::kCtrl}, nullptr, [this](std::uint32_t, std::uint32_t value, const sc_time& at) {
        if (value & dma_reg::kCtrlAbort) {
          if (!(regs_.at(status_reg_) & dma_reg::kStatusBusy)) return;
          aborting_ = true;
          abort_.notify(at - kernel_time());
          return;
        }
        if (!(value & dma_reg::kCtrlStart) || (regs_.at(status_reg_) & dma_reg::kStatusBusy)) return;
        regs_.at(status_reg_) = dma_reg::kStatusBusy;
        payer_ = writer_;
        start_.notify(at - kernel_time());
      });
  status_reg_ = regs_.add({"STATUS", dma_reg::kStatus, 1, RegAccess::kReadOnly, 0});
  SC_HAS_PROCESS(DmaEngine);
  SC_THREAD(run);
}

void DmaEngine::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  const sc_time cost =
      periods(params_.clock_period, static_cast<double>(params_.access_cycles), "a DMA register access");
  writer_ = payer_of(trans);
  trans.set_response_status(regs_.access(trans, kernel_time() + delay + cost));
  delay += cost;
}

void DmaEngine::run() {
  for (;;) {
    sc_core::wait(start_);
    const sc_time begin = kernel_time();
    sc_time delay = periods(params_.clock_period, static_cast<double>(params_.setup_cycles), "a DMA setup");
    const std::uint32_t ctrl = regs_.at(ctrl_reg_);
    const auto result = stream_words(
        initiator, this, name(), regs_.at(src_reg_), ctrl & dma_reg::kCtrlSrcFixed, regs_.at(dst_reg_),
        ctrl & dma_reg::kCtrlDstFixed, regs_.at(words_reg_),
        periods(params_.clock_period, static_cast<double>(params_.cycles_per_word), "a DMA word"),
        params_.chunk_words, delay,
        [](sc_time& d) {
          sc_core::wait(d);
          d = sc_core::SC_ZERO_TIME;
        },
        payer_);
    sc_core::wait(delay);
    if (result.status == tlm::TLM_INCOMPLETE_RESPONSE) {  // a target never answered: stalled until aborted
      ++stalls_;
      if (!aborting_) sc_core::wait(abort_);
    }
    aborting_ = false;
    words_ += result.words_moved;
    if (energy_.on()) energy_.spend(static_cast<double>(result.words_moved) * nj_per_word_, payer_);
    ++transfers_;
    busy_ += kernel_time() - begin;
    const bool ok = result.status == tlm::TLM_OK_RESPONSE;
    regs_.at(status_reg_) = dma_reg::kStatusDone | (ok ? 0 : dma_reg::kStatusError);
    if (activity_)
      activity_->dma_transfer(activity_.lane, to_ps(begin), to_ps(kernel_time()), result.words_moved,
                              result.bottleneck, ok);
    done_.notify(sc_core::SC_ZERO_TIME);
  }
}

void DmaEngine::statistics(double end_ms, std::vector<StatGroup>& out) const {
  StatGroup g{std::string("dma.") + basename(), "dma", {}};
  g.add_busy(to_ms(busy_time()), end_ms, "time transferring")
      .add("transfers", static_cast<double>(transfers()), "count", "transfers completed")
      .add("words", static_cast<double>(words_moved()), "words", "words moved");
  if (stalls_)
    g.add("stalls", static_cast<double>(stalls_), "count",
          "transfers a target that never answered stalled until the driver aborted them");
  add_energy(g, energy_, "its own energy per word moved (the bus and memory count theirs)");
  out.push_back(g);
}
}  // namespace rsoc::models
