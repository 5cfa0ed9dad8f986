package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/lockstep-dev/lockstep/internal/report"
)

func init() {
	register(&command{
		name:  "version",
		short: "print the module version and the commit the binary was built from (Go's build info)",
		usage: "[-json]",
		run:   runVersion,
	})
}

// versionJSON is what version prints: from runtime/debug.ReadBuildInfo,
// which `go build` fills from the module and, in a git checkout, the
// commit (vcs.revision), its time and whether the tree had uncommitted
// changes. A binary built by `go install module@version` has the module
// version and no commit; one built in a checkout has "(devel)" and the
// commit.
type versionJSON struct {
	Module   string `json:"module"`
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Time     string `json:"commit_time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
	report.Status
}

func buildVersion() versionJSON {
	v := versionJSON{Module: "github.com/lockstep-dev/lockstep", Version: "unknown", Go: runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if info.Main.Path != "" {
		v.Module = info.Main.Path
	}
	if info.Main.Version != "" {
		v.Version = info.Main.Version
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// buildCommit is the commit the binary was built from, short, with
// "+modified" when its tree had uncommitted changes; a binary built without
// VCS stamping (-buildvcs=false, or a worktree Go does not stamp) asks git
// in the working directory instead; "" when neither knows.
func buildCommit() string {
	v := buildVersion()
	if v.Commit != "" {
		c := v.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		if v.Modified {
			c += "+modified"
		}
		return c
	}
	out, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return ""
	}
	c := strings.TrimSpace(string(out))
	if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(bytes.TrimSpace(st)) > 0 {
		c += "+modified"
	}
	return c
}

func runVersion(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	asJSON := fs.Bool("json", false, "print one JSON document")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return usageError("version takes no arguments")
	}
	v := buildVersion()
	if *asJSON {
		return encodeIndented(stdout, v)
	}
	fmt.Fprintf(stdout, "lockstep %s %s", v.Module, v.Version)
	if v.Commit != "" {
		fmt.Fprintf(stdout, ", commit %s", v.Commit)
		if v.Time != "" {
			fmt.Fprintf(stdout, " (%s)", v.Time)
		}
		if v.Modified {
			fmt.Fprint(stdout, " with uncommitted changes")
		}
	} else {
		fmt.Fprint(stdout, ", commit unknown (built outside a git checkout, or with -buildvcs=false)")
	}
	fmt.Fprintf(stdout, ", %s\n", v.Go)
	return nil
}
