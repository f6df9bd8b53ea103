-- Schema version 5: the time a cycle has been crawling, summed over its
-- runs, so a resumed crawl's Elapsed goes on from where it stopped.
ALTER TABLE cycles ADD COLUMN elapsed INTEGER NOT NULL DEFAULT 0; -- nanoseconds
