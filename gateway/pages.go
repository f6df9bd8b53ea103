package gateway

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/trawler/trawler/urlfilter"
)

// Limits on what a block page shows and a report carries.
const (
	explainTimeout = 2 * time.Second
	reportTimeout  = 5 * time.Second
	maxTerms       = 20
	maxSnippet     = 300 // runes
	maxComment     = 2000
	maxReportBody  = 16 << 10
)

// pageCSP lets a gateway page style itself and post its form, nothing
// else: the page appears under the blocked site's origin.
const pageCSP = "default-src 'none'; style-src 'unsafe-inline'; form-action http://" + ReservedHost + "; base-uri 'none'; frame-ancestors 'none'"

// plain answers with a status and a one-line text reason.
func plain(w http.ResponseWriter, code int, msg string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	io.WriteString(w, strings.Join(strings.Fields(msg), " ")+"\n")
}

// page renders one of the templates with a status.
func (g *Gateway) page(w http.ResponseWriter, code int, name string, data any) {
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, data); err != nil {
		g.cfg.Logger.Error("gateway: rendering page", slog.String("page", name), slog.Any("err", err))
		plain(w, http.StatusInternalServerError, "gateway: cannot render page")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(buf.Bytes())
}

// blockData is what the block page shows.
type blockData struct {
	URL         string
	Entry       urlfilter.Entry
	Rule        string
	Ex          *Explanation
	ExplainFail bool
	Report      string
	Token       string
}

// blockPage answers a blocked plain request and returns the status sent:
// the "being checked" page for an unknown URL, else the block page with
// the entry, the explanation and the report form.
func (g *Gateway) blockPage(w http.ResponseWriter, r *http.Request, client netip.Addr, target string, m urlfilter.Match, rule string) int {
	if m.List == urlfilter.None {
		g.page(w, http.StatusForbidden, "checking", struct{ URL, Rule string }{target, rule})
		return http.StatusForbidden
	}
	d := blockData{URL: target, Entry: m.Entry, Rule: rule, Report: "http://" + ReservedHost + reportPath,
		Token: g.sign(target, m.Entry)}
	if m.List == urlfilter.Black {
		ctx, cancel := context.WithTimeout(r.Context(), explainTimeout)
		ex, err := g.backend.Explain(ctx, m, target)
		cancel()
		if err != nil {
			d.ExplainFail = true
			g.cfg.Logger.Warn("gateway: explain failed", slog.String("url", target), slog.Any("err", err))
		} else {
			ex.Terms = ex.Terms[:min(len(ex.Terms), maxTerms)]
			ex.Snippet = clip(ex.Snippet, maxSnippet)
			d.Ex = &ex
		}
	}
	g.page(w, http.StatusForbidden, "blocked", d)
	return http.StatusForbidden
}

// sign ties a report form to the page the gateway rendered, so a page
// elsewhere cannot file reports in a person's name or alter the entry.
func (g *Gateway) sign(target string, e urlfilter.Entry) string {
	mac := hmac.New(sha256.New, g.key)
	for _, s := range []string{target, e.List.String(), e.Kind.String(), e.Value, e.Category} {
		mac.Write([]byte(s))
		mac.Write([]byte{0})
	}
	return hex.EncodeToString(mac.Sum(nil)[:16])
}

// serveReport records a "this is a mistake" report from a block page.
func (g *Gateway) serveReport(w http.ResponseWriter, r *http.Request, client netip.Addr) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		plain(w, http.StatusMethodNotAllowed, "gateway: reports are sent with POST from a block page")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxReportBody)
	if err := r.ParseForm(); err != nil {
		plain(w, http.StatusBadRequest, "gateway: bad report form: "+err.Error())
		return
	}
	f := r.PostForm
	e := urlfilter.Entry{Kind: parseKind(f.Get("kind")), Value: f.Get("entry"), Category: f.Get("category")}
	e.List, _ = urlfilter.ParseList(f.Get("list"))
	target := f.Get("url")
	if !hmac.Equal([]byte(g.sign(target, e)), []byte(f.Get("token"))) {
		plain(w, http.StatusBadRequest, "gateway: this report form did not come from this gateway's block page")
		return
	}
	rep := Report{URL: target, Client: client.String(), Entry: e.Value, List: e.List, Kind: e.Kind,
		Category: e.Category, Comment: clip(strings.TrimSpace(f.Get("comment")), maxComment), At: g.cfg.Now()}
	ctx, cancel := context.WithTimeout(r.Context(), reportTimeout)
	defer cancel()
	if err := g.backend.Report(ctx, rep); err != nil {
		g.cfg.Logger.Error("gateway: recording report", slog.String("url", target), slog.Any("err", err))
		plain(w, http.StatusInternalServerError, "gateway: the report could not be recorded; please try again later")
		return
	}
	g.count.reports.Add(1)
	g.page(w, http.StatusOK, "thanks", rep)
}

