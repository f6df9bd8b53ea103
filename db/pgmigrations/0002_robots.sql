-- PostgreSQL schema version 2: cooperating robots (paper 003). Several
-- Trawler processes crawl one crawl; the database is their meeting point,
-- as the paper's control server is:
--
--   * a robot's lease on a URL ends at urls.lease_until unless its
--     heartbeat renews it, so the URLs of a robot that died go to the
--     others; a page is stored only while its lease holds (fencing);
--   * a host is worked by one robot at a time (host_leases), which hands
--     it on no earlier than next_allowed_at, so per-host limits, delays and
--     robots.txt hold for the crawl as a whole;
--   * robots register and beat (robots), and follow the crawl's control
--     (crawl_control, and robots.command for one robot alone); a change is
--     announced on the channel trawler_control (LISTEN/NOTIFY).

ALTER TABLE urls ADD COLUMN lease_until BIGINT; -- Unix ns; NULL for a lease held while its process lives

CREATE TABLE host_leases (
    crawl_id        BIGINT NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    host            TEXT COLLATE "C" NOT NULL,
    owner           TEXT   NOT NULL DEFAULT '',
    lease_until     BIGINT NOT NULL DEFAULT 0,
    next_allowed_at BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (crawl_id, host)
);
CREATE INDEX host_leases_owner ON host_leases (crawl_id, owner);

CREATE TABLE robots (
    crawl_id     BIGINT NOT NULL REFERENCES crawls (id) ON DELETE CASCADE,
    id           TEXT   NOT NULL,
    owner        TEXT   NOT NULL DEFAULT '', -- the name of its leases
    hostname     TEXT   NOT NULL DEFAULT '',
    pid          BIGINT NOT NULL DEFAULT 0,
    version      TEXT   NOT NULL DEFAULT '',
    started_at   BIGINT NOT NULL,
    heartbeat_at BIGINT NOT NULL,
    state        TEXT   NOT NULL DEFAULT 'running',
    pages        BIGINT NOT NULL DEFAULT 0,
    errors       BIGINT NOT NULL DEFAULT 0,
    rate         DOUBLE PRECISION NOT NULL DEFAULT 0,
    threads      BIGINT NOT NULL DEFAULT 0,
    command      TEXT   NOT NULL DEFAULT '' CHECK (command IN ('', 'pause', 'stop')),
    PRIMARY KEY (crawl_id, id)
);

CREATE TABLE crawl_control (
    crawl_id BIGINT PRIMARY KEY REFERENCES crawls (id) ON DELETE CASCADE,
    threads  BIGINT NOT NULL DEFAULT 0,  -- 0: the crawl's settings
    per_host BIGINT NOT NULL DEFAULT 0,  -- 0: the crawl's settings
    delay    BIGINT NOT NULL DEFAULT -1, -- ns; -1: the crawl's settings
    command  TEXT   NOT NULL DEFAULT '' CHECK (command IN ('', 'pause', 'stop')),
    version  BIGINT NOT NULL DEFAULT 0
);
