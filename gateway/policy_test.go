package gateway

import (
	"net/http"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/trawler/trawler/urlfilter"
)

const examplePolicy = `unknown = "allow"            # default for URLs on neither list
[categories]
games = "allow"
news = "block"

[[rule]]
name = "school hours"
clients = ["10.1.0.0/16", "192.168.5.7"]
days = ["mon","tue","wed","thu","FRI"]
from = "08:00"
to = "15:00"
block = ["games"]
allow = ["Social"]
unknown = "block"

[[rule]]
name = "nights"
from = "22:00"
to = "06:00"
days = ["friday"]
block = ["social", "games"]
`

func TestParsePolicy(t *testing.T) {
	p, err := ParsePolicy("policy.toml", strings.NewReader(examplePolicy))
	if err != nil {
		t.Fatal(err)
	}
	allow, block := Allow, Block
	want := &Policy{
		Unknown:    &allow,
		Categories: map[string]Action{"games": Allow, "news": Block},
		Rules: []Rule{{
			Name:    "school hours",
			Clients: []netip.Prefix{netip.MustParsePrefix("10.1.0.0/16"), netip.MustParsePrefix("192.168.5.7/32")},
			Days:    []time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday},
			From:    8 * 60, To: 15 * 60,
			Block: []string{"games"}, Allow: []string{"social"},
			Unknown: &block,
		}, {
			Name: "nights", From: 22 * 60, To: 6 * 60, Days: []time.Weekday{time.Friday},
			Block: []string{"social", "games"},
		}},
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("ParsePolicy =\n%+v\nwant\n%+v", p, want)
	}
}

