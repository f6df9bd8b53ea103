// Package parse extracts what the crawler needs from an HTML page (paper 000
// §2): the title and meta data, the body text and every reference with its
// "extended metadata" (anchor, alt or title text).
//
// The page is read in one pass, without building a tree: a tokenizer that
// splits it exactly as golang.org/x/net/html's does (tokenizer.go) feeds a
// model of the HTML5 tree-construction rules as x/net/html implements them
// with scripting disabled (build*.go, mode_*.go), which reports elements
// and text in the order a walk over x/net/html's tree would meet them
// (walker.go). So the markup inside <noscript> is read as elements, as a
// crawler that runs no scripts should see it; <body> starts where the tree
// builder starts it; an unclosed <a> reopened in the next paragraph is a
// second reference, as in the tree; text misplaced in a table comes before
// the table. The Document is the one the earlier version of this package
// got from x/net/html's tree and goquery, which the tests keep and compare
// against (reference_test.go, differential_test.go). A page nested deeper
// than x/net/html accepts (512 open elements) is read token by token
// instead, as that version did.
//
// The output is that of the tree builder on every page except in the two
// situations below, both on malformed markup. The parser notices when a
// page runs into one (parse reports it; differential_test.go allows those
// fields to differ there and requires equality everywhere else):
//
//   - The adoption agency, which repairs misnested formatting elements
//     (<b>x<div>y</b>, or an unclosed <a> around a block followed by
//     another <a>), moving the block out of the formatting element and
//     wrapping its content in copies of the formatting elements between:
//     when an <a> is among those between; or when an element it closes
//     early is an <a>, <nav>, <noscript>, <body> or <title>, or separates
//     words (a block element, such as <option> or <legend>) while the
//     block does not; or when it leaves open, as x/net/html does when
//     more than three elements lie between, a formatting element that
//     then gets content (which comes before the block in the tree). The
//     elements it closes early are those between the formatting element
//     and the block that are not formatting elements, and elements taken
//     off the stack earlier that were waiting for one of them to close (a
//     <form> closed while a <div> in it was open). The references and the
//     body text may differ. (The common case, the <a> itself being the
//     formatting element, is handled: its text is split where the block
//     began and the copy is a second reference.)
//   - Foster parenting into a <template> (content misplaced in a table in
//     a template; only its <title>, <base> and <meta> count) or straight
//     into <html> (content misplaced in a table part open without a
//     table): that content may come in a different order, so any field
//     may differ.
//
// References are returned as written (trimmed), in document order: the engine
// resolves them against the page URL and Document.Base and normalizes them,
// so javascript:, mailto: and fragment-only hrefs are kept here for it to
// reject. Empty ones are skipped.
package parse

// Kind says which element a reference came from. The values are those of the
// engine's link kinds (crawl.LinkKind), so a Kind converts directly.
type Kind string

// Reference kinds. A, Area, Frame and IFrame lead to pages; the others are
// resources (images, scripts, style sheets, embedded objects).
const (
	A          Kind = "a"          // <a href>
	Area       Kind = "area"       // <area href> of an image map
	Frame      Kind = "frame"      // <frame src>
	IFrame     Kind = "iframe"     // <iframe src>
	Img        Kind = "img"        // <img src>, or the first srcset candidate
	Script     Kind = "script"     // <script src>
	Link       Kind = "link"       // <link href>: style sheets, icons, alternates
	Embed      Kind = "embed"      // <embed src>, <object data>, <audio|video|source src>
	Background Kind = "background" // <body background>
	Applet     Kind = "applet"     // <applet code>, joined to its codebase
)

// Ref is one reference found on a page.
type Ref struct {
	// Href is the attribute value as written, trimmed and not resolved. For
	// an applet with a codebase it is codebase + "/" + code (see Applet).
	Href string `json:"href"`
	Kind Kind   `json:"kind"`
	// Text describes the target: the anchor text of an <a> (or, when that is
	// empty, the alt text of an image inside it), the alt text of an area,
	// img or applet, and otherwise the element's title attribute. White
	// space is collapsed and it is cut to MaxRefText bytes.
	Text string `json:"text,omitempty"`
	// NoFollow is set when the element's rel attribute lists "nofollow".
	// The page-wide meta robots directive is Document.NoFollow.
	NoFollow bool `json:"nofollow,omitempty"`
}

// Document is what a page says about itself and where it points.
type Document struct {
	// Title is the text of the first <title>. Description, Keywords and
	// Author are the first non-empty <meta name=...> of that name (compared
	// case-insensitively); Robots joins the contents of every
	// <meta name=robots> with ", ". All have white space collapsed.
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Keywords    string `json:"keywords,omitempty"`
	Author      string `json:"author,omitempty"`
	Robots      string `json:"robots,omitempty"`
	// Base is the href of the first <base href>, as written; "" if none.
	Base string `json:"base,omitempty"`
	// Refresh is the URL of a <meta http-equiv=refresh> that names one, as
	// written; the engine may treat it like a redirect.
	Refresh string `json:"refresh,omitempty"`
	// Text is the body text (paper 000 §2.2): what lies inside <body> with
	// the tags removed, without the content of nav (menus), script, style, noscript,
	// template, iframe, noembed and noframes, with block elements and <br>
	// separated by a space, in the form NormalizeText returns.
	Text string `json:"text,omitempty"`
	// Refs holds every non-empty reference in document order.
	Refs []Ref `json:"refs,omitempty"`
	// NoFollow and NoIndex are the meta robots directives ("nofollow",
	// "noindex", or "none" for both) from <meta name=robots> or
	// <meta name=trawler>. The X-Robots-Tag header is the engine's concern.
	NoFollow bool `json:"nofollow,omitempty"`
	NoIndex  bool `json:"noindex,omitempty"`
}

// HTML parses a UTF-8 page. It does not fail: every input gives a
// Document (the error is kept for callers written when it could).
func HTML(body []byte) (*Document, error) {
	d, _ := parse(body)
	return d, nil
}
