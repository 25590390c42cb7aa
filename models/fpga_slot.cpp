#include "models/fpga_slot.h"

#include <algorithm>
#include <cmath>

#include "models/address_map.h"
#include "models/kernel_time.h"
#include "models/rtl_core.h"

namespace rsoc::models {

const char* to_string(SlotState state) {
  switch (state) {
    case SlotState::kEmpty:
      return "empty";
    case SlotState::kConfiguring:
      return "configuring";
    case SlotState::kReady:
      return "ready";
    case SlotState::kBusy:
      return "busy";
  }
  return "?";
}

FpgaSlot::FpgaSlot(const sc_core::sc_module_name& name, const SlotParams& params)
    : sc_module(name), params_(params) {
  target.bind(*this);
  if (params.hangs) hangs_ = std::make_unique<FaultStream>(*params.hangs);
  if (params.upsets) {  // armed when a core is configured (or preloaded)
    upset_params_ = std::make_unique<UpsetParams>(*params.upsets);
    std::sort(upset_params_->windows.begin(), upset_params_->windows.end());
    upset_rng_.seed(upset_params_->seed);
  }
}

void FpgaSlot::add_candidate(std::uint32_t core_id, std::unique_ptr<IpCore> core) {
  core->set_hangs(hangs_.get());
  if (!candidates_.emplace(core_id, std::move(core)).second)
    throw ElaborationError(std::string(name()) + ": core id " + std::to_string(core_id) + " added twice");
}

void FpgaSlot::preload(std::uint32_t core_id) {
  auto it = candidates_.find(core_id);
  if (it == candidates_.end())
    throw ElaborationError(std::string(name()) + ": cannot preload unknown core id " +
                           std::to_string(core_id));
  active_ = it->second.get();
  active_id_ = core_id;
  active_->reset();
  ++configurations_;
  arm_upset(kernel_time());
}

bool FpgaSlot::begin_configuration(const sc_core::sc_time& at, std::string* why) {
  if (!params_.reconfigurable) {
    *why = "slot is static";
    return false;
  }
  if (active_ && active_->busy_at(at) && !active_->hung()) {
    *why = "the hosted core is computing";
    return false;
  }
  if (configuring_) {
    *why = "slot is already being configured";
    return false;
  }
  end_upset(at);
  active_ = nullptr;
  configuring_ = true;
  failed_ = false;
  error_.clear();
  sink_ = std::make_unique<BitstreamSink>(params_.capacity_bytes / 4);
  if (activity_) activity_->configuration_began(activity_.lane, to_ps(at));
  return true;
}

void FpgaSlot::configuration_words(const std::uint8_t* bytes, std::size_t n_words,
                                   const sc_core::sc_time& at) {
  if (!configuring_) return;
  sink_->feed_bytes(bytes, n_words);
  if (sink_->state() == BitstreamSink::State::kError) {
    configuring_ = false;
    failed_ = true;
    error_ = sink_->error();
    if (activity_) {
      activity_->fault(activity_.lane, "configuration error", to_ps(at));
      activity_->configuration_ended(activity_.lane, to_ps(at), nullptr);
    }
  } else if (sink_->state() == BitstreamSink::State::kComplete) {
    configuring_ = false;
    auto it = candidates_.find(sink_->core_id());
    if (it == candidates_.end()) {
      failed_ = true;
      error_ = "bitstream for core id " + std::to_string(sink_->core_id()) + " does not target this slot";
      if (activity_) activity_->configuration_ended(activity_.lane, to_ps(at), nullptr);
      return;
    }
    active_ = it->second.get();
    active_id_ = sink_->core_id();
    active_->reset();
    ++configurations_;
    arm_upset(at);
    if (activity_) activity_->configuration_ended(activity_.lane, to_ps(at), &active_->name());
  }
}

void FpgaSlot::abort_configuration(const sc_core::sc_time& at) {
  if (configuring_) {
    configuring_ = false;
    failed_ = true;
    error_ = "configuration aborted";
    if (activity_) activity_->configuration_ended(activity_.lane, to_ps(at), nullptr);
  }
}

std::uint64_t FpgaSlot::configured_bits() const {
  if (!active_ || !upset_params_) return 0;
  const auto it = upset_params_->bits.find(active_id_);
  return it == upset_params_->bits.end() ? 0 : it->second;
}

void FpgaSlot::arm_upset(const sc_core::sc_time& at) {
  if (!upset_params_ || !active_) return;
  auto& windows = upset_params_->windows;
  windows.erase(windows.begin(), std::lower_bound(windows.begin(), windows.end(), at));  // nothing held then
  upset_at_ = windows.empty() ? sc_core::sc_max_time() : windows.front();
  const double rate = upset_params_->per_bit_per_s * static_cast<double>(configured_bits());
  if (rate > 0) {
    const double u = 1.0 - std::uniform_real_distribution<double>(0.0, 1.0)(upset_rng_);  // (0, 1]
    const double after_s = -std::log(u) / rate;
    if (after_s < (sc_core::sc_max_time() - at).to_seconds())
      upset_at_ = std::min(upset_at_, at + sc_core::sc_time(after_s, sc_core::SC_SEC));
  }
  active_->corrupt_from(upset_at_);
}

void FpgaSlot::end_upset(const sc_core::sc_time& at) {
  if (!upset_params_ || !active_) return;
  if (upset_at_ <= at) {
    ++upsets_;
    corrupted_ += at - upset_at_;
    if (activity_) activity_->fault(activity_.lane, "upset", to_ps(upset_at_));
    auto& windows = upset_params_->windows;
    windows.erase(windows.begin(), std::upper_bound(windows.begin(), windows.end(), at));  // absorbed
  }
  upset_at_ = sc_core::sc_max_time();
  active_->corrupt_from(upset_at_);
}

bool FpgaSlot::repair(const sc_core::sc_time& at) {
  if (!upset_by(at) || configuring_) return false;
  end_upset(at);
  if (activity_) activity_->fault(activity_.lane, "repair", to_ps(at));
  arm_upset(at);
  return true;
}

void FpgaSlot::set_activity(ActivitySink* sink, Lane lane) {
  activity_ = {sink, lane};
  for (const auto& [id, core] : candidates_) core->set_activity(sink, lane);
  if (activity_ && active_) activity_->configuration_ended(lane, to_ps(kernel_time()), &active_->name());
}

SlotState FpgaSlot::state_at(const sc_core::sc_time& t) const {
  if (configuring_) return SlotState::kConfiguring;
  if (!active_) return SlotState::kEmpty;
  return active_->busy_at(t) ? SlotState::kBusy : SlotState::kReady;
}

sc_core::sc_time FpgaSlot::core_busy_time() const {
  sc_core::sc_time t = sc_core::SC_ZERO_TIME;
  for (const auto& [id, core] : candidates_) t += core->busy_time();
  return t;
}

double FpgaSlot::core_energy_nj() const {
  double nj = 0;
  for (const auto& [id, core] : candidates_) nj += core->energy().total_nj();
  return nj;
}

std::uint64_t FpgaSlot::core_words_written() const {
  return sum_over_cores(&IpCore::words_written);
}

std::uint64_t FpgaSlot::core_words_read() const {
  return sum_over_cores(&IpCore::words_read);
}

std::uint64_t FpgaSlot::core_status_reads() const {
  return sum_over_cores(&IpCore::status_reads);
}

std::uint64_t FpgaSlot::sum_over_cores(std::uint64_t (IpCore::*count)() const) const {
  std::uint64_t n = 0;
  for (const auto& [id, core] : candidates_) n += ((*core).*count)();
  return n;
}

void FpgaSlot::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  if (!active_ || configuring_) {
    ++rejected_;
    delay += params_.clock_period;
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  active_->access(trans, kernel_time() + delay, delay);
}

tlm::tlm_sync_enum FpgaSlot::nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                             sc_core::sc_time& delay) {
  if (phase == tlm::BEGIN_REQ) {
    b_transport(trans, delay);
    phase = tlm::BEGIN_RESP;
  }
  return tlm::TLM_COMPLETED;
}

