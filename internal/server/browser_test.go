package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// chromium finds the browser: $PARLEY_CHROMIUM, else Debian's chromium
// (installed by .ci/run).
func chromium() string {
	if p := os.Getenv("PARLEY_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser starts a headless browser for one test; it fails the test when a
// page opens a dialog (alert, confirm): no page of Parley's does.
func browser(t *testing.T, width, height int) (context.Context, *atomic.Int32) {
	t.Helper()
	path := chromium()
	if path == "" {
		t.Skip("no chromium: install Debian's chromium (.ci/run does) or set PARLEY_CHROMIUM")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
		chromedp.Flag("headless", "new"), chromedp.WindowSize(width, height), chromedp.Flag("disable-dev-shm-usage", true),
		// Chromium's singleton socket goes in a directory of its own under
		// TMPDIR, which it leaves behind when it is killed, as every test's
		// browser is at its end: the test's temp dir takes it away.
		chromedp.Env("TMPDIR="+t.TempDir()))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	var dialogs atomic.Int32
	events := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for _, err := range events {
			if err != nil {
				return
			}
			dialogs.Add(1)
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}()
	return ctx, &dialogs
}

// screenshot writes the page to the test's temp dir, or to
// $PARLEY_SCREENSHOTS when set (how docs/ screenshots are made).
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	dir := os.Getenv("PARLEY_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitJS polls a JavaScript condition until it is true.
func waitJS(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		if ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js)); err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			html, _ := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("main")))
			t.Fatalf("the page never showed %s (%s); page: %.1500s", what, js, html)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// eval evaluates JavaScript in the page.
func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// textOf is the text of the first element a CSS selector matches, found
// and read in one evaluation: the panel is rendered again after events,
// and a node found, then read, was gone in between ("No node with given
// id found").
func textOf(t *testing.T, ctx context.Context, css string) string {
	t.Helper()
	sel, _ := json.Marshal(css)
	waitJS(t, ctx, css, fmt.Sprintf(`!!document.querySelector(%s)`, sel))
	return eval[string](t, ctx, fmt.Sprintf(`(document.querySelector(%s) || {innerText: ""}).innerText`, sel))
}

func loadBenchScript(b *testing.B) *script.Script {
	sc, err := script.Load(filepath.Join("..", "..", "cmd", "parley", "testdata", "perspectives.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	return sc
}

func fakeServer(t *testing.T, name string, opts ...fakellm.Option) (*fakellm.Server, map[string]string) {
	t.Helper()
	sc, err := script.Load(filepath.Join("..", "..", "cmd", "parley", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(sc, append([]fakellm.Option{fakellm.WithAPIKey("test-key")}, opts...)...)
	t.Cleanup(srv.Close)
	return srv, map[string]string{"OPENAI_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test-key"}
}

// TestBrowserPerspectives starts a perspectives debate from the form,
// watches its cards stream, guides it at the checkpoint, ends it and opens
// the synthesis, in a real browser.
func TestBrowserPerspectives(t *testing.T) {
	llm, env := fakeServer(t, "perspectives.yaml", fakellm.WithTokenDelay(8*time.Millisecond))
	ts := newTestServer(t, env, "")
	ctx, dialogs := browser(t, 1280, 900)
	const guidance = "Weigh the on-call cost in hours per month."
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/new"),
		chromedp.WaitVisible(chromedp.CSS(`textarea[name=topic]`)),
		chromedp.SetValue(chromedp.CSS(`#format`), "council"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("format").dispatchEvent(new Event("change"))`),
	); err != nil {
		t.Fatal(err)
	}
	// Only the chosen format's options show.
	if shown := eval[string](t, ctx, `[...document.querySelectorAll("fieldset[data-format]")].filter(f => f.offsetParent !== null).map(f => f.dataset.format).join(",")`); shown != "council" {
		t.Fatalf("with council chosen the form shows the options of %q", shown)
	}
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#format`), "perspectives"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("format").dispatchEvent(new Event("change"))`),
		chromedp.SetValue(chromedp.CSS(`textarea[name=topic]`), "Should we use Redis or PostgreSQL for caching?"),
		chromedp.Click(chromedp.CSS(`#new-debate button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#debate`)),
	); err != nil {
		t.Fatal(err)
	}
	// Text streams into a running turn's card before the turn completes.
	waitJS(t, ctx, "streamed text in a running card", `[...document.querySelectorAll("article.running pre.stream")].some(e => e.textContent.length > 20)`)
	screenshot(t, ctx, "perspectives-streaming")
	waitJS(t, ctx, "three perspective cards", `document.querySelectorAll(".cards .card").length === 3`)
	waitJS(t, ctx, "the checkpoint", `!!document.querySelector("#checkpoint textarea[name=guidance]")`)
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#checkpoint textarea[name=guidance]`), guidance),
		chromedp.Click(chromedp.CSS(`#checkpoint button[value=guide]`)),
	); err != nil {
		t.Fatal(err)
	}
	// The guidance reaches the next round's prompts.
	deadline := time.Now().Add(30 * time.Second)
	for !askedWith(llm, "r2/argument/", guidance) {
		if time.Now().After(deadline) {
			var got []string
			for _, r := range llm.Requests() {
				got = append(got, fmt.Sprintf("%s (with the guidance: %v)", r.Parsed.Tag, strings.Contains(string(r.Body), guidance)))
			}
			t.Fatalf("round 2 was never asked with the guidance; requests: %v", got)
		}
		time.Sleep(50 * time.Millisecond)
	}
	waitJS(t, ctx, "round 2 or the end", `!!document.querySelector("#checkpoint") || document.querySelector(".panel").dataset.status === "completed"`)
	if eval[bool](t, ctx, `!!document.querySelector("#checkpoint button[value=end]")`) {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#checkpoint button[value=end]`))); err != nil {
			t.Fatal(err)
		}
	}
	waitJS(t, ctx, "the report link", `!!document.querySelector("#report")`)
	screenshot(t, ctx, "perspectives-completed")
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#report`)),
		chromedp.WaitVisible(chromedp.CSS(`article.report details`)),
	); err != nil {
		t.Fatal(err)
	}
	text := textOf(t, ctx, "article.report")
	if !strings.Contains(text, "PostgreSQL") || !strings.Contains(text, "Download") {
		t.Fatalf("the synthesis page: %.500s", text)
	}
	if n := dialogs.Load(); n != 0 {
		t.Fatalf("%d dialogs opened", n)
	}
}

