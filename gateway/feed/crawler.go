package feed

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/db"
)

// NewCrawler makes the gateway's own small crawler: an engine on crawl id
// with the crawl's settings at depth 0 that serves only the priority lane
// (crawl.PriorityOnly), so the URLs the gateway met are fetched and judged
// even when the crawl itself is not running. Run it until the gateway
// stops. Passwords are not stored with a crawl, so it signs in nowhere.
func NewCrawler(ctx context.Context, d *db.DB, id int64, log *slog.Logger) (*crawl.Engine, error) {
	cfg, err := d.Settings(ctx, id)
	if err != nil {
		return nil, err
	}
	cfg.Depth = 0
	cfg.MaxPages = 0
	e, err := crawl.New(cfg, d.Crawl(id), crawl.PriorityOnly(), crawl.WithLogger(log))
	if err != nil {
		return nil, fmt.Errorf("the gateway's crawler for crawl %d: %w", id, err)
	}
	return e, nil
}
