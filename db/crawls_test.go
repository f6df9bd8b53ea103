package db

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/neardup"
)

func TestCrawlRegistry(t *testing.T) {
	d := mustOpen(t)
	ctx := context.Background()
	if _, err := d.LatestUnfinished(ctx); !errors.Is(err, ErrNotFound) {
		t.Errorf("LatestUnfinished of an empty database: %v", err)
	}
	a := mustCrawl(t, d, "http://127.0.0.1:8080/start")
	b := mustCrawl(t, d, "http://127.0.0.2/")
	fill(t, a, 10)
	mustApply(t, a, "run", &crawl.Batch{New: []crawl.Item{item("waiting", 1)}})

	if err := d.SetState(ctx, a.ID(), StateRunning); err != nil {
		t.Fatal(err)
	}
	if err := d.SetState(ctx, b.ID(), StateDone); err != nil {
		t.Fatal(err)
	}
	if err := d.Rename(ctx, b.ID(), "renamed"); err != nil {
		t.Fatal(err)
	}
	list, err := d.Crawls(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != b.ID() || list[1].ID != a.ID() {
		t.Fatalf("Crawls = %+v; want b then a", list)
	}
	ia, ib := list[1], list[0]
	if ia.Name != "127.0.0.1:8080" || ia.State != StateRunning || ia.StartedAt.IsZero() || !ia.FinishedAt.IsZero() {
		t.Errorf("crawl a: %+v", ia)
	}
	if ia.Pages != 10 || ia.Bytes != 2400 || ia.URLs != (crawl.Counts{Waiting: 1, Done: 4, Error: 6}) {
		t.Errorf("crawl a counts: pages %d bytes %d urls %+v", ia.Pages, ia.Bytes, ia.URLs)
	}
	if ib.Name != "renamed" || ib.State != StateDone || ib.FinishedAt.IsZero() || ib.Seeds[0] != "http://127.0.0.2/" {
		t.Errorf("crawl b: %+v", ib)
	}
	if got, err := d.LatestUnfinished(ctx); err != nil || got != a.ID() {
		t.Errorf("LatestUnfinished = %d, %v; want %d", got, err, a.ID())
	}

	for _, err := range []error{
		d.SetState(ctx, 99, StatePaused),
		d.Rename(ctx, 99, "x"),
		d.DeleteCrawl(ctx, 99),
		func() error { _, err := d.CrawlInfo(ctx, 99); return err }(),
		func() error { _, err := d.Settings(ctx, 99); return err }(),
	} {
		if !errors.Is(err, ErrNotFound) || IsStorageError(err) {
			t.Errorf("on a missing crawl: %v; want ErrNotFound", err)
		}
	}
	if err := d.SetState(ctx, a.ID(), "sleeping"); err == nil {
		t.Error("unknown state accepted")
	}
}

func TestDeleteCrawl(t *testing.T) {
	d := mustOpen(t)
	ctx := context.Background()
	gone, kept := mustCrawl(t, d, "http://127.0.0.1/"), mustCrawl(t, d, "http://127.0.0.1/")
	for _, s := range []*CrawlStore{gone, kept} {
		fill(t, s, 25)
		mustApply(t, s, "run", &crawl.Batch{New: []crawl.Item{item("w1", 1), item("w2", 2)}})
	}
	count := func(crawlID int64) (n int) {
		t.Helper()
		err := d.r.QueryRow(`SELECT (SELECT count(*) FROM crawls WHERE id = ?1) + (SELECT count(*) FROM urls WHERE crawl_id = ?1)
 + (SELECT count(*) FROM pages WHERE crawl_id = ?1)
 + (SELECT count(*) FROM errors WHERE crawl_id = ?1)`, crawlID).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := count(kept.ID())
	if count(gone.ID()) != before {
		t.Fatal("the two crawls differ before the delete")
	}
	found := func(crawlID int64) int {
		rows, err := d.Search(ctx, crawlID, "shared", 0)
		if err != nil {
			t.Fatal(err)
		}
		return len(rows)
	}
	if err := d.DeleteCrawl(ctx, gone.ID()); err != nil {
		t.Fatal(err)
	}
	if n := count(gone.ID()); n != 0 {
		t.Errorf("%d rows of the deleted crawl remain", n)
	}
	if n := count(kept.ID()); n != before {
		t.Errorf("the other crawl has %d rows, had %d", n, before)
	}
	if found(gone.ID()) != 0 || found(kept.ID()) != 25 {
		t.Errorf("search finds %d pages of the deleted crawl and %d of the kept", found(gone.ID()), found(kept.ID()))
	}
	checkIndex(t, d)
}

// TestSettingsSketchVersion checks that a crawl's sketch version survives
// storage: a crawl whose settings were stored before the field existed
// reads as version 1 (and stays so when its settings are written again),
// a new one as the latest.
func TestSettingsSketchVersion(t *testing.T) {
	d := mustOpen(t)
	ctx := context.Background()
	create := func(version int) int64 {
		cfg := crawl.DefaultConfig()
		cfg.Seeds, cfg.SketchVersion = []string{"http://127.0.0.1/"}, version
		id, err := d.CreateCrawl(ctx, "", cfg)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	old := create(neardup.LatestVersion)
	// The settings as the code before the field stored them: all the others.
	var fields map[string]any
	if err := json.Unmarshal([]byte(rawSettings(t, d, old)), &fields); err != nil {
		t.Fatal(err)
	}
	delete(fields, "sketch_version")
	b, _ := json.Marshal(fields)
	if err := d.update(ctx, old, "store old settings", `UPDATE crawls SET settings = ? WHERE id = ?`, string(b), old); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		id   int64
		want int
	}{
		{"stored before the field", old, neardup.Version1},
		{"new", create(neardup.LatestVersion), neardup.LatestVersion},
		{"stored as version 1", create(neardup.Version1), neardup.Version1},
	}
	for _, tt := range tests {
		if c, err := d.Settings(ctx, tt.id); err != nil || c.SketchVersion != tt.want {
			t.Errorf("%s: sketch version %d, %v; want %d", tt.name, c.SketchVersion, err, tt.want)
		}
	}
	if err := d.SetWordLists(ctx, old, []string{"words.txt"}); err != nil {
		t.Fatal(err)
	}
	if c, err := d.Settings(ctx, old); err != nil || c.SketchVersion != neardup.Version1 || !strings.Contains(rawSettings(t, d, old), `"sketch_version":1`) {
		t.Errorf("old crawl after SetWordLists: sketch version %d, %v; want 1, stored", c.SketchVersion, err)
	}
}

// rawSettings returns the settings of crawl id as stored.
func rawSettings(t *testing.T, d *DB, id int64) string {
	t.Helper()
	var s string
	if err := d.r.QueryRowContext(context.Background(), `SELECT settings FROM crawls WHERE id = ?`, id).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}
