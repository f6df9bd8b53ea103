package parse

import "bytes"

// This file holds the tokenizer's states for element content read as text
// (script, style, title, ...), comments and "<!" declarations, each as
// x/net/html's Tokenizer has it.

func indexLT(b []byte) int { return bytes.IndexByte(b, '<') }

// afterLT moves past the next '<' and reads the byte after it; false at
// the end of the input, where it leaves the tokenizer.
func (z *tokenizer) afterLT() (byte, bool) {
	i := indexLT(z.in[z.pos:])
	if i < 0 {
		z.pos, z.eof = len(z.in), true
		return 0, false
	}
	z.pos += i + 1
	c := z.readByte()
	return c, !z.eof
}

// readRawOrRCDATA reads up to the "</foo" that ends the rawTag element.
func (z *tokenizer) readRawOrRCDATA() {
	if z.rawTag == "script" {
		z.readScript()
		z.data.end = z.pos
		z.textIsRaw = true
		z.rawTag = ""
		return
	}
	for {
		c, ok := z.afterLT()
		if !ok {
			break
		}
		if c != '/' {
			z.pos--
			continue
		}
		if z.readRawEndTag() || z.eof {
			break
		}
	}
	z.data.end = z.pos
	// Title and textarea content may hold character references.
	z.textIsRaw = z.rawTag != "textarea" && z.rawTag != "title"
	z.rawTag = ""
}

// readRawEndTag tries to read "script>" (the rawTag) after "</"; on success
// it backs up so that the end tag is read next.
func (z *tokenizer) readRawEndTag() bool {
	for i := 0; i < len(z.rawTag); i++ {
		c := z.readByte()
		if z.eof {
			return false
		}
		if c != z.rawTag[i] && c != z.rawTag[i]-('a'-'A') {
			z.pos--
			return false
		}
	}
	c := z.readByte()
	if z.eof {
		return false
	}
	switch c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		z.pos -= 3 + len(z.rawTag)
		return true
	}
	z.pos--
	return false
}

// scriptState is a state of the script data tokenizer.
type scriptState uint8

const (
	scriptData scriptState = iota
	scriptLT
	scriptEscapeStart
	scriptEscapeStartDash
	scriptEscaped
	scriptEscapedDash
	scriptEscapedDashDash
	scriptEscapedLT
	scriptDoubleEscapeStart
	scriptDoubleEscaped
	scriptDoubleEscapedDash
	scriptDoubleEscapedDashDash
	scriptDoubleEscapedLT
)

// readScript reads up to the "</script" that ends a script, following the
// rules for "<!--" and "<script" inside it.
func (z *tokenizer) readScript() {
	s := scriptData
	for {
		if s == scriptData {
			i := indexLT(z.in[z.pos:])
			if i < 0 {
				z.pos, z.eof = len(z.in), true
				return
			}
			z.pos += i + 1
			s = scriptLT
			continue
		}
		if s == scriptDoubleEscapeStart {
			s = z.scriptDoubleEscapeStart()
			continue
		}
		c := z.readByte()
		if z.eof {
			return
		}
		switch s {
		case scriptData:
			if c == '<' {
				s = scriptLT
			}
		case scriptLT:
			switch c {
			case '/':
				if z.readRawEndTag() || z.eof {
					return
				}
				s = scriptData
			case '!':
				s = scriptEscapeStart
			default:
				z.pos--
				s = scriptData
			}
		case scriptEscapeStart, scriptEscapeStartDash:
			if c != '-' {
				z.pos--
				s = scriptData
			} else if s == scriptEscapeStart {
				s = scriptEscapeStartDash
			} else {
				s = scriptEscapedDashDash
			}
		case scriptEscaped, scriptEscapedDash, scriptEscapedDashDash:
			s = z.scriptEscaped(s, c)
		case scriptEscapedLT:
			switch {
			case c == '/':
				if z.readRawEndTag() || z.eof {
					return
				}
				s = scriptEscaped
			case isLetter(c):
				s = scriptDoubleEscapeStart
			default:
				z.pos--
				s = scriptData
			}
		case scriptDoubleEscaped, scriptDoubleEscapedDash, scriptDoubleEscapedDashDash:
			s = z.scriptDoubleEscaped(s, c)
		case scriptDoubleEscapedLT:
			if c != '/' {
				z.pos--
				s = scriptDoubleEscaped
			} else if z.readRawEndTag() {
				z.pos += len("</script>")
				s = scriptEscaped
			} else if z.eof {
				return
			} else {
				s = scriptDoubleEscaped
			}
		}
	}
}

// scriptEscaped is the step from the escaped states on byte c.
func (z *tokenizer) scriptEscaped(s scriptState, c byte) scriptState {
	switch c {
	case '-':
		if s == scriptEscaped {
			return scriptEscapedDash
		}
		return scriptEscapedDashDash
	case '<':
		return scriptEscapedLT
	case '>':
		if s == scriptEscapedDashDash {
			return scriptData
		}
	}
	return scriptEscaped
}

