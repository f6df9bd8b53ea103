package seen

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func TestWriteReadRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		c    Config
		keys []uint64
	}{
		{"empty", Config{}, nil},
		{"zero key alone", Config{Expected: 10}, []uint64{0}},
		{"default size", Config{}, append(keys(0, 10_000), 0)},
		{"grown past plan", Config{Expected: 100, FalsePositive: 0.5}, keys(1<<20, 5000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(tt.c)
			for _, k := range tt.keys {
				s.Add(k)
			}
			var buf bytes.Buffer
			n, err := s.WriteTo(&buf)
			if err != nil || n != int64(buf.Len()) {
				t.Fatalf("WriteTo = %d, %v; wrote %d bytes", n, err, buf.Len())
			}
			buf.WriteString("trailing")
			got := New(Config{Expected: 7, FalsePositive: 0.3})
			got.Add(splitmix(99)) // replaced by ReadFrom
			rn, err := got.ReadFrom(&buf)
			if err != nil || rn != n {
				t.Fatalf("ReadFrom = %d, %v; want %d, nil", rn, err, n)
			}
			if buf.String() != "trailing" {
				t.Errorf("ReadFrom left %q unread, want %q", buf.String(), "trailing")
			}
			want, have := s.Stats(), got.Stats()
			if have.Len != want.Len || have.Planned != want.Planned || have.M != want.M || have.K != want.K {
				t.Errorf("restored len %d planned %d m %d k %d; want %d %d %d %d",
					have.Len, have.Planned, have.M, have.K, want.Len, want.Planned, want.M, want.K)
			}
			for _, k := range tt.keys {
				if got.Add(k) {
					t.Fatalf("restored set admitted saved key %#x again", k)
				}
			}
			if fresh := splitmix(1 << 50); got.Contains(fresh) || !got.Add(fresh) {
				t.Error("restored set refused a new key")
			}
		})
	}
}

// goldenSet is the set saved in testdata/v1.seen.
func goldenSet() *Set {
	s := newSet(2, 40, 9.585, 7)
	for _, k := range append(keys(0, 30), 0, 1, 1<<63) {
		s.Add(k)
	}
	return s
}

func TestGoldenFormat(t *testing.T) {
	path := filepath.Join("testdata", "v1.seen")
	var buf bytes.Buffer
	if _, err := goldenSet().WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), golden) {
		t.Fatalf("WriteTo output differs from %s (run with -update if the format changed on purpose)", path)
	}
	s := New(Config{})
	if _, err := s.ReadFrom(bytes.NewReader(golden)); err != nil {
		t.Fatal(err)
	}
	if st := s.Stats(); st.Len != 33 || st.Shards != 4 || st.K != 7 {
		t.Errorf("golden set: len %d, shards %d, k %d; want 33, 4, 7", st.Len, st.Shards, st.K)
	}
	for _, k := range append(keys(0, 30), 0, 1, 1<<63) {
		if !s.Contains(k) {
			t.Errorf("golden set lacks %#x", k)
		}
	}
}

func TestReadFromRefusesCorruptInput(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("testdata", "v1.seen"))
	if err != nil {
		t.Fatal(err)
	}
	shard0 := headerSize // planned, count, then the keys of shard 0
	tests := []struct {
		name   string
		input  []byte
		errHas string
	}{
		{"empty", nil, "truncated"},
		{"text", []byte("http://example.com/ is not a seen set at all"), "bad magic"},
		{"truncated header", golden[:10], "truncated"},
		{"truncated keys", golden[:len(golden)-20], "truncated"},
		{"no checksum", golden[:len(golden)-4], "truncated"},
		{"flipped key bit", flip(golden, shard0+16+3), "wrong shard"},
		{"flipped checksum", flip(golden, len(golden)-1), "checksum"},
		{"flipped plan bit", flip(golden, shard0), "checksum"},
		{"version 2", withCRC(put32(golden, 8, 2)), "unsupported version 2"},
		{"zero hashes", withCRC(put32(golden, 16, 0)), "hash functions"},
		{"too many shards", withCRC(put32(golden, 12, 40)), "shard bits"},
		{"reserved set", withCRC(put32(golden, 20, 1)), "reserved"},
		{"bits per key NaN", withCRC(put64(golden, 24, 0x7ff8000000000001)), "bits per key"},
		{"count above plan", withCRC(put64(golden, shard0+8, 1<<41)), "planned"},
		{"keys out of order", withCRC(swapKeys(golden, shard0+16)), "out of order"},
		{"key in wrong shard", withCRC(put64(golden, shard0+16+8, 3)), "wrong shard"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(Config{Expected: 10})
			s.Add(42)
			_, err := s.ReadFrom(bytes.NewReader(tt.input))
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("ReadFrom error = %v, want one wrapping ErrFormat", err)
			}
			if !strings.Contains(err.Error(), tt.errHas) || !strings.HasPrefix(err.Error(), "read seen set: ") {
				t.Errorf("error %q should start with %q and mention %q", err, "read seen set: ", tt.errHas)
			}
			if s.Len() != 1 || !s.Contains(42) || s.Stats().Shards != 1<<defaultShardBits {
				t.Errorf("a refused input changed the set: len %d", s.Len())
			}
		})
	}
}

func flip(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 0x10
	return c
}

func put32(b []byte, at int, v uint32) []byte {
	c := bytes.Clone(b)
	binary.LittleEndian.PutUint32(c[at:], v)
	return c
}

func put64(b []byte, at int, v uint64) []byte {
	c := bytes.Clone(b)
	binary.LittleEndian.PutUint64(c[at:], v)
	return c
}

// swapKeys swaps the two keys at at and at+8.
func swapKeys(b []byte, at int) []byte {
	c := bytes.Clone(b)
	copy(c[at:], b[at+8:at+16])
	copy(c[at+8:], b[at:at+8])
	return c
}

// withCRC recomputes the trailing checksum, so only the field checks stand
// between the damaged content and the set.
func withCRC(b []byte) []byte {
	n := len(b) - 4
	binary.LittleEndian.PutUint32(b[n:], crc32.Checksum(b[:n], castagnoli))
	return b
}
