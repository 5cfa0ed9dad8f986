//go:build !unix

package extern

import (
	"os"
	"syscall"
)

// Without process groups the box is the process alone.
func boxAttr() *syscall.SysProcAttr { return nil }

func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

func groupAlive(int) bool { return false }
