#pragma once
// RequestLedger: where every request of the runtime is numbered and recorded, the manager's and those an
// application runs itself on cores it leases (the HSM firmware's signatures): one sequence of ids, one sink
// (requests.csv, the statistics), in the order the requests end.

#include <cstdint>
#include <functional>
#include <string>

#include "runtime/request_record.h"

namespace rsoc::runtime {

class RequestLedger {
 public:
  using Sink = std::function<void(const RequestRecord&)>;
  explicit RequestLedger(Sink sink) : sink_(std::move(sink)) {}

  // The record of a new request, numbered: who asked (`app`), for what, how much, and when (issue_ps).
  RequestRecord open(const std::string& app, const std::string& functionality, std::uint64_t blocks,
                     std::uint64_t bytes, std::uint64_t issue_ps) {
    RequestRecord r;
    r.id = next_id_++;
    r.app = app;
    r.functionality = functionality;
    r.blocks = blocks;
    r.bytes = bytes;
    r.issue_ps = issue_ps;
    return r;
  }
  // A request ended (its record closed): to the sink.
  void record(const RequestRecord& r) {
    ++recorded_;
    if (sink_) sink_(r);
  }
  std::uint64_t recorded() const { return recorded_; }

 private:
  Sink sink_;
  std::uint64_t next_id_ = 0, recorded_ = 0;
};

}  // namespace rsoc::runtime
