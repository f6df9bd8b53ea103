package crawl

import (
	"context"
	"fmt"
	"time"

	"github.com/trawler/trawler/crawl/wordscan"
)

// Paper 002's sensitive-word filter: each stored page is read against the
// crawl's word lists (Config.WordLists) and judged black, white or grey.
// The stored pages are the paper's "file buffer" between the fast crawler
// and the slower analysis: the engine stores a page and goes on, and a
// scorer beside it reads what the store marks pending, so the crawler
// never waits for scoring. `trawler verdicts` runs the same scorer over a
// stored crawl with other lists, fetching nothing.

// ScoreDoc is a stored page waiting for its verdict: its title, text and
// the anchor texts of the links pointing at it.
type ScoreDoc struct {
	PageID  int64
	Mark    int64 // the pending mark it was read under; its verdict counts only if the page was not stored again since
	URL     string
	Title   string
	Text    string
	Anchors []string
}

// Verdict is the judgement of one stored page, with the lists that gave it
// (wordscan.Scanner.Hash).
type Verdict struct {
	PageID int64
	Mark   int64
	Lists  string
	wordscan.Result
}

// VerdictStore is what scoring needs of a store. A Store that implements
// it has the pages of a crawl with word lists scored while it runs.
type VerdictStore interface {
	// PendingVerdicts returns up to n stored pages marked for scoring.
	PendingVerdicts(ctx context.Context, n int) ([]ScoreDoc, error)
	// SaveVerdicts stores verdicts and clears their pages' marks, except
	// for pages stored again after they were read.
	SaveVerdicts(ctx context.Context, v []Verdict) error
}

// ScoreCounts is how many pages a scorer judged, by verdict.
type ScoreCounts struct {
	Black, White, Grey int64
}

// Total is the number of pages judged.
func (c ScoreCounts) Total() int64 { return c.Black + c.White + c.Grey }

func (c *ScoreCounts) add(v wordscan.Verdict) {
	switch v {
	case wordscan.Black:
		c.Black++
	case wordscan.White:
		c.White++
	default:
		c.Grey++
	}
}

// scoreBatch is how many pages a scorer reads at once.
const scoreBatch = 256

// Score judges every page the store marks pending with sc, until none is
// left or ctx ends, and returns how many it judged. Each batch of verdicts
// is stored before the next is read, so an interrupted run loses nothing.
func Score(ctx context.Context, vs VerdictStore, sc *wordscan.Scanner, progress func(ScoreCounts)) (ScoreCounts, error) {
	var c ScoreCounts
	lists := sc.Hash()
	for {
		if err := ctx.Err(); err != nil {
			return c, err
		}
		docs, err := vs.PendingVerdicts(ctx, scoreBatch)
		if err != nil {
			return c, fmt.Errorf("read pages to score: %w", err)
		}
		if len(docs) == 0 {
			return c, nil
		}
		out := make([]Verdict, len(docs))
		for i, d := range docs {
			r := sc.Scan(wordscan.Doc{Title: d.Title, Text: d.Text, Anchors: d.Anchors})
			out[i] = Verdict{PageID: d.PageID, Mark: d.Mark, Lists: lists, Result: r}
			c.add(r.Verdict)
		}
		if err := vs.SaveVerdicts(ctx, out); err != nil {
			return c, fmt.Errorf("store verdicts: %w", err)
		}
		if progress != nil {
			progress(c)
		}
	}
}

// LoadWordLists reads and compiles word-list files; a bad line is a
// SettingError naming the file and line.
func LoadWordLists(paths []string) (*wordscan.Scanner, error) {
	l, err := wordscan.Load(paths...)
	if err != nil {
		return nil, &SettingError{Setting: "word-lists", Reason: err.Error()}
	}
	sc, err := wordscan.Compile(l)
	if err != nil {
		return nil, &SettingError{Setting: "word-lists", Reason: err.Error()}
	}
	return sc, nil
}

// scorer is the engine's scoring stage: it judges pending pages as the
// writer commits them, and once more when the writer is done (unless the
// run was stopped: what is left stays pending for the next run).
func (e *Engine) scorer(ctx context.Context, vs VerdictStore, writerDone <-chan struct{}) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		e.scoreOnce(ctx, vs)
		select {
		case <-e.scoreWake:
		case <-tick.C:
		case <-writerDone:
			if !e.isStopping() && ctx.Err() == nil {
				e.scoreOnce(ctx, vs)
			}
			return
		case <-ctx.Done():
			return
		}
	}
}

func (e *Engine) scoreOnce(ctx context.Context, vs VerdictStore) {
	var last ScoreCounts
	_, err := Score(ctx, vs, e.scanner, func(c ScoreCounts) {
		e.scored.Add(c.Total() - last.Total())
		e.black.Add(c.Black - last.Black)
		last = c
	})
	if err != nil && ctx.Err() == nil {
		e.logger.Error("scoring pages failed; they stay pending", "err", err)
	}
}
