package fetch

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00")

// typeServer serves bodies with and without Content-Type headers.
func typeServer(t *testing.T) string {
	mux := http.NewServeMux()
	with := func(ct, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ct)
			fmt.Fprint(w, body)
		}
	}
	without := func(body []byte) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = nil // no sniffing by the server
			w.Write(body)
		}
	}
	mux.Handle("/page", with("text/html; charset=utf-8", "<p>hi</p>"))
	mux.Handle("/xhtml", with("Application/XHTML+XML", "<p>x</p>"))
	mux.Handle("/image", with("image/png", string(pngBytes)))
	mux.Handle("/data.json", with("application/json", `{"a":1}`))
	mux.Handle("/pic.png", without(pngBytes))
	mux.Handle("/doc.html", without([]byte("<p>by extension</p>")))
	mux.Handle("/noext", without([]byte("<!DOCTYPE html><p>sniffed</p>")))
	mux.Handle("/blob", without(pngBytes))
	mux.Handle("/empty", without(nil))
	return serve(t, mux).URL
}

func TestContentTypeFilter(t *testing.T) {
	base := typeServer(t)
	def := mustNew(t, Config{})
	jsonOnly := mustNew(t, Config{ContentTypes: []string{"application/json"}})
	tests := []struct {
		name     string
		f        *Fetcher
		path     string
		probe    bool
		wantType string
		wantBody string // "-" for nil
	}{
		{"html read", def, "/page", false, "text/html", "<p>hi</p>"},
		{"xhtml read, type lower-cased", def, "/xhtml", false, "application/xhtml+xml", "<p>x</p>"},
		{"png not read", def, "/image", false, "image/png", "-"},
		{"json not read by default", def, "/data.json", false, "application/json", "-"},
		{"html probed", def, "/page", true, "text/html", "-"},
		{"png probed", def, "/image", true, "image/png", "-"},
		{"type from extension, skipped", def, "/pic.png", false, "image/png", "-"},
		{"type from extension, read", def, "/doc.html", false, "text/html", "<p>by extension</p>"},
		{"type sniffed, read", def, "/noext", false, "text/html", "<!DOCTYPE html><p>sniffed</p>"},
		{"type sniffed, skipped", def, "/blob", false, "image/png", "-"},
		{"probe does not sniff", def, "/noext", true, "", "-"},
		{"empty body read", def, "/empty", false, "text/plain", ""},
		{"configured json read", jsonOnly, "/data.json", false, "application/json", `{"a":1}`},
		{"configured json: html skipped", jsonOnly, "/page", false, "text/html", "-"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := mustFetch(t, tc.f, base+tc.path, tc.probe)
			if r.ContentType != tc.wantType {
				t.Errorf("ContentType = %q, want %q", r.ContentType, tc.wantType)
			}
			switch {
			case tc.wantBody == "-" && r.Body != nil:
				t.Errorf("body = %q, want none", r.Body)
			case tc.wantBody != "-" && (r.Body == nil || string(r.Body) != tc.wantBody):
				t.Errorf("body = %q (nil %v), want %q", r.Body, r.Body == nil, tc.wantBody)
			}
			if r.Status != 200 {
				t.Errorf("status %d", r.Status)
			}
		})
	}
}

func TestProbeReportsDeclaredLength(t *testing.T) {
	base := typeServer(t)
	r := mustFetch(t, mustNew(t, Config{}), base+"/image", true)
	if r.ContentLength != int64(len(pngBytes)) || r.Length != 0 {
		t.Errorf("ContentLength %d, Length %d; want %d, 0", r.ContentLength, r.Length, len(pngBytes))
	}
}

func TestNon2xxIsAResponse(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "<p>gone</p>", 404) })
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "oops", 500) })
	mux.HandleFunc("/moved-missing", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/missing", 301) })
	base := serve(t, mux).URL
	f := mustNew(t, Config{})
	for path, want := range map[string]int{"/missing": 404, "/broken": 500, "/moved-missing": 404} {
		r := mustFetch(t, f, base+path, false)
		if r.Status != want || r.OK() || r.Body != nil {
			t.Errorf("%s: status %d, OK %v, body %q; want %d, no body", path, r.Status, r.OK(), r.Body, want)
		}
	}
}

func TestResponseFields(t *testing.T) {
	lm := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	s := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/html")
		h.Set("Last-Modified", lm.Format(http.TimeFormat))
		h.Set("Expires", "0")
		h.Set("ETag", `"v1"`)
		h.Set("X-Extra", "yes")
		h.Set("Content-Length", "5")
		fmt.Fprint(w, "hello")
	}))
	r := mustFetch(t, mustNew(t, Config{}), s.URL+"/p#frag", false)
	checks := []struct {
		name      string
		got, want any
	}{
		{"URL", r.URL, s.URL + "/p"},
		{"IP", r.IP, "127.0.0.1"},
		{"LastModified", r.LastModified, lm},
		{"Expires", r.Expires, time.Time{}},
		{"ETag", r.ETag, `"v1"`},
		{"ContentLength", r.ContentLength, int64(5)},
		{"Length", r.Length, int64(5)},
		{"Charset", r.Charset, "utf-8"},
		{"Header", r.Header.Get("X-Extra"), "yes"},
		{"Redirects", len(r.Redirects), 0},
		{"Duration positive", r.Duration > 0, true},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

func TestRequestHeaders(t *testing.T) {
	var got http.Header
	s := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.Header.Clone() }))
	f := mustNew(t, Config{UserAgent: "Trawler/9 (+http://example.invalid/bot)", Header: http.Header{
		"Accept":          {"text/html"},
		"X-Trawler":       {"1"},
		"Accept-Encoding": {"identity"},
	}})
	mustFetch(t, f, s.URL, false)
	want := map[string]string{
		"User-Agent": "Trawler/9 (+http://example.invalid/bot)", "Accept": "text/html",
		"X-Trawler": "1", "Accept-Encoding": "gzip, deflate, br", "Authorization": "",
	}
	for k, v := range want {
		if got.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, got.Get(k), v)
		}
	}
}

