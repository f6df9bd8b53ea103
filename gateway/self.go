package gateway

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// ReservedHost is the name block pages post reports to. ".invalid" never
// resolves (RFC 2606), so only a browser that sends it through its proxy
// setting, that is through this gateway, reaches it.
const ReservedHost = "trawler-gateway.invalid"

// reportPath is where the report form posts, on ReservedHost or on the
// gateway's own address.
const reportPath = "/report"

// selfAddrs is what counts as the gateway's own address: the listener's
// address, or for a listener on all interfaces, every local address on
// its port.
type selfAddrs struct {
	port uint16
	ips  []netip.Addr
	any  bool
}

func newSelfAddrs(a net.Addr) *selfAddrs {
	ap, err := netip.ParseAddrPort(a.String())
	if err != nil {
		return nil
	}
	s := &selfAddrs{port: ap.Port(), ips: []netip.Addr{ap.Addr().Unmap()}}
	if ap.Addr().IsUnspecified() {
		s.any = true
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, ia := range addrs {
				if p, err := netip.ParsePrefix(ia.String()); err == nil {
					s.ips = append(s.ips, p.Addr().Unmap())
				}
			}
		}
	}
	return s
}

// isSelf reports whether dialling ap would reach this gateway.
func (g *Gateway) isSelf(ap netip.AddrPort) bool {
	s := g.self.Load()
	if s == nil || ap.Port() != s.port {
		return false
	}
	ip := ap.Addr().Unmap()
	if ip.IsUnspecified() { // dialling 0.0.0.0 or :: reaches loopback
		ip = netip.AddrFrom4([4]byte{127, 0, 0, 1})
		if ap.Addr().Is6() && !ap.Addr().Is4In6() {
			ip = netip.IPv6Loopback()
		}
	}
	if s.any && ip.IsLoopback() {
		return true
	}
	return slices.Contains(s.ips, ip)
}

// isInternal reports whether an absolute request target names the
// gateway itself: the reserved host, or its own address. Such requests
// are answered here and never forwarded, so they cannot recurse.
func (g *Gateway) isInternal(u *url.URL) bool {
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == ReservedHost {
		return true
	}
	port := u.Port()
	if port == "" {
		port = "80"
		if strings.EqualFold(u.Scheme, "https") {
			port = "443"
		}
	}
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return false
	}
	if host == "localhost" {
		host = "127.0.0.1"
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && g.isSelf(netip.AddrPortFrom(ip, uint16(n)))
}

// serveInternal answers requests addressed to the gateway itself.
func (g *Gateway) serveInternal(w http.ResponseWriter, r *http.Request, client netip.Addr) {
	if r.URL.Path == reportPath {
		g.serveReport(w, r, client)
		return
	}
	plain(w, http.StatusNotFound, "gateway: this address is the gateway itself; it serves only "+reportPath)
}
