//go:build unix

package extern

import "syscall"

// boxAttr puts an engine process in a process group of its own (its pid is
// the group's id), so that killGroup reaches every process it starts.
func boxAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills the process group pgid.
func killGroup(pgid int) { _ = syscall.Kill(-pgid, syscall.SIGKILL) }

// groupAlive reports whether a process of group pgid still exists.
func groupAlive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }
