#include "runtime/slot_broker.h"

namespace rsoc::runtime {

using sc_core::sc_time;

namespace {
std::vector<SlotTable::Slot> table_slots(const std::vector<SlotView>& views) {
  std::vector<SlotTable::Slot> out;
  for (const auto& v : views) {
    SlotTable::Slot s;
    s.reconfigurable = v.reconfigurable;
    s.capacity_bytes = v.capacity_bytes;
    out.push_back(s);
  }
  return out;
}
}  // namespace

bool implements(const CoreDesign& d, Functionality f) {
  if (d.kind == models::CoreKind::kCustom) return d.serves == f;
  return d.kind == info(f).core && info(f).operand_bits <= d.max_operand_bits;
}

SlotBroker::SlotBroker(std::vector<SlotView> slots, std::vector<CoreDesign> designs, Replacement replacement,
                       bool caching, std::unique_ptr<ReconfigurationDriver> reconfiguration,
                       CoreDriver& driver)
    : slots_(std::move(slots)),
      designs_(std::move(designs)),
      table_(table_slots(slots_), replacement),
      caching_(caching),
      reconfiguration_(std::move(reconfiguration)),
      driver_(driver),
      busy_until_(slots_.size()) {
  for (std::size_t i = 0; i < slots_.size(); ++i)
    for (const auto& d : designs_)
      if (slots_[i].slot->hosts(d.id)) {  // configured at boot
        table_.start(i, index_of(d), true);
        table_.finish(i, true);
      }
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    ReplacementSlot r;
    r.reconfigurable = slots_[i].reconfigurable;
    r.initial = table_[i].design;
    for (const auto& d : designs_)
      r.hosts.push_back(table_.could_host(i, index_of(d), d.bitstream_bytes, can_configure()));
    replacement_slots_.push_back(std::move(r));
  }
}

const CoreDesign* SlotBroker::design_for(Functionality f) const {
  const CoreDesign* first = nullptr;
  for (const auto& d : designs_) {
    if (!implements(d, f)) continue;
    if (table_.resident(index_of(d))) return &d;
    if (!first) first = &d;
  }
  return first;
}

bool SlotBroker::hostable(const CoreDesign& d) const {
  for (std::size_t i = 0; i < table_.size(); ++i)
    if (table_.could_host(i, index_of(d), d.bitstream_bytes, can_configure())) return true;
  return false;
}

void SlotBroker::describe(const CoreDesign& d, const sc_time& now, RequestView& v) const {
  const int id = index_of(d);
  v.has_hardware = true;
  v.resident = table_.resident(id);
  v.resident_idle = table_.resident_idle(id);
  bool usable = false, any = false;
  sc_time wait = sc_core::SC_ZERO_TIME;
  for (std::size_t i = 0; i < table_.size(); ++i) {
    if (!table_.could_host(i, id, d.bitstream_bytes, can_configure())) continue;
    if (!table_[i].in_use) usable = true;
    const sc_time left = busy_until_[i] > now ? busy_until_[i] - now : sc_core::SC_ZERO_TIME;
    if (table_[i].in_use && (!any || left < wait)) wait = left;
    any = true;
  }
  if (!any) {  // no slot can host it (none fits, or faults retired them)
    v.has_hardware = false;
    v.no_hardware = "no slot can host the core that implements";
  }
  if (!usable) v.slot_wait_s = wait.to_seconds();
}

void SlotBroker::Lease::release() {
  if (!broker_) return;
  broker_->table_.finish(slot_, broker_->caching_);  // no module caching: the core leaves
  p_->notify(broker_->slot_released_);
  broker_ = nullptr;
}

std::optional<SlotBroker::Lease> SlotBroker::take(Process& p, const CoreDesign& d,
                                                  const std::function<bool(std::size_t)>& holds,
                                                  bool& configure, std::string& reason) {
  const auto choice = table_.choose(index_of(d), d.bitstream_bytes, can_configure(), holds);
  if (!choice) return std::nullopt;
  served_.push_back(index_of(d));
  configure = choice->configure;
  const std::string& name = slots_[choice->slot].name;
  if (!configure) {
    ++hits_;
    reason += "; core resident in " + name;
  } else if (choice->evicted >= 0) {
    ++misses_;
    ++evictions_;
    reason += "; evicting " + design(choice->evicted).name + " from " + name + " (" +
              kReplacementDescriptions.name(table_.replacement()) + ")";
  } else {
    ++misses_;
    reason += "; configuring empty " + name;
  }
  table_.start(choice->slot, index_of(d), configure);
  return Lease(*this, p, choice->slot);
}

void SlotBroker::wait(Process& p, sc_core::sc_event& e, TimeUse use) {
  ++waiting_;
  p.wait_for(e, use);
  --waiting_;
}

void SlotBroker::wait_for_slot(Process& p, const CoreDesign& d) {
  if (background_ && background_->design != index_of(d) &&
      table_.could_host(background_->slot, index_of(d), d.bitstream_bytes, true))
    cancel_background_ = true;
  ++slot_waits_;
  wait(p, slot_released_, TimeUse::kSlotWait);  // a core in use is never evicted: wait for one to finish
}

