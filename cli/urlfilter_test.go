package cli

import (
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// wordPages is a small site whose pages carry listed words.
func wordPages(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	docs := map[string]string{
		"/":       `<title>Home</title><a href="/bet">bets</a> <a href="/garden">garden</a> <a href="/zh">zh</a>`,
		"/bet":    `<title>Casino</title><p>Poker, ROULETTE and the jackpot.</p>`,
		"/garden": `<title>Garden</title><p>Roses.</p>`,
		"/zh":     `<title>新闻</title><p>网上赌博网站</p>`,
	}
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		doc, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(doc))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func writeList(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestVerdictsCommand(t *testing.T) {
	srv, requests := wordPages(t)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "v.db")
	words := writeList(t, dir, "gambling.txt", "@threshold 3\ncasino, 2\npoker\nroulette\n网上赌博, 3\n")
	if code, _, errs := run(t, "", "crawl", "--db", dbPath, "--quiet", "--robots=false", "--word-lists", words, srv.URL+"/"); code != ExitOK {
		t.Fatalf("crawl: exit %d: %s", code, errs)
	}
	code, out, errs := run(t, "", "search", "--db", dbPath, "casino")
	if code != ExitOK || !strings.Contains(out, "/bet  200  Casino  [black]") {
		t.Fatalf("search: exit %d, %q %q", code, out, errs)
	}
	code, out, _ = run(t, "", "search", "--db", dbPath, "--verdict", "white", "garden")
	if code != ExitOK || !strings.Contains(out, "/garden") {
		t.Errorf("search --verdict white: %q", out)
	}
	if code, _, errs := run(t, "", "search", "--db", dbPath, "--verdict", "pink", "garden"); code != ExitUsage || !strings.Contains(errs, "black, white or grey") {
		t.Errorf("--verdict pink: exit %d %q", code, errs)
	}

	// The CSV carries verdict, score and terms.
	code, out, _ = run(t, "", "export", "--db", dbPath)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != ExitOK || err != nil {
		t.Fatalf("export: exit %d, %v", code, err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	got := map[string]string{}
	for _, r := range recs[1:] {
		got[strings.TrimPrefix(r[0], srv.URL)] = r[col["verdict"]] + " " + r[col["score"]] + " " + r[col["terms"]]
	}
	if g := got["/bet"]; g != "black 4 casino (title 1); poker (text 1); roulette (text 1)" {
		t.Errorf("CSV row of /bet: %q", g)
	}
	if g := got["/zh"]; g != "black 3 网上赌博 (text 1)" {
		t.Errorf("CSV row of /zh: %q", g)
	}

	// New lists: judged again from the stored text; the server sees nothing.
	before := requests.Load()
	garden := writeList(t, dir, "garden.txt", "@threshold 1\nroses\n")
	code, out, errs = run(t, "", "verdicts", "--db", dbPath, "--lists", garden)
	if code != ExitOK {
		t.Fatalf("verdicts: exit %d: %s", code, errs)
	}
	for _, want := range []string{"crawl 1: 4 pages judged by 1 word list (1 term,", "black 2 1", "grey 0 0", "white 2 3"} {
		if !hasLine(out, want) {
			t.Errorf("verdicts printed %q, want %q in it", out, want)
		}
	}
	if n := requests.Load() - before; n != 0 {
		t.Errorf("verdicts made %d requests", n)
	}
	if _, out, _ = run(t, "", "search", "--db", dbPath, "--verdict", "black", "roses"); !strings.Contains(out, "/garden") {
		t.Errorf("after new lists, /garden is not black: %q", out)
	}
	// Without --lists the crawl's own (now the garden list) are used again.
	if code, _, errs := run(t, "", "verdicts", "--db", dbPath); code != ExitOK {
		t.Errorf("verdicts with the crawl's lists: exit %d %s", code, errs)
	}

	bad := writeList(t, dir, "bad.txt", "casino\npoker, many\n")
	if code, _, errs := run(t, "", "verdicts", "--db", dbPath, "--lists", bad); code != ExitUsage || !strings.Contains(errs, "bad.txt:2") {
		t.Errorf("bad list: exit %d %q", code, errs)
	}
	if code, _, errs := run(t, "", "crawl", "--db", dbPath, "--word-lists", bad, srv.URL+"/"); code != ExitUsage || !strings.Contains(errs, "bad.txt:2") {
		t.Errorf("crawl with a bad list: exit %d %q", code, errs)
	}
}

func TestListsCommands(t *testing.T) {
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "l.db")
	mustRun := func(stdin string, args ...string) string {
		t.Helper()
		code, out, errs := run(t, stdin, append(args, "--db", dbPath)...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		return out
	}
	mustRun("", "lists", "add", "--list", "black", "--category", "gambling", "casino.example", "http://news.example/a?b=1")
	mustRun("news.example/forum adult\n# a comment\n\n*.ads.example\n", "lists", "import", "--list", "black", "-")
	mustRun("", "lists", "add", "--list", "white", "HTTP://Casino.Example/help")
	out := mustRun("", "lists", "show")
	for _, want := range []string{"black host ads.example import", "black host casino.example gambling manual",
		"black prefix news.example/forum adult import", "white url http://casino.example/help manual",
		"black url http://news.example/a?b=1 gambling", "5 entries"} {
		if !hasLine(out, want) {
			t.Errorf("show printed\n%s\nwant a line starting %q", out, want)
		}
	}
	exported := mustRun("", "lists", "export", "--list", "black")
	if !strings.Contains(exported, "\ncasino.example gambling\n") || strings.Contains(exported, "help") {
		t.Errorf("export --list black:\n%s", exported)
	}

	// An exported list imports again as it was, into another database.
	other := filepath.Join(dir, "other.db")
	if code, _, errs := run(t, exported, "lists", "import", "--list", "black", "--db", other, "-"); code != ExitOK {
		t.Fatalf("import of an export: %s", errs)
	}
	if _, again, _ := run(t, "", "lists", "export", "--list", "black", "--db", other); stripComments(again) != stripComments(exported) {
		t.Errorf("round trip:\n%s\nwant\n%s", again, exported)
	}

	// A bad line refuses the whole file, with its line number.
	code, _, errs := run(t, "ok.example\nmailto:x@y\n", "lists", "import", "--list", "white", "--db", dbPath, "-")
	if code != ExitUsage || !strings.Contains(errs, "standard input:2") {
		t.Errorf("bad import: exit %d %q", code, errs)
	}
	out = mustRun("", "lists", "remove", "casino.example", "nothing.example")
	if !strings.Contains(out, "1 entry removed") {
		t.Errorf("remove: %q", out)
	}
	if out := mustRun("", "lists", "show", "--list", "black"); hasLine(out, "black host casino.example") || !hasLine(out, "3 entries") {
		t.Errorf("after remove:\n%s", out)
	}
	if code, _, _ := run(t, "", "lists", "add", "--db", dbPath, "x.example"); code != ExitUsage {
		t.Errorf("add without --list: exit %d", code)
	}
}

// hasLine reports whether a line of out starts with the words of want,
// however many spaces stand between them.
func hasLine(out, want string) bool {
	w := strings.Fields(want)
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) >= len(w) && strings.Join(f[:len(w)], " ") == want {
			return true
		}
	}
	return false
}

func stripComments(s string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(l, "#") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
