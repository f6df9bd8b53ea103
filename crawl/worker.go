package crawl

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/trawler/trawler/crawl/fetch"
	"github.com/trawler/trawler/crawl/frontier"
	"github.com/trawler/trawler/crawl/parse"
	"github.com/trawler/trawler/crawl/rabin"
	"github.com/trawler/trawler/crawl/urlnorm"
)

// work is one worker of the thread pool: it takes a queue from the pool,
// fetches a small batch of its URLs and hands the queue back.
func (e *Engine) work(ctx, retire context.Context) {
	for e.waitIfPaused(retire) { // retire ends with ctx, or sooner
		lease, err := e.front.Next(retire)
		if err != nil {
			return
		}
		e.inHand.Add(int64(len(lease.Entries)))
		var digesting sync.WaitGroup
		var batch []*fetched
		for i, ent := range lease.Entries {
			if !e.waitIfPaused(retire) || !e.reserve() {
				rest := lease.Entries[i:]
				e.inHand.Add(-int64(len(rest)))
				if ctx.Err() == nil && !e.isStopping() && retire.Err() != nil {
					e.front.Push(rest, itemHost) // a retired worker hands its batch on
					break
				}
				// The rest stay leased in the store; Release hands them back.
				e.parked.Add(int64(len(rest)))
				break
			}
			it := ent.Value
			it.Depth = ent.Depth
			e.processing.Add(1)
			e.inHand.Add(-1)
			f, r, out := e.visit(ctx, it)
			switch out {
			case visited:
				if f != nil {
					digesting.Add(1)
					f.done = &digesting
					batch = append(batch, f)
					e.digests <- f // digested while this worker fetches the next URL of its batch
				} else {
					e.results <- r
				}
			case requeued:
				e.processing.Add(-1)
				e.reserved.Add(-1)
				e.front.Push([]frontier.Entry[Item]{ent}, itemHost)
			case cancelled:
				e.processing.Add(-1)
				e.reserved.Add(-1)
				e.parked.Add(1)
			}
		}
		// The batch's pages are settled in the order they were fetched,
		// and join the frontier's choice of the next batch, as when a
		// worker digested each page itself.
		digesting.Wait()
		for _, f := range batch {
			e.results <- e.settle(f)
		}
		e.front.Return(lease)
	}
}

// result is what a worker hands the writer for one fetched URL, or what a
// sitemap reader found (page nil).
type result struct {
	page  *Page
	items []Item // new URLs the page led to
	held  []bool // which of them the frontier holds
	lower []Item // known URLs met again, maybe at a smaller depth
	skips []Skip // URLs found and not fetched
}

// outcome says what became of a URL a worker took.
type outcome int

const (
	visited   outcome = iota // fetched (or refused by robots.txt): a result to store
	requeued                 // its host must wait: back to the frontier
	cancelled                // the crawl is ending: it stays waiting in the store
)

// visit fetches one URL. A fetched answer comes back as f, to be digested;
// a URL refused by robots.txt as a result at once.
func (e *Engine) visit(ctx context.Context, it Item) (f *fetched, r result, out outcome) {
	_, hostport := splitHost(it.URL)
	p := &Page{
		URL: it.URL, FP: it.FP, Host: hostport, Depth: it.Depth, Parent: it.Parent,
		Resource: it.Resource, FetchedAt: time.Now().UTC(), ContentLength: -1,
	}
	switch e.gate(ctx, it, hostport) {
	case later:
		if ctx.Err() != nil || e.isStopping() {
			return nil, result{}, cancelled
		}
		return nil, result{}, requeued
	case blocked:
		e.reserved.Add(-1) // no fetch is made: the page cap has room for another URL
		return nil, result{skips: []Skip{{URL: it.URL, FP: it.FP, Depth: it.Depth, Parent: it.Parent,
			Resource: it.Resource, Reason: SkipRobots, Claimed: true}}}, visited
	}
	if e.polite.limiter != nil {
		if err := e.polite.limiter.Wait(ctx); err != nil {
			return nil, result{}, cancelled
		}
		p.FetchedAt = time.Now().UTC()
	}
	resp, err := e.fetcher.FetchWith(ctx, it.URL, it.Resource, conditional(it.Validators))
	p.Duration = time.Since(p.FetchedAt)
	if err != nil {
		if ctx.Err() != nil {
			return nil, result{}, cancelled
		}
		p.Err = err.Error()
	}
	if e.backoff(it, hostport, resp) {
		return nil, result{}, requeued
	}
	if resp != nil {
		fillResponse(p, resp)
		e.bytes.Add(resp.Length)
	}
	if p.FinalURL == "" {
		p.FinalURL = it.URL
	}
	if !e.cfg.StoreIP {
		p.IP = ""
	}
	if p.Failed() {
		e.countHostError(hostport)
	}
	if e.logger.Enabled(ctx, LevelFetch) {
		e.logger.Log(ctx, LevelFetch, "fetched", "url", p.URL, "status", p.Status, "bytes", p.Length,
			"ms", p.Duration.Milliseconds(), "err", p.Err)
	}
	f = &fetched{it: it, p: p, resp: resp}
	if e.near != nil && !it.Resource && p.Err == "" && p.Status == http.StatusNotModified {
		f.stored = e.storedSketch(ctx, p) // read here: digesters never wait for the store
	}
	return f, result{}, visited
}

