package seen

// splitmix returns the i-th value of a splitmix64 sequence: distinct for
// distinct i and well spread, standing in for Rabin URL fingerprints.
func splitmix(i uint64) uint64 {
	z := i*0x9e3779b97f4a7c15 + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// keys returns splitmix(from) … splitmix(from+n-1).
func keys(from, n uint64) []uint64 {
	ks := make([]uint64, n)
	for i := range ks {
		ks[i] = splitmix(from + uint64(i))
	}
	return ks
}