func askedWith(srv *fakellm.Server, tag, text string) bool {
	for _, r := range srv.Requests() {
		if strings.Contains(string(r.Body), text) && strings.HasPrefix(r.Parsed.Tag, tag) {
			return true
		}
	}
	return false
}

// TestBrowserCrux shows a crux debate's stage transitions and its steelman
// table.
func TestBrowserCrux(t *testing.T) {
	_, env := fakeServer(t, "crux.yaml")
	ts := newTestServer(t, env, "")
	id := ts.create(t, `{"format":"crux","topic":"Is Bitcoin digital gold?","agents":["saylor","hayes"]}`)
	ctx, _ := browser(t, 1280, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/debates/"+id)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "a completed crux debate", `document.querySelector(".panel").dataset.status === "completed"`)
	stages, summary := textOf(t, ctx, "ol.stages"), textOf(t, ctx, "details.summary")
	if strings.Count(stages, "\n") < 1 {
		t.Errorf("stages shown: %q, want the transitions", stages)
	}
	if !strings.Contains(strings.ToLower(summary), "steelman") {
		t.Errorf("no steelman table in the result: %.600s", summary)
	}
	screenshot(t, ctx, "crux")
}

// TestBrowserMobile lays a completed debate out at 390 px: one column, no
// horizontal scroll.
func TestBrowserMobile(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	ctx, _ := browser(t, 390, 844)
	for _, path := range []string{"/debates/" + id, "/", "/new", "/debates/" + id + "/report"} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844), chromedp.Navigate(ts.URL+path)); err != nil {
			t.Fatal(err)
		}
		if path == "/debates/"+id {
			waitJS(t, ctx, "the completed debate", `document.querySelector(".panel").dataset.status === "completed"`)
		}
		fits := eval[bool](t, ctx, `document.documentElement.scrollWidth <= window.innerWidth`)
		cols := eval[int](t, ctx, `(() => { const c = document.querySelector(".cards"); return c ? getComputedStyle(c).gridTemplateColumns.split(" ").length : 1 })()`)
		if !fits || cols != 1 {
			w := eval[int](t, ctx, `document.documentElement.scrollWidth`)
			t.Errorf("%s at 390 px: page %d px wide, %d columns", path, w, cols)
		}
		if path == "/debates/"+id {
			screenshot(t, ctx, "mobile")
		}
	}
}

