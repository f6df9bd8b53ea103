package pgtest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// privateServers is true where startServer can run a private server.
const privateServers = true

// readyWithin bounds the wait for a starting server to take connections.
const readyWithin = 20 * time.Second

// lockName is a file in a private server's folder that its test process
// holds locked (flock) while it lives, so that a later process can tell a
// folder a crash left behind (the lock is free) from one in use.
const lockName = "owner.lock"

// instance is a running private server.
type instance struct {
	base   string // postgres://… of its postgres database, no schema
	dir    string // its temporary folder: data, socket, logs
	port   int
	proc   *child
	lock   *os.File      // holds lockName locked
	initdb time.Duration // how long initdb took
	took   time.Duration // how long until it took connections, initdb included
}

// startServer makes a cluster in a new temporary folder and runs its
// server on a free loopback port until stop, or until the test process
// ends, even by a crash (Pdeathsig). initdb refuses to run as root, so
// root runs both programs as the postgres user (Debian's package makes
// one) or else nobody.
func startServer(b bins) (*instance, error) {
	who, err := serverUser(os.Geteuid(), "postgres", "nobody")
	if err != nil {
		return nil, err
	}
	return startServerAs(b, who)
}

// startServerAs starts a server as the user who (nil: this process's).
func startServerAs(b bins, who *user.User) (*instance, error) {
	begin := time.Now()
	removeStale(os.TempDir())
	dir, err := os.MkdirTemp("", "trawler-pg-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: make the server's folder: %w", err)
	}
	s := &instance{dir: dir}
	fail := func(err error) (*instance, error) {
		_ = s.stop()
		return nil, err
	}
	if s.lock, err = lockDir(dir); err != nil {
		return fail(err)
	}
	var cred *syscall.Credential
	if who != nil {
		if cred, err = credential(who); err != nil {
			return fail(err)
		}
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fail(fmt.Errorf("pgtest: give %s to user %s: %w", dir, who.Username, err))
		}
	}
	data := filepath.Join(dir, "data")
	if err := runInitdb(b, dir, data, cred); err != nil {
		return fail(err)
	}
	s.initdb = time.Since(begin)
	for attempt := 1; ; attempt++ {
		port, err := pickPort()
		if err != nil {
			return fail(err)
		}
		err = s.launch(b, data, port, cred)
		if err == nil {
			break
		}
		// Another process may take the free port between our look and the
		// server's bind: try another.
		if !strings.Contains(err.Error(), portTaken) || attempt == 3 {
			return fail(err)
		}
	}
	s.took = time.Since(begin)
	return s, nil
}

// runInitdb makes the cluster: trust authentication (loopback only),
// superuser postgres, UTF-8, and the C collation, so that text sorts by
// bytes as it does in SQLite. Character classes come from C.UTF-8 where
// the system has it, as on any Debian 12: full-text search then sees
// Chinese and Japanese letters as letters, as on a server set up for
// UTF-8 text.
func runInitdb(b bins, dir, data string, cred *syscall.Credential) error {
	err := initdbWith(b, dir, data, cred, "--lc-ctype=C.UTF-8")
	if err != nil {
		err = initdbWith(b, dir, data, cred)
	}
	return err
}

func initdbWith(b bins, dir, data string, cred *syscall.Credential, extra ...string) error {
	logPath := filepath.Join(dir, "initdb.log")
	log, err := os.Create(logPath)
	if err != nil {
		return fmt.Errorf("pgtest: create initdb's log: %w", err)
	}
	defer log.Close()
	args := append([]string{"-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"}, extra...)
	cmd := exec.Command(b.initdb, args...)
	proc, err := startChild(cmd, dir, cred, log)
	if err != nil {
		return fmt.Errorf("pgtest: start %s: %w", b.initdb, err)
	}
	<-proc.done
	if err := proc.err; err != nil {
		return fmt.Errorf("pgtest: initdb -D %s: %w\n%s", data, err, readLog(logPath))
	}
	return nil
}

// portTaken is how postgres (under LC_ALL=C) says it could not listen.
const portTaken = "could not create any TCP/IP sockets"

// pickPort is freePort; tests replace it.
var pickPort = freePort

