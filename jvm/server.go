package jvm

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Server is one long-lived JVM that compiles batches with the JDK's
// in-process compiler (javax.tools) and runs their cases, each batch in a
// class loader of its own. Starting a JVM costs about a third of a second
// and javac's own start more; a differential or a shrink that compiles and
// runs many batches pays them once, and the compiler and the drivers get
// faster as the JIT warms up.
type Server struct {
	cmd    *exec.Cmd
	in     *bufio.Writer
	inC    io.Closer
	out    *bufio.Reader
	stderr bytes.Buffer
	mu     sync.Mutex
	// CPU time of the server's JVM (its own measure, all threads): to
	// start up and be ready, in compilations, and in runs of cases.
	StartCPU, CompileCPU, RunCPU time.Duration
	last                         time.Duration
}

// cpu reads the CPU reading at the end of a reply line "word CPU ...":
// the JVM's process CPU time in nanoseconds, and returns the time since
// the previous reading.
func (s *Server) cpu(field string) time.Duration {
	ns, err := strconv.ParseInt(field, 10, 64)
	if err != nil {
		return 0
	}
	d := time.Duration(ns) - s.last
	s.last = time.Duration(ns)
	return d
}

// StartServer starts the server JVM; dir holds its work files. The
// server's own class is compiled once per user and version of its source,
// into the user's cache directory (or dir when there is none).
func StartServer(ctx context.Context, dir string) (*Server, error) {
	if !HaveJDK() {
		return nil, ErrNoJDK
	}
	cls, err := serverClasses(ctx, dir)
	if err != nil {
		return nil, err
	}
	s := &Server{}
	s.cmd = exec.CommandContext(ctx, "java", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-XX:-UsePerfData", "-cp", cls, "LockstepServer")
	stdin, err := s.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s.cmd.Stderr = &s.stderr
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	s.in, s.inC, s.out = bufio.NewWriterSize(stdin, 1<<16), stdin, bufio.NewReaderSize(stdout, 1<<16)
	line, err := s.readLine()
	if err != nil {
		s.inC.Close()
		s.cmd.Wait()
		return nil, err
	}
	if ready, cpu, _ := strings.Cut(line, " "); ready != "ready" {
		return nil, fmt.Errorf("jvm: the server said %q", line)
	} else {
		s.StartCPU = s.cpu(cpu)
	}
	return s, nil
}

// serverClasses returns a directory with LockstepServer.class, compiling
// it when the cache has no copy for this source.
func serverClasses(ctx context.Context, dir string) (string, error) {
	base := dir
	if c, err := os.UserCacheDir(); err == nil {
		base = filepath.Join(c, "lockstep")
	}
	sum := sha256.Sum256([]byte(serverJava))
	cls := filepath.Join(base, fmt.Sprintf("jvm-server-%x", sum[:6]))
	if _, err := os.Stat(filepath.Join(cls, "LockstepServer.class")); err == nil {
		return cls, nil
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(base, "jvm-server-tmp-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	src := filepath.Join(tmp, "LockstepServer.java")
	if err := os.WriteFile(src, []byte(serverJava), 0o644); err != nil {
		return "", err
	}
	var out bytes.Buffer
	javac := exec.CommandContext(ctx, "javac", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-nowarn", "-d", filepath.Join(tmp, "classes"), src)
	javac.Stdout, javac.Stderr = &out, &out
	if err := javac.Run(); err != nil {
		return "", fmt.Errorf("jvm: javac LockstepServer: %v\n%s", err, out.String())
	}
	// Another process may have put it there meanwhile: either copy is good.
	if err := os.Rename(filepath.Join(tmp, "classes"), cls); err != nil {
		if _, serr := os.Stat(filepath.Join(cls, "LockstepServer.class")); serr != nil {
			return "", err
		}
	}
	return cls, nil
}

// Close ends the server's JVM.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inC.Close()
	return s.cmd.Wait()
}

func (s *Server) readLine() (string, error) {
	line, err := s.out.ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("jvm: the server JVM ended: %v\n%s", err, tail(s.stderr.String()))
	}
	return strings.TrimSuffix(line, "\n"), nil
}

// compile compiles files into out.
func (s *Server) compile(out string, files []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintf(s.in, "compile %s %d\n", out, len(files))
	for _, f := range files {
		fmt.Fprintln(s.in, f)
	}
	if err := s.in.Flush(); err != nil {
		return err
	}
	line, err := s.readLine()
	if err != nil {
		return err
	}
	if word, cpu, _ := strings.Cut(line, " "); word == "ok" {
		s.CompileCPU += s.cpu(cpu)
		return nil
	}
	msg := strings.ReplaceAll(strings.TrimPrefix(line, "fail "), "\x01", "\n")
	if len(msg) > 4000 {
		msg = msg[:4000] + "…"
	}
	return fmt.Errorf("jvm: javac: %s", msg)
}

// run runs cases on the classes in dir.
func (s *Server) run(dir string, fuel int64, cases []Case) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var werr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		fmt.Fprintf(s.in, "run %s %d %d\n", dir, fuel, len(cases))
		for i, c := range cases {
			if _, werr = fmt.Fprintf(s.in, "%s %d %s\n", c.Class, i, c.Input); werr != nil {
				return
			}
		}
		werr = s.in.Flush()
	}()
	out := make([]string, len(cases))
	got := 0
	for {
		line, err := s.readLine()
		if err != nil {
			<-done
			return nil, err
		}
		if word, cpu, _ := strings.Cut(line, " "); word == "end" {
			s.RunCPU += s.cpu(cpu)
			break
		}
		id, rest, ok := strings.Cut(line, " ")
		i, err := strconv.Atoi(id)
		if !ok || err != nil || i < 0 || i >= len(cases) {
			continue
		}
		out[i] = rest
		got++
	}
	<-done
	if werr != nil {
		return nil, werr
	}
	if got != len(cases) {
		return nil, errors.New("jvm: the server answered " + strconv.Itoa(got) + " of " + strconv.Itoa(len(cases)) + " cases")
	}
	return out, nil
}

