package sitemap

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// errFull stops reading a sitemap once maxURLs entries are collected.
var errFull = errors.New("enough URLs")

// parser reads one sitemap body.
type parser struct {
	c        *collector
	children []string // sitemaps listed, when the body is an index
	invalid  int      // entries that are not http or https URLs
}

// parse detects the compression and the kind of body and reads it.
func (p *parser) parse(body []byte) error {
	var r io.Reader = bytes.NewReader(body)
	gzipped := len(body) >= 2 && body[0] == 0x1f && body[1] == 0x8b
	if gzipped {
		z, err := gzip.NewReader(r)
		if err != nil {
			return fmt.Errorf("gunzip: %w", err)
		}
		r = z
	}
	br := bufio.NewReaderSize(&capReader{r: r, limit: p.c.maxSize}, 64<<10)
	skipBOMAndSpace(br)
	first, err := br.Peek(1)
	if err != nil {
		if err == io.EOF {
			return nil
		}
		return fmt.Errorf("read: %w", err)
	}
	if first[0] == '<' {
		err = p.xml(br, !gzipped && utf8.Valid(body))
	} else {
		err = p.text(br)
	}
	if errors.Is(err, errFull) {
		return nil
	}
	return err
}

// xml reads a <urlset> or <sitemapindex> document as a stream. When isUTF8
// is set the bytes are taken as UTF-8 whatever the declaration says, since
// a Fetcher may already have decoded them.
func (p *parser) xml(r io.Reader, isUTF8 bool) error {
	d := xml.NewDecoder(r)
	d.CharsetReader = charset.NewReaderLabel
	if isUTF8 {
		d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	}
	root, err := firstElement(d)
	if err != nil {
		return err
	}
	var item string
	switch root.Name.Local {
	case "urlset":
		item = "url"
	case "sitemapindex":
		item = "sitemap"
	default:
		return fmt.Errorf("%w: root element <%s>", ErrNotSitemap, root.Name.Local)
	}
	for {
		tok, err := d.Token()
		if err != nil {
			return fmt.Errorf("parse xml: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if t.Name.Local != item {
				if err := d.Skip(); err != nil {
					return fmt.Errorf("parse xml: %w", err)
				}
				continue
			}
			loc, lastmod, err := readItem(d)
			if err != nil {
				return err
			}
			if err := p.found(loc, lastmod, item == "sitemap"); err != nil {
				return err
			}
		case xml.EndElement:
			return nil
		}
	}
}

// firstElement returns the root element of the document.
func firstElement(d *xml.Decoder) (xml.StartElement, error) {
	for {
		tok, err := d.Token()
		if err != nil {
			return xml.StartElement{}, fmt.Errorf("parse xml: %w", err)
		}
		if t, ok := tok.(xml.StartElement); ok {
			return t, nil
		}
	}
}

// readItem reads the <loc> and <lastmod> of one <url> or <sitemap>, up to
// its end tag, skipping other children such as image extensions.
func readItem(d *xml.Decoder) (loc, lastmod string, err error) {
	for {
		tok, err := d.Token()
		if err != nil {
			return "", "", fmt.Errorf("parse xml: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "loc":
				loc, err = elementText(d)
			case "lastmod":
				lastmod, err = elementText(d)
			default:
				err = d.Skip()
			}
			if err != nil {
				return "", "", fmt.Errorf("parse xml: %w", err)
			}
		case xml.EndElement:
			return loc, lastmod, nil
		}
	}
}

// elementText reads the text of the element just opened, up to its end
// tag. It is DecodeElement into a string without the reflection, which
// costs most of the time on large sitemaps.
func elementText(d *xml.Decoder) (string, error) {
	var b []byte
	for depth := 1; ; {
		tok, err := d.Token()
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.CharData:
			b = append(b, t...)
		case xml.StartElement:
			depth++
		case xml.EndElement:
			if depth--; depth == 0 {
				return string(b), nil
			}
		}
	}
}

// text reads a plain-text sitemap: one URL per line, blank lines ignored.
func (p *parser) text(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if err := p.found(line, "", false); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read text: %w", err)
	}
	return nil
}

// found takes one listed URL: a child sitemap of an index, or a page. As
// the protocol says, it must be an absolute http or https URL.
func (p *parser) found(loc, lastmod string, isSitemap bool) error {
	u, err := url.Parse(strings.TrimSpace(loc))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.invalid++
		return nil
	}
	if isSitemap {
		p.children = append(p.children, u.String())
		return nil
	}
	p.c.add(Entry{URL: u.String(), LastMod: parseTime(lastmod)})
	if p.c.full() {
		return errFull
	}
	return nil
}

// timeLayouts are the W3C Datetime forms <lastmod> may take.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02", "2006-01", "2006"}

// parseTime reads a <lastmod> value; it returns the zero time when it
// cannot, since a bad date should not cost the URL.
func parseTime(s string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// skipBOMAndSpace drops a UTF-8 byte order mark and leading white space.
func skipBOMAndSpace(r *bufio.Reader) {
	if b, err := r.Peek(3); err == nil && bytes.Equal(b, []byte{0xef, 0xbb, 0xbf}) {
		r.Discard(3)
	}
	for {
		b, err := r.Peek(1)
		if err != nil || !strings.ContainsRune(" \t\r\n", rune(b[0])) {
			return
		}
		r.Discard(1)
	}
}

// capReader reads from r up to limit bytes, then fails with ErrTooLarge if
// anything remains.
type capReader struct {
	r     io.Reader
	limit int64
	read  int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.read >= c.limit {
		var one [1]byte
		if n, err := io.ReadFull(c.r, one[:]); n == 0 {
			return 0, err
		}
		return 0, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, c.limit)
	}
	if left := c.limit - c.read; int64(len(p)) > left {
		p = p[:left]
	}
	n, err := c.r.Read(p)
	c.read += int64(n)
	return n, err
}
