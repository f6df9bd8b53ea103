-- PostgreSQL schema version 3: indexes in the order robots claim in, so a
-- claim reads the first waiting URLs of the crawl, or of one host, and
-- stops, instead of sorting every waiting URL; and one on the leased URLs
-- by robot, so a beat renews (and a leaving robot releases) its own
-- leases without reading every URL of the crawl.
CREATE INDEX urls_waiting      ON urls (crawl_id, priority DESC, depth, id) WHERE state = 0;
CREATE INDEX urls_host_waiting ON urls (crawl_id, host, priority DESC, depth, id) WHERE state = 0;
CREATE INDEX urls_leased       ON urls (crawl_id, owner) WHERE state = 0 AND owner <> '';
