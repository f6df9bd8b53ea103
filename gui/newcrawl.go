package gui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/crawl/secret"
	"github.com/trawler/trawler/gui/form"
	"github.com/trawler/trawler/gui/runner"
)

// newCrawlScreen is the New crawl form: seeds, the main settings, an
// Advanced section with every other engine setting, and Start.
type newCrawlScreen struct {
	ui      *UI
	content fyne.CanvasObject
	fields  *fieldSet
	filling bool // widgets are being set from saved fields: no checks

	name, seeds              *widget.Entry
	seedBad, seedInfo        *widget.Label // rejected seed lines; how others were read
	depth, threads, maxPages *widget.Entry
	strategy                 *widget.RadioGroup
	mix                      *widget.Slider
	mixText                  *widget.Label
	scope                    *widget.Select
	adv                      *advanced
	profiles                 *profileBar
	start                    *widget.Button
	why                      *widget.Label

	result form.Result
}

var scopeChoices = []string{"host", "domain", "any"}

func newNewCrawlScreen(ui *UI) *newCrawlScreen {
	s := &newCrawlScreen{ui: ui}
	fs := newFieldSet(s.check)
	s.fields = fs
	s.name = fs.entry("optional: the first seed's host")
	s.seeds = fs.multi("https://example.org/\none URL per line; example.org is read as http://example.org/", 6)
	s.seedBad, s.seedInfo = widget.NewLabel(""), widget.NewLabel("")
	s.seedBad.Importance = widget.DangerImportance
	s.seedBad.Wrapping, s.seedInfo.Wrapping = fyne.TextWrapWord, fyne.TextWrapWord
	s.depth = fs.entry("5")
	s.threads = fs.entry("5")
	s.maxPages = fs.entry("0 = no cap")
	s.strategy = widget.NewRadioGroup([]string{"bfs", "dfs", "mixed"}, func(string) { s.check() })
	s.strategy.Horizontal = true
	s.strategy.Required = true
	s.mixText = widget.NewLabel("")
	s.mix = widget.NewSlider(0, 1)
	s.mix.Step = 0.05
	s.mix.OnChanged = func(float64) { s.check() }
	s.scope = widget.NewSelect(scopeChoices, func(string) { s.check() })
	s.adv = newAdvanced(fs)
	s.start = widget.NewButtonWithIcon("Start crawl", theme.MediaPlayIcon(), s.onStart)
	s.start.Importance = widget.HighImportance
	s.why = widget.NewLabel("")
	s.why.Importance = widget.DangerImportance
	s.why.Wrapping = fyne.TextWrapWord

	seedCol := container.NewVBox(
		heading("Where to start"),
		formGrid(fs.row(form.FieldName, "Name", "", s.name),
			fs.row(form.FieldSeeds, "Seed URLs", "", container.NewVBox(s.seeds, s.seedBad, s.seedInfo))),
	)
	limits := container.NewVBox(
		heading("How far"),
		formGrid(
			fs.row(form.FieldDepth, "Depth", "link hops from a seed; 0 = the seeds only", s.depth),
			fs.row(form.FieldThreads, "Threads", fmt.Sprintf("pages fetched at once, 1 to %d", crawl.MaxThreads), s.threads),
			fs.row(form.FieldStrategy, "Order", "breadth-first, depth-first, or mixed", s.strategy),
			fs.row(form.FieldMix, "Mix", "", container.NewBorder(nil, nil, nil, s.mixText, s.mix)),
			fs.row(form.FieldScope, "Scope", "host: the seeds' hosts; domain: their registrable domains; any: everywhere", s.scope),
			fs.row(form.FieldMaxPages, "Page cap", "stop after fetching this many URLs; 0 = no cap", s.maxPages),
		),
	)
	top := container.NewGridWithColumns(2, seedCol, limits)
	acc := widget.NewAccordion(widget.NewAccordionItem("Advanced: rules, network, politeness, limits, re-crawl", s.adv.content))
	body := container.NewVScroll(container.NewPadded(container.NewVBox(top, acc)))
	bar := container.NewBorder(nil, nil, nil, s.start, s.why)
	s.profiles = newProfileBar(s)
	s.content = container.NewBorder(container.NewPadded(s.profiles.content), container.NewPadded(bar), nil, nil, body)
	s.fill(form.Load(ui.app.Preferences()))
	return s
}

