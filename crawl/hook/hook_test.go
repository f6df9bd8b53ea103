package hook

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/trawler/trawler/crawl"
)

func TestRun(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the test hook is a shell script")
	}
	dir := t.TempDir()
	record := filepath.Join(dir, "record")
	script := filepath.Join(dir, "hook.sh")
	body := "#!/bin/sh\necho \"$@ $" + StateVar + "\" >> " + record + "\necho said\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		command string
		state   crawl.RunState
		want    string // the line recorded; "" for none
		err     bool
	}{
		{"", crawl.StateDone, "", false},
		{script, crawl.StateStopped, "", false},
		{script + " --flag", crawl.StateDone, "--flag 7 /data/t.db done", false},
		{script, crawl.StateFailed, "7 /data/t.db failed", false},
		{filepath.Join(dir, "missing"), crawl.StateDone, "", true},
	}
	for _, tt := range tests {
		os.Remove(record)
		var out bytes.Buffer
		err := Run(context.Background(), tt.command, 7, "/data/t.db", tt.state, &out)
		if (err != nil) != tt.err {
			t.Errorf("Run(%q, %s) = %v, want error %v", tt.command, tt.state, err, tt.err)
		}
		if err != nil && !strings.Contains(err.Error(), "hook") {
			t.Errorf("error %q does not name the hook", err)
		}
		got, _ := os.ReadFile(record)
		if strings.TrimSpace(string(got)) != tt.want {
			t.Errorf("Run(%q, %s) recorded %q, want %q", tt.command, tt.state, got, tt.want)
		}
		if tt.want != "" && out.String() != "said\n" {
			t.Errorf("hook output %q, want %q", out.String(), "said\n")
		}
	}
}

func TestRunExitCode(t *testing.T) {
	if _, err := exec.LookPath("false"); err != nil {
		t.Skip("no false command")
	}
	err := Run(context.Background(), "false", 1, "x.db", crawl.StateDone, &bytes.Buffer{})
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Errorf("Run(false) = %v, want exit status 1", err)
	}
}
