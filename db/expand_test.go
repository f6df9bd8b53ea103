package db

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl"
)

// matchIDs returns the ids of the pages an FTS5 query matches.
func matchIDs(t *testing.T, d *DB, match string) []int64 {
	t.Helper()
	ids, err := queryColumn[int64](context.Background(), d.r, "match", `SELECT rowid FROM pages_fts WHERE pages_fts MATCH ? ORDER BY rowid`, match)
	if err != nil {
		t.Fatalf("%s: %v", match, err)
	}
	return ids
}

// TestProbeQuery checks the form of a search asked about single pages: its
// prefixes become the words they stand for, and it matches what the
// search as typed matches.
func TestProbeQuery(t *testing.T) {
	sqliteOnly(t)
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	texts := []string{"crawl the web", "a crawler crawls", "crawling", "Crawled pages", "craw", "crab claws", "été crawl"}
	for i := range 20 {
		texts = append(texts, fmt.Sprintf("word w%d", i))
	}
	b := &crawl.Batch{}
	for i, text := range texts {
		p := page(fmt.Sprintf("http://127.0.0.1/p%d", i), 0, 0)
		p.Title, p.Text = "", text
		b.Pages = append(b.Pages, p)
	}
	mustApply(t, s, "", b)
	ctx := context.Background()
	for _, tt := range []struct {
		typed string
		cheap bool
		has   string // in the probe query
	}{
		{"craw", true, `"crawl" OR "crawled" OR "crawler" OR "crawling" OR "crawls"`},
		{"CRAW pages", true, `"crawled"`},
		{`"crawl the"`, true, `"crawl the"`},
		{"w", false, `"w"*`},
		{"w1", true, `"w1" OR "w10"`},
		{"zzz", true, `"zzz"`},
		{"été", false, `"été"*`},
		{"fts: craw*", false, "craw*"},
		{"fts: crawl OR crab", true, "crawl OR crab"},
	} {
		probe, cheap, err := d.probeQuery(ctx, tt.typed)
		if err != nil || cheap != tt.cheap || !strings.Contains(probe, tt.has) {
			t.Errorf("probeQuery(%q) = %s, %v, %v; want cheap %v with %s", tt.typed, probe, cheap, err, tt.cheap, tt.has)
			continue
		}
		typed, err := ftsQuery(tt.typed)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := matchIDs(t, d, probe), matchIDs(t, d, typed); !slices.Equal(got, want) {
			t.Errorf("probeQuery(%q) = %s matches %v; %s matches %v", tt.typed, probe, got, typed, want)
		}
	}
	// Ranked with rankQuery, each page gets the rank the query as typed
	// gives it.
	for _, typed := range []string{"craw", "crawli", "crawling web", "w1", "w12", "zzz", "fts: crawl OR crab"} {
		rq, err := d.rankQuery(ctx, typed)
		if err != nil {
			t.Fatal(err)
		}
		fq, _ := ftsQuery(typed)
		if got, want := ranks(t, d, rq), ranks(t, d, fq); !maps.Equal(got, want) {
			t.Errorf("rankQuery(%q) = %s ranks %v; %s ranks %v", typed, rq, got, fq, want)
		}
	}
	if _, _, err := d.probeQuery(ctx, `" "`); err == nil {
		t.Error("probeQuery of no words: no error")
	}
}

// ranks returns the bm25 rank of each page an FTS5 query matches.
func ranks(t *testing.T, d *DB, match string) map[int64]float64 {
	t.Helper()
	rows, err := d.r.Query(`SELECT rowid, rank FROM pages_fts WHERE pages_fts MATCH ?`, match)
	if err != nil {
		t.Fatalf("%s: %v", match, err)
	}
	defer rows.Close()
	m := map[int64]float64{}
	for rows.Next() {
		var id int64
		var r float64
		if err := rows.Scan(&id, &r); err != nil {
			t.Fatal(err)
		}
		m[id] = r
	}
	return m
}