// serverJava is the server: "compile OUT N" and N source paths compiles
// them into OUT and answers "ok" or "fail MESSAGE" (newlines as \x01);
// "run DIR FUEL N" and N "Class id case" lines runs the cases with the
// classes of DIR in DIR's class loader (made at its first run) and answers "id outcome" lines and
// "end". Everything runs on one thread with a deep stack.
var serverJava = strings.ReplaceAll(`// LockstepServer.java: compiles and runs batches of exported programs in one JVM (package jvm).
public final class LockstepServer {
    public static void main(String[] args) throws Exception {
        Thread t = new Thread(null, () -> {
            try { serve(); } catch (java.io.IOException e) { throw new java.io.UncheckedIOException(e); }
        }, "lockstep", STACKBYTES);
        t.start();
        t.join();
    }

    // cpu is the process CPU time of this JVM in nanoseconds, every thread
    // (compiler, garbage collector) included.
    static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    static void serve() throws java.io.IOException {
        javax.tools.JavaCompiler javac = javax.tools.ToolProvider.getSystemJavaCompiler();
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in), 1 << 16);
        java.io.PrintWriter out = new java.io.PrintWriter(new java.io.BufferedWriter(new java.io.OutputStreamWriter(System.out), 1 << 16));
        // One class loader per directory of classes, kept: ORC runs the
        // cases of one program one round trip at a time.
        java.util.HashMap<String, java.net.URLClassLoader> loaders = new java.util.HashMap<>();
        java.util.HashMap<String, java.lang.reflect.Method> run = new java.util.HashMap<>();
        out.println("ready " + cpu());
        out.flush();
        for (String cmd; (cmd = in.readLine()) != null; ) {
            String[] w = cmd.split(" ");
            if (w[0].equals("compile")) {
                int n = Integer.parseInt(w[2]);
                java.util.ArrayList<String> a = new java.util.ArrayList<>(java.util.List.of("-nowarn", "-g:none", "-proc:none", "-encoding", "UTF-8", "-implicit:none", "-d", w[1]));
                for (int i = 0; i < n; i++) a.add(in.readLine());
                java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
                int rc = javac.run(null, err, err, a.toArray(new String[0]));
                out.println(rc == 0 ? "ok " + cpu() : "fail " + err.toString().replace('\n', '\u0001'));
                out.flush();
            } else if (w[0].equals("run")) {
                System.setProperty("lockstep.fuel", w[2]);
                int n = Integer.parseInt(w[3]);
                java.net.URLClassLoader loader = loaders.get(w[1]);
                if (loader == null) {
                    loader = new java.net.URLClassLoader(new java.net.URL[] {new java.io.File(w[1]).toURI().toURL()}, LockstepServer.class.getClassLoader());
                    loaders.put(w[1], loader);
                }
                for (int i = 0; i < n; i++) {
                    String line = in.readLine();
                    int a = line.indexOf(' '), b = line.indexOf(' ', a + 1);
                    String cls = line.substring(0, a), id = line.substring(a + 1, b);
                    String res;
                    try {
                        java.lang.reflect.Method m = run.get(w[1] + "/" + cls);
                        if (m == null) {
                            m = Class.forName(cls, true, loader).getMethod("runCase", String.class);
                            run.put(w[1] + "/" + cls, m);
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
                out.println("end " + cpu());
                out.flush();
            }
        }
        out.flush();
    }
}
`, "STACKBYTES", strconv.Itoa(StackBytes))