bool FpgaSlot::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  dmi.allow_none();  // registers: no direct access anywhere
  dmi.set_start_address(0);
  dmi.set_end_address(~sc_dt::uint64{0});
  return false;
}

unsigned FpgaSlot::transport_dbg(tlm::tlm_generic_payload& trans) {
  if (!active_) {
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return 0;
  }
  return active_->debug(trans);
}

void FpgaSlot::statistics(double end_ms, std::vector<StatGroup>& out) const {
  StatGroup g{std::string("slot.") + name(), "slot", {}};
  g.add("configurations", static_cast<double>(configurations()), "count", "cores configured (boot included)")
      .add("core_busy_ms", to_ms(core_busy_time()), "ms", "time its cores computed")
      .add("core_utilization", utilization(to_ms(core_busy_time()), end_ms), "ratio",
           "core busy time over simulated time")
      .add("rejected_accesses", static_cast<double>(rejected_accesses()), "count", "accesses while empty")
      .add("words_written", static_cast<double>(core_words_written()), "words",
           "register words software wrote to its cores")
      .add("words_read", static_cast<double>(core_words_read()), "words",
           "register words its cores answered (status polls included; an FMC double read counts twice)")
      .add("status_reads", static_cast<double>(core_status_reads()), "count", "STATUS reads it answered");
  std::uint64_t edges = 0;  // of its RTL cores' designs (models/rtl_core.h)
  bool rtl = false;
  for (const auto& [id, core] : candidates_)
    if (const auto* r = dynamic_cast<const RtlCore*>(core.get())) {
      rtl = true;
      edges += r->evaluated_edges();
    }
  if (rtl)
    g.add("rtl_edges", static_cast<double>(edges), "count", "clock edges its RTL cores' designs evaluated");
  if (params_.static_mw)
    g.add("core_energy_mj", core_energy_nj() * 1e-6, "mJ", "energy its cores spent computing")
        .add("static_energy_mj", *params_.static_mw * end_ms * 1e-3, "mJ",
             "the region's static power over the run");
  if (hangs_)
    g.add("hangs", static_cast<double>(hangs()), "count",
          "operations its cores started and never finished (scenario section faults)");
  if (upset_params_) {
    // An upset still there at the end counts up to the end.
    const sc_core::sc_time end(end_ms, sc_core::SC_MS);
    const bool open = active_ && upset_at_ < end;
    const double corrupted = to_ms(corrupted_) + (open ? to_ms(end - upset_at_) : 0.0);
    g.add("upsets", static_cast<double>(upsets_ + (open ? 1 : 0)), "count",
          "configuration upsets of its cores (scenario section faults)")
        .add("upset_ms", corrupted, "ms", "time its core computed wrong results (upset, not yet repaired)")
        .add("availability", end_ms > 0 ? 1.0 - corrupted / end_ms : 1.0, "ratio",
             "share of the run its core was not upset")
        .add("mean_time_to_repair_ms", upsets_ ? to_ms(corrupted_) / static_cast<double>(upsets_) : 0.0, "ms",
             "from an upset to its repair (a scrub or a new configuration), over the repaired ones");
  }
  out.push_back(g);
}
}  // namespace rsoc::models
