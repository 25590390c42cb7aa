#include "platform/estimate.h"

#include <algorithm>
#include <cmath>

#include "runtime/drivers.h"

namespace rsoc::platform {

namespace {

double sec(const sc_core::sc_time& t) {
  return t.to_seconds();
}

const BusSpec* find_bus(const ScenarioParams& p, const std::string& name) {
  for (const auto& b : p.buses)
    if (b.name == name) return &b;
  return nullptr;
}

// Buses from the CPU's root bus down to `leaf` (root first).
std::vector<const BusSpec*> path_to(const ScenarioParams& p, const std::string& leaf) {
  std::vector<const BusSpec*> path;
  for (const BusSpec* b = find_bus(p, leaf); b; b = b->parent.empty() ? nullptr : find_bus(p, b->parent))
    path.insert(path.begin(), b);
  return path;
}

// Time of one word access through `path` to a target that answers after `target_s`.
double word_access_s(const ScenarioParams& p, const std::vector<const BusSpec*>& path, double target_s,
                     bool read) {
  const CpuSpec& cpu = p.cpus.front();
  double t = sec(cpu.params.clock_period) * cpu.params.mmio_cycles;
  for (const BusSpec* b : path) {
    if (const models::OnChipBusParams* o = b->onchip()) {
      t += sec(o->clock_period) * static_cast<double>(o->transfer_cycles(1));
      continue;
    }
    const models::FmcBusParams& f = *b->fmc();
    const double clk = sec(f.clock_period);
    const double nwait_cycles = std::ceil(target_s / clk - 1e-9);  // the target's time, in whole bus cycles
    const double cpu_cycle = sec(f.cpu_clock_period);
    const double software = cpu_cycle * (f.byteswap_cycles + f.software_cycles(read));
    double polling = 0;
    if (f.nwait == models::FmcNwait::kPolled)
      polling = static_cast<double>(f.nwait_polls(static_cast<std::uint64_t>(nwait_cycles))) *
                (cpu_cycle * f.poll_cycles);
    const double one = clk * f.phase_cycles() + nwait_cycles * clk + polling;
    return t + one * f.accesses_per_word(read) + software;
  }
  return t + target_s;
}

}  // namespace

AccessEstimate estimate_access(const ScenarioParams& p, std::size_t slot, const models::CoreParams& core) {
  const auto path = path_to(p, p.slots.at(slot).bus);
  const double target = sec(core.clock_period) * core.access_cycles;
  return AccessEstimate{word_access_s(p, path, target, true), word_access_s(p, path, target, false)};
}

namespace {

const MemorySpec* memory_named(const ScenarioParams& p, const std::string& name) {
  for (const auto& m : p.memories)
    if (m.name == name) return &m;
  return nullptr;
}

const DmaSpec* dma_named(const ScenarioParams& p, const std::string& name) {
  for (const auto& d : p.dmas)
    if (d.name == name) return &d;
  return nullptr;
}

// Per word of a pipelined stream between memory `mem` and a device on `device_bus`: the slowest of the
// memory, the mover (`mover_s`), the device (`device_s`) and every bus crossed (held for the read and for the
// write when both ends share it; its per-chunk latency spread over `chunk_words`).
double stream_word_s(const ScenarioParams& p, const MemorySpec* mem, const std::string& device_bus,
                     double mover_s, double device_s, unsigned chunk_words) {
  double stage = std::max(mover_s, device_s);
  if (mem) stage = std::max(stage, sec(mem->params.clock_period) * mem->params.cycles_per_word);
  const auto mem_path = path_to(p, mem ? mem->bus : device_bus);
  const auto device_path = path_to(p, device_bus);
  for (const BusSpec* b : mem_path) {
    const models::OnChipBusParams* o = b->onchip();
    if (!o) continue;
    const bool twice = std::find(device_path.begin(), device_path.end(), b) != device_path.end();
    const double per_word = sec(o->clock_period) * o->stream_cycles_per_word(chunk_words);
    stage = std::max(stage, per_word * (twice ? 2 : 1));
  }
  return stage;
}

// One cipher block of `fi` over the DMA data path: its words streamed in (the core's stage: the larger of the
// access and its share of the compute) and its result words out, plus its share of each piece's two DMA
// programmings (four register writes, one status read, the engine's set-up) and of the time a pipelined core
// takes to finish the piece's last block after it entered (`piece_tail_s`: the results are read after it).
double dma_block_s(const ScenarioParams& p, const SlotSpec& slot, const models::CoreParams& core,
                   const runtime::FunctionalityInfo& fi, double core_block_s, double piece_tail_s) {
  const double words = fi.block_bytes / 4.0, result_words = fi.output_bytes() / 4.0;
  const DataPathSpec& path = *p.data_dma;
  const DmaSpec* d = dma_named(p, path.engines.front());  // identical engines when there are several
  const MemorySpec* mem = memory_named(p, path.memory);
  const double mover = sec(d->params.clock_period) * d->params.cycles_per_word;
  const double access = sec(core.clock_period) * core.access_cycles;
  const unsigned chunk = d->params.chunk_words;
  const double in = stream_word_s(p, mem, slot.bus, mover, std::max(access, core_block_s / words), chunk);
  const double out = stream_word_s(p, mem, slot.bus, mover, access, chunk);
  const auto dma_path = path_to(p, d->bus);
  const double reg_access = sec(d->params.clock_period) * d->params.access_cycles;
  const double program = runtime::DmaChannel::kProgramWrites * word_access_s(p, dma_path, reg_access, false) +
                         runtime::DmaChannel::kProgramReads * word_access_s(p, dma_path, reg_access, true) +
                         sec(d->params.clock_period) * d->params.setup_cycles;
  const auto piece_blocks = static_cast<double>(runtime::blocks_per_piece(
      fi, core.fifo_words, runtime::buffer_share(path.buffer_bytes, path.engines.size())));
  return words * in + result_words * out + (2 * program + piece_tail_s) / std::max(piece_blocks, 1.0);
}

}  // namespace

double estimate_reconfiguration_s(const ScenarioParams& p, const CoreSpec& core) {
  if (!p.config_port) return 0;
  const ConfigPortSpec& port = *p.config_port;
  const double words = static_cast<double>(core.bitstream_bytes / 4);
  const double port_word = sec(port.params.clock_period) * port.params.word_cycles();
  double mover = 0, setup = 0;
  unsigned chunk_words = p.cpus.front().params.stream_chunk_words;
  if (const DmaSpec* d = port.dma_feed ? dma_named(p, port.dma) : nullptr) {
    mover = sec(d->params.clock_period) * d->params.cycles_per_word;
    setup = sec(d->params.clock_period) * d->params.setup_cycles;
    chunk_words = d->params.chunk_words;
  } else {
    mover = sec(p.cpus.front().params.clock_period) * port.cpu_copy_cycles_per_word;
  }
  const double stage =
      stream_word_s(p, memory_named(p, core.memory), port.bus, mover, port_word, chunk_words);
  // Around the stream: START, (DMA programming), status reads, each priced as a write to the port.
  const auto write_path = path_to(p, port.bus);
  const double access =
      word_access_s(p, write_path, sec(port.params.clock_period) * port.params.access_cycles, false);
  using runtime::DmaChannel;
  const unsigned accesses = runtime::ReconfigurationDriver::kPortAccesses +
                            (port.dma_feed ? DmaChannel::kProgramWrites + DmaChannel::kProgramReads : 0);
  const double registers = access * accesses;
  return words * stage + setup + registers;
}

runtime::CostModelParams estimate_costs(const ScenarioParams& p) {
  runtime::CostModelParams m;
  m.cpu_hz = 1.0 / sec(p.cpus.front().params.clock_period);
  m.software = p.runtime.software;
  m.unit_bytes = p.runtime.unit_bytes;
  const double cpu = sec(p.cpus.front().params.clock_period);
  for (const runtime::Functionality f : p.functionalities->all()) {
    const auto& fi = runtime::info(f);
    // A driver that is code: its measured cycles in place of the typed loop's (each wait's first poll, which
    // they include, priced with the others), and its accesses issued by its load and store instructions
    // (counted in those cycles), not by mmio_cycles.
    runtime::DriverCosts drv = p.runtime.driver;
    double issue_s = 0;
    if (const auto code = p.runtime.driver_programs.find(f); code != p.runtime.driver_programs.end()) {
      const runtime::DriverProgram& d = *code->second;
      const auto less_a_poll = [&](std::uint64_t c) {
        return c > d.poll_loop_cycles ? c - d.poll_loop_cycles : 0;
      };
      drv.cycles_per_request += less_a_poll(d.cycles_per_request);
      drv.cycles_per_cipher_block = less_a_poll(d.cycles_per_cipher_block);
      drv.poll_loop_cycles = d.poll_loop_cycles;
      issue_s = cpu * p.cpus.front().params.mmio_cycles;
    }
    for (const auto& c : p.cores) {
      if (!runtime::implements(c.design(), f)) continue;
      // The slot it would run in: one that hosts it at boot, else the first reconfigurable one it fits.
      std::size_t slot = p.slots.size();
      for (std::size_t i = 0; i < p.slots.size() && slot == p.slots.size(); ++i)
        if (p.slots[i].core == c.name) slot = i;
      for (std::size_t i = 0; i < p.slots.size() && slot == p.slots.size(); ++i)
        if (p.slots[i].params.reconfigurable && c.bitstream_bytes <= p.slots[i].params.capacity_bytes)
          slot = i;
      if (slot == p.slots.size()) continue;
      AccessEstimate a = estimate_access(p, slot, c.params);
      a.read_s -= issue_s;
      a.write_s -= issue_s;
      const double poll = a.read_s + cpu * drv.poll_loop_cycles;
      auto polls = [&](double busy_s) {
        return 1 + (busy_s > a.read_s ? std::ceil((busy_s - a.read_s) / poll) : 0);
      };
      const runtime::CoreInterface core = runtime::core_interface(f, true);
      const double words = fi.block_bytes / 4.0, result_words = fi.output_bytes() / 4.0;  // a cipher block
      const double cipher_blocks =
          static_cast<double>(runtime::unit_bytes(p.runtime.unit_bytes, f) / fi.block_bytes);  // per block
      const double core_block =
          sec(c.params.clock_period) * static_cast<double>(runtime::core_cycles_per_block(f, c.params));
      // Streamed, a pipelined core takes a block every initiation interval.
      const double core_stream_block = c.params.initiation_interval_cycles
                                           ? sec(c.params.clock_period) * c.params.initiation_interval_cycles
                                           : core_block;
      runtime::HardwareCost hw;
      // key words, set-up writes and CTRL.INIT (a custom core's set-up; the others' key expansion)
      const double setup_writes = fi.key_bytes / 4.0 + static_cast<double>(core.setup.size()) + 1;
      const unsigned init_cycles =
          fi.core == models::CoreKind::kCustom ? c.params.setup_cycles : c.params.key_setup_cycles;
      hw.request_s = cpu * (drv.cycles_per_request + drv.prepare_cycles_per_request) +
                     setup_writes * a.write_s + polls(sec(c.params.clock_period) * init_cycles) * poll;
      // A block: the driver's work per block, and per cipher block its work and the words moved.
      double cipher_block_s = cpu * drv.cycles_per_cipher_block;
      if (p.data_dma) {
        cipher_block_s +=
            dma_block_s(p, p.slots[slot], c.params, fi, core_stream_block, core_block - core_stream_block);
        hw.request_s += a.read_s;  // FIFO_WORDS
      } else {
        cipher_block_s += (words + 1) * a.write_s + polls(core_block) * poll + result_words * a.read_s;
      }
      hw.block_s = cpu * drv.cycles_per_block + cipher_blocks * cipher_block_s;
      m.hardware[f] = hw;
      m.reconfiguration_s[f] = p.slots[slot].params.reconfigurable ? estimate_reconfiguration_s(p, c) : 0;
      break;
    }
  }
  return m;
}

}  // namespace rsoc::platform
