package main

import (
	"os"
	"syscall"
)

// The desktop build for Windows is a GUI-subsystem program (-H windowsgui),
// so that no console window flashes up when it is opened from the Start
// menu. Started from a terminal, it has no console of its own: attaching
// to the parent's lets `trawler.exe crawl …` print there. Standard streams
// already redirected (to a file or a pipe) are kept.
func init() {
	attach := syscall.NewLazyDLL("kernel32.dll").NewProc("AttachConsole")
	const attachParentProcess = ^uintptr(0) // (DWORD)-1
	if ok, _, _ := attach.Call(attachParentProcess); ok == 0 {
		return // no parent console (opened from Explorer), or one already
	}
	reopen := func(f **os.File, std int, name string, flag int) {
		if h, err := syscall.GetStdHandle(std); err == nil && h != 0 && h != syscall.InvalidHandle {
			if _, err := syscall.GetFileType(h); err == nil {
				return // redirected: keep it
			}
		}
		if c, err := os.OpenFile(name, flag, 0); err == nil {
			*f = c
		}
	}
	reopen(&os.Stdout, syscall.STD_OUTPUT_HANDLE, "CONOUT$", os.O_WRONLY)
	reopen(&os.Stderr, syscall.STD_ERROR_HANDLE, "CONOUT$", os.O_WRONLY)
	reopen(&os.Stdin, syscall.STD_INPUT_HANDLE, "CONIN$", os.O_RDONLY)
}
