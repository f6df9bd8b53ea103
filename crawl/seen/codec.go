package seen

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"
)

// The saved form of a Set, all integers little-endian:
//
//	magic      8 bytes "TRWLSEEN"
//	version    uint32 (formatVersion)
//	shardBits  uint32
//	k          uint32  Bloom hash functions
//	reserved   uint32  zero
//	bitsPerKey float64 Bloom bits per planned key, as IEEE-754 bits
//	per shard: planned uint64, count uint64, count keys uint64 strictly ascending
//	crc        uint32  CRC-32C of every byte before it
//
// Bloom filters are not saved: they are rebuilt from the keys on reading,
// which keeps the file at 8 bytes per URL and a damaged file from ever
// hiding a key.
const (
	magic         = "TRWLSEEN"
	formatVersion = 1
	headerSize    = 8 + 4*4 + 8
)

// Limits that keep a damaged header from asking for absurd sizes.
const (
	maxHashes     = 64
	maxBitsPerKey = 1024
	maxPlanned    = 1 << 40
)

// ErrFormat is wrapped by ReadFrom's errors when the input is not a saved
// seen-set or is damaged.
var ErrFormat = errors.New("not a valid seen-set file")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// WriteTo saves the set to w so a resumed crawl does not refetch what it has
// seen. It may run while other goroutines add: each shard is copied under its
// lock, so a key added during the save may or may not be in it. Pause the
// crawl first for an exact snapshot.
func (s *Set) WriteTo(w io.Writer) (int64, error) {
	if s.shards == nil {
		return 0, errNoShards
	}
	cw := &countWriter{w: w}
	sum := crc32.New(castagnoli)
	bw := bufio.NewWriterSize(io.MultiWriter(cw, sum), 64<<10)
	var hdr [headerSize]byte
	copy(hdr[:], magic)
	binary.LittleEndian.PutUint32(hdr[8:], formatVersion)
	binary.LittleEndian.PutUint32(hdr[12:], uint32(s.shardBits))
	binary.LittleEndian.PutUint32(hdr[16:], uint32(s.k))
	binary.LittleEndian.PutUint64(hdr[24:], math.Float64bits(s.bitsPerKey))
	bw.Write(hdr[:])
	var keys []uint64
	var b [16]byte
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		planned := sh.planned
		keys = sh.tab.keys(keys[:0])
		sh.mu.Unlock()
		slices.Sort(keys)
		binary.LittleEndian.PutUint64(b[:], uint64(planned))
		binary.LittleEndian.PutUint64(b[8:], uint64(len(keys)))
		bw.Write(b[:])
		for _, k := range keys {
			binary.LittleEndian.PutUint64(b[:], k)
			bw.Write(b[:8])
		}
	}
	if err := bw.Flush(); err != nil {
		return cw.n, fmt.Errorf("write seen set: %w", err)
	}
	binary.LittleEndian.PutUint32(b[:], sum.Sum32())
	if _, err := cw.Write(b[:4]); err != nil {
		return cw.n, fmt.Errorf("write seen set: %w", err)
	}
	return cw.n, nil
}

// ReadFrom replaces the set's contents and sizing with a set saved by
// WriteTo, reading exactly the saved bytes from r. It refuses input that is
// not a saved set, is truncated or fails its checksum, with an error wrapping
// ErrFormat, and then leaves the set unchanged. Statistics restart at zero.
// ReadFrom must not run concurrently with other methods of the set.
func (s *Set) ReadFrom(r io.Reader) (int64, error) {
	cr := &countReader{r: r}
	sum := crc32.New(castagnoli)
	in := io.TeeReader(cr, sum)
	t, err := readSet(in)
	if err == nil {
		var b [4]byte
		if _, err = io.ReadFull(cr, b[:]); err == nil && binary.LittleEndian.Uint32(b[:]) != sum.Sum32() {
			err = fmt.Errorf("%w: checksum mismatch", ErrFormat)
		}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = fmt.Errorf("%w: truncated after %d bytes", ErrFormat, cr.n)
	}
	if err != nil {
		return cr.n, fmt.Errorf("read seen set: %w", err)
	}
	for i := range t.shards {
		t.shards[i].rebuild(t.bitsPerKey, t.k)
	}
	s.shards, s.shardMask, s.shardBits = t.shards, t.shardMask, t.shardBits
	s.bitsPerKey, s.k = t.bitsPerKey, t.k
	return cr.n, nil
}

