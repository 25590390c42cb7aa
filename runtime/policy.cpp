#include "runtime/policy.h"

#include <cstdio>

namespace rsoc::runtime {

std::string ms_text(double seconds) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3f ms", seconds * 1e3);
  return buf;
}

void LinearFit::add(double blocks, double seconds) {
  ++n_;
  sx_ += blocks;
  sy_ += seconds;
  sxx_ += blocks * blocks;
  sxy_ += blocks * seconds;
  ++sizes_[blocks];
}

double LinearFit::predict(double blocks) const {
  if (n_ == 0) return 0;
  const double n = static_cast<double>(n_);
  const double den = n * sxx_ - sx_ * sx_;
  if (sizes_.size() < 2 || den == 0) return sy_ / sx_ * blocks;  // one size seen: proportional
  const double b = (n * sxy_ - sx_ * sy_) / den;
  const double a = (sy_ - b * sx_) / n;
  return a + b * blocks;
}

namespace {

class SoftwarePolicy : public SelectionPolicy {
 public:
  Decision decide(const RequestView&) override { return {false, "policy software"}; }
  const char* name() const override { return kPolicyNames.name(PolicyKind::kSoftware); }
};

class HardwarePolicy : public SelectionPolicy {
 public:
  Decision decide(const RequestView& v) override {
    if (!v.has_hardware)
      return {false, "policy hardware, but " + std::string(v.no_hardware) + " " + info(v.functionality).name};
    return {true, "policy hardware"};
  }
  const char* name() const override { return kPolicyNames.name(PolicyKind::kHardware); }
};

class ThresholdPolicy : public SelectionPolicy {
 public:
  explicit ThresholdPolicy(std::map<Functionality, std::uint64_t> t) : thresholds_(std::move(t)) {}
  Decision decide(const RequestView& v) override {
    const auto it = thresholds_.find(v.functionality);
    if (!v.has_hardware)
      return {false, "threshold: " + std::string(v.no_hardware) + " " + info(v.functionality).name};
    if (it == thresholds_.end())
      return v.has_software
                 ? Decision{false, "threshold: none set for " + std::string(info(v.functionality).name)}
                 : Decision{true, "threshold: none set for " + std::string(info(v.functionality).name) +
                                      ", and no software implementation"};
    const bool hw = v.blocks >= it->second || !v.has_software;
    return {hw, "threshold: " + std::to_string(v.blocks) + (hw ? " >= " : " < ") +
                    std::to_string(it->second) + " blocks"};
  }
  const char* name() const override { return kPolicyNames.name(PolicyKind::kThreshold); }

 private:
  std::map<Functionality, std::uint64_t> thresholds_;
};

// Chooses the faster of two predictions and says so.
Decision compare(const char* who, double sw, double hw, const RequestView& v, double reconfig) {
  std::string why = std::string(who) + ": software " + ms_text(sw) + " vs hardware " + ms_text(hw);
  if (!v.resident) why += " (reconfiguration " + ms_text(reconfig) + ")";
  if (v.slot_wait_s > 0) why += " (slot wait " + ms_text(v.slot_wait_s) + ")";
  return {hw < sw, why};
}

class CostModelPolicy : public SelectionPolicy {
 public:
  explicit CostModelPolicy(const CostModel& model) : model_(model) {}
  Decision decide(const RequestView& v) override {
    if (!v.has_hardware)
      return {false, "cost model: " + std::string(v.no_hardware) + " " + info(v.functionality).name};
    if (!v.has_software) return {true, "cost model: no software implementation"};
    const double sw = model_.software_s(v.functionality, v.blocks);
    const double hw = model_.hardware_s(v.functionality, v.blocks, v.resident, v.slot_wait_s);
    return compare("cost model", sw, hw, v, model_.reconfiguration_s(v.functionality));
  }
  const char* name() const override { return kPolicyNames.name(PolicyKind::kCostModel); }

 private:
  const CostModel& model_;
};

std::string mj_text(double joules) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g mJ", joules * 1e3);
  return buf;
}

