package db

import (
	"context"
	"database/sql"
	"strings"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/rabin"
)

// linkRows is how many links one statement stores. A page's links go in
// a few multi-row INSERTs rather than one statement each: the statement's
// own cost (binding, stepping, resetting, the driver's bookkeeping) was
// most of the time the writer spent on links.
const linkRows = 16

// linkColumns is the number of values of one links row.
const linkColumns = 8

const (
	// selectLinks reads a stored page's links in page order, to compare.
	selectLinks = `SELECT to_url, kind, text, nofollow FROM links WHERE page_id = ? ORDER BY seq`
	deleteLinks = `DELETE FROM links WHERE page_id = ?`
)

// relink replaces the stored links of page id with p's, unless they are
// the same: on a re-crawl most pages link where they did, and reading ten
// rows costs far less than deleting and inserting them with their index
// entries.
func (w *pageWriter) relink(ctx context.Context, p *crawl.Page, id int64) error {
	same, err := w.sameLinks(ctx, p.Links, id)
	if err != nil || same {
		return wrap(err, "compare the links of %s", p.URL)
	}
	if _, err := w.st.unlink.ExecContext(ctx, id); err != nil {
		return wrap(err, "delete the links of %s", p.URL)
	}
	return w.links(ctx, p, id)
}

// sameLinks reports whether page id's stored links are links, in order.
func (w *pageWriter) sameLinks(ctx context.Context, links []crawl.Link, id int64) (bool, error) {
	rows, err := w.st.oldLinks.QueryContext(ctx, id)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	var (
		url, kind, text sql.RawBytes
		nofollow        bool
		n               int
	)
	for rows.Next() {
		if n == len(links) {
			return false, nil
		}
		if err := rows.Scan(&url, &kind, &text, &nofollow); err != nil {
			return false, err
		}
		l := links[n]
		if string(url) != l.URL || string(kind) != string(l.Kind) || string(text) != l.Text || nofollow != l.NoFollow {
			return false, nil
		}
		n++
	}
	return n == len(links), rows.Err()
}

// links stores the references found on p, stored as page id.
func (w *pageWriter) links(ctx context.Context, p *crawl.Page, id int64) error {
	for start := 0; start < len(p.Links); start += linkRows {
		chunk := p.Links[start:min(start+linkRows, len(p.Links))]
		st, err := w.linkStatement(ctx, len(chunk))
		if err != nil {
			return wrap(err, "store links of %s", p.URL)
		}
		args := w.args[:0]
		var page, crawlID any = id, w.crawl // boxed once, not once per link
		for i, l := range chunk {
			args = append(args, page, int64(start+i), crawlID, l.URL, int64(rabin.FingerprintString(l.URL)),
				kindArg(l.Kind), l.Text, l.NoFollow)
		}
		w.args = args
		if _, err := st.ExecContext(ctx, args...); err != nil {
			return wrap(err, "store links of %s", p.URL)
		}
	}
	return nil
}

// linkStatement returns the INSERT of n links rows, preparing it the first
// time the batch needs it.
func (w *pageWriter) linkStatement(ctx context.Context, n int) (*sql.Stmt, error) {
	if st := w.st.links[n]; st != nil {
		return st, nil
	}
	st, err := w.d.stmt(ctx, w.tx, linksInsert(n))
	if err != nil {
		return nil, err
	}
	w.st.links[n] = st
	w.st.all = append(w.st.all, st)
	return st, nil
}

// linksInsert is the INSERT of n links rows.
func linksInsert(n int) string {
	var q strings.Builder
	q.WriteString("INSERT INTO links (page_id, seq, crawl_id, to_url, to_fp, kind, text, nofollow) VALUES ")
	row := "(?" + strings.Repeat(", ?", linkColumns-1) + ")"
	for i := range n {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString(row)
	}
	return q.String()
}

// kindArgs holds the link kinds as statement arguments, boxed once.
var kindArgs = func() map[crawl.LinkKind]any {
	m := map[crawl.LinkKind]any{}
	for _, k := range []crawl.LinkKind{crawl.LinkA, crawl.LinkArea, crawl.LinkFrame, crawl.LinkIFrame,
		crawl.LinkImg, crawl.LinkScript, crawl.LinkLink, crawl.LinkEmbed, crawl.LinkBackground,
		crawl.LinkApplet, crawl.LinkRedirect, crawl.LinkFTP} {
		m[k] = string(k)
	}
	return m
}()

// kindArg returns k as a statement argument.
func kindArg(k crawl.LinkKind) any {
	if a, ok := kindArgs[k]; ok {
		return a
	}
	return string(k)
}
