package fetch

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

var redirectCodes = []int{301, 302, 303, 307, 308}

// chainServer serves /r/N, which redirects to /r/N-1 (relative and absolute
// Locations alternating, statuses cycling through all five redirect codes),
// and /r/0, a page. /loop/a and /loop/b redirect to each other, /self to
// itself; /nolocation and /mailto are broken redirects.
func chainServer(t *testing.T) string {
	mux := http.NewServeMux()
	mux.HandleFunc("/r/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.PathValue("n"))
		if err != nil {
			http.Error(w, "bad n", 400)
			return
		}
		if n == 0 {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<title>end</title>")
			return
		}
		loc := fmt.Sprintf("/r/%d", n-1)
		if n%2 == 0 {
			loc = "http://" + r.Host + loc
		}
		w.Header().Set("Location", loc)
		w.WriteHeader(redirectCodes[n%len(redirectCodes)])
	})
	mux.HandleFunc("/loop/a", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop/b", 302) })
	mux.HandleFunc("/loop/b", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "a#frag", 301) })
	mux.HandleFunc("/self", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/self", 302) })
	mux.HandleFunc("/nolocation", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(302) })
	mux.HandleFunc("/mailto", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "mailto:a@b.c")
		w.WriteHeader(301)
	})
	return serve(t, mux).URL
}

func TestRedirectChainRecordsEveryHop(t *testing.T) {
	base := chainServer(t)
	f := mustNew(t, Config{})
	r := mustFetch(t, f, base+"/r/15", false)
	if got, want := r.URL, base+"/r/0"; got != want {
		t.Errorf("URL = %s, want %s", got, want)
	}
	if r.Status != 200 || string(r.Body) != "<title>end</title>" {
		t.Errorf("final = %d %q", r.Status, r.Body)
	}
	if len(r.Redirects) != 15 {
		t.Fatalf("%d hops recorded, want 15: %v", len(r.Redirects), r.Redirects)
	}
	for i, h := range r.Redirects {
		n := 15 - i
		want := Hop{URL: fmt.Sprintf("%s/r/%d", base, n), Status: redirectCodes[n%len(redirectCodes)]}
		if h != want {
			t.Errorf("hop %d = %+v, want %+v", i, h, want)
		}
	}
}

func TestRedirectCap(t *testing.T) {
	base := chainServer(t)
	tests := []struct {
		name     string
		max      int
		hops     int
		wantErr  bool
		wantStat int
	}{
		{"six hops, cap five", 5, 6, true, 0},
		{"five hops, cap five", 5, 5, false, 200},
		{"default cap 20, 20 hops", 0, 20, false, 200},
		{"default cap 20, 21 hops", 0, 21, true, 0},
		{"follow none", NoRedirects, 3, false, redirectCodes[3]},
		{"follow none, no redirect", NoRedirects, 0, false, 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := mustNew(t, Config{MaxRedirects: tc.max})
			r, err := f.Fetch(context.Background(), fmt.Sprintf("%s/r/%d", base, tc.hops), false)
			if tc.wantErr {
				wantKind(t, err, KindTooManyRedirects)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != tc.wantStat {
				t.Errorf("status = %d, want %d", r.Status, tc.wantStat)
			}
			if tc.max == NoRedirects {
				if len(r.Redirects) != 0 {
					t.Errorf("hops = %v, want none", r.Redirects)
				}
				if tc.hops > 0 && r.Header.Get("Location") == "" {
					t.Error("redirect returned without its Location")
				}
			}
		})
	}
}

func TestRedirectErrors(t *testing.T) {
	base := chainServer(t)
	f := mustNew(t, Config{})
	tests := []struct {
		path string
		kind Kind
	}{
		{"/loop/a", KindRedirectLoop},
		{"/self", KindRedirectLoop},
		{"/nolocation", KindBadRedirect},
		{"/mailto", KindBadRedirect},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			_, err := f.Fetch(context.Background(), base+tc.path, false)
			fe := wantKind(t, err, tc.kind)
			if !strings.HasPrefix(fe.URL, base) {
				t.Errorf("error URL %q is not on the server", fe.URL)
			}
		})
	}
}

func TestRedirectTarget(t *testing.T) {
	base := mustParse(t, "http://a.com/dir/page?q=1")
	tests := []struct {
		loc, want string
		bad       bool
	}{
		{"other", "http://a.com/dir/other", false},
		{"/root", "http://a.com/root", false},
		{"//b.com/x", "http://b.com/x", false},
		{"https://c.com/y#frag", "https://c.com/y", false},
		{"?q=2", "http://a.com/dir/page?q=2", false},
		{"", "", true},
		{"ftp://a.com/file", "", true},
		{"javascript:alert(1)", "", true},
		{"http://[::1", "", true},
	}
	for _, tc := range tests {
		got, err := redirectTarget(base, tc.loc)
		if tc.bad {
			if err == nil {
				t.Errorf("redirectTarget(%q) = %v, want error", tc.loc, got)
			}
			continue
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("redirectTarget(%q) = %v, %v; want %s", tc.loc, got, err, tc.want)
		}
	}
}
