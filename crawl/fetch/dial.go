package fetch

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"time"
)

// negativeTTL caps how long a failed lookup is remembered: long enough to
// spare the resolver a burst of links to a dead host, short enough that a
// passing failure heals soon.
const negativeTTL = 10 * time.Second

// maxCacheEntries is the cache size at which expired entries are swept.
const maxCacheEntries = 10000

// dialer connects to host:port, resolving names through a TTL cache and
// trying each address in turn, all within the connect timeout.
type dialer struct {
	resolver Resolver
	timeout  time.Duration
	ttl      time.Duration
	now      func() time.Time
	nd       net.Dialer

	mu    sync.Mutex
	cache map[string]*dnsEntry
}

// dnsEntry is one cached lookup; ready is closed once addrs and err are set,
// so concurrent dials of one host share a single lookup.
type dnsEntry struct {
	ready   chan struct{}
	addrs   []net.IPAddr
	err     error
	expires time.Time
}

func newDialer(r Resolver, timeout, ttl time.Duration) *dialer {
	return &dialer{resolver: r, timeout: timeout, ttl: ttl, now: time.Now, cache: make(map[string]*dnsEntry)}
}

// Dial connects without a caller context; it lets dialer serve as a
// golang.org/x/net/proxy forward dialer.
func (d *dialer) Dial(network, addr string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, addr)
}

// DialContext connects to addr ("host:port"). Errors are *dnsError or
// *dialError.
func (d *dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, &dialError{addr, err}
	}
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	var ips []net.IPAddr
	if ip, zone, ok := parseIPZone(host); ok {
		ips = []net.IPAddr{{IP: ip, Zone: zone}}
	} else if ips, err = d.lookup(ctx, host); err != nil {
		return nil, &dnsError{host, err}
	}
	ips = filterFamily(network, ips)
	if len(ips) == 0 {
		return nil, &dnsError{host, errors.New("no address of the wanted family")}
	}
	var first error
	for i, ip := range ips {
		actx, acancel := context.WithDeadline(ctx, d.partialDeadline(ctx, len(ips)-i))
		conn, err := d.nd.DialContext(actx, network, net.JoinHostPort(ip.String(), port))
		acancel()
		if err == nil {
			return conn, nil
		}
		if first == nil {
			first = err
		}
		if ctx.Err() != nil {
			break
		}
	}
	return nil, &dialError{addr, first}
}

// partialDeadline shares the time left among the addresses left to try,
// giving each at least two seconds when there is that much.
func (d *dialer) partialDeadline(ctx context.Context, left int) time.Time {
	deadline, _ := ctx.Deadline()
	now := time.Now()
	remain := deadline.Sub(now)
	share := remain / time.Duration(left)
	if share < 2*time.Second {
		share = min(2*time.Second, remain)
	}
	return now.Add(share)
}

func parseIPZone(host string) (net.IP, string, bool) {
	zone := ""
	for i := 0; i < len(host); i++ {
		if host[i] == '%' {
			host, zone = host[:i], host[i+1:]
			break
		}
	}
	ip := net.ParseIP(host)
	return ip, zone, ip != nil
}

func filterFamily(network string, ips []net.IPAddr) []net.IPAddr {
	if network != "tcp4" && network != "tcp6" {
		return ips
	}
	var out []net.IPAddr
	for _, ip := range ips {
		if (ip.IP.To4() != nil) == (network == "tcp4") {
			out = append(out, ip)
		}
	}
	return out
}

// lookup returns host's addresses from the cache, asking the resolver when
// the entry is missing or stale. Concurrent callers wait for one lookup.
func (d *dialer) lookup(ctx context.Context, host string) ([]net.IPAddr, error) {
	host = strings.ToLower(host)
	d.mu.Lock()
	e, ok := d.cache[host]
	if ok && !d.fresh(e) {
		ok = false
	}
	if !ok {
		if len(d.cache) >= maxCacheEntries {
			d.sweep()
		}
		e = &dnsEntry{ready: make(chan struct{})}
		d.cache[host] = e
		d.mu.Unlock()
		go d.resolve(context.WithoutCancel(ctx), host, e)
	} else {
		d.mu.Unlock()
	}
	select {
	case <-e.ready:
		return e.addrs, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// fresh reports whether e is still being resolved or has not expired.
// d.mu must be held.
func (d *dialer) fresh(e *dnsEntry) bool {
	select {
	case <-e.ready:
		return d.now().Before(e.expires)
	default:
		return true
	}
}

// sweep drops expired entries; d.mu must be held.
func (d *dialer) sweep() {
	for h, e := range d.cache {
		if !d.fresh(e) {
			delete(d.cache, h)
		}
	}
}

// resolve fills e. It runs detached from any one caller, bounded by the
// connect timeout, so a caller giving up does not spoil the shared answer.
func (d *dialer) resolve(ctx context.Context, host string, e *dnsEntry) {
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	addrs, err := d.resolver.LookupIPAddr(ctx, host)
	if err == nil && len(addrs) == 0 {
		err = errors.New("no addresses")
	}
	ttl := d.ttl
	if err != nil {
		ttl = min(ttl, negativeTTL)
	}
	d.mu.Lock()
	e.addrs, e.err, e.expires = addrs, err, d.now().Add(ttl)
	d.mu.Unlock()
	close(e.ready)
}
