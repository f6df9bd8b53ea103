-- Schema version 7: the Results window at a million pages.

-- Counts kept instead of recounted: how many pages, and body bytes, each
-- crawl has for each combination of host, media type, status and depth.
-- The store brings it up to date with every batch of pages, in the
-- batch's transaction (db/counts.go). The crawls list, the filters' drop-
-- downs and the count of a listing filtered by those columns read it
-- instead of counting a million pages; the listings read it to choose how
-- to find their rows (db/plan.go). A combination no page has any more
-- keeps its row, with zero pages.
CREATE TABLE page_counts (
    crawl_id     INTEGER NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    host         TEXT    NOT NULL,
    content_type TEXT    NOT NULL,
    status       INTEGER NOT NULL,
    depth        INTEGER NOT NULL,
    pages        INTEGER NOT NULL DEFAULT 0,
    bytes        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (crawl_id, host, content_type, status, depth)
) WITHOUT ROWID;
INSERT INTO page_counts (crawl_id, host, content_type, status, depth, pages, bytes)
SELECT crawl_id, host, content_type, status, depth, count(*), sum(length) FROM pages
GROUP BY crawl_id, host, content_type, status, depth;

