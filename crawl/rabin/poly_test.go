package rabin

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// The helpers below are GF(2)[t] arithmetic written independently of the
// package's tables, so that the tests can judge Poly and the tables.

// modulus is the polynomial t^n + low over GF(2), 2 <= n <= 64, deg(low) < n.
type modulus struct {
	n   uint
	low uint64
}

// mulT returns a·t mod m.
func (m modulus) mulT(a uint64) uint64 {
	top := a >> (m.n - 1) & 1
	a <<= 1
	if m.n < 64 {
		a &= 1<<m.n - 1
	}
	if top == 1 {
		a ^= m.low
	}
	return a
}

// mul returns a·b mod m by shift-and-add.
func (m modulus) mul(a, b uint64) uint64 {
	var r uint64
	for i := 63; i >= 0; i-- {
		r = m.mulT(r)
		if b>>uint(i)&1 == 1 {
			r ^= a
		}
	}
	return r
}

// tPow2k returns t^(2^k) mod m by k squarings of t.
func (m modulus) tPow2k(k uint) uint64 {
	x := m.mulT(1)
	for range k {
		x = m.mul(x, x)
	}
	return x
}

// polyDeg is the degree of a polynomial with explicit bits (-1 for 0).
func polyDeg(a uint64) int { return bits.Len64(a) - 1 }

// polyMod returns x mod a for explicit-bit polynomials, a != 0.
func polyMod(x, a uint64) uint64 {
	da := polyDeg(a)
	for d := polyDeg(x); d >= da; d = polyDeg(x) {
		x ^= a << uint(d-da)
	}
	return x
}

// reduceModulus returns (t^n + low) mod a, for a != 0 with deg(a) < n.
func (m modulus) reduceModulus(a uint64) uint64 {
	da := polyDeg(a)
	r := uint64(1)
	for range m.n {
		r <<= 1
		if polyDeg(r) == da {
			r ^= a
		}
	}
	return r ^ polyMod(m.low, a)
}

// gcdIsOne reports whether gcd(a, t^n + low) = 1, for deg(a) < n.
func (m modulus) gcdIsOne(a uint64) bool {
	if a == 0 {
		return false
	}
	x, y := a, m.reduceModulus(a)
	for y != 0 {
		x, y = y, polyMod(x, y)
	}
	return x == 1
}

// primeFactors returns the distinct prime factors of n.
func primeFactors(n uint) []uint {
	var ps []uint
	for p := uint(2); p*p <= n; p++ {
		if n%p == 0 {
			ps = append(ps, p)
			for n%p == 0 {
				n /= p
			}
		}
	}
	if n > 1 {
		ps = append(ps, n)
	}
	return ps
}

// irreducible is Rabin's test: t^n + low is irreducible over GF(2) iff
// t^(2^n) ≡ t (mod P) and gcd(t^(2^(n/q)) − t, P) = 1 for every prime q | n.
func (m modulus) irreducible() bool {
	t := m.mulT(1)
	if m.tPow2k(m.n) != t {
		return false
	}
	for _, q := range primeFactors(m.n) {
		if !m.gcdIsOne(m.tPow2k(m.n/q) ^ t) {
			return false
		}
	}
	return true
}

// Seeds of the reproducible search that produced Poly.
const searchSeed1, searchSeed2 = 0x7472_6177_6c65_7200, 2003

// searchIrreducible returns the first candidate t^n + low, low drawn from
// PCG(seed1, seed2) with its constant term forced to 1, that is irreducible,
// and how many candidates it tried.
func searchIrreducible(n uint, seed1, seed2 uint64) (low uint64, tried int) {
	rng := rand.New(rand.NewPCG(seed1, seed2))
	for {
		low = rng.Uint64() | 1
		if n < 64 {
			low &= 1<<n - 1
		}
		tried++
		if (modulus{n, low}).irreducible() {
			return low, tried
		}
	}
}

