// The fuzz programs have their own main (libFuzzer's, or the dictionary's) and never start SystemC's, but the
// SystemC library refers to sc_main: this one is never called.
#include <cstdlib>

extern "C" int sc_main(int /*argc*/, char* /*argv*/[]) {
  std::abort();
}
