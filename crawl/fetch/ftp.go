package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/jlaffaye/ftp"
)

// fetchFTP fetches an ftp:// URL over one control connection: log in
// (anonymously unless credentials are known for the host), then list the
// path if it is a directory (CWD succeeds) or retrieve it if it is a file.
// FTP connects directly; proxy settings apply to HTTP only.
func (f *Fetcher) fetchFTP(parent, ctx context.Context, u *url.URL, probe bool) (*Response, error) {
	fail := func(err error) error { return f.classify(parent, ctx, u.String(), err) }
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "21")
	}
	var conns connSet
	stop := context.AfterFunc(ctx, conns.abort)
	defer stop()
	deadline, _ := ctx.Deadline()
	c, err := ftp.Dial(addr, ftp.DialWithDialFunc(func(network, address string) (net.Conn, error) {
		conn, err := f.dialer.DialContext(ctx, network, address)
		if err != nil {
			return nil, err
		}
		_ = conn.SetDeadline(deadline)
		conns.add(conn)
		return conn, nil
	}))
	if err != nil {
		return nil, fail(err)
	}
	defer func() { _ = c.Quit() }()
	r := &Response{URL: u.String(), Status: http.StatusOK, Header: http.Header{}, ContentLength: -1, IP: conns.firstIP()}
	user, pass := f.ftpCredentials(u)
	if err := c.Login(user, pass); err != nil {
		if ftpCode(err) == 530 {
			r.Status = http.StatusUnauthorized
			return r, nil
		}
		return nil, fail(fmt.Errorf("ftp login as %s: %w", user, err))
	}
	p := ftpPath(u)
	switch cwdErr := c.ChangeDir(p); {
	case cwdErr == nil:
		err = f.ftpList(c, r, u, p, probe)
	case strings.HasSuffix(p, "/"):
		err = notFound(r, cwdErr)
	default:
		err = f.ftpFile(c, r, p, probe)
	}
	if err != nil {
		return nil, fail(err)
	}
	return r, nil
}

func (f *Fetcher) ftpCredentials(u *url.URL) (user, pass string) {
	if u.User != nil {
		pass, _ = u.User.Password()
		return u.User.Username(), pass
	}
	if c, ok := f.cfg.Auth[hostKey(u)]; ok {
		return c.User, c.Password
	}
	return "anonymous", "anonymous@"
}

// ftpPath is the URL's path with any ";type=" suffix (RFC 1738) removed.
func ftpPath(u *url.URL) string {
	p := u.Path
	if i := strings.LastIndex(p, ";type="); i >= 0 && len(p)-i == len(";type=a") {
		p = p[:i]
	}
	if p == "" {
		p = "/"
	}
	return p
}

// ftpList fills r with the listing of the current directory, p.
func (f *Fetcher) ftpList(c *ftp.ServerConn, r *Response, u *url.URL, p string, probe bool) error {
	r.ContentType = DirectoryType
	if probe {
		return nil
	}
	list, err := c.List("")
	if err != nil {
		return fmt.Errorf("ftp list %s: %w", p, err)
	}
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	r.Listing = make([]Entry, 0, len(list))
	for _, e := range list {
		if e.Name == "." || e.Name == ".." || e.Name == "" {
			continue
		}
		ent := Entry{Name: e.Name, Dir: e.Type == ftp.EntryTypeFolder}
		ep := p + e.Name
		if ent.Dir {
			ep += "/"
		} else {
			ent.Size = int64(e.Size)
		}
		ent.URL = (&url.URL{Scheme: "ftp", Host: u.Host, Path: ep}).String()
		r.Listing = append(r.Listing, ent)
	}
	return nil
}

// ftpFile fills r from the file p: size, date, and the body when wanted.
func (f *Fetcher) ftpFile(c *ftp.ServerConn, r *Response, p string, probe bool) error {
	r.ContentType = typeByExtension(p)
	size, err := c.FileSize(p)
	switch {
	case err == nil:
		r.ContentLength = size
	case isNotFound(err):
		return notFound(r, err)
	}
	if c.IsGetTimeSupported() {
		if t, err := c.GetTime(p); err == nil {
			r.LastModified = t
		}
	}
	if probe || (r.ContentType != "" && !f.accepts(r.ContentType)) {
		return nil
	}
	body, err := c.Retr(p)
	if err != nil {
		if isNotFound(err) {
			return notFound(r, err)
		}
		return fmt.Errorf("ftp retr %s: %w", p, err)
	}
	defer func() { _ = body.Close() }()
	return f.readBody(r, body, "")
}

// ftpCode is the reply code of an FTP error, 0 when there is none.
func ftpCode(err error) int {
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code
	}
	return 0
}

// isNotFound reports whether an FTP reply says the file is unavailable.
func isNotFound(err error) bool {
	switch ftpCode(err) {
	case 450, 550, 551, 553:
		return true
	}
	return false
}

// notFound sets r to 404 for a not-found reply; other errors stay errors.
func notFound(r *Response, err error) error {
	if !isNotFound(err) {
		return fmt.Errorf("ftp: %w", err)
	}
	r.Status = http.StatusNotFound
	r.ContentType = ""
	return nil
}

// connSet tracks an FTP fetch's connections so a canceled or expired
// context can unblock them.
type connSet struct {
	mu      sync.Mutex
	conns   []net.Conn
	aborted bool
}

func (s *connSet) add(c net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.aborted {
		_ = c.SetDeadline(time.Unix(1, 0))
	}
	s.conns = append(s.conns, c)
}

func (s *connSet) abort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.aborted = true
	for _, c := range s.conns {
		_ = c.SetDeadline(time.Unix(1, 0))
	}
}

// firstIP is the remote address of the control connection.
func (s *connSet) firstIP() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.conns) > 0 {
		if a, ok := s.conns[0].RemoteAddr().(*net.TCPAddr); ok {
			return a.IP.String()
		}
	}
	return ""
}
