// Package builtin links every engine of this module into the registry of
// package engine: importing it (for its side effect) makes "gse" and
// "summary" available to engine.Lookup. The registry cannot import the
// engines itself (they import it), so programs that select engines by name
// (the checker, the command) import this package instead.
//
// A new engine package adds one blank import here.
package builtin

import (
	_ "github.com/lockstep-dev/lockstep/engine/extern"
	_ "github.com/lockstep-dev/lockstep/gse"
	_ "github.com/lockstep-dev/lockstep/kiasan"
	_ "github.com/lockstep-dev/lockstep/pose"
	_ "github.com/lockstep-dev/lockstep/summary"
	_ "github.com/lockstep-dev/lockstep/uber"
)
