package browse

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gui/internal/fixture"
)

func newRows(t *testing.T, d *db.DB, loop *fixture.Loop) (*Rows, *[]error) {
	t.Helper()
	var errs []error
	r := NewRows(d, loop.Do, func() {}, func(err error) { errs = append(errs, err) })
	t.Cleanup(r.Close)
	return r, &errs
}

// readAll reads every row through Row, as a table scrolled to the end would.
func readAll(t *testing.T, r *Rows, loop *fixture.Loop) []db.PageRow {
	t.Helper()
	loop.Until(t, "count", r.Counted)
	out := make([]db.PageRow, r.Len())
	for i := range out {
		loop.Until(t, fmt.Sprintf("row %d", i), func() bool {
			row, ok := r.Row(i)
			out[i] = row
			return ok
		})
	}
	return out
}

func TestRowsMatchTheDatabaseInEveryOrder(t *testing.T) {
	d := fixture.OpenDB(t)
	id := fixture.Crawl(t, d, "site", 450)
	loop := fixture.NewLoop()
	r, errs := newRows(t, d, loop)
	two := 2
	queries := []db.PageQuery{
		{Crawl: id},
		{Crawl: id, Sort: db.SortURL},
		{Crawl: id, Sort: db.SortSize, Desc: true},
		{Crawl: id, Sort: db.SortStatus, StatusClass: 4},
		{Crawl: id, Depth: &two, Host: "docs.example.test:80"},
		{Crawl: id, Search: "fox"},
		{Crawl: id, Search: "fox", Sort: db.SortRelevance},
	}
	for _, q := range queries {
		t.Run(fmt.Sprintf("%+v", q), func(t *testing.T) {
			r.SetQuery(q)
			got := readAll(t, r, loop)
			want, err := d.PagesAt(context.Background(), q, 0, 100000)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("%d rows, want %d", len(got), len(want))
			}
			for i := range got {
				if got[i].ID != want[i].ID {
					t.Fatalf("row %d is page %d, want %d", i, got[i].ID, want[i].ID)
				}
			}
		})
	}
	if len(*errs) > 0 {
		t.Fatal(*errs)
	}
}

func TestRowsJumpAndRefresh(t *testing.T) {
	d := fixture.OpenDB(t)
	id := fixture.Crawl(t, d, "site", 1000)
	loop := fixture.NewLoop()
	r, _ := newRows(t, d, loop)
	r.SetQuery(db.PageQuery{Crawl: id, Sort: db.SortFetched, Desc: true})
	loop.Until(t, "count", r.Counted)
	if r.Len() != 1000 {
		t.Fatalf("Len %d", r.Len())
	}
	if _, ok := r.Row(950); ok {
		t.Fatal("row 950 loaded before it was asked for")
	}
	var row db.PageRow
	loop.Until(t, "row 950", func() bool { var ok bool; row, ok = r.Row(950); return ok })
	if !strings.HasSuffix(row.URL, "/page/49") {
		t.Errorf("row 950 newest-first is %s, want page 49", row.URL)
	}
	r.Refresh()
	if again, ok := r.Row(950); !ok || again.ID != row.ID {
		t.Error("a refresh hid the rows already loaded")
	}
	loop.Until(t, "recount", r.Counted)
	if _, ok := r.Row(-1); ok {
		t.Error("row -1")
	}
	if _, ok := r.Row(1000); ok {
		t.Error("row past the end")
	}
}

func TestRowsForgetOldQueries(t *testing.T) {
	d := fixture.OpenDB(t)
	id := fixture.Crawl(t, d, "site", 300)
	loop := fixture.NewLoop()
	r, _ := newRows(t, d, loop)
	r.SetQuery(db.PageQuery{Crawl: id})
	r.Row(0)
	r.SetQuery(db.PageQuery{Crawl: id, StatusClass: 5})
	loop.Until(t, "count", r.Counted)
	if r.Len() != 60 {
		t.Fatalf("5xx rows %d, want 60", r.Len())
	}
	loop.Until(t, "row 0", func() bool { row, ok := r.Row(0); return ok && row.Status == 500 })
}

func TestRowsReportBadSearch(t *testing.T) {
	d := fixture.OpenDB(t)
	id := fixture.Crawl(t, d, "site", 10)
	loop := fixture.NewLoop()
	r, errs := newRows(t, d, loop)
	r.SetQuery(db.PageQuery{Crawl: id, Search: `fts: "unclosed`})
	loop.Until(t, "an error", func() bool { return len(*errs) > 0 })
	if !strings.Contains((*errs)[0].Error(), "search") {
		t.Errorf("error %v", (*errs)[0])
	}
}

