package javalite

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Error is one diagnostic: a position and a reason.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// ErrorList is every diagnostic of one Parse or Check run. Both report all the
// errors they find rather than stopping at the first, so a user fixes a file
// in one round trip; the list is sorted by position.
type ErrorList []*Error

// Error prints one diagnostic per line, so that printing the error of a
// failed Parse or Check shows everything that is wrong.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap exposes the individual errors to errors.Is and errors.As.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// comparePos orders positions by file, line and column.
func comparePos(a, b Pos) int {
	return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
}

// sort orders the list by position; errors at one position keep the order in
// which they were found, which keeps the output deterministic.
func (l ErrorList) sort() {
	slices.SortStableFunc(l, func(a, b *Error) int { return comparePos(a.Pos, b.Pos) })
}

// err returns the list as an error, or nil when it is empty. (Returning a
// nil ErrorList as an error would give a non-nil interface.)
func (l ErrorList) err() error {
	if len(l) == 0 {
		return nil
	}
	l.sort()
	return l
}

// MaxErrors bounds the diagnostics of one Parse or Check run: past it, one
// last error says that the rest were dropped. A file of garbage then costs
// a screenful, not one line per bad token.
const MaxErrors = 100

// errorSink collects diagnostics for the parser and the checker.
type errorSink struct {
	errs    ErrorList
	dropped bool
}

func (s *errorSink) errorf(pos Pos, format string, args ...any) {
	switch {
	case len(s.errs) < MaxErrors:
		s.errs = append(s.errs, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
	case !s.dropped:
		s.dropped = true
		s.errs = append(s.errs, &Error{Pos: pos, Msg: fmt.Sprintf("too many errors (more than %d); the rest are not reported", MaxErrors)})
	}
}
