package rabin

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// slowFingerprint is the long division of paper 000 §3.1 one bit at a
// time: shift the next bit in, and subtract P whenever the degree reaches 64.
func slowFingerprint(b []byte) uint64 {
	r := uint64(1)
	for _, c := range b {
		for i := 7; i >= 0; i-- {
			top := r >> 63
			r = r<<1 | uint64(c>>uint(i)&1)
			if top == 1 {
				r ^= Poly
			}
		}
	}
	return r
}

func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

func TestFingerprintMatchesLongDivision(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 20))
	for n := 0; n <= 300; n++ {
		for range 12 {
			b := randBytes(rng, n)
			want := slowFingerprint(b)
			if got := Fingerprint(b); got != want {
				t.Fatalf("Fingerprint(%x) = %#x, long division %#x", b, got, want)
			}
			if got := FingerprintString(string(b)); got != want {
				t.Fatalf("FingerprintString(%x) = %#x, long division %#x", b, got, want)
			}
		}
	}
}

func TestFingerprintKnownValues(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
	}{
		{"", 1},                    // the leading 1-bit alone
		{"a", 0x161},               // 1·t^8 + 0x61, below degree 64
		{"\x00abc", 0x1_0061_6263}, // the leading zero byte counts
		{"abcdefg", 0x161626364656667},
		{"\xff\xff\xff\xff\xff\xff\xff\xff", ^uint64(0) ^ Poly}, // t^64 + (2^64−1), minus P once
	}
	for _, tt := range tests {
		if got := FingerprintString(tt.in); got != tt.want {
			t.Errorf("FingerprintString(%q) = %#x, want %#x", tt.in, got, tt.want)
		}
	}
	if Fingerprint([]byte("abc")) == Fingerprint([]byte("\x00abc")) {
		t.Error(`"abc" and "\x00abc" have the same fingerprint`)
	}
}

// TestLinearity checks property 2 of paper 000 §3.1 on equal-length inputs:
// without the leading 1-bit, f(A xor B) = f(A) xor f(B).
func TestLinearity(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := range 200 {
		a, b := randBytes(rng, n), randBytes(rng, n)
		x := make([]byte, n)
		for i := range x {
			x[i] = a[i] ^ b[i]
		}
		zero := Fingerprint(make([]byte, n))
		if got, want := Fingerprint(x)^zero, Fingerprint(a)^Fingerprint(b); got != want {
			t.Fatalf("length %d: f(a^b)^f(0) = %#x, f(a)^f(b) = %#x", n, got, want)
		}
	}
}

