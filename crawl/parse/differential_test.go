package parse

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl/testsite"
)

// The differential tests compare HTML with the tree-builder version it
// replaced (treeHTML, reference_test.go). They must agree exactly except
// on a page where the parser reports one of the situations the package
// comment lists; there only the fields that situation may change can
// differ, and on pages made without the worst mistakes it must not happen
// at all.

// mayDiffer lists the Document fields each situation may change.
var mayDiffer = map[approx][]string{
	approxAdoption: {"Refs", "Text"},
	approxFoster:   {"Title", "Description", "Keywords", "Author", "Robots", "Base", "Refresh", "Text", "Refs", "NoFollow", "NoIndex"},
}

// compare parses page both ways and reports a difference the situations
// it ran into do not allow. It returns those situations.
func compare(t *testing.T, name string, page []byte) approx {
	t.Helper()
	got, situations := parse(page)
	want, err := treeHTML(page)
	if err != nil {
		t.Fatalf("%s: tree builder: %v", name, err)
	}
	allowed := map[string]bool{}
	for a, fields := range mayDiffer {
		if situations&a != 0 {
			for _, f := range fields {
				allowed[f] = true
			}
		}
	}
	g, w := reflect.ValueOf(*got), reflect.ValueOf(*want)
	for i := range g.NumField() {
		f := g.Type().Field(i).Name
		if !allowed[f] && !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			t.Errorf("%s: %s differs (situations %b)\n got: %+v\nwant: %+v\npage: %.2000q",
				name, f, situations, g.Field(i).Interface(), w.Field(i).Interface(), page)
		}
	}
	return situations
}

// TestDifferentialPages compares on the golden and benchmark pages and on
// every test case of the other tests.
func TestDifferentialPages(t *testing.T) {
	pages, err := filepath.Glob("testdata/*.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if s := compare(t, p, src); s != 0 {
			t.Errorf("%s: situations %b on a golden page", p, s)
		}
	}
	for _, links := range []int{10, 40, 90, 400} {
		if s := compare(t, "benchPage", benchPage(links)); s != 0 {
			t.Errorf("benchPage(%d): situations %b", links, s)
		}
	}
	if s := compare(t, "sitePage", testsite.PeerHTML(7, 5000)); s != 0 {
		t.Errorf("sitePage: situations %b", s)
	}
	for _, c := range tokenizerCases {
		compare(t, "tokenizer case", []byte(c))
	}
	for _, c := range differentialCases {
		compare(t, "case", []byte(c))
	}
}

// TestDifferentialGenerated compares on generated pages: well-formed ones
// and ones with the usual mistakes must come out identical without any
// situation; the wild ones may run into one.
func TestDifferentialGenerated(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 50
	}
	for seed := range uint64(n) {
		if s := compare(t, "clean", genPage(seed, false, false)); s != 0 {
			t.Errorf("clean page %d: situations %b", seed, s)
		}
		if s := compare(t, "sloppy", genPage(seed, true, false)); s != 0 {
			t.Errorf("sloppy page %d: situations %b\n%s", seed, s, genPage(seed, true, false))
		}
		compare(t, "wild", genPage(seed, true, true))
	}
}

