// RegisterFile: declared registers, access rules, burst atomicity, hooks, debug access and reset.
#include "models/register_file.h"

#include <gtest/gtest.h>

#include <array>
#include <stdexcept>
#include <vector>

#include "models/address_map.h"
#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

struct HookCall {
  std::uint32_t index, value;
  sc_core::sc_time at;
};

// ID (read-only, 0x0), CTRL (read-write with a write hook, 0x4), STAT (read-only with a read hook, 0x8),
// DATA (4-word read-write bank, 0x10), KEY (2-word write-only bank, 0x20). 0xC and 0x28.. are holes.
class ModelRegisterFile : public ::testing::Test {
 protected:
  ModelRegisterFile() {
    rf_.add({"ID", 0x0, 1, RegAccess::kReadOnly, 0xABCD0001});
    rf_.add({"CTRL", 0x4, 1, RegAccess::kReadWrite, 0}, nullptr,
            [this](std::uint32_t index, std::uint32_t value, const sc_core::sc_time& at) {
              writes_.push_back({index, value, at});
            });
    rf_.add({"STAT", 0x8, 1, RegAccess::kReadOnly, 0},
            [](std::uint32_t, const sc_core::sc_time& at) { return static_cast<std::uint32_t>(at / ns(1)); });
    rf_.add({"DATA", 0x10, 4, RegAccess::kReadWrite, 0x55});
    rf_.add({"KEY", 0x20, 2, RegAccess::kWriteOnly, 0});
  }

  tlm::tlm_response_status access(tlm::tlm_command cmd, std::uint64_t offset, std::uint32_t* data,
                                  unsigned length, const sc_core::sc_time& at = sc_core::SC_ZERO_TIME,
                                  unsigned char* byte_enable = nullptr, unsigned streaming_width = 0) {
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(offset);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(data));
    p.set_data_length(length);
    p.set_streaming_width(streaming_width ? streaming_width : length);
    p.set_byte_enable_ptr(byte_enable);
    p.set_byte_enable_length(byte_enable ? length : 0);
    return rf_.access(p, at);
  }
  unsigned debug(tlm::tlm_command cmd, std::uint64_t offset, std::uint32_t* data, unsigned length,
                 tlm::tlm_response_status* status) {
    tlm::tlm_generic_payload p;
    p.set_command(cmd);
    p.set_address(offset);
    p.set_data_ptr(reinterpret_cast<unsigned char*>(data));
    p.set_data_length(length);
    p.set_streaming_width(length);
    const unsigned n = rf_.debug(p);
    *status = p.get_response_status();
    return n;
  }

  RegisterFile rf_;
  std::vector<HookCall> writes_;
};

TEST_F(ModelRegisterFile, ReadsResetValuesAndWrites) {
  std::uint32_t v = 0;
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, 0x0, &v, 4), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(v, 0xABCD0001u);
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, 0x18, &v, 4), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(v, 0x55u);
  v = 0x1234;
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, 0x14, &v, 4), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(rf_.at("DATA", 1), 0x1234u);
  EXPECT_EQ(rf_.bank("DATA"), (std::vector<std::uint32_t>{0x55, 0x1234, 0x55, 0x55}));
  v = 7;
  EXPECT_EQ(access(tlm::TLM_IGNORE_COMMAND, 0x0, &v, 4), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(v, 7u);
}

TEST_F(ModelRegisterFile, AccessRules) {
  std::uint32_t v = 1;
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, 0x0, &v, 4), tlm::TLM_COMMAND_ERROR_RESPONSE);  // read-only
  EXPECT_EQ(rf_.at("ID"), 0xABCD0001u);
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, 0x24, &v, 4), tlm::TLM_COMMAND_ERROR_RESPONSE);  // write-only
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, 0x24, &v, 4), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(rf_.at("KEY", 1), 1u);
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, 0xC, &v, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);   // hole
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, 0x28, &v, 4), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // past the end
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, 0x2, &v, 4), tlm::TLM_BURST_ERROR_RESPONSE);     // misaligned
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, 0x0, &v, 2), tlm::TLM_BURST_ERROR_RESPONSE);     // partial word
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, 0x0, &v, 0), tlm::TLM_BURST_ERROR_RESPONSE);     // empty
  std::array<unsigned char, 4> enable{0xFF, 0xFF, 0xFF, 0xFF};
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, 0x0, &v, 4, sc_core::SC_ZERO_TIME, enable.data()),
            tlm::TLM_BURST_ERROR_RESPONSE);
  std::array<std::uint32_t, 2> two{};
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, 0x10, two.data(), 8, sc_core::SC_ZERO_TIME, nullptr, 4),
            tlm::TLM_BURST_ERROR_RESPONSE);  // streaming width narrower than the burst
}

