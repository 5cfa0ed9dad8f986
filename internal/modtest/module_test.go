// Package modtest checks that lockstep can be imported the way README.md
// says: it builds a scratch module from the README's go.mod lines and test
// file, exactly as written there, and runs that test.
package modtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// readmeSnippets returns the first plain code block (the go.mod lines) and
// the first Go code block of README.md's "As a library" section.
func readmeSnippets(t *testing.T, readme string) (gomod, gofile string) {
	t.Helper()
	start := strings.Index(readme, "\n## As a library\n")
	require.GreaterOrEqual(t, start, 0, "README.md has no section \"## As a library\"")
	sec := readme[start+1:]
	if end := strings.Index(sec[3:], "\n## "); end >= 0 {
		sec = sec[:end+3]
	}
	blocks := regexp.MustCompile("(?s)\n```([a-z]*)\n(.*?)\n```").FindAllStringSubmatch(sec, -1)
	for _, b := range blocks {
		switch {
		case b[1] == "" && gomod == "":
			gomod = b[2]
		case b[1] == "go" && gofile == "":
			gofile = b[2]
		}
	}
	require.NotEmpty(t, gomod, "no go.mod block in the section")
	require.NotEmpty(t, gofile, "no Go block in the section")
	return gomod, gofile
}

// TestImportAsREADME builds and runs a scratch module that requires
// lockstep with the README's go.mod lines (the replace pointed at this
// checkout) and contains the README's test file as it is, with the
// README's commands (go mod tidy, go test). It works offline: the module
// cache and lockstep's go.sum have every dependency.
func TestImportAsREADME(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a scratch module: not in -short")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	gomod, gofile := readmeSnippets(t, string(readme))
	require.Contains(t, gomod, "require github.com/lockstep-dev/lockstep ")
	require.Contains(t, gomod, "=> ../lockstep", "the README's replace line points at ../lockstep")

	ours, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	goLine := regexp.MustCompile(`(?m)^go [0-9.]+$`).FindString(string(ours))
	require.NotEmpty(t, goLine)

	dir := t.TempDir()
	mod := "module example.com/mine\n\n" + goLine + "\n\n" +
		strings.Replace(gomod, "=> ../lockstep", "=> "+root, 1) + "\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "mine_test.go"), []byte(gofile+"\n"), 0o644))

	// The README's steps: go mod tidy, then go test (a few generated
	// programs are enough to show the property runs). Offline: the module
	// cache and the go.sum copied above have everything.
	env := append(os.Environ(), "GOFLAGS=-buildvcs=false "+os.Getenv("GOFLAGS"), "GOPROXY=off", "GOWORK=off", "GOTOOLCHAIN=local")
	goCmd := func(args ...string) string {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		require.NoErrorf(t, err, "go %s in the scratch module:\n%s\ngo.mod:\n%s", strings.Join(args, " "), out, mod)
		return string(out)
	}
	goCmd("mod", "tidy")
	out := goCmd("test", "-count=1", "-v", "-rapid.checks=3", ".")
	require.Contains(t, out, "--- PASS: TestMyProgram")
	require.Contains(t, out, "--- PASS: TestGeneratedPrograms")
}
