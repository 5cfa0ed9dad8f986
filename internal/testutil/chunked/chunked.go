// Package chunked reads test files made of chunks separated by "---"
// lines, each chunk one program with its expected errors, in the style of
// go.starlark.net's chunkedfile. A chunk states the errors it expects in
// comments on the line they are reported for: `;;; error: REGEXP`.
//
// It is separate from package testutil because javalite's own tests use it
// and testutil imports javalite.
package chunked

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// Chunk is one program of a chunked file.
type Chunk struct {
	Line int    // first line of the chunk in the file
	Src  []byte // padded with newlines so that positions are file positions
	Text string // the chunk alone (for fuzz seeds)
	// Want holds the expected error patterns by line.
	Want map[int][]*regexp.Regexp
}

// Read splits the file at path into chunks and collects each chunk's
// expectations. A malformed pattern fails t.
func Read(t testing.TB, path string) []Chunk {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	var chunks []Chunk
	start := 0
	flush := func(end int) {
		c := Chunk{Line: start + 1, Want: map[int][]*regexp.Regexp{}}
		text := strings.Join(lines[start:end], "")
		c.Text = text
		c.Src = []byte(strings.Repeat("\n", start) + text)
		for i := start; i < end; i++ {
			parts := strings.Split(lines[i], ";;; error:")
			for _, p := range parts[1:] {
				re, err := regexp.Compile(strings.TrimSpace(p))
				if err != nil {
					t.Fatalf("%s:%d: bad expectation: %v", path, i+1, err)
				}
				c.Want[i+1] = append(c.Want[i+1], re)
			}
		}
		chunks = append(chunks, c)
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "---" {
			flush(i)
			start = i + 1
		}
	}
	flush(len(lines))
	return chunks
}
