package robots

import (
	"errors"
	"fmt"
	"time"
)

// ErrUnavailable means a host's robots.txt could not be read (a 5xx or 429
// answer, a network error or a timeout), so the host cannot be judged yet.
// The error Check returns is an *UnavailableError that unwraps to it.
var ErrUnavailable = errors.New("robots.txt unavailable")

// UnavailableError says which host could not be judged, why, and when to
// try again.
type UnavailableError struct {
	Host    string    // origin, scheme://host:port
	RetryAt time.Time // the next Check after this time fetches robots.txt again
	Status  int       // HTTP status, 0 after a network error
	Err     error     // the network error, nil when the server answered
}

// Error gives one line for people.
func (e *UnavailableError) Error() string {
	why := fmt.Sprintf("status %d", e.Status)
	if e.Err != nil {
		why = e.Err.Error()
	}
	return fmt.Sprintf("%s of %s: %s; retry at %s", ErrUnavailable, e.Host, why, e.RetryAt.Format(time.RFC3339))
}

// Unwrap returns ErrUnavailable and the network error, if any.
func (e *UnavailableError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrUnavailable}
	}
	return []error{ErrUnavailable, e.Err}
}
