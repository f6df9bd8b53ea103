package gui

import (
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/trawler/trawler/crawl"
	"github.com/trawler/trawler/gui/form"
)

// advanced is the New crawl form's Advanced section: every engine setting
// the main part does not show, on five tabs.
type advanced struct {
	fs      *fieldSet
	content fyne.CanvasObject
	tabs    *container.AppTabs

	include, exclude, perHost, randSeed   *widget.Entry
	wordLists                             *widget.Entry
	connectTimeout, timeout, maxRedirects *widget.Entry
	userAgent, proxy                      *widget.Entry
	auth                                  *authRows
	remember                              *widget.Check // store typed passwords in the keychain
	robots, sitemaps, storeIP, resources  *widget.Check
	delay, maxCrawlDelay, robotsRetry     *widget.Entry
	rps, maxPerHost                       *widget.Entry
	maxSize, contentTypes                 *widget.Entry
	maxURLLength, expectedURLs, memURLs   *widget.Entry
	trapBudget, trapRepeats, queryParams  *widget.Entry
	keepVersions, revisitMin, revisitMax  *widget.Entry
	nearThreshold, nearWindow, hook       *widget.Entry
	onCompletion, logLevel                *widget.Select
}

var onCompletionChoices = []string{crawl.OnCompletionIdle, crawl.OnCompletionQuit, crawl.OnCompletionLoop}

