package extern

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"weak"

	"github.com/lockstep-dev/lockstep/engine"
	"github.com/lockstep-dev/lockstep/javalite"
)

// Failure is an error of an engine process rather than of its rules: it
// could not be started, crashed, timed out, or sent something that is not
// an answer. It is engine.ErrFailure, so the checker reports it as
// inconclusive.
type Failure struct {
	Command string
	Kind    string // "start", "crash", "timeout", "canceled", "bound", "malformed", "protocol", "internal", "unsupported"
	Msg     string
	Stderr  string // the last lines the process wrote on its standard error
}

func (f *Failure) Error() string {
	s := fmt.Sprintf("engine failure (%s) of exec:%s: %s", f.Kind, f.Command, f.Msg)
	if f.Stderr != "" {
		s += "; its stderr ends: " + f.Stderr
	}
	return s
}

func (f *Failure) Is(target error) bool { return target == engine.ErrFailure }

// Timeout bounds every read of an answer (and the handshake). A process
// that does not answer in time is killed: the request is a Failure of kind
// timeout. LOCKSTEP_EXEC_TIMEOUT (a Go duration) sets it from outside.
var Timeout = 30 * time.Second

func init() {
	if v := os.Getenv("LOCKSTEP_EXEC_TIMEOUT"); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			Timeout = d
		}
	}
}

// Trace, if not nil, sees every message: toEngine for a request, false
// for an answer (one JSON line, without its newline). It is for tests and
// debugging, set before any engine runs and called from several
// goroutines when several workers run.
var Trace func(toEngine bool, msg []byte)

// proc is one engine process, in a box: its own process group, so that
// lockstep kills every process the engine started along with it (a child
// in the background holding its standard output or error cannot keep
// lockstep waiting, nor outlive it); no goroutine of os/exec copies its
// output (its three pipes are lockstep's own files), so that waiting for
// it is waiting for the process alone; and every read and write has a
// deadline that the run's context and Timeout both set.
type proc struct {
	command string
	cmd     *exec.Cmd
	stdin   *os.File // written with a deadline too: a process that stops reading cannot block lockstep
	// stdout is read in the goroutine of the request, with a deadline
	// (a pipe is pollable): no reader goroutine, no channel, no timer
	// per message.
	stdout *os.File
	out    *bufio.Reader
	stderr *tail
	// exited is closed when the process has exited, has been reaped and
	// its group killed.
	exited chan struct{}
	// killed is set when lockstep kills the process (then what is left of
	// its group is lockstep's doing, not the engine's).
	killed atomic.Bool
	nextID int64
	// loaded is the program the process has (its load message), as a
	// weak pointer so that a finished program is not kept alive.
	loaded weak.Pointer[javalite.Program]
	key    string // variant, k and semantics of the load
}

// tail keeps the last bytes a process writes on its standard error.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > 2048 {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-2048:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

func (p *proc) fail(kind, format string, args ...any) *Failure {
	return &Failure{Command: p.command, Kind: kind, Msg: fmt.Sprintf(format, args...), Stderr: p.stderr.String()}
}

// live is every process started and not yet reaped, for Kill.
var (
	liveMu sync.Mutex
	live   = map[*proc]bool{}
	// left are the notes about processes an engine left behind.
	left []string
)

// start runs argv.
func start(command string, argv []string) (*proc, error) {
	p := &proc{command: command, stderr: &tail{}, exited: make(chan struct{})}
	p.cmd = exec.Command(argv[0], argv[1:]...)
	p.cmd.SysProcAttr = boxAttr()
	var files []*os.File // the child's ends, closed once it has them
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		return
	}
	in, stdin, err := pipe()
	if err != nil {
		return nil, p.fail("start", "%v", err)
	}
	stdout, out, err := pipe()
	if err != nil {
		in.Close()
		stdin.Close()
		return nil, p.fail("start", "%v", err)
	}
	stderr, errw, err := pipe()
	if err != nil {
		in.Close()
		stdin.Close()
		stdout.Close()
		out.Close()
		return nil, p.fail("start", "%v", err)
	}
	files = []*os.File{in, out, errw}
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = in, out, errw
	p.stdin, p.stdout, p.out = stdin, stdout, bufio.NewReaderSize(stdout, 1<<16)
	err = p.cmd.Start()
	closeAll()
	if err != nil {
		stdin.Close()
		stdout.Close()
		stderr.Close()
		return nil, p.fail("start", "%v", err)
	}
	// The standard error is copied by a goroutine of lockstep's that
	// nothing waits for: a process left holding it cannot block an exit.
	go func() {
		_, _ = io.Copy(p.stderr, stderr)
		stderr.Close()
	}()
	liveMu.Lock()
	live[p] = true
	liveMu.Unlock()
	go p.wait()
	return p, nil
}