// Learns time and energy per request and per block (least squares) for software and hardware, and the mean
// reconfiguration, from completed requests; explores first (see kAdaptive). Decides by `objective`: the
// latency (adaptive), the energy (energy) or their product (energy_delay).
class AdaptivePolicy : public SelectionPolicy {
 public:
  AdaptivePolicy(PolicyKind objective, double floor_mw) : objective_(objective), floor_w_(floor_mw * 1e-3) {}
  Decision decide(const RequestView& v) override {
    const std::string who = name();
    if (!v.has_hardware)
      return {false, who + ": " + std::string(v.no_hardware) + " " + info(v.functionality).name};
    if (!v.has_software) return {true, who + ": no software implementation"};
    Knowledge& k = know_[v.functionality];
    if (k.sw.distinct_sizes() < 2 && k.sw.count() < 2) return {false, who + ": exploring software"};
    if (k.reconfigs == 0 || (k.hw.distinct_sizes() < 2 && k.hw.count() < 2))
      return {true, who + ": exploring hardware"};
    const double blocks = static_cast<double>(v.blocks);
    const double n = static_cast<double>(k.reconfigs);
    const double reconfig = k.reconfig_total / n, reconfig_j = k.reconfig_j_total / n;
    const double sw = k.sw.predict(blocks);
    const double hw = (v.resident ? 0 : reconfig) + v.slot_wait_s + k.hw.predict(blocks);
    if (objective_ == PolicyKind::kAdaptive) return compare("adaptive", sw, hw, v, reconfig);
    // Waiting for a slot costs the floor power.
    const double sw_j = k.sw_j.predict(blocks);
    const double hw_j = (v.resident ? 0 : reconfig_j) + k.hw_j.predict(blocks) + v.slot_wait_s * floor_w_;
    std::string why = who + ": software " + mj_text(sw_j) + " vs hardware " + mj_text(hw_j);
    if (!v.resident) why += " (reconfiguration " + mj_text(reconfig_j) + ")";
    if (objective_ == PolicyKind::kEnergy) return {hw_j < sw_j, why};
    why += "; times " + ms_text(sw) + " vs " + ms_text(hw);
    return {hw_j * hw < sw_j * sw, why};
  }
  void observe(const Observation& o) override {
    Knowledge& k = know_[o.functionality];
    (o.hardware ? k.hw : k.sw).add(static_cast<double>(o.blocks), o.exec_s);
    (o.hardware ? k.hw_j : k.sw_j).add(static_cast<double>(o.blocks), o.exec_j);
    if (o.reconfigured) {
      ++k.reconfigs;
      k.reconfig_total += o.reconfig_s;
      k.reconfig_j_total += o.reconfig_j;
    }
  }
  const char* name() const override { return kPolicyNames.name(objective_); }

 private:
  struct Knowledge {
    LinearFit sw, hw, sw_j, hw_j;
    std::uint64_t reconfigs = 0;
    double reconfig_total = 0, reconfig_j_total = 0;
  };
  PolicyKind objective_;
  double floor_w_;  // the platform's power with nothing busy
  std::map<Functionality, Knowledge> know_;
};

}  // namespace

std::unique_ptr<SelectionPolicy> make_policy(PolicyKind kind,
                                             const std::map<Functionality, std::uint64_t>& thresholds,
                                             const CostModel* model, double floor_mw) {
  switch (kind) {
    case PolicyKind::kSoftware:
      return std::make_unique<SoftwarePolicy>();
    case PolicyKind::kHardware:
      return std::make_unique<HardwarePolicy>();
    case PolicyKind::kThreshold:
      return std::make_unique<ThresholdPolicy>(thresholds);
    case PolicyKind::kCostModel:
      return std::make_unique<CostModelPolicy>(*model);
    case PolicyKind::kAdaptive:
    case PolicyKind::kEnergy:
    case PolicyKind::kEnergyDelay:
      return std::make_unique<AdaptivePolicy>(kind, floor_mw);
  }
  return nullptr;
}

}  // namespace rsoc::runtime