// TestBrowserHostile opens pages showing hostile model output: nothing in
// it runs.
func TestBrowserHostile(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := seedHostile(t, ts.app.Store)
	ctx, dialogs := browser(t, 1280, 900)
	for _, path := range []string{"/debates/" + id, "/debates/" + id + "/report", "/"} {
		if err := chromedp.Do(ctx,
			chromedp.Navigate(ts.URL+path),
			chromedp.WaitReady(chromedp.CSS("main")),
			chromedp.Sleep(300*time.Millisecond),
		); err != nil {
			t.Fatal(err)
		}
		pwned := eval[string](t, ctx, `String(window.pwned)`)
		if pwned != "undefined" {
			t.Errorf("%s: model output ran script (window.pwned = %s)", path, pwned)
		}
		// Clicking the hostile link does nothing either.
		links := eval[int](t, ctx, `[...document.querySelectorAll("a")].filter(a => a.href.startsWith("javascript:")).length`)
		if links != 0 {
			t.Errorf("%s: %d javascript: links", path, links)
		}
	}
	if n := dialogs.Load(); n != 0 {
		t.Fatalf("%d dialogs opened", n)
	}
}

// TestBrowserStreamIsInert: text streamed into an open page shows what the
// page itself would show of it: bidi overrides, C1 and C0 controls and
// invisible characters by code point or picture, not acting on the text
// around them while the reply streams.
func TestBrowserStreamIsInert(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := seedHostile(t, ts.app.Store)
	ctx, _ := browser(t, 1280, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/debates/"+id), chromedp.WaitReady(chromedp.CSS("main"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the streaming turn", `!!document.querySelector('article[data-turn="r1/argument/b"] pre.stream')`)
	time.Sleep(300 * time.Millisecond) // the event stream is open
	e, err := debate.NewEvent(id, time.Now(), debate.TurnDelta{Turn: "r1/argument/b", Text: " streamed:\u202egnp.exe\u009b2J\x1b[2Jpay\u200bpal\U000E0041 soft\u00adhy\U0001D173 end"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts.app.Store.Append(context.Background(), id, e); err != nil {
		t.Fatal(err)
	}
	sel := `document.querySelector('article[data-turn="r1/argument/b"] pre.stream').textContent`
	waitJS(t, ctx, "the streamed text", sel+`.includes("streamed:")`)
	got := eval[string](t, ctx, sel)
	got = got[strings.Index(got, "streamed:"):]
	if want := "streamed:⟨U+202E⟩gnp.exe⟨U+009B⟩2J␛[2Jpay⟨U+200B⟩pal⟨U+E0041⟩ soft⟨U+00AD⟩hy⟨U+1D173⟩ end"; got != want {
		t.Errorf("the page streamed %q, want %q", got, want)
	}
}

// TestBrowserFormalMap draws a formal debate's argument map.
func TestBrowserFormalMap(t *testing.T) {
	_, env := fakeServer(t, "formal.yaml")
	ts := newTestServer(t, env, "")
	id := ts.create(t, `{"format":"formal","topic":"Should we adopt a monorepo?","rounds":2}`)
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == "completed" })
	ctx, _ := browser(t, 1280, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/debates/"+id)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the argument map", `!!document.querySelector("svg.argmap circle")`)
	if h := eval[float64](t, ctx, `document.querySelector("svg.argmap").getBoundingClientRect().height`); h < 100 {
		t.Errorf("the map is %v px high", h)
	}
	if eval[int](t, ctx, `document.querySelectorAll(".badge").length`) == 0 {
		t.Error("no move badges")
	}
	if err := chromedp.Do(ctx, chromedp.ScrollIntoView(chromedp.CSS("svg.argmap"))); err != nil {
		t.Fatal(err)
	}
	screenshot(t, ctx, "formal-map")
}