// wait reaps the process, then kills what is left of its group: a process
// the engine left behind (reported by Shutdown) would hold its pipes and
// outlive lockstep. Killing the group also ends a read that waits on a
// standard output such a process still holds.
func (p *proc) wait() {
	_ = p.cmd.Wait()
	pid := p.cmd.Process.Pid
	if !p.killed.Load() && groupAlive(pid) {
		liveMu.Lock()
		left = append(left, fmt.Sprintf("exec:%s: the engine process (pid %d) exited and left processes behind in its group: killed", p.command, pid))
		liveMu.Unlock()
	}
	killGroup(pid)
	liveMu.Lock()
	delete(live, p)
	liveMu.Unlock()
	close(p.exited)
}

// kill ends the process and its group at once; it is never used again.
func (p *proc) kill() {
	p.killed.Store(true)
	if p.cmd.Process != nil {
		killGroup(p.cmd.Process.Pid)
	}
	_ = p.stdin.Close()
}

// grace is how long close waits for a process to exit by itself once its
// input has ended.
const grace = 500 * time.Millisecond

// close ends the process politely: end of input, then kill after a grace;
// it returns within about twice the grace.
func (p *proc) close() {
	_ = p.stdin.Close()
	select {
	case <-p.exited:
		return
	case <-time.After(grace):
	}
	p.kill()
	select {
	case <-p.exited:
	case <-time.After(grace):
		// Killed but not reaped (a process in uninterruptible sleep):
		// the goroutine of wait reaps it later.
	}
}

