package crawl_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/neardup"
	"github.com/trawler/trawler/crawl/rabin"
	"github.com/trawler/trawler/db"
)

// article returns twenty paragraphs of fifteen pseudo-words from a large
// vocabulary, so that two articles share next to no five-word shingle.
func article(seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 7))
	paras := make([]string, 20)
	for i := range paras {
		w := make([]string, 15)
		for j := range w {
			w[j] = fmt.Sprintf("w%d", rng.IntN(50000))
		}
		paras[i] = strings.Join(w, " ")
	}
	return paras
}

// rewrite returns a copy of paras with the given paragraphs replaced.
func rewrite(paras []string, which ...int) []string {
	out := slices.Clone(paras)
	for _, i := range which {
		out[i] = article(uint64(1000 + i))[i]
	}
	return out
}

func doc(paras []string) string {
	return "<p>" + strings.Join(paras, "</p><p>") + "</p>"
}

// nearSite serves an article, two near-copies (one paragraph of twenty
// rewritten), a page with half its paragraphs rewritten and two unrelated
// articles.
func nearSite() *httptest.Server {
	a := article(1)
	return httptest.NewServer(pages(map[string]string{
		"/":     `<a href="/a">a</a><a href="/a1">a1</a><a href="/a2">a2</a><a href="/half">h</a><a href="/b">b</a><a href="/c">c</a>`,
		"/a":    doc(a),
		"/a1":   doc(rewrite(a, 3)),
		"/a2":   doc(rewrite(a, 15)),
		"/half": doc(rewrite(a, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18)),
		"/b":    doc(article(2)),
		"/c":    doc(article(3)),
	}))
}

func TestNearDuplicates(t *testing.T) {
	srv := nearSite()
	defer srv.Close()
	h := newHarness(t, config(srv.URL+"/"))
	h.run()
	u := func(p string) string { return srv.URL + p }
	a, a1, a2, half := h.page(u("/a")), h.page(u("/a1")), h.page(u("/a2")), h.page(u("/half"))
	fpA := rabin.FingerprintString(u("/a"))
	if a.NearGroup != fpA || a.NearOf != 0 {
		t.Errorf("/a: group %x, near %x; want its own group", a.NearGroup, a.NearOf)
	}
	for _, p := range []*struct {
		name string
		near uint64
		grp  uint64
		sim  float64
	}{{"/a1", a1.NearOf, a1.NearGroup, a1.NearSimilarity}, {"/a2", a2.NearOf, a2.NearGroup, a2.NearSimilarity}} {
		if p.grp != fpA || p.near == 0 || p.sim < 0.9 {
			t.Errorf("%s: group %x, near %x, similarity %.3f; want /a's group (%x) above 0.9", p.name, p.grp, p.near, p.sim, fpA)
		}
	}
	if half.NearGroup == fpA || half.NearOf != 0 {
		t.Errorf("/half (half rewritten): group %x, near %x; want apart", half.NearGroup, half.NearOf)
	}
	rows, err := h.db.Pages(context.Background(), db.PageQuery{Crawl: h.id, NearDuplicates: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, strings.TrimPrefix(r.URL, srv.URL))
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"/a", "/a1", "/a2"}) {
		t.Errorf("near-duplicate filter lists %v", got)
	}
	id, _ := h.db.PageID(context.Background(), h.id, u("/a2"))
	group, err := h.db.NearDuplicates(context.Background(), h.id, id, 0)
	if err != nil || len(group) != 3 || group[0].URL != u("/a") || group[0].Match != "" || group[2].Match == "" {
		t.Errorf("group of /a2: %+v, %v", group, err)
	}
	checkNearCSV(t, h, u("/a1"), u("/a"))
}

