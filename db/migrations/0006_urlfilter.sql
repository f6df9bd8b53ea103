-- Schema version 6: paper 002's URL filter. Verdicts of the sensitive-word
-- filter per page, the black and white lists edited by hand, the reports
-- of "this is a mistake" from the gateway's block page, and a priority
-- lane in the frontier for URLs the gateway met and nobody has judged yet.

-- URLs pushed to the front of the crawl: Claim serves these first.
ALTER TABLE urls ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;
CREATE INDEX urls_priority ON urls (crawl_id, priority) WHERE priority > 0;

-- One verdict per stored page. A page stored or visited again is marked
-- pending (and keeps its old verdict until the scorer has read it again):
-- the stored pages are paper 002's file buffer between the crawler and the
-- slower analysis, and this table is the queue through it. pending counts
-- up at each mark, so a verdict read before the page changed again is not
-- taken for the new text's.
CREATE TABLE verdicts (
    page_id   INTEGER PRIMARY KEY REFERENCES pages (id) ON DELETE CASCADE,
    crawl_id  INTEGER NOT NULL,
    pending   INTEGER NOT NULL DEFAULT 1,
    verdict   TEXT    NOT NULL DEFAULT '' CHECK (verdict IN ('', 'black', 'white', 'grey')),
    score     REAL    NOT NULL DEFAULT 0,
    category  TEXT    NOT NULL DEFAULT '',
    terms     TEXT    NOT NULL DEFAULT '', -- JSON array of wordscan.Hit; '' when nothing matched
    lists     TEXT    NOT NULL DEFAULT '', -- wordscan.Scanner.Hash of the lists that scored it
    scored_at INTEGER                      -- NULL until first scored
);
CREATE INDEX verdicts_pending ON verdicts (crawl_id) WHERE pending > 0;
CREATE INDEX verdicts_crawl   ON verdicts (crawl_id, verdict);
CREATE INDEX verdicts_scored  ON verdicts (crawl_id, scored_at);

-- The black and white lists as people edit them: exact URLs, hosts (with
-- their subdomains) and path prefixes, in urlfilter's canonical form. The
-- verdicts of a crawl are lists too; they are read from the verdicts
-- table, not copied here.
CREATE TABLE filter_entries (
    id       INTEGER PRIMARY KEY,
    list     TEXT    NOT NULL CHECK (list IN ('black', 'white')),
    kind     TEXT    NOT NULL CHECK (kind IN ('url', 'host', 'prefix')),
    value    TEXT    NOT NULL,
    category TEXT    NOT NULL DEFAULT '',
    source   TEXT    NOT NULL DEFAULT 'manual', -- manual or import
    note     TEXT    NOT NULL DEFAULT '',
    added_at INTEGER NOT NULL,
    UNIQUE (kind, value)
);

-- "This is a mistake": what a person behind the gateway reported.
CREATE TABLE filter_reports (
    id        INTEGER PRIMARY KEY,
    url       TEXT    NOT NULL,
    client    TEXT    NOT NULL DEFAULT '',
    list      TEXT    NOT NULL DEFAULT '',
    kind      TEXT    NOT NULL DEFAULT '',
    entry     TEXT    NOT NULL DEFAULT '',
    category  TEXT    NOT NULL DEFAULT '',
    comment   TEXT    NOT NULL DEFAULT '',
    at        INTEGER NOT NULL,
    resolved  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX filter_reports_open ON filter_reports (resolved, at);

-- A counter bumped by every change of filter_entries, so a running gateway
-- notices an edit made by another process and reloads.
CREATE TABLE filter_meta (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO filter_meta (key, value) VALUES ('version', 0);
CREATE TRIGGER filter_entries_ins AFTER INSERT ON filter_entries BEGIN
    UPDATE filter_meta SET value = value + 1 WHERE key = 'version'; END;
CREATE TRIGGER filter_entries_del AFTER DELETE ON filter_entries BEGIN
    UPDATE filter_meta SET value = value + 1 WHERE key = 'version'; END;
CREATE TRIGGER filter_entries_upd AFTER UPDATE ON filter_entries BEGIN
    UPDATE filter_meta SET value = value + 1 WHERE key = 'version'; END;
