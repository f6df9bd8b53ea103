package urlnorm

import "strconv"

// Reason classifies why a URL was rejected, so callers can count and skip
// rejections by kind without parsing error text.
type Reason int

// The reasons a URL is not crawlable.
const (
	// ReasonSyntax: the text cannot be read as a URL, or a relative
	// reference has no absolute base to resolve against.
	ReasonSyntax Reason = iota + 1
	// ReasonScheme: the scheme is not http, https or ftp (javascript:,
	// mailto:, tel:, data:, file:, ...).
	ReasonScheme
	// ReasonTooLong: the normalized URL is longer than Options.MaxLength.
	ReasonTooLong
	// ReasonHost: the host is missing or invalid (bad characters, IDNA
	// failure, malformed IP literal) or the port is not a number in 1–65535.
	ReasonHost
	// ReasonEmpty: the reference is empty (after whitespace is stripped);
	// the HTML parser skips such links silently.
	ReasonEmpty
)

// String returns a short lower-case name for the reason, for logs and stats.
func (r Reason) String() string {
	switch r {
	case ReasonSyntax:
		return "syntax"
	case ReasonScheme:
		return "scheme"
	case ReasonTooLong:
		return "too long"
	case ReasonHost:
		return "host"
	case ReasonEmpty:
		return "empty"
	}
	return "Reason(" + strconv.Itoa(int(r)) + ")"
}

// Rejection is the error returned for a URL that is not crawlable. URL is
// the input as given to Normalize, or the ref as given to Resolve.
type Rejection struct {
	URL    string
	Reason Reason
	Detail string
}

// maxQuoted bounds how much of a rejected URL an error message repeats, so a
// megabyte-long link does not end up in a log line.
const maxQuoted = 200

// Error describes the rejection for people: reason, detail and the URL.
func (r *Rejection) Error() string {
	u := r.URL
	if len(u) > maxQuoted {
		u = u[:maxQuoted] + "..."
	}
	return "urlnorm: " + r.Reason.String() + ": " + r.Detail + ": " + strconv.Quote(u)
}

func reject(input string, reason Reason, detail string) error {
	return &Rejection{URL: input, Reason: reason, Detail: detail}
}
