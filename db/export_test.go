package db

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/crawl"
)

func TestSafeCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"=1+1", "'=1+1"},
		{"+x", "'+x"},
		{"-x", "'-x"},
		{"@x", "'@x"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"a=b", "a=b"},
		{"'quoted", "'quoted"},
		{"＝全角", "＝全角"},
	}
	for _, tt := range tests {
		if got := SafeCell(tt.in); got != tt.want {
			t.Errorf("SafeCell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestExportCSV(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	ctx := context.Background()
	titles := []string{"=1+1", "+x", "-x", "@x", "\tx", "\rx", `comma, "quote"` + "\nnewline", "网络机器人", ""}
	var pages []*crawl.Page
	for i, title := range titles {
		p := page(fmt.Sprintf("http://127.0.0.1/%d", i), i, 0)
		p.Title, p.Status, p.Length = title, 200+i, int64(1000+i)
		p.ContentFP = uint64(i) << 60 >> 4 // leading zero digits, to check padding
		p.FetchedAt = time.Date(2024, 5, 1, 12, 0, i, 999, time.FixedZone("CST", 8*3600))
		p.Description = "-1 is a formula"
		pages = append(pages, p)
	}
	pages[0].ContentLength = -1
	mustApply(t, s, "run", &crawl.Batch{Pages: pages})

	var buf bytes.Buffer
	var progress []int
	n, err := d.ExportCSV(ctx, &buf, PageQuery{Crawl: s.ID(), Sort: SortStatus}, func(done int) { progress = append(progress, done) })
	if err != nil {
		t.Fatal(err)
	}
	if n != len(titles) || !slices.Equal(progress, []int{len(titles)}) {
		t.Errorf("ExportCSV wrote %d rows, progress %v", n, progress)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("reading the export back: %v", err)
	}
	head := strings.Join(recs[0][:8], ",")
	if head != "url,status,depth,title,content_type,length,fetched_at,content_fp" {
		t.Errorf("header starts %q", head)
	}
	if len(recs) != len(titles)+1 {
		t.Fatalf("%d records, want header + %d", len(recs), len(titles))
	}
	col := func(name string) int { return slices.Index(recs[0], name) }
	for i, rec := range recs[1:] {
		if len(rec) != len(CSVHeader) {
			t.Fatalf("row %d has %d cells", i, len(rec))
		}
		wantTitle := titles[i]
		if wantTitle != "" && strings.ContainsRune("=+-@\t\r", rune(wantTitle[0])) {
			wantTitle = "'" + wantTitle
		}
		want := []string{
			fmt.Sprintf("http://127.0.0.1/%d", i), fmt.Sprint(200 + i), fmt.Sprint(i), wantTitle, "text/html",
			fmt.Sprint(1000 + i), fmt.Sprintf("2024-05-01T04:00:%02dZ", i), fmt.Sprintf("%016x", uint64(i)<<60>>4),
		}
		if !slices.Equal(rec[:8], want) {
			t.Errorf("row %d starts %q\nwant %q", i, rec[:8], want)
		}
		if got := rec[col("description")]; got != "'-1 is a formula" {
			t.Errorf("row %d description %q not defused", i, got)
		}
	}
	if got := recs[1][col("content_length")]; got != "" {
		t.Errorf("unknown content length exported as %q, want empty", got)
	}
	if got := recs[2][col("content_length")]; got != "1234" {
		t.Errorf("content length exported as %q", got)
	}
}

func TestExportCSVFiltersAndProgress(t *testing.T) {
	d := mustOpen(t)
	s := mustCrawl(t, d, "http://127.0.0.1/")
	fill(t, s, 2500)
	ctx := context.Background()
	var progress []int
	var buf bytes.Buffer
	n, err := d.ExportCSV(ctx, &buf, PageQuery{Crawl: s.ID()}, func(done int) { progress = append(progress, done) })
	if err != nil {
		t.Fatal(err)
	}
	if n != 2500 || !slices.Equal(progress, []int{1000, 2000, 2500}) {
		t.Errorf("wrote %d, progress %v", n, progress)
	}
	buf.Reset()
	n, err = d.ExportCSV(ctx, &buf, PageQuery{Crawl: s.ID(), StatusClass: 4, Search: "shared"}, nil)
	want, _ := d.CountPages(ctx, PageQuery{Crawl: s.ID(), StatusClass: 4})
	recs, rerr := csv.NewReader(&buf).ReadAll()
	if err != nil || rerr != nil || n != want || len(recs) != want+1 || want != 500 {
		t.Errorf("filtered export: %d rows (%v, %v), %d records; want %d", n, err, rerr, len(recs), want)
	}
	for _, rec := range recs[1:] {
		if rec[1] != "404" {
			t.Fatalf("filtered export has status %s", rec[1])
		}
	}
}
