package db

import "testing"

func TestRebind(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"SELECT ? , ?", "SELECT $1 , $2"},
		{"WHERE a = ?1 AND b = ?2 OR c = ?1", "WHERE a = $1 AND b = $2 OR c = $1"},
		{"SELECT '?', \"a?\", ?", "SELECT '?', \"a?\", $1"},
		{"SELECT 'it''s ?' , ?", "SELECT 'it''s ?' , $1"},
		{"-- a comment?\nSELECT ?", "-- a comment?\nSELECT $1"},
		{"SELECT a - ? FROM t", "SELECT a - $1 FROM t"},
		{"SELECT ?12", "SELECT $12"},
		{"SET a = ?1, b = ?3 WHERE c IN (SELECT ?)", "SET a = $1, b = $3 WHERE c IN (SELECT $4)"},
	} {
		if got := rebind(c.in); got != c.want {
			t.Errorf("rebind(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPgText(t *testing.T) {
	if got := pgText("a\x00b\xffc"); got != "ab\uFFFDc" {
		t.Errorf("pgText = %q", got)
	}
}
