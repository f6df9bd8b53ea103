package cli

import (
	"bufio"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestGatewayRefuses(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "g.db")
	badPolicy := writeList(t, dir, "policy.toml", "[[rule]]\nclients = [\"10.0.0.0/8\"]\nfrom = \"25:00\"\nto = \"08:00\"\n")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--listen", "0.0.0.0:0"}, "needs --allow-from"},
		{[]string{"--listen", ":3128"}, "needs --allow-from"},
		{[]string{"--unknown", "maybe"}, "allow or block"},
		{[]string{"--allow-from", "10.0.0.0/33"}, "not a network"},
		{[]string{"--policy", badPolicy}, "policy.toml:3"},
		{[]string{"--crawl", "7"}, "no crawl 7"},
		{[]string{"--crawl-unknown"}, "holds no crawl"},
	} {
		code, _, errs := run(t, "", append([]string{"gateway", "--db", dbPath}, c.args...)...)
		if code != ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("gateway %v: exit %d %q, want 2 and %q", c.args, code, errs, c.want)
		}
	}
}

// TestGatewayCommand runs trawler gateway as a process and asks through it.
func TestGatewayCommand(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "g.db")
	if code, _, errs := run(t, "", "lists", "add", "--db", dbPath, "--list", "black", "blocked.example"); code != ExitOK {
		t.Fatal(errs)
	}
	cmd := exec.Command(os.Args[0], "gateway", "--db", dbPath, "--listen", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "TRAWLER_TEST_AS_CLI=1")
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	if !lines.Scan() {
		t.Fatal("the gateway printed nothing")
	}
	first := lines.Text()
	_, rest, ok := strings.Cut(first, "listening on ")
	if !ok {
		t.Fatalf("first line %q", first)
	}
	addr, _, _ := strings.Cut(rest, ",")
	proxy, _ := url.Parse("http://" + addr)
	c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	res, err := c.Get("http://www.blocked.example/")
	if err != nil || res.StatusCode != 403 {
		t.Fatalf("through the gateway: %v %v", res, err)
	}
	res.Body.Close()
	cmd.Process.Signal(syscall.SIGINT)
	var tail []string
	for lines.Scan() {
		tail = append(tail, lines.Text())
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after Ctrl-C: %v", err)
	}
	if got := strings.Join(tail, "\n"); !strings.Contains(got, "1 blocked") {
		t.Errorf("summary %q", got)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "g.log"))
	if !strings.Contains(string(log), "gateway decision") || !strings.Contains(string(log), "blocked.example") {
		t.Errorf("the decision is not in the log:\n%s", log)
	}
}
