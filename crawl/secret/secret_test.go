package secret

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/trawler/trawler/crawl/secret/secrettest"
)

// TestKeychain remembers, recalls and forgets passwords in a real Secret
// Service (a private gnome-keyring-daemon on its own D-Bus session).
func TestKeychain(t *testing.T) {
	if !secrettest.Run(t) {
		return
	}
	service = "trawler-test"
	defer func() { service = Service }()
	const pw = "s3cret-PASS-xyz ünï"

	if _, err := Recall("intranet:8080", "me"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("recall before remember: %v, want ErrNotFound", err)
	}
	if err := Remember("Intranet:8080", "me", pw); err != nil {
		t.Fatal(err)
	}
	if got, err := Recall("intranet:8080", "me"); err != nil || got != pw {
		t.Errorf("recall = %q, %v; want %q (host names are not case sensitive)", got, err, pw)
	}
	if _, err := Recall("intranet:8080", "Me"); !errors.Is(err, ErrNotFound) {
		t.Errorf("recall for another user: %v, want ErrNotFound", err)
	}
	if err := Remember("intranet:8080", "me", "second"); err != nil {
		t.Fatal(err)
	}
	if got, _ := Recall("intranet:8080", "me"); got != "second" {
		t.Errorf("after a second remember, recall = %q, want the new password", got)
	}
	if err := Remember(ProxyHost("http://me@intranet:8080"), "me", pw); err != nil {
		t.Fatal(err)
	}
	if got, _ := Recall("intranet:8080", "me"); got != "second" {
		t.Errorf("the proxy's password replaced the site's: %q", got)
	}
	if kr := os.Getenv("XDG_DATA_HOME"); kr != "" {
		files, _ := filepath.Glob(filepath.Join(kr, "keyrings", "*"))
		for _, f := range files {
			b, _ := os.ReadFile(f)
			if bytes.Contains(b, []byte("s3cret")) || bytes.Contains(b, []byte("second")) {
				t.Errorf("keyring file %s holds a password in clear", f)
			}
		}
		t.Logf("keyring files: %v", files)
	}
	for _, host := range []string{"intranet:8080", ProxyHost("http://me@intranet:8080")} {
		if err := Forget(host, "me"); err != nil {
			t.Fatal(err)
		}
		if _, err := Recall(host, "me"); !errors.Is(err, ErrNotFound) {
			t.Errorf("recall after forget: %v, want ErrNotFound", err)
		}
	}
	if err := Forget("intranet:8080", "me"); err != nil {
		t.Errorf("forgetting twice: %v", err)
	}
}
