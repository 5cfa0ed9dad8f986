package cli

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
)

// profileFlag registers -cpuprofile FILE on a subcommand's flag set. The
// profile starts when the flag is parsed (so it covers the subcommand's work,
// not the driver's set-up) and stop, which run defers, finishes and closes
// it. Every subcommand gets the flag without knowing about it.
func profileFlag(fs *flag.FlagSet, stderr interface{ Write([]byte) (int, error) }) (stop func()) {
	var f *os.File
	fs.Func("cpuprofile", "write a CPU profile (pprof format) of the command to `FILE`", func(path string) error {
		if f != nil {
			return fmt.Errorf("-cpuprofile given twice")
		}
		out, err := os.Create(path)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(out); err != nil {
			out.Close()
			return err
		}
		f = out
		return nil
	})
	return func() {
		if f == nil {
			return
		}
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(stderr, "lockstep: -cpuprofile: %v\n", err)
		}
	}
}
