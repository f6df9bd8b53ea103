package urlfilter

import "testing"

func TestLookupOrder(t *testing.T) {
	f := New()
	var entries []Entry
	for _, l := range []struct {
		list List
		line string
	}{
		{Black, "bad.example gambling"},
		{White, "http://bad.example/ok.html"},
		{Black, "news.example/private"},
		{White, "*.good.example"},
	} {
		e, err := ParseEntry(l.list, l.line)
		if err != nil {
			t.Fatalf("ParseEntry(%q): %v", l.line, err)
		}
		entries = append(entries, e)
	}
	if err := f.Load(entries); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		url   string
		list  List
		value string
	}{
		{"http://bad.example/", Black, "bad.example"},
		{"https://www.BAD.example:8443/x", Black, "bad.example"},
		{"http://bad.example/ok.html", White, "http://bad.example/ok.html"},
		{"http://news.example/private", Black, "news.example/private"},
		{"http://news.example/private/a/b?q=1", Black, "news.example/private"},
		{"http://news.example/privateer", None, ""},
		{"http://news.example/", None, ""},
		{"http://a.b.good.example/x", White, "good.example"},
		{"not a url", None, ""},
	} {
		m := f.Lookup(c.url)
		if m.List != c.list || m.Value != c.value {
			t.Errorf("Lookup(%q) = %v %q, want %v %q", c.url, m.List, m.Value, c.list, c.value)
		}
	}
	if m := f.LookupHost("WWW.bad.example:443"); m.List != Black || m.Category != "gambling" {
		t.Errorf("LookupHost = %+v", m)
	}
}

func TestParseEntryRefuses(t *testing.T) {
	for _, line := range []string{"", "a b c", "mailto:x@y", "http://", "exa mple.com/x y z"} {
		if _, err := ParseEntry(Black, line); err == nil {
			t.Errorf("ParseEntry(%q) accepted", line)
		}
	}
}