// fill sets every widget from f and checks the form.
func (s *newCrawlScreen) fill(f form.Fields) {
	s.filling = true
	s.fields.muted = true
	s.fields.reset()
	s.name.SetText(f.Name)
	s.seeds.SetText(f.Seeds)
	s.depth.SetText(f.Depth)
	s.threads.SetText(f.Threads)
	s.maxPages.SetText(f.MaxPages)
	s.strategy.SetSelected(f.Strategy)
	s.mix.SetValue(f.Mix)
	s.scope.SetSelected(f.Scope)
	s.adv.fill(f)
	s.filling = false
	s.fields.muted = false
	s.check()
}

// read returns the form as typed.
func (s *newCrawlScreen) read() form.Fields {
	f := form.Fields{
		Name: s.name.Text, Seeds: s.seeds.Text, Depth: s.depth.Text, Threads: s.threads.Text,
		Strategy: s.strategy.Selected, Mix: s.mix.Value, MaxPages: s.maxPages.Text, Scope: s.scope.Selected,
	}
	s.adv.read(&f)
	return f
}

// check validates the form as typed, marks the wrong fields and enables
// Start only when everything is right.
func (s *newCrawlScreen) check() {
	if s.filling {
		return
	}
	f := s.read()
	s.result = form.Check(f)
	shown := s.fields.visible(s.result.Errors)
	s.fields.show(shown)
	s.adv.markTabs(shown)
	s.showSeedNotes()
	if f.Strategy == string(crawl.Mixed) {
		s.mix.Enable()
		s.mixText.SetText(fmt.Sprintf("%3.0f%% depth-first", f.Mix*100))
	} else {
		s.mix.Disable()
		s.mixText.SetText("mixed order only")
	}
	switch {
	case !s.result.OK() && len(shown) > 0:
		s.start.Disable()
		s.why.SetText("Start is off until these are fixed — " + s.result.Summary())
	case s.ui.running():
		s.start.Disable()
		s.why.SetText("A crawl is running: stop it in Live before starting another.")
	case s.ui.d == nil:
		s.start.Disable()
		s.why.SetText("No database is open: use File › Open database or New database.")
	default:
		s.start.Enable()
		s.why.SetText("")
	}
}

// showSeedNotes lists the seed lines that are wrong, then how others were
// read.
func (s *newCrawlScreen) showSeedNotes() {
	var bad, info []string
	for _, l := range s.result.Seeds {
		switch {
		case !l.OK() && (s.fields.revealed || s.fields.touched[form.FieldSeeds]):
			bad = append(bad, l.Note())
		case l.Note() != "":
			info = append(info, l.Note())
		}
	}
	showText(s.seedBad, strings.Join(bad, "\n"))
	showText(s.seedInfo, strings.Join(info, "\n"))
}

// showText sets a label's text and hides it while the text is empty.
func showText(l *widget.Label, text string) {
	if text == l.Text && l.Visible() == (text != "") {
		return
	}
	l.SetText(text)
	if text == "" {
		l.Hide()
	} else {
		l.Show()
	}
}

// onStart saves the form and starts the crawl; on a form that is not
// right it shows every error instead.
func (s *newCrawlScreen) onStart() {
	s.fields.reveal()
	s.check()
	if !s.result.OK() || s.ui.running() || s.ui.d == nil {
		return
	}
	f := s.read()
	f.Proxy, _, _ = secret.SplitProxy(f.Proxy) // passwords stay out of the preferences
	form.Save(s.ui.app.Preferences(), f)
	cfg := s.result.Config
	if s.adv.remember.Checked {
		typed := cfg
		s.ui.rememberInBackground(func(store func(host, user, pw string) error) error {
			return rememberAll(typed, store)
		})
	}
	name := strings.TrimSpace(f.Name)
	s.ui.withPasswords("Passwords for "+name, "Start", cfg, func(get passwordSource) {
		if s.ui.running() || s.ui.d == nil {
			return
		}
		if get != nil {
			if err := secret.Fill(&cfg, get); err != nil {
				s.ui.showError(fmt.Errorf("start the crawl: %w", err))
				return
			}
		}
		sess, err := runner.Start(s.ui.d, name, cfg)
		if err != nil {
			s.ui.showError(fmt.Errorf("start the crawl: %w", err))
			return
		}
		s.ui.follow(sess)
	})
}

// focus puts the cursor in the seeds box.
func (s *newCrawlScreen) focus() {
	s.ui.win.Canvas().Focus(s.seeds)
}
