#include "runtime/manager.h"

#include <algorithm>
#include <stdexcept>

#include "models/desrnd_extension.h"
#include "models/kernel_time.h"
#include "runtime/extension_software.h"

namespace rsoc::runtime {

using sc_core::sc_time;

Manager::Manager(const RuntimeParams& params, std::vector<SlotView> slots, std::vector<CoreDesign> designs,
                 std::unique_ptr<ReconfigurationDriver> reconfiguration, const CostModel* model, Sink sink,
                 const DataPath& path)
    : params_(params),
      driver_(params.driver, path),
      slots_(std::move(slots), std::move(designs), params.replacement, params.caching,
             std::move(reconfiguration), driver_),
      prefetcher_(params.prefetch, slots_),
      recovery_(params.recovery, slots_),
      contexts_(params.contexts, slots_.slots().size()),
      model_(model),
      policy_(make_policy(params.policy, params.thresholds, model, params.energy_floor_mw)),
      ledger_(std::move(sink)) {
  slots_.when_port_free([this] { prefetcher_.wake(); });
}

RequestOutcome Manager::request(Process& p, const std::string& app, Functionality f,
                                const std::vector<std::uint8_t>& key, const std::vector<std::uint8_t>& data,
                                bool encrypt, std::optional<sc_time> issued,
                                std::optional<bool> force_hardware) {
  const std::uint64_t unit = unit_bytes(params_.unit_bytes, f);
  const auto software = params_.software.find(f);
  RequestOutcome out;
  RequestRecord& r = out.record;
  r = ledger_.open(app, info(f).name, data.size() / unit, data.size(),
                   (issued ? *issued : p.cpu().now()).value());
  RequestScope scope(p, r);
  Job job{p,    app,     f,    key,
          data, encrypt, unit, software == params_.software.end() ? nullptr : &software->second,
          out,  scope};
  if (!admit(job)) return out;  // inputs the functionality cannot take: nothing runs
  decide(job, force_hardware);
  if (job.hardware && !lease(job)) return out;  // no slot can ever host its core, and no software
  scope.start();
  job.cpu_wait_before = p.spent()[static_cast<std::size_t>(TimeUse::kCpuWait)];
  try {
    if (job.hardware) run_in_hardware(job);
    if (!job.hardware || r.fallback) run_in_software(job);
    verify(job);
  } catch (const std::exception& e) {
    scope.fail(e.what());
  }
  if (job.slot) job.slot->release();
  if (prefetcher_.on()) prefetcher_.predict(app, f);
  r.reason = job.reason;
  scope.close();
  learn(job);
  ledger_.record(r);
  return out;
}

bool Manager::admit(Job& job) {
  std::string problem = key_problem(job.f, job.key);
  if (problem.empty() && job.data.size() % job.unit_bytes != 0)
    problem = std::to_string(job.data.size()) + " bytes of data are not whole " + info(job.f).name +
              " blocks (" + std::to_string(job.unit_bytes) + " bytes each)";
  if (problem.empty()) return true;
  refuse(job, problem);
  return false;
}

void Manager::refuse(Job& job, const std::string& problem) {
  RequestRecord& r = job.out.record;
  job.scope.fail(problem);
  r.decision = "none";
  r.reason = job.reason;
  job.scope.start();
  ledger_.record(job.scope.close());
}

void Manager::decide(Job& job, std::optional<bool> force_hardware) {
  Process& p = job.p;
  job.reference = verifier_.reference(job.f, job.key, job.data, job.encrypt);
  job.design = slots_.design_for(job.f);
  const Decision decision =
      force_hardware ? Decision{*force_hardware, *force_hardware ? "forced hardware" : "forced software"}
                     : policy_->decide(view_of(job, p.cpu().now()));
  job.hardware = decision.hardware && job.design;
  job.reason = decision.reason;
  if (job.hardware) contexts_.first_use(p);
  if (job.hardware && params_.driver.prepare_cycles_per_request)
    p.compute(params_.driver.prepare_cycles_per_request);
  prefetcher_.forget(job.app);
}

RequestView Manager::view_of(const Job& job, const sc_time& now) const {
  RequestView v;
  v.functionality = job.f;
  v.blocks = job.out.record.blocks;
  v.has_software = job.software != nullptr;
  v.has_hardware = job.design != nullptr;
  if (job.design) slots_.describe(*job.design, now, v);
  return v;
}

bool Manager::lease(Job& job) {
  Process& p = job.p;
  const CoreDesign& design = *job.design;
  std::function<bool(std::size_t)> holds_mine;  // per-process contexts: a slot holding p's first
  if (contexts_.per_process())
    holds_mine = [this, mine = ProcessContexts::owner(p)](std::size_t s) {
      return contexts_.holder(s) == mine;
    };
  std::optional<sc_time> overtook;  // the part of a prefetch of the core in progress done when this came
  for (;;) {
    // The core being prefetched: wait for it (the rest of its configuration is not hidden).
    if (const auto background = slots_.finish_background(p, design, job.out.record)) overtook = background;
    job.slot = slots_.take(p, design, holds_mine, job.configure, job.reason);
    if (job.slot) {
      prefetcher_.take(job.slot->slot(), job.configure, overtook, job.out.record);
      return true;
    }
    if (!params_.wait_for_slot && job.software) {
      job.hardware = false;
      slots_.count_fallback();
      job.reason += "; no slot free: software instead";
      return true;
    }
    if (!slots_.hostable(design)) {  // faults retired every slot that could host it: waiting would be forever
      if (!job.software) {
        refuse(job, "no slot can host " + design.name + " any more: every one that could was retired");
        return false;
      }
      job.hardware = false;
      recovery_.fall_back(job.reason, "every slot that could host " + design.name + " was retired");
      return true;
    }
    slots_.wait_for_slot(p, design);
  }
}

void Manager::run_in_hardware(Job& job) {
  Process& p = job.p;
  RequestRecord& r = job.out.record;
  const std::size_t s = job.slot->slot();
  const SlotView& view = slots_.slots()[s];
  if (model_)  // an estimate past 2^57 ps (40 hours) is as good as forever: never wrapped around
    slots_.expect_busy_until(
        s,
        p.cpu().now() + models::seconds(std::min(model_->hardware_s(job.f, r.blocks, !job.configure), 1.44e5),
                                        "a hardware request's estimated time"));
  r.decision = "hardware";
  r.slot = view.name;
  const bool can_fall_back = params_.recovery.fallback_to_software && job.software;
  if (job.configure && !recovery_.load(p, r, s, *job.design, can_fall_back, job.reason)) return;
  contexts_.use(p, s, view.name, job.configure, r, job.reason);
  Recovery::HardwareRun run{[&] { return run_on_core(job, view); }, nullptr, can_fall_back};
  if (params_.recovery.verify_cycles_per_block)
    run.check = [&job](const std::vector<std::uint8_t>& output) { return job.reference->matches(output); };
  recovery_.run(p, r, s, *job.design, run, job.out.output, job.reason);
}

std::vector<std::uint8_t> Manager::run_on_core(Job& job, const SlotView& view) {
  Process& p = job.p;
  RequestRecord& r = job.out.record;
  const models::IpCore* core = view.slot->core();
  const std::uint64_t corrupted = core ? core->corrupted_results() : 0;
  std::vector<std::uint8_t> output;
  if (const auto code = params_.driver_programs.find(job.f); code != params_.driver_programs.end()) {
    // The OS's work around the call, then the driver's instructions and their register accesses.
    p.cpu().compute(params_.driver.cycles_per_request + r.blocks * params_.driver.cycles_per_block);
    output = programs_.drive(p, *code->second, view.base, job.f, job.key, job.data, job.encrypt, driver_);
  } else {
    output = driver_.run(p, view.base, job.f, job.key, job.data, job.encrypt, core, job.unit_bytes);
  }
  r.upset = core && core->corrupted_results() != corrupted;
  if (params_.recovery.verify_cycles_per_block) {
    const Process::Counting checking(p, TimeUse::kRecovery);
    p.compute(params_.recovery.verify_cycles_per_block * r.blocks);
  }
  return output;
}

void Manager::run_in_software(Job& job) {
  Process& p = job.p;
  RequestRecord& r = job.out.record;
  const Functionality f = job.f;
  r.decision = "software";
  if (!job.software && job.design && !slots_.hostable(*job.design))
    throw DriverError("no slot can host " + job.design->name + " any more: every one that could was retired");
  if (!job.software)  // a policy may not know; the request fails rather than take no time
    throw DriverError(std::string("no software implementation of ") + info(f).name + " (/software/" +
                      info(f).name + " is not defined)");
  const SoftwareCost& cost = *job.software;
  const sc_time t1 = p.cpu().now();
  if (cost.program) {  // the OS's work around the call, then the code's instructions on the ISS
    if (const std::uint64_t os = cost.cycles_per_request + r.blocks * cost.cycles_per_block)
      p.compute(os, cost.smt_throughput);
    ProgramRunner::Run run = programs_.run(p, *cost.program, job.key, job.data, job.encrypt);
    job.out.output = run.reused ? job.reference->output() : std::move(run.output);
    job.reason += "; " + cost.program->entry + " on the instruction-set CPU" +
                  (run.reused ? " (the cost of an earlier call of as many bytes)" : "");
    r.exec_ps = (p.cpu().now() - t1).value();
    return;
  }
  p.compute(cost.cycles_per_request + r.blocks * cost.block_cycles(job.unit_bytes, info(f).block_bytes),
            cost.smt_throughput);
  if (cost.extension) {  // the values the extension instructions compute on this thread's unit
    auto* unit = dynamic_cast<models::DesrndExtension*>(&p.cpu().extension(cost.extension->unit));
    if (!unit) throw DriverError("extension \"" + cost.extension->unit + "\" is not a desrnd unit");
    job.out.output = run_on_desrnd(unit->unit(), f, *cost.extension, job.key, job.data, job.encrypt);
    job.reason += std::string("; on the ") + cost.extension->unit + " extension (" +
                  kExtensionIntegrationNames.name(cost.extension->integration) + ")";
  } else {
    job.out.output = job.reference->output();  // the software implementation is the reference cipher
  }
  r.exec_ps = (p.cpu().now() - t1).value();
}

void Manager::verify(Job& job) {
  const crypto::BlockFunction* computes = info(job.f).computes;
  if (computes && !computes->checked) return;
  RequestRecord& r = job.out.record;
  if (r.upset && !r.fallback && !job.reference->matches(job.out.output)) {
    r.wrong_output = true;  // an upset core's output, delivered as if it were right: silent corruption
    recovery_.count_silent_corruption();
  } else {
    job.scope.verify(job.reference->matches(job.out.output), "output differs from the reference cipher");
  }
}

void Manager::learn(const Job& job) {
  const RequestRecord& r = job.out.record;
  if (!r.ok) return;
  Observation o;
  o.functionality = job.f;
  o.blocks = r.blocks;
  o.hardware = job.hardware;
  o.reconfigured = r.reconfigured;
  // Configuring counts as kReconfig whatever the process does: what it waited for the CPU from the start on
  // was during the execution.
  const std::uint64_t cpu_wait =
      job.p.spent()[static_cast<std::size_t>(TimeUse::kCpuWait)] - job.cpu_wait_before;
  o.exec_s = static_cast<double>(r.exec_ps - std::min(cpu_wait, r.exec_ps)) * 1e-12;
  o.reconfig_s = static_cast<double>(r.reconfig_ps) * 1e-12;
  if (r.energy) {
    const double floor_w = params_.energy_floor_mw * 1e-3;
    o.reconfig_j = r.reconfig_nj * 1e-9 + floor_w * o.reconfig_s;
    o.exec_j = (r.energy->total_nj() - r.reconfig_nj) * 1e-9 + floor_w * o.exec_s;
  }
  policy_->observe(o);
}

void Manager::statistics(double /*end_ms*/, std::vector<models::StatGroup>& out) const {
  models::StatGroup g{"manager", "manager", {}};
  slots_.statistics(g);
  recovery_.statistics(g);
  prefetcher_.statistics(g);
  contexts_.statistics(g);
  programs_.statistics(g);
  out.push_back(std::move(g));
}

}  // namespace rsoc::runtime
