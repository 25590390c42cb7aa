// aes128_core: an iterative AES-128 core (one round a clock cycle) behind rsoc's register port and register map
// (models/ip_core.h reg::): KEY 0x40..0x4C, BLOCK 0x80..0x8C, RESULT 0xC0..0xCC (big-endian words, word 0 the
// first four bytes), CONFIG 0x28 (bit 0 encrypt), CTRL 0x20 (bit 0 INIT: expand the key, bit 1 NEXT: one block),
// STATUS 0x24 (bit 0 READY, bit 1 VALID). INIT takes 10 cycles (a round key each), NEXT 10 (a round each).
module aes128_core (
  input  wire        clk,
  input  wire        rst,
  // register port: a request is taken at a rising edge with req_valid and req_ready; a read's data comes with
  // resp_valid at the next edge
  input  wire        req_valid,
  input  wire        req_write,
  input  wire [15:0] req_addr,
  input  wire [31:0] req_wdata,
  output wire        req_ready,
  output reg         resp_valid,
  output reg  [31:0] resp_rdata,
  output wire        busy        // INIT or NEXT in progress: rsoc evaluates the clock while it is high
);
`include "aes_sbox.vh"

  function automatic [7:0] xtime(input [7:0] b);
    xtime = {b[6:0], 1'b0} ^ (b[7] ? 8'h1b : 8'h00);
  endfunction
  function automatic [7:0] mul(input [7:0] b, input [3:0] m);  // b * m in GF(2^8), m < 16
    reg [7:0] x2, x4, x8;
    begin
      x2 = xtime(b); x4 = xtime(x2); x8 = xtime(x4);
      mul = (m[0] ? b : 8'h00) ^ (m[1] ? x2 : 8'h00) ^ (m[2] ? x4 : 8'h00) ^ (m[3] ? x8 : 8'h00);
    end
  endfunction
  function automatic [127:0] next_round_key(input [127:0] k, input [7:0] rcon);
    reg [31:0] w0, w1, w2, w3, t;
    begin
      {w0, w1, w2, w3} = k;
      t = {sbox[w3[23:16]], sbox[w3[15:8]], sbox[w3[7:0]], sbox[w3[31:24]]} ^ {rcon, 24'h0};
      w0 = w0 ^ t; w1 = w1 ^ w0; w2 = w2 ^ w1; w3 = w3 ^ w2;
      next_round_key = {w0, w1, w2, w3};
    end
  endfunction
  // MixColumns (inverse: InvMixColumns) of one column, byte 0 in bits 31:24
  function automatic [31:0] mix_column(input [31:0] col, input inverse);
    reg [7:0] a0, a1, a2, a3;
    reg [3:0] m0, m1, m2, m3;
    begin
      {a0, a1, a2, a3} = col;
      {m0, m1, m2, m3} = inverse ? {4'd14, 4'd11, 4'd13, 4'd9} : {4'd2, 4'd3, 4'd1, 4'd1};
      mix_column = {mul(a0, m0) ^ mul(a1, m1) ^ mul(a2, m2) ^ mul(a3, m3),
                    mul(a0, m3) ^ mul(a1, m0) ^ mul(a2, m1) ^ mul(a3, m2),
                    mul(a0, m2) ^ mul(a1, m3) ^ mul(a2, m0) ^ mul(a3, m1),
                    mul(a0, m1) ^ mul(a1, m2) ^ mul(a2, m3) ^ mul(a3, m0)};
    end
  endfunction

  reg [31:0]  key [0:3];
  reg [31:0]  block [0:3];
  reg [127:0] result, state;
  reg [127:0] round_key [0:10];
  reg         encrypt, valid, expanding, running;
  reg [3:0]   round;
  reg [7:0]   rcon;

  // The round's datapath, byte b of a state in bits 127-8b:120-8b (column c holds bytes 4c..4c+3), with
  // constant indices only, so that the verilated model evaluates it as plain byte operations.
  wire [127:0] fwd;      // SubBytes, ShiftRows of the state
  wire [127:0] inv;      // InvShiftRows, InvSubBytes of the state
  wire [127:0] fwd_mix;  // MixColumns of fwd
  wire [127:0] inv_mix;  // InvMixColumns of inv ^ the round's key
  wire [127:0] enc_key = round_key[round];
  wire [127:0] dec_key = round_key[4'd10 - round];
  wire [127:0] inv_keyed = inv ^ dec_key;
  genvar gc, gr;
  generate
    for (gc = 0; gc < 4; gc = gc + 1) begin : column
      for (gr = 0; gr < 4; gr = gr + 1) begin : row
        assign fwd[127 - 8 * (4 * gc + gr) -: 8] = sbox[state[127 - 8 * (4 * ((gc + gr) % 4) + gr) -: 8]];
        assign inv[127 - 8 * (4 * gc + gr) -: 8] = inv_sbox[state[127 - 8 * (4 * ((gc + 4 - gr) % 4) + gr) -: 8]];
      end
      assign fwd_mix[127 - 32 * gc -: 32] = mix_column(fwd[127 - 32 * gc -: 32], 1'b0);
      assign inv_mix[127 - 32 * gc -: 32] = mix_column(inv_keyed[127 - 32 * gc -: 32], 1'b1);
    end
  endgenerate
  wire         last = round == 4'd10;
  wire [127:0] next_state = encrypt ? (last ? fwd : fwd_mix) ^ enc_key : (last ? inv ^ round_key[0] : inv_mix);

  assign req_ready = 1'b1;
  assign busy = expanding | running;

  integer i;
  always @(posedge clk) begin
    if (rst) begin
      resp_valid <= 1'b0; resp_rdata <= 32'h0; encrypt <= 1'b0; valid <= 1'b0; expanding <= 1'b0;
      running <= 1'b0; round <= 4'd0; rcon <= 8'h01; result <= 128'h0; state <= 128'h0;
      for (i = 0; i < 4; i = i + 1) begin key[i] <= 32'h0; block[i] <= 32'h0; end
    end else begin
      resp_valid <= 1'b0;
      if (req_valid && req_write) begin
        case (req_addr)
          16'h0020: begin
            if (req_wdata[0] && !busy) begin  // INIT
              round_key[0] <= {key[0], key[1], key[2], key[3]};
              expanding <= 1'b1; round <= 4'd1; rcon <= 8'h01; valid <= 1'b0;
            end else if (req_wdata[1] && !busy) begin  // NEXT
              state <= {block[0], block[1], block[2], block[3]} ^ (encrypt ? round_key[0] : round_key[10]);
              running <= 1'b1; round <= 4'd1; valid <= 1'b0;
            end
          end
          16'h0028: encrypt <= req_wdata[0];
          16'h0040, 16'h0044, 16'h0048, 16'h004c: key[req_addr[3:2]] <= req_wdata;
          16'h0080, 16'h0084, 16'h0088, 16'h008c: block[req_addr[3:2]] <= req_wdata;
          default: ;
        endcase
      end else if (req_valid) begin
        resp_valid <= 1'b1;
        case (req_addr)
          16'h0024: resp_rdata <= {30'h0, valid, !busy};
          16'h0028: resp_rdata <= {31'h0, encrypt};
          16'h00c0, 16'h00c4, 16'h00c8, 16'h00cc: resp_rdata <= result[127 - 32 * req_addr[3:2] -: 32];
          default: resp_rdata <= 32'h0;
        endcase
      end
      if (expanding) begin
        round_key[round] <= next_round_key(round_key[round - 1], rcon);
        rcon <= xtime(rcon);
        if (round == 4'd10) expanding <= 1'b0; else round <= round + 4'd1;
      end
      if (running) begin
        state <= next_state;
        if (last) begin
          running <= 1'b0; valid <= 1'b1; result <= next_state;
        end else round <= round + 4'd1;
      end
    end
  end
endmodule
