package db

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCache keeps the writer's statements prepared across transactions.
// Preparing them afresh for every batch (parsing SQL is most of what a
// small batch costs) made a slow crawl spend more on its batches than on
// its pages. Statements are prepared on the writer's pool outside any
// transaction: SQLite's writer has a single connection, which a
// transaction holds.
type stmtCache struct {
	mu     sync.Mutex
	m      map[string]*sql.Stmt
	writer bool                 // every statement of a batch is in m
	r      map[string]*sql.Stmt // the readers' statements asked for once per page (see readStmt)
}

// prepareWriter prepares every statement a batch may run, once.
func (d *DB) prepareWriter(ctx context.Context) error {
	d.stmts.mu.Lock()
	done := d.stmts.writer
	d.stmts.mu.Unlock()
	if done {
		return nil
	}
	if err := d.prepare(ctx, writerQueries(d.pg)...); err != nil {
		return err
	}
	d.stmts.mu.Lock()
	d.stmts.writer = d.stmts.m != nil
	d.stmts.mu.Unlock()
	return nil
}

// prepare makes sure every query is prepared on the writer. Call it before
// beginning the transaction that will use them.
func (d *DB) prepare(ctx context.Context, queries ...string) error {
	d.stmts.mu.Lock()
	defer d.stmts.mu.Unlock()
	if d.stmts.m == nil {
		d.stmts.m = map[string]*sql.Stmt{}
	}
	for _, q := range queries {
		if _, ok := d.stmts.m[q]; ok {
			continue
		}
		st, err := d.w.PrepareContext(ctx, q)
		if err != nil {
			return wrap(err, "prepare a statement of the writer")
		}
		d.stmts.m[q] = st
	}
	return nil
}

// stmt returns query's prepared statement within tx, preparing it in tx
// alone if prepare was not asked for it.
func (d *DB) stmt(ctx context.Context, tx *sql.Tx, query string) (*sql.Stmt, error) {
	d.stmts.mu.Lock()
	st, ok := d.stmts.m[query]
	d.stmts.mu.Unlock()
	if !ok {
		return tx.PrepareContext(ctx, query)
	}
	return tx.StmtContext(ctx, st), nil
}

// readStmt returns query prepared on the readers' pool, preparing it the
// first time. For the few reads a crawl makes once per page (a stored
// sketch per unchanged page): parsing the SQL was half of their cost.
func (d *DB) readStmt(ctx context.Context, query string) (*sql.Stmt, error) {
	d.stmts.mu.Lock()
	defer d.stmts.mu.Unlock()
	if st, ok := d.stmts.r[query]; ok {
		return st, nil
	}
	st, err := d.r.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if d.stmts.r == nil {
		d.stmts.r = map[string]*sql.Stmt{}
	}
	d.stmts.r[query] = st
	return st, nil
}

// closeStmts closes the cached statements, when the database closes.
func (d *DB) closeStmts() {
	d.stmts.mu.Lock()
	defer d.stmts.mu.Unlock()
	for _, st := range d.stmts.m {
		st.Close()
	}
	for _, st := range d.stmts.r {
		st.Close()
	}
	d.stmts.m, d.stmts.writer, d.stmts.r = nil, false, nil
}
