package parse

import "bytes"

// The tokenizer splits a page into the tokens golang.org/x/net/html's
// Tokenizer returns, with the same boundaries, tag names, attributes and
// text, but without allocating: it reads the page in place and decodes
// text and attribute values only when asked, into buffers the caller
// reuses. (x/net/html's own Tokenizer copies every attribute name twice to
// drop duplicates and every tag name and attribute it returns, which alone
// costs more than this whole package.) tokenizer_test.go checks the two
// agree token by token, and FuzzTokenizer keeps checking.

type tokenType uint8

const (
	errorToken tokenType = iota // end of input
	textToken
	startTagToken
	endTagToken
	selfClosingTagToken
	commentToken
	doctypeToken
)

// span is a range of the input.
type span struct{ start, end int }

// attrSpan is one attribute of a start tag: its name and raw value.
type attrSpan struct{ key, val span }

// tokenizer follows x/net/html's state machine over an in-memory page.
// pos plays the part of its raw.end and eof of its err.
type tokenizer struct {
	in    []byte
	raw   int // start of the current token
	pos   int // end of the bytes read so far
	data  span
	tt    tokenType
	eof   bool
	attrs []attrSpan // attributes of the current start tag, duplicates dropped

	pending attrSpan
	// rawTag names the element whose text the next token is ("script"),
	// as x/net/html's Tokenizer keeps it.
	rawTag     string
	textIsRaw  bool // the current text is not unescaped
	convertNUL bool // NULs in the current text become U+FFFD
	allowCDATA bool
	dupes      []uint64 // hashes of attribute names, for tags with many
}

// reset starts tokenizing page, keeping the buffers of an earlier use.
func (z *tokenizer) reset(page []byte) {
	*z = tokenizer{in: page, attrs: z.attrs[:0], dupes: z.dupes[:0]}
}

// notRawText is x/net/html's NextIsNotRawText: the tree builder calls it
// when the element just started holds markup after all (noscript, or any
// element of foreign content).
func (z *tokenizer) notRawText() { z.rawTag = "" }

func (z *tokenizer) readByte() byte {
	if z.pos >= len(z.in) {
		z.eof = true
		return 0
	}
	c := z.in[z.pos]
	z.pos++
	return c
}

func (z *tokenizer) skipWhiteSpace() {
	if z.eof {
		return
	}
	for z.pos < len(z.in) && isWhitespace(z.in[z.pos]) {
		z.pos++
	}
	if z.pos == len(z.in) {
		z.eof = true
	}
}

// next scans the next token and returns its type.
func (z *tokenizer) next() tokenType {
	z.raw = z.pos
	z.data = span{z.pos, z.pos}
	if z.eof {
		z.tt = errorToken
		return z.tt
	}
	if z.rawTag != "" {
		if z.rawTag == "plaintext" {
			z.pos, z.eof = len(z.in), true
			z.data.end = z.pos
			z.textIsRaw = true
		} else {
			z.readRawOrRCDATA()
		}
		if z.data.end > z.data.start {
			z.tt = textToken
			z.convertNUL = true
			return z.tt
		}
	}
	z.textIsRaw, z.convertNUL = false, false
	z.tt = z.scan()
	return z.tt
}

// scan reads text up to the next tag, comment or doctype, or that token.
func (z *tokenizer) scan() tokenType {
	for {
		c, ok := z.afterLT()
		if !ok {
			break
		}
		var tt tokenType
		switch {
		case isLetter(c):
			tt = startTagToken
		case c == '/':
			tt = endTagToken
		case c == '!' || c == '?':
			tt = commentToken
		default:
			z.pos-- // reconsume c as text
			continue
		}
		// Text read before the tag is a token of its own.
		if x := z.pos - len("<a"); z.raw < x {
			z.pos, z.data.end = x, x
			return textToken
		}
		switch tt {
		case startTagToken:
			return z.readStartTag()
		case endTagToken:
			return z.readEndTag()
		}
		if c == '!' {
			return z.readMarkupDeclaration()
		}
		z.pos--
		z.readUntilCloseAngle()
		return commentToken
	}
	if z.raw < z.pos {
		z.data.end = z.pos
		return textToken
	}
	return errorToken
}

// readEndTag reads "</...". The "</" has been read.
func (z *tokenizer) readEndTag() tokenType {
	c := z.readByte()
	switch {
	case z.eof:
		if z.raw < z.pos {
			z.data.end = z.pos
			return textToken
		}
		return errorToken
	case c == '>':
		return commentToken // "</>" is no token; x/net/html says an empty comment
	case isLetter(c):
		z.readTag(false)
		if z.eof {
			return errorToken
		}
		return endTagToken
	}
	z.pos--
	z.readUntilCloseAngle()
	return commentToken
}

