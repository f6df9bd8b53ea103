package crawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/db"
)

// counting counts the requests that reach inner.
func counting(n *atomic.Int64, inner http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		inner.ServeHTTP(w, r)
	})
}

// wordSite has pages that carry listed words: English in mixed case and
// full width, Chinese without spaces, and anchors that name a page.
var wordSite = map[string]string{
	"/": `<title>Home</title><p>Welcome</p>
<a href="/casino">Online CASINO games</a> <a href="/zh">中文</a> <a href="/fw">wide</a>
<a href="/clean">clean</a> <a href="/plural">plural</a>`,
	"/casino": `<title>Play Poker</title><p>Best Casino in town: jackpot, roulette and more casino.</p>`,
	"/zh":     `<title>新闻</title><p>这是一个网上赌博网站，还有百家乐。</p>`,
	"/fw":     `<title>Night</title><p>ＣＡＳＩＮＯ night</p>`,
	"/clean":  `<title>Garden</title><p>Roses and tulips.</p>`,
	"/plural": `<title>Guide</title><p>Casinos of the world; pokerface.</p>`,
}

// pageID returns the id of url's stored page.
func (h *harness) pageID(url string) int64 {
	h.t.Helper()
	rows, err := h.db.Pages(context.Background(), db.PageQuery{Crawl: h.id, Limit: 100000})
	if err != nil {
		h.t.Fatal(err)
	}
	for _, r := range rows {
		if r.URL == url {
			return r.ID
		}
	}
	h.t.Fatalf("no page %s stored", url)
	return 0
}

// verdicts reads every page's verdict as "verdict score category
// term:place=count…", for comparing with a table.
func (h *harness) verdicts(base string) map[string]string {
	h.t.Helper()
	out := map[string]string{}
	for path := range wordSite {
		v, ok, err := h.db.Verdict(context.Background(), h.pageID(base+path))
		if err != nil {
			h.t.Fatal(err)
		}
		if !ok || v.Pending {
			out[path] = fmt.Sprintf("unscored (ok %v, pending %v)", ok, v.Pending)
			continue
		}
		var terms []string
		for _, hit := range v.Hits {
			terms = append(terms, fmt.Sprintf("%s:t%d/x%d/a%d", hit.Term, hit.Title, hit.Text, hit.Anchor))
		}
		sort.Strings(terms)
		out[path] = strings.TrimSpace(fmt.Sprintf("%s %g %s %s", v.Verdict, v.Score, v.Category, strings.Join(terms, " ")))
	}
	return out
}

func TestVerdictsDuringCrawl(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewServer(counting(&requests, pages(wordSite)))
	defer srv.Close()
	c := config(srv.URL + "/")
	c.WordLists = []string{"testdata/words-en.txt", "testdata/words-zh.txt"}
	h := newHarness(t, c)
	p := h.run()
	if p.Scored != int64(len(wordSite)) || p.Black != 2 {
		t.Errorf("progress: scored %d, black %d; want %d and 2", p.Scored, p.Black, len(wordSite))
	}
	want := map[string]string{
		"/":       "grey 2 gambling casino:t0/x1/a0",
		"/casino": "black 5 gambling casino:t0/x2/a1 jackpot:t0/x1/a0 poker:t1/x0/a0 roulette:t0/x1/a0",
		"/zh":     "black 5 赌博 百家乐:t0/x1/a0 网上赌博:t0/x1/a0 赌博:t0/x1/a0",
		"/fw":     "grey 2 gambling casino:t0/x1/a0",
		"/clean":  "white 0",
		"/plural": "white 0",
	}
	checkVerdicts(t, h.verdicts(srv.URL), want)

	// New lists: re-scored from the stored text, nothing fetched again.
	dir := t.TempDir()
	lists := filepath.Join(dir, "garden.txt")
	if err := os.WriteFile(lists, []byte("@threshold 2\nroses\ntulips\ncasino, 0.5, gambling\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before := requests.Load()
	sc, err := crawl.LoadWordLists([]string{lists})
	if err != nil {
		t.Fatal(err)
	}
	n, err := h.db.Rescore(context.Background(), h.id)
	if err != nil || n != int64(len(wordSite)) {
		t.Fatalf("Rescore marked %d pages (%v), want %d", n, err, len(wordSite))
	}
	counts, err := crawl.Score(context.Background(), h.db.Crawl(h.id), sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	if counts.Black != 1 || counts.Total() != int64(len(wordSite)) {
		t.Errorf("re-scoring counted %+v", counts)
	}
	if got := requests.Load(); got != before {
		t.Errorf("re-scoring made %d requests", got-before)
	}
	checkVerdicts(t, h.verdicts(srv.URL), map[string]string{
		"/":       "grey 0.5 gambling casino:t0/x1/a0",
		"/casino": "grey 0.5 gambling casino:t0/x2/a1",
		"/zh":     "white 0",
		"/fw":     "grey 0.5 gambling casino:t0/x1/a0",
		"/clean":  "black 2 garden roses:t0/x1/a0 tulips:t0/x1/a0",
		"/plural": "white 0",
	})
}

func checkVerdicts(t *testing.T, got, want map[string]string) {
	t.Helper()
	for path, w := range want {
		if got[path] != w {
			t.Errorf("%s: %q, want %q", path, got[path], w)
		}
	}
}

func TestBadWordListRefused(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(bad, []byte("ok\ncasino, lots\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := config("http://127.0.0.1:1/")
	c.WordLists = []string{bad}
	_, err := crawl.New(c, nil)
	if err == nil || !strings.Contains(err.Error(), "bad.txt:2") {
		t.Errorf("New with a bad list: %v, want the file and line", err)
	}
}
