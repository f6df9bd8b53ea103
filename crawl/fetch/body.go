package fetch

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/andybalholm/brotli"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding/unicode"
)

// sniffLen is how many leading bytes decide an undeclared content type.
const sniffLen = 512

// mediaType returns the lower-case media type of a Content-Type value,
// without parameters; "" when there is none.
func mediaType(header string) string {
	if header == "" {
		return ""
	}
	if mt, _, err := mime.ParseMediaType(header); err == nil {
		return mt
	}
	mt, _, _ := strings.Cut(header, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// extTypes maps file extensions to media types, for responses that declare
// none (paper 000 §2.3: fill a missing content type from the extension).
// It is fixed rather than taken from the system's MIME tables, so results do
// not depend on the machine.
var extTypes = map[string]string{
	".html": "text/html", ".htm": "text/html", ".shtml": "text/html", ".shtm": "text/html",
	".php": "text/html", ".asp": "text/html", ".aspx": "text/html", ".jsp": "text/html",
	".xhtml": "application/xhtml+xml", ".txt": "text/plain", ".text": "text/plain",
	".css": "text/css", ".js": "text/javascript", ".json": "application/json",
	".xml": "application/xml", ".rss": "application/rss+xml", ".csv": "text/csv",
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".webp": "image/webp", ".svg": "image/svg+xml", ".ico": "image/x-icon", ".bmp": "image/bmp",
	".pdf": "application/pdf", ".zip": "application/zip", ".gz": "application/gzip",
	".tgz": "application/gzip", ".tar": "application/x-tar", ".rar": "application/vnd.rar",
	".7z": "application/x-7z-compressed", ".exe": "application/octet-stream",
	".doc": "application/msword", ".xls": "application/vnd.ms-excel", ".ppt": "application/vnd.ms-powerpoint",
	".mp3": "audio/mpeg", ".mp4": "video/mp4", ".avi": "video/x-msvideo", ".swf": "application/x-shockwave-flash",
	".woff": "font/woff", ".woff2": "font/woff2",
}

// typeByExtension guesses a media type from the last element of a URL path.
func typeByExtension(p string) string {
	return extTypes[strings.ToLower(path.Ext(p))]
}

// isText reports whether bodies of media type mt are text to decode to UTF-8.
func isText(mt string) bool {
	switch {
	case strings.HasPrefix(mt, "text/"), strings.HasSuffix(mt, "+xml"), strings.HasSuffix(mt, "+json"):
		return true
	}
	switch mt {
	case "application/xml", "application/json", "application/javascript", "application/ecmascript":
		return true
	}
	return false
}

// decompress wraps r to undo the Content-Encoding value enc (a list is
// undone last-applied first). "deflate" is taken as zlib-wrapped when the
// stream starts with a zlib header and as raw deflate otherwise, since
// servers send both. release returns pooled decoders; call it when done
// reading, even after an error.
func decompress(r io.Reader, enc string) (_ io.Reader, release func(), _ error) {
	if enc == "" {
		return r, func() {}, nil
	}
	var pooled []*gzip.Reader
	release = func() {
		for _, z := range pooled {
			gzipPool.Put(z)
		}
	}
	codings := strings.Split(enc, ",")
	for i := len(codings) - 1; i >= 0; i-- {
		var err error
		switch c := strings.ToLower(strings.TrimSpace(codings[i])); c {
		case "", "identity":
		case "gzip", "x-gzip":
			z, _ := gzipPool.Get().(*gzip.Reader)
			if z == nil {
				z = new(gzip.Reader)
			}
			pooled = append(pooled, z)
			err = z.Reset(r)
			r = z
		case "deflate":
			r, err = inflate(r)
		case "br":
			r = brotli.NewReader(r)
		default:
			err = fmt.Errorf("unsupported content encoding %q", c)
		}
		if err == io.EOF { // an empty body, whatever its encoding
			r, err = bytes.NewReader(nil), nil
		}
		if err != nil {
			return nil, release, fmt.Errorf("decode %s body: %w", codings[i], err)
		}
	}
	return r, release, nil
}

// gzipPool holds gzip readers; each carries a 32 KB window worth reusing.
var gzipPool sync.Pool

func inflate(r io.Reader) (io.Reader, error) {
	br := bufio.NewReader(r)
	h, err := br.Peek(2)
	if err != nil {
		return nil, err
	}
	if h[0]&0x0f == 8 && h[0]>>4 <= 7 && (uint16(h[0])<<8|uint16(h[1]))%31 == 0 {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
}

// bufPool holds read buffers; bodies are copied out to exactly-sized slices.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooled is the largest buffer kept for reuse.
const maxPooled = 1 << 20

// readCapped reads r to the end. Beyond max bytes it keeps the first max
// and reports truncated when truncate is set, and fails with errTooLarge
// otherwise. When accept is not nil it is asked, with the first sniffLen
// bytes, whether to go on; if not, readCapped stops and returns a nil body.
// sizeHint is the expected length, or -1. The body returned is the
// caller's to keep, and not nil when read, even if empty.
func readCapped(r io.Reader, max, sizeHint int64, truncate bool, accept func(prefix []byte) bool) (body []byte, truncated bool, err error) {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooled {
			bufPool.Put(buf)
		}
	}()
	if sizeHint > 0 {
		buf.Grow(int(min(sizeHint, max)) + bytes.MinRead)
	}
	lr := &io.LimitedReader{R: r, N: max + 1}
	if accept != nil {
		if _, err := io.CopyN(buf, lr, sniffLen); err != nil && err != io.EOF {
			return nil, false, err
		}
		if !accept(buf.Bytes()) {
			return nil, false, nil
		}
	}
	if _, err := buf.ReadFrom(lr); err != nil {
		return nil, false, err
	}
	if int64(buf.Len()) > max {
		if !truncate {
			return nil, false, fmt.Errorf("more than %d bytes: %w", max, errTooLarge)
		}
		buf.Truncate(int(max))
		truncated = true
	}
	out := make([]byte, buf.Len())
	copy(out, buf.Bytes())
	return out, truncated, nil
}

// sniffType is http.DetectContentType reduced to a media type.
func sniffType(prefix []byte) string {
	return mediaType(http.DetectContentType(prefix))
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// toUTF8 decodes a text body to UTF-8. The charset comes from a BOM, the
// Content-Type header value, or a <meta> tag within the first 1024 bytes;
// with none of them, a body that is valid UTF-8 is taken as UTF-8 and any
// other as windows-1252 (the HTML standard's fallback). It returns the
// decoded text and the canonical (WHATWG) charset name. body may be reused.
func toUTF8(body []byte, contentType string) ([]byte, string) {
	enc, name, certain := charset.DetermineEncoding(body, contentType)
	if name == "windows-1252" && !certain && utf8.Valid(body) {
		name = "utf-8"
	}
	if name == "utf-8" {
		body = bytes.TrimPrefix(body, utf8BOM)
		if utf8.Valid(body) {
			return body, name
		}
		enc = unicode.UTF8
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		out = bytes.ToValidUTF8(body, []byte("\uFFFD"))
	}
	return bytes.TrimPrefix(out, utf8BOM), name
}