// checkNearCSV finds the near-duplicate columns of the export.
func checkNearCSV(t *testing.T, h *harness, url, match string) {
	t.Helper()
	var buf bytes.Buffer
	if _, err := h.db.ExportCSV(context.Background(), &buf, db.PageQuery{Crawl: h.id}, nil); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	for _, r := range recs[1:] {
		if r[0] != url {
			continue
		}
		if r[col["near_match"]] != match || r[col["near_group"]] != fmt.Sprintf("%016x", rabin.FingerprintString(match)) ||
			!strings.HasPrefix(r[col["near_similarity"]], "0.9") {
			t.Errorf("CSV near-duplicate columns of %s: group %q match %q similarity %q", url,
				r[col["near_group"]], r[col["near_match"]], r[col["near_similarity"]])
		}
		return
	}
	t.Errorf("%s not in the CSV", url)
}

// TestNearDuplicatesAfterResume stops a crawl after the article and
// resumes it: the near-copy fetched after the resume still finds the
// article, through the index rebuilt from stored sketches.
func TestNearDuplicatesAfterResume(t *testing.T) {
	srv := nearSite()
	defer srv.Close()
	c := config(srv.URL + "/")
	c.MaxPages = 2 // "/" and "/a"
	h := newHarness(t, c)
	h.run()
	h.cfg.MaxPages = 0
	h.run()
	a1 := h.page(srv.URL + "/a1")
	if a1.NearOf != rabin.FingerprintString(srv.URL+"/a") {
		t.Errorf("/a1 after a resume: near %x, want /a", a1.NearOf)
	}
}

func TestNearDuplicatesOff(t *testing.T) {
	srv := nearSite()
	defer srv.Close()
	c := config(srv.URL + "/")
	c.NearThreshold = 0
	h := newHarness(t, c)
	h.run()
	if p := h.page(srv.URL + "/a1"); p.NearGroup != 0 || p.NearOf != 0 {
		t.Errorf("near-duplicates found with detection off: %+v", p)
	}
}

// TestNearDuplicatesKeepSketchVersion crawls the article under one sketch
// version and stops, then resumes with the settings read back from the
// database, as `trawler resume` and the window do: the stored sketch is
// the version's sketch of the page's text, and the near-copies fetched
// after the resume are found through the index rebuilt from it. Resuming a
// version 1 crawl as version 2 would miss them, which is why a crawl keeps
// its version.
func TestNearDuplicatesKeepSketchVersion(t *testing.T) {
	tests := []struct {
		stored, resumed int // 0: as the database says
		found           bool
	}{
		{neardup.Version1, 0, true},
		{neardup.Version2, 0, true},
		{neardup.Version1, neardup.Version2, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("stored=%d/resumed=%d", tt.stored, tt.resumed), func(t *testing.T) {
			srv := nearSite()
			defer srv.Close()
			c := config(srv.URL + "/")
			c.MaxPages, c.SketchVersion = 2, tt.stored // "/" and "/a"
			h := newHarness(t, c)
			h.run()
			ctx := context.Background()
			a := h.page(srv.URL + "/a")
			sketch, err := h.db.Crawl(h.id).Sketch(ctx, a.FP)
			want := neardup.Config{Version: tt.stored}.Sketch(a.Text)
			if err != nil || !slices.Equal(sketch, want) {
				t.Fatalf("stored sketch of /a is not its version %d sketch (%v)", tt.stored, err)
			}
			if h.cfg, err = h.db.Settings(ctx, h.id); err != nil || h.cfg.SketchVersion != tt.stored {
				t.Fatalf("settings read back: sketch version %d, %v; want %d", h.cfg.SketchVersion, err, tt.stored)
			}
			h.cfg.MaxPages = 0
			if tt.resumed != 0 {
				h.cfg.SketchVersion = tt.resumed
			}
			h.run()
			for _, p := range []string{"/a1", "/a2"} {
				if got := h.page(srv.URL+p).NearOf == a.FP; got != tt.found {
					t.Errorf("%s after the resume: matched /a %v, want %v", p, got, tt.found)
				}
			}
		})
	}
}
