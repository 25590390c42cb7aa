// des_core: an iterative DES / 3DES (EDE) core, one round a clock cycle, the round keys made on the fly from
// the key's C and D halves (rotated left when encrypting, right when decrypting), behind rsoc's register port
// and the register map of its DES cores (models/des_core.cpp, models/ip_core.h reg::): KEY 0x40..0x54 (K1,
// K2, K3: two big-endian words each), BLOCK 0x80..0x84, RESULT 0xC0..0xC4, CONFIG 0x28 (bit 0 encrypt, bit 1
// triple), CTRL 0x20 (bit 0 INIT: the keys taken from KEY, at once; bit 1 NEXT: one block), STATUS 0x24 (bit 0
// READY, bit 1 VALID). NEXT takes 16 cycles a DES pass: 16 for DES, 48 for 3DES.
module des_core (
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
`include "des_tables.vh"

  // rotations of each 28-bit half of C and D
  function automatic [55:0] rotl(input [55:0] cd, input two);
    rotl = two ? {cd[53:28], cd[55:54], cd[25:0], cd[27:26]} : {cd[54:28], cd[55], cd[26:0], cd[27]};
  endfunction
  function automatic [55:0] rotr(input [55:0] cd, input two);
    rotr = two ? {cd[29:28], cd[55:30], cd[1:0], cd[27:2]} : {cd[28], cd[55:29], cd[0], cd[27:1]};
  endfunction
  // FIPS 46-3's left shifts: one bit in rounds 1, 2, 9 and 16, two in the others (r counts from 0)
  function automatic two_bits(input [3:0] r);
    two_bits = !(r == 4'd0 || r == 4'd1 || r == 4'd8 || r == 4'd15);
  endfunction

  reg [31:0] key [0:5];
  reg [31:0] block [0:1];
  reg [63:0] k1, k2, k3, result;
  reg [31:0] l, r;
  reg [55:0] cd;
  reg        encrypt, triple, valid, running;
  reg [3:0]  round;
  reg [1:0]  pass;

  // The key and direction of each pass: EDE when encrypting (K1, K2 decrypting, K3), DED backwards.
  function automatic [63:0] pass_key(input [1:0] p);
    pass_key = !triple ? k1 : p == 2'd1 ? k2 : (p == 2'd0) == encrypt ? k1 : k3;
  endfunction
  wire        forward = !triple ? encrypt : (pass == 2'd1) != encrypt;  // this pass encrypts
  wire        last_pass = !triple || pass == 2'd2;

  // one round
  wire [55:0] cd_left = rotl(cd, two_bits(round));
  wire [47:0] subkey = des_pc2(forward ? cd_left : cd);
  wire [47:0] x = des_e(r) ^ subkey;
  wire [31:0] s = {des_s1[{x[47], x[42], x[46:43]}], des_s2[{x[41], x[36], x[40:37]}],
                   des_s3[{x[35], x[30], x[34:31]}], des_s4[{x[29], x[24], x[28:25]}],
                   des_s5[{x[23], x[18], x[22:19]}], des_s6[{x[17], x[12], x[16:13]}],
                   des_s7[{x[11], x[6], x[10:7]}], des_s8[{x[5], x[0], x[4:1]}]};
  wire [31:0] r_next = l ^ des_p(s);

  assign req_ready = 1'b1;
  assign busy = running;

  integer i;
  always @(posedge clk) begin
    if (rst) begin
      resp_valid <= 1'b0; resp_rdata <= 32'h0; encrypt <= 1'b0; triple <= 1'b0; valid <= 1'b0;
      running <= 1'b0; round <= 4'd0; pass <= 2'd0; l <= 32'h0; r <= 32'h0; cd <= 56'h0;
      k1 <= 64'h0; k2 <= 64'h0; k3 <= 64'h0; result <= 64'h0;
      for (i = 0; i < 6; i = i + 1) key[i] <= 32'h0;
      block[0] <= 32'h0; block[1] <= 32'h0;
    end else begin
      resp_valid <= 1'b0;
      if (req_valid && req_write) begin
        case (req_addr)
          16'h0020: begin
            if (req_wdata[0] && !running) begin  // INIT
              k1 <= {key[0], key[1]}; k2 <= {key[2], key[3]}; k3 <= {key[4], key[5]}; valid <= 1'b0;
            end else if (req_wdata[1] && !running) begin  // NEXT
              {l, r} <= des_ip({block[0], block[1]});
              cd <= des_pc1(pass_key(2'd0));
              round <= 4'd0; pass <= 2'd0; running <= 1'b1; valid <= 1'b0;
            end
          end
          16'h0028: begin encrypt <= req_wdata[0]; triple <= req_wdata[1]; end
          16'h0040, 16'h0044, 16'h0048, 16'h004c, 16'h0050, 16'h0054: key[req_addr[4:2]] <= req_wdata;
          16'h0080, 16'h0084: block[req_addr[2]] <= req_wdata;
          default: ;
        endcase
      end else if (req_valid) begin
        resp_valid <= 1'b1;
        case (req_addr)
          16'h0024: resp_rdata <= {30'h0, valid, !running};
          16'h0028: resp_rdata <= {30'h0, triple, encrypt};
          16'h00c0: resp_rdata <= result[63:32];
          16'h00c4: resp_rdata <= result[31:0];
          default:  resp_rdata <= 32'h0;
        endcase
      end
      if (running) begin
        if (round == 4'd15) begin  // the pass ends: its output is R16 L16 (then FP, or IP again: nothing)
          if (last_pass) begin
            result <= des_fp({r_next, r}); running <= 1'b0; valid <= 1'b1;
          end else begin
            l <= r_next; r <= r;
            cd <= des_pc1(pass_key(pass + 2'd1));
            pass <= pass + 2'd1; round <= 4'd0;
          end
        end else begin
          l <= r; r <= r_next;
          cd <= forward ? cd_left : rotr(cd, two_bits(4'd15 - round));
          round <= round + 4'd1;
        end
      end
    end
  end
endmodule
