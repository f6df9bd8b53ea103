package fetch

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	server "goftp.io/server/v2"
	"goftp.io/server/v2/driver/file"
)

// ftpAuth accepts the user named in users with its password; "anonymous"
// with any password when anonymous is set.
type ftpAuth struct {
	users     map[string]string
	anonymous bool
}

func (a ftpAuth) CheckPasswd(_ *server.Context, user, pass string) (bool, error) {
	if user == "anonymous" {
		return a.anonymous, nil
	}
	want, ok := a.users[user]
	return ok && want == pass, nil
}

// startFTP serves a temp dir on 127.0.0.1 and returns its host:port:
//
//	/index.html   a small page
//	/big.txt      3000 bytes
//	/pic.png      a PNG
//	/sub/a.txt    text
//	/sub/deeper/  an empty directory
func startFTP(t *testing.T, auth ftpAuth) string {
	root := t.TempDir()
	write := func(name string, data []byte) {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.html", []byte("<title>ftp page</title>"))
	write("big.txt", bytes.Repeat([]byte("z"), 3000))
	write("pic.png", pngBytes)
	write("sub/a.txt", []byte("hello from sub"))
	if err := os.MkdirAll(filepath.Join(root, "sub", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	drv, err := file.NewDriver(root)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.NewServer(&server.Options{
		Driver:   drv,
		Auth:     auth,
		Perm:     server.NewSimplePerm("owner", "group"),
		Hostname: "127.0.0.1",
		Logger:   &server.DiscardLogger{},
	})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Shutdown() })
	return l.Addr().String()
}

func TestFTPFile(t *testing.T) {
	addr := startFTP(t, ftpAuth{anonymous: true})
	f := mustNew(t, Config{MaxSize: 2000})
	tests := []struct {
		name, path string
		probe      bool
		status     int
		ctype      string
		body       string // "-" for none
		length     int64  // ContentLength
	}{
		{"page", "/index.html", false, 200, "text/html", "<title>ftp page</title>", 23},
		{"nested text", "/sub/a.txt", false, 200, "text/plain", "hello from sub", 14},
		{"type suffix", "/sub/a.txt;type=i", false, 200, "text/plain", "hello from sub", 14},
		{"probe", "/index.html", true, 200, "text/html", "-", 23},
		{"png not read", "/pic.png", false, 200, "image/png", "-", int64(len(pngBytes))},
		{"probe of a big file is fine", "/big.txt", true, 200, "text/plain", "-", 3000},
		{"missing", "/nope.html", false, 404, "", "-", -1},
		{"missing dir", "/nodir/", false, 404, "", "-", -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u := "ftp://" + addr + tc.path
			r := mustFetch(t, f, u, tc.probe)
			if r.Status != tc.status || r.ContentType != tc.ctype || r.ContentLength != tc.length {
				t.Errorf("status %d type %q length %d; want %d %q %d", r.Status, r.ContentType, r.ContentLength, tc.status, tc.ctype, tc.length)
			}
			if tc.body == "-" && r.Body != nil || tc.body != "-" && string(r.Body) != tc.body {
				t.Errorf("body %q, want %q", r.Body, tc.body)
			}
			if r.IP != "127.0.0.1" || r.URL != u {
				t.Errorf("IP %q URL %q", r.IP, r.URL)
			}
		})
	}
	t.Run("over the cap", func(t *testing.T) {
		r, err := f.Fetch(context.Background(), "ftp://"+addr+"/big.txt", false)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Truncated || r.Length != 2000 {
			t.Errorf("Truncated %v, Length %d; want true, 2000", r.Truncated, r.Length)
		}
	})
}

func TestFTPDirectory(t *testing.T) {
	addr := startFTP(t, ftpAuth{anonymous: true})
	f := mustNew(t, Config{})
	base := "ftp://" + addr
	tests := []struct {
		path string
		want []Entry
	}{
		{"", []Entry{
			{Name: "big.txt", URL: base + "/big.txt", Size: 3000},
			{Name: "index.html", URL: base + "/index.html", Size: 23},
			{Name: "pic.png", URL: base + "/pic.png", Size: int64(len(pngBytes))},
			{Name: "sub", URL: base + "/sub/", Dir: true},
		}},
		{"/sub", []Entry{
			{Name: "a.txt", URL: base + "/sub/a.txt", Size: 14},
			{Name: "deeper", URL: base + "/sub/deeper/", Dir: true},
		}},
		{"/sub/", []Entry{
			{Name: "a.txt", URL: base + "/sub/a.txt", Size: 14},
			{Name: "deeper", URL: base + "/sub/deeper/", Dir: true},
		}},
		{"/sub/deeper/", []Entry{}},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			r := mustFetch(t, f, base+tc.path, false)
			if r.Status != 200 || r.ContentType != DirectoryType || r.Body != nil {
				t.Errorf("status %d type %q body %q", r.Status, r.ContentType, r.Body)
			}
			got := append([]Entry(nil), r.Listing...)
			sort.Slice(got, func(i, j int) bool { return got[i].Name < got[j].Name })
			if len(got) != len(tc.want) {
				t.Fatalf("listing %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("entry %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
	r := mustFetch(t, f, base+"/sub/", true)
	if r.ContentType != DirectoryType || r.Listing != nil {
		t.Errorf("probe of a directory: type %q, listing %v", r.ContentType, r.Listing)
	}
}

func TestFTPLogin(t *testing.T) {
	addr := startFTP(t, ftpAuth{users: map[string]string{"alice": "s3cret"}})
	u := "ftp://" + addr + "/index.html"
	tests := []struct {
		name   string
		auth   map[string]Credentials
		url    string
		status int
	}{
		{"anonymous refused", nil, u, 401},
		{"credentials for the host", map[string]Credentials{addr: {User: "alice", Password: "s3cret"}}, u, 200},
		{"credentials for another port", map[string]Credentials{"127.0.0.1:21": {User: "alice", Password: "s3cret"}}, u, 401},
		{"wrong password", map[string]Credentials{addr: {User: "alice", Password: "nope"}}, u, 401},
		{"credentials in the URL", nil, "ftp://alice:s3cret@" + addr + "/index.html", 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := mustNew(t, Config{Auth: tc.auth})
			r := mustFetch(t, f, tc.url, false)
			if r.Status != tc.status {
				t.Errorf("status %d, want %d", r.Status, tc.status)
			}
			if tc.status == 200 && string(r.Body) != "<title>ftp page</title>" {
				t.Errorf("body %q", r.Body)
			}
		})
	}
}

func TestFTPSilentServerTimesOut(t *testing.T) {
	addr := silentListener(t)
	f := mustNew(t, Config{Timeout: time.Second})
	_, err := f.Fetch(context.Background(), "ftp://"+addr+"/file.txt", false)
	wantKind(t, err, KindTimeout)
}

func TestFTPCallerCancel(t *testing.T) {
	addr := silentListener(t)
	f := mustNew(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := f.Fetch(ctx, "ftp://"+addr+"/file.txt", false)
	wantKind(t, err, KindCanceled)
}
