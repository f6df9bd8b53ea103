package testsite

import (
	"fmt"
	"strings"
)

// The peer benchmark's site (bench/peers/site, a module of its own, which
// cannot import this package) made here too, for the benchmarks of the
// parser, the near-duplicate index and the writer that measure a page of
// that site: the same bytes as the site serves.

// peerWords are the words the peer site's text cycles through.
var peerWords = strings.Fields(`crawler frontier fingerprint breadth depth queue thread politeness
robots sitemap anchor title charset archive harvest index search export page link host`)

// AppendPeerText writes the words of the peer site's page i to b until b
// holds size bytes (the site's pages stop at 3,600 bytes of their HTML).
func AppendPeerText(b *strings.Builder, i, size int) {
	for w := 0; b.Len() < size; w++ {
		b.WriteString(peerWords[(i*7+w*13)%len(peerWords)])
		b.WriteByte(' ')
	}
}

// PeerHTML is page i of the n-page peer site: a title, a heading, about
// 3,600 bytes of text and 10 links, its children in a 10-ary tree (so
// every page is reachable) and pseudo-random pages; about 4 KiB in all.
func PeerHTML(i, n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><title>Page %d</title></head><body><h1>Page %d</h1><p>", i, i)
	AppendPeerText(&b, i, 3600)
	b.WriteString("</p><ul>")
	links := 0
	for c := 10*i + 1; c <= 10*i+10 && c < n; c++ {
		fmt.Fprintf(&b, `<li><a href="/p/%d">page %d</a></li>`, c, c)
		links++
	}
	h := uint64(i)*0x9e3779b97f4a7c15 + 1
	for ; links < 10; links++ {
		h ^= h >> 31
		h *= 0xbf58476d1ce4e5b9
		t := 1 + int(h%uint64(n-1))
		fmt.Fprintf(&b, `<li><a href="/p/%d">page %d</a></li>`, t, t)
	}
	b.WriteString("</ul></body></html>")
	return []byte(b.String())
}