// TestGolden compares with testdata/golden.txt, written by
// testdata/golden.py with Python big integers.
func TestGolden(t *testing.T) {
	f, err := os.Open("testdata/golden.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	if !sc.Scan() {
		t.Fatal("golden.txt is empty")
	}
	if got, want := sc.Text(), "# poly "+Hex(Poly); got != want {
		t.Fatalf("golden.txt header %q, want %q: regenerate it with golden.py", got, want)
	}
	lines := 0
	for sc.Scan() {
		fpHex, inHex, ok := strings.Cut(sc.Text(), "\t")
		in, err := hex.DecodeString(inHex)
		if !ok || err != nil {
			t.Fatalf("bad golden line %q: %v", sc.Text(), err)
		}
		if got := Hex(Fingerprint(in)); got != fpHex {
			t.Errorf("Fingerprint(%.40x…) = %s, golden %s", in, got, fpHex)
		}
		h := New()
		h.Write(in)
		if got := Hex(h.Sum64()); got != fpHex {
			t.Errorf("New().Sum64 over %.40x… = %s, golden %s", in, got, fpHex)
		}
		lines++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines < 300 {
		t.Fatalf("golden.txt has %d vectors, want at least 300", lines)
	}
}

func TestHex(t *testing.T) {
	tests := []struct {
		fp   uint64
		want string
	}{
		{0, "0000000000000000"},
		{1, "0000000000000001"},
		{0xabcdef, "0000000000abcdef"},
		{0x391a68062509249b, "391a68062509249b"},
		{^uint64(0), "ffffffffffffffff"},
	}
	for _, tt := range tests {
		if got := Hex(tt.fp); got != tt.want {
			t.Errorf("Hex(%#x) = %q, want %q", tt.fp, got, tt.want)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		fp := rng.Uint64() >> rng.UintN(64)
		s := Hex(fp)
		if len(s) != 16 || strings.Trim(s, "0123456789abcdef") != "" {
			t.Fatalf("Hex(%#x) = %q: want 16 lower-case hex digits", fp, s)
		}
		if back, err := strconv.ParseUint(s, 16, 64); err != nil || back != fp {
			t.Fatalf("Hex(%#x) = %q parses back as %#x, %v", fp, s, back, err)
		}
	}
}

func TestFingerprintStringDoesNotAllocate(t *testing.T) {
	s := strings.Repeat("https://www.example.com/", 4)
	if n := testing.AllocsPerRun(100, func() { sink = FingerprintString(s) }); n != 0 {
		t.Fatalf("FingerprintString allocates %v times per call", n)
	}
}

// writeSplit feeds b to a fresh hash in pieces ending at the given cuts.
func writeSplit(t testing.TB, b []byte, cuts []int) uint64 {
	t.Helper()
	h := New()
	prev := 0
	for _, c := range append(cuts, len(b)) {
		if n, err := h.Write(b[prev:c]); n != c-prev || err != nil {
			t.Fatalf("Write = %d, %v; want %d, nil", n, err, c-prev)
		}
		prev = c
	}
	return h.Sum64()
}

func TestIncrementalSplits(t *testing.T) {
	b := []byte("https://www.example.com/catalog/item-42.html?x=1")
	want := Fingerprint(b)
	tests := []struct {
		name string
		cuts []int
	}{
		{"whole", nil},
		{"empty first", []int{0}},
		{"empty pieces", []int{0, 0, 5, 5, 5}},
		{"8+rest", []int{8}},
		{"7+rest", []int{7}},
		{"9+rest", []int{9}},
		{"8-aligned", []int{8, 16, 24, 32, 40}},
		{"odd", []int{1, 4, 11, 13, 30, 47}},
		{"last byte alone", []int{len(b) - 1}},
	}
	for _, tt := range tests {
		if got := writeSplit(t, b, tt.cuts); got != want {
			t.Errorf("%s: incremental %#x, one-shot %#x", tt.name, got, want)
		}
	}
	var every []int
	for i := 1; i < len(b); i++ {
		every = append(every, i)
	}
	if got := writeSplit(t, b, every); got != want {
		t.Errorf("byte at a time: incremental %#x, one-shot %#x", got, want)
	}
}

func TestIncrementalRandomSplits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		b := randBytes(rng, rng.IntN(600))
		var cuts []int
		for c := 0; c < len(b); c += rng.IntN(40) {
			cuts = append(cuts, c)
		}
		if got, want := writeSplit(t, b, cuts), Fingerprint(b); got != want {
			t.Fatalf("input %x cuts %v: incremental %#x, one-shot %#x", b, cuts, got, want)
		}
	}
}

func TestHashInterface(t *testing.T) {
	h := New()
	if h.Size() != 8 || h.BlockSize() != BlockSize {
		t.Fatalf("Size %d BlockSize %d", h.Size(), h.BlockSize())
	}
	if h.Sum64() != Fingerprint(nil) {
		t.Fatalf("fresh hash Sum64 = %#x, want Fingerprint(nil)", h.Sum64())
	}
	h.Write([]byte("abc"))
	h.Reset()
	h.Write([]byte("xyz"))
	want := Fingerprint([]byte("xyz"))
	if got := h.Sum64(); got != want {
		t.Fatalf("after Reset: Sum64 = %#x, want %#x", got, want)
	}
	prefix := []byte("prefix")
	sum := h.Sum(prefix)
	if !bytes.HasPrefix(sum, prefix) || len(sum) != len(prefix)+8 {
		t.Fatalf("Sum(%q) = %x: want prefix and 8 more bytes", prefix, sum)
	}
	var got uint64
	for _, c := range sum[len(prefix):] {
		got = got<<8 | uint64(c)
	}
	if got != want {
		t.Fatalf("Sum bytes %x, want big-endian %016x", sum[len(prefix):], want)
	}
	if h.Sum64() != want {
		t.Fatal("Sum changed the state")
	}
}

func FuzzIncremental(f *testing.F) {
	f.Add([]byte(""), uint(0), uint(0))
	f.Add([]byte("abc"), uint(1), uint(2))
	f.Add([]byte("\x00abc"), uint(0), uint(3))
	f.Add([]byte("https://www.example.com/index.html?q=1"), uint(8), uint(17))
	f.Add(bytes.Repeat([]byte{0xff}, 40), uint(7), uint(33))
	f.Fuzz(func(t *testing.T, b []byte, i, j uint) {
		i, j = i%uint(len(b)+1), j%uint(len(b)+1)
		if i > j {
			i, j = j, i
		}
		want := slowFingerprint(b)
		if got := Fingerprint(b); got != want {
			t.Fatalf("Fingerprint = %#x, long division %#x", got, want)
		}
		if got := writeSplit(t, b, []int{int(i), int(j)}); got != want {
			t.Fatalf("split at %d,%d: incremental %#x, long division %#x", i, j, got, want)
		}
	})
}
