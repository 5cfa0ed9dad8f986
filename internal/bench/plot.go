package bench

import (
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// PaperLinkedList5 is seed 000's Table 1 (LinkedList, five calls): k, GSE
// paths, summary paths, lazier# paths, GSE seconds, summary seconds,
// drawn from the table of Published (published.go, which cites the
// sources; k = 7..10 and the lazier# paths are the published version's,
// not in the seed's OCR text). It is drawn for comparison, never used in
// tests.
var PaperLinkedList5 = func() (out []struct {
	K                    int
	GSE, SH, LazierSharp float64
	GSETime, SHTm        float64
}) {
	for _, p := range linkedList5Pub {
		out = append(out, struct {
			K                    int
			GSE, SH, LazierSharp float64
			GSETime, SHTm        float64
		}{p.k, float64(p.gse), float64(p.sh), float64(p.lzs), p.gseSec, p.shSec})
	}
	return out
}()

// Figure file names written by Plot, without extension.
const (
	FigureName = "fig2"
	// GrowthName is the figure of time and solver work against k.
	GrowthName = "growth"
)

var (
	colGSE   = color.RGBA{R: 0x1f, G: 0x5f, B: 0xbf, A: 0xff}
	colSH    = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	colPaper = color.RGBA{R: 0x80, G: 0x80, B: 0x80, A: 0xff}
	// colOther colours the engines of Options.Also by registry name; an
	// engine not listed gets colFallback.
	colOther = map[string]color.Color{
		"lazier":  color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
		"lazier#": color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
		"uber":    color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff},
		"pose":    color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff},
	}
	colFallback = color.RGBA{R: 0x17, G: 0xbe, B: 0xcf, A: 0xff}
)

// lanes are the engines of the rows with their colours: GSE, the compared
// engine ("summary" in the legends) and the engines of Options.Also.
func lanes(rows []Row) (names []string, res []func(Row) Result, cols []color.Color) {
	names = []string{"GSE", "summary"}
	res = []func(Row) Result{func(r Row) Result { return r.GSE }, func(r Row) Result { return r.Summary }}
	cols = []color.Color{colGSE, colSH}
	if len(rows) == 0 {
		return
	}
	for _, o := range rows[0].Others {
		spec := o.Engine
		name, _, _ := strings.Cut(spec, ":")
		c, ok := colOther[name]
		if !ok {
			c = colFallback
		}
		names = append(names, spec)
		res = append(res, func(r Row) Result { e, _ := r.Other(spec); return e })
		cols = append(cols, c)
	}
	return
}

// asksSolver says whether engine res asked the solver anything in rows:
// its work is then its satisfiability checks, else its states.
func asksSolver(rows []Row, res func(Row) Result) bool {
	for _, r := range rows {
		if e := res(r); e.Queries+e.Decided > 0 {
			return true
		}
	}
	return false
}

type series struct {
	label  string
	xys    plotter.XYs
	color  color.Color
	dashed bool
	glyph  draw.GlyphDrawer
}

// Plot draws seed 000's Figure 2 from rows: paths and wall time against k
// (LinkedList with one and five calls, and the paper's five-call numbers)
// and against the number of calls at k = CallsK, log scale, both engines. It
// writes DIR/fig2.png and DIR/fig2.svg. Runs that did not finish are left
// out of the lines (the table lists them as cut).
func Plot(rows []Row, dir string) error {
	kPaths, kTime, cPaths, cTime := figures(rows)
	if len(kPaths) == 0 && len(cPaths) == 0 {
		return errors.New("bench: nothing to plot: the rows hold no LinkedList series")
	}
	grid := [][]*plot.Plot{
		{panel("Paths vs k-bound (LinkedList)", "k", "paths", kPaths),
			panel("Wall time vs k-bound (LinkedList)", "k", "seconds", kTime)},
		{panel(fmt.Sprintf("Paths vs calls of contains (k = %d)", CallsK), "calls", "paths", cPaths),
			panel(fmt.Sprintf("Wall time vs calls of contains (k = %d)", CallsK), "calls", "seconds", cTime)},
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := writeGrid(grid, dir, FigureName); err != nil {
		return err
	}
	gTime, gWork := growth(rows)
	if gTime == nil {
		return nil
	}
	return writeGrid([][]*plot.Plot{{
		panel("Wall time vs k-bound (LinkedList)", "k", "seconds", gTime),
		panel("Work vs k-bound: solver checks (Z3 + Go) of the engines that ask, states of the others", "k", "count", gWork),
	}}, dir, GrowthName)
}

// writeGrid draws a grid of panels into DIR/NAME.png and DIR/NAME.svg.
func writeGrid(grid [][]*plot.Plot, dir, name string) error {
	w, h := 30*vg.Centimeter, 11*vg.Centimeter*vg.Length(len(grid))
	png := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(110))}
	svg := vgsvg.New(w, h)
	for _, c := range []struct {
		canvas vg.CanvasWriterTo
		ext    string
	}{{png, "png"}, {svg, "svg"}} {
		dc := draw.New(c.canvas)
		tiles := draw.Tiles{Rows: len(grid), Cols: len(grid[0]),
			PadX: vg.Centimeter, PadY: vg.Centimeter,
			PadTop: vg.Millimeter * 4, PadBottom: vg.Millimeter * 4, PadLeft: vg.Millimeter * 4, PadRight: vg.Millimeter * 4}
		cs := plot.Align(grid, tiles, dc)
		for i := range grid {
			for j := range grid[i] {
				grid[i][j].Draw(cs[i][j])
			}
		}
		f, err := os.Create(filepath.Join(dir, name+"."+c.ext))
		if err != nil {
			return err
		}
		if _, err := c.canvas.WriteTo(f); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}

