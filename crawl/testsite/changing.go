package testsite

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Changing is a site whose pages change between crawls, for re-crawl
// tests. Version 0 (SetCycle(0), the start) has Pages pages in a tree:
// page i links to pages i·Fanout+1 … i·Fanout+Fanout. From cycle 1 on, 10 %
// of the pages have one paragraph rewritten (Changed), 5 % answer 404 while
// their parent still links to them (Gone: leaves of the tree, so that no
// page depends on them), 5 % more pages exist (New, numbered from Pages on),
// each linked from a changed page, and the rest stay as they were. Page
// counts round down.
//
// Pages answer conditional requests: those whose number is 0 mod 3 send an
// ETag, 1 mod 3 a Last-Modified date, 2 mod 3 neither (an unchanged one
// then costs a full body with the same text). The site counts the body
// bytes it sends per path.
type Changing struct {
	Pages   int
	Fanout  int           // tree links per page; 0 means 4
	Latency time.Duration // added before every response
	// Chrome frames every page as a site's template does: inline style and
	// script in the head (about 10 KB), a menu of 60 links to the first
	// pages and a footer. It makes pages closer to real ones in their share
	// of markup, for benchmarks; their text then has the menu and footer too.
	Chrome bool

	once    sync.Once
	changed []int
	gone    []int
	linksTo map[int][]int // new pages linked from each changed page

	mu    sync.Mutex
	cycle int
	sent  map[string]int64
	hits  map[string]int
}

// Base is the Last-Modified date of every page's first version.
var Base = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func (s *Changing) setup() {
	s.once.Do(func() {
		if s.Fanout == 0 {
			s.Fanout = 4
		}
		s.sent, s.hits = map[string]int64{}, map[string]int{}
		nGone, nChanged := s.Pages*5/100, s.Pages*10/100
		for i := s.Pages - 1; i > 0 && len(s.gone) < nGone; i -= 2 { // every other leaf
			if i*s.Fanout+1 >= s.Pages {
				s.gone = append(s.gone, i)
			}
		}
		for i := 1; i < s.Pages && len(s.changed) < nChanged; i += 7 {
			if !slices.Contains(s.gone, i) {
				s.changed = append(s.changed, i)
			}
		}
		slices.Sort(s.gone)
		s.linksTo = map[int][]int{}
		for j := range s.Pages * 5 / 100 {
			from := s.changed[j%len(s.changed)]
			s.linksTo[from] = append(s.linksTo[from], s.Pages+j)
		}
	})
}

// SetCycle switches the site to the version of cycle c (0 original, 1 or
// more changed) and resets the byte and request counts.
func (s *Changing) SetCycle(c int) {
	s.setup()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cycle = c
	s.sent, s.hits = map[string]int64{}, map[string]int{}
}

// Changed returns the pages that have a paragraph rewritten from cycle 1 on.
func (s *Changing) Changed() []int { s.setup(); return slices.Clone(s.changed) }

// Gone returns the pages that answer 404 from cycle 1 on.
func (s *Changing) Gone() []int { s.setup(); return slices.Clone(s.gone) }

// New returns the pages that exist from cycle 1 on.
func (s *Changing) New() []int {
	s.setup()
	var out []int
	for j := range s.Pages * 5 / 100 {
		out = append(out, s.Pages+j)
	}
	return out
}

// NewLinks returns the new pages that changed page i links to from cycle 1
// on (their anchor text, "page N", joins its body text).
func (s *Changing) NewLinks(i int) []int { s.setup(); return slices.Clone(s.linksTo[i]) }

// Sent returns the body bytes sent per path since the last SetCycle.
func (s *Changing) Sent() map[string]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int64, len(s.sent))
	for k, v := range s.sent {
		out[k] = v
	}
	return out
}

// Hits returns the requests per path since the last SetCycle.
func (s *Changing) Hits() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.hits))
	for k, v := range s.hits {
		out[k] = v
	}
	return out
}

// TotalSent returns the body bytes sent since the last SetCycle.
func (s *Changing) TotalSent() int64 {
	var n int64
	for _, v := range s.Sent() {
		n += v
	}
	return n
}

// version returns which version of page i cycle c serves: -1 when the
// page does not exist, 0 the original, 1 the changed one.
func (s *Changing) version(i, c int) int {
	switch {
	case i < 0 || i >= s.Pages+s.Pages*5/100 || (i >= s.Pages && c == 0):
		return -1
	case c == 0:
		return 0
	case slices.Contains(s.gone, i):
		return -1
	case slices.Contains(s.changed, i):
		return 1
	}
	return 0
}