func newAdvanced(fs *fieldSet) *advanced {
	a := &advanced{fs: fs}
	check := func(label string) *widget.Check { return widget.NewCheck(label, func(bool) { fs.changed() }) }
	a.include = fs.multi(`one regular expression per line, e.g. ^https?://example\.org/docs/`, 2)
	a.exclude = fs.multi(`one regular expression per line, e.g. \.(pdf|zip)$`, 2)
	a.wordLists = fs.multi("one word-list file per line, e.g. /home/me/lists/gambling.txt", 2)
	a.perHost, a.randSeed = fs.entry("0 = as many as threads"), fs.entry("1")
	a.connectTimeout, a.timeout, a.maxRedirects = fs.entry("10s"), fs.entry("30s"), fs.entry("20")
	a.userAgent = fs.entry("Trawler/…")
	a.proxy = fs.entry("http://proxy:3128 or socks5://proxy:1080")
	a.auth = newAuthRows(fs.changed)
	a.remember = widget.NewCheck("remember passwords in the system keychain", nil)
	a.robots = check("obey robots.txt (rules and Crawl-delay)")
	a.sitemaps = check("also start from the sitemaps robots.txt names")
	a.storeIP = check("record the IP address each page came from")
	a.resources = check("also fetch images, scripts and styles (status, type and size only)")
	a.delay, a.maxCrawlDelay, a.robotsRetry = fs.entry("0 = none"), fs.entry("30s"), fs.entry("1m")
	a.rps, a.maxPerHost = fs.entry("0 = no cap"), fs.entry("0 = no cap")
	a.maxSize = fs.entry("10 MiB")
	a.contentTypes = fs.entry("text/html, application/xhtml+xml, text/plain")
	a.maxURLLength, a.expectedURLs, a.memURLs = fs.entry("2048"), fs.entry("1000000"), fs.entry("100000")
	a.trapBudget, a.trapRepeats, a.queryParams = fs.entry("0 = no budget"), fs.entry("3"), fs.entry("32")
	a.keepVersions, a.revisitMin, a.revisitMax = fs.entry("3"), fs.entry("1h"), fs.entry("30d")
	a.nearThreshold, a.nearWindow = fs.entry("0.9; 0 = off"), fs.entry("10000")
	a.hook = fs.entry("a command, given the crawl ID and the database path")
	a.onCompletion = widget.NewSelect(onCompletionChoices, func(string) { fs.changed() })
	var levels []string
	for i := 0; i <= crawl.MaxLogLevel; i++ {
		levels = append(levels, strconv.Itoa(i))
	}
	a.logLevel = widget.NewSelect(levels, func(string) { fs.changed() })

	a.tabs = container.NewAppTabs(
		container.NewTabItem(advancedTitles[0], formGrid(
			fs.row(form.FieldInclude, "Include", "if any, a URL must match one of these", a.include),
			fs.row(form.FieldExclude, "Exclude", "a URL matching any of these is skipped", a.exclude),
			fs.row(form.FieldPerHost, "Per host", "requests at once to one host", a.perHost),
			fs.row(form.FieldRandSeed, "Random seed", "makes the mixed order repeatable", a.randSeed),
			fs.row(form.FieldWordLists, "Word lists", "sensitive-word lists the pages are judged by: black, white or grey (see the README's URL filter)", a.wordLists),
		)),
		container.NewTabItem(advancedTitles[1], formGrid(
			fs.row(form.FieldConnectTimeout, "Connect timeout", "durations: 10s, 1m30s, 2h, 30d", a.connectTimeout),
			fs.row(form.FieldTimeout, "Timeout", "a whole response, body included", a.timeout),
			fs.row(form.FieldMaxRedirects, "Redirects", "hops followed per URL", a.maxRedirects),
			fs.row(form.FieldUserAgent, "User agent", "", a.userAgent),
			fs.row(form.FieldProxy, "Proxy", "empty: connect directly", a.proxy),
			fs.row(form.FieldAuth, "Sign-in", "HTTP basic auth per host; passwords are never saved with the crawl",
				container.NewVBox(a.auth.content, a.remember)),
		)),
		container.NewTabItem(advancedTitles[2], formGrid(
			fs.row("robots", "Robots", "", container.NewVBox(a.robots, a.sitemaps)),
			fs.row(form.FieldDelay, "Delay", "least time between two requests to one host", a.delay),
			fs.row(form.FieldMaxCrawlDelay, "Max crawl delay", "cap on a robots.txt Crawl-delay", a.maxCrawlDelay),
			fs.row(form.FieldRobotsRetry, "Robots retry", "first wait when a host's robots.txt fails; doubles each time", a.robotsRetry),
			fs.row(form.FieldRPS, "Requests/s", "over all hosts", a.rps),
			fs.row(form.FieldMaxPerHost, "Pages per host", "most URLs crawled on one host", a.maxPerHost),
			fs.row("store-ip", "IP addresses", "", a.storeIP),
		)),
		container.NewTabItem(advancedTitles[3], formGrid(
			fs.row(form.FieldMaxSize, "Max size", "largest body read, after decompression", a.maxSize),
			fs.row(form.FieldContentTypes, "Content types", "media types whose bodies are kept and parsed", a.contentTypes),
			fs.row("resources", "Resources", "", a.resources),
			fs.row(form.FieldMaxURLLength, "Max URL length", "longer URLs are skipped", a.maxURLLength),
			fs.row(form.FieldTrapBudget, "Trap budget", "most URLs per pattern where only digits differ (/cal/2026/11 …)", a.trapBudget),
			fs.row(form.FieldTrapRepeats, "Repeated segments", "most times one path segment may occur in a URL", a.trapRepeats),
			fs.row(form.FieldMaxQueryParams, "Query parameters", "most parameters in a URL", a.queryParams),
			fs.row(form.FieldExpectedURLs, "Expected URLs", "sizes the seen-URL filter", a.expectedURLs),
			fs.row(form.FieldMemoryURLs, "URLs in memory", "waiting URLs held in memory; the rest wait in the database", a.memURLs),
		)),
		container.NewTabItem(advancedTitles[4], formGrid(
			fs.row(form.FieldKeepVersions, "Versions kept", "body texts kept per page, to compare versions", a.keepVersions),
			fs.row(form.FieldRevisitMin, "Revisit at least", "shortest revisit interval", a.revisitMin),
			fs.row(form.FieldRevisitMax, "Revisit at most", "longest revisit interval", a.revisitMax),
			fs.row(form.FieldNearThreshold, "Near-duplicates", "least similarity of near-duplicate pages, 0 to 1", a.nearThreshold),
			fs.row(form.FieldNearWindow, "Compared pages", "a page is compared with this many latest pages; about 1.6 KB of memory each", a.nearWindow),
			fs.row(form.FieldOnCompletion, "When done", "idle: the window stays open; quit: it closes once the crawl is done; loop: it crawls the same pages again, and again, until you stop a cycle", a.onCompletion),
			fs.row(form.FieldHook, "Hook", "command run each time the crawl (or a re-crawl cycle) is done or failed, given the crawl ID and the database path; split on spaces, no shell", a.hook),
			fs.row(form.FieldLogLevel, "Log level", "0 errors only … 5 everything", a.logLevel),
		)),
	)
	a.content = a.tabs
	return a
}