func isRedirect(status int) bool {
	switch status {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return true
	}
	return false
}

// redirect reads the Location of a 3xx answer into the page: its target
// becomes the page's one link, or a skipped URL when it cannot be crawled.
// Redirects are not followed inside the fetch, so every URL of a chain
// has a row with its own status, as SEO tools show them.
func (e *Engine) redirect(p *Page, r *fetch.Response) ([]Link, []Skip) {
	loc := strings.TrimSpace(r.Header.Get("Location"))
	if loc == "" {
		p.Err = "redirect without Location"
		return nil, nil
	}
	p.RedirectTo = loc
	base, err := url.Parse(p.URL)
	if err != nil {
		p.Err = "bad redirect: " + err.Error()
		return nil, nil
	}
	target, err := e.norm.Resolve(base, loc)
	if err == nil {
		p.RedirectTo = target
		return []Link{{URL: target, Kind: LinkRedirect}}, nil
	}
	if why := rejectReason(err); why != "" {
		return nil, []Skip{e.skipOf(p, rawTarget(base, loc), p.Depth, why)}
	}
	p.Err = "bad redirect: " + err.Error()
	return nil, nil
}

// conditional returns the headers that ask for a page only if it changed
// since the version the validators identify.
func conditional(v *Validators) http.Header {
	if v == nil {
		return nil
	}
	h := http.Header{}
	if v.ETag != "" {
		h.Set("If-None-Match", v.ETag)
	}
	if !v.LastModified.IsZero() {
		h.Set("If-Modified-Since", v.LastModified.UTC().Format(http.TimeFormat))
	}
	return h
}

// fillResponse copies what the response told about the resource.
func fillResponse(p *Page, r *fetch.Response) {
	p.Status = r.Status
	p.FinalURL = r.URL
	p.IP = r.IP
	p.ContentType = r.ContentType
	p.Charset = r.Charset
	p.ContentEncoding = r.ContentEncoding
	p.ContentLength = r.ContentLength
	p.Length = r.Length
	p.LastModified = r.LastModified
	p.Expires = r.Expires
	p.ETag = r.ETag
	p.Truncated = r.Truncated
}

// describe parses an HTML body or an FTP listing into the page's metadata
// and references. follow is false when the page forbids following its
// links. Links that can never be crawled (another scheme, too long) come
// back as skips, each to be recorded once (settle asks the seen-set).
func (e *Engine) describe(p *Page, r *fetch.Response) (links []Link, skips []Skip, follow bool) {
	follow = true
	noindex := false
	for _, v := range r.Header.Values("X-Robots-Tag") {
		nf, ni := robotsDirectives(v)
		follow = follow && !nf
		noindex = noindex || ni
	}
	for _, en := range r.Listing {
		links = append(links, Link{URL: en.URL, Kind: LinkFTP, Text: en.Name})
	}
	if r.Body == nil || !isHTML(p.ContentType) {
		if r.Body != nil && strings.HasPrefix(p.ContentType, "text/") && !noindex {
			p.Text = parse.NormalizeText(string(r.Body))
			p.ContentFP = contentFP(p.Text)
		}
		return links, nil, follow
	}
	doc, err := parse.HTML(r.Body)
	if err != nil {
		p.Err = "parse HTML: " + err.Error()
		return links, nil, false
	}
	p.Title, p.Description, p.Keywords, p.Author, p.Robots = doc.Title, doc.Description, doc.Keywords, doc.Author, doc.Robots
	follow = follow && !doc.NoFollow
	if !noindex && !doc.NoIndex {
		p.Text = doc.Text
		p.ContentFP = contentFP(parse.NormalizeText(doc.Text))
	}
	base, err := url.Parse(p.FinalURL)
	if err != nil {
		return links, nil, follow
	}
	if doc.Base != "" {
		if b, err := e.norm.Resolve(base, doc.Base); err == nil {
			if bu, err := url.Parse(b); err == nil {
				base = bu
			}
		}
	}
	res := e.norm.Base(base) // the page's scheme and host normalized once, not per link
	links = slices.Grow(links, len(doc.Refs))
	for _, ref := range doc.Refs {
		abs, err := res.Resolve(ref.Href)
		if err == nil {
			links = append(links, Link{URL: abs, Kind: LinkKind(ref.Kind), Text: ref.Text, NoFollow: ref.NoFollow})
			continue
		}
		// javascript:, mailto:, too long: recorded once as skipped; a bad
		// host or unreadable text is not a URL at all.
		if why := rejectReason(err); why != "" && LinkKind(ref.Kind).IsPage() {
			skips = append(skips, e.skipOf(p, rawTarget(base, ref.Href), p.Depth+1, why))
		}
	}
	return links, skips, follow
}

