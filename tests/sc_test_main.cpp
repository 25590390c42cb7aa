// Test entry point for areas that elaborate SystemC models: SystemC owns main() and calls sc_main once, so
// every test binary enters the kernel exactly once. CTest runs each test in its own process.
#include <gtest/gtest.h>

#include <systemc>

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
