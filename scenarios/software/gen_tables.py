#!/usr/bin/env python3
"""Generates the constant tables of aes128.c and des.c (prints C definitions to stdout).

    python3 gen_tables.py aes   # Te0..Te4, Td0..Td4, rcon of aes128.c
    python3 gen_tables.py des   # des_sptrans, des_skb of des.c

Everything is computed from the standards' definitions, not copied from another implementation:
  AES: the S-box is the multiplicative inverse in GF(2^8) mod x^8+x^4+x^3+x+1 followed by the affine map
       (FIPS-197 5.1.1); the T-tables are MixColumns / InvMixColumns columns of S / InvS (FIPS-197 5.1.3,
       5.3.3), as in OpenSSL's aes_core.c.
  DES: the S-boxes, P, PC-2 and E are the FIPS 46-3 tables; the layouts of the SP and skb tables are those
       des.c documents (data kept rotated left by DATA_ROT bits, S-box inputs in the byte lanes at bits 2..7).
"""
import sys

# --- AES (FIPS-197) ------------------------------------------------------------------------------------


def gmul(a, b):
    """Product in GF(2^8) with the AES polynomial."""
    p = 0
    while b:
        if b & 1:
            p ^= a
        a = ((a << 1) ^ 0x11b) if a & 0x80 else (a << 1)
        b >>= 1
    return p


def aes_sbox():
    inv = [0] * 256
    for x in range(1, 256):
        inv[x] = next(y for y in range(1, 256) if gmul(x, y) == 1)
    sbox = []
    for x in range(256):
        b = inv[x]
        s = b ^ 0x63
        for r in (1, 2, 3, 4):
            s ^= ((b << r) | (b >> (8 - r))) & 0xff
        sbox.append(s)
    return sbox


def word(b0, b1, b2, b3):
    return (b0 << 24) | (b1 << 16) | (b2 << 8) | b3


def rotr32(x, n):
    return ((x >> n) | (x << (32 - n))) & 0xffffffff


def aes_tables():
    s = aes_sbox()
    si = [0] * 256
    for x, y in enumerate(s):
        si[y] = x
    te0 = [word(gmul(s[x], 2), s[x], s[x], gmul(s[x], 3)) for x in range(256)]
    td0 = [word(gmul(si[x], 14), gmul(si[x], 9), gmul(si[x], 13), gmul(si[x], 11)) for x in range(256)]
    tables = []
    for name, t0 in (("Te", te0), ("Td", td0)):
        for n in range(4):
            tables.append((f"{name}{n}", [rotr32(v, 8 * n) for v in t0]))
    tables.append(("Te4", [s[x] * 0x01010101 for x in range(256)]))
    tables.append(("Td4", [si[x] * 0x01010101 for x in range(256)]))
    rcon, r = [], 1
    for _ in range(10):
        rcon.append(r << 24)
        r = gmul(r, 2)
    tables.append(("rcon", rcon))
    return tables


# --- DES (FIPS 46-3) -----------------------------------------------------------------------------------