// readStartTag reads a start tag whose "<" and first letter have been read.
func (z *tokenizer) readStartTag() tokenType {
	z.readTag(true)
	if z.eof {
		return errorToken
	}
	z.rawTag = rawTagName(z.in[z.data.start:z.data.end])
	// A "/" before ">" makes it self-closing unless it ends an unquoted
	// attribute value (<p a=/>).
	n := len(z.attrs)
	if z.in[z.pos-2] == '/' && (n == 0 || z.pos-2 != z.attrs[n-1].val.end-1) {
		return selfClosingTagToken
	}
	return startTagToken
}

// rawTagName returns the name of an element whose content the tokenizer
// reads as text, or "".
func rawTagName(name []byte) string {
	if len(name) < 3 || len(name) > 9 {
		return ""
	}
	var s string
	switch lowerASCII(name[0]) {
	case 'i':
		s = "iframe"
	case 'n':
		switch {
		case len(name) == 7:
			s = "noembed"
		case len(name) == 8 && lowerASCII(name[2]) == 'f':
			s = "noframes"
		default:
			s = "noscript"
		}
	case 'p':
		s = "plaintext"
	case 's':
		s = "script"
		if len(name) == 5 {
			s = "style"
		}
	case 't':
		s = "title"
		if len(name) == 8 {
			s = "textarea"
		}
	case 'x':
		s = "xmp"
	}
	if equalLower(name, s) {
		return s
	}
	return ""
}

// readTag reads a tag's name and attributes, keeping the attributes when
// save is set. The "<a" or "</a" has been read.
func (z *tokenizer) readTag(save bool) {
	z.attrs = z.attrs[:0]
	z.dupes = z.dupes[:0]
	z.readTagName()
	if z.skipWhiteSpace(); z.eof {
		return
	}
	for {
		c := z.readByte()
		if z.eof || c == '>' {
			break
		}
		z.pos--
		z.readTagAttrKey()
		z.readTagAttrVal()
		if k := z.pending.key; save && k.start != k.end && !z.seen(k) {
			z.attrs = append(z.attrs, z.pending)
		}
		if z.skipWhiteSpace(); z.eof {
			break
		}
	}
}

// readTagName sets data to the "div" of "<div k=v>"; its first byte has
// been read.
func (z *tokenizer) readTagName() {
	z.data.start = z.pos - 1
	i := z.pos
	for i < len(z.in) && !nameEnd[z.in[i]] {
		i++
	}
	switch {
	case i == len(z.in):
		z.pos, z.eof = i, true
	case z.in[i] == '/' || z.in[i] == '>':
		z.pos = i
	default:
		z.pos = i + 1 // white space is consumed
	}
	z.data.end = i
}

// readTagAttrKey sets pending.key to the "k" of "<div k=v>".
func (z *tokenizer) readTagAttrKey() {
	start := z.pos
	i := start
	for ; i < len(z.in); i++ {
		c := z.in[i]
		if c == '=' && i == start {
			continue // a leading '=' is part of the name
		}
		if c == '=' || nameEnd[c] {
			break
		}
	}
	if i == len(z.in) {
		z.eof = true
	}
	z.pos = i
	z.pending.key = span{start, i}
}

// nameEnd marks the bytes that end a tag or attribute name.
var nameEnd = [256]bool{' ': true, '\n': true, '\r': true, '\t': true, '\f': true, '/': true, '>': true}

// readTagAttrVal sets pending.val to the "v" of "<div k=v>".
func (z *tokenizer) readTagAttrVal() {
	z.pending.val = span{z.pos, z.pos}
	if z.skipWhiteSpace(); z.eof {
		return
	}
	c := z.readByte()
	if z.eof || c == '/' {
		return
	}
	if c != '=' {
		z.pos--
		return
	}
	if z.skipWhiteSpace(); z.eof {
		return
	}
	quote := z.readByte()
	switch {
	case z.eof:
		return
	case quote == '>':
		z.pos--
		return
	case quote == '\'' || quote == '"':
		z.pending.val.start = z.pos
		i := bytes.IndexByte(z.in[z.pos:], quote)
		if i < 0 {
			z.pos, z.eof = len(z.in), true
			z.pending.val.end = z.pos
			return
		}
		z.pending.val.end = z.pos + i
		z.pos += i + 1
		return
	}
	z.pending.val.start = z.pos - 1
	i := z.pos
	for i < len(z.in) && !valueEnd[z.in[i]] {
		i++
	}
	switch {
	case i == len(z.in):
		z.pos, z.eof = i, true
	case z.in[i] == '>':
		z.pos = i
	default:
		z.pos = i + 1 // white space is consumed
	}
	z.pending.val.end = i
}

// valueEnd marks the bytes that end an unquoted attribute value.
var valueEnd = [256]bool{' ': true, '\n': true, '\r': true, '\t': true, '\f': true, '>': true}
