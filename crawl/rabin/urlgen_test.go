package rabin

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// urlGen writes deterministic, realistic-looking URLs for the Table 1
// experiment. URL i carries exactly one run of decimal digits: the decimal
// form of scramble(i). Every other part comes from letter-only word lists,
// so i can be read back from the URL, and distinct i give distinct URLs.
type urlGen struct{ buf []byte }

// scramble is a bijection on uint32 (odd multipliers and xor-shifts are
// invertible), so the ids look random but never repeat.
func scramble(i uint32) uint32 {
	x := i * 0x9e3779b1
	x ^= x >> 15
	x *= 0x85ebca77
	x ^= x >> 13
	return x
}

// mix64 is splitmix64's finalizer: the per-URL source of choices.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

var (
	syllables = strings.Fields(`ka lo mi ne ro sa ti vu bel cor dan fel gor hal
		jin kel lum mar nor pel qua ris sol tar ven wex yor zan ab ex in on up al
		bright cloud data easy fast green info lab media net open pixel quick river
		smart tech urban view web zone alpha beta delta gamma sigma omega nova`)
	tlds       = strings.Fields("com com com net org de cn jp uk fr edu gov info io ru br it nl")
	subdomains = []string{"www.", "www.", "www.", "", "m.", "blog.", "shop.", "news.", "static.", "en.", "bbs."}
	words      = strings.Fields(`index home news sports world china tech science
		products catalog books music video photos forum thread article articles
		archive docs help about contact search download software games travel
		finance stock health education jobs blog post category tag user profile
		list detail view show page item review comments faq support english
		gallery events weather map shop cart order login register library`)
	params = strings.Fields(`q sort lang ref from src type cat view mode tab
		order filter utm_source utm_medium session action`)
	exts = []string{".html", ".htm", ".php", ".asp", ".aspx", ".jsp", ".shtml", ""}
)

// pick returns a word chosen by the low bits of *r and consumes them.
func pick(r *uint64, list []string) string {
	w := list[*r%uint64(len(list))]
	*r /= uint64(len(list))
	return w
}

// appendHost writes a host name; small host numbers are far more frequent,
// as on the web, where a few sites hold most URLs.
func (g *urlGen) appendHost(r uint64) {
	h := (r >> 5) & (1<<(r&15+2) - 1) // host number below 2^2 … 2^17
	name := mix64(h)
	if name&3 == 0 {
		g.buf = append(g.buf, "https://"...)
	} else {
		g.buf = append(g.buf, "http://"...)
	}
	name >>= 2
	g.buf = append(g.buf, pick(&name, subdomains)...)
	g.buf = append(g.buf, pick(&name, syllables)...)
	g.buf = append(g.buf, pick(&name, syllables)...)
	if name&1 == 0 {
		name >>= 1
		g.buf = append(g.buf, pick(&name, []string{"", "", "-"})...)
		g.buf = append(g.buf, pick(&name, syllables)...)
	}
	g.buf = append(g.buf, '.')
	g.buf = append(g.buf, pick(&name, tlds)...)
}

