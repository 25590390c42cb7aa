#pragma once
// Energy accounting: what the models spend, and who pays for it.
//
// A model that spends energy per event — a bus per word it carries, a memory per word read or written, a DMA
// engine per word it moves, the configuration port per bitstream word it receives, a core per cycle it
// computes — is given its cost in its Params (platform/ fills them from the scenario's section `energy`;
// none: the model counts no energy) and spends it where it counts
// the event: into its own total (the run's energy by component, in stats.json) and into the account of the
// payload that made it do the work. Power over time (a CPU's active and idle power, static power of regions
// and of the platform) is no event: platform/ computes it from the models' times.
//
// Who pays: an initiator attaches an EnergyTag to its payloads naming an account — a CPU thread the account
// of the OS process holding it, a DMA engine the account of the access that started its transfer — and
// every model on the path charges that account. A payload without an account (debug accesses, scrubbing) is
// spent by the model and paid by nobody. Accounts only add up: the runtime reads them before and after a
// request, as it reads a process's time ledger.
//
// A model without an energy cost pays one boolean test per event; no payload is looked at.

#include <tlm>

#include "models/energy_account.h"
#include "models/statistics.h"

namespace rsoc::models {

// The account a payload's work is charged to (none: nobody pays).
class EnergyTag : public tlm::tlm_extension<EnergyTag> {
 public:
  EnergyAccount* account = nullptr;
  tlm::tlm_extension_base* clone() const override {
    auto* copy = new EnergyTag;
    copy->account = account;
    return copy;
  }
  void copy_from(const tlm::tlm_extension_base& other) override {
    account = static_cast<const EnergyTag&>(other).account;
  }
};

inline EnergyAccount* payer_of(const tlm::tlm_generic_payload& trans) {
  const EnergyTag* tag = trans.get_extension<EnergyTag>();
  return tag ? tag->account : nullptr;
}

// What one model spends: on (the scenario gave it a cost) or not, and its total so far.
class EnergySpent {
 public:
  explicit EnergySpent(EnergyPart part) : part_(part) {}
  void enable() { on_ = true; }
  bool on() const { return on_; }
  double total_nj() const { return total_nj_; }
  // `amount` nJ spent for `payer` (null: nobody).
  void spend(double amount, EnergyAccount* payer) {
    total_nj_ += amount;
    if (payer) payer->add(part_, amount);
  }
  void spend(double amount, const tlm::tlm_generic_payload& trans) { spend(amount, payer_of(trans)); }

 private:
  EnergyPart part_;
  bool on_ = false;
  double total_nj_ = 0;
};

// A model's group in stats.json gets `energy_mj`, what it spent, when it has an energy cost.
inline void add_energy(StatGroup& g, const EnergySpent& e, const char* what) {
  if (e.on()) g.add("energy_mj", e.total_nj() * 1e-6, "mJ", what);
}

}  // namespace rsoc::models
