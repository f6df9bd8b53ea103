// Package logfile is a crawl's log file beside its database (trawler.db →
// trawler.log), written by the command line and the window alike: slog
// text at the crawl's log level, appended, with every password of the
// crawl's settings masked before a line reaches the disk.
package logfile

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/secret"
)

// Path is the crawl log beside a database: trawler.db → trawler.log. A
// database on a server (postgres://host/db) has its log in the user's
// configuration folder, named for the server and database.
func Path(dbPath string) string {
	if u, err := url.Parse(dbPath); err == nil && u.Scheme != "" && u.Host != "" {
		dir, derr := os.UserConfigDir()
		if derr != nil {
			dir = os.TempDir()
		}
		name := strings.Map(func(r rune) rune {
			if r == '.' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
				return r
			}
			return '_'
		}, u.Hostname()+"-"+strings.Trim(u.Path, "/"))
		_ = os.MkdirAll(filepath.Join(dir, "trawler"), 0o755)
		return filepath.Join(dir, "trawler", u.Scheme+"-"+name+".log")
	}
	ext := filepath.Ext(dbPath)
	if ext == ".log" {
		return dbPath + ".log"
	}
	return strings.TrimSuffix(dbPath, ext) + ".log"
}

// Open opens the crawl log beside the database at dbPath for appending,
// as slog text at c's log level. Every password of c is masked before a
// line reaches the file. Close the Closer when the crawl ends.
func Open(dbPath string, c crawl.Config) (*slog.Logger, io.Closer, error) {
	path := Path(dbPath)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("open the log %s: %w", path, err)
	}
	w := newRedactor(f, c)
	h := slog.NewTextHandler(w, &slog.HandlerOptions{Level: crawl.SlogLevel(c.LogLevel)})
	return slog.New(h), f, nil
}

// redactor masks known secrets in everything written through it: the
// passwords as they are, URL-escaped, and inside a basic-auth header.
type redactor struct {
	w       io.Writer
	secrets [][]byte
}

func newRedactor(w io.Writer, c crawl.Config) *redactor {
	r := &redactor{w: w}
	add := func(s string) {
		if s != "" {
			r.secrets = append(r.secrets, []byte(s))
		}
	}
	for _, pw := range secret.Passwords(c) {
		add(pw)
		add(url.PathEscape(pw))
		add(url.QueryEscape(pw))
	}
	for _, a := range c.Auth {
		if a.Password != "" {
			add(base64.StdEncoding.EncodeToString([]byte(a.User + ":" + a.Password)))
		}
	}
	return r
}

// Write masks the secrets in p; slog hands it one whole record at a time.
func (r *redactor) Write(p []byte) (int, error) {
	out := p
	for _, s := range r.secrets {
		if bytes.Contains(out, s) {
			out = bytes.ReplaceAll(out, s, []byte("***"))
		}
	}
	if _, err := r.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}
