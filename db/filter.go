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
	// lazy, in a gather, leaves the search out of the conditions: the
	// full-text index is asked about the rows once they are sorted, in
	// order, until there are enough (see walkPart).
	lazy bool
	// bounds are further conditions on the sort column: the range of
	// values the listing's rows have, from the kept counts.
	bounds    string
	boundArgs []any
}

// filter builds the FROM and WHERE clauses of q, without paging, reaching
// the pages as a says.
func (q *PageQuery) filter(a access) (from, where string, args []any, err error) {
	from, fromArgs, cs, err := q.conds(a)
	if err != nil {
		return "", "", nil, err
	}
	where, args = cs.where(func(cond) bool { return true })
	return from, where, append(fromArgs, args...), nil
}

// cond is one condition of a WHERE clause with its arguments. inIndex
// marks those an entry of the walked index answers: the crawl, the bounds,
// the status and depth, the host or type of their own index.
type cond struct {
	sql     string
	args    []any
	inIndex bool
}

// condList is a WHERE clause in parts, in the order SQLite should meet them.
type condList []cond

// where joins the conditions keep accepts with AND, with their arguments;
// "true" when there are none.
func (cs condList) where(keep func(cond) bool) (string, []any) {
	var parts []string
	var args []any
	for _, c := range cs {
		if keep(c) {
			parts, args = append(parts, c.sql), append(args, c.args...)
		}
	}
	if len(parts) == 0 {
		return "true", nil
	}
	return strings.Join(parts, " AND "), args
}

// conds builds the FROM clause of q, with its arguments, and q's
// conditions, without paging, reaching the pages as a says.
func (q *PageQuery) conds(a access) (from string, fromArgs []any, cs condList, err error) {
	cs = condList{{"p.crawl_id = ?", []any{q.Crawl}, true}}
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
	case q.Search == "" || q.pg || a.lazy:
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
			return "", nil, nil, err
		}
		if !q.pg {
			cs = append(condList{{"pages_fts MATCH ?", []any{match}, true}}, cs...)
		} else {
			fromArgs = []any{match}
			cs = append(cs, cond{"p.fts @@ tsq", nil, true})
		}
	}
	if a.bounds != "" {
		// Before the filters: SQLite bounds an index range by the first
		// bound it meets, and these are the tightest.
		cs = append(cs, cond{a.bounds, a.boundArgs, true})
	}
	status, sargs, err := statusClassCond(q.StatusClass, "p.status")
	if err != nil {
		return "", nil, nil, err
	}
	if status != "" {
		cs = append(cs, cond{status, sargs, true})
	}
	if q.Depth != nil {
		cs = append(cs, cond{"p.depth = ?", []any{*q.Depth}, true})
	}
	if q.ContentType != "" {
		if in := set(byType); in != "" {
			cs = append(cs, cond{in + "(SELECT id FROM pages INDEXED BY pages_type WHERE crawl_id = ? AND content_type = ?)",
				[]any{q.Crawl, q.ContentType}, false})
		} else {
			cs = append(cs, cond{"p.content_type = ?", []any{q.ContentType}, a.index == "pages_type"})
		}
	}
	if q.Host != "" {
		if in := set(byHost); in != "" {
			cs = append(cs, cond{in + "(SELECT id FROM pages INDEXED BY pages_host WHERE crawl_id = ? AND host = ?)",
				[]any{q.Crawl, q.Host}, false})
		} else {
			cs = append(cs, cond{"p.host = ?", []any{q.Host}, a.index == "pages_host"})
		}
	}
	switch q.Verdict {
	case "":
	case "black", "white", "grey":
		if in := set(byVerdict); in != "" || q.pg {
			if in == "" {
				in = "p.id IN "
			}
			cs = append(cs, cond{in + "(SELECT page_id FROM verdicts WHERE crawl_id = ? AND verdict = ?)",
				[]any{q.Crawl, q.Verdict}, false})
		} else {
			cs = append(cs, cond{"(SELECT v.verdict FROM verdicts v WHERE v.page_id = p.id) = ?", []any{q.Verdict}, false})
		}
	default:
		return "", nil, nil, fmt.Errorf("verdict %q: want black, white or grey", q.Verdict)
	}
	if q.NearDuplicates {
		if in := set(byNear); in != "" {
			cs = append(cs, cond{in + nearPages, []any{q.Crawl}, false})
		} else {
			cs = append(cs, cond{"p.near <> 0", nil, a.index == "pages_near_url"})
		}
	}
	// The search last, so that SQLite asks only about the rows the other
	// filters keep.
	switch search {
	case "set":
		cs = append(cs, cond{"+p.id IN (SELECT rowid FROM pages_fts WHERE pages_fts MATCH ?)", []any{a.probe}, false})
	case "row":
		cs = append(cs, cond{"EXISTS (SELECT 1 FROM pages_fts WHERE pages_fts MATCH ? AND pages_fts.rowid = p.id)",
			[]any{a.probe}, false})
	}
	return from, fromArgs, cs, nil
}

// nearIDs selects the ids of a crawl's (its argument) pages in a near-
// duplicate group with a match, read from their own index; nearPages is
// it as a subquery.
const (
	nearIDs   = `SELECT id FROM pages INDEXED BY pages_near_ids WHERE crawl_id = ? AND near <> 0`
	nearPages = `(` + nearIDs + `)`
)

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
