#!/usr/bin/env python3
"""GSE's heap rules (lazy initialization, RULES.md section 5) as an external
engine of lockstep, speaking the process protocol of docs/PROTOCOL.md (JSON
lines on standard input and output). Python 3, standard library only.

    lockstep check -engine 'exec:python3 examples/engines/gse.py' -k 2 testdata/programs/*.jl

GSE has several states per control (one per initialization choice), so it is
checked as a Partition engine: each Field access branch records, besides
GSE's own choice, the resolution facts Kiasan's lazier records (a fresh input
reference r_u for "the object the field holds": r_u = null, r_u = r_a for the
alias of l_a, r_u != null and r_u != r_a for every a for a new object, the
candidates pairwise distinct and not null), which makes the branches' path
conditions disjoint (docs/ENGINES.md, "A worked example"; the checker's own
factGSE is the same engine in Go). Its View is the identity: its states are
guarded states whose value sets are singletons.

Data (protocol version 2, PRIMITIVES.md): int and bool fields hold terms
(the "prim" rows of the state); an input location's primitive fields hold
their initial-value symbols alpha(r, f) from its creation (r its identity
reference), Field access (A) on a primitive field reads the term, Field write
(W) writes it, and the engine applies If (sym) and Assume itself: it is told
S(phi and t) and S(phi and not t) by lockstep ("then_sat", "else_sat",
"sat"), so it needs no solver of its own. The argument --v1 makes it speak
version 1 only (no data), as an engine written before version 2.

Planted mistakes, each a variant and a mutant of its catalog:

* "no-self-alias" (-engine 'exec:python3 examples/engines/gse.py#no-self-alias',
  or the argument --mistake): the alias candidates of a field of l leave out
  l itself, so no object can point to itself. The checker refutes it (cover,
  P2) with a shrunk program.
* "else-not-negated" (or the argument --data-mistake): If (sym) forgets to
  negate the condition on its else branch, which then runs under phi and t.
"""

import json
import sys

VERSIONS = (1, 2)          # the protocol versions this engine speaks
NULL, UN = -1, -2          # r_null, r_un; also l_null, l_un
LNULL, LUN = -1, -2

MISTAKE = "no-self-alias"
DATA_MISTAKE = "else-not-negated"
PRIM_TYPES = ("int", "bool")


class RuleError(Exception):
    """The rule does not apply to this state (answered as kind "rule")."""


def eq(a, b):
    return {"op": "eq", "refs": [a, b]}


def neq(a, b):
    return {"op": "not", "args": [eq(a, b)]}


def negate(f):
    return {"op": "not", "args": [f]}


def conj(fs):
    fs = [f for f in fs if f["op"] != "true"]
    if not fs:
        return {"op": "true"}
    if len(fs) == 1:
        return fs[0]
    return {"op": "and", "args": fs}


