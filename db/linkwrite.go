package db

import (
	"context"

	"github.com/trawler/trawler/crawl"
)

// A page's links are written with its row (insertPage, rewriteRow and
// refreshRow take linksJSON); what the writer does besides is keep the
// index of their targets in step (see linktargets.go).

// addTargets notes the targets of page id, stored from p, for the index.
func (w *pageWriter) addTargets(id int64, p *crawl.Page) {
	if !w.pg && len(p.Links) > 0 {
		w.targets.add(id, targetWords(w.crawl, p.Links))
	}
}

// dropTargets takes page id out of the index of link targets.
func (w *pageWriter) dropTargets(ctx context.Context, id int64) error {
	if w.pg || w.targets.remove(id) {
		return nil
	}
	_, err := w.st.unlink.ExecContext(ctx, id)
	return err
}

// relink brings the index of link targets up to date after page id,
// whose links were stored (their stored form), was rewritten from p with
// links (the new form). On a re-crawl most pages link where they did:
// their index entries stay as they are.
func (w *pageWriter) relink(ctx context.Context, p *crawl.Page, id int64, stored string, links any) error {
	if s, _ := links.(string); s == stored {
		return nil
	}
	if err := w.dropTargets(ctx, id); err != nil {
		return wrap(err, "unindex the links of %s", p.URL)
	}
	w.addTargets(id, p)
	return nil
}
