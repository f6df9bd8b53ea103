-- Schema version 3: skipped URLs, redirects as rows of their own, and
-- pages cut at the size cap.

-- A skipped URL (state 4) was found and deliberately not fetched; its
-- reason is a crawl.SkipReason (robots, scope, depth, ...).
ALTER TABLE urls ADD COLUMN skip_reason TEXT NOT NULL DEFAULT '';
CREATE INDEX urls_skipped ON urls (crawl_id, skip_reason) WHERE state = 4;

-- The Location of a 3xx answer, resolved; '' for other answers. Pages
-- stored before this version kept their chain in the redirects column.
ALTER TABLE pages ADD COLUMN redirect_to TEXT NOT NULL DEFAULT '';
CREATE INDEX pages_redirect_to ON pages (crawl_id, redirect_to) WHERE redirect_to <> '';

-- 1 when the body was longer than the size cap and only its first bytes
-- were read.
ALTER TABLE pages ADD COLUMN truncated INTEGER NOT NULL DEFAULT 0;
