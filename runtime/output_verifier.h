#pragma once
// OutputVerifier: what a request's output is checked against. For each request the reference of its inputs
// (Reference): it checks a candidate output by the key's OutputCheck (an RSA signature by the public
// operation, anything else against reference_output()) and computes the reference output only when asked for
// it (the software implementation's output). References and key checks are cached: a reference is made again
// only when the inputs differ from the previous request's (experiments repeat one request in software and in
// hardware), and the checks of the last kChecksKept keys are kept (building one tests an RSA key's primes).
// Plain C++: no simulated time.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "runtime/functionality.h"

namespace rsoc::runtime {

class OutputVerifier {
 public:
  class Reference {
   public:
    Reference(Functionality of, bool encrypting, std::vector<std::uint8_t> input,
              std::shared_ptr<const OutputCheck> key_check)
        : f(of), encrypt(encrypting), data(std::move(input)), check(std::move(key_check)) {}
    bool matches(const std::vector<std::uint8_t>& candidate) const;
    const std::vector<std::uint8_t>& output() const;

    const Functionality f;
    const bool encrypt;
    const std::vector<std::uint8_t> data;
    const std::shared_ptr<const OutputCheck> check;  // of the key (shared by the key's references)

   private:
    mutable std::optional<std::vector<std::uint8_t>> output_;
  };

  // The reference of these inputs. Shared: a request keeps its own while another process's request replaces
  // the verifier's.
  std::shared_ptr<const Reference> reference(Functionality f, const std::vector<std::uint8_t>& key,
                                             const std::vector<std::uint8_t>& data, bool encrypt);

 private:
  std::shared_ptr<const OutputCheck> check_of(Functionality f, const std::vector<std::uint8_t>& key);
  static constexpr std::size_t kChecksKept = 16;
  std::shared_ptr<const Reference> last_;
  std::vector<std::shared_ptr<const OutputCheck>> checks_;  // most recent first
};

}  // namespace rsoc::runtime
