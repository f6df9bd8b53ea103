package urlnorm

import (
	"net/url"
	"testing"

	"github.com/trawler/trawler/crawl/cputime"
)

// BenchmarkResolve resolves a typical relative href against its page.
func BenchmarkResolve(b *testing.B) {
	base, err := url.Parse("https://www.example.com/news/2024/05/article.html?page=2")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := cputime.Since()
	for b.Loop() {
		if _, err := Resolve(base, "../images/photo.jpg?size=large"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpu().Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkNormalize normalizes a URL that needs work and one that is
// already canonical (the common case for seeds and redirects).
func BenchmarkNormalize(b *testing.B) {
	for _, bc := range []struct{ name, in string }{
		{"messy", "HTTP://WWW.Example.com:80/a/./b/../c/%7euser?q=a%2fb#frag"},
		{"canonical", "https://www.example.com/news/2024/05/article.html?page=2"},
		{"idn", "http://Bücher.example/straße"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cputime.Since()
			for b.Loop() {
				if _, err := Normalize(bc.in); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpu().Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
