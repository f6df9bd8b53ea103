package profile

import (
	"errors"
	"fmt"
	"net"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/secret"
)

const passwordReason = "passwords are never kept in profiles: trawler asks for them, or recalls them from the keychain when told to remember them"

// decodeError turns go-toml's refusal of doc into an *Error with line and
// key.
func decodeError(err error, doc []byte) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		e := strict.Errors[0]
		line, _ := e.Position()
		key := strings.Join(e.Key(), ".")
		reason := "unknown key" + suggest(e.Key()[len(e.Key())-1])
		if last := e.Key()[len(e.Key())-1]; strings.Contains(strings.ToLower(last), "password") {
			reason = passwordReason
		}
		return &Error{Line: line, Key: key, Reason: reason}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, _ := de.Position()
		key := strings.Join(de.Key(), ".")
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if m := wrongType.FindStringSubmatch(msg); m != nil && key != "" {
			return &Error{Line: line, Key: key, Reason: "want " + want(de.Key()) + ", got a TOML " + m[1]}
		}
		if key == "" {
			return &Error{Line: line, Reason: "not valid TOML: " + msg}
		}
		return &Error{Line: line, Key: key, Reason: msg}
	}
	// A duration or size that is not a string comes back without a position.
	var first *Error
	l := positions(doc)
	for key, kind := range l.kinds {
		f, ok := fieldOf(key)
		bad := ok && (f.Type == durationType && kind != unstable.String ||
			f.Type == reflect.TypeFor[size]() && kind != unstable.String && kind != unstable.Integer)
		if bad && (first == nil || l.keys[key] < first.Line) {
			first = &Error{Line: l.keys[key], Key: key, Reason: "want " + want([]string{key}) + ", got a TOML " + strings.ToLower(kind.String())}
		}
	}
	if first != nil {
		return first
	}
	return fmt.Errorf("read profile: %w", err)
}

var wrongType = regexp.MustCompile(`^cannot decode TOML (\w+) into`)

// want describes the value a key takes, for "want …, got …".
func want(key []string) string {
	f, ok := fieldOf(key[0])
	if !ok {
		return "another type"
	}
	if len(key) > 1 {
		return "a string"
	}
	switch f.Type {
	case durationType:
		return `a duration like "500ms"`
	case reflect.TypeFor[size]():
		return `a size like "10MB" or a whole number of bytes`
	case authType:
		return "[[auth]] tables with host and user"
	}
	switch f.Type.Kind() {
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list of strings"
	}
	return f.Type.String()
}

// suggest names the known key closest to an unknown one, if any is close.
func suggest(unknown string) string {
	best, bestD := "", 3
	for _, k := range Keys() {
		if d := distance(unknown, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return " (the keys are the long flags of trawler crawl)"
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// lines records where each key of a profile is: top-level keys by name,
// and the header line of each [[auth]] table in order; and the kind of value
// each top-level key has.
type lines struct {
	keys  map[string]int
	auth  []int
	kinds map[string]unstable.Kind
}

// positions finds the lines of the keys of doc, which must be valid TOML.
func positions(doc []byte) lines {
	l := lines{keys: map[string]int{}, kinds: map[string]unstable.Kind{}}
	var p unstable.Parser
	p.Reset(doc)
	table := ""
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = keyName(e.Key())
			line := keyLine(&p, e.Key())
			if _, ok := l.keys[table]; !ok {
				l.keys[table] = line
			}
			if e.Kind == unstable.ArrayTable && table == "auth" {
				l.auth = append(l.auth, line)
			}
		case unstable.KeyValue:
			k := keyName(e.Key())
			if table != "" {
				k = table + "." + k
			}
			if _, ok := l.keys[k]; !ok {
				l.keys[k] = keyLine(&p, e.Key())
				l.kinds[k] = e.Value().Kind
			}
		}
	}
	return l
}

func keyName(it unstable.Iterator) string {
	var parts []string
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return strings.Join(parts, ".")
}

func keyLine(p *unstable.Parser, it unstable.Iterator) int {
	if it.Next() {
		return p.Shape(it.Node().Raw).Start.Line
	}
	return 0
}

// check refuses the settings a profile got wrong, at the line of their key.
func check(c crawl.Config, l lines) error {
	if line, ok := l.keys["proxy"]; ok {
		if _, _, pw := secret.SplitProxy(c.Proxy); pw != "" {
			return &Error{Line: line, Key: "proxy", Reason: "write the user only (http://user@host:3128): " + passwordReason}
		}
	}
	if line, ok := l.keys["auth"]; ok {
		for i, a := range c.Auth {
			if i < len(l.auth) {
				line = l.auth[i]
			}
			if reason := checkAuth(a); reason != "" {
				return &Error{Line: line, Key: "auth", Reason: reason}
			}
		}
	}
	if line, ok := l.keys["threads"]; ok && c.Threads < 1 {
		return &Error{Line: line, Key: "threads", Reason: fmt.Sprintf("must be between 1 and %d, got %d", crawl.MaxThreads, c.Threads)}
	}
	v := c
	if len(v.Seeds) == 0 {
		v.Seeds = []string{"http://localhost/"} // a profile need not name seeds
	}
	err := v.Validate()
	var se *crawl.SettingError
	if errors.As(err, &se) {
		return &Error{Line: l.keys[se.Setting], Key: se.Setting, Reason: se.Reason}
	}
	return err
}

// checkAuth says what is wrong with an auth entry, or "".
func checkAuth(a crawl.HostAuth) string {
	if a.Host == "" || a.User == "" {
		return "each [[auth]] table needs a host and a user"
	}
	if strings.Contains(a.Host, ":") {
		h, port, err := net.SplitHostPort(a.Host)
		n, perr := strconv.Atoi(port)
		if err != nil || h == "" || perr != nil || n < 1 || n > 65535 {
			return fmt.Sprintf("host must be a host name or host:port, got %q", a.Host)
		}
	}
	return ""
}
