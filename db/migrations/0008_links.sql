-- Schema version 8: a page's links in its own row, and an inverted index
-- of their targets in place of a row and a b-tree entry per link.

-- Every reference found on a page, in page order: a JSON array of
-- [to_url, kind, text, nofollow] arrays (nofollow 0 or 1); NULL when the
-- page has none. The Go code writes it (db/linkjson.go).
ALTER TABLE pages ADD COLUMN links TEXT;
UPDATE pages SET links = (
    SELECT json_group_array(json_array(to_url, kind, text, nofollow) ORDER BY seq) FROM links l WHERE l.page_id = pages.id)
WHERE id IN (SELECT page_id FROM links);

-- Which pages link where: a page is a document whose words name the
-- targets of its links, one per link, 'c' || crawl id || 'x' || the URL
-- fingerprint in 16 hex digits (db/linktargets.go). Inserting into an
-- inverted index costs a link a few thousand instructions; the b-tree
-- index links_to cost it tens of thousands.
CREATE VIRTUAL TABLE link_targets USING fts5 (
    targets, content = '', contentless_delete = 1, tokenize = 'ascii'
);
-- Every use of a word: counts links to a URL, and the pages they are on.
CREATE VIRTUAL TABLE link_target_uses USING fts5vocab (link_targets, 'instance');
INSERT INTO link_targets (rowid, targets)
SELECT page_id, group_concat('c' || crawl_id || 'x' || printf('%016x', to_fp), ' ' ORDER BY seq)
FROM links GROUP BY page_id;

DROP TABLE links;