class Engine:
    def __init__(self, argv):
        self.forced_mistake = "--mistake" in argv
        self.forced_data_mistake = "--data-mistake" in argv
        self.v1 = "--v1" in argv
        self.protocol = 1
        self.program = None
        self.k = -1
        self.mistake = self.forced_mistake
        self.data_mistake = self.forced_data_mistake
        self.field_class = {}
        self.prim_fields = {}   # class -> [(field id, sort)]
        self.exprs = {}

    # ---- messages ----

    def hello(self, msg):
        offered = set(msg.get("versions") or []) | {msg.get("protocol")}
        speaks = [v for v in VERSIONS if v in offered and not (self.v1 and v > 1)]
        if not speaks:
            raise RuleError("protocol %r not supported" % sorted(offered, key=str))
        self.protocol = max(speaks)
        variants = [
            {"name": "facts", "doc": "GSE's rules A/A', W/W', E/E', Invoke/Invoke' with resolution facts"},
            {"name": MISTAKE, "doc": "planted mistake: no alias candidate is the object itself"},
        ]
        mutants = [{"name": MISTAKE, "doc": "Initialize (alias) leaves out the location whose field is read"}]
        ans = {
            "protocol": self.protocol,
            "name": "gse-py",
            "version": "2.0" if self.protocol >= 2 else "1.0",
            "doc": "GSE with lazy initialization and resolution facts, in Python (examples/engines/gse.py)",
            "shape": "partition",
            "identity_view": True,
            "default": "facts",
            "variants": variants,
            "mutants": {"base": "facts", "k": -1, "steps": 60, "list": mutants},
        }
        if self.protocol >= 2:
            ans["data"] = True
            ans["data_rules"] = ["if_sym", "assume"]
            variants.append({"name": DATA_MISTAKE, "doc": "planted mistake: If (sym) does not negate the condition on its else branch"})
            mutants.append({"name": DATA_MISTAKE, "doc": "If (sym)'s else branch runs under phi and t instead of phi and not t"})
        return ans

    def load(self, msg):
        self.program = msg["program"]
        self.k = msg["k"]
        parts = msg.get("variant", "").split("+")
        self.mistake = self.forced_mistake or MISTAKE in parts
        self.data_mistake = self.forced_data_mistake or DATA_MISTAKE in parts
        self.field_class = {f["id"]: f["type"] for f in self.program["fields"]}
        self.prim_fields = {}
        for f in self.program["fields"]:
            if f["type"] in PRIM_TYPES:
                self.prim_fields.setdefault(f["owner"], []).append((f["id"], f["type"]))
        self.exprs = {e["id"]: e for e in self.program["exprs"]}
        return {"ok": True}

    # ---- the state ----

    @staticmethod
    def binding(s):
        return {b["ref"]: b["gvs"] for b in s["L"]}

    @staticmethod
    def only(L, r):
        g = L.get(r)
        if g is None or len(g) != 1:
            raise RuleError("L(%d) has %s entries, want exactly one" % (r, "no" if g is None else len(g)))
        return g[0]["loc"]

    @staticmethod
    def store(s, L):
        s["L"] = [{"ref": r, "gvs": g} for r, g in sorted(L.items())]

    @staticmethod
    def alloc(s, part):
        r = s["next"][part]
        s["next"][part] = r + 3
        return r

    @staticmethod
    def copy(s):
        return json.loads(json.dumps(s))

    @staticmethod
    def value(s, v):
        s["mode"] = "value"
        s["val"] = v
        s.pop("expr", None)
        s["k"] = s["k"][1:]

    @staticmethod
    def error(s):
        s["mode"] = "error"
        s.pop("val", None)
        s.pop("expr", None)
        s["k"] = []

    def new_prim_row(self, s, cls, identity):
        """The primitive fields of a new input location: alpha(r, f) for each
        primitive field f of its class, r its identity reference (the state's
        last location)."""
        prims = self.prim_fields.get(cls, [])
        if not prims and "prim" not in s:
            return
        n = len(self.program["fields"])
        rows = s.setdefault("prim", [])
        while len(rows) < len(s["locs"]) - 1:
            rows.append([None] * n)
        row = [None] * n
        for f, sort in prims:
            row[f] = {"op": "sym", "ref": identity, "field": f, "sort": sort}
        rows.append(row)

    def input_locs(self, s, cls):
        """rho(C): the input locations of class cls with their identity
        references, by identity reference."""
        out = [(info["identity"], l) for l, info in enumerate(s["locs"]) if info["input"] and info["class"] == cls]
        return sorted(out)

    # ---- the rules ----

    def field_access(self, msg):
        s, r, f = msg["state"], msg["ref"], msg["field"]
        L = self.binding(s)
        l = self.only(L, r)
        if l == LNULL:
            # Rule: Field access (A')
            self.error(s)
            return [{"rule": "Field access (A′)", "state": s}]
        if self.field_class[f] in PRIM_TYPES:
            # Rule: Field access (A) on a primitive field: its term, no
            # initialization (PRIMITIVES.md section 4)
            self.value(s, {"term": s["prim"][l][f]})
            return [{"rule": "Field access (A)", "state": s}]
        # Rule: Field access (A), after the initialization machine ->I*
        out = []
        for t in self.initialize(s, l, f):
            tL = self.binding(t)
            r2 = self.alloc(t, "stack")
            tL[r2] = tL[t["R"][l][f]]
            self.store(t, tL)
            self.value(t, {"ref": r2})
            out.append({"rule": "Field access (A)", "state": t})
        return out

    def initialize(self, s, l, f):
        """One state per choice of ->I for field f of l: null, new (within the
        k-bound), an alias per input location of the field's class, each with
        its resolution facts."""
        L = self.binding(s)
        if [e["loc"] for e in L[s["R"][l][f]]] != [LUN]:
            return [s]
        cls = self.field_class[f]
        cands = self.input_locs(s, cls)
        if self.mistake:
            cands = [(ra, la) for ra, la in cands if la != l]  # the planted mistake
        distinct = []
        for i, (ra, _) in enumerate(cands):
            distinct.append(neq(ra, NULL))
            for rb, _ in cands[:i]:
                distinct.append(neq(ra, rb))
        depth = s["locs"][l]["depth"]
        out = []
        # Rule: Initialize (null)
        t = self.copy(s)
        tL = self.binding(t)
        rn = self.alloc(t, "fresh")
        tL[rn] = [{"guard": {"op": "true"}, "loc": LNULL}]
        t["R"][l][f] = rn
        ru = self.alloc(t, "input")
        self.store(t, tL)
        t["phi"] = conj([t["phi"], conj(distinct + [eq(ru, NULL)])])
        out.append(t)
        # Rule: Initialize (new), only within the k-bound
        if self.k < 0 or depth + 1 <= self.k:
            t = self.copy(s)
            tL = self.binding(t)
            rw = self.alloc(t, "input")
            lw = len(t["locs"])
            t["locs"].append({"class": cls, "input": True, "depth": depth + 1, "identity": rw, "exists": {"op": "true"}})
            row = [UN] * len(self.program["fields"])
            t["R"].append(row)
            self.new_prim_row(t, cls, rw)
            tL[rw] = [{"guard": {"op": "true"}, "loc": lw}]
            t["R"][l][f] = rw
            self.store(t, tL)
            facts = distinct + [neq(rw, NULL)] + [neq(rw, ra) for ra, _ in cands]
            t["phi"] = conj([t["phi"], conj(facts)])
            out.append(t)
        # Rule: Initialize (alias), one branch per (r_a l_a) in rho(C)
        for ra, la in cands:
            t = self.copy(s)
            tL = self.binding(t)
            rf = self.alloc(t, "fresh")
            tL[rf] = [{"guard": {"op": "true"}, "loc": la}]
            t["R"][l][f] = rf
            ru = self.alloc(t, "input")
            self.store(t, tL)
            t["phi"] = conj([t["phi"], conj(distinct + [neq(ru, NULL), eq(ru, ra)])])
            out.append(t)
        return out

    def field_write(self, msg):
        s, x, f = msg["state"], msg["var"], msg["field"]
        L = self.binding(s)
        rx = s["env"][x]["ref"]
        l = self.only(L, rx)
        if l == LNULL:
            # Rule: Field write (W')
            self.error(s)
            return [{"rule": "Field write (W′)", "state": s}]
        if self.field_class[f] in PRIM_TYPES:
            # Rule: Field write (W) on a primitive field: R[(l f) -> t]
            v = s["val"]
            if "bool" in v:  # a control literal is the term true or false
                s["prim"][l][f] = {"op": "true" if v["bool"] else "false"}
            else:
                s["prim"][l][f] = v["term"]
            self.value(s, v)
            return [{"rule": "Field write (W)", "state": s}]
        r = msg["ref"]
        # Rule: Field write (W)
        r2 = self.alloc(s, "fresh")
        L[r2] = L[r]
        s["R"][l][f] = r2
        self.store(s, L)
        self.value(s, {"ref": r})
        return [{"rule": "Field write (W)", "state": s}]

    def equals_ref(self, msg):
        s, r0, r1 = msg["state"], msg["left"], msg["right"]
        L = self.binding(s)
        if self.only(L, r0) == self.only(L, r1):
            # Rule: Equals (E)
            s["phi"] = conj([s["phi"], eq(r0, r1)])
            self.value(s, {"bool": True})
            return [{"rule": "Equals (E)", "state": s}]
        # Rule: Equals (E')
        s["phi"] = conj([s["phi"], neq(r0, r1)])
        self.value(s, {"bool": False})
        return [{"rule": "Equals (E′)", "state": s}]

    def invoke(self, msg):
        s, r = msg["state"], msg["receiver"]
        if self.only(self.binding(s), r) == LNULL:
            # Rule: Invoke'
            self.error(s)
            return [{"rule": "Invoke′", "state": s}]
        # Rule: Invoke: lockstep enters the method (the state is unchanged)
        return [{"rule": "Invoke", "state": s, "enter": True}]

    def if_sym(self, msg):
        """Rule If (sym): the then branch under phi and t when S(phi and t),
        the else branch under phi and not t when S(phi and not t); lockstep
        says which hold. A branch's control is its expression with the rest of
        k."""
        s, t = msg["state"], msg["cond"]
        _, e_then, e_else = self.exprs[msg["expr"]]["kids"]
        out = []
        for expr, sat, cond in ((e_then, msg["then_sat"], t), (e_else, msg["else_sat"], negate(t))):
            if not sat:
                continue
            if expr == e_else and self.data_mistake:
                cond = t  # the planted mistake: the else branch keeps t
            b = self.copy(s)
            b["phi"] = conj([b["phi"], cond])
            b["mode"] = "expr"
            b["expr"] = expr
            b.pop("val", None)
            b["k"] = b["k"][1:]
            out.append({"rule": "If (sym)", "state": b})
        return out

    def assume(self, msg):
        """Rule Assume: true under phi and t when S(phi and t); otherwise no
        successor (the path is pruned)."""
        s = msg["state"]
        if not msg["sat"]:
            return []
        s["phi"] = conj([s["phi"], msg["cond"]])
        self.value(s, {"bool": True})
        return [{"rule": "Assume", "state": s}]

    def handle(self, msg):
        op = msg.get("op")
        if op == "hello":
            return self.hello(msg)
        if op == "load":
            return self.load(msg)
        if op == "view":
            return {"state": msg["state"]}
        rules = {"field_access": self.field_access, "field_write": self.field_write,
                 "equals_ref": self.equals_ref, "invoke": self.invoke}
        if self.protocol >= 2:
            rules.update({"if_sym": self.if_sym, "assume": self.assume})
        if op not in rules:
            raise RuleError("unknown op %r" % op)
        if self.program is None:
            raise RuntimeError("no program loaded")
        return {"successors": rules[op](msg)}


def main():
    eng = Engine(sys.argv[1:])
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        try:
            ans = eng.handle(msg)
        except RuleError as e:
            ans = {"error": {"kind": "rule", "message": str(e)}}
        except Exception as e:  # a bug of this engine, not a verdict
            ans = {"error": {"kind": "internal", "message": "%s: %s" % (type(e).__name__, e)}}
        ans["id"] = msg.get("id")
        out.write(json.dumps(ans, separators=(",", ":"), ensure_ascii=False))
        out.write("\n")
        out.flush()


if __name__ == "__main__":
    main()
