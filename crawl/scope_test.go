package crawl

import "testing"

func TestSplitHost(t *testing.T) {
	tests := []struct{ url, name, hostport string }{
		{"http://a.com/x", "a.com", "a.com:80"},
		{"https://a.com", "a.com", "a.com:443"},
		{"http://a.com:8080/x?y", "a.com", "a.com:8080"},
		{"ftp://files.a.com/pub/", "files.a.com", "files.a.com:21"},
		{"http://[::1]:8080/", "::1", "[::1]:8080"},
		{"http://[::1]/", "::1", "[::1]:80"},
		{"http://127.0.0.1:5/", "127.0.0.1", "127.0.0.1:5"},
		{"nonsense", "", ""},
	}
	for _, tt := range tests {
		name, hp := splitHost(tt.url)
		if name != tt.name || hp != tt.hostport {
			t.Errorf("splitHost(%q) = %q, %q; want %q, %q", tt.url, name, hp, tt.name, tt.hostport)
		}
	}
}

func TestScope(t *testing.T) {
	seeds := []string{"http://www.example.co.uk/", "http://127.0.0.1:8080/"}
	tests := []struct {
		scope   Scope
		include []string
		exclude []string
		url     string
		want    SkipReason
	}{
		{ScopeHost, nil, nil, "https://www.example.co.uk:444/x", ""},
		{ScopeHost, nil, nil, "http://shop.example.co.uk/", SkipScope},
		{ScopeHost, nil, nil, "http://127.0.0.1:9/", ""},
		{ScopeDomain, nil, nil, "http://shop.example.co.uk/", ""},
		{ScopeDomain, nil, nil, "http://other.co.uk/", SkipScope},
		{ScopeDomain, nil, nil, "http://127.0.0.2/", SkipScope},
		{ScopeAny, nil, nil, "http://anything.org/", ""},
		{ScopeAny, nil, []string{`\.pdf$`}, "http://anything.org/a.pdf", SkipExcluded},
		{ScopeAny, []string{`/blog/`}, nil, "http://anything.org/blog/1", ""},
		{ScopeAny, []string{`/blog/`}, nil, "http://anything.org/shop/1", SkipExcluded},
		{ScopeAny, []string{`/blog/`}, []string{`draft`}, "http://anything.org/blog/draft", SkipExcluded},
		{ScopeHost, nil, []string{`draft`}, "http://other.org/draft", SkipScope},
	}
	for _, tt := range tests {
		c := Config{Scope: tt.scope, Include: tt.include, Exclude: tt.exclude}
		if got := newScope(&c, seeds).allows(tt.url); got != tt.want {
			t.Errorf("%s %v %v allows(%q) = %q, want %q", tt.scope, tt.include, tt.exclude, tt.url, got, tt.want)
		}
	}
}