// FuzzDifferential compares the two on fuzzed pages.
func FuzzDifferential(f *testing.F) {
	pages, _ := filepath.Glob("testdata/*.html")
	for _, p := range pages {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, c := range append(tokenizerCases, differentialCases...) {
		f.Add([]byte(c))
	}
	for seed := range uint64(20) {
		f.Add(genPage(seed, true, true))
	}
	f.Fuzz(func(t *testing.T, page []byte) {
		compare(t, "fuzz", page)
	})
}

// differentialCases are small pages for the tree-construction corners.
var differentialCases = []string{
	`<p>one<a href=/x>link<p>two`,
	`<a href=1>one<a href=2>two</a>`,
	`<ul><li><a href=1>One<li><a href=2>Two</ul>`,
	`<a href=1>one<p>two<a href=2>three`,
	`<a href=/1><div>text</a></div>after`,
	`<b>bold<p>para</b>after`,
	`<table><tr><td>cell</td>stray<td>x</table>`,
	`<table><a href=/f>f</a><tr><td>c</table>`,
	`<table><tr><td>cell<a href=three.html>Three</td><div>stray</div></tr>`,
	`<p>x<table><tr><td>c</td></tr></table>y`,
	`<!DOCTYPE html><p>x<table><tr><td>c</td></tr></table>y`,
	`<form><div>x</form>y</div>z`,
	`<body background=/a.png><body title=T rel=nofollow>`,
	`<body><body background=/b.png>x`,
	`<p><a href=/x></a><frameset><frame src=/f></frameset>`,
	`<html><head><title>T</title></head><frameset><frame src=a></frameset></html> <a href=/late>x</a>`,
	`<head><noscript><link href=/l><meta name=description content=D><p>x</noscript>`,
	`<noscript><a href=/n>n</a></noscript>`,
	`<svg><title>icon</title><a xlink:href=/s>s</a><script>x</script><foreignObject><a href=/fo>fo</a></foreignObject></svg><title>Page</title>`,
	`<svg><base xlink:href=/svgbase></svg><base href=/html>`,
	`<template><title>T</title><meta name=description content=tpl><a href=/t>t</a></template>`,
	`<select><option>a<a href=/sel>s</a><option>b</select>`,
	`<textarea>` + "\n" + `x</textarea><listing>` + "\n" + `y</listing>`,
	`<pre><!-- c -->` + "\n" + `x</pre>`,
	`x</body></html>y<!-- c -->z`,
	"<p>a\xc3</p>\xa9", "a\xc3</span>\xa9", "<b>a\xe2\x80</b>\x94",
	`<math><mi><a href=/m>m</a></mi><annotation-xml encoding=text/html><a href=/ax>ax</a></annotation-xml></math>`,
	`<svg><desc><title>in desc</title></desc></svg>`,
	`<table><template><tr><meta name=description content=A><td><meta name=description content=B></td></tr></template></table>`,
	`<a href=/x><b><div>y</a>z`,
	`<b><option>x<div>y</b>z`,
	strings.Repeat("<div>", 600) + `<a href=/deep>deep</a>`,
	strings.Repeat("<b>", 600) + `x`,
	`<title>T<p>x<a href=/t>t</a>`,
	`<isindex><image src=/im.png alt=I><nobr>a<nobr>b`,
	`<h1>a<h2>b</h1>c`, `<button>a<button>b`, `<dl><dt>a<dd>b<dt>c`,
	`<ruby>a<rt>b<rp>c</ruby>`, `<hr><br/><wbr>`, `</br>x`, `</p>x`,
	`<object data=/o><a href=/inobj>x</a></object><a href=/after>y</a>`,
	`<table><caption>cap<a href=/c>c</a></caption><col><tr><td>x`,
	`<plaintext><a href=/x>`, `<xmp><a href=/x></xmp>`, `<noembed><a href=/x></noembed>`,
	`<iframe src=/i>inner</iframe>`, `<noframes><a href=/nf>nf</a></noframes>`,
	`<a href=/x>a<table><tr><td>b</td></tr></table>c</a>`,
	`<a href=/x>a<table><a href=/y>b</a></table>c`,
	`<p><a href=/q>one</p><p>two</a>`,
}

// TestSituations checks that the parser reports each situation of the
// package comment on a page that runs into it, and compares there too.
func TestSituations(t *testing.T) {
	tests := []struct {
		name, page string
		want       approx
	}{
		{"link between", `<b><a href=/x>x<div>y</b>z`, approxAdoption},
		{"word boundary closed early", `<b><option>x<listing>y</b>z`, approxAdoption},
		{"form waiting closed early", `<b><form><listing></form>x</b>y`, approxAdoption},
		{"element left open gets content", `<A>0<B><C>0<C>0<C><p>0<A ><p>10`, approxAdoption},
		{"foster parenting into a template",
			`<template><tr><meta name=description content=A><td><meta name=description content=B></td></tr></template>`, approxFoster},
		{"link split, no situation", `<a href=/x>one<div>two<a href=/y>three`, 0},
		{"form closed early around a block, no situation", `<b><form><div></form>x<p>y</b>z`, 0},
		{"foster parenting before a table, no situation", `<table><tr><td>c</td>stray<a href=/s>s</a></table>`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := compare(t, tt.name, []byte(tt.page)); got != tt.want {
				t.Errorf("situations %b, want %b", got, tt.want)
			}
		})
	}
}