TEST_F(ModelRegisterFile, BurstsWalkWordsAndFailWithoutSideEffects) {
  std::array<std::uint32_t, 4> in{1, 2, 3, 4}, out{};
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, 0x10, in.data(), 16), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, 0x10, out.data(), 16), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(out, in);
  // CTRL, STAT: the read-only STAT makes the whole burst fail, CTRL is not written and its hook not called.
  std::array<std::uint32_t, 2> pair{9, 9};
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, 0x4, pair.data(), 8), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(rf_.at("CTRL"), 0u);
  EXPECT_TRUE(writes_.empty());
  // The last word of KEY and the hole after it: nothing is written.
  std::array<std::uint32_t, 2> over{7, 7};
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, 0x24, over.data(), 8), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(rf_.at("KEY", 1), 0u);
  // The last word of DATA (readable) and the first of KEY (write-only): the read fails as a whole.
  std::array<std::uint32_t, 2> mixed{};
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, 0x1C, mixed.data(), 8), tlm::TLM_COMMAND_ERROR_RESPONSE);
  // ...but writing both works.
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, 0x1C, over.data(), 8), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(rf_.at("DATA", 3), 7u);
  EXPECT_EQ(rf_.at("KEY", 0), 7u);
  // A burst across adjacent registers of compatible access works: ID then CTRL read.
  std::array<std::uint32_t, 2> id_ctrl{};
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, 0x0, id_ctrl.data(), 8), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(id_ctrl[0], 0xABCD0001u);
}

TEST_F(ModelRegisterFile, HooksSeeIndexValueAndTime) {
  std::uint32_t v = 0x80000001;
  EXPECT_EQ(access(tlm::TLM_WRITE_COMMAND, 0x4, &v, 4, ns(125)), tlm::TLM_OK_RESPONSE);
  ASSERT_EQ(writes_.size(), 1u);
  EXPECT_EQ(writes_[0].index, 0u);
  EXPECT_EQ(writes_[0].value, 0x80000001u);
  EXPECT_EQ(writes_[0].at, ns(125));
  EXPECT_EQ(rf_.at("CTRL"), 0x80000001u);  // stored before the hook runs
  std::uint32_t stat = 0;
  EXPECT_EQ(access(tlm::TLM_READ_COMMAND, 0x8, &stat, 4, ns(4321)), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(stat, 4321u);  // the read hook computes the value from the access time
}

TEST_F(ModelRegisterFile, DebugAccessBypassesRulesAndHooks) {
  tlm::tlm_response_status s = tlm::TLM_INCOMPLETE_RESPONSE;
  std::uint32_t v = 0x77;
  EXPECT_EQ(debug(tlm::TLM_WRITE_COMMAND, 0x0, &v, 4, &s), 4u);  // read-only, written anyway
  EXPECT_EQ(s, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(rf_.at("ID"), 0x77u);
  EXPECT_EQ(debug(tlm::TLM_WRITE_COMMAND, 0x4, &v, 4, &s), 4u);
  EXPECT_TRUE(writes_.empty());  // no hook
  rf_.at("KEY", 0) = 0xBEEF;
  EXPECT_EQ(debug(tlm::TLM_READ_COMMAND, 0x20, &v, 4, &s), 4u);  // write-only, read anyway
  EXPECT_EQ(v, 0xBEEFu);
  EXPECT_EQ(debug(tlm::TLM_READ_COMMAND, 0x8, &v, 4, &s), 4u);  // stored value, not the read hook
  EXPECT_EQ(v, 0u);
  std::array<std::uint32_t, 4> buf{};
  EXPECT_EQ(debug(tlm::TLM_READ_COMMAND, 0x4, buf.data(), 16, &s), 8u);  // CTRL, STAT, then the hole
  EXPECT_EQ(s, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(debug(tlm::TLM_READ_COMMAND, 0x2, buf.data(), 4, &s), 0u);
  EXPECT_EQ(s, tlm::TLM_BURST_ERROR_RESPONSE);
}

TEST_F(ModelRegisterFile, ResetAndLookup) {
  rf_.at("DATA", 2) = 0;
  rf_.at("ID") = 0;
  rf_.reset();
  EXPECT_EQ(rf_.at("DATA", 2), 0x55u);
  EXPECT_EQ(rf_.at("ID"), 0xABCD0001u);
  EXPECT_THROW(rf_.at("NOPE"), std::out_of_range);
  EXPECT_THROW(rf_.at("DATA", 4), std::out_of_range);
  const auto specs = rf_.specs();
  ASSERT_EQ(specs.size(), 5u);
  EXPECT_EQ(specs[3].name, "DATA");
  EXPECT_EQ(specs[3].words, 4u);
}

TEST_F(ModelRegisterFile, BadLayoutsAreElaborationErrors) {
  RegisterFile rf;
  rf.add({"A", 0x10, 2});
  EXPECT_THROW(rf.add({"B", 0x14, 1}), ElaborationError);  // inside A
  EXPECT_THROW(rf.add({"C", 0x0C, 2}), ElaborationError);  // overlaps A's first word
  EXPECT_THROW(rf.add({"D", 0x22, 1}), ElaborationError);  // misaligned
  EXPECT_THROW(rf.add({"E", 0x40, 0}), ElaborationError);  // empty
  EXPECT_NO_THROW(rf.add({"F", 0x18, 1}));                 // right after A
  EXPECT_NO_THROW(rf.add({"G", 0x0C, 1}));                 // right before A
}

}  // namespace
}  // namespace rsoc::models