// growth collects the lines of the growth figure: wall time and work
// against k for every engine, one and five calls. An engine that asks no
// solver questions (GSE, whose path conditions are decided by
// construction, and Kiasan's explicit engines) has its states as work;
// the others (heap summaries, uber-lazy) their satisfiability checks (Z3
// and Go-decided; cache hits left out).
func growth(rows []Row) (times, work []series) {
	pick := func(res func(Row) Result, val func(Result) float64) func(Row) (float64, float64, bool) {
		return func(r Row) (float64, float64, bool) {
			e := res(r)
			return float64(r.K), max(val(e), 1e-4), e.Status == Done
		}
	}
	line := func(label string, col color.Color, dashed bool, glyph draw.GlyphDrawer, name string, f func(Row) (float64, float64, bool)) series {
		s := series{label: label, color: col, dashed: dashed, glyph: glyph}
		for _, r := range rows {
			if r.Series != name {
				continue
			}
			if x, y, ok := f(r); ok {
				s.xys = append(s.xys, plotter.XY{X: x, Y: y})
			}
		}
		return s
	}
	secs := func(e Result) float64 { return e.Wall.Seconds() }
	states := func(e Result) float64 { return float64(e.States) }
	checks := func(e Result) float64 { return float64(e.Queries + e.Decided) }
	circle, square := draw.CircleGlyph{}, draw.SquareGlyph{}
	names, res, cols := lanes(rows)
	for i, name := range names {
		what, val := "states", states
		if asksSolver(rows, res[i]) {
			what, val = "checks", checks
		}
		times = append(times,
			line(name+", 1 call", cols[i], false, circle, SeriesLinkedListK, pick(res[i], secs)),
			line(name+", 5 calls", cols[i], true, square, SeriesLinkedList5K, pick(res[i], secs)))
		work = append(work,
			line(name+" "+what+", 1 call", cols[i], false, circle, SeriesLinkedListK, pick(res[i], val)),
			line(name+" "+what+", 5 calls", cols[i], true, square, SeriesLinkedList5K, pick(res[i], val)))
	}
	for _, s := range times {
		if len(s.xys) > 0 {
			return times, work
		}
	}
	return nil, nil
}

