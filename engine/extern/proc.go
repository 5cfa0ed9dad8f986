package extern

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
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
	Kind    string // "start", "crash", "timeout", "malformed", "protocol", "internal"
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

// proc is one engine process.
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

// start runs argv.
func start(command string, argv []string) (*proc, error) {
	p := &proc{command: command, stderr: &tail{}}
	p.cmd = exec.Command(argv[0], argv[1:]...)
	p.cmd.Stderr = p.stderr
	in, stdin, err := os.Pipe()
	if err != nil {
		return nil, p.fail("start", "%v", err)
	}
	p.cmd.Stdin, p.stdin = in, stdin
	stdout, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, p.fail("start", "%v", err)
	}
	f, ok := stdout.(*os.File)
	if !ok {
		return nil, p.fail("start", "standard output is no pipe")
	}
	p.stdout, p.out = f, bufio.NewReaderSize(f, 1<<16)
	err = p.cmd.Start()
	in.Close() // the child's end
	if err != nil {
		stdin.Close()
		return nil, p.fail("start", "%v", err)
	}
	return p, nil
}

// kill ends the process; it is never used again.
func (p *proc) kill() {
	if p.cmd.Process != nil {
		_ = p.cmd.Process.Kill()
	}
	_ = p.stdin.Close()
	go func() { _ = p.cmd.Wait() }()
}

// close ends the process politely: end of input, then kill after a grace.
func (p *proc) close() {
	_ = p.stdin.Close()
	done := make(chan struct{})
	go func() {
		_ = p.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}

// call sends one request and reads its answer (the raw line too, for the
// messages without a state, which the caller decodes). Any failure
// kills the process (its state is unknown after it): the caller must not
// reuse it.
func (p *proc) call(req map[string]any) (*answer, []byte, error) {
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
	_ = p.stdin.SetWriteDeadline(time.Now().Add(Timeout))
	if _, err := p.stdin.Write(b); err != nil {
		p.kill()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, nil, p.fail("timeout", "the process did not read the %v request within %v", req["op"], Timeout)
		}
		return nil, nil, p.fail("crash", "writing the %v request: %v", req["op"], err)
	}
	_ = p.stdout.SetReadDeadline(time.Now().Add(Timeout))
	b, rerr := p.out.ReadBytes('\n')
	if rerr != nil && len(b) > 0 && errors.Is(rerr, io.EOF) {
		rerr = nil // a last line without its newline
	}
	if errors.Is(rerr, os.ErrDeadlineExceeded) {
		p.kill()
		return nil, nil, p.fail("timeout", "no answer to the %v request within %v", req["op"], Timeout)
	}
	if rerr != nil {
		p.kill()
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
		return nil, nil, p.fail("internal", "the engine reports: %s", head.Error.Message)
	}
	return head, l.b, nil
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
	pr, err := pl.start()
	if err != nil {
		return nil, err
	}
	pl.put(pr)
	pools[command] = pl
	return pl, nil
}

// start starts a process and makes the handshake.
func (pl *pool) start() (*proc, error) {
	pr, err := start(pl.command, pl.argv)
	if err != nil {
		return nil, err
	}
	var h Hello
	_, raw, err := pr.call(helloRequest())
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

func (pl *pool) get() (*proc, error) {
	pl.mu.Lock()
	if n := len(pl.idle); n > 0 {
		pr := pl.idle[n-1]
		pl.idle = pl.idle[:n-1]
		pl.mu.Unlock()
		return pr, nil
	}
	pl.mu.Unlock()
	return pl.start()
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

// Shutdown ends every engine process lockstep started (they also end by
// themselves when lockstep exits: their standard input closes). Tests call
// it; a later request starts processes again.
func Shutdown() {
	poolsMu.Lock()
	ps := pools
	pools = map[string]*pool{}
	poolsMu.Unlock()
	for _, pl := range ps {
		pl.mu.Lock()
		var all []*proc
		for pr := range pl.all {
			all = append(all, pr)
		}
		pl.all, pl.idle = map[*proc]bool{}, nil
		pl.mu.Unlock()
		for _, pr := range all {
			pr.close()
		}
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
