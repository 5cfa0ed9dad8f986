package bench

import (
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// PaperLinkedList5 is seed 000's Table 1 (LinkedList, five calls): k, GSE
// paths, summary paths, GSE seconds, summary seconds. k = 7..10 have
// summary paths only. It is drawn for comparison, never used in tests.
var PaperLinkedList5 = []struct {
	K             int
	GSE, SH       float64
	GSETime, SHTm float64
}{
	{3, 1656, 25, 1, 1}, {4, 17485, 39, 3, 2}, {5, 232743, 56, 20, 3}, {6, 3731094, 76, 338, 8},
	{7, 0, 99, 0, 0}, {8, 0, 125, 0, 0}, {9, 0, 154, 0, 0}, {10, 0, 186, 0, 0},
}

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
)

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
		panel("Work vs k-bound: summary solver checks (Z3 + Go), GSE states", "k", "count", gWork),
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
// against k for both engines, one and five calls. GSE asks no solver
// questions (its path conditions are decided by construction), so its work
// is its number of states; the summary engine's is its satisfiability
// checks (Z3 and Go-decided; cache hits left out).
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
	gse := func(r Row) Result { return r.GSE }
	sh := func(r Row) Result { return r.Summary }
	secs := func(e Result) float64 { return e.Wall.Seconds() }
	states := func(e Result) float64 { return float64(e.States) }
	checks := func(e Result) float64 { return float64(e.Queries + e.Decided) }
	circle, square := draw.CircleGlyph{}, draw.SquareGlyph{}
	times = []series{
		line("GSE, 1 call", colGSE, false, circle, SeriesLinkedListK, pick(gse, secs)),
		line("summary, 1 call", colSH, false, circle, SeriesLinkedListK, pick(sh, secs)),
		line("GSE, 5 calls", colGSE, true, square, SeriesLinkedList5K, pick(gse, secs)),
		line("summary, 5 calls", colSH, true, square, SeriesLinkedList5K, pick(sh, secs)),
	}
	work = []series{
		line("GSE states, 1 call", colGSE, false, circle, SeriesLinkedListK, pick(gse, states)),
		line("summary checks, 1 call", colSH, false, circle, SeriesLinkedListK, pick(sh, checks)),
		line("GSE states, 5 calls", colGSE, true, square, SeriesLinkedList5K, pick(gse, states)),
		line("summary checks, 5 calls", colSH, true, square, SeriesLinkedList5K, pick(sh, checks)),
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
	gse := func(r Row) Result { return r.GSE }
	sh := func(r Row) Result { return r.Summary }
	nPaths := func(e Result) float64 { return float64(e.Paths) }
	secs := func(e Result) float64 { return max(e.Wall.Seconds(), 1e-4) }
	circle, square, tri := draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}

	for _, m := range []struct {
		out *[]series
		val func(Result) float64
	}{{&kPaths, nPaths}, {&kTime, secs}} {
		*m.out = append(*m.out,
			line("GSE, 1 call", colGSE, false, circle, byK(gse, m.val), inSeries(SeriesLinkedListK)),
			line("summary, 1 call", colSH, false, circle, byK(sh, m.val), inSeries(SeriesLinkedListK)),
			line("GSE, 5 calls", colGSE, true, square, byK(gse, m.val), inSeries(SeriesLinkedList5K)),
			line("summary, 5 calls", colSH, true, square, byK(sh, m.val), inSeries(SeriesLinkedList5K)))
	}
	var pg, ps, tg, ts plotter.XYs
	for _, p := range PaperLinkedList5 {
		if p.GSE > 0 {
			pg = append(pg, plotter.XY{X: float64(p.K), Y: p.GSE})
			tg = append(tg, plotter.XY{X: float64(p.K), Y: p.GSETime})
		}
		ps = append(ps, plotter.XY{X: float64(p.K), Y: p.SH})
		if p.SHTm > 0 {
			ts = append(ts, plotter.XY{X: float64(p.K), Y: p.SHTm})
		}
	}
	kPaths = append(kPaths,
		series{label: "seed 000 GSE, 5 calls (JPF)", xys: pg, color: colPaper, dashed: true, glyph: tri},
		series{label: "seed 000 summary, 5 calls (JPF)", xys: ps, color: colPaper, glyph: tri})
	kTime = append(kTime,
		series{label: "seed 000 GSE, 5 calls (JPF)", xys: tg, color: colPaper, dashed: true, glyph: tri},
		series{label: "seed 000 summary, 5 calls (JPF)", xys: ts, color: colPaper, glyph: tri})

	calls := inSeries(SeriesLinkedListCalls)
	cPaths = []series{line("GSE", colGSE, false, circle, byCalls(gse, nPaths), calls), line("summary", colSH, false, circle, byCalls(sh, nPaths), calls)}
	cTime = []series{line("GSE", colGSE, false, circle, byCalls(gse, secs), calls), line("summary", colSH, false, circle, byCalls(sh, secs), calls)}
	if len(cPaths[0].xys)+len(cPaths[1].xys) == 0 {
		cPaths, cTime = nil, nil
	}
	has := false
	for _, s := range kPaths[:4] {
		has = has || len(s.xys) > 0
	}
	if !has {
		kPaths, kTime = nil, nil
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
