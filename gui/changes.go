package gui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl/textdiff"
	"github.com/trawler/trawler/db"
)

// changesScreen lists what the latest cycle of the shown crawl found new,
// changed, gone or failing, with the cycle's counts on top and, for the
// selected page, a word diff of its last two texts.
type changesScreen struct {
	ui      *UI
	content fyne.CanvasObject

	report *widget.Label
	export *widget.Button
	table  *widget.Table
	diff   *widget.RichText
	about  *widget.Label // what the diff compares

	crawl int64
	cycle int
	rows  []db.ChangeRow
	gen   int // bumps on every load, so late answers are dropped
}

// maxChangeRows bounds the list; the CSV export has them all.
const maxChangeRows = 5000

var changeColumns = []textColumn{
	{"Change", 80}, {"URL", 420}, {"Title", 220}, {"Status", 60}, {"+words", 70}, {"−words", 70},
}

func newChangesScreen(ui *UI) *changesScreen {
	s := &changesScreen{ui: ui}
	s.report = widget.NewLabel("")
	s.report.Wrapping = fyne.TextWrapWord
	s.export = widget.NewButtonWithIcon("Export changes CSV…", theme.DocumentSaveIcon(), s.exportDialog)
	refresh := widget.NewButtonWithIcon("Refresh", theme.ViewRefreshIcon(), s.reload)
	s.table = textTable(changeColumns, fyne.TextTruncateEllipsis, func() int { return len(s.rows) },
		func(row, col int) string { return changeCell(s.rows[row], col) })
	s.table.OnSelected = func(id widget.TableCellID) {
		if id.Row < len(s.rows) {
			s.showDiff(s.rows[id.Row])
		}
	}
	s.diff = widget.NewRichText()
	s.diff.Wrapping = fyne.TextWrapWord
	s.about = widget.NewLabel("Select a changed page to compare its last two versions.")
	s.about.Wrapping = fyne.TextWrapWord
	head := container.NewBorder(nil, nil, heading("Changes"), container.NewHBox(s.export, refresh), s.report)
	diffBox := container.NewBorder(s.about, nil, nil, nil, container.NewVScroll(s.diff))
	split := container.NewVSplit(s.table, diffBox)
	split.Offset = 0.55
	s.content = container.NewPadded(container.NewBorder(head, nil, nil, nil, split))
	s.setCrawl(0)
	return s
}

func changeCell(r db.ChangeRow, col int) string {
	switch col {
	case 0:
		return string(r.Change)
	case 1:
		return r.URL
	case 2:
		return r.Title
	case 3:
		if r.Status == 0 {
			return "—"
		}
		return strconv.Itoa(r.Status)
	case 4:
		return strconv.Itoa(r.WordsAdded)
	case 5:
		return strconv.Itoa(r.WordsRemoved)
	}
	return ""
}

// setCrawl shows the changes of crawl id's latest cycle (none for 0).
func (s *changesScreen) setCrawl(id int64) {
	s.crawl = id
	s.reload()
}

// changeData is one load of the screen.
type changeData struct {
	report db.Report
	rows   []db.ChangeRow
	cycles int
}

// reload reads the latest cycle's report and changes again.
func (s *changesScreen) reload() {
	s.gen++
	gen, d, id := s.gen, s.ui.d, s.crawl
	s.rows = nil
	s.table.UnselectAll()
	s.table.Refresh()
	s.clearDiff()
	if d == nil || id == 0 {
		s.report.SetText("Open a crawl in Crawls to see what its latest re-crawl found.")
		s.export.Disable()
		return
	}
	background(s.ui, func() (changeData, error) {
		return loadChanges(d, id)
	}, func(cd changeData, err error) {
		if gen != s.gen {
			return
		}
		if err != nil {
			s.report.SetText("")
			s.ui.showError(err)
			return
		}
		s.show(cd)
	})
}

func loadChanges(d *db.DB, id int64) (changeData, error) {
	ctx := context.Background()
	var cd changeData
	cycles, err := d.Cycles(ctx, id)
	if err != nil || len(cycles) == 0 {
		return cd, err
	}
	cd.cycles = len(cycles)
	last := cycles[len(cycles)-1].Cycle
	if cd.report, err = d.ChangeReport(ctx, id, last); err != nil {
		return cd, fmt.Errorf("read the change report: %w", err)
	}
	cd.rows, err = d.Changes(ctx, db.ChangeQuery{Crawl: id, Cycle: last, Limit: maxChangeRows})
	if err != nil {
		return cd, fmt.Errorf("list the changes: %w", err)
	}
	return cd, nil
}

