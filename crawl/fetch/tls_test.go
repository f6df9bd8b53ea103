package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestHTTPS(t *testing.T) {
	s := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "secure")
	}))
	t.Cleanup(s.Close)

	t.Run("trusted", func(t *testing.T) {
		f := mustNew(t, Config{})
		f.transport.TLSClientConfig = s.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
		r := mustFetch(t, f, s.URL, false)
		if string(r.Body) != "secure" || r.IP != "127.0.0.1" {
			t.Errorf("body %q IP %q", r.Body, r.IP)
		}
	})
	t.Run("unknown authority", func(t *testing.T) {
		_, err := mustNew(t, Config{}).Fetch(context.Background(), s.URL, false)
		wantKind(t, err, KindConnect)
	})
}

// A server that accepts TCP but never answers the TLS handshake: the
// handshake is part of connecting, so ConnectTimeout ends it.
func TestTLSHandshakeTimeout(t *testing.T) {
	addr := silentListener(t)
	f := mustNew(t, Config{ConnectTimeout: 300 * time.Millisecond, Timeout: 30 * time.Second})
	_, err := f.Fetch(context.Background(), "https://"+addr+"/", false)
	wantKind(t, err, KindConnect)
}
