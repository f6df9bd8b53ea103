package secret

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl"
)

func TestSplitProxy(t *testing.T) {
	tests := []struct {
		in, clean, user, pass string
	}{
		{"", "", "", ""},
		{"http://proxy:3128", "http://proxy:3128", "", ""},
		{"http://me:pw@proxy:3128", "http://me@proxy:3128", "me", "pw"},
		{"socks5://me@proxy:1080", "socks5://me@proxy:1080", "me", ""},
		{"http://me:p%40ss%3Aw@proxy:3128", "http://me@proxy:3128", "me", "p@ss:w"},
		{"http://:pw@proxy:3128", "http://proxy:3128", "", "pw"},
		{"http://me:pw@proxy:bad port", "http://proxy:bad port", "", ""},
	}
	for _, tt := range tests {
		clean, user, pass := SplitProxy(tt.in)
		if clean != tt.clean || user != tt.user || pass != tt.pass {
			t.Errorf("SplitProxy(%q) = %q, %q, %q; want %q, %q, %q", tt.in, clean, user, pass, tt.clean, tt.user, tt.pass)
		}
		if tt.user != "" && tt.pass != "" {
			if got := JoinProxy(clean, tt.pass); got != tt.in {
				t.Errorf("JoinProxy(%q, %q) = %q, want %q", clean, tt.pass, got, tt.in)
			}
		}
	}
	if got := JoinProxy("http://proxy:3128", "pw"); got != "http://proxy:3128" {
		t.Errorf("JoinProxy without a user = %q; a password needs a user", got)
	}
}

func TestStripNeedsFill(t *testing.T) {
	c := crawl.DefaultConfig()
	c.Auth = []crawl.HostAuth{{Host: "a:80", User: "me", Password: "pw-a"}, {Host: "b:80", User: "you"}, {Host: "b:80", User: "you"}}
	c.Proxy = "http://px:pw-proxy@proxy:3128"

	if got := Passwords(c); !reflect.DeepEqual(got, []string{"pw-a", "pw-proxy"}) {
		t.Errorf("Passwords = %q", got)
	}
	s := Strip(c)
	if c.Auth[0].Password != "pw-a" || c.Proxy != "http://px:pw-proxy@proxy:3128" {
		t.Errorf("Strip changed its argument: %+v %q", c.Auth, c.Proxy)
	}
	if s.Auth[0].Password != "" || s.Proxy != "http://px@proxy:3128" || len(Passwords(s)) != 0 {
		t.Errorf("Strip left passwords: %+v %q", s.Auth, s.Proxy)
	}

	want := []Need{{Host: "a:80", User: "me"}, {Host: "b:80", User: "you"}, {Host: "proxy/proxy:3128", User: "px", Proxy: true}}
	if got := Needs(s); !reflect.DeepEqual(got, want) {
		t.Errorf("Needs = %+v, want %+v", got, want)
	}
	if got := want[2].String(); got != "proxy password for px@proxy:3128" {
		t.Errorf("Need.String = %q", got)
	}
	var asked []string
	err := Fill(&s, func(n Need) (string, error) {
		asked = append(asked, n.String())
		return "typed-" + n.User, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(asked) != 3 || s.Auth[0].Password != "typed-me" || s.Auth[1].Password != "typed-you" ||
		s.Auth[2].Password != "typed-you" || s.Proxy != "http://px:typed-px@proxy:3128" {
		t.Errorf("after Fill: asked %q, auth %+v, proxy %q", asked, s.Auth, s.Proxy)
	}
	if len(Needs(s)) != 0 {
		t.Errorf("still needs %+v", Needs(s))
	}

	s = Strip(c)
	err = Fill(&s, func(n Need) (string, error) { return "", errors.New("not a terminal") })
	if err == nil || !strings.Contains(err.Error(), "password for me@a:80: not a terminal") {
		t.Errorf("Fill with a failing source: %v", err)
	}
}
