package pgtest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// start makes a cluster in a temporary folder and runs its server on a
// free loopback port, until the test process ends (stop, or Pdeathsig if
// it crashes). initdb refuses to run as root, so root runs both programs
// as the postgres user Debian's package makes, or as nobody.
func start() {
	b, err := binaries()
	if err != nil {
		server.err = err
		return
	}
	dir, err := os.MkdirTemp("", "trawler-pg-")
	if err != nil {
		server.err = fmt.Errorf("pgtest: %w", err)
		return
	}
	server.dir = dir
	cred, err := runAs(dir)
	if err != nil {
		server.err = err
		return
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(b.initdb, "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		// C.UTF-8 is on every Debian 12; elsewhere fall back to C.
		initdb = exec.Command(b.initdb, "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync")
		initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		if out2, err2 := initdb.CombinedOutput(); err2 != nil {
			server.err = fmt.Errorf("pgtest: initdb: %v\n%s\n%s", err2, out, out2)
			return
		}
	}
	port, err := freePort()
	if err != nil {
		server.err = err
		return
	}
	var log bytes.Buffer
	cmd := exec.Command(b.postgres, "-D", data, "-p", strconv.Itoa(port), "-k", dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=300", "-c", "shared_buffers=64MB")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		server.err = fmt.Errorf("pgtest: start postgres: %w", err)
		return
	}
	server.cmd = cmd
	server.url = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	if err := ready(server.url, 30*time.Second); err != nil {
		server.err = fmt.Errorf("pgtest: the server did not start: %v\n%s", err, log.String())
	}
}

// runAs returns the credentials the server runs with (nil: this user),
// having given that user the folder.
func runAs(dir string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		if u, err = user.Lookup("nobody"); err != nil {
			return nil, fmt.Errorf("pgtest: running as root and no postgres or nobody user to run the server as")
		}
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgtest: find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// ready waits until the server takes connections.
func ready(url string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		c, err := pgx.Connect(ctx, url)
		cancel()
		if err == nil {
			c.Close(context.Background())
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		if server.cmd.ProcessState != nil {
			return fmt.Errorf("postgres exited")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop ends the private server and removes its folder.
func stop() {
	if server.cmd != nil && server.cmd.Process != nil {
		server.cmd.Process.Signal(syscall.SIGQUIT) // immediate shutdown: the data is thrown away
		done := make(chan struct{})
		go func() { server.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			server.cmd.Process.Kill()
		}
	}
	if server.dir != "" {
		os.RemoveAll(server.dir)
	}
}