// figures collects the four panels' lines from the rows.
func figures(rows []Row) (kPaths, kTime, cPaths, cTime []series) {
	line := func(label string, col color.Color, dashed bool, glyph draw.GlyphDrawer, pick func(Row) (float64, float64, bool), keep func(Row) bool) series {
		s := series{label: label, color: col, dashed: dashed, glyph: glyph}
		for _, r := range rows {
			if !keep(r) {
				continue
			}
			if x, y, ok := pick(r); ok {
				s.xys = append(s.xys, plotter.XY{X: x, Y: y})
			}
		}
		return s
	}
	inSeries := func(name string) func(Row) bool { return func(r Row) bool { return r.Series == name } }
	byK := func(res func(Row) Result, val func(Result) float64) func(Row) (float64, float64, bool) {
		return func(r Row) (float64, float64, bool) {
			e := res(r)
			return float64(r.K), val(e), e.Status == Done
		}
	}
	byCalls := func(res func(Row) Result, val func(Result) float64) func(Row) (float64, float64, bool) {
		return func(r Row) (float64, float64, bool) {
			e := res(r)
			return float64(r.Calls), val(e), e.Status == Done
		}
	}
	nPaths := func(e Result) float64 { return float64(e.Paths) }
	secs := func(e Result) float64 { return max(e.Wall.Seconds(), 1e-4) }
	circle, square, tri := draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}
	names, res, cols := lanes(rows)

	for _, m := range []struct {
		out *[]series
		val func(Result) float64
	}{{&kPaths, nPaths}, {&kTime, secs}} {
		for i, name := range names {
			*m.out = append(*m.out,
				line(name+", 1 call", cols[i], false, circle, byK(res[i], m.val), inSeries(SeriesLinkedListK)),
				line(name+", 5 calls", cols[i], true, square, byK(res[i], m.val), inSeries(SeriesLinkedList5K)))
		}
	}
	var pg, ps, pl, tg, ts plotter.XYs
	for _, p := range PaperLinkedList5 {
		if p.GSE > 0 {
			pg = append(pg, plotter.XY{X: float64(p.K), Y: p.GSE})
			tg = append(tg, plotter.XY{X: float64(p.K), Y: p.GSETime})
		}
		ps = append(ps, plotter.XY{X: float64(p.K), Y: p.SH})
		if p.LazierSharp > 0 {
			pl = append(pl, plotter.XY{X: float64(p.K), Y: p.LazierSharp})
		}
		if p.SHTm > 0 {
			ts = append(ts, plotter.XY{X: float64(p.K), Y: p.SHTm})
		}
	}
	has := false
	for _, s := range kPaths {
		has = has || len(s.xys) > 0
	}
	if !has {
		kPaths, kTime = nil, nil
	} else {
		kPaths = append(kPaths,
			series{label: "seed 000 GSE, 5 calls (JPF)", xys: pg, color: colPaper, dashed: true, glyph: tri},
			series{label: "seed 000 summary, 5 calls (JPF)", xys: ps, color: colPaper, glyph: tri},
			series{label: "seed 000 lazier#, 5 calls (†: published version, RULES.md §10)", xys: pl, color: colOther["lazier#"], dashed: true, glyph: tri})
		kTime = append(kTime,
			series{label: "seed 000 GSE, 5 calls (JPF)", xys: tg, color: colPaper, dashed: true, glyph: tri},
			series{label: "seed 000 summary, 5 calls (JPF)", xys: ts, color: colPaper, glyph: tri})
	}

	calls := inSeries(SeriesLinkedListCalls)
	n := 0
	for i, name := range names {
		cPaths = append(cPaths, line(name, cols[i], false, circle, byCalls(res[i], nPaths), calls))
		cTime = append(cTime, line(name, cols[i], false, circle, byCalls(res[i], secs), calls))
		n += len(cPaths[i].xys)
	}
	if n == 0 {
		cPaths, cTime = nil, nil
	}
	return
}

func panel(title, x, y string, lines []series) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y + " (log scale)"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.X.Tick.Marker = intTicks{}
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	p.Add(plotter.NewGrid())
	if len(lines) == 0 {
		p.Title.Text += " (no data)"
		return p
	}
	top := 0.0
	for _, s := range lines {
		if len(s.xys) == 0 {
			continue
		}
		for _, xy := range s.xys {
			top = max(top, xy.Y)
		}
		l, pts, err := plotter.NewLinePoints(s.xys)
		if err != nil {
			continue // NaN or infinite values: leave the line out
		}
		l.Color = s.color
		l.Width = vg.Points(1.5)
		if s.dashed {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		pts.Color = s.color
		pts.Shape = s.glyph
		pts.Radius = vg.Points(2.5)
		p.Add(l, pts)
		p.Legend.Add(s.label, l, pts)
	}
	// Two decades of headroom keep the legend (top left) off the lines.
	if top > 0 {
		p.Y.Max = top * 300
	}
	return p
}

// intTicks puts a labelled tick on every integer: k and the number of
// calls are small integers.
type intTicks struct{}

func (intTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for v := float64(int(min)); v <= max; v++ {
		if v >= min {
			out = append(out, plot.Tick{Value: v, Label: fmt.Sprint(int(v))})
		}
	}
	return out
}
