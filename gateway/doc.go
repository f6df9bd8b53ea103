// Package gateway is paper 002's gateway: an HTTP forward proxy that
// checks every URL a person on the local network requests against the
// crawler's black and white lists (package urlfilter) before letting it
// through.
//
// # What is decided by what
//
// A plain http request (absolute-form target, "GET http://host/path") is
// decided by its full URL with Lists.Lookup. An HTTPS request arrives as
// "CONNECT host:port" and is decided by the host alone with
// Lists.LookupHost: the gateway never intercepts TLS, holds no CA and never
// sees the path of an https URL, so path and URL entries cannot block
// https pages, only host entries can. An https URL sent in absolute form
// ("GET https://…", which some clients do) is decided like a plain one.
//
// A black-listed plain request gets 403 and a short page naming the entry
// that matched, with what Backend.Explain says about it (the words that
// decided a verdict and their counts, the score, a snippet, when the page
// was crawled) and a "This is a mistake" form. The form posts to
// http://trawler-gateway.invalid/report, a name that never resolves and so
// reaches the gateway only through the browser's proxy setting; POST
// /report on the gateway's own address does the same. The form is signed
// by the gateway, so only its own block pages can file a report. A
// black-listed CONNECT gets a bare 403: browsers show no proxy page for
// CONNECT anyway. A white-listed request passes.
//
// A URL on neither list is unknown. It is handed to Backend.Enqueue, off
// the request path through a bounded queue, so the crawler decides it
// first; meanwhile it is allowed (Allow, paper 002's "first-time-allow")
// or refused with a page saying it is being checked (Block). For CONNECT
// the enqueued URL is https://host/ (with the port if not 443).
//
// # Policy
//
// A Policy makes the answer depend on who asks and when. For a request
// from client address c at time t (the wall clock of Config.Now, by
// default the machine's local time) whose lookup gave match m:
//
//   - A rule applies when c is in one of its Clients (or it has none), and
//     t is inside its window [From, To) (from == to, or both omitted, is
//     the whole day; to < from runs across midnight) on one of its Days
//     (or it has none). For a window across midnight the part after
//     midnight belongs to the day it began: days = ["fri"], 22:00 to 06:00
//     covers Friday night and Saturday morning, not Friday morning.
//   - Black entry with category k: the first applying rule that names k
//     in block or allow decides; else [categories] k = "allow" passes it;
//     else it is blocked.
//   - White entry with category k: blocked only if the first applying rule
//     that names k names it in block; otherwise it passes. [categories]
//     does not touch white entries.
//   - Unknown URL: the first applying rule that sets unknown decides; else
//     the gateway's default (Config.Unknown, changed by SetUnknown, and by
//     a policy's top-level unknown when that policy is installed: the
//     latest of these wins).
//   - Entries without a category are decided by their list alone. Category
//     names compare without regard to case; within one rule, block is
//     checked before allow (ParsePolicy refuses a category in both).
//
// "First matching rule wins for the fields it sets": a rule that does not
// mention the category (or does not set unknown) is skipped for that
// question, so one rule can block games for a subnet while a later one
// blocks social networks for everyone.
//
// A policy file (ParsePolicy) looks like this; unknown keys and bad values
// are refused with their line:
//
//	unknown = "allow"        # default for URLs on neither list
//	[categories]             # black-list categories passed by default
//	games = "allow"
//	[[rule]]
//	name = "school hours"
//	clients = ["10.1.0.0/16"]  # networks or single addresses
//	days = ["mon","tue","wed","thu","fri"]
//	from = "08:00"
//	to = "15:00"
//	block = ["games"]
//	allow = []
//	unknown = "block"
//
// # Who may use it
//
// Clients on loopback are always served; others only from Config.AllowFrom,
// and everyone else gets 403 before anything else happens. New refuses a
// Listen address beyond loopback without AllowFrom, and Serve refuses such
// a listener: an open proxy lets anyone hide behind this machine. Clients
// on other machines may not reach the gateway's own loopback through it
// (403, checked after name resolution): services bound there are for this
// machine alone. They also get their own connection pool, so a connection
// opened for a local client is never reused for them.
//
// # Forwarding and limits
//
// Allowed requests go through a transport of their own that never reads
// proxy settings from the environment and does not add compression.
// Hop-by-hop headers are removed both ways (Connection and the headers it
// names, Proxy-Connection, Proxy-Authorization, Keep-Alive, TE, Trailer,
// Transfer-Encoding, Upgrade; "TE: trailers" is re-sent for a client that
// asked, as the gateway passes trailers), a Via header is added both ways,
// no X-Forwarded-For is added, and bodies stream both ways without being
// buffered. Protocol upgrades (WebSocket over plain http) are not
// forwarded; browsers tunnel them with CONNECT when using a proxy.
//
// Tunnels answer "200 Connection established" once the target is
// dialled, then copy bytes both ways until either side closes or neither
// has sent anything for IdleTimeout; both ends are then closed.
//
// Malformed requests get 400 and a one-line reason: an origin-form target
// on anything but /report, a scheme other than http or https, a missing
// host, a CONNECT target that is not host:port. Headers beyond
// MaxHeaderBytes get net/http's 431; request lines net/http cannot parse
// get its own 400. Requests for the gateway's own address are answered by
// the gateway and never forwarded; a request that would reach it again
// through a name or another proxy is caught by the dialer (after name
// resolution) or by its own Via marker, and answered 508.
//
// Beyond MaxConns concurrent connections (tunnels included), new
// connections are answered 503 and closed. Request contexts are not tied
// to Serve's context: on shutdown, requests in flight get a grace period.
package gateway