// TestParsePolicyRefuses: every mistake is refused, with the file and the
// line it is on.
func TestParsePolicyRefuses(t *testing.T) {
	for _, c := range []struct{ name, file, want string }{
		{"unknown key", "unknown = \"allow\"\nunknwon = \"block\"\n", `p.toml:2: unknown key "unknwon"`},
		{"unknown rule key", "[[rule]]\nname = \"x\"\nclient = [\"10.0.0.0/8\"]\n", `p.toml:3: unknown key "rule.client"`},
		{"bad action", "unknown = \"maybe\"\n", "p.toml:1:"},
		{"bad category action", "[categories]\n\ngames = \"yes\"\n", "p.toml:3:"},
		{"bad day", "[[rule]]\ndays = [\"mon\", \"funday\"]\n", "p.toml:2:"},
		{"bad time", "[[rule]]\nfrom = \"8:00\"\nto = \"15:00\"\n", "p.toml:2:"},
		{"time out of range", "[[rule]]\nfrom = \"08:00\"\nto = \"25:00\"\n", "p.toml:3:"},
		{"bad client", "[[rule]]\nclients = [\"10.1.0.0/33\"]\n", "p.toml:2:"},
		{"wrong type", "[[rule]]\nclients = \"10.1.0.0/16\"\n", "p.toml:2:"},
		{"from without to", "[[rule]]\nname = \"a\"\n[[rule]]\nname = \"b\"\nfrom = \"08:00\"\n", `p.toml:3: rule "b": from and to go together`},
		{"from equals to", "[[rule]]\nfrom = \"08:00\"\nto = \"08:00\"\n", "p.toml:1: rule 1: from and to are both 08:00"},
		{"block and allow", "[[rule]]\nblock = [\"games\"]\nallow = [\"GAMES\"]\n", `p.toml:1: rule 1: category "games" is in both`},
		{"empty category", "[[rule]]\nblock = [\"\"]\n", "p.toml:1: rule 1: empty category"},
		{"not toml", "[[rule]\n", "p.toml:1:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParsePolicy("p.toml", strings.NewReader(c.file))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestDecide evaluates the example policy for explicit clients and times.
func TestDecide(t *testing.T) {
	p, err := ParsePolicy("policy.toml", strings.NewReader(examplePolicy))
	if err != nil {
		t.Fatal(err)
	}
	entry := func(l urlfilter.List, cat string) urlfilter.Match {
		return urlfilter.Match{Entry: urlfilter.Entry{List: l, Kind: urlfilter.KindHost, Value: "x.example", Category: cat}}
	}
	school, home := netip.MustParseAddr("10.1.2.3"), netip.MustParseAddr("10.2.0.1")
	// 2025-03-03 is a Monday, 2025-03-07 a Friday.
	at := func(day, hh, mm int) time.Time { return time.Date(2025, 3, day, hh, mm, 0, 0, time.UTC) }
	for _, c := range []struct {
		name   string
		client netip.Addr
		t      time.Time
		m      urlfilter.Match
		unk    Action
		want   Action
		rule   string
	}{
		{"black games allowed by [categories]", home, at(3, 9, 0), entry(urlfilter.Black, "games"), Allow, Allow, ""},
		{"black games blocked at school", school, at(3, 9, 0), entry(urlfilter.Black, "Games"), Allow, Block, "school hours"},
		{"school rule starts at from", school, at(3, 8, 0), entry(urlfilter.Black, "games"), Allow, Block, "school hours"},
		{"school rule ends before to", school, at(3, 15, 0), entry(urlfilter.Black, "games"), Allow, Allow, ""},
		{"school rule not on sunday", school, at(2, 9, 0), entry(urlfilter.Black, "games"), Allow, Allow, ""},
		{"single address client", netip.MustParseAddr("192.168.5.7"), at(3, 9, 0), entry(urlfilter.Black, "games"), Allow, Block, "school hours"},
		{"ipv4-mapped client", netip.MustParseAddr("::ffff:10.1.2.3"), at(3, 9, 0), entry(urlfilter.Black, "games"), Allow, Block, "school hours"},
		{"black without category blocks", home, at(3, 9, 0), entry(urlfilter.Black, ""), Allow, Block, ""},
		{"black other category blocks", home, at(3, 9, 0), entry(urlfilter.Black, "gambling"), Allow, Block, ""},
		{"black news blocks", home, at(3, 9, 0), entry(urlfilter.Black, "news"), Allow, Block, ""},
		{"rule allows black social at school", school, at(3, 9, 0), entry(urlfilter.Black, "social"), Allow, Allow, "school hours"},
		{"white passes", school, at(3, 9, 0), entry(urlfilter.White, "news"), Block, Allow, ""},
		{"white games blocked by rule", school, at(3, 9, 0), entry(urlfilter.White, "games"), Allow, Block, "school hours"},
		{"white social: first naming rule allows", school, at(7, 23, 0), entry(urlfilter.White, "social"), Allow, Block, "nights"},
		{"white social at school on friday", school, at(7, 9, 0), entry(urlfilter.White, "social"), Allow, Allow, ""},
		{"night rule friday late", home, at(7, 23, 30), entry(urlfilter.White, "games"), Allow, Block, "nights"},
		{"night rule saturday early", home, at(8, 5, 59), entry(urlfilter.White, "games"), Allow, Block, "nights"},
		{"night rule ends at 06:00", home, at(8, 6, 0), entry(urlfilter.White, "games"), Allow, Allow, ""},
		{"night rule not friday early", home, at(7, 5, 0), entry(urlfilter.White, "games"), Allow, Allow, ""},
		{"night rule not thursday late", home, at(6, 23, 0), entry(urlfilter.White, "games"), Allow, Allow, ""},
		{"unknown at school blocked", school, at(3, 9, 0), urlfilter.Match{}, Allow, Block, "school hours"},
		{"unknown by policy default", home, at(3, 9, 0), urlfilter.Match{}, Block, Allow, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, rule := p.Decide(c.client, c.t, c.m, c.unk)
			if a != c.want || rule != c.rule {
				t.Errorf("Decide = %v %q, want %v %q", a, rule, c.want, c.rule)
			}
		})
	}
}

// TestDecideNil: no policy is the plain lists.
func TestDecideNil(t *testing.T) {
	var p *Policy
	now, c := time.Now(), netip.MustParseAddr("127.0.0.1")
	for _, x := range []struct {
		l    urlfilter.List
		unk  Action
		want Action
	}{{urlfilter.Black, Allow, Block}, {urlfilter.White, Block, Allow}, {urlfilter.None, Allow, Allow}, {urlfilter.None, Block, Block}} {
		m := urlfilter.Match{Entry: urlfilter.Entry{List: x.l, Category: "games"}}
		if a, _ := p.Decide(c, now, m, x.unk); a != x.want {
			t.Errorf("nil policy, %v, unknown %v: %v, want %v", x.l, x.unk, a, x.want)
		}
	}
}

func TestParseClock(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Clock
		ok   bool
	}{{"00:00", 0, true}, {"08:30", 510, true}, {"23:59", 1439, true}, {"24:00", 1440, true},
		{"24:01", 0, false}, {"8:30", 0, false}, {"08:60", 0, false}, {" 8:30", 0, false}, {"-1:00", 0, false}, {"0830", 0, false}} {
		got, err := ParseClock(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("ParseClock(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestPolicyEndToEnd: a rule for one client address blocks a category
// for it and not for its neighbour, only inside its window, and a later
// SetPolicy or SetUnknown takes effect on the running gateway.
func TestPolicyEndToEnd(t *testing.T) {
	o := newOrigin(t, "127.0.0.1", text("game on"))
	p, err := ParsePolicy("p.toml", strings.NewReader(`
[categories]
games = "allow"
[[rule]]
name = "school hours"
clients = ["127.0.0.2"]
days = ["mon", "tue", "wed", "thu", "fri"]
from = "08:00"
to = "15:00"
block = ["games"]
`))
	if err != nil {
		t.Fatal(err)
	}
	clk := newClock(time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC)) // a Monday
	g, addr := startGateway(t, Config{Policy: p, Now: clk.now}, newFilter(t, "black 127.0.0.1 games"), &recBackend{})
	pupil, teacher := proxyClient(t, addr, "127.0.0.2"), proxyClient(t, addr, "127.0.0.3")
	for _, c := range []struct {
		name   string
		at     time.Time
		client *http.Client
		want   int
	}{
		{"pupil in school hours", time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC), pupil, 403},
		{"teacher in school hours", time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC), teacher, 200},
		{"pupil after school", time.Date(2025, 3, 3, 15, 30, 0, 0, time.UTC), pupil, 200},
		{"pupil on saturday", time.Date(2025, 3, 8, 9, 0, 0, 0, time.UTC), pupil, 200},
		{"pupil at 14:59", time.Date(2025, 3, 7, 14, 59, 0, 0, time.UTC), pupil, 403},
	} {
		clk.set(c.at)
		if status, body := get(t, c.client, o.URL+"/play"); status != c.want {
			t.Errorf("%s: %d %q, want %d", c.name, status, body, c.want)
		}
	}
	if d := g.Recent(5); d[4].Client.String() != "127.0.0.2" || d[4].Rule != "school hours" || d[3].Client.String() != "127.0.0.3" {
		t.Errorf("recent decisions don't name clients and rule: %+v", d)
	}

	clk.set(time.Date(2025, 3, 3, 9, 0, 0, 0, time.UTC))
	g.SetPolicy(nil)
	if status, _ := get(t, teacher, o.URL+"/play"); status != 403 {
		t.Errorf("without the policy games are black: %d, want 403", status)
	}
	unknown := newOrigin(t, "127.0.0.4", text("new"))
	g.SetUnknown(Block)
	if status, _ := get(t, teacher, unknown.URL+"/"); status != 403 {
		t.Errorf("SetUnknown(Block): %d, want 403", status)
	}
	block := Block
	g.SetUnknown(Allow)
	g.SetPolicy(&Policy{Unknown: &block})
	if status, _ := get(t, teacher, unknown.URL+"/"); status != 403 {
		t.Errorf("policy unknown = block: %d, want 403", status)
	}
	g.SetUnknown(Allow)
	if status, _ := get(t, teacher, unknown.URL+"/"); status != 200 {
		t.Errorf("SetUnknown after the policy: %d, want 200", status)
	}
}
