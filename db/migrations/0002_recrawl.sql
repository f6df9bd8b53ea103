-- Schema version 2: re-crawls (cycles, the history of every page's visits,
-- its older texts, the revisit schedule) and near-duplicate pages.

-- A crawl's cycles: 0 is the first crawl, each re-crawl adds one.
ALTER TABLE crawls ADD COLUMN cycle INTEGER NOT NULL DEFAULT 0; -- the current cycle

CREATE TABLE cycles (
    crawl_id    INTEGER NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    cycle       INTEGER NOT NULL,
    due_only    INTEGER NOT NULL DEFAULT 0, -- only URLs due by the revisit schedule were queued
    queued      INTEGER NOT NULL DEFAULT 0, -- known URLs set waiting again when it began
    started_at  INTEGER NOT NULL,
    finished_at INTEGER, -- NULL until every URL of the cycle was visited
    PRIMARY KEY (crawl_id, cycle)
) WITHOUT ROWID;

ALTER TABLE urls ADD COLUMN revisit  INTEGER NOT NULL DEFAULT 0; -- 1 while waiting for a re-crawl's visit
ALTER TABLE urls ADD COLUMN next_due INTEGER; -- when the revisit schedule wants it next; NULL = at the next re-crawl

ALTER TABLE pages ADD COLUMN cycle  INTEGER NOT NULL DEFAULT 0;  -- cycle of the latest visit
ALTER TABLE pages ADD COLUMN change TEXT    NOT NULL DEFAULT ''; -- crawl.Change of the latest visit
-- Near-duplicates: the MinHash sketch of the text (neardup.Sketch's binary
-- form), the group (URL fingerprint of its first page), the best earlier
-- match (URL fingerprint, 0 for none) and its estimated similarity.
ALTER TABLE pages ADD COLUMN sketch          BLOB;
ALTER TABLE pages ADD COLUMN near_group      INTEGER NOT NULL DEFAULT 0;
ALTER TABLE pages ADD COLUMN near_of         INTEGER NOT NULL DEFAULT 0;
ALTER TABLE pages ADD COLUMN near_similarity REAL    NOT NULL DEFAULT 0;
CREATE INDEX pages_near ON pages (crawl_id, near_group) WHERE near_group <> 0;

-- One row per visit of a page: what it answered and how it compared with
-- the visit before. A 304 has length 0 (no body) and the stored content_fp.
CREATE TABLE page_visits (
    crawl_id      INTEGER NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    fp            INTEGER NOT NULL, -- URL fingerprint
    cycle         INTEGER NOT NULL,
    at            INTEGER NOT NULL,
    status        INTEGER NOT NULL,
    content_fp    INTEGER NOT NULL DEFAULT 0,
    length        INTEGER NOT NULL DEFAULT 0, -- body bytes read
    change        TEXT    NOT NULL,           -- crawl.Change
    changed       INTEGER NOT NULL DEFAULT 0, -- counts as a change for the revisit schedule
    words_added   INTEGER NOT NULL DEFAULT 0, -- size of a change, in words
    words_removed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (crawl_id, fp, cycle)
) WITHOUT ROWID;
CREATE INDEX page_visits_cycle ON page_visits (crawl_id, cycle, change);

-- Older texts of a page, newest kept: the current text stays in pages.
CREATE TABLE page_versions (
    id         INTEGER PRIMARY KEY,
    crawl_id   INTEGER NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    fp         INTEGER NOT NULL, -- URL fingerprint
    cycle      INTEGER NOT NULL, -- cycle of the visit that fetched this text
    fetched_at INTEGER NOT NULL,
    content_fp INTEGER NOT NULL,
    title      TEXT    NOT NULL DEFAULT '',
    text       TEXT    NOT NULL,
    UNIQUE (crawl_id, fp, cycle)
);

-- Crawls stored by schema 1 become cycle 0, each page with its one visit.
INSERT INTO cycles (crawl_id, cycle, started_at, finished_at)
SELECT id, 0, coalesce(started_at, created_at), CASE WHEN state = 'done' THEN finished_at END FROM crawls;
UPDATE pages SET change = CASE WHEN err <> '' OR status >= 400 THEN 'error' ELSE 'new' END;
INSERT INTO page_visits (crawl_id, fp, cycle, at, status, content_fp, length, change)
SELECT crawl_id, fp, 0, fetched_at, status, content_fp, length, change FROM pages;
