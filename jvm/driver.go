package jvm

import (
	"fmt"
	"strings"

	"github.com/lockstep-dev/lockstep/javalite"
)

// DefaultFuel is the number of method calls one case may make on the JVM
// before the driver stops it as cut: Javalite has no loops, so a run
// that diverges recurses, and every call spends a unit. It is far above
// what a run within lockstep's step bounds makes (each call is at least
// three steps), so the fuel cuts only runs that lockstep cuts too.
const DefaultFuel = 100_000

// StackBytes is the stack size of the thread the driver runs cases on:
// deep enough that a recursion the fuel allows rarely overflows it.
const StackBytes = 1 << 30

// driver writes the runtime of the export: the base class of every
// object, the canonical heap printer, the outcomes that are exceptions,
// the input decoder, runCase and main. Its comments are the documentation
// of the case format for a reader of the Java file.
func (x *exporter) driver() {
	entry := x.p.Entry
	var args []string
	for _, prm := range entry.Params {
		// Entry parameters are not input: true, 0 or null (PRIMITIVES.md §2).
		switch prm.T.Kind {
		case javalite.KindBool:
			args = append(args, "true")
		case javalite.KindInt:
			args = append(args, "0L")
		default:
			args = append(args, "null")
		}
	}
	call := fmt.Sprintf("((%s) objs[0]).%s(%s)", className(entry.Owner), methodName(entry), strings.Join(args, ", "))
	var result string
	switch entry.RetT.Kind {
	case javalite.KindInt, javalite.KindBool:
		result = "out = String.valueOf(" + call + ");"
	default:
		result = "$res = " + call + "; out = null;"
	}
	var alloc strings.Builder
	for i, c := range x.p.Classes {
		fmt.Fprintf(&alloc, "            case %d: return new %s();\n", i, className(c))
	}
	r := strings.NewReplacer("ENTRYCALL", result, "ALLOCCASES", alloc.String(), "DEFAULTFUEL", fmt.Sprint(DefaultFuel), "STACKBYTES", fmt.Sprint(StackBytes))
	x.b.WriteString(r.Replace(driverJava))
}

const driverJava = `
    // ---- driver -------------------------------------------------------
    // Every object of the program extends $Obj, so the driver can build
    // input heaps and print the final heap without reflection.
    static abstract class $Obj {
        // $id numbers objects in creation order: the inputs 0..n-1, then
        // the objects of (new C), as lockstep's interpreter numbers them.
        final int $id = $created++;
        abstract String $name();
        abstract void $set(int f, long v, $Obj[] objs);
        abstract void $dump(StringBuilder b, $Canon c);
        abstract void $refs($Canon c);
    }

    // Outcomes that end a run early. They carry no stack trace: they are
    // control flow, thrown at most once per case.
    static final class $Stop extends RuntimeException {
        $Stop(String m) { super(m, null, false, false); }
    }
    static final $Stop $CUT = new $Stop("cut");
    static final $Stop $PRUNED = new $Stop("pruned");
    static long $fuel;
    static int $created;
    static long $fuelPerCase = Long.getLong("lockstep.fuel", DEFAULTFUEL);

    static $Obj $alloc(int cls) {
        switch (cls) {
ALLOCCASES            default: throw new IllegalArgumentException("no class " + cls);
        }
    }

    // The canonical form of a heap: the input objects keep their numbers
    // o0..on-1; the objects reachable from them are numbered breadth-first
    // (objects in number order, reference fields in declaration order),
    // then those reachable only from the result. lockstep numbers its own
    // final heap the same way (package jvm, Canonical).
    static final class $Canon {
        final java.util.IdentityHashMap<$Obj, Integer> num = new java.util.IdentityHashMap<>();
        final java.util.ArrayList<$Obj> order = new java.util.ArrayList<>();
        int done;
        void visit($Obj o) {
            if (o != null && !num.containsKey(o)) { num.put(o, order.size()); order.add(o); }
        }
        void close() { while (done < order.size()) order.get(done++).$refs(this); }
        String ref($Obj o) { return o == null ? "null" : "o" + num.get(o); }
        String heap() {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < order.size(); i++) {
                if (i > 0) b.append(' ');
                b.append('o').append(i).append(':');
                order.get(i).$dump(b, this);
            }
            return b.toString();
        }
    }

    // runCase runs the entry method on one input heap and returns its
    // outcome and final heap as "OUTCOME | HEAP", OUTCOME one of
    // "value V" (V an int, true, false, null or oN), "error" (a
    // NullPointerException: a call, field read or write on null), "pruned"
    // (an assume was false), "range" (an ArithmeticException: a sum left
    // the long range), "cut" (the call fuel ran out), "overflow" (a
    // StackOverflowError). The heap is printed after every outcome but cut
    // and overflow; an object result is followed by " | created oK", its
    // number in creation order (the inputs o0..on-1, then the objects of
    // (new C)), the numbering lockstep's interpreter gives values.
    //
    // The input is the numbers of the line, separated by spaces: the
    // number of objects n, then per object its class (an index into the
    // program's classes in declaration order), its number of fields, and
    // the value of every field in declaration order: the index of the object a
    // reference field points to or -1 for null, 0 or 1 for a bool, the
    // number of an int. Object 0 is the entry receiver.
    public static String runCase(String line) {
        String[] tok = line.trim().split(" +");
        int n = Integer.parseInt(tok[0]);
        $Obj[] objs = new $Obj[n];
        $created = 0;
        long[][] vals = new long[n][];
        int at = 1;
        for (int i = 0; i < n; i++) {
            objs[i] = $alloc(Integer.parseInt(tok[at++]));
            int nf = Integer.parseInt(tok[at++]);
            vals[i] = new long[nf];
            for (int f = 0; f < nf; f++) vals[i][f] = Long.parseLong(tok[at++]);
        }
        for (int i = 0; i < n; i++)
            for (int f = 0; f < vals[i].length; f++) objs[i].$set(f, vals[i][f], objs);
        $fuel = $fuelPerCase;
        $Obj $res = null;
        String out;
        try {
            ENTRYCALL
        } catch (NullPointerException e) {
            out = "error";
        } catch (ArithmeticException e) {
            out = "range";
        } catch (StackOverflowError e) {
            return "overflow";
        } catch ($Stop e) {
            if (e == $CUT) return "cut";
            out = "pruned";
        }
        $Canon c = new $Canon();
        for ($Obj o : objs) c.visit(o);
        c.close();
        if (out == null) {
            c.visit($res);
            c.close();
            out = c.ref($res);
            if ($res != null) return "value " + out + " | " + c.heap() + " | created o" + $res.$id;
        }
        return (out.equals("error") || out.equals("range") || out.equals("pruned") ? out : "value " + out) + " | " + c.heap();
    }

    // main reads one case per line from stdin and prints one outcome per
    // line, on a thread with a deep stack.
    public static void main(String[] args) throws Exception {
        Thread t = new Thread(null, () -> {
            try {
                java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in));
                java.io.PrintWriter out = new java.io.PrintWriter(new java.io.BufferedWriter(new java.io.OutputStreamWriter(System.out)));
                for (String line; (line = in.readLine()) != null; ) {
                    if (!line.isBlank()) out.println(runCase(line));
                }
                out.flush();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "lockstep", STACKBYTES);
        t.start();
        t.join();
    }
`
