package feed

import (
	"context"
	"strings"
	"time"

	"github.com/trawler/trawler/db"
	"github.com/trawler/trawler/gateway"
	"github.com/trawler/trawler/urlfilter"
)

var _ gateway.Backend = (*Feed)(nil)

// pushAgain is how long a URL pushed to the lane is not pushed again: a
// page's requests for its images come in bursts, and one visit judges it.
const pushAgain = 30 * time.Second

// Enqueue pushes a URL on neither list to the crawl's priority lane (at
// most once per pushAgain), so that the crawl judges it. Without a crawl
// it does nothing.
func (f *Feed) Enqueue(ctx context.Context, rawURL string) error {
	if f.cfg.Crawl == 0 {
		return nil
	}
	now := f.cfg.Now()
	if last, ok := f.pushed.Load(rawURL); ok && now.Sub(last.(time.Time)) < pushAgain {
		return nil
	}
	f.pushed.Store(rawURL, now)
	f.pruneQueue(now)
	_, err := f.d.Prioritize(ctx, f.cfg.Crawl, rawURL)
	return err
}

// pruneQueue forgets pushes older than pushAgain, now and then.
func (f *Feed) pruneQueue(now time.Time) {
	if f.pushes.Add(1)%1024 != 0 {
		return
	}
	f.pushed.Range(func(k, v any) bool {
		if now.Sub(v.(time.Time)) >= pushAgain {
			f.pushed.Delete(k)
		}
		return true
	})
}

// Explain says why an entry is on a list: for a verdict, the words that
// decided it, a snippet and when the page was crawled; for an entry a
// person added, where it came from and their note.
func (f *Feed) Explain(ctx context.Context, m urlfilter.Match, rawURL string) (gateway.Explanation, error) {
	if m.Kind == urlfilter.KindURL && f.cfg.Crawl != 0 && !f.isManual(m.Value) {
		e, ok, err := f.d.ExplainURL(ctx, f.cfg.Crawl, m.Value)
		if err != nil {
			return gateway.Explanation{}, err
		}
		if ok && e.Verdict != "" {
			return verdictExplanation(e), nil
		}
	}
	le, ok, err := f.d.FindListEntry(ctx, m.Kind, m.Value)
	if err != nil || !ok {
		return gateway.Explanation{}, err
	}
	return gateway.Explanation{Source: le.Source, Note: le.Note, Category: le.Category}, nil
}

func (f *Feed) isManual(url string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.manual[url]
}

func verdictExplanation(e db.PageExplanation) gateway.Explanation {
	x := gateway.Explanation{Source: "verdict", Score: e.Score, Category: e.Category, CrawledAt: e.FetchedAt}
	first := ""
	for _, h := range e.Hits {
		x.Terms = append(x.Terms, gateway.TermCount{Term: h.Term, Count: h.Title + h.Text + h.Anchor})
		if first == "" && h.Text > 0 {
			first = h.Term
		}
	}
	x.Snippet = snippet(e.Text, first)
	if x.Snippet == "" {
		x.Snippet = e.Title
	}
	return x
}

// snippetRunes is about how long a block page's snippet is.
const snippetRunes = 200

// snippet returns the text around the first place term occurs (compared
// without case), or the start of the text.
func snippet(text, term string) string {
	at := 0
	if term != "" {
		if i := strings.Index(strings.ToLower(text), strings.ToLower(term)); i >= 0 && len(strings.ToLower(text)) == len(text) {
			at = i
		}
	}
	r := []rune(text[:at])
	start := max(0, len(r)-snippetRunes/3)
	out := []rune(text)[start:]
	cut := len(out) > snippetRunes
	if cut {
		out = out[:snippetRunes]
	}
	s := string(out)
	if start > 0 {
		s = "…" + s
	}
	if cut {
		s += "…"
	}
	return s
}

// Report records a "this is a mistake" for review in the window.
func (f *Feed) Report(ctx context.Context, r gateway.Report) error {
	_, err := f.d.AddReport(ctx, db.MistakeReport{
		URL: r.URL, Client: r.Client, List: r.List.String(), Kind: r.Kind.String(), Entry: r.Entry,
		Category: r.Category, Comment: r.Comment, At: r.At,
	})
	return err
}
