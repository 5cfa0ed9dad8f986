package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/lockstep-dev/lockstep/internal/report"
	"github.com/lockstep-dev/lockstep/javalite"
	"github.com/lockstep-dev/lockstep/jvm"
	"github.com/lockstep-dev/lockstep/machine"
)

func init() {
	register(&command{
		name:  "java",
		short: "export a program to one Java source file, with a driver that runs it on input heaps",
		usage: "[-class NAME] [-d DIR] [-json] FILE",
		run:   runJava,
	})
}

// runJava prints the Java export of FILE (jvm.Export), or writes it to
// DIR/NAME.java with -d. Only the Java semantics is exported: -semantics
// names another and the command refuses it.
func runJava(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	class := fs.String("class", "", "name of the Java class (default: from the file name, as jvm.ClassName)")
	dir := fs.String("d", "", "write DIR/NAME.java instead of printing the source")
	sem := semanticsFlag(fs)
	asJSON := fs.Bool("json", false, "print one JSON document: {\"file\", \"class\", \"java\" (the source, or \"path\" with -d), \"exit_code\"}")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return usageError("exactly one program FILE is required")
	}
	if *sem != machine.SemJava {
		return usageError("-semantics %s: only the Java semantics can be exported to Java (use -semantics java)", *sem)
	}
	name := *class
	if name == "" {
		name = jvm.ClassName(fs.Arg(0))
	}
	if !jvm.ValidClassName(name) {
		return usageError("-class %q is not a Java class name that the export can use", name)
	}
	p, err := javalite.LoadFile(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return errReported
	}
	src, err := jvm.Export(p, name)
	if err != nil {
		return err
	}
	type javaJSON struct {
		File  string `json:"file"`
		Class string `json:"class"`
		Java  string `json:"java,omitempty"`
		Path  string `json:"path,omitempty"`
		report.Status
	}
	doc := javaJSON{File: fs.Arg(0), Class: name}
	if *dir != "" {
		path := filepath.Join(*dir, name+".java")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			return err
		}
		doc.Path = path
	} else {
		doc.Java = src
	}
	if *asJSON {
		return encodeIndented(stdout, doc)
	}
	if *dir == "" {
		_, err = io.WriteString(stdout, src)
	}
	return err
}