// Text returns the body text of page i in cycle c: twenty paragraphs, the
// seventh rewritten in a changed page's new version.
func (s *Changing) Text(i, c int) []string {
	v := s.version(i, c)
	paras := make([]string, 20)
	for p := range paras {
		var b strings.Builder
		h := mix(uint64(i)*977 + uint64(p))
		if p == 7 && v == 1 {
			h = mix(h ^ 0xc4a6e)
		}
		for w := range 15 {
			if w > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[(h>>(w*3))%uint64(len(words))])
			if w%5 == 4 {
				h = mix(h)
			}
		}
		fmt.Fprintf(&b, " p%d-%d", i, p)
		paras[p] = b.String()
	}
	return paras
}

// HTML returns the document of page i in cycle c, or nil when it does not
// exist then.
func (s *Changing) HTML(i, c int) []byte {
	s.setup()
	if s.version(i, c) < 0 {
		return nil
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!doctype html><html><head><title>Page %d</title>", i)
	if s.Chrome {
		b.WriteString(chromeHead)
	}
	b.WriteString("</head><body>")
	if s.Chrome {
		b.WriteString(`<header><nav class="site-menu"><ul>`)
		for t := 1; t <= 60 && t < s.Pages; t++ {
			fmt.Fprintf(&b, `<li class="menu-item"><a class="menu-link" href="%s">Section %d</a></li>`, URLPath(t), t)
		}
		b.WriteString(`</ul></nav></header><main><article class="post">`)
	}
	for _, p := range s.Text(i, c) {
		fmt.Fprintf(&b, "<p>%s</p>", p)
	}
	b.WriteString("<ul>")
	links := []int{}
	for k := 1; k <= s.Fanout && i < s.Pages; k++ {
		if t := i*s.Fanout + k; t < s.Pages {
			links = append(links, t)
		}
	}
	if c > 0 {
		links = append(links, s.linksTo[i]...)
	}
	for _, t := range links {
		fmt.Fprintf(&b, `<li><a href="%s">page %d</a></li>`, URLPath(t), t)
	}
	b.WriteString("</ul>")
	if s.Chrome {
		b.WriteString(`</article></main><footer class="site-footer"><p>Copyright the synthetic site. All rights reserved.
Contact the editors, read the privacy notice and the terms of use.</p></footer>`)
	}
	b.WriteString("</body></html>")
	return b.Bytes()
}

// chromeHead is the inline style and script of a page with Chrome.
var chromeHead = func() string {
	var b strings.Builder
	b.WriteString("<style>")
	for i := range 80 {
		fmt.Fprintf(&b, ".c%d{margin:0 %dpx;padding:%dpx;color:#%06x;font:14px/1.4 sans-serif}\n", i, i%9, i%5, i*2654435761%0xffffff)
	}
	b.WriteString("</style><script>")
	for i := range 120 {
		fmt.Fprintf(&b, "function f%d(a,b){var x=a*%d+b;return x>%d?f%d(b,a):x}\n", i, i, i*7, (i+1)%120)
	}
	b.WriteString("</script>")
	return b.String()
}()

// ServeHTTP serves the current cycle's version of a page, answering
// conditional requests (http.ServeContent) and counting body bytes.
func (s *Changing) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.setup()
	if s.Latency > 0 {
		time.Sleep(s.Latency)
	}
	s.mu.Lock()
	c := s.cycle
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	cw := &counter{ResponseWriter: w, s: s, path: r.URL.Path}
	i, ok := s.number(r.URL.Path)
	var body []byte
	if ok {
		body = s.HTML(i, c)
	}
	if body == nil {
		http.NotFound(cw, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	var modified time.Time
	switch i % 3 {
	case 0:
		h := fnv.New64a()
		h.Write(body)
		w.Header().Set("ETag", fmt.Sprintf(`"%x"`, h.Sum64()))
	case 1:
		modified = Base.Add(time.Duration(s.version(i, c)) * 24 * time.Hour)
	}
	http.ServeContent(cw, r, "", modified, bytes.NewReader(body))
}

func (s *Changing) number(path string) (int, bool) {
	if path == "/" {
		return 0, true
	}
	n, err := strconv.Atoi(strings.TrimPrefix(path, "/p/"))
	return n, err == nil && strings.HasPrefix(path, "/p/") && n > 0
}

// counter counts the body bytes written for one request.
type counter struct {
	http.ResponseWriter
	s    *Changing
	path string
}

func (c *counter) Write(b []byte) (int, error) {
	n, err := c.ResponseWriter.Write(b)
	c.s.mu.Lock()
	c.s.sent[c.path] += int64(n)
	c.s.mu.Unlock()
	return n, err
}
