package cli

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/trawler/trawler/crawl/secret/secrettest"
	"github.com/trawler/trawler/crawl/testsite"
	"github.com/trawler/trawler/db"
)

const (
	sitePassword  = "s3cret-PASS-xyz"
	proxyPassword = "pr0xy-PASS-xyz"
	siteUser      = "trawler-user-q"
	proxyUser     = "proxy-user-q"
)

// authSite serves a test site only to requests with user's basic-auth
// credentials; others get 401.
func authSite(t *testing.T, pages int, user, pass string) *httptest.Server {
	site := &testsite.Site{Pages: pages, OutDegree: 3}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, ok := r.BasicAuth()
		if !ok || u != user || p != pass {
			w.Header().Set("WWW-Authenticate", `Basic realm="test"`)
			http.Error(w, "who are you?", http.StatusUnauthorized)
			return
		}
		site.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// forwardProxy is an HTTP proxy that wants user's credentials and counts
// the requests it forwarded.
func forwardProxy(t *testing.T, user, pass string, served *atomic.Int64) *httptest.Server {
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+pass))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Proxy-Authorization") != want || !r.URL.IsAbs() {
			w.Header().Set("Proxy-Authenticate", `Basic realm="proxy"`)
			http.Error(w, "proxy auth", http.StatusProxyAuthRequired)
			return
		}
		out, _ := http.NewRequestWithContext(r.Context(), r.Method, r.URL.String(), nil)
		for k, v := range r.Header {
			if k != "Proxy-Authorization" {
				out.Header[k] = v
			}
		}
		resp, err := http.DefaultTransport.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		io.Copy(w, resp.Body)
		served.Add(1)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// secretForms are the ways a password could leak: as is, URL-escaped and
// inside a basic-auth header.
func secretForms() []string {
	return []string{
		sitePassword, proxyPassword,
		base64.StdEncoding.EncodeToString([]byte(siteUser + ":" + sitePassword)),
		base64.StdEncoding.EncodeToString([]byte(proxyUser + ":" + proxyPassword)),
		"PASS-xyz",
	}
}

// grepFiles fails t if any of the files holds a secret, and reports which
// of them exist.
func grepFiles(t *testing.T, when string, paths ...string) (existing []string) {
	t.Helper()
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		existing = append(existing, filepath.Base(p))
		for _, s := range secretForms() {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%s: %s holds %q", when, filepath.Base(p), s)
			}
		}
	}
	return existing
}

// TestNoPasswordAnywhere crawls a site behind basic auth through a proxy
// that wants a password too, then looks for either password in the log,
// the database with its -wal and -shm files (while open and after close),
// an exported profile and a CSV export.
func TestNoPasswordAnywhere(t *testing.T) {
	srv := authSite(t, 30, siteUser, sitePassword)
	var proxied atomic.Int64
	px := forwardProxy(t, proxyUser, proxyPassword, &proxied)
	host := strings.TrimPrefix(srv.URL, "http://")
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "t.db")
	logFile := filepath.Join(dir, "t.log")
	proxyURL := "http://" + proxyUser + ":" + proxyPassword + "@" + strings.TrimPrefix(px.URL, "http://")

	// Hold a connection of our own so the -wal and -shm files outlive the crawl's.
	d, err := db.Open(dbPath)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, sitePassword+"\n", "crawl", "--db", dbPath, "--quiet", "--log-level", "5",
		"--auth", host+"="+siteUser, "--password-stdin", "--proxy", proxyURL, "--depth", "10", srv.URL+"/")
	if code != ExitOK || !strings.Contains(out, "30 done, 0 errors") {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, errs)
	}
	if proxied.Load() < 30 {
		t.Errorf("the proxy forwarded %d requests; the crawl did not go through it", proxied.Load())
	}
	rows, err := d.Pages(context.Background(), db.PageQuery{Crawl: 1, StatusClass: 2, Limit: 100})
	if err != nil || len(rows) != 30 {
		t.Fatalf("%d pages with status 2xx (%v); the credentials were not used", len(rows), err)
	}
	files := []string{dbPath, dbPath + "-wal", dbPath + "-shm", logFile}
	open := grepFiles(t, "database open", files...)
	if strings.Join(open, " ") != "t.db t.db-wal t.db-shm t.log" {
		t.Errorf("files while the database is open: %v; want the database, its -wal and -shm, and the log", open)
	}

	profilePath := filepath.Join(dir, "exported.toml")
	csvPath := filepath.Join(dir, "pages.csv")
	if code, _, errs := run(t, "", "profile", "export", "--db", dbPath, "--crawl", "1", "--out", profilePath); code != ExitOK {
		t.Fatalf("profile export: exit %d: %s", code, errs)
	}
	if code, _, errs := run(t, "", "export", "--db", dbPath, "--out", csvPath); code != ExitOK {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	grepFiles(t, "database closed", append(files, profilePath, csvPath)...)

	// The files are the ones that matter: each holds what a leak would leave.
	for path, want := range map[string]string{
		dbPath:      siteUser,
		logFile:     "fetched",
		profilePath: `user = '` + siteUser + `'`,
		csvPath:     srv.URL + "/p/",
	} {
		b, _ := os.ReadFile(path)
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("%s does not hold %q: the search above looked at the wrong thing", filepath.Base(path), want)
		}
	}
	b, _ := os.ReadFile(profilePath)
	if !bytes.Contains(b, []byte("proxy = 'http://"+proxyUser+"@")) {
		t.Errorf("exported profile lost the proxy's user:\n%s", b)
	}
}

