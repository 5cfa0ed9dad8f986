// Package choice is the one table of an engine's named rule choices: the
// readings of its sources, proposed fixes, named combinations, and the
// deliberate mutations used to test the checker. Every list, every doc
// line and every "what does this variant change" is derived from the
// table, so a choice has exactly one name per engine and one doc (as
// go/ssa's mode.go keeps a mode's bit, its letter and its doc together).
//
// A variant of the engine is a comparable struct V whose zero value is the
// engine's default reading; a row's Change sets the fields of its choice.
// Names compose with "+": "fixed+m-drop-orig" is the variant that makes
// every choice of `fixed` and of `m-drop-orig` (parts must not set the same
// field to different values). Where names of several engines meet (the
// mutant lists), a name is qualified by its engine: "summary:fixed+m-drop-orig".
//
// The package has no dependencies on the engines, so each engine package
// can keep its own Table[Variant] (summary today; kiasan and pose later).
package choice

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Kind says what a row is.
type Kind uint8

const (
	// Reading is a reading of the sources where they disagree (RULES.md §9),
	// the default reading being the row whose Change is nil.
	Reading Kind = iota
	// Fix is a proposed correction of a rule (docs/FINDINGS.md).
	Fix
	// Combination names a composition of other rows (Of).
	Combination
	// Lineage is a reading from an earlier engine of the same line
	// (seed 004's uber-lazy for the summary engine, ENGINES.md §6).
	Lineage
	// Mutation is a deliberate single-point error: it exists to measure
	// whether the checker notices it, never as a reading of any source.
	Mutation
)

