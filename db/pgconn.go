package db

import (
	"context"
	"database/sql/driver"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/stdlib"
)

// The PostgreSQL store runs the same SQL as the SQLite one wherever the
// two agree, which is most of it. Two differences are bridged here, in a
// thin wrapper around pgx's database/sql driver, so that no call site has
// to know which database it talks to:
//
//   - placeholders: SQLite takes ? and ?N, PostgreSQL $N. A query's ?s are
//     numbered in order and ?N keeps its number (see rebind).
//   - values: SQLite stores Go bools as 0 and 1, and the schema keeps them
//     as integers, so a bool is sent as an integer; text may not hold NUL
//     or invalid UTF-8 in PostgreSQL, so such bytes are dropped or
//     replaced (a page's text never needs them).

// pgConnector hands out wrapped pgx connections.
type pgConnector struct{ inner driver.Connector }

func (c pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &pgConn{conn.(*stdlib.Conn)}, nil
}

func (c pgConnector) Driver() driver.Driver { return c.inner.Driver() }

// pgConn is a pgx connection that reads SQLite's placeholders.
type pgConn struct{ *stdlib.Conn }

func (c *pgConn) Prepare(query string) (driver.Stmt, error) {
	return c.Conn.Prepare(rebind(query))
}

func (c *pgConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.Conn.PrepareContext(ctx, rebind(query))
}

func (c *pgConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, rebind(query), args)
}

func (c *pgConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return c.Conn.QueryContext(ctx, rebind(query), args)
}

// CheckNamedValue turns a value into one the schema's columns take.
func (c *pgConn) CheckNamedValue(nv *driver.NamedValue) error {
	switch v := nv.Value.(type) {
	case bool:
		if v {
			nv.Value = int64(1)
		} else {
			nv.Value = int64(0)
		}
	case string:
		nv.Value = pgText(v)
	case int:
		nv.Value = int64(v)
	}
	return nil
}

// pgText is s without NUL bytes and with invalid UTF-8 replaced: what a
// PostgreSQL text column can hold.
func pgText(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "")
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return s
}

// rebind rewrites SQLite's placeholders as PostgreSQL's: ?N becomes $N,
// and a bare ? takes the number after the largest one so far, as SQLite
// numbers it. Placeholders inside quoted strings,
// quoted names and comments are left alone.
func rebind(q string) string {
	if strings.IndexByte(q, '?') < 0 {
		return q
	}
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch c {
		case '\'', '"':
			j := closing(q, i+1, c)
			b.WriteString(q[i:j])
			i = j - 1
		case '-':
			if i+1 < len(q) && q[i+1] == '-' {
				j := strings.IndexByte(q[i:], '\n')
				if j < 0 {
					j = len(q) - i
				}
				b.WriteString(q[i : i+j])
				i += j - 1
				continue
			}
			b.WriteByte(c)
		case '?':
			j := i + 1
			for j < len(q) && q[j] >= '0' && q[j] <= '9' {
				j++
			}
			b.WriteByte('$')
			if j > i+1 {
				b.WriteString(q[i+1 : j])
				if k, _ := strconv.Atoi(q[i+1 : j]); k > n {
					n = k
				}
				i = j - 1
				continue
			}
			n++
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// closing returns the index just past the quote that closes the one
// before from (a doubled quote does not close), or len(q).
func closing(q string, from int, quote byte) int {
	for i := from; i < len(q); i++ {
		if q[i] == quote {
			if i+1 < len(q) && q[i+1] == quote {
				i++
				continue
			}
			return i + 1
		}
	}
	return len(q)
}
