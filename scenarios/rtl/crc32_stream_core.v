// crc32_stream_core: the CRC-32 of each block (zlib's: reflected polynomial 0xEDB88320, initial value and
// final XOR all ones) streamed through rsoc's stream port, one 32-bit word a clock cycle, for a custom core
// with the stream interface (custom.interface "stream", rtl.protocol "stream") fed by the DMA data path.
// Stream port: a block's words come in on in_data (big-endian words: word 0 holds the block's first four
// bytes), in_last on its last; one cycle after that word, its CRC (so that its big-endian bytes are zlib's)
// is offered on out_data with out_last. The core holds one result: it takes the next word while the result
// leaves (in_ready = !pending || out_ready), so it takes a word every cycle as long as its results are taken.
// Register port: what the driver of a stream core reads and writes: STATUS 0x24 (bit 0 READY: always), CTRL
// 0x20 (INIT, the set-up of a request: nothing to do here), FIFO_WORDS 0x38 (the words the DMA data path may
// write before it reads the results: the parameter FIFO). busy: a result waits to leave. Blocks of any
// length: in_last ends one.
module crc32_stream_core #(
  parameter integer FIFO = 1024  // FIFO_WORDS: the pieces the DMA data path moves
) (
  input  wire        clk,
  input  wire        rst,
  // register port
  input  wire        req_valid,
  input  wire        req_write,
  input  wire [15:0] req_addr,
  input  wire [31:0] req_wdata,
  output wire        req_ready,
  output reg         resp_valid,
  output reg  [31:0] resp_rdata,
  output wire        busy,
  // stream port
  input  wire        in_valid,
  input  wire [31:0] in_data,
  input  wire        in_last,
  output wire        in_ready,
  output wire        out_valid,
  output wire [31:0] out_data,
  output wire        out_last,
  input  wire        out_ready
);
  `include "crc32_word.vh"  // crc_word(c, w): the CRC after the four bytes of w

  reg [31:0] crc, result;
  reg        pending;  // a result waits to leave

  assign req_ready = 1'b1;
  assign busy      = pending;
  assign in_ready  = !pending || out_ready;
  assign out_valid = pending;
  assign out_data  = result;
  assign out_last  = 1'b1;  // a result is one word

  always @(posedge clk) begin
    if (rst) begin
      resp_valid <= 1'b0; resp_rdata <= 32'h0; crc <= 32'hffffffff; result <= 32'h0; pending <= 1'b0;
    end else begin
      resp_valid <= 1'b0;
      if (req_valid && !req_write) begin
        resp_valid <= 1'b1;
        case (req_addr)
          16'h0024: resp_rdata <= 32'h1;  // READY
          16'h0038: resp_rdata <= FIFO;
          default:  resp_rdata <= 32'h0;
        endcase
      end
      if (out_valid && out_ready) pending <= 1'b0;
      if (in_valid && in_ready) begin
        if (in_last) begin
          result <= ~crc_word(crc, in_data); pending <= 1'b1; crc <= 32'hffffffff;
        end else begin
          crc <= crc_word(crc, in_data);
        end
      end
    end
  end
endmodule