func (k Kind) String() string {
	switch k {
	case Reading:
		return "reading"
	case Fix:
		return "fix"
	case Combination:
		return "combination"
	case Lineage:
		return "lineage"
	case Mutation:
		return "mutation"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Row is one named choice.
type Row[V any] struct {
	Name string
	Kind Kind
	// Doc says what the choice is, in the terms of the rules.
	Doc string
	// Change makes the choice on a variant. nil for the default reading and
	// for combinations.
	Change func(*V)
	// Of is what a Combination composes ("a+b+c").
	Of string
	// Mutant puts the row in the mutation catalog: added to the table's
	// Base it is a deliberate error the checker must find.
	Mutant bool
	// Equivalent, for a mutant, argues why no program can tell it apart
	// from the base under the relations the checker verifies.
	Equivalent string
	// Data marks a mutant of a data rule (PRIMITIVES.md): only programs
	// with data reach it.
	Data bool
}

// Table is an engine's catalog of choices.
type Table[V comparable] struct {
	// Engine qualifies names where several engines meet ("summary").
	Engine string
	// Base is the variant the mutants are built on.
	Base string
	Rows []Row[V]
	// Label stores a variant's name and doc in it.
	Label func(v *V, name, doc string)
}

// Row returns the row with the given name.
func (t *Table[V]) Row(name string) (Row[V], bool) {
	for _, r := range t.Rows {
		if r.Name == name {
			return r, true
		}
	}
	return Row[V]{}, false
}

// Select returns the rows keep accepts, in table order.
func (t *Table[V]) Select(keep func(Row[V]) bool) []Row[V] {
	var out []Row[V]
	for _, r := range t.Rows {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// Qualify prefixes name with the engine: "summary:fixed+m-drop-orig".
func (t *Table[V]) Qualify(name string) string { return t.Engine + ":" + name }

// Unqualify strips this table's engine prefix, if present.
func (t *Table[V]) Unqualify(name string) string {
	return strings.TrimPrefix(name, t.Engine+":")
}

// Lookup returns the variant named name: one row, or rows joined by "+",
// optionally qualified by the engine. A single row keeps its doc (a
// mutation's marked as such); a composition is documented by its parts.
func (t *Table[V]) Lookup(name string) (V, error) {
	name = t.Unqualify(name)
	parts := strings.Split(name, "+")
	var out V
	for _, p := range parts {
		v, err := t.value(p, 0)
		if err != nil {
			return out, err
		}
		if err := compose(&out, v); err != nil {
			return out, fmt.Errorf("%s: variant %q: %v", t.Engine, name, err)
		}
	}
	doc := "composition of " + strings.Join(parts, ", ")
	if len(parts) == 1 {
		r, _ := t.Row(name)
		doc = t.Doc(r)
	}
	t.Label(&out, name, doc)
	return out, nil
}

// Doc is the doc line of a row as a variant carries it.
func (t *Table[V]) Doc(r Row[V]) string {
	if r.Kind == Mutation {
		return "MUTANT (deliberately wrong): " + r.Doc
	}
	return r.Doc
}

// value is the unlabelled variant of one row.
func (t *Table[V]) value(name string, depth int) (V, error) {
	var v V
	r, ok := t.Row(name)
	if !ok {
		return v, t.unknown(name)
	}
	switch {
	case r.Kind == Combination:
		if depth > len(t.Rows) {
			return v, fmt.Errorf("%s: combination %q refers to itself", t.Engine, name)
		}
		for _, p := range strings.Split(r.Of, "+") {
			pv, err := t.value(p, depth+1)
			if err != nil {
				return v, err
			}
			if err := compose(&v, pv); err != nil {
				return v, fmt.Errorf("%s: combination %q: %v", t.Engine, name, err)
			}
		}
	case r.Change != nil:
		r.Change(&v)
	}
	return v, nil
}

func (t *Table[V]) unknown(name string) error {
	names := make([]string, 0, len(t.Rows))
	for _, r := range t.Rows {
		names = append(names, r.Name)
	}
	sort.Strings(names)
	return fmt.Errorf("%s: unknown variant %q (known: %s)", t.Engine, name, strings.Join(names, ", "))
}

// Differences names the single choices v makes, in table order: every
// row with a Change whose choice v contains. The default reading has none;
// a combination lists its parts; a mutant of the base lists the base's
// choices and its own.
func (t *Table[V]) Differences(v V) []string {
	var out []string
	for _, r := range t.Rows {
		if r.Kind == Combination || r.Change == nil {
			continue
		}
		var part V
		r.Change(&part)
		if contains(v, part) {
			out = append(out, r.Name)
		}
	}
	return out
}

// Mutants are the rows of the mutation catalog, in table order.
func (t *Table[V]) Mutants() []Row[V] {
	return t.Select(func(r Row[V]) bool { return r.Mutant })
}

// fields walks the rule-choice fields of two variants of one struct type
// (every field but Name and Doc, nested structs flattened), calling f with
// the path and the two values until it returns an error.
func fields(a, b reflect.Value, path string, f func(path string, a, b reflect.Value) error) error {
	for i := 0; i < a.NumField(); i++ {
		name := a.Type().Field(i).Name
		if name == "Name" || name == "Doc" {
			continue
		}
		fa, fb := a.Field(i), b.Field(i)
		var err error
		if fa.Kind() == reflect.Struct {
			err = fields(fa, fb, path+name+".", f)
		} else {
			err = f(path+name, fa, fb)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// compose sets in dst every choice that v makes (every non-zero field),
// refusing two different non-zero values of one field.
func compose[V any](dst *V, v V) error {
	return fields(reflect.ValueOf(dst).Elem(), reflect.ValueOf(v), "", func(path string, d, s reflect.Value) error {
		if s.IsZero() {
			return nil
		}
		if !d.IsZero() && !reflect.DeepEqual(d.Interface(), s.Interface()) {
			return fmt.Errorf("parts disagree on %s", path)
		}
		d.Set(s)
		return nil
	})
}

// contains reports whether v makes every choice part makes.
func contains[V any](v, part V) bool {
	errNo := fmt.Errorf("no")
	return fields(reflect.ValueOf(v), reflect.ValueOf(part), "", func(_ string, a, b reflect.Value) error {
		if !b.IsZero() && !reflect.DeepEqual(a.Interface(), b.Interface()) {
			return errNo
		}
		return nil
	}) == nil
}