func parseKind(s string) urlfilter.Kind {
	for _, k := range []urlfilter.Kind{urlfilter.KindURL, urlfilter.KindHost, urlfilter.KindPrefix} {
		if s == k.String() {
			return k
		}
	}
	return 0
}

// clip cuts s to at most n runes, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j] + "…"
		}
		i++
	}
	return s
}

// pages are the gateway's own pages; html/template escapes every value.
var pages = template.Must(template.New("").Parse(`
{{define "head"}}<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>{{.}} — Trawler gateway</title>
<style>body{font:16px/1.5 sans-serif;max-width:42em;margin:2em auto;padding:0 1em;color:#222}
code,.url{word-break:break-all}.url{color:#555}table{border-collapse:collapse}
td,th{padding:.1em .8em .1em 0;text-align:left}blockquote{margin:0;padding:.4em .8em;background:#f3f3f3}
textarea{width:100%;min-height:4em}</style></head><body>{{end}}

{{define "blocked"}}{{template "head" "Blocked"}}
<h1>This page is blocked</h1>
<p class="url">{{.URL}}</p>
<p>It matches the {{.Entry.List}} list entry <code>{{.Entry.Kind}} {{.Entry.Value}}</code>
{{- with .Entry.Category}} (category <b>{{.}}</b>){{end}}.</p>
{{with .Rule}}<p>The rule <b>{{.}}</b> blocks this category for your computer at this time.</p>{{end}}
{{with .Ex}}
<p>{{if eq .Source "verdict"}}The crawler read this page{{with .CrawledAt}}{{if not .IsZero}} on {{.Format "2006-01-02 15:04"}}{{end}}{{end}}
and scored it {{printf "%.2f" .Score}}{{with .Category}} as <b>{{.}}</b>{{end}}.{{else if .Source}}Source: {{.Source}}.{{end}}</p>
{{with .Terms}}<table><tr><th>Word</th><th>Times</th></tr>
{{range .}}<tr><td>{{.Term}}</td><td>{{.Count}}</td></tr>
{{end}}</table>{{end}}
{{with .Snippet}}<blockquote>{{.}}</blockquote>{{end}}
{{with .Note}}<p>Note: {{.}}</p>{{end}}
{{end}}
{{if .ExplainFail}}<p>(Details about this entry are not available right now.)</p>{{end}}
<form method="post" action="{{.Report}}">
<input type="hidden" name="url" value="{{.URL}}">
<input type="hidden" name="list" value="{{.Entry.List}}">
<input type="hidden" name="kind" value="{{.Entry.Kind}}">
<input type="hidden" name="entry" value="{{.Entry.Value}}">
<input type="hidden" name="category" value="{{.Entry.Category}}">
<input type="hidden" name="token" value="{{.Token}}">
<p><label>What is wrong (optional):<br><textarea name="comment" maxlength="2000"></textarea></label></p>
<p><button type="submit">This is a mistake</button></p>
</form></body></html>{{end}}

{{define "checking"}}{{template "head" "Being checked"}}
<h1>This page is being checked</h1>
<p class="url">{{.URL}}</p>
<p>This network has not seen this address before{{with .Rule}} and the rule <b>{{.}}</b> holds such pages back at this time{{end}}.
It has been sent to be checked: please try again shortly.</p></body></html>{{end}}

{{define "thanks"}}{{template "head" "Thank you"}}
<h1>Thank you</h1>
<p>Your report about <span class="url">{{.URL}}</span> was recorded and will be reviewed.</p></body></html>{{end}}
`))