// scriptDoubleEscaped is the step from the double-escaped states on c.
func (z *tokenizer) scriptDoubleEscaped(s scriptState, c byte) scriptState {
	switch c {
	case '-':
		if s == scriptDoubleEscaped {
			return scriptDoubleEscapedDash
		}
		return scriptDoubleEscapedDashDash
	case '<':
		return scriptDoubleEscapedLT
	case '>':
		if s == scriptDoubleEscapedDashDash {
			return scriptData
		}
	}
	return scriptDoubleEscaped
}

// scriptDoubleEscapeStart checks for "<script" inside an escaped script;
// the "<" and the first letter have been read.
func (z *tokenizer) scriptDoubleEscapeStart() scriptState {
	z.pos--
	for i := 0; i < len("script"); i++ {
		c := z.readByte()
		if z.eof {
			return scriptData // unreachable state: readScript stops at eof
		}
		if c != "script"[i] && c != "SCRIPT"[i] {
			z.pos--
			return scriptEscaped
		}
	}
	c := z.readByte()
	if z.eof {
		return scriptData
	}
	switch c {
	case ' ', '\n', '\r', '\t', '\f', '/', '>':
		return scriptDoubleEscaped
	}
	z.pos--
	return scriptEscaped
}

// readComment reads a comment whose "<!--" has been read.
func (z *tokenizer) readComment() {
	z.data.start = z.pos
	defer func() {
		if z.data.end < z.data.start {
			z.data.end = z.data.start // "<!-->"
		}
	}()
	dashes, beginning := 0, true
	for {
		c := z.readByte()
		if z.eof {
			z.data.end = z.abruptCommentEnd()
			return
		}
		switch c {
		case '-':
			dashes++
			continue
		case '>':
			if dashes >= 2 || beginning {
				z.data.end = z.pos - len("-->")
				return
			}
		case '!':
			if dashes >= 2 {
				c = z.readByte()
				if z.eof {
					z.data.end = z.abruptCommentEnd()
					return
				} else if c == '>' {
					z.data.end = z.pos - len("--!>")
					return
				} else if c == '-' {
					dashes, beginning = 1, false
					continue
				}
			}
		}
		dashes, beginning = 0, false
	}
}

// abruptCommentEnd is where the data of a comment cut by the end of the
// page ends: before a trailing "--!", "--" or "-".
func (z *tokenizer) abruptCommentEnd() int {
	raw := z.in[z.raw:z.pos]
	if len(raw) >= len("<!--") {
		raw = raw[len("<!--"):]
		for _, suffix := range [...]string{"--!", "--", "-"} {
			if bytes.HasSuffix(raw, []byte(suffix)) {
				return z.pos - len(suffix)
			}
		}
	}
	return z.pos
}

// readUntilCloseAngle reads up to and including the next ">".
func (z *tokenizer) readUntilCloseAngle() {
	z.data.start = z.pos
	i := bytes.IndexByte(z.in[z.pos:], '>')
	if i < 0 {
		z.pos, z.eof = len(z.in), true
		z.data.end = z.pos
		return
	}
	z.pos += i + 1
	z.data.end = z.pos - 1
}

// readMarkupDeclaration reads a comment, doctype, CDATA section or bogus
// comment whose "<!" has been read.
func (z *tokenizer) readMarkupDeclaration() tokenType {
	z.data.start = z.pos
	var c [2]byte
	for i := range c {
		c[i] = z.readByte()
		if z.eof {
			z.data.end = z.pos
			if i == 1 && c[0] == '>' {
				z.data.end--
			}
			return commentToken
		}
	}
	if c[0] == '-' && c[1] == '-' {
		z.readComment()
		return commentToken
	}
	z.pos -= 2
	if z.readDoctype() {
		return doctypeToken
	}
	if z.allowCDATA && z.readCDATA() {
		z.convertNUL = true
		return textToken
	}
	z.readUntilCloseAngle()
	return commentToken
}

// readDoctype reads "DOCTYPE ...>" (any case) after "<!", or backs up.
func (z *tokenizer) readDoctype() bool {
	if !z.readWord("DOCTYPE", true) {
		return false
	}
	if z.skipWhiteSpace(); z.eof {
		z.data = span{z.pos, z.pos}
		return true
	}
	z.readUntilCloseAngle()
	return true
}

// readCDATA reads "[CDATA[...]]>" after "<!", or backs up.
func (z *tokenizer) readCDATA() bool {
	if !z.readWord("[CDATA[", false) {
		return false
	}
	z.data.start = z.pos
	brackets := 0
	for {
		c := z.readByte()
		if z.eof {
			z.data.end = z.pos
			return true
		}
		switch c {
		case ']':
			brackets++
		case '>':
			if brackets >= 2 {
				z.data.end = z.pos - len("]]>")
				return true
			}
			brackets = 0
		default:
			brackets = 0
		}
	}
}

// readWord reads w (upper case, or any case when fold is set) at data.start;
// if it is not there it backs up to data.start, and an end of input met on
// the way is not kept, so that the bytes are read again as a comment.
func (z *tokenizer) readWord(w string, fold bool) bool {
	for i := 0; i < len(w); i++ {
		c := z.readByte()
		if z.eof {
			z.pos, z.eof = z.data.start, false
			return false
		}
		if c != w[i] && !(fold && c == w[i]+('a'-'A')) {
			z.pos = z.data.start
			return false
		}
	}
	return true
}
