package fetch

import (
	"net/http"
	"time"
)

// DirectoryType is Response.ContentType for an FTP directory listing.
const DirectoryType = "text/directory"

// Response is what a fetch found out about one URL (paper 003 tables 1 and
// 2: address, IP, charset, encoding, length, type, dates).
type Response struct {
	URL             string      // final URL, after redirects
	Status          int         // HTTP status; for FTP 200, 401 (login refused) or 404 (no such file)
	Header          http.Header // response headers of the final hop; empty for FTP
	IP              string      // address the final response came from; "" through a proxy
	ContentType     string      // lower-case media type without parameters: header, else URL extension, else sniffed
	Charset         string      // charset the body was decoded from ("utf-8", "gbk", ...); "" when not text
	ContentEncoding string      // Content-Encoding as sent, lower-case ("gzip", "br", ...)
	ContentLength   int64       // declared length (Content-Length or FTP SIZE); -1 if unknown
	Body            []byte      // the body, UTF-8 when text; nil unless read (see Fetcher.Fetch)
	Length          int64       // body bytes read after decompression, before charset conversion
	Truncated       bool        // an uncompressed body was longer than Config.MaxSize: Body holds its first MaxSize bytes
	Redirects       []Hop       // each redirect followed, in order; empty when none
	LastModified    time.Time   // zero when absent or unparsable
	Expires         time.Time   // zero when absent or unparsable
	ETag            string      // as sent, quotes included
	Duration        time.Duration
	Listing         []Entry // an FTP directory's entries; nil otherwise
}

// OK reports whether the status is 2xx.
func (r *Response) OK() bool { return r.Status >= 200 && r.Status < 300 }

// Hop is one redirect: the URL requested and the redirect status it got.
type Hop struct {
	URL    string
	Status int
}

// Entry is one item of an FTP directory listing.
type Entry struct {
	Name string
	URL  string // absolute ftp:// URL, without credentials; directories end in "/"
	Dir  bool
	Size int64 // bytes; 0 for directories
}

// parseTime reads an HTTP date header; invalid values (Expires: 0) give zero.
func parseTime(h http.Header, key string) time.Time {
	v := h.Get(key)
	if v == "" {
		return time.Time{}
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return time.Time{}
	}
	return t
}
