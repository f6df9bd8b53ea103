package gateway

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"regexp"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// maxPolicyBytes bounds a policy file; real ones are a few kilobytes.
const maxPolicyBytes = 1 << 20

// policyFile is the TOML shape of a Policy. Its value types check
// themselves while decoding, so go-toml reports a bad value with its line.
type policyFile struct {
	Unknown    *Action           `toml:"unknown"`
	Categories map[string]Action `toml:"categories"`
	Rule       []ruleFile        `toml:"rule"`
}

type ruleFile struct {
	Name    string        `toml:"name"`
	Clients []clientText  `toml:"clients"`
	Days    []weekdayText `toml:"days"`
	From    *clockText    `toml:"from"`
	To      *clockText    `toml:"to"`
	Block   []string      `toml:"block"`
	Allow   []string      `toml:"allow"`
	Unknown *Action       `toml:"unknown"`
}

// clientText is a network ("10.1.0.0/16") or one address ("10.1.2.3").
type clientText netip.Prefix

// UnmarshalText reads a network or a single address.
func (c *clientText) UnmarshalText(b []byte) error {
	s := strings.TrimSpace(string(b))
	if !strings.Contains(s, "/") {
		a, err := netip.ParseAddr(s)
		if err != nil {
			return fmt.Errorf("client %q: want an address or a network like 10.1.0.0/16", s)
		}
		*c = clientText(netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
		return nil
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return fmt.Errorf("client %q: want an address or a network like 10.1.0.0/16", s)
	}
	*c = clientText(p.Masked())
	return nil
}

// weekdayText is "mon" … "sun" or the full English name, any case.
type weekdayText time.Weekday

// UnmarshalText reads a day name.
func (d *weekdayText) UnmarshalText(b []byte) error {
	s := strings.ToLower(strings.TrimSpace(string(b)))
	for w := time.Sunday; w <= time.Saturday; w++ {
		full := strings.ToLower(w.String())
		if s == full || s == full[:3] {
			*d = weekdayText(w)
			return nil
		}
	}
	return fmt.Errorf("day %q: want mon, tue, wed, thu, fri, sat or sun", s)
}

type clockText Clock

// UnmarshalText reads HH:MM.
func (c *clockText) UnmarshalText(b []byte) error {
	v, err := ParseClock(strings.TrimSpace(string(b)))
	*c = clockText(v)
	return err
}

// ParsePolicy reads a policy in TOML (see the package doc for an example).
// It refuses unknown keys, wrong types and bad values, naming the file
// (name) and the line: a typo in a filter's rules must not silently open
// it.
func ParsePolicy(name string, r io.Reader) (*Policy, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxPolicyBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading policy %s: %w", name, err)
	}
	if len(data) > maxPolicyBytes {
		return nil, fmt.Errorf("policy %s: larger than %d bytes", name, maxPolicyBytes)
	}
	var f policyFile
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, tomlError(name, err)
	}
	p := &Policy{Unknown: f.Unknown, Categories: map[string]Action{}}
	for k, v := range f.Categories {
		if strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("%s: [categories]: empty category name", name)
		}
		p.Categories[strings.ToLower(k)] = v
	}
	lines := ruleLines(data)
	for i, rf := range f.Rule {
		rule, err := rf.rule()
		if err != nil {
			at := name
			if i < len(lines) {
				at = fmt.Sprintf("%s:%d", name, lines[i])
			}
			if rf.Name != "" {
				return nil, fmt.Errorf("%s: rule %q: %w", at, rf.Name, err)
			}
			return nil, fmt.Errorf("%s: rule %d: %w", at, i+1, err)
		}
		p.Rules = append(p.Rules, rule)
	}
	return p, nil
}

// rule checks what decoding alone cannot: the window and the categories.
func (rf ruleFile) rule() (Rule, error) {
	r := Rule{Name: rf.Name, Unknown: rf.Unknown}
	switch {
	case (rf.From == nil) != (rf.To == nil):
		return r, errors.New("from and to go together (omit both for the whole day)")
	case rf.From != nil && *rf.From == *rf.To:
		return r, fmt.Errorf("from and to are both %s (omit both for the whole day)", Clock(*rf.From))
	case rf.From != nil && Clock(*rf.From) == 24*60:
		return r, errors.New("from is 24:00 (use 00:00)")
	case rf.From != nil:
		r.From, r.To = Clock(*rf.From), Clock(*rf.To)
		if r.To == 24*60 && r.From == 0 {
			r.To = 0 // the whole day, spelt out
		}
	}
	for _, c := range rf.Clients {
		r.Clients = append(r.Clients, netip.Prefix(c))
	}
	for _, d := range rf.Days {
		r.Days = append(r.Days, time.Weekday(d))
	}
	for _, list := range []struct {
		in  []string
		out *[]string
	}{{rf.Block, &r.Block}, {rf.Allow, &r.Allow}} {
		for _, c := range list.in {
			c = strings.ToLower(strings.TrimSpace(c))
			if c == "" {
				return r, errors.New("empty category name")
			}
			*list.out = append(*list.out, c)
		}
	}
	for _, c := range r.Block {
		if hasFold(r.Allow, c) {
			return r, fmt.Errorf("category %q is in both block and allow", c)
		}
	}
	return r, nil
}

// tomlError names the file and line of a decoding error.
func tomlError(name string, err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		msgs := make([]string, len(strict.Errors))
		for i, e := range strict.Errors {
			row, _ := e.Position()
			msgs[i] = fmt.Sprintf("%s:%d: unknown key %q", name, row, strings.Join(e.Key(), "."))
		}
		return fmt.Errorf("%s: %w", strings.Join(msgs, "; "), err)
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return fmt.Errorf("%s:%d:%d: %w", name, row, col, err)
	}
	return fmt.Errorf("policy %s: %w", name, err)
}

var ruleHeader = regexp.MustCompile(`^[ \t]*\[\[[ \t]*rule[ \t]*\]\]`)

// ruleLines gives the line of each [[rule]] header, in order, so errors
// found after decoding can still point at their rule.
func ruleLines(data []byte) []int {
	var lines []int
	for i, l := range bytes.Split(data, []byte("\n")) {
		if ruleHeader.Match(l) {
			lines = append(lines, i+1)
		}
	}
	return lines
}
