package fetch

import (
	"context"
	"errors"
	"net"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// fullBacklog returns the address of a loopback listener that never
// accepts and whose accept queue is full. Linux drops further SYNs to such
// a socket, so a connect there hangs: an honest connect timeout without
// leaving loopback.
func fullBacklog(t *testing.T) string {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 0); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(sa.(*syscall.SockaddrInet4).Port))
	for range 8 {
		c, err := net.DialTimeout("tcp", addr, 300*time.Millisecond)
		if err != nil {
			return addr // the queue is full: this dial hung
		}
		t.Cleanup(func() { c.Close() })
	}
	t.Skip("this kernel completes connections beyond the backlog; cannot make a connect hang on loopback")
	return ""
}

func TestConnectTimeout(t *testing.T) {
	addr := fullBacklog(t)
	f := mustNew(t, Config{ConnectTimeout: 500 * time.Millisecond, Timeout: 30 * time.Second})
	for _, scheme := range []string{"http", "ftp"} {
		_, err := f.Fetch(context.Background(), scheme+"://"+addr+"/", false)
		fe := wantKind(t, err, KindConnect)
		var ne net.Error
		if !errors.As(fe, &ne) || !ne.Timeout() {
			t.Errorf("%s: cause %v is not a timeout", scheme, fe.Err)
		}
	}
}
