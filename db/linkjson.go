package db

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/trawler/trawler/crawl"
)

// A page's links are stored in its own row (pages.links, schema 8) as a
// JSON array in page order, one [to_url, kind, text, nofollow] array per
// link, nofollow 0 or 1, and NULL for a page without links: one value
// written per page instead of a row and an index entry per link, readable
// by any SQLite or PostgreSQL client. Which pages link to a URL is found
// through an index of their targets (see linktargets.go).

// linksJSON returns the stored form of links, nil (NULL) for none.
func linksJSON(links []crawl.Link) any {
	if len(links) == 0 {
		return nil
	}
	n := 2
	for _, l := range links {
		n += len(l.URL) + len(l.Kind) + len(l.Text) + 16
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, l := range links {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = appendJSONString(b, l.URL)
		b = append(b, ',')
		b = appendJSONString(b, string(l.Kind))
		b = append(b, ',')
		b = appendJSONString(b, l.Text)
		if l.NoFollow {
			b = append(b, ",1]"...)
		} else {
			b = append(b, ",0]"...)
		}
	}
	return string(append(b, ']'))
}

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 as U+FFFD, the rest as is.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
		}
		b = append(b, s[start:i]...)
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default: // a byte that is not UTF-8
			b = append(b, "\\ufffd"...)
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// decodeLinks reads the stored form of a page's links ("" for none).
func decodeLinks(stored string) ([]crawl.Link, error) {
	if stored == "" {
		return nil, nil
	}
	var rows [][]json.RawMessage
	if err := json.Unmarshal([]byte(stored), &rows); err != nil {
		return nil, fmt.Errorf("decode links: %w", err)
	}
	links := make([]crawl.Link, len(rows))
	for i, r := range rows {
		if len(r) != 4 {
			return nil, fmt.Errorf("decode links: link %d has %d values, want 4", i, len(r))
		}
		var kind string
		if err := decodeAll(r[:3], &links[i].URL, &kind, &links[i].Text); err != nil {
			return nil, fmt.Errorf("decode links: link %d: %w", i, err)
		}
		links[i].Kind = crawl.LinkKind(kind)
		switch string(r[3]) { // 0 or 1; PostgreSQL's migration may have written booleans
		case "1", "true":
			links[i].NoFollow = true
		case "0", "false":
		default:
			return nil, fmt.Errorf("decode links: link %d: nofollow %s", i, r[3])
		}
	}
	return links, nil
}

// decodeAll decodes each JSON value into its destination.
func decodeAll(vals []json.RawMessage, dst ...*string) error {
	for i, v := range vals {
		if err := json.Unmarshal(v, dst[i]); err != nil {
			return err
		}
	}
	return nil
}