// watch makes the reads and writes of the current request end when ctx or
// the package's base context ends; the returned function stops it.
func (p *proc) watch(ctx context.Context) func() {
	var stops []func()
	for _, c := range []context.Context{ctx, baseContext()} {
		if c == nil || c.Done() == nil {
			continue
		}
		fired := make(chan struct{})
		stop := context.AfterFunc(c, func() {
			now := time.Now()
			_ = p.stdout.SetReadDeadline(now)
			_ = p.stdin.SetWriteDeadline(now)
			close(fired)
		})
		stops = append(stops, func() {
			if !stop() {
				<-fired // it ran or is running: not after this request
			}
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}

var (
	baseMu  sync.Mutex
	baseCtx context.Context
)

// WatchContext makes every read from and write to an engine process end
// when ctx ends, besides the context of the run a request is for (the CLI
// passes the context that a signal ends, so that a handshake cannot hold
// an interrupted lockstep either).
func WatchContext(ctx context.Context) {
	baseMu.Lock()
	baseCtx = ctx
	baseMu.Unlock()
}

func baseContext() context.Context {
	baseMu.Lock()
	defer baseMu.Unlock()
	return baseCtx
}

// ended returns the context among ctx and the base one that has ended.
func ended(ctx context.Context) context.Context {
	for _, c := range []context.Context{ctx, baseContext()} {
		if c != nil && c.Err() != nil {
			return c
		}
	}
	return nil
}

// deadline is the earlier of Timeout from now and ctx's deadline, and
// whether it is ctx's.
func deadline(ctx context.Context) (time.Time, bool) {
	d := time.Now().Add(Timeout)
	if ctx != nil {
		if cd, ok := ctx.Deadline(); ok && cd.Before(d) {
			return cd, true
		}
	}
	return d, false
}

// endedMsg says why a request ended early, if it did.
func endedMsg(ctx context.Context, op any) (string, bool) {
	c := ended(ctx)
	if c == nil {
		return "", false
	}
	if errors.Is(c.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf("the run's time limit passed while waiting on the %v request", op), true
	}
	return fmt.Sprintf("the run was interrupted while waiting on the %v request", op), true
}

// readLine reads one line of at most max bytes (without the bound, a
// process could make lockstep hold gigabytes).
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		b, err := r.ReadSlice('\n')
		if len(line)+len(b) > max {
			return nil, &BoundError{Flag: "-engine-max-line", What: "bytes in one answer line", Limit: max}
		}
		if err == nil && line == nil {
			return append([]byte(nil), b...), nil
		}
		line = append(line, b...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

// call sends one request and reads its answer (the raw line too, for the
// messages without a state, which the caller decodes). ctx is the run's:
// when it ends, or Timeout passes, the request fails. Any failure kills
// the process (its state is unknown after it): the caller must not reuse
// it.
func (p *proc) call(ctx context.Context, req map[string]any) (*answer, []byte, error) {
	p.nextID++
	id := p.nextID
	req["id"] = id
	b, err := json.Marshal(req)
	if err != nil {
		p.kill()
		return nil, nil, p.fail("internal", "encoding the request: %v", err)
	}
	if t := Trace; t != nil {
		t(true, b)
	}
	b = append(b, '\n')
	if msg, ok := endedMsg(ctx, req["op"]); ok {
		p.kill()
		return nil, nil, p.fail(endedKind(ctx), "%s", msg)
	}
	stop := p.watch(ctx)
	defer stop()
	dl, runs := deadline(ctx)
	_ = p.stdin.SetWriteDeadline(dl)
	if _, err := p.stdin.Write(b); err != nil {
		p.kill()
		if msg, ok := endedMsg(ctx, req["op"]); ok {
			return nil, nil, p.fail(endedKind(ctx), "%s", msg)
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			if runs {
				return nil, nil, p.fail("timeout", "the run's time limit passed while waiting on the %v request", req["op"])
			}
			return nil, nil, p.fail("timeout", "the process did not read the %v request within %v", req["op"], Timeout)
		}
		return nil, nil, p.fail("crash", "writing the %v request: %v", req["op"], err)
	}
	_ = p.stdout.SetReadDeadline(dl)
	b, rerr := readLine(p.out, Bounds.Line)
	if rerr != nil && len(b) > 0 && errors.Is(rerr, io.EOF) {
		rerr = nil // a last line without its newline
	}
	var be *BoundError
	if errors.As(rerr, &be) {
		p.kill()
		return nil, nil, p.fail("bound", "%v request: %v", req["op"], be)
	}
	if rerr != nil {
		p.kill()
		if msg, ok := endedMsg(ctx, req["op"]); ok {
			return nil, nil, p.fail(endedKind(ctx), "%s", msg)
		}
		if errors.Is(rerr, os.ErrDeadlineExceeded) {
			if runs {
				return nil, nil, p.fail("timeout", "the run's time limit passed while waiting on the %v request", req["op"])
			}
			return nil, nil, p.fail("timeout", "no answer to the %v request within %v", req["op"], Timeout)
		}
		msg := "its standard output ended"
		if !errors.Is(rerr, io.EOF) {
			msg = rerr.Error()
		}
		return nil, nil, p.fail("crash", "no answer to the %v request: %s", req["op"], msg)
	}
	l := struct{ b []byte }{b}
	if t := Trace; t != nil {
		t(false, l.b)
	}
	head, err := parseAnswer(l.b)
	if errors.As(err, &be) {
		p.kill()
		return nil, nil, p.fail("bound", "%v request: %v", req["op"], be)
	}
	if err != nil {
		p.kill()
		return nil, nil, p.fail("malformed", "answer to the %v request is not valid: %v: %.200q", req["op"], err, l.b)
	}
	if head.ID == nil || *head.ID != id {
		p.kill()
		return nil, nil, p.fail("protocol", "answer to request %d carries id %v", id, idString(head.ID))
	}
	if head.Error != nil {
		if head.Error.Kind == "rule" {
			// The engine says its rule does not apply to this state, as a Go
			// engine's rule returns an error: the checker judges that.
			return nil, nil, &RuleError{Msg: head.Error.Message}
		}
		p.kill()
		return nil, nil, p.fail("internal", "the engine reports: %s", head.Error.Message)
	}
	return head, l.b, nil
}

// endedKind is the failure kind of a request whose context ended.
func endedKind(ctx context.Context) string {
	if c := ended(ctx); c != nil && errors.Is(c.Err(), context.DeadlineExceeded) {
		return "timeout"
	}
	return "canceled"
}

func idString(id *int64) string {
	if id == nil {
		return "none"
	}
	return fmt.Sprint(*id)
}

// errAnswer is {"error": {"kind": "rule"|"internal", "message": ...}}.
type errAnswer struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// RuleError is an engine's own statement that its rule does not apply to
// a state ({"error":{"kind":"rule"}}): what a Go engine's rule returns as
// an error, judged by the checker the same way.
type RuleError struct{ Msg string }

func (e *RuleError) Error() string { return e.Msg }

// pool is the processes of one command line. Requests carry whole states,
// so any process of the command can serve any request once it has the
// request's program (load); a worker takes a process for one request and
// gives it back, so there are at most as many processes as concurrent
// workers.
type pool struct {
	command string
	argv    []string
	mu      sync.Mutex
	idle    []*proc
	all     map[*proc]bool
	hello   *Hello
}

var (
	poolsMu sync.Mutex
	pools   = map[string]*pool{}
)

// poolOf returns the pool of a command line, starting one process for
// the handshake the first time.
func poolOf(command string) (*pool, error) {
	poolsMu.Lock()
	defer poolsMu.Unlock()
	if p := pools[command]; p != nil {
		return p, nil
	}
	argv, err := splitCommand(command)
	if err != nil {
		return nil, err
	}
	pl := &pool{command: command, argv: argv, all: map[*proc]bool{}}
	pr, err := pl.start(nil)
	if err != nil {
		return nil, err
	}
	pl.put(pr)
	pools[command] = pl
	return pl, nil
}

// start starts a process and makes the handshake (within ctx, if not nil).
func (pl *pool) start(ctx context.Context) (*proc, error) {
	pr, err := start(pl.command, pl.argv)
	if err != nil {
		return nil, err
	}
	var h Hello
	_, raw, err := pr.call(ctx, helloRequest())
	if err != nil {
		pr.kill()
		return nil, err
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		pr.kill()
		return nil, pr.fail("malformed", "handshake: %v", err)
	}
	if err := h.check(); err != nil {
		pr.kill()
		return nil, pr.fail("protocol", "handshake: %v", err)
	}
	if pl.hello != nil && (h.Name != pl.hello.Name || h.Version != pl.hello.Version || h.Protocol != pl.hello.Protocol) {
		pr.kill()
		return nil, pr.fail("protocol", "handshake: a second process says %s %s, the first %s %s", h.Name, h.Version, pl.hello.Name, pl.hello.Version)
	}
	if pl.hello == nil {
		pl.hello = &h
	}
	pl.mu.Lock()
	pl.all[pr] = true
	pl.mu.Unlock()
	return pr, nil
}

func (pl *pool) get(ctx context.Context) (*proc, error) {
	pl.mu.Lock()
	if n := len(pl.idle); n > 0 {
		pr := pl.idle[n-1]
		pl.idle = pl.idle[:n-1]
		pl.mu.Unlock()
		return pr, nil
	}
	pl.mu.Unlock()
	return pl.start(ctx)
}

func (pl *pool) put(pr *proc) {
	pl.mu.Lock()
	pl.idle = append(pl.idle, pr)
	pl.mu.Unlock()
}

// drop forgets a process that failed (call has killed it).
func (pl *pool) drop(pr *proc) {
	pl.mu.Lock()
	delete(pl.all, pr)
	pl.mu.Unlock()
}

// Shutdown ends every engine process lockstep started, each politely
// (end of input) then killed with its group after a grace, all at once: it
// returns within about a second. Tests call it; a later request starts
// processes again. It returns a note for each engine process that exited
// and left processes behind (killed), for the CLI to print.
func Shutdown() []string {
	poolsMu.Lock()
	pools = map[string]*pool{}
	poolsMu.Unlock()
	liveMu.Lock()
	var all []*proc
	for pr := range live {
		all = append(all, pr)
	}
	liveMu.Unlock()
	var wg sync.WaitGroup
	for _, pr := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pr.close()
		}()
	}
	wg.Wait()
	liveMu.Lock()
	notes := left
	left = nil
	liveMu.Unlock()
	return notes
}

// Kill kills every engine process and its group at once, without waiting:
// for an exit that cannot wait (a second signal).
func Kill() {
	liveMu.Lock()
	defer liveMu.Unlock()
	for pr := range live {
		pr.kill()
	}
}

// splitCommand splits a command line into words: spaces separate, single
// and double quotes group, a backslash escapes the next character. No
// shell runs it (write `sh -c '…'` for one).
func splitCommand(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	in, quote, esc := false, rune(0), false
	for _, c := range s {
		switch {
		case esc:
			cur.WriteRune(c)
			esc, in = false, true
		case c == '\\' && quote != '\'':
			esc = true
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(c)
			in = true
		}
	}
	if quote != 0 || esc {
		return nil, fmt.Errorf("exec:%s: unterminated quote or escape", s)
	}
	if in {
		out = append(out, cur.String())
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("exec: no command (write -engine exec:COMMAND)")
	}
	return out, nil
}
