package db

import (
	"fmt"
	"strings"
)

// filterSet names some of a listing's filters: those that need more than
// an index entry to check.
type filterSet uint8

const (
	byHost filterSet = 1 << iota
	byType
	byVerdict
	byNear
	bySearch
	byIDs // a list of ids, not a filter: it drives relevance's check of the ranked pages
)

// access is how a query reaches the pages it filters (see plan): what
// drives it and the form each filter takes. The zero access lets the
// database choose.
type access struct {
	// index makes SQLite walk this index of pages (INDEXED BY); "" lets it
	// choose. PostgreSQL ignores it.
	index string
	// drive, in a gather, is the filter whose matches are found first: a
	// search's through the full-text index, a verdict's or the near-
	// duplicates' as a set of ids the pages are read by.
	drive filterSet
	// sets are the filters checked against a set of ids found once
	// (through their own index), so that a walk checks them without
	// reading the row; the others are checked row by row.
	sets filterSet
	// probe is the full-text query of a search checked against a set,
	// or row by row: then it asks about each row (see probeQuery). With
	// neither, the full-text index drives.
	probe string
	// bounds are further conditions on the sort column: the range of
	// values the listing's rows have, from the kept counts.
	bounds    string
	boundArgs []any
}

// filter builds the FROM and WHERE clauses of q, without paging, reaching
// the pages as a says.
func (q *PageQuery) filter(a access) (from, where string, args []any, err error) {
	conds := []string{"p.crawl_id = ?"}
	args = []any{q.Crawl}
	from = "pages p"
	if q.pg {
		a = access{}
	}
	switch {
	case a.index != "":
		from += " INDEXED BY " + a.index
	case a.drive&(byVerdict|byNear|byIDs) != 0:
		from += " NOT INDEXED" // the set of ids drives: the pages are read by id
	}
	search := ""
	switch {
	case q.Search == "" || q.pg:
	case a.sets&bySearch != 0:
		search = "set"
	case a.drive != bySearch && a.probe != "":
		search = "row"
	default:
		search = "drive"
	}
	set := func(f filterSet) string {
		switch {
		case a.drive == f:
			return "p.id IN "
		case a.sets&f != 0:
			return "+p.id IN " // + keeps SQLite from reading the pages by the set
		}
		return ""
	}
	if q.Search != "" && (q.pg || search == "drive") {
		var match string
		if from, match, err = q.searchFromIndexed(a.index); err != nil {
			return "", "", nil, err
		}
		args = append([]any{match}, args...)
		if !q.pg {
			conds = append([]string{"pages_fts MATCH ?"}, conds...)
		} else {
			conds = append(conds, "p.fts @@ tsq")
		}
	}
	if a.bounds != "" {
		// Before the filters: SQLite bounds an index range by the first
		// bound it meets, and these are the tightest.
		conds = append(conds, a.bounds)
		args = append(args, a.boundArgs...)
	}
	cond, cargs, err := statusClassCond(q.StatusClass, "p.status")
	if err != nil {
		return "", "", nil, err
	}
	if cond != "" {
		conds, args = append(conds, cond), append(args, cargs...)
	}
	if q.Depth != nil {
		conds = append(conds, "p.depth = ?")
		args = append(args, *q.Depth)
	}
	if q.ContentType != "" {
		if in := set(byType); in != "" {
			conds = append(conds, in+"(SELECT id FROM pages INDEXED BY pages_type WHERE crawl_id = ? AND content_type = ?)")
			args = append(args, q.Crawl, q.ContentType)
		} else {
			conds = append(conds, "p.content_type = ?")
			args = append(args, q.ContentType)
		}
	}
	if q.Host != "" {
		if in := set(byHost); in != "" {
			conds = append(conds, in+"(SELECT id FROM pages INDEXED BY pages_host WHERE crawl_id = ? AND host = ?)")
			args = append(args, q.Crawl, q.Host)
		} else {
			conds = append(conds, "p.host = ?")
			args = append(args, q.Host)
		}
	}
	switch q.Verdict {
	case "":
	case "black", "white", "grey":
		if in := set(byVerdict); in != "" || q.pg {
			if in == "" {
				in = "p.id IN "
			}
			conds = append(conds, in+"(SELECT page_id FROM verdicts WHERE crawl_id = ? AND verdict = ?)")
			args = append(args, q.Crawl, q.Verdict)
		} else {
			conds = append(conds, "(SELECT v.verdict FROM verdicts v WHERE v.page_id = p.id) = ?")
			args = append(args, q.Verdict)
		}
	default:
		return "", "", nil, fmt.Errorf("verdict %q: want black, white or grey", q.Verdict)
	}
	if q.NearDuplicates {
		if in := set(byNear); in != "" {
			conds = append(conds, in+nearPages)
			args = append(args, q.Crawl)
		} else {
			conds = append(conds, "p.near_group <> 0 AND p.near_group IN "+nearGroups)
			args = append(args, q.Crawl)
		}
	}
	// The search last, so that SQLite asks only about the rows the other
	// filters keep.
	switch search {
	case "set":
		conds = append(conds, "+p.id IN (SELECT rowid FROM pages_fts WHERE pages_fts MATCH ?)")
		args = append(args, a.probe)
	case "row":
		conds = append(conds, "EXISTS (SELECT 1 FROM pages_fts WHERE pages_fts MATCH ? AND pages_fts.rowid = p.id)")
		args = append(args, a.probe)
	}
	return from, strings.Join(conds, " AND "), args, nil
}

// nearGroups is the near-duplicate groups of a crawl (its argument) that
// have a match, found through pages_near_of.
const nearGroups = `(SELECT q.near_group FROM pages q WHERE q.crawl_id = ? AND q.near_of <> 0)`

// nearPages is the ids of the pages in those groups (an id may come more
// than once), each group's read from pages_near.
const nearPages = `(SELECT r.id FROM pages q INDEXED BY pages_near_of
    CROSS JOIN pages r INDEXED BY pages_near ON r.crawl_id = q.crawl_id AND r.near_group = q.near_group
    WHERE q.crawl_id = ? AND q.near_of <> 0 AND r.near_group <> 0)`

// filtered reports whether q has filters other than the crawl and search.
func (q *PageQuery) filtered() bool {
	return q.StatusClass != 0 || q.ContentType != "" || q.Host != "" || q.Depth != nil || q.NearDuplicates ||
		q.Verdict != ""
}

// statusClassCond is the condition on column col that keeps the pages of
// status class c (1 to 5 for 1xx to 5xx, -1 for no answer, 0 for any),
// with its arguments; "" when c keeps every page. It is not BETWEEN:
// SQLite bounds an index range by the first bound it meets in the WHERE
// clause, and a keyset bound must come first.
func statusClassCond(c int, col string) (string, []any, error) {
	switch {
	case c == -1:
		return col + " = 0", nil, nil
	case c >= 1 && c <= 5:
		return col + " >= ? AND " + col + " <= ?", []any{c * 100, c*100 + 99}, nil
	case c != 0:
		return "", nil, fmt.Errorf("status class %d: want -1, 0 or 1 to 5", c)
	}
	return "", nil, nil
}
