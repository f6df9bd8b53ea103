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

-- The indexes of the results table, reshaped rather than added to (every
-- index costs the writer per page). Each sort column's index carries the
-- status and depth after the id, so a listing filtered by status class or
-- depth walks the sort order and skips the rows the filters refuse without
-- reading them. The host index carries the URL: one host's pages in URL
-- order are a walk of it.
DROP INDEX pages_stored;
DROP INDEX pages_url;
DROP INDEX pages_status;
DROP INDEX pages_title;
DROP INDEX pages_depth;
DROP INDEX pages_type;
DROP INDEX pages_length;
DROP INDEX pages_fetched;
DROP INDEX pages_host;
CREATE INDEX pages_stored  ON pages (crawl_id, id, status, depth);
CREATE INDEX pages_url     ON pages (crawl_id, url, id, status, depth);
CREATE INDEX pages_status  ON pages (crawl_id, status, id, depth);
CREATE INDEX pages_title   ON pages (crawl_id, title, id, status, depth);
CREATE INDEX pages_depth   ON pages (crawl_id, depth, id, status);
CREATE INDEX pages_type    ON pages (crawl_id, content_type, id, status, depth);
CREATE INDEX pages_length  ON pages (crawl_id, length, id, status, depth);
CREATE INDEX pages_fetched ON pages (crawl_id, fetched_at, id, status, depth);
CREATE INDEX pages_host    ON pages (crawl_id, host, url, id, status, depth);

-- The pages that matched an earlier one, by group: the near-duplicate
-- filter's groups are read from it (a few pages in a hundred) rather than
-- from every page's row; a page that matched nothing has no entry.
CREATE INDEX pages_near_of ON pages (crawl_id, near_group, near_of) WHERE near_of <> 0;

-- The full-text index's vocabulary, for asking about single pages with
-- the words a search's prefix stands for rather than the prefix (see
-- db/expand.go).
CREATE VIRTUAL TABLE pages_fts_words USING fts5vocab (pages_fts, 'instance');