std::optional<sc_time> SlotBroker::finish_background(Process& p, const CoreDesign& d, RequestRecord& r) {
  if (!background_ || background_->design != index_of(d)) return std::nullopt;
  const sc_time t0 = p.cpu().now(), overtook = t0 - background_->start;
  while (background_ && background_->design == index_of(d)) p.wait_for(port_released_, TimeUse::kReconfig);
  r.reconfig_ps += (p.cpu().now() - t0).value();  // the rest of the configuration, not hidden
  return overtook;
}

SlotBroker::PortLease::PortLease(SlotBroker& broker, Process& p) : broker_(broker), p_(p) {
  while (broker_.port_busy_) {  // one configuration at a time; one in the background gives way
    if (broker_.background_) broker_.cancel_background_ = true;
    broker_.wait(p_, broker_.port_released_, TimeUse::kSlotWait);
  }
  broker_.port_busy_ = true;
}

SlotBroker::PortLease::~PortLease() {
  if (held_) broker_.release_port(p_);
}

void SlotBroker::PortLease::release() {
  held_ = false;
  broker_.release_port(p_);
  if (broker_.port_free_) broker_.port_free_();
}

void SlotBroker::release_port(Process& p) {
  port_busy_ = false;
  p.notify(port_released_);
}

bool SlotBroker::configure(Process& p, std::size_t s, const CoreDesign& d, std::string& error) {
  const SlotView& view = slots_[s];
  try {
    const bool ok =
        reconfiguration_->configure(p, view.port_index, d.bitstream_address, d.bitstream_bytes, &error);
    driver_.forget(view.base);
    return ok;
  } catch (...) {  // the configuration stopped half way (a duration past 2^57 ps): the slot holds nothing
    driver_.forget(view.base);
    table_.configuration_failed(s);
    throw;
  }
}

bool SlotBroker::configure_in_background(Process& p, std::size_t s, int design_index,
                                         std::optional<sc_time>& took, std::string& error) {
  const CoreDesign& d = design(design_index);
  const auto choice = table_.choose(design_index, d.bitstream_bytes, true);
  if (choice && choice->evicted >= 0) ++evictions_;
  table_.start(s, design_index, true);
  port_busy_ = true;
  background_ = Background{s, design_index, p.cpu().now()};
  cancel_background_ = false;
  const sc_time t0 = background_->start;
  const bool ok = reconfiguration_->configure(p, slots_[s].port_index, d.bitstream_address, d.bitstream_bytes,
                                              &error, [this] { return cancel_background_; });
  driver_.forget(slots_[s].base);
  if (ok)
    took = p.cpu().now() - t0;
  else
    table_.configuration_failed(s);
  table_.finish(s, true);
  background_.reset();
  release_port(p);  // released at the configuring process's time, not earlier
  p.notify(slot_released_);
  return ok;
}

std::optional<CoreLease> SlotBroker::take_core(models::CoreKind kind) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < table_.size(); ++i) {
    const int d = table_[i].design;
    if (d < 0 || table_[i].in_use || design(d).kind != kind) continue;
    if (!best || table_[i].last_use < table_[*best].last_use) best = i;
  }
  if (!best) return std::nullopt;
  table_.take(*best);
  const SlotView& v = slots_[*best];
  return CoreLease{*best, v.name, v.base, v.slot->core()};
}

void SlotBroker::give_back(Process& p, const CoreLease& lease) {
  table_.finish(lease.slot, true);
  p.notify(slot_released_);
}

std::size_t SlotBroker::cores_of(models::CoreKind kind) const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < table_.size(); ++i)
    if (table_[i].design >= 0 && design(table_[i].design).kind == kind) ++n;
  return n;
}

std::string SlotBroker::resident(std::size_t slot) const {
  const int d = table_[slot].design;
  return d < 0 ? "" : design(d).name;
}

OptimalReplacement SlotBroker::optimal_replacement() const {
  return runtime::optimal_replacement(served_, replacement_slots_);
}

void SlotBroker::statistics(models::StatGroup& g) const {
  const OptimalReplacement optimal = optimal_replacement();
  g.add("cache_hits", static_cast<double>(hits_), "count", "hardware requests that found their core resident")
      .add("cache_misses", static_cast<double>(misses_), "count", "hardware requests that configured a slot")
      .add(
          "reconfigurations_optimal", static_cast<double>(optimal.configurations), "count",
          "the fewest configurations any replacement policy could have needed for the same hardware requests "
          "in the same order (Belady's MIN; compare cache_misses)")
      .add("reconfigurations_optimal_exact", optimal.exact ? 1.0 : 0.0, "flag",
           "1: every reconfigurable slot can host every core requested, and MIN is a proven bound; 0: slots "
           "differ in what they host, and the figure is MIN's rule, not a proven bound")
      .add("evictions", static_cast<double>(evictions_), "count", "cores removed to make room")
      .add("fallbacks", static_cast<double>(fallbacks_), "count",
           "hardware requests run in software for want of a slot")
      .add("slot_waits", static_cast<double>(slot_waits_), "count", "times a request waited for a slot");
}

}  // namespace rsoc::runtime