// TestBrowserHintTargetSurvivesRefresh: the panel is rendered again on
// every event of a running debate. A hint's target chosen in the form (here
// "all", not the first agent) stays chosen across those refreshes, as the
// text typed does, and the hint queued goes to it, not to the agent the
// fresh form would have selected.
func TestBrowserHintTargetSurvivesRefresh(t *testing.T) {
	_, env := fakeServer(t, "perspectives.yaml", fakellm.WithTokenDelay(25*time.Millisecond))
	ts := newTestServer(t, env, "")
	id := ts.create(t, `{"topic":"Should we use Redis or PostgreSQL for caching?","no_checkpoints":true}`)
	ctx, _ := browser(t, 1280, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/debates/"+id)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the hint form with the agents", `document.querySelectorAll("#hint select option").length === 4`)
	eval[bool](t, ctx, `(() => {
		const sel = document.querySelector("#hint select[name=target]");
		sel.value = "all";
		sel.dispatchEvent(new Event("change"));
		document.querySelector("#hint input[name=text]").value = "Weigh the running cost.";
		window.oldPanel = document.querySelector(".panel");
		return true;
	})()`)
	waitJS(t, ctx, "the panel rendered again while the debate runs",
		`document.querySelector(".panel") !== window.oldPanel && !!document.querySelector("#hint select")`)
	if got := eval[string](t, ctx, `document.querySelector("#hint select[name=target]").value`); got != "all" {
		t.Fatalf("after the panel was rendered again the hint's target is %q, want the chosen all", got)
	}
	if got := eval[string](t, ctx, `document.querySelector("#hint input[name=text]").value`); got != "Weigh the running cost." {
		t.Fatalf("after the panel was rendered again the hint's text is %q", got)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#hint button[type=submit]`))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the hint queued", `[...document.querySelectorAll("ul.hints li")].some(li => li.textContent.includes("Weigh the running cost."))`)
	if got := textOf(t, ctx, "ul.hints li"); got != "Hint for all: Weigh the running cost." {
		t.Errorf("the hint queued: %q, want it for all", got)
	}
}

// TestBrowserListMore: the list's "Show more" appends the older debates to
// the table in place (the page's script), the last page with no "Show
// more" of its own, every debate once.
func TestBrowserListMore(t *testing.T) {
	ts := newTestServer(t, nil, "")
	n := 2*pageListLimit + 7
	for i := range n {
		id := fmt.Sprintf("DEB-%08x", i+1)
		e, err := debate.NewEvent(id, time.Unix(int64(1000+i/2), 0), debate.Created{Format: "perspectives", Topic: fmt.Sprint("Topic ", i)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ts.app.Store.Append(t.Context(), id, e); err != nil {
			t.Fatal(err)
		}
	}
	ctx, dialogs := browser(t, 1280, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`#list-more a`))); err != nil {
		t.Fatal(err)
	}
	rows := `document.querySelectorAll("#debate-rows tr").length`
	if got := eval[int](t, ctx, rows); got != pageListLimit {
		t.Fatalf("the list shows %d debates, want %d", got, pageListLimit)
	}
	for _, want := range []int{2 * pageListLimit, n} {
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#list-more a`))); err != nil {
			t.Fatal(err)
		}
		waitJS(t, ctx, fmt.Sprint(want, " rows"), fmt.Sprintf(`%s === %d`, rows, want))
	}
	waitJS(t, ctx, "no more to show", `!document.getElementById("list-more")`)
	ids := eval[[]string](t, ctx, `[...document.querySelectorAll("#debate-rows tr a")].map(a => a.textContent)`)
	seen := map[string]bool{}
	for i, id := range ids {
		if want := fmt.Sprintf("DEB-%08x", n-i); id != want || seen[id] {
			t.Fatalf("row %d is %s, want %s (newest first, each once)", i, id, want)
		}
		seen[id] = true
	}
	if url := eval[string](t, ctx, `location.pathname + location.search`); url != "/" {
		t.Errorf("the page went to %s; more rows should come in place", url)
	}
	if dialogs.Load() != 0 {
		t.Error("the page opened a dialog")
	}
}