// url returns URL number i; the slice is reused by the next call.
func (g *urlGen) url(i uint32) []byte {
	r := mix64(uint64(i) ^ 0x54524157_4c455231)
	g.buf = g.buf[:0]
	g.appendHost(r)
	r = mix64(r)
	for depth := r % 5; depth > 0; depth-- {
		r /= 5
		g.buf = append(g.buf, '/')
		g.buf = append(g.buf, pick(&r, words)...)
	}
	r = mix64(r)
	id := uint64(scramble(i))
	fragment := ""
	form := r % 6
	r /= 6
	switch form {
	case 0: // /article-123.html
		g.buf = append(g.buf, '/')
		g.buf = append(g.buf, pick(&r, words)...)
		g.buf = strconv.AppendUint(append(g.buf, '-'), id, 10)
		g.buf = append(g.buf, pick(&r, exts)...)
	case 1: // /123/
		g.buf = strconv.AppendUint(append(g.buf, '/'), id, 10)
		g.buf = append(g.buf, '/')
	case 2: // /view.php?id=123
		g.buf = append(g.buf, '/')
		g.buf = append(g.buf, pick(&r, words)...)
		g.buf = append(g.buf, pick(&r, exts)...)
		g.buf = strconv.AppendUint(append(g.buf, "?id="...), id, 10)
	case 3: // /?sort=news&sid=123
		g.buf = append(g.buf, "/?"...)
		g.buf = append(g.buf, pick(&r, params)...)
		g.buf = append(g.buf, '=')
		g.buf = append(g.buf, pick(&r, words)...)
		g.buf = strconv.AppendUint(append(g.buf, "&sid="...), id, 10)
	case 4: // /list_123.htm?lang=english#comments
		g.buf = append(g.buf, '/')
		g.buf = append(g.buf, pick(&r, words)...)
		g.buf = strconv.AppendUint(append(g.buf, '_'), id, 10)
		g.buf = append(g.buf, pick(&r, exts)...)
		fragment = pick(&r, words)
	default: // /thread?tid=123&lang=english
		g.buf = append(g.buf, '/')
		g.buf = append(g.buf, pick(&r, words)...)
		g.buf = append(g.buf, '?')
		g.buf = append(g.buf, pick(&r, params)...)
		g.buf = strconv.AppendUint(append(g.buf, "id="...), id, 10)
	}
	for extra := r % 3; extra > 0 && r > 0; extra-- {
		r /= 3
		if bytes.IndexByte(g.buf, '?') >= 0 {
			g.buf = append(g.buf, '&')
		} else {
			g.buf = append(g.buf, '?')
		}
		g.buf = append(g.buf, pick(&r, params)...)
		g.buf = append(g.buf, '=')
		g.buf = append(g.buf, pick(&r, words)...)
	}
	if fragment != "" {
		g.buf = append(append(g.buf, '#'), fragment...)
	}
	return g.buf
}

// idOf returns the one run of decimal digits in u, or false if u has none
// or more than one.
func idOf(u []byte) (uint64, bool) {
	start, end := -1, -1
	for k, c := range u {
		if c < '0' || c > '9' {
			continue
		}
		if start < 0 {
			start = k
		} else if end != k {
			return 0, false
		}
		end = k + 1
	}
	if start < 0 {
		return 0, false
	}
	id, err := strconv.ParseUint(string(u[start:end]), 10, 32)
	return id, err == nil && strconv.FormatUint(id, 10) == string(u[start:end])
}

// checkURL fails the test unless URL i carries scramble(i) as its only
// digits, which is what makes the generated URLs distinct.
func checkURL(t testing.TB, i uint32, u []byte) {
	if id, ok := idOf(u); !ok || id != uint64(scramble(i)) {
		t.Fatalf("URL %d %q: id %d, %v; want %d", i, u, id, ok, scramble(i))
	}
}

func TestURLGen(t *testing.T) {
	for _, list := range [][]string{syllables, tlds, subdomains, words, params, exts} {
		for _, w := range list {
			if strings.ContainsAny(w, "0123456789") {
				t.Fatalf("word %q has a digit: ids would no longer be the only digits", w)
			}
		}
	}
	const n = 200_000
	var g urlGen
	seen := make(map[string]uint32, n)
	hosts := make(map[string]bool)
	for i := range uint32(n) {
		u := g.url(i)
		checkURL(t, i, u)
		if j, dup := seen[string(u)]; dup {
			t.Fatalf("URLs %d and %d are both %q", j, i, u)
		}
		seen[string(u)] = i
		p, err := url.Parse(string(u))
		if err != nil || p.Host == "" || p.Path == "" {
			t.Fatalf("URL %d %q does not parse as an absolute URL: %v", i, u, err)
		}
		hosts[p.Host] = true
	}
	if len(hosts) < 10_000 {
		t.Errorf("only %d hosts among %d URLs", len(hosts), n)
	}
	t.Logf("%d distinct URLs on %d hosts, e.g. %q", n, len(hosts), g.url(12345))
}