S_BOXES = [
    [14, 4, 13, 1, 2, 15, 11, 8, 3, 10, 6, 12, 5, 9, 0, 7, 0, 15, 7, 4, 14, 2, 13, 1, 10, 6, 12, 11, 9, 5, 3, 8,
     4, 1, 14, 8, 13, 6, 2, 11, 15, 12, 9, 7, 3, 10, 5, 0, 15, 12, 8, 2, 4, 9, 1, 7, 5, 11, 3, 14, 10, 0, 6, 13],
    [15, 1, 8, 14, 6, 11, 3, 4, 9, 7, 2, 13, 12, 0, 5, 10, 3, 13, 4, 7, 15, 2, 8, 14, 12, 0, 1, 10, 6, 9, 11, 5,
     0, 14, 7, 11, 10, 4, 13, 1, 5, 8, 12, 6, 9, 3, 2, 15, 13, 8, 10, 1, 3, 15, 4, 2, 11, 6, 7, 12, 0, 5, 14, 9],
    [10, 0, 9, 14, 6, 3, 15, 5, 1, 13, 12, 7, 11, 4, 2, 8, 13, 7, 0, 9, 3, 4, 6, 10, 2, 8, 5, 14, 12, 11, 15, 1,
     13, 6, 4, 9, 8, 15, 3, 0, 11, 1, 2, 12, 5, 10, 14, 7, 1, 10, 13, 0, 6, 9, 8, 7, 4, 15, 14, 3, 11, 5, 2, 12],
    [7, 13, 14, 3, 0, 6, 9, 10, 1, 2, 8, 5, 11, 12, 4, 15, 13, 8, 11, 5, 6, 15, 0, 3, 4, 7, 2, 12, 1, 10, 14, 9,
     10, 6, 9, 0, 12, 11, 7, 13, 15, 1, 3, 14, 5, 2, 8, 4, 3, 15, 0, 6, 10, 1, 13, 8, 9, 4, 5, 11, 12, 7, 2, 14],
    [2, 12, 4, 1, 7, 10, 11, 6, 8, 5, 3, 15, 13, 0, 14, 9, 14, 11, 2, 12, 4, 7, 13, 1, 5, 0, 15, 10, 3, 9, 8, 6,
     4, 2, 1, 11, 10, 13, 7, 8, 15, 9, 12, 5, 6, 3, 0, 14, 11, 8, 12, 7, 1, 14, 2, 13, 6, 15, 0, 9, 10, 4, 5, 3],
    [12, 1, 10, 15, 9, 2, 6, 8, 0, 13, 3, 4, 14, 7, 5, 11, 10, 15, 4, 2, 7, 12, 9, 5, 6, 1, 13, 14, 0, 11, 3, 8,
     9, 14, 15, 5, 2, 8, 12, 3, 7, 0, 4, 10, 1, 13, 11, 6, 4, 3, 2, 12, 9, 5, 15, 10, 11, 14, 1, 7, 6, 0, 8, 13],
    [4, 11, 2, 14, 15, 0, 8, 13, 3, 12, 9, 7, 5, 10, 6, 1, 13, 0, 11, 7, 4, 9, 1, 10, 14, 3, 5, 12, 2, 15, 8, 6,
     1, 4, 11, 13, 12, 3, 7, 14, 10, 15, 6, 8, 0, 5, 9, 2, 6, 11, 13, 8, 1, 4, 10, 7, 9, 5, 0, 15, 14, 2, 3, 12],
    [13, 2, 8, 4, 6, 15, 11, 1, 10, 9, 3, 14, 5, 0, 12, 7, 1, 15, 13, 8, 10, 3, 7, 4, 12, 5, 6, 11, 0, 14, 9, 2,
     7, 11, 4, 1, 9, 12, 14, 2, 0, 6, 10, 13, 15, 3, 5, 8, 2, 1, 14, 7, 4, 10, 8, 13, 15, 12, 9, 0, 3, 5, 6, 11],
]
P = [16, 7, 20, 21, 29, 12, 28, 17, 1, 15, 23, 26, 5, 18, 31, 10,
     2, 8, 24, 14, 32, 27, 3, 9, 19, 13, 30, 6, 22, 11, 4, 25]
PC2 = [14, 17, 11, 24, 1, 5, 3, 28, 15, 6, 21, 10, 23, 19, 12, 4, 26, 8, 16, 7, 27, 20, 13, 2,
       41, 52, 31, 37, 47, 55, 30, 40, 51, 45, 33, 48, 44, 49, 39, 56, 34, 53, 46, 42, 50, 36, 29, 32]

DATA_ROT = 15  # des.c keeps L and R rotated left by this many bits during the rounds
# Bit lane (position of the chunk's least significant bit) of each S-box's 6-bit input in the round key words:
# S1, S3, S5, S7 in the word XORed with R (k0), S2, S4, S6, S8 in the word XORed with rotl(R, 4) (k1).
# With R rotated left by 15, S-box i's E-expansion bits land at bit (42 - 4i) mod 32 of R, and at
# (46 - 4i) mod 32 of rotl(R, 4).
LANE = [(42 - 4 * i) % 32 if i % 2 == 0 else (46 - 4 * i) % 32 for i in range(8)]
# Bit positions of the C (S1..S4) and D (S5..S8) register (bit 0 = least significant) that each skb table
# indexes, index bit 0 first: the 24 positions of each half that PC-2 uses, in groups of six.
SKB_GROUPS = [
    [0, 1, 2, 4, 5, 7], [8, 9, 11, 12, 13, 14], [15, 16, 17, 18, 20, 21], [22, 23, 24, 25, 26, 27],
    [0, 1, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12], [14, 15, 16, 17, 19, 20], [22, 23, 24, 25, 26, 27],
]