// TestForgottenPassword resumes a crawl whose password is neither in the
// keychain nor on a terminal: it fails naming what it needs, then runs with
// the password on standard input.
func TestForgottenPassword(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(t.TempDir(), "no-bus"))
	srv := authSite(t, 5, siteUser, sitePassword)
	host := strings.TrimPrefix(srv.URL, "http://")
	dbPath := filepath.Join(t.TempDir(), "t.db")
	code, _, errs := run(t, "", "crawl", "--db", dbPath, "--quiet", "--auth", host+"="+siteUser, srv.URL+"/")
	if code != ExitUsage || !strings.Contains(errs, "password for "+siteUser+"@"+host) || !strings.Contains(errs, "--password-stdin") {
		t.Errorf("crawl without the password: exit %d, %q; want a usage error naming the password and --password-stdin", code, errs)
	}
	code, out, errs := run(t, "wrong\n", "crawl", "--db", dbPath, "--quiet", "--password-stdin", "--auth", host+"="+siteUser, srv.URL+"/")
	if code != ExitOK || !strings.Contains(out, "1 done") {
		t.Fatalf("crawl with a wrong password: exit %d %s %s", code, out, errs)
	}
	code, _, errs = run(t, "", "resume", "--db", dbPath, "1")
	if code != ExitUsage || !strings.Contains(errs, "password for "+siteUser+"@"+host) {
		t.Errorf("resume without the password: exit %d, %q", code, errs)
	}
	code, _, errs = run(t, "", "resume", "--db", dbPath, "--password-stdin", "1")
	if code != ExitUsage || !strings.Contains(errs, "standard input ended") {
		t.Errorf("resume with an empty standard input: exit %d, %q", code, errs)
	}
}

// TestRememberedPassword remembers a password in a real Secret Service
// (a private gnome-keyring-daemon), crawls again with it recalled from
// there, forgets it, and is then refused for want of it.
func TestRememberedPassword(t *testing.T) {
	if !secrettest.Run(t) {
		return
	}
	srv := authSite(t, 8, siteUser, sitePassword)
	host := strings.TrimPrefix(srv.URL, "http://")
	dbPath := filepath.Join(t.TempDir(), "t.db")
	ok2xx := func(id int64) int {
		d, err := db.Open(dbPath)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		n, _ := d.CountPages(context.Background(), db.PageQuery{Crawl: id, StatusClass: 2})
		return int(n)
	}
	defer run(t, "", "password", "forget", host, siteUser)

	code, out, errs := run(t, sitePassword+"\n", "crawl", "--db", dbPath, "--quiet", "--auth", host+"="+siteUser,
		"--password-stdin", "--remember-password", srv.URL+"/")
	if code != ExitOK || ok2xx(1) != 8 || strings.Contains(errs, "warning") {
		t.Fatalf("crawl remembering the password: exit %d, %d pages 2xx\n%s\n%s", code, ok2xx(1), out, errs)
	}
	code, out, errs = run(t, "", "crawl", "--db", dbPath, "--quiet", "--auth", host+"="+siteUser, srv.URL+"/")
	if code != ExitOK || ok2xx(2) != 8 {
		t.Fatalf("crawl with the password from the keychain: exit %d, %d pages 2xx\n%s\n%s", code, ok2xx(2), out, errs)
	}
	if code, _, errs := run(t, "", "password", "forget", host, siteUser); code != ExitOK {
		t.Fatalf("password forget: exit %d %s", code, errs)
	}
	code, _, errs = run(t, "", "resume", "--db", dbPath, "2")
	if code != ExitUsage || !strings.Contains(errs, "not in the keychain") {
		t.Errorf("resume after forgetting: exit %d, %q", code, errs)
	}
	if code, _, errs := run(t, "proxy-pw\n", "password", "remember", "--proxy", "--password-stdin", "proxy.example:3128", "px"); code != ExitOK {
		t.Fatalf("password remember --proxy: exit %d %s", code, errs)
	}
	if code, _, errs := run(t, "", "password", "forget", "--proxy", "proxy.example:3128", "px"); code != ExitOK {
		t.Fatalf("password forget --proxy: exit %d %s", code, errs)
	}
}
