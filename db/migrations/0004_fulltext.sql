-- Schema version 4: a full-text index that finds Chinese and Japanese
-- words, and ranks a match in the title above one in the text.
--
-- The index reads pages through pages_fulltext, which passes the title and
-- the text through trawler_fulltext (registered by the db package): it sets
-- every CJK character apart, so each is a token and a CJK word is found as
-- the phrase of its characters (see db/fulltext.go). Rebuilding re-indexes
-- the pages stored by earlier versions.
DROP TABLE pages_fts;
CREATE VIEW pages_fulltext AS
SELECT id, crawl_id, trawler_fulltext(title) AS title, trawler_fulltext(text) AS text, url FROM pages;
CREATE VIRTUAL TABLE pages_fts USING fts5 (
    title, text, url,
    content = 'pages_fulltext', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);
-- bm25 weights per column: title, text, url.
INSERT INTO pages_fts (pages_fts, rank) VALUES ('rank', 'bm25(5.0, 1.0, 2.0)');
INSERT INTO pages_fts (pages_fts) VALUES ('rebuild');
