package gateway

import (
	"io"
	"net"
	"strconv"
	"sync"
	"time"
)

// refusal is what a connection beyond MaxConns reads before it is closed.
var refusal = func() string {
	const body = "gateway busy: too many connections, try again\n"
	return "HTTP/1.1 503 Service Unavailable\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n" +
		"Connection: close\r\n" +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body
}()

// refuseLinger is how long a refused connection may take to read the
// answer; maxRefusing bounds how many are being refused at once (beyond
// that they are closed outright).
const (
	refuseLinger = time.Second
	maxRefusing  = 64
)

// limitListener admits at most cap(slots) connections at a time. Unlike
// golang.org/x/net/netutil.LimitListener, which stops accepting and leaves
// new clients hanging in the kernel's backlog, it accepts the extra ones
// and answers them 503, so a person sees why the page did not load.
type limitListener struct {
	net.Listener
	slots    chan struct{}
	refusing chan struct{}
	refused  func()
}

func newLimitListener(ln net.Listener, n int, refused func()) *limitListener {
	return &limitListener{
		Listener: ln,
		slots:    make(chan struct{}, n),
		refusing: make(chan struct{}, maxRefusing),
		refused:  refused,
	}
}

// Accept returns the next connection that fits under the limit.
func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.slots <- struct{}{}:
			return &limitConn{Conn: c, release: func() { <-l.slots }}, nil
		default:
			l.refused()
			l.refuse(c)
		}
	}
}

// refuse answers 503 and closes. It half-closes and drains what the
// client sent before closing, or the kernel would reset the connection
// and the client could lose the answer.
func (l *limitListener) refuse(c net.Conn) {
	select {
	case l.refusing <- struct{}{}:
	default:
		c.Close()
		return
	}
	go func() {
		defer func() { <-l.refusing }()
		defer c.Close()
		c.SetDeadline(time.Now().Add(refuseLinger))
		if _, err := io.WriteString(c, refusal); err != nil {
			return
		}
		if cw, ok := c.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		}
		io.Copy(io.Discard, io.LimitReader(c, 64<<10))
	}()
}

// limitConn gives its slot back once, however often it is closed.
type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

// Close closes the connection and frees its slot.
func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
