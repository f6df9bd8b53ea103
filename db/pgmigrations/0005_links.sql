-- Schema version 5: a page's links in its own row (as in SQLite's schema
-- 8), found from their targets' URLs through a GIN index.

-- The URLs a page's links lead to, in page order; IMMUTABLE, so that an
-- index can be built on it.
CREATE FUNCTION trawler_link_urls(links TEXT) RETURNS TEXT[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN links IS NULL THEN '{}'::TEXT[]
            ELSE ARRAY(SELECT e ->> 0 FROM jsonb_array_elements(links::JSONB) WITH ORDINALITY AS t (e, n) ORDER BY n) END;

-- JSON [[to_url, kind, text, nofollow], ...] in page order; NULL when none.
ALTER TABLE pages ADD COLUMN links TEXT;
UPDATE pages p SET links = l.links
FROM (SELECT page_id, json_agg(json_build_array(to_url, kind, text, nofollow) ORDER BY seq)::TEXT AS links
      FROM links GROUP BY page_id) l
WHERE p.id = l.page_id;
CREATE INDEX pages_link_urls ON pages USING gin (trawler_link_urls(links));

DROP TABLE links;
