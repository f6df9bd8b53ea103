package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Kind classifies why a fetch failed, so the crawler can count and show
// failures by cause and decide what to retry.
type Kind int

// The kinds of failure.
const (
	KindOther            Kind = iota // none of the below
	KindBadURL                       // the URL cannot be parsed or has no host
	KindScheme                       // the scheme is not http, https or ftp
	KindDNS                          // the host name did not resolve
	KindConnect                      // no connection: refused, unreachable, connect timeout, TLS or proxy failure
	KindTimeout                      // no complete response within Config.Timeout
	KindCanceled                     // the caller's context was canceled or expired: nothing is known of the URL
	KindTooManyRedirects             // more redirects than Config.MaxRedirects
	KindRedirectLoop                 // a redirect led back to a URL already in the chain
	KindBadRedirect                  // a redirect without a usable Location (missing, unparsable, not http/https)
	KindTooLarge                     // the body is longer than Config.MaxSize
	KindProtocol                     // a malformed response, a broken body or encoding, an FTP failure
)

var kindNames = [...]string{
	KindOther:            "error",
	KindBadURL:           "bad url",
	KindScheme:           "unsupported scheme",
	KindDNS:              "dns",
	KindConnect:          "connect",
	KindTimeout:          "timeout",
	KindCanceled:         "canceled",
	KindTooManyRedirects: "too many redirects",
	KindRedirectLoop:     "redirect loop",
	KindBadRedirect:      "bad redirect",
	KindTooLarge:         "too large",
	KindProtocol:         "protocol",
}

// String names the kind in a few lower-case words.
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Error is a failed fetch: what kind of failure, for which URL, and the
// underlying cause.
type Error struct {
	Kind Kind
	URL  string // the URL being fetched when it failed (a redirect target, perhaps)
	Err  error
}

// Error gives one line for people, such as
// "http://a.com/x: timeout: no complete response within 30s".
func (e *Error) Error() string {
	return e.URL + ": " + e.Kind.String() + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the Kind of a fetch error, KindOther for other errors.
func KindOf(err error) Kind {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Kind
	}
	return KindOther
}

func newError(k Kind, u string, format string, args ...any) *Error {
	return &Error{Kind: k, URL: u, Err: fmt.Errorf(format, args...)}
}

// dnsError and dialError mark failures of the dialer, so classify can tell
// them from failures later in the exchange.
type dnsError struct {
	host string
	err  error
}

func (e *dnsError) Error() string { return "resolve " + e.host + ": " + e.err.Error() }
func (e *dnsError) Unwrap() error { return e.err }

type dialError struct {
	addr string
	err  error
}

func (e *dialError) Error() string { return "connect to " + e.addr + ": " + e.err.Error() }
func (e *dialError) Unwrap() error { return e.err }

// errTooLarge is the cause of KindTooLarge errors.
var errTooLarge = errors.New("body exceeds the size cap")

// classify turns an error from the exchange into an *Error. parent is the
// caller's context, ctx the one bounded by Config.Timeout.
func (f *Fetcher) classify(parent, ctx context.Context, rawURL string, err error) *Error {
	var fe *Error
	if errors.As(err, &fe) {
		return fe
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var (
		de   *dnsError
		dle  *dialError
		cert *tls.CertificateVerificationError
		ua   x509.UnknownAuthorityError
		hn   x509.HostnameError
		ne   net.Error
	)
	switch {
	case parent.Err() != nil:
		return &Error{Kind: KindCanceled, URL: rawURL, Err: err}
	case ctx.Err() != nil:
		return &Error{Kind: KindTimeout, URL: rawURL, Err: fmt.Errorf("no complete response within %v: %w", f.cfg.Timeout, err)}
	case errors.Is(err, errTooLarge):
		return &Error{Kind: KindTooLarge, URL: rawURL, Err: err}
	case errors.As(err, &de):
		return &Error{Kind: KindDNS, URL: rawURL, Err: err}
	case errors.As(err, &dle), errors.As(err, &cert), errors.As(err, &ua), errors.As(err, &hn),
		strings.Contains(err.Error(), "TLS handshake"):
		return &Error{Kind: KindConnect, URL: rawURL, Err: err}
	case errors.As(err, &ne) && ne.Timeout():
		return &Error{Kind: KindTimeout, URL: rawURL, Err: err}
	}
	return &Error{Kind: KindProtocol, URL: rawURL, Err: err}
}