func (s *changesScreen) show(cd changeData) {
	if cd.cycles == 0 {
		s.report.SetText("No cycle of this crawl has been recorded yet.")
		s.export.Disable()
		return
	}
	r := cd.report
	s.cycle = r.Cycle
	what := "first crawl"
	if r.Cycle > 0 {
		what = fmt.Sprintf("re-crawl %d", r.Cycle)
	}
	state := ""
	if r.FinishedAt.IsZero() {
		state = " (not finished)"
	}
	s.report.SetText(fmt.Sprintf("Cycle %d, %s%s: %s", r.Cycle, what, state, r.Summary()))
	s.rows = cd.rows
	s.table.Refresh()
	s.export.Enable()
}

func (s *changesScreen) clearDiff() {
	s.diff.Segments = nil
	s.diff.Refresh()
	s.about.SetText("Select a changed page to compare its last two versions.")
}

// showDiff compares the last two texts kept of the page in r.
func (s *changesScreen) showDiff(r db.ChangeRow) {
	gen, d, id := s.gen, s.ui.d, s.crawl
	background(s.ui, func() ([]db.Version, error) {
		return d.Versions(context.Background(), id, r.URL)
	}, func(vs []db.Version, err error) {
		if gen != s.gen {
			return
		}
		if err != nil {
			s.ui.showError(err)
			return
		}
		if len(vs) < 2 {
			s.diff.Segments = nil
			s.diff.Refresh()
			s.about.SetText(r.URL + ": only one version is kept, nothing to compare.")
			return
		}
		segs := textdiff.Words(vs[1].Text, vs[0].Text)
		s.about.SetText(fmt.Sprintf("%s: cycle %d → cycle %d, %d words added (green), %d removed (red)",
			r.URL, vs[1].Cycle, vs[0].Cycle, textdiff.SizeOf(segs).Added, textdiff.SizeOf(segs).Removed))
		s.diff.Segments = diffSegments(segs)
		s.diff.Refresh()
	})
}

// diffContext is the words of unchanged text kept beside a change.
const diffContext = 12

// diffSegments styles a word diff: inserted words green and bold, deleted
// ones red and italic, long unchanged stretches cut to their ends.
func diffSegments(segs []textdiff.Segment) []widget.RichTextSegment {
	var out []widget.RichTextSegment
	for i, sg := range segs {
		style := widget.RichTextStyle{Inline: true}
		text := sg.Text
		switch sg.Op {
		case textdiff.Insert:
			style.ColorName, style.TextStyle.Bold = theme.ColorNameSuccess, true
		case textdiff.Delete:
			style.ColorName, style.TextStyle.Italic = theme.ColorNameError, true
			text = "[−" + strings.TrimSpace(text) + "]"
		default:
			text = trimEqual(text, i > 0, i < len(segs)-1)
		}
		// Inline segments are drawn end to end: one space after each.
		out = append(out, &widget.TextSegment{Text: strings.TrimSpace(text) + " ", Style: style})
	}
	return out
}

// trimEqual shortens unchanged text to the words next to the changes
// before (when after is true) and after it.
func trimEqual(text string, before, after bool) string {
	words := strings.Fields(text)
	keepHead, keepTail := 0, 0
	if before {
		keepHead = diffContext
	}
	if after {
		keepTail = diffContext
	}
	if len(words) <= keepHead+keepTail {
		return text
	}
	var parts []string
	if keepHead > 0 {
		parts = append(parts, strings.Join(words[:keepHead], " "))
	}
	parts = append(parts, "…")
	if keepTail > 0 {
		parts = append(parts, strings.Join(words[len(words)-keepTail:], " "))
	}
	return strings.Join(parts, " ")
}

// exporter returns a function writing the shown cycle's changes as CSV,
// safe to call off the UI goroutine.
func (s *changesScreen) exporter() func(io.Writer) (int, error) {
	d, q := s.ui.d, db.ChangeQuery{Crawl: s.crawl, Cycle: s.cycle}
	return func(w io.Writer) (int, error) {
		if d == nil || q.Crawl == 0 {
			return 0, errors.New("export changes: no crawl is open")
		}
		return d.ExportChangesCSV(context.Background(), w, q)
	}
}

func (s *changesScreen) exportDialog() {
	export := s.exporter()
	dlg := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil {
			s.ui.showError(fmt.Errorf("choose where to export the changes: %w", err))
			return
		}
		if w == nil {
			return
		}
		background(s.ui, func() (int, error) {
			_, err := export(w)
			return 0, errors.Join(err, w.Close())
		}, func(_ int, err error) { s.ui.showError(err) })
	}, s.ui.win)
	dlg.SetFileName(fmt.Sprintf("changes-cycle-%d.csv", s.cycle))
	s.ui.startIn(dlg)
	dlg.Show()
}