func (a *advanced) fill(f form.Fields) {
	for e, v := range map[*widget.Entry]string{
		a.include: f.Include, a.exclude: f.Exclude, a.perHost: f.PerHost, a.randSeed: f.RandSeed, a.wordLists: f.WordLists,
		a.connectTimeout: f.ConnectTimeout, a.timeout: f.Timeout, a.maxRedirects: f.MaxRedirects,
		a.userAgent: f.UserAgent, a.proxy: f.Proxy, a.delay: f.Delay, a.maxCrawlDelay: f.MaxCrawlDelay,
		a.robotsRetry: f.RobotsRetry, a.rps: f.RPS, a.maxPerHost: f.MaxPerHost, a.maxSize: f.MaxSize,
		a.contentTypes: f.ContentTypes, a.maxURLLength: f.MaxURLLength, a.expectedURLs: f.ExpectedURLs,
		a.memURLs: f.MemoryURLs, a.trapBudget: f.TrapBudget, a.trapRepeats: f.TrapRepeats,
		a.queryParams: f.MaxQueryParams, a.keepVersions: f.KeepVersions, a.revisitMin: f.RevisitMin,
		a.revisitMax: f.RevisitMax, a.nearThreshold: f.NearThreshold, a.nearWindow: f.NearWindow, a.hook: f.Hook,
	} {
		e.SetText(v)
	}
	a.robots.SetChecked(f.Robots)
	a.sitemaps.SetChecked(f.Sitemaps)
	a.storeIP.SetChecked(f.StoreIP)
	a.resources.SetChecked(f.Resources)
	a.onCompletion.SetSelected(f.OnCompletion)
	a.logLevel.SetSelected(strconv.Itoa(f.LogLevel))
	a.auth.fill(f.Auth)
}

func (a *advanced) read(f *form.Fields) {
	f.Include, f.Exclude, f.PerHost, f.RandSeed = a.include.Text, a.exclude.Text, a.perHost.Text, a.randSeed.Text
	f.WordLists = a.wordLists.Text
	f.ConnectTimeout, f.Timeout, f.MaxRedirects = a.connectTimeout.Text, a.timeout.Text, a.maxRedirects.Text
	f.UserAgent, f.Proxy, f.Auth = a.userAgent.Text, a.proxy.Text, a.auth.read()
	f.Robots, f.Sitemaps, f.StoreIP, f.Resources = a.robots.Checked, a.sitemaps.Checked, a.storeIP.Checked, a.resources.Checked
	f.Delay, f.MaxCrawlDelay, f.RobotsRetry = a.delay.Text, a.maxCrawlDelay.Text, a.robotsRetry.Text
	f.RPS, f.MaxPerHost = a.rps.Text, a.maxPerHost.Text
	f.MaxSize, f.ContentTypes = a.maxSize.Text, a.contentTypes.Text
	f.MaxURLLength, f.ExpectedURLs, f.MemoryURLs = a.maxURLLength.Text, a.expectedURLs.Text, a.memURLs.Text
	f.TrapBudget, f.TrapRepeats, f.MaxQueryParams = a.trapBudget.Text, a.trapRepeats.Text, a.queryParams.Text
	f.KeepVersions, f.RevisitMin, f.RevisitMax = a.keepVersions.Text, a.revisitMin.Text, a.revisitMax.Text
	f.NearThreshold, f.NearWindow, f.Hook, f.OnCompletion = a.nearThreshold.Text, a.nearWindow.Text, a.hook.Text, a.onCompletion.Selected
	f.LogLevel, _ = strconv.Atoi(a.logLevel.Selected)
}

// markTabs puts a warning sign on the tabs holding a field in errs, so a
// setting that keeps Start off can be found.
func (a *advanced) markTabs(errs map[string]string) {
	for i, fields := range advancedTabs {
		title := advancedTitles[i]
		for _, f := range fields {
			if _, bad := errs[f]; bad {
				title += " ⚠"
				break
			}
		}
		if it := a.tabs.Items[i]; it.Text != title {
			it.Text = title
			a.tabs.Refresh()
		}
	}
}

var advancedTitles = []string{"Rules", "Network", "Politeness", "Limits", "Re-crawl"}

// advancedTabs lists the fields of each Advanced tab, in tab order.
var advancedTabs = [][]string{
	{form.FieldInclude, form.FieldExclude, form.FieldPerHost, form.FieldRandSeed, form.FieldWordLists},
	{form.FieldConnectTimeout, form.FieldTimeout, form.FieldMaxRedirects, form.FieldUserAgent, form.FieldProxy, form.FieldAuth},
	{form.FieldDelay, form.FieldMaxCrawlDelay, form.FieldRobotsRetry, form.FieldRPS, form.FieldMaxPerHost},
	{form.FieldMaxSize, form.FieldContentTypes, form.FieldMaxURLLength, form.FieldTrapBudget, form.FieldTrapRepeats,
		form.FieldMaxQueryParams, form.FieldExpectedURLs, form.FieldMemoryURLs},
	{form.FieldKeepVersions, form.FieldRevisitMin, form.FieldRevisitMax, form.FieldNearThreshold, form.FieldNearWindow,
		form.FieldOnCompletion, form.FieldHook, form.FieldLogLevel},
}
