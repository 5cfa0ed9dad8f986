package jvm

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/lockstep-dev/lockstep/concrete"
	"github.com/lockstep-dev/lockstep/javalite"
)

// ErrNoJDK is returned when javac or java is not on PATH.
var ErrNoJDK = errors.New("jvm: javac and java are needed (Debian: apt-get install default-jdk-headless; `make deps` does it)")

// HaveJDK reports whether javac and java are on PATH.
func HaveJDK() bool {
	_, err1 := exec.LookPath("javac")
	_, err2 := exec.LookPath("java")
	return err1 == nil && err2 == nil
}

// Encode writes h in the case format of runCase: the number of objects,
// then per object its class index, its number of fields and the value of
// every field in declaration order (an object index or -1 for a
// reference, 0 or 1 for a bool, the number for an int).
func Encode(p *javalite.Program, h *concrete.Heap) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(h.Objects)))
	for _, o := range h.Objects {
		fmt.Fprintf(&b, " %d %d", o.Class.Index, len(o.Fields))
		for j, f := range o.Class.Fields {
			v := int64(o.Fields[j])
			if f.IsPrim() {
				v = o.Prim[j]
			}
			b.WriteByte(' ')
			b.WriteString(strconv.FormatInt(v, 10))
		}
	}
	return b.String()
}

// Batch is a set of programs exported into one directory, compiled by one
// javac and run by one JVM per Run.
type Batch struct {
	Dir  string
	Fuel int64 // calls per case (DefaultFuel when 0)
	// Server, when set, compiles and runs the batch in its JVM instead of
	// a javac and a java of the batch's own.
	Server *Server
	names  []string
	files  []string
}

// NewBatch makes an empty batch in dir (created if missing).
func NewBatch(dir string) (*Batch, error) {
	if err := os.MkdirAll(filepath.Join(dir, "classes"), 0o755); err != nil {
		return nil, err
	}
	return &Batch{Dir: dir}, nil
}

// Add exports p into the batch and returns the name of its class.
func (b *Batch) Add(p *javalite.Program) (string, error) {
	name := fmt.Sprintf("P%05d", len(b.names))
	src, err := Export(p, name)
	if err != nil {
		return "", err
	}
	path := filepath.Join(b.Dir, name+".java")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		return "", err
	}
	b.names = append(b.names, name)
	b.files = append(b.files, path)
	return name, nil
}

// Len is the number of programs added.
func (b *Batch) Len() int { return len(b.names) }

// javacChunk is how many sources one javac compiles: javac's memory grows
// with the batch, and a few thousand small classes fit its default heap.
const javacChunk = 1000

// Compile compiles every program added and the batch runner. A source
// javac rejects is an error of the export, with javac's report.
func (b *Batch) Compile(ctx context.Context) error {
	if b.Server != nil {
		return b.Server.compile(filepath.Join(b.Dir, "classes"), b.files)
	}
	runner := filepath.Join(b.Dir, "LockstepBatch.java")
	if err := os.WriteFile(runner, []byte(batchJava), 0o644); err != nil {
		return err
	}
	files := append([]string{runner}, b.files...)
	for len(files) > 0 {
		n := min(len(files), javacChunk)
		args := append([]string{"-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1", "-J-Xshare:auto",
			"-nowarn", "-encoding", "UTF-8", "-implicit:none", "-d", filepath.Join(b.Dir, "classes")}, files[:n]...)
		cmd := exec.CommandContext(ctx, "javac", args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			if errors.Is(err, exec.ErrNotFound) {
				return ErrNoJDK
			}
			msg := out.String()
			if len(msg) > 4000 {
				msg = msg[:4000] + "…"
			}
			return fmt.Errorf("jvm: javac: %v\n%s", err, msg)
		}
		files = files[n:]
	}
	return nil
}

// Case is one run: the class of a program of the batch and an input heap
// in the format of Encode.
type Case struct {
	Class string
	Input string
}

// Run starts one JVM, runs every case and returns their outcomes in order
// (runCase's "OUTCOME | HEAP" lines).
func (b *Batch) Run(ctx context.Context, cases []Case) ([]string, error) {
	fuel := b.Fuel
	if fuel <= 0 {
		fuel = DefaultFuel
	}
	if b.Server != nil {
		return b.Server.run(filepath.Join(b.Dir, "classes"), fuel, cases)
	}
	cmd := exec.CommandContext(ctx, "java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
		"-XX:-UsePerfData", fmt.Sprintf("-Dlockstep.fuel=%d", fuel),
		"-cp", filepath.Join(b.Dir, "classes"), "LockstepBatch")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, ErrNoJDK
		}
		return nil, err
	}
	var wg sync.WaitGroup
	var werr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		w := bufio.NewWriterSize(stdin, 1<<16)
		for i, c := range cases {
			if _, werr = fmt.Fprintf(w, "%s %d %s\n", c.Class, i, c.Input); werr != nil {
				break
			}
		}
		if werr == nil {
			werr = w.Flush()
		}
		stdin.Close()
	}()
	out := make([]string, len(cases))
	got := 0
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	for sc.Scan() {
		line := sc.Text()
		id, rest, ok := strings.Cut(line, " ")
		i, err := strconv.Atoi(id)
		if !ok || err != nil || i < 0 || i >= len(cases) {
			continue
		}
		out[i] = rest
		got++
	}
	_, _ = io.Copy(io.Discard, stdout)
	wg.Wait()
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("jvm: java: %v\n%s", err, tail(stderr.String()))
	}
	if werr != nil {
		return nil, werr
	}
	if got != len(cases) {
		return nil, fmt.Errorf("jvm: the JVM answered %d of %d cases\n%s", got, len(cases), tail(stderr.String()))
	}
	return out, nil
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}

// batchJava is the runner of a batch: it reads "Class id case" lines and
// prints "id outcome" lines, calling each program's runCase (found once
// per class by reflection) on one thread with a deep stack.
var batchJava = strings.ReplaceAll(`// LockstepBatch.java: runs the cases of many exported programs in one JVM (package jvm).
public final class LockstepBatch {
    public static void main(String[] args) throws Exception {
        Thread t = new Thread(null, () -> {
            try {
                java.util.HashMap<String, java.lang.reflect.Method> run = new java.util.HashMap<>();
                java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in), 1 << 16);
                java.io.PrintWriter out = new java.io.PrintWriter(new java.io.BufferedWriter(new java.io.OutputStreamWriter(System.out), 1 << 16));
                for (String line; (line = in.readLine()) != null; ) {
                    int a = line.indexOf(' '), b = line.indexOf(' ', a + 1);
                    if (a < 0 || b < 0) continue;
                    String cls = line.substring(0, a), id = line.substring(a + 1, b);
                    String res;
                    try {
                        java.lang.reflect.Method m = run.get(cls);
                        if (m == null) {
                            m = Class.forName(cls).getMethod("runCase", String.class);
                            run.put(cls, m);
                        }
                        res = (String) m.invoke(null, line.substring(b + 1));
                    } catch (Throwable e) {
                        Throwable c = e instanceof java.lang.reflect.InvocationTargetException ? e.getCause() : e;
                        res = "crash " + String.valueOf(c).replace('\n', ' ');
                    }
                    out.print(id);
                    out.print(' ');
                    out.println(res);
                }
                out.flush();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "lockstep", STACKBYTES);
        t.start();
        t.join();
    }
}
`, "STACKBYTES", strconv.Itoa(StackBytes))
