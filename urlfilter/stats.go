package urlfilter

// ListStats describes how one list is stored (paper 002's structure).
type ListStats struct {
	Entries    int // digests held
	Buckets    int // n, buckets of the hash table
	BitmapBits int // w, bits of each bucket's bitmap
	Slots      int // slots of all bucket arrays (Σ p), used or not
	Overflow   int // digests stored past their bucket's bitmap area
	BloomBits  int // bits of the Bloom filter in front
	Bytes      int // memory held, Bloom filter included
}

// Stats describes a Filter's memory, for logs and status pages: a gateway
// holding a million entries can show what they cost.
type Stats struct {
	Black, White ListStats
	SieveBits    int // bits of the sieve in front of MD5 (see Lookup)
	Categories   int // distinct non-empty categories
	Bytes        int // everything above, with the sieve and categories
}

// Stats returns the current snapshot's figures; it walks the buckets, so
// it costs about a microsecond per thousand entries.
func (f *Filter) Stats() Stats {
	s := f.load()
	st := Stats{Black: s.lists[0].stats(), White: s.lists[1].stats(), Categories: len(s.cats.names) - 1}
	st.SieveBits = s.sieve.f.bits()
	st.Bytes = st.Black.Bytes + st.White.Bytes + s.sieve.f.bytes() + int(unsafeSizeofSnapshot)
	for _, n := range s.cats.names {
		st.Bytes += 16 + len(n) + 24 // name, and its map entry (roughly)
	}
	return st
}

func (t *table) stats() ListStats {
	ls := ListStats{Entries: t.count, Buckets: int(t.n), BitmapBits: int(t.w), Bytes: t.bytes()}
	for _, bk := range t.buckets {
		ls.Slots += len(bk.slots)
		ls.Overflow += int(bk.over)
	}
	if t.front != nil {
		ls.BloomBits = t.front.bits()
	}
	return ls
}

// bits is the size of f's bit arrays.
func (f *bloomFront) bits() int { return len(f.parts) * int(f.pwords) * 64 }
