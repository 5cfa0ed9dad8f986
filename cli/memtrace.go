package cli

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync"
)

// memTrace is LOCKSTEP_MEMTRACE=N: after every N programs of a generated
// stream, a garbage collection and one line on stderr with the live heap
// (HeapAlloc after the collection), and with LOCKSTEP_MEMPROFILE=PREFIX a
// heap profile PREFIX-D.pprof at D programs. It is how docs/TESTING.md
// "Memory" measures that memory stays flat along a stream; the collection
// it forces costs time, so it is off unless asked for.
type memTrace struct {
	every   int64
	profile string
	w       io.Writer
	mu      sync.Mutex
	next    int64
}

func newMemTrace(w io.Writer) *memTrace {
	n, err := strconv.ParseInt(os.Getenv("LOCKSTEP_MEMTRACE"), 10, 64)
	if err != nil || n <= 0 {
		return nil
	}
	return &memTrace{every: n, next: n, profile: os.Getenv("LOCKSTEP_MEMPROFILE"), w: w}
}

// done notes that d programs are done.
func (m *memTrace) done(d int64) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if d < m.next {
		return
	}
	m.next = d - d%m.every + m.every
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(m.w, "memtrace: %d programs: live heap %.1f MiB (%d objects), heap in use %.1f MiB, from the OS %.1f MiB\n",
		d, float64(ms.HeapAlloc)/(1<<20), ms.HeapObjects, float64(ms.HeapInuse)/(1<<20), float64(ms.Sys)/(1<<20))
	if m.profile != "" {
		f, err := os.Create(fmt.Sprintf("%s-%d.pprof", m.profile, d))
		if err == nil {
			_ = pprof.Lookup("heap").WriteTo(f, 0)
			f.Close()
		}
	}
}