// readSet reads the header and every shard's keys. The Bloom filters are
// left for the caller to build once the checksum has been verified.
func readSet(in io.Reader) (*Set, error) {
	var hdr [headerSize]byte
	if _, err := io.ReadFull(in, hdr[:]); err != nil {
		return nil, err
	}
	if string(hdr[:8]) != magic {
		return nil, fmt.Errorf("%w: bad magic %q", ErrFormat, hdr[:8])
	}
	if v := binary.LittleEndian.Uint32(hdr[8:]); v != formatVersion {
		return nil, fmt.Errorf("%w: unsupported version %d (want %d)", ErrFormat, v, formatVersion)
	}
	shardBits := binary.LittleEndian.Uint32(hdr[12:])
	k := binary.LittleEndian.Uint32(hdr[16:])
	reserved := binary.LittleEndian.Uint32(hdr[20:])
	bitsPerKey := math.Float64frombits(binary.LittleEndian.Uint64(hdr[24:]))
	switch {
	case shardBits > maxShardBits:
		return nil, fmt.Errorf("%w: %d shard bits (at most %d)", ErrFormat, shardBits, maxShardBits)
	case k < 1 || k > maxHashes:
		return nil, fmt.Errorf("%w: %d hash functions (want 1 to %d)", ErrFormat, k, maxHashes)
	case reserved != 0:
		return nil, fmt.Errorf("%w: reserved header field is %d", ErrFormat, reserved)
	case !(bitsPerKey > 0 && bitsPerKey <= maxBitsPerKey):
		return nil, fmt.Errorf("%w: %v Bloom bits per key", ErrFormat, bitsPerKey)
	}
	s := &Set{
		shards:     make([]shard, 1<<shardBits),
		shardMask:  1<<shardBits - 1,
		shardBits:  uint(shardBits),
		bitsPerKey: bitsPerKey,
		k:          uint(k),
	}
	buf := make([]byte, 64<<10)
	for i := range s.shards {
		if err := readShard(in, &s.shards[i], uint64(i), s.shardMask, buf); err != nil {
			return nil, fmt.Errorf("shard %d: %w", i, err)
		}
	}
	return s, nil
}

// readShard reads one shard's plan and keys into sh.tab, checking that the
// keys ascend and belong to shard i.
func readShard(in io.Reader, sh *shard, i, mask uint64, buf []byte) error {
	if _, err := io.ReadFull(in, buf[:16]); err != nil {
		return err
	}
	planned := binary.LittleEndian.Uint64(buf)
	count := binary.LittleEndian.Uint64(buf[8:])
	if planned < 1 || planned > maxPlanned || count > planned {
		return fmt.Errorf("%w: %d keys planned, %d held", ErrFormat, planned, count)
	}
	sh.planned = int(planned)
	var prev uint64
	for left := count; left > 0; {
		chunk := min(left, uint64(len(buf)/8))
		if _, err := io.ReadFull(in, buf[:chunk*8]); err != nil {
			return err
		}
		for j := range chunk {
			key := binary.LittleEndian.Uint64(buf[j*8:])
			h := mix(key)
			if sh.tab.len() > 0 && key <= prev {
				return fmt.Errorf("%w: keys out of order", ErrFormat)
			}
			if h&mask != i {
				return fmt.Errorf("%w: key %#x in the wrong shard", ErrFormat, key)
			}
			sh.tab.insertNew(key, h)
			prev = key
		}
		left -= chunk
	}
	return nil
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
