package gen

import "github.com/lockstep-dev/lockstep/javalite"

// prune removes the methods that the entry method cannot reach through
// calls, the fields that no live method reads or writes, then the classes
// that nothing left mentions. Dead code would only make programs longer:
// the engines never execute it, and a field that is never accessed is never
// initialized, so it changes no path. A shrunk counterexample should show
// only what runs. Method and field names are unique in a generated program,
// so a name identifies its declaration without type information.
func prune(p *javalite.Program) {
	byName := map[string]*javalite.Method{}
	for _, cl := range p.Classes {
		for _, m := range cl.Methods {
			byName[m.Name] = m
		}
	}
	live := map[*javalite.Method]bool{}
	usedClass := map[string]bool{p.EntryClass: true}
	usedField := map[string]bool{}
	var work []*javalite.Method
	if m := byName[p.EntryMethod]; m != nil {
		live[m] = true
		work = append(work, m)
	}
	for len(work) > 0 {
		m := work[len(work)-1]
		work = work[:len(work)-1]
		usedClass[m.Ret.Name] = true
		for _, prm := range m.Params {
			usedClass[prm.Type.Name] = true
		}
		javalite.Walk(m.Body, func(e javalite.Expr) {
			switch e := e.(type) {
			case *javalite.Call:
				if callee := byName[e.MethodName]; callee != nil && !live[callee] {
					live[callee] = true
					work = append(work, callee)
				}
			case *javalite.FieldAccess:
				usedField[e.FieldName] = true
			case *javalite.FieldWrite:
				usedField[e.FieldName] = true
			case *javalite.New:
				usedClass[e.ClassName] = true
			case *javalite.VarDecl:
				usedClass[e.DeclType.Name] = true
			}
		})
	}
	// A class owning a live method is used; so are the classes its fields
	// name, transitively (a field may only name a declared class).
	byClass := map[string]*javalite.Class{}
	for _, cl := range p.Classes {
		byClass[cl.Name] = cl
		fs := cl.Fields[:0]
		for _, f := range cl.Fields {
			if usedField[f.Name] {
				fs = append(fs, f)
			}
		}
		cl.Fields = fs
		for _, m := range cl.Methods {
			if live[m] {
				usedClass[cl.Name] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for name := range usedClass {
			cl := byClass[name]
			if cl == nil {
				continue // bool or int
			}
			for _, f := range cl.Fields {
				if !usedClass[f.Type.Name] {
					usedClass[f.Type.Name] = true
					changed = true
				}
			}
		}
	}
	var classes []*javalite.Class
	for _, cl := range p.Classes {
		if !usedClass[cl.Name] {
			continue
		}
		ms := cl.Methods[:0]
		for _, m := range cl.Methods {
			if live[m] {
				ms = append(ms, m)
			}
		}
		cl.Methods = ms
		classes = append(classes, cl)
	}
	p.Classes = classes
}
