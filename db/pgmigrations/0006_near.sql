-- Schema version 6: the near-duplicate filter as a column of its own (as
-- in SQLite's schema 9).

-- 1 when the page is in a near-duplicate group with a match (a page that
-- matched an earlier one, or a page matched), else 0; the writer keeps it
-- (db/nearflag.go).
ALTER TABLE pages ADD COLUMN near INTEGER NOT NULL DEFAULT 0;
UPDATE pages p SET near = 1 WHERE p.near_group <> 0 AND EXISTS (
    SELECT 1 FROM pages q WHERE q.crawl_id = p.crawl_id AND q.near_group = p.near_group AND q.near_of <> 0);
CREATE INDEX pages_near_ids ON pages (crawl_id, id) WHERE near <> 0;
CREATE INDEX pages_near_url ON pages (crawl_id, url) WHERE near <> 0;
