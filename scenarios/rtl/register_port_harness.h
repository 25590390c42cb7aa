// The register port (README.md) driven edge by edge, for the checks of the designs here on their own
// (aes128_core_check.cpp, des_core_check.cpp): a write is taken at the edge it is offered to (these designs
// are always ready); a read's word is there once resp_valid is.
#pragma once

template <typename Model>
struct RegisterPortHarness {
  Model* m = nullptr;
  long cycles = 0;  // rising edges so far

  void edge() {
    m->clk = 0;
    m->eval();
    m->clk = 1;
    m->eval();
    ++cycles;
  }
  void reset() {
    m->rst = 1;
    edge();
    m->rst = 0;
    edge();
  }
  void write(unsigned address, unsigned word) {
    m->req_valid = 1;
    m->req_write = 1;
    m->req_addr = address;
    m->req_wdata = word;
    edge();
    m->req_valid = 0;
  }
  unsigned read(unsigned address) {
    m->req_valid = 1;
    m->req_write = 0;
    m->req_addr = address;
    edge();
    m->req_valid = 0;
    while (!m->resp_valid) edge();
    return m->resp_rdata;
  }
};

// The big-endian word at `p` (word 0 of a bank holds a block's first four bytes).
inline unsigned be32(const unsigned char* p) {
  return p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}