func TestSpans(t *testing.T) {
	m := func(s string) string { return string(db.MatchStart) + s + string(db.MatchEnd) }
	got := Spans("…the " + m("quick") + " brown " + m("fox") + " jumps")
	want := []Span{{"…the ", false}, {"quick", true}, {" brown ", false}, {"fox", true}, {" jumps", false}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Spans = %+v", got)
	}
	got = Spans("call f([a], [b]) on " + m("sock"))
	want = []Span{{"call f([a], [b]) on ", false}, {"sock", true}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the page's brackets: Spans = %+v", got)
	}
	if got := Spans("no match " + string(db.MatchStart) + "here"); len(got) != 1 || got[0].Match {
		t.Errorf("unclosed mark: %+v", got)
	}
}

func TestFiltersQuery(t *testing.T) {
	f := Filters{Status: "4xx client error", Type: "text/html", Host: "a:80", Depth: " 2 ", Search: "fox"}
	q := f.Query(7, db.SortTitle, true)
	if q.Crawl != 7 || q.StatusClass != 4 || q.ContentType != "text/html" || q.Host != "a:80" ||
		q.Depth == nil || *q.Depth != 2 || q.Search != "fox" || q.Sort != db.SortTitle || !q.Desc {
		t.Errorf("query %+v", q)
	}
	if q := (Filters{Status: "No response", Depth: "any"}).Query(1, "", false); q.StatusClass != -1 || q.Depth != nil {
		t.Errorf("query %+v", q)
	}
	if q := (Filters{Search: " fox "}).Query(1, db.SortStored, false); q.Sort != db.SortRelevance || q.Search != "fox" {
		t.Errorf("a search with no sort chosen: %+v; want relevance", q)
	}
}

func TestLoadDetail(t *testing.T) {
	d := fixture.OpenDB(t)
	id := fixture.Crawl(t, d, "site", 40)
	ctx := context.Background()
	pid, err := d.PageID(ctx, id, "http://www.example.test/page/10")
	if err != nil {
		t.Fatal(err)
	}
	det, err := LoadDetail(ctx, d, id, pid)
	if err != nil {
		t.Fatal(err)
	}
	if det.Page.Title != "Page 10 of the example site" || len(det.Page.Links) != 2 {
		t.Errorf("page %+v", det.Page)
	}
	if det.Inlinks != (db.InlinkCount{Links: 1, Pages: 1}) || len(det.Sources) != 1 || det.Sources[0].URL != "http://www.example.test/page/4" {
		t.Errorf("inlinks %+v from %+v", det.Inlinks, det.Sources)
	}
	if len(det.Duplicates) != 1 || !strings.HasSuffix(det.Duplicates[0].URL, "/page/20") {
		t.Errorf("duplicates %+v", det.Duplicates)
	}
	labels := map[string]string{}
	for _, f := range append(det.Before, det.After...) {
		labels[f.Label] = f.Value
	}
	for label, want := range map[string]string{"Status": "200", "Depth": "2", "Found on": "http://www.example.test/page/4",
		"Content type": "text/html", "Fetched at": "2024-05-01 12:00:10 UTC", "Content length": "1,010 bytes"} {
		if labels[label] != want {
			t.Errorf("%s = %q, want %q", label, labels[label], want)
		}
	}
	if _, err := LoadDetail(ctx, d, id, 99999); err == nil {
		t.Error("no error for a missing page")
	}
}

func TestExportReadsBack(t *testing.T) {
	d := fixture.OpenDB(t)
	id := fixture.Crawl(t, d, "site", 2500)
	var buf bytes.Buffer
	var calls [][2]int
	q := Filters{Status: "2xx success"}.Query(id, db.SortURL, false)
	n, err := Export(context.Background(), d, &buf, q, func(done, total int) { calls = append(calls, [2]int{done, total}) })
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if n != 1000 || len(recs) != 1001 || recs[0][0] != "url" {
		t.Fatalf("exported %d, read back %d records", n, len(recs))
	}
	if last := calls[len(calls)-1]; last != [2]int{1000, 1000} || calls[0] != [2]int{0, 1000} {
		t.Errorf("progress calls %v", calls)
	}
}

func TestFit(t *testing.T) {
	measure := func(s Span) float32 { return float32(len([]rune(s.Text))) } // one unit a rune
	spans := []Span{{"ab ", false}, {"cdef", true}, {" gh", false}}
	tests := []struct {
		width float32
		want  []Span
	}{
		{100, spans},
		{10, spans},
		{9, []Span{{"ab ", false}, {"cdef", true}, {" ", false}, {"…", false}}},
		{5, []Span{{"ab ", false}, {"c", true}, {"…", false}}},
		{2, []Span{{"a", false}, {"…", false}}},
		{0, []Span{{"…", false}}},
	}
	for _, tt := range tests {
		if got := Fit(spans, tt.width, measure); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Fit(%v) = %v, want %v", tt.width, got, tt.want)
		}
	}
}
