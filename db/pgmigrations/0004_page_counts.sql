-- PostgreSQL schema version 4: counts kept instead of recounted, as in the
-- SQLite schema's version 7: how many pages, and body bytes, each crawl
-- has for each combination of host, media type, status and depth, brought
-- up to date with every batch of pages in its transaction (db/counts.go).
CREATE TABLE page_counts (
    crawl_id     BIGINT NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    host         TEXT COLLATE "C" NOT NULL,
    content_type TEXT COLLATE "C" NOT NULL,
    status       BIGINT NOT NULL,
    depth        BIGINT NOT NULL,
    pages        BIGINT NOT NULL DEFAULT 0,
    bytes        BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (crawl_id, host, content_type, status, depth)
);
INSERT INTO page_counts (crawl_id, host, content_type, status, depth, pages, bytes)
SELECT crawl_id, host, content_type, status, depth, count(*), sum(length) FROM pages
GROUP BY crawl_id, host, content_type, status, depth;
