// crc32_core: the CRC-32 of a block (zlib's: reflected polynomial 0xEDB88320, initial value and final XOR all
// ones), one 32-bit word a clock cycle, behind rsoc's register port and the register map of its custom cores
// (models/ip_core.h reg::, models/custom_core.cpp): BLOCK[0..WORDS) at 0x800 (big-endian words: word 0 holds
// the block's first four bytes), RESULT at 0x1000 (the CRC, so that its big-endian bytes are zlib's), CTRL
// 0x20 (bit 0 INIT: the set-up of a request, nothing to do here; bit 1 NEXT: one block), STATUS 0x24 (bit 0
// READY, bit 1 VALID). NEXT takes WORDS cycles. A core of type custom with computes "crc32" and input_bytes
// 4 x WORDS drives it.
module crc32_core #(
  parameter integer WORDS = 16  // words of a block
) (
  input  wire        clk,
  input  wire        rst,
  input  wire        req_valid,
  input  wire        req_write,
  input  wire [15:0] req_addr,
  input  wire [31:0] req_wdata,
  output wire        req_ready,
  output reg         resp_valid,
  output reg  [31:0] resp_rdata,
  output wire        busy
);
  localparam integer IW = WORDS > 1 ? $clog2(WORDS) : 1;  // a word's index

  `include "crc32_word.vh"  // crc_word(c, w): the CRC after the four bytes of w

  reg [31:0]   block [0:WORDS - 1];
  reg [31:0]   crc, result;
  reg          running, valid;
  reg [IW-1:0] index;
  wire [IW-1:0] word = req_addr[IW+1:2];  // a BLOCK write's word (BLOCK starts on a 2 KiB boundary)
  wire         in_block = {16'h0, req_addr} >= 32'h0800 && {16'h0, req_addr} < 32'h0800 + 4 * WORDS;

  assign req_ready = 1'b1;
  assign busy = running;

  integer k;
  always @(posedge clk) begin
    if (rst) begin
      resp_valid <= 1'b0; resp_rdata <= 32'h0; crc <= 32'h0; result <= 32'h0; running <= 1'b0;
      valid <= 1'b0; index <= {IW{1'b0}};
      for (k = 0; k < WORDS; k = k + 1) block[k] <= 32'h0;
    end else begin
      resp_valid <= 1'b0;
      if (req_valid && req_write) begin
        if (req_addr == 16'h0020 && req_wdata[1] && !running) begin  // NEXT (INIT sets nothing up)
          crc <= 32'hffffffff; index <= {IW{1'b0}}; running <= 1'b1; valid <= 1'b0;
        end else if (in_block && !running) begin
          block[word] <= req_wdata;
        end
      end else if (req_valid) begin
        resp_valid <= 1'b1;
        case (req_addr)
          16'h0024: resp_rdata <= {30'h0, valid, !running};
          16'h1000: resp_rdata <= result;
          default:  resp_rdata <= 32'h0;
        endcase
      end
      if (running) begin
        crc <= crc_word(crc, block[index]);
        if ({{(32 - IW){1'b0}}, index} == WORDS - 1) begin
          running <= 1'b0; valid <= 1'b1; result <= ~crc_word(crc, block[index]);
        end
        index <= index + 1'b1;
      end
    end
  end
endmodule
