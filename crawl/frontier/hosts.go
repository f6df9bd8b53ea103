package frontier

import "time"

// Hosts returns per-host figures for a live view of the queues.
func (f *Frontier[T]) Hosts() []HostStat {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]HostStat, 0, len(f.hosts))
	for _, h := range f.hosts {
		s := HostStat{Host: h.name, NotBefore: h.notBefore, Busy: h.busy}
		for _, q := range h.queues {
			s.Waiting += q.n
		}
		out = append(out, s)
	}
	return out
}

// HostStat is one host's share of the frontier.
type HostStat struct {
	Host      string
	Waiting   int       // URLs waiting in the host's queues
	Busy      int       // queues in workers' hands
	NotBefore time.Time // next request allowed at
}
