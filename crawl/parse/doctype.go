package parse

import (
	"bytes"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// quirksDoctype reports whether a doctype's data puts the page in quirks
// mode, as x/net/html decides. (Quirks mode lets a <table> open inside a
// <p>.) "html" alone, the modern doctype, does not; a name other than
// exactly "html" does. A doctype with public or system identifiers is
// judged by x/net/html itself, through a tiny parse whose answer is kept.
func quirksDoctype(data []byte) bool {
	name := data
	if i := bytes.IndexAny(data, " \t\r\n\f"); i >= 0 {
		name = data[:i]
	}
	if string(name) != "html" {
		return true
	}
	rest := trimLeftWS(data[len(name):])
	switch {
	case len(rest) == 0:
		return false
	case len(rest) < 6:
		return true
	}
	if q, ok := quirksSeen.Load(string(data)); ok {
		return q.(bool)
	}
	q := probeQuirks(data)
	if quirksCount.Add(1) <= maxQuirksSeen {
		quirksSeen.Store(string(data), q)
	}
	return q
}

// quirksSeen remembers the answers for doctypes with identifiers; pages
// use a handful of them.
var (
	quirksSeen  sync.Map
	quirksCount atomic.Int64
)

const maxQuirksSeen = 256

// probeQuirks parses the doctype with "<p><table>" after it: only in
// quirks mode does the table open inside the paragraph.
func probeQuirks(data []byte) bool {
	var b strings.Builder
	b.WriteString("<!DOCTYPE ")
	for _, c := range data {
		switch c {
		case '&':
			b.WriteString("&amp;")
		case '\r':
			b.WriteString("&#13;")
		case '>':
			b.WriteString("&gt;")
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString("><p><table>")
	doc, err := html.Parse(strings.NewReader(b.String()))
	if err != nil {
		return true
	}
	for n := range doc.Descendants() {
		if n.DataAtom == atom.Table {
			return n.Parent != nil && n.Parent.DataAtom == atom.P
		}
	}
	return true
}
