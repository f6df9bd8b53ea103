package fetch

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"encoding/binary"
	"hash/crc32"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestWholeResponseTimeout(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/drip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(200)
		for range 60 {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(time.Second):
			}
		}
	})
	mux.HandleFunc("/silent", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	mux.HandleFunc("/redirect-to-silent", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/silent", 302)
	})
	base := serve(t, mux).URL
	f := mustNew(t, Config{Timeout: 2 * time.Second})
	for _, path := range []string{"/drip", "/silent", "/redirect-to-silent"} {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			_, err := f.Fetch(context.Background(), base+path, false)
			wantKind(t, err, KindTimeout)
		})
	}
}

func TestCallerCancel(t *testing.T) {
	started := make(chan struct{})
	s := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-r.Context().Done()
	}))
	f := mustNew(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	_, err := f.Fetch(ctx, s.URL, false)
	wantKind(t, err, KindCanceled)
}

func TestBodyCap(t *testing.T) {
	const limit = 1000
	mux := http.NewServeMux()
	// Declares more than the cap and sends it: the first limit bytes are
	// kept, the rest is not read.
	mux.HandleFunc("/declared", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", "2000")
		w.Write(bytes.Repeat([]byte("a"), 2000))
	})
	// Declares more than the cap, sends the cap's worth and then stalls:
	// the fetch must not wait for the rest.
	mux.HandleFunc("/declared-stalls", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", "2000")
		w.Write(bytes.Repeat([]byte("a"), limit+1))
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	mux.HandleFunc("/gzip-over", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		zw.Write(bytes.Repeat([]byte("z"), 3000))
		zw.Close()
	})
	chunked := func(n int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			for sent := 0; sent < n; sent += 100 {
				w.Write(bytes.Repeat([]byte("b"), min(100, n-sent)))
				w.(http.Flusher).Flush()
			}
		}
	}
	mux.Handle("/chunked-over", chunked(3000))
	mux.Handle("/chunked-exact", chunked(limit))
	mux.Handle("/chunked-one-over", chunked(limit+1))
	base := serve(t, mux).URL
	f := mustNew(t, Config{MaxSize: limit, Timeout: 10 * time.Second})
	tests := []struct {
		path      string
		probe     bool
		tooBig    bool
		truncated bool
		wantLen   int64
	}{
		{"/declared", false, false, true, limit},
		{"/declared-stalls", false, false, true, limit},
		{"/declared", true, false, false, 0},
		{"/gzip-over", false, true, false, 0},
		{"/chunked-over", false, false, true, limit},
		{"/chunked-exact", false, false, false, limit},
		{"/chunked-one-over", false, false, true, limit},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			r, err := f.Fetch(context.Background(), base+tc.path, tc.probe)
			if tc.tooBig {
				wantKind(t, err, KindTooLarge)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Length != tc.wantLen || int64(len(r.Body)) != tc.wantLen || r.Truncated != tc.truncated {
				t.Errorf("Length = %d, len(Body) = %d, Truncated = %v; want %d, %v",
					r.Length, len(r.Body), r.Truncated, tc.wantLen, tc.truncated)
			}
		})
	}
}

// gzipZeros returns a function writing a valid gzip stream of n MiB of
// zeros. It compresses one MiB once and repeats that byte-aligned,
// self-contained deflate segment, so a 100 MiB bomb costs no CPU to serve.
func gzipZeros(tb testing.TB, n int) func(io.Writer) error {
	tb.Helper()
	zeros := make([]byte, 1<<20)
	var seg bytes.Buffer
	fw, err := flate.NewWriter(&seg, flate.BestCompression)
	if err != nil {
		tb.Fatal(err)
	}
	fw.Write(zeros)
	fw.Flush() // ends the segment on a byte boundary, not final
	crc := uint32(0)
	for range n {
		crc = crc32.Update(crc, crc32.IEEETable, zeros)
	}
	return func(w io.Writer) error {
		if _, err := w.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff}); err != nil {
			return err
		}
		for range n {
			if _, err := w.Write(seg.Bytes()); err != nil {
				return err
			}
		}
		trailer := []byte{0x03, 0x00, 0, 0, 0, 0, 0, 0, 0, 0} // final empty block, CRC, size
		binary.LittleEndian.PutUint32(trailer[2:], crc)
		binary.LittleEndian.PutUint32(trailer[6:], uint32(n<<20))
		_, err := w.Write(trailer)
		return err
	}
}

func TestGzipZerosIsValid(t *testing.T) {
	var buf bytes.Buffer
	if err := gzipZeros(t, 3)(&buf); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, zr)
	if err != nil || n != 3<<20 {
		t.Fatalf("decompressed %d bytes, err %v; want %d", n, err, 3<<20)
	}
}

func TestGzipBombStoppedAtCap(t *testing.T) {
	bomb := gzipZeros(t, 100)
	s := serve(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		bomb(w)
	}))
	f := mustNew(t, Config{MaxSize: 1 << 20})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := f.Fetch(context.Background(), s.URL, false)
	runtime.ReadMemStats(&after)
	wantKind(t, err, KindTooLarge)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d KiB", alloc>>10)
	if alloc > 32<<20 {
		t.Errorf("fetch allocated %d MiB for a 1 MiB cap", alloc>>20)
	}
	if !strings.Contains(err.Error(), "1048576") {
		t.Errorf("error %q does not name the cap", err)
	}
}