func TestBasicAuthOnlyToItsHost(t *testing.T) {
	var mu sync.Mutex
	seen := map[string][]string{} // server name → Authorization headers received
	record := func(name string, next func(w http.ResponseWriter, r *http.Request)) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen[name] = append(seen[name], r.Header.Get("Authorization"))
			mu.Unlock()
			next(w, r)
		}
	}
	var aURL, bURL string
	a := serve(t, record("a", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/start":
			http.Redirect(w, r, bURL+"/hop", 302)
		default:
			fmt.Fprint(w, "a page")
		}
	}))
	b := serve(t, record("b", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, aURL+"/end", 302)
	}))
	aURL, bURL = a.URL, b.URL
	f := mustNew(t, Config{Auth: map[string]Credentials{
		"127.0.0.1:" + portOf(t, a): {User: "alice", Password: "s3cret"},
	}})
	r := mustFetch(t, f, aURL+"/start", false)
	if len(r.Redirects) != 2 {
		t.Fatalf("hops %v", r.Redirects)
	}
	req, _ := http.NewRequest("GET", "/", nil)
	req.SetBasicAuth("alice", "s3cret")
	wantA := req.Header.Get("Authorization")
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(seen["a"]) != fmt.Sprint([]string{wantA, wantA}) {
		t.Errorf("host a got %q, want credentials on both requests", seen["a"])
	}
	if fmt.Sprint(seen["b"]) != fmt.Sprint([]string{""}) {
		t.Errorf("host b got %q, want no credentials", seen["b"])
	}
}

func TestHostKey(t *testing.T) {
	tests := map[string]string{
		"http://A.com/x":         "a.com:80",
		"https://a.com/":         "a.com:443",
		"ftp://a.com/f":          "a.com:21",
		"http://a.com:8080/":     "a.com:8080",
		"http://user@a.com/":     "a.com:80",
		"http://[::1]:9000/":     "[::1]:9000",
		"https://[2001:db8::1]/": "[2001:db8::1]:443",
	}
	for in, want := range tests {
		if got := hostKey(mustParse(t, in)); got != want {
			t.Errorf("hostKey(%s) = %s, want %s", in, got, want)
		}
	}
}

func TestNewValidates(t *testing.T) {
	tests := []struct {
		name string
		c    Config
		bad  string // part of the error; "" = valid
	}{
		{"defaults", Config{UserAgent: "x"}, ""},
		{"no user agent", Config{}, "user agent"},
		{"two-line user agent", Config{UserAgent: "a\r\nX-Evil: 1"}, "user agent"},
		{"negative timeout", Config{UserAgent: "x", Timeout: -1}, "negative"},
		{"redirects -2", Config{UserAgent: "x", MaxRedirects: -2}, "redirects"},
		{"negative size", Config{UserAgent: "x", MaxSize: -5}, "size"},
		{"ftp proxy", Config{UserAgent: "x", Proxy: "ftp://p:21"}, "scheme"},
		{"proxy without host", Config{UserAgent: "x", Proxy: "http://"}, "no host"},
		{"socks proxy", Config{UserAgent: "x", Proxy: "socks5://u:p@127.0.0.1:1080"}, ""},
		{"auth without port", Config{UserAgent: "x", Auth: map[string]Credentials{"a.com": {}}}, "hostname:port"},
		{"auth bad port", Config{UserAgent: "x", Auth: map[string]Credentials{"a.com:http": {}}}, "port"},
		{"bad content type", Config{UserAgent: "x", ContentTypes: []string{"html"}}, "media type"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := New(tc.c)
			if tc.bad == "" {
				if err != nil {
					t.Fatal(err)
				}
				f.Close()
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("New = %v, want error mentioning %q", err, tc.bad)
			}
		})
	}
}

func TestBadURLs(t *testing.T) {
	f := mustNew(t, Config{})
	tests := map[string]Kind{
		"mailto:a@b.c":     KindScheme,
		"javascript:x()":   KindScheme,
		"/relative":        KindScheme,
		"http://":          KindBadURL,
		"http://[::1":      KindBadURL,
		"http:///path":     KindBadURL,
		"gopher://a.com/1": KindScheme,
	}
	for u, k := range tests {
		_, err := f.Fetch(context.Background(), u, false)
		wantKind(t, err, k)
	}
}

func TestKindStrings(t *testing.T) {
	seen := map[string]bool{}
	for k := KindOther; k <= KindProtocol; k++ {
		s := k.String()
		if s == "" || seen[s] || strings.HasPrefix(s, "kind(") {
			t.Errorf("Kind %d has name %q", int(k), s)
		}
		seen[s] = true
	}
	if got := Kind(99).String(); got != "kind(99)" {
		t.Errorf("Kind(99) = %q", got)
	}
	if KindOf(fmt.Errorf("wrapped: %w", &Error{Kind: KindDNS, URL: "u", Err: errTooLarge})) != KindDNS {
		t.Error("KindOf does not see through wrapping")
	}
}
