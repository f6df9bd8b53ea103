#!/usr/bin/env python3
"""Write golden.txt: Rabin fingerprints computed independently of the Go code.

Each fingerprint is A'(t) mod P(t), A' being a 1-bit followed by the input's
bits (most significant bit of each byte first), reduced by plain shifting
with Python integers. Before writing, P is proven irreducible with Rabin's
test in Python arithmetic.

Run from this directory:  python3 golden.py > golden.txt
Lines: "# poly <hex>" then "<fingerprint hex>\t<input hex>" per input.
"""
import random

POLY = 0x391A68062509249B  # must equal rabin.Poly; the Go test checks the header
P = (1 << 64) | POLY


def mulmod(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
        if a >> 64:
            a ^= P
    return r


def polymod(x, y):
    dy = y.bit_length()
    while x.bit_length() >= dy:
        x ^= y << (x.bit_length() - dy)
    return x


def irreducible():
    t = 2
    x = t
    for i in range(64):
        x = mulmod(x, x)
        if i == 31:
            h = x ^ t  # t^(2^32) - t
    if x != t:
        return False
    a, b = P, h
    while b:
        a, b = b, polymod(a, b)
    return a == 1


def fingerprint(data):
    r = 1
    for c in data:
        r = (r << 8) | c
        while r.bit_length() > 64:
            r ^= P << (r.bit_length() - 65)
    return r


def inputs():
    yield b""
    yield b"a"
    yield b"abc"
    yield b"\x00abc"
    yield b"\x00"
    yield b"\x00" * 8
    yield b"\x00" * 9
    yield b"\xff" * 8
    yield b"\xff" * 17
    yield bytes(range(256))
    yield bytes(reversed(range(256)))
    for c in range(256):
        yield bytes([c])
    yield b"http://www.example.com/"
    yield b"https://news.example.org/2006/07/index.html?page=2&sort=date#top"
    yield "http://例え.jp/パス?q=語".encode()
    yield b"abc" * 10000
    rng = random.Random(2003)
    for n in list(range(1, 65)) + [100, 255, 256, 257, 1000, 4093, 20000]:
        yield bytes(rng.getrandbits(8) for _ in range(n))


def main():
    assert irreducible(), "POLY is not irreducible"
    print("# poly %016x" % POLY)
    for data in inputs():
        print("%016x\t%s" % (fingerprint(data), data.hex()))


if __name__ == "__main__":
    main()