// rejectReason maps a URL normalizer's rejection to a skip reason, ""
// for rejections that are not worth recording.
func rejectReason(err error) SkipReason {
	var rej *urlnorm.Rejection
	if !errors.As(err, &rej) {
		return ""
	}
	switch rej.Reason {
	case urlnorm.ReasonScheme:
		return SkipScheme
	case urlnorm.ReasonTooLong:
		return SkipTooLong
	}
	return ""
}

// maxSkippedURL bounds how much of an uncrawlable URL is stored.
const maxSkippedURL = 4096

// rawTarget is an uncrawlable reference as a user would read it: resolved
// against the page when it can be, and cut to a storable length.
func rawTarget(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	if u, err := base.Parse(ref); err == nil && u.Scheme != "" {
		ref = u.String()
	}
	if len(ref) > maxSkippedURL {
		ref = ref[:maxSkippedURL]
	}
	return ref
}

// skipOf records u, found on page p, as skipped for why.
func (e *Engine) skipOf(p *Page, u string, depth int, why SkipReason) Skip {
	return Skip{URL: u, FP: fingerprint(u), Depth: depth, Parent: p.URL, Resource: p.Resource, Reason: why}
}

func isHTML(ct string) bool { return ct == "text/html" || ct == "application/xhtml+xml" }

// robotsDirectives reads an X-Robots-Tag or meta robots value.
func robotsDirectives(v string) (nofollow, noindex bool) {
	for _, d := range strings.Split(strings.ToLower(v), ",") {
		d = strings.TrimSpace(d)
		if i := strings.LastIndexByte(d, ':'); i >= 0 { // "googlebot: noindex"
			d = strings.TrimSpace(d[i+1:])
		}
		switch d {
		case "nofollow":
			nofollow = true
		case "noindex":
			noindex = true
		case "none":
			nofollow, noindex = true, true
		}
	}
	return nofollow, noindex
}

// contentFP fingerprints normalized body text; empty text has none.
func contentFP(text string) uint64 {
	if text == "" {
		return 0
	}
	return rabin.FingerprintString(text)
}

// fingerprint is a normalized URL's key in the seen-set and the store.
func fingerprint(u string) uint64 { return rabin.FingerprintString(u) }

// discover picks, from a page's links, the URLs that join the crawl: in
// scope, within the depth limit, not seen before. A URL seen before but
// still waiting takes the smaller depth: in the frontier at once, and in the
// store through lower when the URL may be waiting there. New URLs left out
// come back as skips, each recorded once: URL-bound reasons through the
// seen-set, link-bound ones (depth, nofollow) through their own set, so a
// later link may still admit the URL. A redirect's target keeps the
// redirecting URL's depth: a hop is not a link.
func (e *Engine) discover(p *Page, hops int, follow bool) (items, lower []Item, skips []Skip) {
	for _, l := range p.Links {
		page := l.Kind.IsPage()
		if !page && !e.cfg.Resources {
			continue
		}
		depth, resource, nextHops := p.Depth+1, !page, 0
		if l.Kind == LinkRedirect {
			depth, resource, nextHops = p.Depth, p.Resource, hops+1
		}
		fp := fingerprint(l.URL)
		why := SkipReason("")
		switch {
		case page && l.Kind != LinkRedirect && (!follow || l.NoFollow):
			why = SkipNoFollow
		case page && depth > e.cfg.Depth:
			why = SkipDepth
		case nextHops > e.cfg.MaxRedirects:
			why = SkipRedirects
		}
		known := e.seen.Contains(fp)
		if why != "" {
			if !known && e.skipSeen.Add(fp) {
				skips = append(skips, Skip{URL: l.URL, FP: fp, Depth: depth, Parent: p.URL, Resource: resource, Reason: why})
			}
			continue
		}
		if !known {
			if why := e.admissible(l.URL); why != "" {
				if e.seen.Add(fp) {
					skips = append(skips, Skip{URL: l.URL, FP: fp, Depth: depth, Parent: p.URL, Resource: resource, Reason: why})
				}
				continue
			}
			known = !e.seen.Add(fp) // another worker may have added it meanwhile
		}
		if !known {
			if e.skipSeen.Contains(fp) {
				e.skipped.Add(-1) // recorded as skipped by an earlier link; the store revives it
			}
			items = append(items, Item{URL: l.URL, FP: fp, Depth: depth, Parent: p.URL, Resource: resource, Hops: nextHops})
			continue
		}
		if page && !e.front.Lower(fp, depth) && e.spillEver.Load() {
			lower = append(lower, Item{URL: l.URL, FP: fp, Depth: depth, Parent: p.URL})
		}
	}
	return items, lower, skips
}
