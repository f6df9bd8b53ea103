package db

import "testing"

func TestServerAccount(t *testing.T) {
	tests := []struct {
		url, host, user string
		ok              bool
	}{
		{"postgres://crawler@DB.example:6543/trawler", "postgres://db.example:6543", "crawler", true},
		{"postgresql://crawler@db.example/trawler?sslmode=require", "postgres://db.example:5432", "crawler", true},
		{"postgres://crawler@[::1]/t", "postgres://[::1]:5432", "crawler", true},
		{"postgres://crawler:secret@db.example/t", "", "", false},
		{"postgres://db.example/t", "", "", false},
		{"crawls.db", "", "", false},
	}
	for _, tt := range tests {
		host, user, ok := ServerAccount(tt.url)
		if host != tt.host || user != tt.user || ok != tt.ok {
			t.Errorf("ServerAccount(%q) = %q, %q, %v; want %q, %q, %v", tt.url, host, user, ok, tt.host, tt.user, tt.ok)
		}
	}
}

func TestWithPasswordAndRedact(t *testing.T) {
	u := WithPassword("postgres://crawler@db.example:5432/t?sslmode=disable", "p@ss/word:1")
	if u != "postgres://crawler:p%40ss%2Fword%3A1@db.example:5432/t?sslmode=disable" {
		t.Errorf("WithPassword = %q", u)
	}
	if r := RedactURL(u); r != "postgres://crawler@db.example:5432/t?sslmode=disable" {
		t.Errorf("RedactURL = %q", r)
	}
	if u := WithPassword("postgres://crawler@db/t", ""); u != "postgres://crawler@db/t" {
		t.Errorf("an empty password changed the URL: %q", u)
	}
}
