package fetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/andybalholm/brotli"
)

const page = "<html><head><title>压缩 test</title></head><body>" +
	"repeated words compress well, repeated words compress well</body></html>"

func compressWith(tb testing.TB, enc string, data []byte) []byte {
	tb.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch enc {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "zlib":
		w = zlib.NewWriter(&buf)
	case "raw":
		w, _ = flate.NewWriter(&buf, flate.DefaultCompression)
	case "br":
		w = brotli.NewWriter(&buf)
	default:
		tb.Fatalf("unknown encoder %q", enc)
	}
	w.Write(data)
	w.Close()
	return buf.Bytes()
}

func TestContentEncodings(t *testing.T) {
	tests := []struct {
		name, header string
		body         []byte
		setLength    bool
		want         string
		wantKind     Kind // KindOther: success
	}{
		{"gzip", "gzip", compressWith(t, "gzip", []byte(page)), false, page, KindOther},
		{"gzip with length", "gzip", compressWith(t, "gzip", []byte(page)), true, page, KindOther},
		{"x-gzip", "x-gzip", compressWith(t, "gzip", []byte(page)), false, page, KindOther},
		{"deflate zlib", "deflate", compressWith(t, "zlib", []byte(page)), false, page, KindOther},
		{"deflate raw", "deflate", compressWith(t, "raw", []byte(page)), false, page, KindOther},
		{"br", "br", compressWith(t, "br", []byte(page)), true, page, KindOther},
		{"gzip then br", "gzip, br", compressWith(t, "br", compressWith(t, "gzip", []byte(page))), false, page, KindOther},
		{"identity", "identity", []byte(page), true, page, KindOther},
		{"empty gzip", "gzip", nil, false, "", KindOther},
		{"corrupt gzip", "gzip", append([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}, "garbage!"...), false, "", KindProtocol},
		{"unknown", "compress", []byte("x"), false, "", KindProtocol},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if got := r.Header.Get("Accept-Encoding"); got != "gzip, deflate, br" {
					t.Errorf("Accept-Encoding = %q", got)
				}
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Header().Set("Content-Encoding", tc.header)
				if tc.setLength {
					w.Header().Set("Content-Length", strconv.Itoa(len(tc.body)))
				}
				w.Write(tc.body)
			}))
			f := mustNew(t, Config{})
			r, err := f.Fetch(context.Background(), s.URL, false)
			if tc.wantKind != KindOther {
				wantKind(t, err, tc.wantKind)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(r.Body) != tc.want || r.Body == nil {
				t.Errorf("body = %q, want %q", r.Body, tc.want)
			}
			if r.Length != int64(len(tc.want)) || r.ContentEncoding != tc.header {
				t.Errorf("Length %d, ContentEncoding %q", r.Length, r.ContentEncoding)
			}
		})
	}
}

var titleRE = regexp.MustCompile(`<title>(.*?)</title>`)

func titleOf(body []byte) string {
	m := titleRE.FindSubmatch(body)
	if m == nil {
		return ""
	}
	return string(m[1])
}

func TestCharsets(t *testing.T) {
	readTestdata := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	const gbkTitle = "网络爬虫测试页面——中文标题"
	tests := []struct {
		name, contentType string
		body              []byte
		title, charset    string
	}{
		{"gbk in meta only", "text/html", readTestdata("gbk_meta.html"), gbkTitle, "gbk"},
		{"gbk in header only", "text/html; charset=GBK", readTestdata("gbk_plain.html"), gbkTitle, "gbk"},
		{"gb2312 in http-equiv", "text/html", readTestdata("gb2312_http_equiv.html"), "简体中文页面", "gbk"},
		{"big5 in meta", "text/html", readTestdata("big5_meta.html"), "網路爬蟲測試頁面", "big5"},
		{"header beats meta", "text/html; charset=gbk", []byte("<meta charset=big5><title>\xd6\xd0\xce\xc4</title>"), "中文", "gbk"},
		{"utf-8 BOM", "text/html", []byte("\xef\xbb\xbf<title>naïve</title>"), "naïve", "utf-8"},
		{"windows-1252 declared", "text/html; charset=iso-8859-1", []byte("<title>caf\xe9</title>"), "café", "windows-1252"},
		{"undeclared utf-8 after 1 KB of ascii", "text/html",
			append(bytes.Repeat([]byte(" "), 2000), "<title>日本語</title>"...), "日本語", "utf-8"},
		{"undeclared latin-1", "text/plain", []byte("<title>gar\xe7on</title>"), "garçon", "windows-1252"},
		{"invalid utf-8 declared", "text/plain; charset=utf-8", []byte("<title>a\xffb</title>"), "a\uFFFDb", "utf-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", tc.contentType)
				w.Write(tc.body)
			}))
			f := mustNew(t, Config{})
			r := mustFetch(t, f, s.URL, false)
			if got := titleOf(r.Body); got != tc.title {
				t.Errorf("title = %q, want %q", got, tc.title)
			}
			if r.Charset != tc.charset {
				t.Errorf("charset = %q, want %q", r.Charset, tc.charset)
			}
			if r.Length != int64(len(tc.body)) {
				t.Errorf("Length = %d, want %d (bytes before conversion)", r.Length, len(tc.body))
			}
		})
	}
}

func TestInflateDetection(t *testing.T) {
	for _, enc := range []string{"zlib", "raw"} {
		data := bytes.Repeat([]byte("zlib or raw? "), 100)
		r, err := inflate(bytes.NewReader(compressWith(t, enc, data)))
		if err != nil {
			t.Fatalf("%s: %v", enc, err)
		}
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s: got %d bytes, err %v", enc, len(got), err)
		}
	}
}