def rotl32(x, n):
    return ((x << n) | (x >> (32 - n))) & 0xffffffff


def des_sptrans():
    """des_sptrans[i][x]: P(S_{i+1}(x)) rotated left by DATA_ROT, x = input bits b1..b6 (b1 most significant)."""
    tables = []
    for i, box in enumerate(S_BOXES):
        table = []
        for x in range(64):
            row, col = ((x >> 4) & 2) | (x & 1), (x >> 1) & 0xf
            s = box[16 * row + col] << (28 - 4 * i)  # S-box output in f's nibble i (FIPS bits 4i+1..4i+4)
            p = 0
            for src in P:
                p = (p << 1) | ((s >> (32 - src)) & 1)
            table.append(rotl32(p, DATA_ROT))
        tables.append(table)
    return tables


def des_skb():
    """des_skb[g][x]: the round-key bits that the C (g < 4) or D (g >= 4) bits of group g set to x select.

    C and D are the 28-bit halves with FIPS bit 1 at bit 27. Subkey bit j (PC-2 order, 1..48) belongs to
    S-box (j-1)//6 and goes to bit LANE[box] + 5 - (j-1)%6 of k0 (S1, S3, S5, S7) or k1 (S2, S4, S6, S8). The C
    tables build s = S1, S3 chunks in the low half | S2, S4 chunks in the high half, the D tables t = S6, S8
    chunks in the low half | S5, S7 chunks in the high half, and des.c forms k0 = (s & 0xffff) | (t & 0xffff0000),
    k1 = (s >> 16) | (t << 16).
    """
    placement = {}  # (half, register bit position) -> bit of s (half 0) or t (half 1)
    for j, src in enumerate(PC2):
        box, half = j // 6, (0 if src <= 28 else 1)
        bit = LANE[box] + 5 - j % 6
        if box % 2:
            bit = (bit + 16) % 32  # k1 chunks (S2, S4, S6, S8) sit in the other half of s and t
        pos = 28 - (src if half == 0 else src - 28)
        placement[(half, pos)] = bit
    for half in (0, 1):  # the groups cover exactly the bits PC-2 uses
        used = sorted(pos for (h, pos) in placement if h == half)
        assert used == sorted(p for g in SKB_GROUPS[4 * half:4 * half + 4] for p in g)
    tables = []
    for g, group in enumerate(SKB_GROUPS):
        half = g // 4
        table = []
        for x in range(64):
            v = 0
            for k, pos in enumerate(group):
                if (x >> k) & 1:
                    v |= 1 << placement[(half, pos)]
            table.append(v)
        tables.append(table)
    return tables


# --- output --------------------------------------------------------------------------------------------


def c_rows(values, indent):
    lines = []
    for i in range(0, len(values), 8):
        lines.append(indent + " ".join(f"0x{v:08x}U," for v in values[i:i + 8]))
    return lines


def print_1d(name, values):
    print(f"static const uint32_t {name}[{len(values)}] = {{")
    print("\n".join(c_rows(values, "    ")))
    print("};")


def print_2d(name, tables):
    print(f"static const uint32_t {name}[{len(tables)}][{len(tables[0])}] = {{")
    for table in tables:
        print("    {")
        print("\n".join(c_rows(table, "        ")))
        print("    },")
    print("};")


def main():
    what = sys.argv[1] if len(sys.argv) == 2 else ""
    if what == "aes":
        for name, values in aes_tables():
            print_1d(name, values)
    elif what == "des":
        print_2d("des_sptrans", des_sptrans())
        print_2d("des_skb", des_skb())
    else:
        sys.exit("usage: gen_tables.py aes|des")


if __name__ == "__main__":
    main()
