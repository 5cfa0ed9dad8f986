// Command lockstep checks symbolic-execution engines against GSE over
// Javalite programs; see README.md. It is package cli's Main with the
// built-in engines: a binary with engines of its own is the same two lines
// after an engine.Register.
package main

import "github.com/lockstep-dev/lockstep/cli"

func main() { cli.Main() }
