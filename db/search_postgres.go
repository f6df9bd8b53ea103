package db

import (
	"fmt"
	"strings"
)

// Full-text search on PostgreSQL: pages.fts is a tsvector PostgreSQL keeps
// from the title (weight A), the URL (B) and the text (D), with every CJK
// character set apart as in the SQLite index (pgmigrations/0001_init.sql).
// What the user typed becomes a tsquery the same way it becomes an FTS5
// query: each word must match, a lone word also as a prefix, phrases and
// CJK words as sequences (<->). After AdvancedPrefix the text is
// PostgreSQL's own tsquery syntax (& | ! <-> :*), which a PostgreSQL
// user knows, as FTS5's is SQLite's.

// pgRank is the relevance of a match, lower first as FTS5's rank is; the
// title counts ten times the text (ts_rank's default weights).
const pgRank = "(-ts_rank(p.fts, tsq))"

// pgSnippet is the best fragment of the title and text for the query,
// with the matches between MatchStart and MatchEnd.
var pgSnippet = fmt.Sprintf(`ts_headline('simple', trawler_fulltext(p.title || ' · ' || left(p.text, 100000)), tsq,
    'StartSel=%c, StopSel=%c, MaxWords=35, MinWords=15')`, MatchStart, MatchEnd)

// searchFrom is the FROM clause of a search and its query argument: the
// FTS5 table joined to the pages on SQLite, the pages beside the parsed
// tsquery (named tsq) on PostgreSQL.
func (q *PageQuery) searchFrom() (from, match string, err error) {
	return q.searchFromIndexed("")
}

// searchFromIndexed is searchFrom with SQLite reading the pages through
// index (INDEXED BY), or as it chooses when index is "".
func (q *PageQuery) searchFromIndexed(index string) (from, match string, err error) {
	if !q.pg {
		match, err = ftsQuery(q.Search)
		if index != "" {
			index = " INDEXED BY " + index
		}
		// CROSS JOIN keeps the full-text index as the outer loop.
		return "pages_fts CROSS JOIN pages p" + index + " ON p.id = pages_fts.rowid", match, err
	}
	fn, match, err := tsQuery(q.Search)
	return "pages p CROSS JOIN " + fn + "('simple', ?) AS tsq", match, err
}

// snippetColumn is the snippet of a search's match.
func (q *PageQuery) snippetColumn() string {
	if q.pg {
		return pgSnippet
	}
	return snippetSQL
}

// tsQuery turns what a user typed into a tsquery and names the function
// that reads it (to_tsquery).
func tsQuery(typed string) (fn, query string, err error) {
	typed = strings.TrimSpace(typed)
	if rest, ok := strings.CutPrefix(typed, AdvancedPrefix); ok {
		rest = strings.TrimSpace(rest)
		if len(indexWords(rest)) == 0 {
			return "", "", fmt.Errorf("%w: %w", ErrBadQuery, ErrNoWords)
		}
		return "to_tsquery", rest, nil
	}
	var parts []string
	for _, tok := range splitTyped(typed) {
		words := indexWords(tok.text)
		switch {
		case len(words) == 0:
			continue
		case len(words) == 1 && !tok.quoted && !isCJKWord(words[0]):
			parts = append(parts, lexeme(words[0])+":*")
		default:
			quoted := make([]string, len(words))
			for i, w := range words {
				quoted[i] = lexeme(w)
			}
			parts = append(parts, "("+strings.Join(quoted, " <-> ")+")")
		}
	}
	if len(parts) == 0 {
		return "", "", fmt.Errorf("%w %q: %w", ErrBadQuery, typed, ErrNoWords)
	}
	return "to_tsquery", strings.Join(parts, " & "), nil
}

// lexeme quotes a word for a tsquery.
func lexeme(w string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(w, `\`, `\\`), "'", "''") + "'"
}
