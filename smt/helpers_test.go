package smt

import (
	"reflect"
	"slices"
	"testing"
)

// The module's go.sum lacks the transitive dependencies of testify/assert,
// so these tests use a few local helpers instead. All of them stop the test
// on failure, which is what every call site wants.
type asserts struct{}

var assert asserts

func (asserts) Same(t testing.TB, want, got *Formula, msg ...any) {
	t.Helper()
	if want != got {
		t.Fatalf("want %v (id %d), got %v (id %d) %v", want, want.ID(), got, got.ID(), msg)
	}
}

func (asserts) NotSame(t testing.TB, a, b *Formula) {
	t.Helper()
	if a == b {
		t.Fatalf("unexpectedly the same formula: %v", a)
	}
}

func (asserts) Equal(t testing.TB, want, got any, msg ...any) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("want %v, got %v %v", want, got, msg)
	}
}

func (asserts) True(t testing.TB, v bool, msg ...any) {
	t.Helper()
	if !v {
		t.Fatalf("expected true %v", msg)
	}
}

func (asserts) Len(t testing.TB, v any, n int, msg ...any) {
	t.Helper()
	if l := reflect.ValueOf(v).Len(); l != n {
		t.Fatalf("length %d, want %d %v", l, n, msg)
	}
}

func (asserts) NoError(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func (asserts) GreaterOrEqual(t testing.TB, a, b int) {
	t.Helper()
	if a < b {
		t.Fatalf("%d < %d", a, b)
	}
}

func (asserts) LessOrEqual(t testing.TB, a, b int, msg ...any) {
	t.Helper()
	if a > b {
		t.Fatalf("%d > %d %v", a, b, msg)
	}
}

func (asserts) ElementsMatch(t testing.TB, want, got []string, msg ...any) {
	t.Helper()
	w, g := slices.Clone(want), slices.Clone(got)
	slices.Sort(w)
	slices.Sort(g)
	if !slices.Equal(w, g) {
		t.Fatalf("want elements %q, got %q %v", want, got, msg)
	}
}

func (asserts) PanicsWithValue(t testing.TB, want any, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		if r := recover(); !reflect.DeepEqual(r, want) {
			t.Fatalf("panic value %v, want %v", r, want)
		}
	}()
	f()
}
