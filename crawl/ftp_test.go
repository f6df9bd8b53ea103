package crawl_test

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"testing"

	server "goftp.io/server/v2"
	"goftp.io/server/v2/driver/file"
)

type anonymous struct{}

func (anonymous) CheckPasswd(_ *server.Context, user, _ string) (bool, error) {
	return user == "anonymous", nil
}

// TestFTPCrawl crawls a local FTP server: directory listings become links
// of kind ftp and every file and directory is visited.
func TestFTPCrawl(t *testing.T) {
	root := t.TempDir()
	for name, body := range map[string]string{
		"readme.txt":      "hello ftp",
		"pub/index.html":  "<title>FTP page</title><p>inside</p>",
		"pub/data/a.txt":  "a",
		"pub/data/b.html": "<p>b</p>",
	} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	drv, err := file.NewDriver(root)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.NewServer(&server.Options{
		Driver: drv, Auth: anonymous{}, Perm: server.NewSimplePerm("owner", "group"),
		Hostname: "127.0.0.1", Logger: &server.DiscardLogger{},
	})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	defer srv.Shutdown()

	base := "ftp://" + l.Addr().String()
	h := newHarness(t, config(base+"/"))
	h.run()
	want := []string{"/", "/pub/", "/pub/data/", "/pub/data/a.txt", "/pub/data/b.html", "/pub/index.html", "/readme.txt"}
	if got := h.paths(base); !slices.Equal(got, want) {
		t.Errorf("visited %v, want %v", got, want)
	}
	if p := h.page(base + "/pub/index.html"); p.Title != "FTP page" || p.Text != "inside" {
		t.Errorf("FTP HTML page: title %q text %q", p.Title, p.Text)
	}
	if p := h.page(base + "/pub/"); len(p.Links) != 2 || p.Links[0].Kind != "ftp" {
		t.Errorf("listing of /pub/: %+v", p.Links)
	}
}
