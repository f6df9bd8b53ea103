-- Schema version 9: the near-duplicate filter as a column of its own.

-- 1 when the page is in a near-duplicate group with a match (a page that
-- matched an earlier one, or a page matched), else 0. The writer keeps it
-- (db/nearflag.go): the Results window's near-duplicate filter reads it,
-- or the pages that have it through their own indexes, instead of finding
-- the groups with a match and their pages for every screen.
ALTER TABLE pages ADD COLUMN near INTEGER NOT NULL DEFAULT 0;
UPDATE pages SET near = 1 WHERE id IN (
    SELECT r.id FROM pages q INDEXED BY pages_near_of
    CROSS JOIN pages r INDEXED BY pages_near ON r.crawl_id = q.crawl_id AND r.near_group = q.near_group
    WHERE q.near_of <> 0 AND r.near_group <> 0);
CREATE INDEX pages_near_ids ON pages (crawl_id, id) WHERE near <> 0;
-- The same pages in URL order, as pages_url holds every page: near-
-- duplicates gather under a few paths (tag pages, print versions), so a
-- walk of pages_url may read most of the crawl before the first.
CREATE INDEX pages_near_url ON pages (crawl_id, url, id, status, depth) WHERE near <> 0;
