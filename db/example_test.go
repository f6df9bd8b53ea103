package db_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
	"github.com/trawler/trawler/db"
)

// A crawl's life in the database: the engine leases URLs and applies
// batches; the window then pages through the results with a cursor.
func Example() {
	dir, err := os.MkdirTemp("", "trawler-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	d, err := db.Open(filepath.Join(dir, "trawler.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()

	cfg := crawl.DefaultConfig()
	cfg.Seeds = []string{"http://127.0.0.1:8080/"}
	id, err := d.CreateCrawl(ctx, "", cfg)
	if err != nil {
		log.Fatal(err)
	}
	store := d.Crawl(id)
	var batch crawl.Batch
	for _, u := range []string{"http://127.0.0.1:8080/", "http://127.0.0.1:8080/a", "http://127.0.0.1:8080/b"} {
		batch.New = append(batch.New, crawl.Item{URL: u, FP: rabin.FingerprintString(u)})
	}
	if err := store.Apply(ctx, "run-1", &batch); err != nil {
		log.Fatal(err)
	}
	items, err := store.Claim(ctx, "run-1", 10, crawl.BFS)
	if err != nil {
		log.Fatal(err)
	}
	var done crawl.Batch
	for _, it := range items {
		done.Pages = append(done.Pages, &crawl.Page{URL: it.URL, FP: it.FP, Status: 200, Title: "Page " + it.URL[len(it.URL)-1:]})
	}
	if err := store.Apply(ctx, "run-1", &done); err != nil {
		log.Fatal(err)
	}

	q := db.PageQuery{Crawl: id, Sort: db.SortURL, Limit: 2}
	for {
		rows, err := d.Pages(ctx, q)
		if err != nil {
			log.Fatal(err)
		}
		for _, r := range rows {
			fmt.Println(r.Status, r.URL, r.Title)
		}
		if len(rows) < q.Limit {
			break
		}
		q.After = rows[len(rows)-1].Cursor(q.Sort)
	}
	// Output:
	// 200 http://127.0.0.1:8080/ Page /
	// 200 http://127.0.0.1:8080/a Page a
	// 200 http://127.0.0.1:8080/b Page b
}
