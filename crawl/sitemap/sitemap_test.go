package sitemap_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl/sitemap"
)

func date(y int, m time.Month, d, h, min, s, ns int, zone int) time.Time {
	return time.Date(y, m, d, h, min, s, ns, time.FixedZone("", zone*3600))
}

func TestURLSet(t *testing.T) {
	s := newServer(t, map[string]route{"/sitemap.xml": {body: golden(t, "urlset.xml")}})
	got, err := sitemap.Collect(context.Background(), httpFetcher(), []string{s.URL + "/sitemap.xml"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []sitemap.Entry{
		{s.URL + "/", date(2026, 2, 1, 0, 0, 0, 0, 0)},
		{s.URL + "/about?a=1&b=2", date(2026, 2, 3, 10, 20, 30, 0, 8)},
		{s.URL + "/cdata", date(2026, 2, 4, 10, 20, 0, 0, 0)},
		{s.URL + "/no-date", time.Time{}},
		{s.URL + "/fraction", date(2026, 2, 5, 1, 2, 3, 5e8, 0)},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d entries %q, want %d", len(got), urls(got), len(want))
	}
	for i := range want {
		if got[i].URL != want[i].URL || !got[i].LastMod.Equal(want[i].LastMod) {
			t.Errorf("entry %d = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestIndex(t *testing.T) {
	s := newServer(t, map[string]route{
		"/index.xml":    {body: golden(t, "index.xml")},
		"/part1.xml":    {body: golden(t, "part1.xml")},
		"/part2":        {body: golden(t, "part2.xml"), gzip: true}, // gzip found by its magic bytes
		"/part3.txt.gz": {body: golden(t, "part3.txt"), gzip: true},
	})
	got, err := sitemap.Collect(context.Background(), httpFetcher(), []string{s.URL + "/index.xml"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{s.URL + "/a", s.URL + "/b", s.URL + "/c", s.URL + "/d", s.URL + "/e"}
	if !slices.Equal(urls(got), want) {
		t.Errorf("URLs = %q, want %q", urls(got), want)
	}
	if !got[1].LastMod.Equal(date(2026, 1, 2, 0, 0, 0, 0, 0)) {
		t.Errorf("a duplicate's <lastmod> did not fill the first's: %v", got[1])
	}
	for _, p := range []string{"/index.xml", "/part1.xml", "/part2", "/part3.txt.gz"} {
		if n := s.count(p); n != 1 {
			t.Errorf("%s fetched %d times, want once", p, n)
		}
	}
}

func TestText(t *testing.T) {
	s := newServer(t, map[string]route{
		"/urls.txt": {body: "\n  {{BASE}}/one\r\n\r\nnot a url\n/relative\nftp://127.0.0.1/file\n{{BASE}}/two?x=1\n{{BASE}}/one\n{{BASE}}/three"},
	})
	got, err := sitemap.Collect(context.Background(), httpFetcher(), []string{s.URL + "/urls.txt"}, 0)
	want := []string{s.URL + "/one", s.URL + "/two?x=1", s.URL + "/three"}
	if !slices.Equal(urls(got), want) {
		t.Errorf("URLs = %q, want %q", urls(got), want)
	}
	if err == nil || !strings.Contains(err.Error(), "3 entries skipped") || !strings.Contains(err.Error(), s.URL+"/urls.txt") {
		t.Errorf("err = %v, want 3 skipped lines reported for the sitemap", err)
	}
}

func TestNesting(t *testing.T) {
	index := func(children ...string) route {
		var b strings.Builder
		b.WriteString("<sitemapindex>")
		for _, c := range children {
			fmt.Fprintf(&b, "<sitemap><loc>{{BASE}}%s</loc></sitemap>", c)
		}
		return route{body: b.String() + "</sitemapindex>"}
	}
	urlset := func(page string) route {
		return route{body: "<urlset><url><loc>{{BASE}}" + page + "</loc></url></urlset>"}
	}
	s := newServer(t, map[string]route{
		"/d0.xml":    index("/d1.xml"),
		"/d1.xml":    index("/d0.xml", "/d2.xml"), // a cycle back to d0
		"/d2.xml":    index("/d3.xml", "/leaf3.xml"),
		"/d3.xml":    index("/leaf4.xml"),
		"/leaf3.xml": urlset("/page3"),
		"/leaf4.xml": urlset("/page4"),
	})
	got, err := sitemap.Collect(context.Background(), httpFetcher(), []string{s.URL + "/d0.xml"}, 0)
	if want := []string{s.URL + "/page3"}; !slices.Equal(urls(got), want) {
		t.Errorf("URLs = %q, want %q", urls(got), want)
	}
	if !errors.Is(err, sitemap.ErrTooDeep) || !strings.Contains(err.Error(), s.URL+"/d3.xml") {
		t.Errorf("err = %v, want ErrTooDeep for d3.xml", err)
	}
	for p, want := range map[string]int{"/d0.xml": 1, "/d1.xml": 1, "/d2.xml": 1, "/d3.xml": 1, "/leaf3.xml": 1, "/leaf4.xml": 0} {
		if n := s.count(p); n != want {
			t.Errorf("%s fetched %d times, want %d", p, n, want)
		}
	}
}

func TestMaxURLs(t *testing.T) {
	set := func(from, to int, dup bool) route {
		var b strings.Builder
		b.WriteString("<urlset>")
		if dup {
			b.WriteString("<url><loc>{{BASE}}/p1</loc></url>") // does not count twice
		}
		for i := from; i <= to; i++ {
			fmt.Fprintf(&b, "<url><loc>{{BASE}}/p%d</loc></url>", i)
		}
		return route{body: b.String() + "</urlset>"}
	}
	tests := []struct {
		max      int
		wantURLs int
		wantHits [3]int
	}{
		{0, 15, [3]int{1, 1, 1}},
		{-1, 15, [3]int{1, 1, 1}},
		{3, 3, [3]int{1, 0, 0}},
		{5, 5, [3]int{1, 0, 0}},
		{7, 7, [3]int{1, 1, 0}},
		{15, 15, [3]int{1, 1, 1}},
		{100, 15, [3]int{1, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.max), func(t *testing.T) {
			s := newServer(t, map[string]route{"/s1": set(1, 5, false), "/s2": set(6, 10, true), "/s3": set(11, 15, false)})
			got, err := sitemap.Collect(context.Background(), httpFetcher(), []string{s.URL + "/s1", s.URL + "/s2", s.URL + "/s3"}, tt.max)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.wantURLs {
				t.Fatalf("got %d URLs, want %d", len(got), tt.wantURLs)
			}
			for i, e := range got {
				if want := fmt.Sprintf("%s/p%d", s.URL, i+1); e.URL != want {
					t.Errorf("entry %d = %s, want %s", i, e.URL, want)
				}
			}
			for i, want := range tt.wantHits {
				if n := s.count(fmt.Sprintf("/s%d", i+1)); n != want {
					t.Errorf("s%d fetched %d times, want %d", i+1, n, want)
				}
			}
		})
	}
}

func TestFailuresDoNotSpoilOthers(t *testing.T) {
	good := func(page string) route {
		return route{body: "<urlset><url><loc>{{BASE}}/" + page + "</loc></url></urlset>"}
	}
	bad := []struct {
		path  string
		route route
		want  string // in the error, besides the path
		is    error
	}{
		{"/truncated.xml", route{body: "<urlset><url><loc>{{BASE}}/t1</loc></url><url><loc>{{BASE}}/t2</loc></url><url><loc>{{BASE}}/t3"}, "unexpected EOF", nil},
		{"/mismatched.xml", route{body: "<urlset><url><loc>{{BASE}}/m1</loc></url><url><loc>{{BASE}}/m2</lo></url></urlset>"}, "parse xml", nil},
		{"/bare-amp.xml", route{body: "<urlset><url><loc>{{BASE}}/?a=1&b=2</loc></url></urlset>"}, "parse xml", nil},
		{"/page.html", route{body: "<!DOCTYPE html><html><body>Not found</body></html>"}, "root element <html>", sitemap.ErrNotSitemap},
		{"/missing.xml", route{status: 404, body: "<urlset></urlset>"}, "status 404", nil},
		{"/error.xml", route{status: 503}, "status 503", nil},
		{"/hangup.xml", route{hangup: true}, "fetch", nil},
		{"/broken.gz", route{body: "\x1f\x8bnot gzip at all"}, "gunzip", nil},
		{"/bad-loc.xml", route{body: "<urlset><url><loc>javascript:alert(1)</loc></url><url><loc>{{BASE}}/ok</loc></url></urlset>"}, "1 entries skipped", nil},
	}
	routes := map[string]route{"/good1.xml": good("g1"), "/good2.xml": good("g2")}
	list := []string{}
	for _, b := range bad {
		routes[b.path] = b.route
	}
	s := newServer(t, routes)
	list = append(list, s.URL+"/good1.xml")
	for _, b := range bad {
		list = append(list, s.URL+b.path)
	}
	list = append(list, s.URL+"/good2.xml")

	got, err := sitemap.Collect(context.Background(), httpFetcher(), list, 0)
	want := []string{s.URL + "/g1", s.URL + "/t1", s.URL + "/t2", s.URL + "/m1", s.URL + "/ok", s.URL + "/g2"}
	if !slices.Equal(urls(got), want) {
		t.Errorf("URLs = %q, want %q", urls(got), want)
	}
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	for _, b := range bad {
		i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "sitemap "+s.URL+b.path+":") })
		if i < 0 || !strings.Contains(lines[i], b.want) {
			t.Errorf("no error line for %s with %q in:\n%v", b.path, b.want, err)
		}
		if b.is != nil && !errors.Is(err, b.is) {
			t.Errorf("error is not %v", b.is)
		}
	}
	if len(lines) != len(bad) {
		t.Errorf("%d error lines, want %d:\n%v", len(lines), len(bad), err)
	}
}

func TestGzipBomb(t *testing.T) {
	// 61 KB of gzip that inflates to 60 MB: reading stops at MaxSize.
	s := newServer(t, map[string]route{"/sitemap": {body: golden(t, "bomb.txt.gz")}})
	got, err := sitemap.Collect(context.Background(), httpFetcher(), []string{s.URL + "/sitemap"}, 0)
	if want := []string{"http://127.0.0.1/before-the-cap"}; !slices.Equal(urls(got), want) {
		t.Errorf("URLs = %q, want %q", urls(got), want)
	}
	if !errors.Is(err, sitemap.ErrTooLarge) {
		t.Errorf("err = %v, want ErrTooLarge", err)
	}
}

func TestCharset(t *testing.T) {
	latin1 := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><urlset><url><loc>{{BASE}}/caf\xe9</loc></url></urlset>"
	decoded := "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><urlset><url><loc>{{BASE}}/caf\u00e9</loc></url></urlset>"
	tests := []struct {
		name  string
		route route
	}{
		{"latin1 gzip", route{body: latin1, gzip: true}},
		{"latin1 plain", route{body: latin1}},
		{"already utf-8", route{body: decoded}}, // decoded by the Fetcher, declaration left as it was
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newServer(t, map[string]route{"/s.xml": tt.route})
			got, err := sitemap.Collect(context.Background(), httpFetcher(), []string{s.URL + "/s.xml"}, 0)
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{s.URL + "/caf%C3%A9"}; !slices.Equal(urls(got), want) {
				t.Errorf("URLs = %q, want %q", urls(got), want)
			}
		})
	}
}

func TestCanceled(t *testing.T) {
	s := newServer(t, map[string]route{"/s.xml": {body: golden(t, "part1.xml")}})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	got, err := sitemap.Collect(ctx, httpFetcher(), []string{s.URL + "/s.xml"}, 0)
	if len(got) != 0 || !errors.Is(err, context.Canceled) || s.count("/s.xml") != 0 {
		t.Errorf("Collect = %d entries, %v after %d fetches; want none, context.Canceled, 0", len(got), err, s.count("/s.xml"))
	}
}

func TestTooManySitemaps(t *testing.T) {
	routes := map[string]route{}
	var b strings.Builder
	b.WriteString("<sitemapindex>")
	for i := range sitemap.MaxSitemaps + 5 {
		p := fmt.Sprintf("/s/%d.xml", i)
		fmt.Fprintf(&b, "<sitemap><loc>{{BASE}}%s</loc></sitemap>", p)
		routes[p] = route{body: fmt.Sprintf("<urlset><url><loc>{{BASE}}/p%d</loc></url></urlset>", i)}
	}
	routes["/index.xml"] = route{body: b.String() + "</sitemapindex>"}
	s := newServer(t, routes)
	got, err := sitemap.Collect(context.Background(), httpFetcher(), []string{s.URL + "/index.xml"}, 0)
	if len(got) != sitemap.MaxSitemaps-1 || !errors.Is(err, sitemap.ErrTooMany) {
		t.Errorf("Collect = %d entries, %v; want %d and ErrTooMany", len(got), err, sitemap.MaxSitemaps-1)
	}
	if n := len(strings.Split(err.Error(), "\n")); n != 1 {
		t.Errorf("%d error lines, want 1", n)
	}
}
