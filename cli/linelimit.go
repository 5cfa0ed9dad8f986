package cli

import (
	"bytes"
	"fmt"
	"io"
)

// maxLine bounds a line of text output. A verdict quotes states whose path
// conditions and guards are formulas; printed as trees they can run to
// megabytes on one line (issue 25). Text for people is cut at maxLine
// characters per line, saying so; -json always has everything whole.
const maxLine = 4000

// lineLimiter passes text through, cutting every line after max bytes
// (at a UTF-8 boundary) and noting how much it left out.
type lineLimiter struct {
	w       io.Writer
	max     int
	n       int // bytes of the current line written
	dropped int // bytes of the current line left out
}

func (l *lineLimiter) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		chunk := p
		if i >= 0 {
			chunk = p[:i]
		}
		if room := l.max - l.n; room > 0 && l.dropped == 0 {
			take := min(room, len(chunk))
			if take < len(chunk) {
				for take > 0 && !utf8Start(chunk[take]) {
					take--
				}
			}
			if _, err := l.w.Write(chunk[:take]); err != nil {
				return 0, err
			}
			l.n += take
			l.dropped += len(chunk) - take
		} else {
			l.dropped += len(chunk)
		}
		if i < 0 {
			break
		}
		if l.dropped > 0 {
			if _, err := fmt.Fprintf(l.w, "… (line cut: %d more characters; -json prints it whole)", l.dropped); err != nil {
				return 0, err
			}
		}
		if _, err := l.w.Write([]byte{'\n'}); err != nil {
			return 0, err
		}
		l.n, l.dropped = 0, 0
		p = p[i+1:]
	}
	return total, nil
}

// limitLines is stdout for a command's text output: lines cut at maxLine,
// except where the output is data (-json, -csv, DOT text, a program) or the
// user asked for it whole (-full).
func limitLines(cmd string, args []string, stdout io.Writer) io.Writer {
	switch cmd {
	case "fmt", "dot", "bench", "engines", "variants", "version":
		return stdout
	}
	for _, a := range args {
		switch a {
		case "-json", "--json", "-json=true", "--json=true", "-full", "--full", "-full=true", "--full=true":
			return stdout
		case "--":
			return &lineLimiter{w: stdout, max: maxLine}
		}
	}
	return &lineLimiter{w: stdout, max: maxLine}
}