// TestPolySearch reruns the search that chose Poly and checks it still
// yields Poly: `go test -run TestPolySearch -v ./crawl/rabin`.
func TestPolySearch(t *testing.T) {
	low, tried := searchIrreducible(64, searchSeed1, searchSeed2)
	t.Logf("PCG(%#x, %d): first irreducible after %d candidates: %#016x", uint64(searchSeed1), searchSeed2, tried, low)
	if low != Poly {
		t.Fatalf("search found %#016x, Poly is %#016x", low, uint64(Poly))
	}
}

func TestPolyIrreducible(t *testing.T) {
	m := modulus{64, Poly}
	tt := m.mulT(1)
	if got := m.tPow2k(64); got != tt {
		t.Fatalf("t^(2^64) mod P = %#x, want t", got)
	}
	if !m.gcdIsOne(m.tPow2k(32) ^ tt) {
		t.Fatal("gcd(t^(2^32) - t, P) != 1")
	}
}

// bruteIrreducible reports whether the explicit-bit polynomial f of degree
// at least 1 has no factor of degree 1..deg(f)/2, by trial division.
func bruteIrreducible(f uint64) bool {
	n := polyDeg(f)
	for d := 1; d <= n/2; d++ {
		for g := uint64(1) << uint(d); g < 1<<uint(d+1); g++ {
			if polyMod(f, g) == 0 {
				return false
			}
		}
	}
	return true
}

// TestIrreducibleAgreesWithTrialDivision checks Rabin's test on every
// polynomial of degree 2..12 against trial division and the known counts
// of irreducible polynomials (OEIS A001037).
func TestIrreducibleAgreesWithTrialDivision(t *testing.T) {
	want := map[uint]int{2: 1, 3: 2, 4: 3, 5: 6, 6: 9, 7: 18, 8: 30, 9: 56, 10: 99, 11: 186, 12: 335}
	for n := uint(2); n <= 12; n++ {
		count := 0
		for low := uint64(0); low < 1<<n; low++ {
			got := modulus{n, low}.irreducible()
			if brute := bruteIrreducible(1<<n | low); got != brute {
				t.Fatalf("degree %d, low %#x: Rabin %v, trial division %v", n, low, got, brute)
			}
			if got {
				count++
			}
		}
		if count != want[n] {
			t.Errorf("degree %d: %d irreducible, want %d", n, count, want[n])
		}
	}
}

// clmul multiplies two explicit-bit polynomials into a 128-bit product.
func clmul(a, b uint64) (hi, lo uint64) {
	for i := uint(0); i < 64; i++ {
		if b>>i&1 == 1 {
			lo ^= a << i
			if i > 0 {
				hi ^= a >> (64 - i)
			}
		}
	}
	return hi, lo
}

// TestIrreducibleRejectsProducts builds degree-64 products whose factors
// are known and checks Rabin's test refuses them. The product of two
// distinct irreducibles of degree 32 passes the t^(2^64) condition, so only
// the gcd condition can refuse it.
func TestIrreducibleRejectsProducts(t *testing.T) {
	f32, _ := searchIrreducible(32, 1, 1)
	g32, _ := searchIrreducible(32, 2, 2)
	if f32 == g32 {
		t.Fatal("searches gave the same degree-32 polynomial")
	}
	f63, _ := searchIrreducible(63, 3, 3)
	cases := []struct {
		name string
		a, b uint64
	}{
		{"32x32", 1<<32 | f32, 1<<32 | g32},
		{"32^2", 1<<32 | f32, 1<<32 | f32},
		{"(t+1)x63", 0b11, 1<<63 | f63},
		{"t x63", 0b10, 1<<63 | f63},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hi, lo := clmul(c.a, c.b)
			if hi != 1 {
				t.Fatalf("product has degree %d, want 64", 64+polyDeg(hi))
			}
			m := modulus{64, lo}
			if m.irreducible() {
				t.Fatalf("product %#x accepted as irreducible", lo)
			}
			if c.name == "32x32" && m.tPow2k(64) != m.mulT(1) {
				t.Fatal("t^(2^64) != t mod a product of two degree-32 irreducibles")
			}
		})
	}
}