// TestBrowserStreamRefusedRecovers: a page whose event stream the server
// refuses (it holds as many as it takes: 503 with Retry-After) says its
// live updates are paused and tries again later, instead of stopping for
// good as an EventSource does on such an answer; once a place is free it
// follows the debate again.
func TestBrowserStreamRefusedRecovers(t *testing.T) {
	lim := DefaultConnLimits()
	lim.Streams = 1
	_, addr, store := limitedServer(t, lim)
	id := seedHostile(t, store)
	base := "http://" + addr
	// Another client holds the only place.
	hctx, release := context.WithCancel(t.Context())
	defer release()
	req, _ := http.NewRequestWithContext(hctx, "GET", base+"/api/debates/"+id+"/events", nil)
	held, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Body.Close()
	if held.StatusCode != http.StatusOK {
		t.Fatalf("the first stream: %d", held.StatusCode)
	}
	ctx, dialogs := browser(t, 1280, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/debates/"+id), chromedp.WaitReady(chromedp.CSS("main"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "that live updates are paused", `(() => { const l = document.getElementById("live"); return !!l && !l.hidden && l.textContent.includes("Live updates paused") && /Retrying in \d+ s/.test(l.textContent) })()`)
	screenshot(t, ctx, "stream-paused")
	release()
	held.Body.Close()
	waitJS(t, ctx, "live updates again", `document.getElementById("live").hidden`)
	e, err := debate.NewEvent(id, time.Now(), debate.TurnDelta{Turn: "r1/argument/b", Text: " after the pause"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Append(t.Context(), id, e); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "text streamed after the pause", `document.querySelector('article[data-turn="r1/argument/b"] pre.stream').textContent.includes("after the pause")`)
	if dialogs.Load() != 0 {
		t.Error("the page opened a dialog")
	}
}

// TestBrowserEndedDebateAsksNothing: the page of an ended debate, whose
// event stream the server ends at once (204, which an EventSource takes as
// a failure), neither asks the stream's status nor draws the panel again:
// each view of an ended debate cost two more requests.
func TestBrowserEndedDebateAsksNothing(t *testing.T) {
	ts := newTestServer(t, nil, "")
	id := ts.create(t, `{"topic":"NVDA","offline":true}`)
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == debate.StatusCompleted })
	ctx, _ := browser(t, 1280, 900)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/debates/"+id), chromedp.WaitReady(chromedp.CSS("main"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the event stream closed", `performance.getEntriesByType("resource").some(e => e.name.includes("/events"))`)
	time.Sleep(time.Second)
	if got := eval[[]string](t, ctx, `performance.getEntriesByType("resource").filter(e => e.initiatorType === "fetch").map(e => e.name)`); len(got) != 0 {
		t.Errorf("the page of a completed debate fetched %v, want nothing", got)
	}
	if live := eval[bool](t, ctx, `document.getElementById("live").hidden`); !live {
		t.Error("the page of a completed debate says its live updates are paused")
	}
}

// TestBrowserNewFormatsFields: in a real browser, a format registered with
// options of its own (the toy) has its fieldset in the new-debate form,
// shown alone when it is chosen; a debate started from it has the values
// entered, though another format's fieldset has fields of the same
// options. A slider (council's rounds) shows its value as it moves.
func TestBrowserNewFormatsFields(t *testing.T) {
	ts := toyServer(t)
	ctx, _ := browser(t, 1280, 900)
	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/new"),
		chromedp.WaitVisible(chromedp.CSS(`textarea[name=topic]`)),
		chromedp.SetValue(chromedp.CSS(`#format`), "council"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("format").dispatchEvent(new Event("change"))`),
		chromedp.SetValue(chromedp.CSS(`input[name=council_max_rounds]`), "5"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector("input[name=council_max_rounds]").dispatchEvent(new Event("input"))`),
	); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, ctx, `document.getElementById("f-council_max_rounds-value").textContent`); got != "5" {
		t.Errorf("the council's rounds slider moved to 5 shows %q", got)
	}
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`#format`), "toy"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("format").dispatchEvent(new Event("change"))`),
	); err != nil {
		t.Fatal(err)
	}
	if shown := eval[string](t, ctx, `[...document.querySelectorAll("fieldset[data-format]")].filter(f => f.offsetParent !== null).map(f => f.dataset.format).join(",")`); shown != "toy" {
		t.Fatalf("with the toy chosen the form shows the options of %q", shown)
	}
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`textarea[name=topic]`), "Is a toy a game?"),
		chromedp.SetValue(chromedp.CSS(`input[name=toy_level]`), "8"),
		chromedp.Click(chromedp.CSS(`input[name=toy_loud]`)),
		chromedp.SetValue(chromedp.CSS(`select[name=toy_color]`), "red"),
		chromedp.Click(chromedp.CSS(`#new-debate button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#debate`)),
	); err != nil {
		t.Fatal(err)
	}
	id := strings.TrimPrefix(eval[string](t, ctx, `location.pathname`), "/debates/")
	ts.waitFor(t, id, "completed", func(v DebateView) bool { return v.Status == "completed" })
	st, _, err := ts.app.Load(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	var got toyOptions
	if err := json.Unmarshal(st.Options, &got); err != nil || got != (toyOptions{Level: 8, Loud: true, Color: "red"}) {
		t.Errorf("started from the form with %+v (%v), want level 8, loud, red", got, err)
	}
}
