// StreamExtension: per-stage occupancy accounting of pipelined stream chunks.
#include "models/stream.h"

#include <gtest/gtest.h>

#include "tests/models/model_test_support.h"

namespace rsoc::models {
namespace {

using test::ns;

TEST(ModelStream, StagesAddUpPerOwner) {
  StreamExtension ext;
  EXPECT_EQ(ext.slowest(), sc_core::SC_ZERO_TIME);
  EXPECT_EQ(ext.slowest_name(), "");
  const int bus = 0, mem = 0, cpu = 0;
  ext.add(&cpu, "cpu", ns(300));
  ext.add(&bus, "bus", ns(200));
  ext.add(&mem, "mem", ns(150));
  ext.add(&bus, "bus", ns(200));  // the bus crossed a second time (read, then write)
  ASSERT_EQ(ext.stages().size(), 3u);
  EXPECT_EQ(ext.stages()[1].occupancy, ns(400));
  EXPECT_EQ(ext.slowest(), ns(400));
  EXPECT_EQ(ext.slowest_name(), "bus");
  tlm::tlm_extension_base* copy = ext.clone();
  StreamExtension assigned;
  assigned.copy_from(*copy);
  copy->free();
  EXPECT_EQ(assigned.slowest(), ns(400));
  EXPECT_EQ(assigned.stages().size(), 3u);
  ext.clear();
  EXPECT_TRUE(ext.stages().empty());
  EXPECT_EQ(assigned.stages().size(), 3u);
}

TEST(ModelStream, StreamOfFindsTheExtension) {
  tlm::tlm_generic_payload p;
  EXPECT_EQ(stream_of(p), nullptr);
  StreamExtension ext;
  p.set_extension(&ext);
  EXPECT_EQ(stream_of(p), &ext);
  p.clear_extension(&ext);
  EXPECT_EQ(stream_of(p), nullptr);
}

}  // namespace
}  // namespace rsoc::models
