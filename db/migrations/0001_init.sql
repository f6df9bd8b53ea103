-- Schema version 1. Times are Unix nanoseconds (INTEGER, sortable) unless
-- said otherwise; fingerprints are the uint64 Rabin fingerprint bit-cast to
-- a signed INTEGER.

CREATE TABLE crawls (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    settings    TEXT    NOT NULL, -- JSON of crawl.Config; passwords are never in it
    state       TEXT    NOT NULL DEFAULT 'stopped'
                CHECK (state IN ('running', 'paused', 'stopped', 'done', 'failed')),
    created_at  INTEGER NOT NULL,
    started_at  INTEGER,
    finished_at INTEGER
);

-- The frontier and its history: one row per URL a crawl knows.
CREATE TABLE urls (
    id            INTEGER PRIMARY KEY,
    crawl_id      INTEGER NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    fp            INTEGER NOT NULL,
    url           TEXT    NOT NULL,
    depth         INTEGER NOT NULL,
    parent        TEXT    NOT NULL DEFAULT '',
    resource      INTEGER NOT NULL DEFAULT 0,
    state         INTEGER NOT NULL DEFAULT 0, -- crawl.State: 0 waiting, 1 processing, 2 done, 3 error
    owner         TEXT    NOT NULL DEFAULT '', -- the run holding the lease; '' when free
    leased_at     INTEGER,
    discovered_at INTEGER NOT NULL,
    UNIQUE (crawl_id, fp)
);
CREATE INDEX urls_claim ON urls (crawl_id, state, owner, depth);

-- Resource descriptions (paper 003 tables 1 and 2): one row per fetched URL.
CREATE TABLE pages (
    id               INTEGER PRIMARY KEY,
    crawl_id         INTEGER NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    fp               INTEGER NOT NULL,
    url              TEXT    NOT NULL,
    host             TEXT    NOT NULL DEFAULT '',
    ip               TEXT    NOT NULL DEFAULT '',
    depth            INTEGER NOT NULL,
    parent           TEXT    NOT NULL DEFAULT '',
    status           INTEGER NOT NULL,
    final_url        TEXT    NOT NULL DEFAULT '',
    content_type     TEXT    NOT NULL DEFAULT '',
    charset          TEXT    NOT NULL DEFAULT '',
    content_encoding TEXT    NOT NULL DEFAULT '',
    content_length   INTEGER NOT NULL DEFAULT -1,
    length           INTEGER NOT NULL DEFAULT 0,
    last_modified    INTEGER, -- Unix seconds (HTTP dates have no finer grain); NULL when absent
    expires          INTEGER, -- Unix seconds; NULL when absent
    etag             TEXT    NOT NULL DEFAULT '',
    title            TEXT    NOT NULL DEFAULT '',
    description      TEXT    NOT NULL DEFAULT '',
    keywords         TEXT    NOT NULL DEFAULT '',
    author           TEXT    NOT NULL DEFAULT '',
    robots           TEXT    NOT NULL DEFAULT '',
    text             TEXT    NOT NULL DEFAULT '',
    content_fp       INTEGER NOT NULL DEFAULT 0,
    duplicate_of     TEXT    NOT NULL DEFAULT '',
    fetched_at       INTEGER NOT NULL,
    duration         INTEGER NOT NULL DEFAULT 0, -- nanoseconds
    redirects        TEXT, -- JSON array of crawl.Hop; NULL when there were none
    resource         INTEGER NOT NULL DEFAULT 0,
    err              TEXT    NOT NULL DEFAULT '',
    UNIQUE (crawl_id, fp)
);
-- One index per sortable column of the results table; each ends with the
-- rowid implicitly, which makes (column, id) keyset paging an index walk.
CREATE INDEX pages_stored  ON pages (crawl_id);
CREATE INDEX pages_url     ON pages (crawl_id, url);
CREATE INDEX pages_status  ON pages (crawl_id, status);
CREATE INDEX pages_title   ON pages (crawl_id, title);
CREATE INDEX pages_depth   ON pages (crawl_id, depth);
CREATE INDEX pages_type    ON pages (crawl_id, content_type);
CREATE INDEX pages_length  ON pages (crawl_id, length);
CREATE INDEX pages_fetched ON pages (crawl_id, fetched_at);
CREATE INDEX pages_host    ON pages (crawl_id, host);
CREATE INDEX pages_content ON pages (crawl_id, content_fp) WHERE content_fp <> 0;

-- Full-text index over the pages table's own columns (external content).
-- The Go code keeps it in step, one statement per batch: FTS5 flushes its
-- pending terms at every statement savepoint, so per-row triggers would
-- write a segment per page.
CREATE VIRTUAL TABLE pages_fts USING fts5 (
    title, text, url,
    content = 'pages', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

-- Every reference found on a page, in page order, with its anchor text.
-- to_fp is the Rabin fingerprint of to_url, so inlinks are an integer lookup.
CREATE TABLE links (
    page_id  INTEGER NOT NULL REFERENCES pages (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    crawl_id INTEGER NOT NULL,
    to_url   TEXT    NOT NULL,
    to_fp    INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    text     TEXT    NOT NULL DEFAULT '',
    nofollow INTEGER NOT NULL DEFAULT 0, -- rel="nofollow": recorded, not followed
    PRIMARY KEY (page_id, seq)
) WITHOUT ROWID;
CREATE INDEX links_to ON links (crawl_id, to_fp);

-- The error log: one row per failed fetch.
CREATE TABLE errors (
    id       INTEGER PRIMARY KEY,
    crawl_id INTEGER NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    url      TEXT    NOT NULL,
    status   INTEGER NOT NULL,
    message  TEXT    NOT NULL,
    at       INTEGER NOT NULL
);
CREATE INDEX errors_crawl ON errors (crawl_id);
