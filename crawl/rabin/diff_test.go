package rabin

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/cputime"
)

// goldenInputs returns the inputs of testdata/golden.txt.
func goldenInputs(tb testing.TB) [][]byte {
	tb.Helper()
	data, err := os.ReadFile("testdata/golden.txt")
	if err != nil {
		tb.Fatal(err)
	}
	var ins [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		_, inHex, ok := strings.Cut(sc.Text(), "\t")
		in, err := hex.DecodeString(inHex)
		if !ok || err != nil {
			continue // the header
		}
		ins = append(ins, in)
	}
	return ins
}

// checkSame fails t unless the current code and the reference agree on p,
// from the empty remainder and from r.
func checkSame(t testing.TB, r uint64, p []byte) {
	t.Helper()
	if got, want := Fingerprint(p), refFingerprint(p); got != want {
		t.Fatalf("Fingerprint(%x) = %#x, reference %#x", p, got, want)
	}
	if got, want := FingerprintString(string(p)), refFingerprint(p); got != want {
		t.Fatalf("FingerprintString(%x) = %#x, reference %#x", p, got, want)
	}
	if got, want := update(r, p), refUpdate(r, p); got != want {
		t.Fatalf("update(%#x, %x) = %#x, reference %#x", r, p, got, want)
	}
}

// TestUpdateMatchesReference holds update and Fingerprint to the code they
// replaced, over every length up to 300 from several remainders, and over
// every suffix of the golden inputs.
func TestUpdateMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	fills := []struct {
		name string
		byte func(i int) byte
	}{
		{"zeros", func(int) byte { return 0 }},
		{"ones", func(int) byte { return 0xff }},
		{"counting", func(i int) byte { return byte(i) }},
		{"random", func(int) byte { return byte(rng.Uint32()) }},
	}
	rems := []uint64{0, empty, Poly, ^uint64(0), 1 << 63, 0x0123456789abcdef}
	for _, fill := range fills {
		t.Run(fill.name, func(t *testing.T) {
			for n := range 301 {
				p := make([]byte, n)
				for i := range p {
					p[i] = fill.byte(i)
				}
				for _, r := range append(rems, rng.Uint64()) {
					checkSame(t, r, p)
				}
			}
		})
	}
	t.Run("golden", func(t *testing.T) {
		for _, in := range goldenInputs(t) {
			for i := range min(len(in), 40) + 1 {
				checkSame(t, rng.Uint64(), in[i:])
			}
		}
	})
}

// FuzzUpdateMatchesReference compares update, Fingerprint and
// FingerprintString with the reference on arbitrary remainders and bytes:
//
//	go test -run '^$' -fuzz FuzzUpdateMatchesReference -fuzztime 3m ./crawl/rabin
func FuzzUpdateMatchesReference(f *testing.F) {
	for _, in := range goldenInputs(f) {
		f.Add(uint64(empty), in)
	}
	f.Add(uint64(Poly), []byte("https://www.example.com/a"))
	f.Add(^uint64(0), []byte("abcdefg"))
	f.Fuzz(func(t *testing.T, r uint64, p []byte) {
		checkSame(t, r, p)
	})
}

// BenchmarkReference sets Fingerprint against the reference it replaced on
// inputs of random lengths in a span (shingles, URLs, page texts), and
// reports CPU time per op besides wall time, which on a shared machine
// says more.
func BenchmarkReference(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, span := range [][2]int{{16, 48}, {40, 100}, {4096, 4097}} {
		ins := make([][]byte, 256)
		for i := range ins {
			ins[i] = randBytes(rng, span[0]+rng.IntN(span[1]-span[0]))
		}
		for _, f := range []struct {
			name string
			fp   func([]byte) uint64
		}{{"ref", refFingerprint}, {"new", Fingerprint}} {
			b.Run(fmt.Sprintf("len=%d-%d/impl=%s", span[0], span[1]-1, f.name), func(b *testing.B) {
				i, cpu := 0, cputime.Since()
				for b.Loop() {
					sink ^= f.fp(ins[i&255])
					i++
				}
				b.ReportMetric(float64(cpu())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