// launch starts postgres on port and waits until it takes connections.
func (s *instance) launch(b bins, data string, port int, cred *syscall.Credential) error {
	logPath := filepath.Join(s.dir, "server.log")
	log, err := os.Create(logPath)
	if err != nil {
		return fmt.Errorf("pgtest: create the server's log: %w", err)
	}
	defer log.Close() // the server has its own copy
	cmd := exec.Command(b.postgres, "-D", data, "-p", strconv.Itoa(port), "-k", s.dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=200")
	proc, err := startChild(cmd, s.dir, cred, log)
	if err != nil {
		return fmt.Errorf("pgtest: start %s: %w", b.postgres, err)
	}
	// Wait on the Unix socket in our folder, which only our server can
	// answer: on TCP, whoever took the port in the meantime would.
	socket := fmt.Sprintf("postgres://postgres@/postgres?host=%s&port=%d&sslmode=disable", url.QueryEscape(s.dir), port)
	base := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	err = waitReady(socket, proc.done, readyWithin)
	if err == nil {
		err = sameServer(base, data)
	}
	if err != nil {
		_ = cmd.Process.Kill()
		<-proc.done
		return fmt.Errorf("pgtest: the server in %s did not start: %w\n%s", s.dir, err, readLog(logPath))
	}
	s.base, s.port, s.proc = base, port, proc
	return nil
}

// child is a program startChild started.
type child struct {
	cmd  *exec.Cmd
	done chan struct{} // closed once it has exited
	err  error         // how it exited (cmd.Wait's error), once done
}

// startChild starts cmd in dir, as cred's user (nil: this one), writing
// to log. The child gets SIGKILL when its parent thread ends
// (Pdeathsig), and Linux counts the thread, not the process, that started
// it: so the goroutine that starts it keeps its thread locked until the
// child has exited, and that thread only ends with the test process.
func startChild(cmd *exec.Cmd, dir string, cred *syscall.Credential, log *os.File) (*child, error) {
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C") // English messages, whatever the locale
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
	c := &child{cmd: cmd, done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with this goroutine
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		c.err = cmd.Wait()
		close(c.done)
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return c, nil
}

// waitReady waits until the server at addr takes connections, it exits,
// or within has passed.
func waitReady(addr string, exited <-chan struct{}, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, addr)
		cancel()
		if err == nil {
			return conn.Close(context.Background())
		}
		select {
		case <-exited:
			return fmt.Errorf("postgres exited: %w", err)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no connection within %v: %w", within, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// sameServer checks that the server at addr is the one of data: that
// nobody else answers on our TCP port.
func sameServer(addr, data string) error {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	conn, err := pgx.Connect(ctx, addr)
	if err != nil {
		return fmt.Errorf("connect on TCP: %w", err)
	}
	defer conn.Close(context.Background())
	var got string
	if err := conn.QueryRow(ctx, "SHOW data_directory").Scan(&got); err != nil {
		return fmt.Errorf("ask the server on TCP for its data directory: %w", err)
	}
	if got != data {
		return fmt.Errorf("the server on TCP is another, of %s", got)
	}
	return nil
}

// stop ends the server (immediate shutdown: its data is thrown away) and
// removes its folder.
func (s *instance) stop() error {
	if s.proc != nil {
		_ = s.proc.cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-s.proc.done:
		case <-time.After(10 * time.Second):
			_ = s.proc.cmd.Process.Kill()
			<-s.proc.done
		}
	}
	err := os.RemoveAll(s.dir)
	if s.lock != nil {
		s.lock.Close()
	}
	if err != nil {
		return fmt.Errorf("pgtest: remove the server's folder: %w", err)
	}
	return nil
}

// serverUser returns the user initdb and postgres run as: nil (this
// process's own) unless euid is root, which initdb refuses; then the
// first of names that exists.
func serverUser(euid int, names ...string) (*user.User, error) {
	if euid != 0 {
		return nil, nil
	}
	for _, n := range names {
		if u, err := user.Lookup(n); err == nil {
			return u, nil
		}
	}
	return nil, fmt.Errorf("pgtest: running as root, and none of the users %s exists to run PostgreSQL as (initdb refuses root)", strings.Join(names, ", "))
}

// credential turns a user into the process credential to run as; no
// supplementary groups, so root's are not passed on.
func credential(u *user.User) (*syscall.Credential, error) {
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("pgtest: read the uid of %s: %w", u.Username, err)
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, fmt.Errorf("pgtest: read the gid of %s: %w", u.Username, err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}, nil
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgtest: find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// lockDir creates dir's lock file and holds it locked.
func lockDir(dir string) (*os.File, error) {
	f, err := os.Create(filepath.Join(dir, lockName))
	if err != nil {
		return nil, fmt.Errorf("pgtest: create the server folder's lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("pgtest: lock the server's folder: %w", err)
	}
	return f, nil
}

// removeStale removes the folders of private servers under tmp whose test
// process has died without Main (a panic, a timeout, ^C): the server died
// with it, but its data (about 40 MB) stayed. A folder is left alone
// unless its lock file is over a minute old (so not one being set up) and
// free.
func removeStale(tmp string) {
	dirs, _ := filepath.Glob(filepath.Join(tmp, "trawler-pg-*"))
	for _, d := range dirs {
		lock := filepath.Join(d, lockName)
		st, err := os.Stat(lock)
		if err != nil || time.Since(st.ModTime()) < time.Minute {
			continue
		}
		f, err := os.Open(lock)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			_ = os.RemoveAll(d)
		}
		f.Close()
	}
}

// readLog returns the end of a log, for an error message.
func readLog(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(no log: %v)", err)
	}
	const keep = 8 << 10
	if len(b) > keep {
		b = append([]byte("…"), b[len(b)-keep:]...)
	}
	return string(b)
}
