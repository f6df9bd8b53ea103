package gateway

import (
	"context"
	"log/slog"
	"sync"
	"time"
)

// enqueueTimeout bounds one Backend.Enqueue call, so a stuck backend
// costs dropped URLs, never a stuck worker.
const enqueueTimeout = 5 * time.Second

// queue hands unknown URLs to Backend.Enqueue from one goroutine. A URL
// already waiting is not queued twice: a page many people open at once is
// one crawl request, not hundreds.
type queue struct {
	ch chan string

	mu      sync.Mutex
	pending map[string]struct{}
}

func newQueue(n int) *queue {
	return &queue{ch: make(chan string, n), pending: make(map[string]struct{})}
}

// push offers a URL without ever waiting; it reports false when the queue
// is full.
func (q *queue) push(rawURL string) (queued bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, ok := q.pending[rawURL]; ok {
		return true
	}
	select {
	case q.ch <- rawURL:
		q.pending[rawURL] = struct{}{}
		return true
	default:
		return false
	}
}

func (q *queue) done(rawURL string) {
	q.mu.Lock()
	delete(q.pending, rawURL)
	q.mu.Unlock()
}

// enqueue offers an unknown URL to the crawl; full means dropped and
// counted.
func (g *Gateway) enqueue(rawURL string) {
	if !g.queue.push(rawURL) {
		g.count.enqueueDropped.Add(1)
	}
}

// runQueue feeds Backend.Enqueue until ctx ends; URLs still waiting then
// are dropped and counted.
func (g *Gateway) runQueue(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			for {
				select {
				case u := <-g.queue.ch:
					g.queue.done(u)
					g.count.enqueueDropped.Add(1)
				default:
					return
				}
			}
		case u := <-g.queue.ch:
			g.queue.done(u)
			cctx, cancel := context.WithTimeout(ctx, enqueueTimeout)
			err := g.backend.Enqueue(cctx, u)
			cancel()
			if err != nil {
				g.count.enqueueDropped.Add(1)
				g.cfg.Logger.Warn("gateway: enqueue failed", slog.String("url", u), slog.Any("err", err))
				continue
			}
			g.count.enqueued.Add(1)
		}
	}
}
