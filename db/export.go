package db

import (
	"context"
	"database/sql"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"time"
)

// CSVHeader is the header row of ExportCSV. Its first eight columns are
// fixed (scripts rely on them); later ones may grow.
var CSVHeader = []string{
	"url", "status", "depth", "title", "content_type", "length", "fetched_at", "content_fp",
	"host", "ip", "parent", "final_url", "charset", "content_encoding", "content_length",
	"last_modified", "expires", "etag", "description", "keywords", "author", "robots",
	"duplicate_of", "duration_ms", "resource", "err",
	"near_group", "near_match", "near_similarity", "change", "cycle", "redirect_to", "truncated",
	"verdict", "score", "terms",
}

const exportColumns = `p.url, p.status, p.depth, p.title, p.content_type, p.length, p.fetched_at, p.content_fp,
    p.host, p.ip, p.parent, p.final_url, p.charset, p.content_encoding, p.content_length,
    p.last_modified, p.expires, p.etag, p.description, p.keywords, p.author, p.robots,
    p.duplicate_of, p.duration, p.resource, p.err,
    p.near_group, coalesce((SELECT m.url FROM pages m WHERE m.crawl_id = p.crawl_id AND m.fp = p.near_of AND p.near_of <> 0), ''),
    p.near_similarity, p.change, p.cycle, p.redirect_to, p.truncated,
    coalesce((SELECT v.verdict FROM verdicts v WHERE v.page_id = p.id), ''),
    (SELECT v.score FROM verdicts v WHERE v.page_id = p.id AND v.verdict <> ''),
    coalesce((SELECT v.terms FROM verdicts v WHERE v.page_id = p.id), '')`

// WriteBOM writes the UTF-8 byte-order mark that makes Excel on Windows
// read a CSV file as UTF-8 (without it, accented and CJK text is garbled).
// Other programs do not need it, so it is the caller's choice.
func WriteBOM(w io.Writer) error {
	_, err := io.WriteString(w, "\uFEFF")
	return err
}

// progressEvery is how many rows ExportCSV writes between progress calls.
const progressEvery = 1000

// SafeCell defuses a spreadsheet formula: a cell that starts with =, +, -,
// @, tab or carriage return gets a leading apostrophe, so a spreadsheet
// shows it as text instead of running it (OWASP's CSV-injection rule).
func SafeCell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}

// ExportCSV writes the pages q selects, in q's order, as RFC 4180 CSV in
// UTF-8 with the CSVHeader row, and returns how many rows it wrote. Rows
// stream from the database to w, so a million rows take little memory.
// q.Limit 0 means every row. progress, if not nil, is called with the
// number of rows written every thousand rows and at the end.
//
// With q.Skipped it writes the skipped URLs instead, under SkippedCSVHeader.
func (d *DB) ExportCSV(ctx context.Context, w io.Writer, q PageQuery, progress func(done int)) (int, error) {
	q.pg = d.pg
	if q.Skipped {
		return d.exportSkipped(ctx, w, q, progress)
	}
	from, where, args, err := q.filter(access{})
	if err != nil {
		return 0, err
	}
	orderBy, after, afterArgs, err := q.order(false)
	if err != nil {
		return 0, err
	}
	if after != "" {
		where += " AND " + after
		args = append(args, afterArgs...)
	}
	query := fmt.Sprintf("SELECT %s FROM %s WHERE %s ORDER BY %s LIMIT ?", exportColumns, from, where, orderBy)
	args = append(args, limitOr(q.Limit))
	rows, err := d.r.QueryContext(ctx, query, args...)
	if err != nil {
		return 0, wrap(badQuery(err, q.Search), "export csv")
	}
	defer rows.Close()
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return 0, fmt.Errorf("export csv: %w", err)
	}
	n := 0
	rec := make([]string, len(CSVHeader))
	for rows.Next() {
		if err := scanExport(rows, rec); err != nil {
			return n, wrap(err, "export csv")
		}
		if err := cw.Write(rec); err != nil {
			return n, fmt.Errorf("export csv: %w", err)
		}
		n++
		if n%progressEvery == 0 {
			cw.Flush()
			if progress != nil {
				progress(n)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return n, wrap(badQuery(err, q.Search), "export csv")
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return n, fmt.Errorf("export csv: %w", err)
	}
	if progress != nil {
		progress(n)
	}
	return n, nil
}

// scanExport reads one row into rec, formatted and defused.
func scanExport(rows *sql.Rows, rec []string) error {
	var (
		url, title, ctype, host, ip, parent, final, charset, enc string
		etag, desc, keywords, author, robots, dup, errText       string
		nearMatch, change, redirectTo, verdict, terms            string
		status, depth, cycle                                     int
		length, fetched, contentFP, contentLength, duration      int64
		nearGroup                                                int64
		nearSimilarity                                           float64
		lastMod, expires                                         sql.NullInt64
		score                                                    sql.NullFloat64
		resource, truncated                                      bool
	)
	if err := rows.Scan(&url, &status, &depth, &title, &ctype, &length, &fetched, &contentFP,
		&host, &ip, &parent, &final, &charset, &enc, &contentLength, &lastMod, &expires, &etag,
		&desc, &keywords, &author, &robots, &dup, &duration, &resource, &errText,
		&nearGroup, &nearMatch, &nearSimilarity, &change, &cycle, &redirectTo, &truncated,
		&verdict, &score, &terms); err != nil {
		return err
	}
	scoreText, termsText := "", ""
	if score.Valid {
		scoreText = strconv.FormatFloat(score.Float64, 'f', -1, 64)
	}
	if hits, err := hitsFromJSON(terms); err == nil {
		termsText = HitsText(hits)
	}
	similarity := ""
	if nearMatch != "" {
		similarity = strconv.FormatFloat(nearSimilarity, 'f', 3, 64)
	}
	cells := []string{
		url, strconv.Itoa(status), strconv.Itoa(depth), title, ctype, strconv.FormatInt(length, 10),
		time.Unix(0, fetched).UTC().Format(time.RFC3339), fmt.Sprintf("%016x", uint64(contentFP)),
		host, ip, parent, final, charset, enc, optionalInt(contentLength),
		csvTime(fromSeconds(lastMod)), csvTime(fromSeconds(expires)), etag, desc, keywords, author, robots,
		dup, strconv.FormatInt(duration/int64(time.Millisecond), 10), strconv.FormatBool(resource), errText,
		nearGroupText(nearGroup), nearMatch, similarity, change, strconv.Itoa(cycle),
		redirectTo, strconv.FormatBool(truncated), verdict, scoreText, termsText,
	}
	for i, c := range cells {
		rec[i] = SafeCell(c)
	}
	return nil
}

// optionalInt leaves unknown (negative) sizes empty rather than "-1".
func optionalInt(n int64) string {
	if n < 0 {
		return ""
	}
	return strconv.FormatInt(n, 10)
}

func csvTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}
