#include "runtime/manager.h"

#include <algorithm>
#include <stdexcept>

#include "models/kernel_time.h"
#include "runtime/request_scope.h"

namespace rsoc::runtime {

using sc_core::sc_time;

namespace {
std::uint64_t ps(const sc_time& t) {
  return t.value();
}  // default resolution: 1 ps
const char* kReplacementName[] = {"least recently used", "least frequently used", "first in"};

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

Manager::Manager(const RuntimeParams& params, std::vector<SlotView> slots, std::vector<CoreDesign> designs,
                 std::unique_ptr<ReconfigurationDriver> reconfiguration, const CostModel* model, Sink sink,
                 const DataPath& path)
    : params_(params),
      slots_(std::move(slots)),
      designs_(std::move(designs)),
      table_(table_slots(slots_), params.replacement),
      busy_until_(slots_.size()),
      reconfiguration_(std::move(reconfiguration)),
      model_(model),
      policy_(make_policy(params.policy, params.thresholds, model, params.energy_floor_mw)),
      driver_(params.driver, path),
      contexts_(params.contexts, slots_.size()),
      sink_(std::move(sink)) {
  for (std::size_t i = 0; i < slots_.size(); ++i)
    for (const auto& d : designs_)
      if (slots_[i].slot->hosts(d.id)) {  // configured at boot
        table_.start(i, index_of(&d), true);
        table_.finish(i, true);
      }
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    ReplacementSlot r;
    r.reconfigurable = slots_[i].reconfigurable;
    r.initial = table_[i].design;
    for (const auto& d : designs_)
      r.hosts.push_back(table_.could_host(i, index_of(&d), d.bitstream_bytes, reconfiguration_ != nullptr));
    replacement_slots_.push_back(std::move(r));
  }
}

std::optional<Manager::Prefetch> Manager::next_prefetch() const {
  // Requests come first: none while one waits for a slot or the port.
  if (port_busy_ || !reconfiguration_ || waiting_ > 0) return std::nullopt;
  for (const auto& [app, f] : predicted_) {
    const CoreDesign* d = design_for(f);
    if (!d || table_.resident(index_of(d))) continue;
    const auto choice = table_.choose(index_of(d), d->bitstream_bytes, true);
    if (!choice || !choice->configure) continue;
    // Never over a core another application is predicted to ask for.
    bool needed = false;
    for (const auto& other : predicted_)
      if (const CoreDesign* o = design_for(other.second); o && index_of(o) == choice->evicted) needed = true;
    if (!needed) return Prefetch{choice->slot, index_of(d)};
  }
  return std::nullopt;
}

void Manager::predict(const std::string& app, Functionality f) {
  const auto last = last_.find(app);
  if (last != last_.end()) ++successors_[app][last->second][f];
  last_.insert_or_assign(app, f);
  if (params_.prefetch.predictor == Predictor::kHint) {
    const auto hint = params_.prefetch.hints.find(app);
    if (hint != params_.prefetch.hints.end()) predicted_.insert_or_assign(app, hint->second);
  } else if (params_.prefetch.predictor == Predictor::kHistory) {
    const auto& next = successors_[app][f];
    std::optional<Functionality> best;
    std::uint64_t most = 0;
    for (const auto& [g, n] : next)
      if (n > most) {  // ties: the first in functionality order
        best = g;
        most = n;
      }
    if (best) predicted_.insert_or_assign(app, *best);
  }
  wake_prefetcher();
}

void Manager::take_prefetched(std::size_t s, bool configure, const std::optional<sc_time>& overtook,
                              RequestRecord& r) {
  if (s >= prefetched_.size() || !prefetched_[s]) return;
  if (configure) {
    ++prefetch_wasted_;  // evicted (or configured over) unused
  } else {
    ++prefetch_useful_;
    const sc_time hidden = overtook ? std::min(*overtook, *prefetched_[s]) : *prefetched_[s];
    r.reconfig_hidden_ps = ps(hidden);
    prefetch_hidden_ += hidden;
  }
  prefetched_[s].reset();
}

void Manager::run_prefetcher(Process& p) {
  prefetched_.resize(slots_.size());
  // Hints are declared before an application runs: its first request is predicted from the start.
  if (params_.prefetch.predictor == Predictor::kHint)
    for (const auto& [app, f] : params_.prefetch.first) predicted_.insert_or_assign(app, f);
  for (bool first = true;; first = false) {
    if (!first || predicted_.empty()) p.wait_for(prefetch_wakeup_);
    while (const auto job = next_prefetch()) {
      const CoreDesign& d = designs_[static_cast<std::size_t>(job->design)];
      const SlotView& view = slots_[job->slot];
      const auto choice = table_.choose(job->design, d.bitstream_bytes, true);
      if (choice && choice->evicted >= 0) ++evictions_;
      if (prefetched_[job->slot]) ++prefetch_wasted_;  // an unused prefetched core configured over
      prefetched_[job->slot].reset();
      table_.start(job->slot, job->design, true);
      port_busy_ = true;
      prefetching_ = job;
      prefetching_->start = p.cpu().now();
      cancel_prefetch_ = false;
      ++prefetches_;
      const sc_time t0 = prefetching_->start;
      std::string error;
      const bool ok = reconfiguration_->configure(p, view.port_index, d.bitstream_address, d.bitstream_bytes,
                                                  &error, [this] { return cancel_prefetch_; });
      driver_.forget(view.base);
      if (ok) {
        prefetched_[job->slot] = p.cpu().now() - t0;
      } else {
        table_.configuration_failed(job->slot);
        ++(error == "cancelled" ? prefetch_cancelled_ : prefetch_failed_);
      }
      table_.finish(job->slot, true);
      prefetching_.reset();
      port_busy_ = false;
      p.notify(port_released_);  // released at the prefetcher's time, not earlier
      p.notify(slot_released_);
    }
  }
}

OptimalReplacement Manager::optimal_replacement() const {
  return runtime::optimal_replacement(served_, replacement_slots_);
}

bool implements(const CoreDesign& d, Functionality f) {
  if (d.kind == models::CoreKind::kCustom) return d.serves == f;
  return d.kind == info(f).core && info(f).operand_bits <= d.max_operand_bits;
}

const CoreDesign* Manager::design_for(Functionality f) const {
  // A resident design first, else the first registered one.
  const CoreDesign* first = nullptr;
  for (const auto& d : designs_) {
    if (!implements(d, f)) continue;
    if (table_.resident(index_of(&d))) return &d;
    if (!first) first = &d;
  }
  return first;
}

bool Manager::hostable(const CoreDesign& d) const {
  for (std::size_t i = 0; i < table_.size(); ++i)
    if (table_.could_host(i, index_of(&d), d.bitstream_bytes, reconfiguration_ != nullptr)) return true;
  return false;
}

std::string Manager::resident(std::size_t slot) const {
  const int d = table_[slot].design;
  return d < 0 ? "" : designs_[static_cast<std::size_t>(d)].name;
}

void Manager::statistics(double /*end_ms*/, std::vector<models::StatGroup>& out) const {
  const OptimalReplacement optimal = optimal_replacement();
  models::StatGroup g{"manager", "manager", {}};
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
      .add("slot_waits", static_cast<double>(slot_waits_), "count", "times a request waited for a slot")
      .add("faults_detected", static_cast<double>(faults_detected_), "count",
           "injected faults the runtime detected (failed configurations, ...)")
      .add("configuration_retries", static_cast<double>(configuration_retries_), "count",
           "configurations tried again after the port reported an error")
      .add("fault_fallbacks", static_cast<double>(fault_fallbacks_), "count",
           "hardware requests run in software after a fault")
      .add("retired_slots", static_cast<double>(retired_), "count", "slots retired after too many faults")
      .add("watchdog_timeouts", static_cast<double>(watchdog_timeouts_), "count",
           "hardware runs the drivers' watchdog gave up (a hung core)")
      .add("corruptions_detected", static_cast<double>(corruptions_detected_), "count",
           "wrong outputs of upset cores the output check found")
      .add("silent_corruptions", static_cast<double>(silent_corruptions_), "count",
           "requests that delivered an upset core's wrong output unnoticed");
  if (params_.prefetch.predictor != Predictor::kNone)
    g.add("prefetches", static_cast<double>(prefetches_), "count",
          "configurations the prefetcher started (runtime.prefetch)")
        .add("prefetches_useful", static_cast<double>(prefetch_useful_), "count",
             "prefetched cores a request used before anything else")
        .add("prefetches_wasted", static_cast<double>(prefetch_wasted_), "count",
             "prefetched cores evicted or configured over unused")
        .add("prefetches_cancelled", static_cast<double>(prefetch_cancelled_), "count",
             "prefetches aborted because a request needed the port")
        .add("prefetches_failed", static_cast<double>(prefetch_failed_), "count",
             "prefetches the port reported failed")
        .add("reconfiguration_hidden_ms", models::to_ms(prefetch_hidden_), "ms",
             "configuration time prefetches hid from the requests that used their cores");
  contexts_.statistics(g);
  out.push_back(std::move(g));
}

bool Manager::configure_slot(Process& p, RequestRecord& r, std::size_t s, const CoreDesign& design,
                             TimeUse use, std::string& reason, std::string& error) {
  const SlotView& view = slots_[s];
  while (port_busy_) {  // one configuration at a time; a prefetch in progress gives way
    if (prefetching_) cancel_prefetch_ = true;
    ++waiting_;
    p.wait_for(port_released_, TimeUse::kSlotWait);
    --waiting_;
  }
  port_busy_ = true;
  bool configured = false;
  const bool measure = p.scheduler().measures_energy();
  for (;;) {  // the first attempt, then the retries runtime.recovery allows
    const sc_time t0 = p.cpu().now();
    const double nj0 = measure ? p.energy().total_nj() : 0.0;
    try {
      const Process::Counting reconfiguring(p, use);  // exactly the reconfig_ps below
      configured = reconfiguration_->configure(p, view.port_index, design.bitstream_address,
                                               design.bitstream_bytes, &error);
    } catch (...) {  // the configuration stopped half way (a duration past 2^57 ps): the slot holds nothing
      port_busy_ = false;
      p.notify(port_released_);
      driver_.forget(view.base);
      table_.configuration_failed(s);
      throw;
    }
    r.reconfigured = true;
    const std::uint64_t attempt_ps = ps(p.cpu().now() - t0);
    const double attempt_nj = measure ? p.energy().total_nj() - nj0 : 0.0;
    if (use == TimeUse::kReconfig) {
      r.reconfig_ps += attempt_ps;
      r.reconfig_nj += attempt_nj;
    }
    driver_.forget(view.base);
    if (configured) break;
    // The port's check failed: the attempt was lost to the fault.
    if (use == TimeUse::kReconfig) {
      p.recount(TimeUse::kReconfig, TimeUse::kRecovery, p.cpu().now() - t0);
      r.reconfig_ps -= attempt_ps;
      r.reconfig_nj -= attempt_nj;
    }
    if (count_fault(s, r) || r.retries >= params_.recovery.configuration_retries) break;
    reason += "; configuration failed (" + error + "): configuring again";
    ++r.retries;
    ++configuration_retries_;
  }
  port_busy_ = false;
  p.notify(port_released_);
  wake_prefetcher();
  return configured;
}

std::vector<std::uint8_t> Manager::run_on_core(Process& p, RequestRecord& r, const SlotView& view,
                                               Functionality f, const std::vector<std::uint8_t>& key,
                                               const std::vector<std::uint8_t>& data, bool encrypt,
                                               std::uint64_t unit_bytes) {
  const models::IpCore* core = view.slot->core();
  const std::uint64_t corrupted = core ? core->corrupted_results() : 0;
  std::vector<std::uint8_t> output = driver_.run(p, view.base, f, key, data, encrypt, core, unit_bytes);
  r.upset = core && core->corrupted_results() != corrupted;
  if (params_.recovery.verify_cycles_per_block) {
    const Process::Counting checking(p, TimeUse::kRecovery);
    p.compute(params_.recovery.verify_cycles_per_block * r.blocks);
  }
  return output;
}

bool recoverable(const std::exception& e) {
  if (const auto* bus = dynamic_cast<const models::BusError*>(&e))
    return bus->status() == tlm::TLM_GENERIC_ERROR_RESPONSE;
  return dynamic_cast<const DeviceFault*>(&e) != nullptr;
}

void Manager::recount_as_recovery(Process& p, const Process::Ledger& since) {
  const Process::Ledger now = p.spent();
  for (std::size_t u = 0; u < kRequestTimeUses; ++u)
    if (const auto use = static_cast<TimeUse>(u); use != TimeUse::kRecovery && now[u] != since[u])
      p.recount(use, TimeUse::kRecovery, sc_time::from_value(now[u] - since[u]));
}

bool Manager::count_fault(std::size_t s, RequestRecord& r) {
  ++r.faults;
  ++faults_detected_;
  if (slot_faults_.size() < slots_.size()) slot_faults_.resize(slots_.size());
  const std::uint64_t met = ++slot_faults_[s];
  if (params_.recovery.retire_after == 0 || met < params_.recovery.retire_after || table_[s].retired)
    return false;
  table_.retire(s);
  ++retired_;
  return true;
}

void Manager::unload_idle() {
  table_.unload_idle();
  for (auto& prefetched : prefetched_) prefetched.reset();
}

RequestView Manager::view_of(Functionality f, std::uint64_t blocks, const CoreDesign* d,
                             const sc_time& now) const {
  RequestView v;
  v.functionality = f;
  v.blocks = blocks;
  v.has_software = params_.software.count(f) > 0;
  v.has_hardware = d != nullptr;
  if (!d) return v;
  const int id = index_of(d);
  v.resident = table_.resident(id);
  v.resident_idle = table_.resident_idle(id);
  bool usable = false, any = false;
  sc_time wait = sc_core::SC_ZERO_TIME;
  for (std::size_t i = 0; i < table_.size(); ++i) {
    if (!table_.could_host(i, id, d->bitstream_bytes, reconfiguration_ != nullptr)) continue;
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
  return v;
}

std::shared_ptr<const Manager::Reference> Manager::reference(Functionality f,
                                                             const std::vector<std::uint8_t>& key,
                                                             const std::vector<std::uint8_t>& data,
                                                             bool encrypt) {
  if (reference_ && reference_->f == f && reference_->encrypt == encrypt && reference_->check->key() == key &&
      reference_->data == data)
    return reference_;
  reference_ = std::make_shared<const Reference>(f, encrypt, data, check_of(f, key));
  return reference_;
}

std::shared_ptr<const OutputCheck> Manager::check_of(Functionality f, const std::vector<std::uint8_t>& key) {
  for (auto it = checks_.begin(); it != checks_.end(); ++it) {
    if ((*it)->functionality() != f || (*it)->key() != key) continue;
    std::rotate(checks_.begin(), it, it + 1);  // the most recently used first
    return checks_.front();
  }
  if (checks_.size() == kChecksKept) checks_.pop_back();
  checks_.insert(checks_.begin(), std::make_shared<const OutputCheck>(f, key));
  return checks_.front();
}

bool Manager::Reference::matches(const std::vector<std::uint8_t>& candidate) const {
  if (check->by_public_operation()) return check->matches(data, encrypt, candidate);
  return candidate == output();
}

const std::vector<std::uint8_t>& Manager::Reference::output() const {
  if (!output_) output_ = reference_output(f, check->key(), data, encrypt);
  return *output_;
}

RequestOutcome Manager::request(Process& p, const std::string& app, Functionality f,
                                const std::vector<std::uint8_t>& key, const std::vector<std::uint8_t>& data,
                                bool encrypt, std::optional<sc_time> issued,
                                std::optional<bool> force_hardware) {
  RequestOutcome out;
  RequestRecord& r = out.record;
  r.id = next_id();
  r.app = app;
  r.functionality = info(f).name;
  const std::uint64_t unit_size = unit_bytes(params_.unit_bytes, f);
  r.bytes = data.size();
  r.blocks = data.size() / unit_size;
  r.issue_ps = ps(issued ? *issued : p.cpu().now());
  RequestScope scope(p, r);
  std::string problem = key_problem(f, key);
  if (problem.empty() && data.size() % unit_size != 0)
    problem = std::to_string(data.size()) + " bytes of data are not whole " + info(f).name + " blocks (" +
              std::to_string(unit_size) + " bytes each)";
  if (!problem.empty()) {  // nothing runs
    scope.fail(problem);
    r.decision = "none";
    scope.start();
    record(scope.close());
    return out;
  }
  const std::shared_ptr<const Reference> reference_result = reference(f, key, data, encrypt);
  const Reference& expected = *reference_result;
  const CoreDesign* design = design_for(f);

  const Decision decision =
      force_hardware ? Decision{*force_hardware, *force_hardware ? "forced hardware" : "forced software"}
                     : policy_->decide(view_of(f, r.blocks, design, p.cpu().now()));
  bool hardware = decision.hardware && design;
  std::string reason = decision.reason;
  int slot = -1;
  bool configure = false;
  if (hardware) contexts_.first_use(p);
  if (hardware && params_.driver.prepare_cycles_per_request)
    p.compute(params_.driver.prepare_cycles_per_request);
  predicted_.erase(app);
  std::optional<sc_time> overtook;  // the part of a prefetch in progress done when this request came
  if (hardware) {
    for (;;) {
      // The core being prefetched: wait for it (the rest of its configuration is not hidden).
      if (prefetching_ && prefetching_->design == index_of(design)) {
        overtook = p.cpu().now() - prefetching_->start;
        const sc_time t0 = p.cpu().now();
        while (prefetching_ && prefetching_->design == index_of(design))
          p.wait_for(port_released_, TimeUse::kReconfig);
        r.reconfig_ps += ps(p.cpu().now() - t0);  // the rest of the configuration, not hidden
      }
      std::function<bool(std::size_t)> holds_mine;  // per-process contexts: a slot holding p's first
      if (contexts_.per_process())
        holds_mine = [this, mine = ProcessContexts::owner(p)](std::size_t s) {
          return contexts_.holder(s) == mine;
        };
      const auto choice =
          table_.choose(index_of(design), design->bitstream_bytes, reconfiguration_ != nullptr, holds_mine);
      if (choice) {
        take_prefetched(choice->slot, choice->configure, overtook, r);
        served_.push_back(index_of(design));
        slot = static_cast<int>(choice->slot);
        configure = choice->configure;
        const std::string& name = slots_[choice->slot].name;
        if (!configure) {
          reason += "; core resident in " + name;
        } else if (choice->evicted >= 0) {
          reason += "; evicting " + designs_[static_cast<std::size_t>(choice->evicted)].name + " from " +
                    name + " (" + kReplacementName[static_cast<int>(params_.replacement)] + ")";
          ++evictions_;
        } else {
          reason += "; configuring empty " + name;
        }
        table_.start(choice->slot, index_of(design), configure);
        break;
      }
      if (!params_.wait_for_slot && params_.software.count(f)) {
        hardware = false;
        ++fallbacks_;
        reason += "; no slot free: software instead";
        break;
      }
      if (!hostable(*design)) {  // faults retired every slot that could host it: waiting would be forever
        if (!params_.software.count(f)) {
          scope.fail("no slot can host " + design->name + " any more: every one that could was retired");
          r.decision = "none";
          r.reason = reason;
          scope.start();
          record(scope.close());
          return out;
        }
        hardware = false;
        ++fault_fallbacks_;
        reason += "; every slot that could host " + design->name + " was retired: software instead";
        break;
      }
      // A prefetch of another core into a slot this request could use gives way to it.
      if (prefetching_ && prefetching_->design != index_of(design) &&
          table_.could_host(prefetching_->slot, index_of(design), design->bitstream_bytes, true))
        cancel_prefetch_ = true;
      ++slot_waits_;
      // A core in use is never evicted: wait for one to finish.
      ++waiting_;
      p.wait_for(slot_released_, TimeUse::kSlotWait);
      --waiting_;
    }
  }
  scope.start();
  const sc_time t_start = p.cpu().now();
  const std::uint64_t cpu_wait_before = p.spent()[static_cast<std::size_t>(TimeUse::kCpuWait)];
  try {
    if (hardware) {
      const std::size_t s = static_cast<std::size_t>(slot);
      const SlotView& view = slots_[s];
      if (model_)
        busy_until_[s] =  // an estimate past 2^57 ps (40 hours) is as good as forever: never wrapped around
            t_start + models::seconds(std::min(model_->hardware_s(f, r.blocks, !configure), 1.44e5),
                                      "a hardware request's estimated time");
      r.decision = "hardware";
      r.slot = view.name;
      bool configured = true;
      if (configure) {
        ++misses_;
        std::string error;
        configured = configure_slot(p, r, s, *design, TimeUse::kReconfig, reason, error);
        if (!configured) {
          table_.configuration_failed(s);
          if (!params_.recovery.fallback_to_software || !params_.software.count(f)) throw DriverError(error);
          r.fallback = true;
          ++fault_fallbacks_;
          reason += "; configuration failed (" + error + "): software instead";
        }
      } else {
        ++hits_;
      }
      if (configured) {
        contexts_.use(p, s, view.name, configure, r, reason);
        const sc_time t1 = p.cpu().now();
        const Process::Ledger before = p.spent();
        // A bus fault (an error response, an FMC access whose NWAIT never cleared) or a device's failure (a
        // DMA transfer, a core that never became ready) during the run: with the software fallback, a fault.
        // A hung core (the watchdog) is configured again and run again.
        const auto fall_back = [&](const std::exception& e) {
          if (!params_.recovery.fallback_to_software || !params_.software.count(f)) return false;
          // A core that failed (not the bus) is configured again before its next use.
          if (dynamic_cast<const DeviceFault*>(&e)) table_.configuration_failed(s);
          count_fault(s, r);
          recount_as_recovery(p, before);
          r.fallback = true;
          ++fault_fallbacks_;
          reason += std::string("; ") + e.what() + ": software instead";
          return true;
        };
        std::string fault;  // what made the core's run useless: it is configured again and run again
        try {
          out.output = run_on_core(p, r, view, f, key, data, encrypt, unit_size);
        } catch (const DriverTimeout& e) {  // the watchdog: the core hung
          count_fault(s, r);
          ++watchdog_timeouts_;
          recount_as_recovery(p, before);
          fault = e.what();
        } catch (const std::exception& e) {
          if (!recoverable(e) || !fall_back(e)) throw;
        }
        r.exec_ps = ps(p.cpu().now() - t1);
        if (fault.empty() && !r.fallback && params_.recovery.verify_cycles_per_block &&
            !expected.matches(out.output)) {
          count_fault(s, r);  // the output check found it wrong: an upset core
          ++corruptions_detected_;
          fault = "output check failed";
        }
        if (!fault.empty()) {
          const Process::Counting recovering(p, TimeUse::kRecovery);
          reason += "; " + fault + ": configuring " + view.name + " again";
          bool repaired = false;
          if (!table_[s].retired) {
            std::string error;
            repaired = configure_slot(p, r, s, *design, TimeUse::kRecovery, reason, error);
          }
          bool done = false;
          if (repaired) {
            ++r.retries;
            try {
              out.output = run_on_core(p, r, view, f, key, data, encrypt, unit_size);
              done = !params_.recovery.verify_cycles_per_block || expected.matches(out.output);
            } catch (const DriverTimeout&) {
              count_fault(s, r);
              ++watchdog_timeouts_;
            } catch (const std::exception& e) {
              if (!recoverable(e)) throw;
              count_fault(s, r);
            }
          } else {
            table_.configuration_failed(s);
          }
          if (!done) {
            if (repaired) table_.configuration_failed(s);  // never used again as it is: configured first
            if (!params_.recovery.fallback_to_software || !params_.software.count(f))
              throw DriverError(fault + " and the core could not be repaired");
            r.fallback = true;
            ++fault_fallbacks_;
            reason += "; software instead";
          }
        }
      }
    }
    if (!hardware || r.fallback) {
      r.decision = "software";
      if (!params_.software.count(f) && design && !hostable(*design))
        throw DriverError("no slot can host " + design->name + " any more: every one that could was retired");
      if (!params_.software.count(f))  // a policy may not know; the request fails rather than take no time
        throw DriverError(std::string("no software implementation of ") + info(f).name + " (/software/" +
                          info(f).name + " is not defined)");
      const SoftwareCost& cost = params_.software.at(f);
      const sc_time t1 = p.cpu().now();
      p.compute(cost.cycles_per_request + r.blocks * cost.block_cycles(unit_size, info(f).block_bytes),
                cost.smt_throughput);
      if (cost.extension) {  // the values the extension instructions compute on this thread's unit
        auto* unit = dynamic_cast<models::DesrndExtension*>(&p.cpu().extension(cost.extension->unit));
        if (!unit) throw DriverError("extension \"" + cost.extension->unit + "\" is not a desrnd unit");
        out.output = run_on_desrnd(unit->unit(), f, *cost.extension, key, data, encrypt);
        reason += std::string("; on the ") + cost.extension->unit + " extension (" +
                  kExtensionIntegrationNames.name(cost.extension->integration) + ")";
      } else {
        out.output = expected.output();  // the software implementation is the reference cipher
      }
      r.exec_ps = ps(p.cpu().now() - t1);
    }
    if (const crypto::BlockFunction* computes = info(f).computes; !computes || computes->checked) {
      if (r.upset && !r.fallback && !expected.matches(out.output)) {
        r.wrong_output = true;  // an upset core's output, delivered as if it were right: silent corruption
        ++silent_corruptions_;
      } else {
        scope.verify(expected.matches(out.output), "output differs from the reference cipher");
      }
    }
  } catch (const std::exception& e) {
    scope.fail(e.what());
  }
  if (slot >= 0 && hardware) {
    table_.finish(static_cast<std::size_t>(slot), params_.caching);  // no module caching: the core leaves
    p.notify(slot_released_);
  }
  if (params_.prefetch.predictor != Predictor::kNone) predict(app, f);
  r.reason = reason;
  scope.close();
  if (r.ok) {
    Observation o;
    o.functionality = f;
    o.blocks = r.blocks;
    o.hardware = hardware;
    o.reconfigured = r.reconfigured;
    // Configuring counts as kReconfig whatever the process does: what it waited for the CPU from the start on
    // was during the execution.
    const std::uint64_t cpu_wait = p.spent()[static_cast<std::size_t>(TimeUse::kCpuWait)] - cpu_wait_before;
    o.exec_s = static_cast<double>(r.exec_ps - std::min(cpu_wait, r.exec_ps)) * 1e-12;
    o.reconfig_s = static_cast<double>(r.reconfig_ps) * 1e-12;
    if (r.energy) {
      const double floor_w = params_.energy_floor_mw * 1e-3;
      o.reconfig_j = r.reconfig_nj * 1e-9 + floor_w * o.reconfig_s;
      o.exec_j = (r.energy->total_nj() - r.reconfig_nj) * 1e-9 + floor_w * o.exec_s;
    }
    policy_->observe(o);
  }
  record(r);
  return out;
}

void Manager::record(const RequestRecord& r) {
  ++recorded_;
  if (sink_) sink_(r);
}

std::optional<CoreLease> Manager::take_core(models::CoreKind kind) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < table_.size(); ++i) {
    const int d = table_[i].design;
    if (d < 0 || table_[i].in_use || designs_[static_cast<std::size_t>(d)].kind != kind) continue;
    if (!best || table_[i].last_use < table_[*best].last_use) best = i;
  }
  if (!best) return std::nullopt;
  table_.take(*best);
  const SlotView& v = slots_[*best];
  return CoreLease{*best, v.name, v.base, v.slot->core()};
}

void Manager::stamp(const CoreLease& lease) {
  table_.stamp(lease.slot);
}

void Manager::give_back(Process& p, const CoreLease& lease) {
  table_.finish(lease.slot, true);
  p.notify(slot_released_);
}

std::size_t Manager::cores_of(models::CoreKind kind) const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < table_.size(); ++i)
    if (table_[i].design >= 0 && designs_[static_cast<std::size_t>(table_[i].design)].kind == kind) ++n;
  return n;
}

}  // namespace rsoc::runtime
