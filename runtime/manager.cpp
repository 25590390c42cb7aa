#include "runtime/manager.h"

namespace rsoc::runtime {

using sc_core::sc_time;

namespace {
std::uint64_t ps(const sc_time& t) {
  return t.value();
}  // default resolution: 1 ps
}  // namespace

Manager::Manager(const RuntimeParams& params, std::vector<SlotView> slots, std::vector<CoreDesign> designs,
                 std::unique_ptr<ReconfigurationDriver> reconfiguration, Sink sink)
    : params_(params),
      slots_(std::move(slots)),
      designs_(std::move(designs)),
      reconfiguration_(std::move(reconfiguration)),
      cipher_(params.driver),
      sink_(std::move(sink)) {
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    SlotUse use;
    use.lock = std::make_unique<sc_core::sc_mutex>();
    for (const auto& d : designs_)
      if (slots_[i].slot->hosts(d.id)) use.design = &d;  // static or preloaded
    use_.push_back(std::move(use));
  }
}

const CoreDesign* Manager::design_for(Functionality f) const {
  for (const auto& d : designs_)
    if (d.kind == info(f).core) return &d;
  return nullptr;
}

int Manager::acquire_slot(const CoreDesign& design, bool* configure, std::string* reason) {
  for (;;) {
    int empty = -1, lru = -1;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      SlotUse& u = use_[i];
      if (u.design == &design && u.lock->trylock() == 0) {
        *configure = false;
        *reason = "hardware policy; core resident in " + slots_[i].name;
        ++hits_;
        return static_cast<int>(i);
      }
      if (!slots_[i].reconfigurable || design.bitstream_bytes > slots_[i].capacity_bytes) continue;
      if (!u.design && empty < 0) empty = static_cast<int>(i);
      if (u.design && u.design != &design &&
          (lru < 0 || u.last_use < use_[static_cast<std::size_t>(lru)].last_use))
        lru = static_cast<int>(i);
    }
    for (int candidate : {empty, lru}) {
      if (candidate < 0) continue;
      SlotUse& u = use_[static_cast<std::size_t>(candidate)];
      if (u.lock->trylock() != 0) continue;
      *configure = true;
      ++misses_;
      if (u.design) {
        ++evictions_;
        *reason = "hardware policy; core not resident; evicting " + u.design->name + " from " +
                  slots_[static_cast<std::size_t>(candidate)].name + " (least recently used)";
      } else {
        *reason = "hardware policy; core not resident; configuring empty " +
                  slots_[static_cast<std::size_t>(candidate)].name;
      }
      return candidate;
    }
    // Every usable slot is in use: wait for one to be released.
    bool any = false;
    for (std::size_t i = 0; i < slots_.size() && !any; ++i) {
      if (use_[i].design == &design ||
          (slots_[i].reconfigurable && design.bitstream_bytes <= slots_[i].capacity_bytes)) {
        use_[i].lock->lock();
        use_[i].lock->unlock();
        any = true;
      }
    }
    if (!any) return -1;
  }
}

RequestOutcome Manager::request(models::CpuThread& cpu, const std::string& app, Functionality f,
                                const std::vector<std::uint8_t>& key, const std::vector<std::uint8_t>& data,
                                bool encrypt, std::optional<sc_time> issued) {
  RequestOutcome out;
  RequestRecord& r = out.record;
  r.id = next_id_++;
  r.app = app;
  r.functionality = info(f).name;
  r.bytes = data.size();
  r.blocks = data.size() / info(f).block_bytes;
  r.issue_ps = ps(issued ? *issued : cpu.now());
  const std::vector<std::uint8_t> expected = reference_cipher(f, key, data, encrypt);

  const CoreDesign* design = design_for(f);
  bool hardware = params_.policy == Policy::kHardware && design != nullptr;
  std::string reason;
  if (params_.policy == Policy::kSoftware) reason = "software policy";
  if (params_.policy == Policy::kHardware && !design)
    reason = "hardware policy; no core implements " + r.functionality;

  int slot = -1;
  bool configure = false;
  if (hardware) {
    cpu.sync();
    slot = acquire_slot(*design, &configure, &reason);
    if (slot < 0) {
      hardware = false;
      reason = "hardware policy; no slot can host " + design->name;
    }
  }
  r.start_ps = ps(cpu.now());
  try {
    if (hardware) {
      const SlotView& view = slots_[static_cast<std::size_t>(slot)];
      SlotUse& use = use_[static_cast<std::size_t>(slot)];
      r.decision = "hardware";
      r.slot = view.name;
      if (configure) {
        cpu.sync();
        port_lock_.lock();
        const sc_time t0 = cpu.now();
        std::string error;
        use.design = nullptr;  // whatever was there is gone once configuration starts
        bool ok = false;
        try {
          ok =
              reconfiguration_ && reconfiguration_->configure(cpu, view.port_index, design->bitstream_address,
                                                              design->bitstream_bytes, &error);
        } catch (...) {
          cpu.sync();
          port_lock_.unlock();
          throw;
        }
        cpu.sync();
        port_lock_.unlock();
        r.reconfigured = true;
        r.reconfig_ps = ps(cpu.now() - t0);
        if (!ok) throw DriverError(reconfiguration_ ? error : "the platform has no configuration port");
        use.design = design;
      }
      const sc_time t1 = cpu.now();
      out.output = cipher_.run(cpu, view.base, f, key, data, encrypt);
      r.exec_ps = ps(cpu.now() - t1);
      use.last_use = ++clock_;
      cpu.sync();
      use.lock->unlock();
    } else {
      r.decision = "software";
      const SoftwareCost cost = params_.software.count(f) ? params_.software.at(f) : SoftwareCost{};
      const sc_time t1 = cpu.now();
      cpu.compute(cost.cycles_per_request + r.blocks * cost.cycles_per_block);
      out.output = expected;  // the software implementation is the reference cipher
      r.exec_ps = ps(cpu.now() - t1);
    }
    r.verified = out.output == expected;
    if (!r.verified) {
      r.ok = false;
      r.error = "output differs from the reference cipher";
    }
  } catch (const std::exception& e) {
    if (slot >= 0) {
      cpu.sync();
      use_[static_cast<std::size_t>(slot)].lock->unlock();
    }
    r.ok = false;
    r.error = e.what();
  }
  r.reason = reason;
  r.end_ps = ps(cpu.now());
  if (sink_) sink_(r);
  return out;
}

}  // namespace rsoc::runtime
