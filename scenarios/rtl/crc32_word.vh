// crc_word(c, w): zlib's CRC-32 (reflected polynomial 0xEDB88320) after the four bytes of the word `w`, first
// byte w[31:24], from the running value `c`; `include`d inside the modules of crc32_core.v and
// crc32_stream_core.v.
function automatic [31:0] crc_word(input [31:0] c, input [31:0] w);
  integer b, i;
  reg [31:0] x;
  begin
    x = c;
    for (b = 0; b < 4; b = b + 1) begin
      x = x ^ {24'h0, w[31 - 8 * b -: 8]};
      for (i = 0; i < 8; i = i + 1) x = x[0] ? (x >> 1) ^ 32'hedb88320 : x >> 1;
    end
    crc_word = x;
  end
endfunction
