package shell

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/memstore"
	"github.com/parleyhq/parley/internal/store/storetest"
)

// TestHelpModelAndOtherText: /help, /model and text that is no command and
// no trigger.
func TestHelpModelAndOtherText(t *testing.T) {
	for _, w := range widths {
		h := newHarness(t, w, nil)
		h.typeLine("/help")
		h.golden("help")
		h.typeLine("/model")
		h.typeLine("hello there, what can you do?")
		h.golden("other-text")
		h.typeLine("/frobnicate")
		if !strings.Contains(h.view(), "unknown command /frobnicate: /help lists the commands") {
			t.Errorf("unknown command:\n%s", h.view())
		}
		// A typo suggests the command it is nearest to, a swap of two
		// letters being one edit.
		for typed, want := range map[string]string{"/hepl": "/help", "/lsit": "/list", "/debat": "/debate", "/re": "/resume"} {
			h.typeLine(typed)
			if !strings.Contains(h.view(), "unknown command "+typed+": did you mean "+want+"? /help lists the commands") {
				t.Errorf("%s, want %s suggested:\n%s", typed, want, h.view())
			}
		}
		for _, half := range []string{"openai/", "/gpt-4.1"} {
			h.typeLine("/model " + half)
			if tr := h.transcript(); !strings.Contains(tr, "/model "+half+": give PROVIDER/NAME") {
				t.Errorf("/model %s: %s", half, tr)
			}
		}
	}
}

// TestOfflineDebate runs the spec's "/debate NVDA" offline with Parley's
// data-only agents.
func TestOfflineDebate(t *testing.T) {
	for _, w := range widths {
		h := newHarness(t, w, nil)
		h.typeLine("/debate NVDA --offline")
		h.settle()
		h.golden("debate-offline")
		tr := h.transcript()
		for _, want := range []string{"Debate DEB-00000001 · bullbear · NVDA", "═══ Phase 1 (Research) ═══", "🐂 Bull · research · data-only",
			"🐻 Bear · opening · data-only", "═══ Phase 3 (Bull Rebuttal) ═══", "⚖ Moderator · synthesis · data-only", "✔ Debate completed.",
			"Conviction: 7/10 STRONG BULL"} {
			if !strings.Contains(tr, want) {
				t.Errorf("the transcript lacks %q:\n%s", want, tr)
			}
		}
		// Concurrent turns are never interleaved: the bull's research is
		// whole before the bear's starts.
		if i, j := strings.Index(tr, "🐂 Bull · research"), strings.Index(tr, "🐻 Bear · research"); i < 0 || j < i ||
			strings.Contains(tr[i:j], "Research for the bear case") {
			t.Errorf("research turns interleaved:\n%s", tr)
		}
	}
}

// storedDebate runs an offline bullbear debate on NVDA through the
// application layer, outside the shell: the commands below see it in the
// store only.
func storedDebate(t *testing.T, h *harness) string {
	t.Helper()
	ctx := context.Background()
	a := *h.m.opts.App // not the shell's copy, whose notices go to its transcript
	sess, err := a.Start(ctx, app.StartRequest{Request: setup.Request{Topic: "NVDA", Format: bullbear.Name, Offline: true}, Limits: debate.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	return sess.ID
}

// TestCommandsOnAStoredDebate: /list, /cost, /show, /export and /ask (with
// no model configured) on a debate the shell did not run.
func TestCommandsOnAStoredDebate(t *testing.T) {
	for _, w := range widths {
		h := newHarness(t, w, nil)
		id := storedDebate(t, h)
		h.typeLine("/list")
		h.typeLine("/cost " + id)
		h.golden("list-cost")
		h.typeLine("/export " + id + " --as json -o " + filepath.Join(h.dir, "nvda.json"))
		h.settle()
		if b, err := os.ReadFile(filepath.Join(h.dir, "nvda.json")); err != nil || !strings.Contains(string(b), `"format": "bullbear"`) {
			t.Errorf("export: %v\n%s", err, b)
		}
		h.typeLine("/ask " + id + " bear What would change your mind?")
		h.settle()
		h.golden("export-ask-no-model")
		h.typeLine("/show " + strings.ToLower(id[4:9])) // a unique prefix will do
		if tr := h.flat(); !strings.Contains(tr, "DEB-00000001 · bullbear · completed at Phase 4 (Moderator Synthesis) · created 2026-03-14 09:30") ||
			!strings.Contains(tr, "NVDA Bull vs. Bear Debate") {
			t.Errorf("/show:\n%s", tr)
		}
		h.typeLine("/show " + id)
		h.golden("show")
	}
}

// TestTriggers: the spec's natural-language triggers resolve company names
// through the SEC ticker list, say what they understood, and ask when a
// name is ambiguous.
func TestTriggers(t *testing.T) {
	for _, w := range widths {
		h := newHarness(t, w, nil)
		h.typeLine("What's the bull and bear case for Tesla?")
		h.settle()
		h.golden("trigger-tesla")
		h.typeLine("bull vs bear for alphabet")
		h.settle()
		h.golden("trigger-ambiguous")
		h.typeLine("1")
		h.settle()
		h.typeLine("Give me both sides of AAPL in depth")
		h.settle()
		tr := h.transcript()
		for _, want := range []string{"Bull vs. bear on TSLA (Tesla, Inc.), quick mode. Starting…", "Bull vs. bear on GOOGL (Alphabet Inc.), quick mode. Starting…",
			"Bull vs. bear on AAPL (Apple Inc.), deep mode. Starting…", "Debate DEB-00000002 · bullbear · AAPL", "Phase 3 (Bear Rebuttal, Round 2)"} {
			if !strings.Contains(tr, want) {
				t.Errorf("the transcript lacks %q:\n%s", want, tr)
			}
		}
		h.typeLine("Debate AMD")
		h.settle()
		h.golden("trigger-amd")
	}
}

func TestDetect(t *testing.T) {
	for line, want := range map[string]struct {
		name string
		deep bool
	}{
		"Give me both sides of NVDA":               {"NVDA", false},
		"What's the bull and bear case for Tesla?": {"Tesla", false},
		"Debate AMD":             {"AMD", false},
		"bull vs bear for apple": {"apple", false},
		"bull vs. bear on the Apple stock, in depth":  {"Apple", true},
		"what are the bear and bull cases for MSFT":   {"MSFT", false},
		"give me a deep bull and bear debate on NVDA": {"NVDA", true},
		"Hello":                         {"", false},
		"Should we use Kafka or Redis?": {"", false},
	} {
		name, deep, ok := detect(line)
		if name != want.name || deep != want.deep || ok != (want.name != "") {
			t.Errorf("detect(%q) = %q, %v, %v; want %q, %v", line, name, deep, ok, want.name, want.deep)
		}
	}
}

// TestLLMDebateHintPauseResumeAsk runs the sequence on a debate
// with a model (the fake server): a hint typed while the agents research is
// queued under the input line and never enters the transcript, Ctrl+C
// pauses, /resume goes on and the hint reaches the bull's opening, /ask
// asks the bear a follow-up, /cost prices it.
func TestLLMDebateHintPauseResumeAsk(t *testing.T) {
	for _, w := range widths {
		// The first research calls hang until Ctrl+C cuts them off; on
		// resume the script's replies answer.
		srv, env := fakeServer(t, "bullbear.yaml",
			script.Rule{Tag: "research/bull", Replies: []script.Reply{{Text: "never sent", Delay: script.Duration(time.Minute)}}},
			script.Rule{Tag: "research/bear", Replies: []script.Reply{{Text: "never sent", Delay: script.Duration(time.Minute)}}},
			script.Rule{Tag: "ask/1/bear", Reply: &script.Reply{Text: "Cash conversion above 1x for two years would turn me bullish."}})
		h := newHarness(t, w, env)
		h.typeLine("/debate NVDA --snapshot")
		h.until("both research turns to start", func() bool { v := h.m.views[h.m.current]; return v != nil && len(v.running) == 2 })
		h.typeLine("bull: mention their new AI chip")
		h.until("the hint to be queued", func() bool { return strings.Contains(h.view(), "Hint queued") })
		h.golden("hint")
		if strings.Contains(h.transcript(), "new AI chip") {
			t.Errorf("the hint entered the transcript:\n%s", h.transcript())
		}
		// Both research calls must have reached the server, so that the
		// replies that hang are the ones Ctrl+C cuts off.
		h.until("both research calls", func() bool {
			n := 0
			for _, r := range srv.Requests() {
				if strings.HasPrefix(r.Parsed.Tag, "research/") {
					n++
				}
			}
			return n == 2
		})
		h.key(ctrl('c'))
		h.settle()
		h.golden("paused")
		h.typeLine("/resume")
		h.settle()
		h.golden("resumed")
		tr := h.transcript()
		if !strings.Contains(tr, "💡 with your hint: mention their new AI chip") {
			t.Errorf("the hint's turn does not say it took it:\n%s", tr)
		}
		var opening string
		for _, r := range srv.Requests() {
			if r.Parsed.Tag == "opening/bull" {
				opening = string(r.Body)
			}
		}
		if !strings.Contains(opening, "USER HINT: mention their new AI chip") {
			t.Errorf("the bull's opening was asked without the hint:\n%s", opening)
		}
		h.typeLine("/ask bear What would change your mind?")
		h.settle()
		h.golden("ask")
		h.typeLine("/cost")
		h.golden("cost-llm")
		// /list shows the debate's cost unknown and names the model
		// without a price once, under the table.
		// (/cost's table has the same note: count them.)
		const note = "The cost is unknown: no price for openai/test-model."
		before := strings.Count(h.flat(), note)
		h.typeLine("/list")
		h.settle()
		if after := strings.Count(h.flat(), note); after != before+1 {
			t.Errorf("/list does not name the model without a price (%d notes before, %d after):\n%s", before, after, h.transcript())
		}
	}
}

// TestResumeQuestion: /debate on a ticker with a paused debate asks the
// spec's "Resume debate from Phase 2 (Bear Opening)? [Y/n]"; yes resumes it.
func TestResumeQuestion(t *testing.T) {
	for _, w := range widths {
		h := newHarness(t, w, nil)
		id := pausedBullbear(t, h)
		h.typeLine("/debate NVDA --offline")
		h.until("the resume question", func() bool { return h.m.question != nil })
		h.golden("resume-question")
		h.typeLine("y")
		h.settle()
		if tr := h.transcript(); !strings.Contains(tr, "Resuming "+id) && !strings.Contains(tr, "Resuming DEB-") {
			t.Errorf("not resumed:\n%s", tr)
		}
		st, _, err := h.m.app.Load(context.Background(), id)
		if err != nil || st.Status != debate.StatusCompleted {
			t.Fatalf("the paused debate after yes: %v, %v", st.Status, err)
		}
		if n := len(h.ids()); n != 1 {
			t.Errorf("%d debates, want the paused one resumed and no new one", n)
		}
		h.golden("resume-done")
	}
}

// TestResumeQuestionQueued: /debate on a ticker whose unfinished debate is
// queued for a worker does not offer to resume it here (the worker would
// contend with the shell): it says where the debate is and starts a new one.
func TestResumeQuestionQueued(t *testing.T) {
	h := newHarness(t, widths[0], nil)
	id := pausedBullbear(t, h)
	e, err := debate.NewEvent(id, clock(), debate.Queued{Queue: "data", Reason: debate.QueuedResumed})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.store.Append(context.Background(), id, e); err != nil {
		t.Fatal(err)
	}
	h.typeLine("/debate NVDA --offline")
	h.settle()
	tr := strings.Join(strings.Fields(h.transcript()), " ")
	// The transcript numbers debates in order (DEB-00000001 is the first).
	if want := "A debate on NVDA is queued for a worker (DEB-00000001; /show DEB-00000001 shows how far it got); this starts a new one."; !strings.Contains(tr, want) {
		t.Errorf("transcript, want %q:\n%s", want, h.transcript())
	}
	if h.m.question != nil || strings.Contains(tr, "Resume debate from") {
		t.Errorf("the queued debate was offered for resume here:\n%s", h.transcript())
	}
	if n := len(h.ids()); n != 2 {
		t.Errorf("%d debates, want the queued one left and a new one", n)
	}
}

// storeEvents appends payloads to debate id's log in the harness's store,
// at the harness's clock.
func storeEvents(t *testing.T, h *harness, id string, payloads ...debate.Payload) {
	t.Helper()
	evs := make([]debate.Event, 0, len(payloads))
	for _, p := range payloads {
		e, err := debate.NewEvent(id, clock(), p)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	if _, err := h.store.Append(context.Background(), id, evs...); err != nil {
		t.Fatal(err)
	}
}

// offlineNVDAOptions are the options bullbear's setup records for an
// offline debate on NVDA.
func offlineNVDAOptions(t *testing.T) json.RawMessage {
	t.Helper()
	opts, err := bullbear.Format{}.Setup(context.Background(), setup.Env{Getenv: func(string) string { return "" }, Now: clock}, &setup.Request{Topic: "NVDA", Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	return opts
}

// pausedBullbear stores a bullbear debate on NVDA that stopped after the
// bull's opening, while the bear's was streaming.
func pausedBullbear(t *testing.T, h *harness) string {
	t.Helper()
	opts := offlineNVDAOptions(t)
	id := "DEB-0a0b0c0d"
	turn := func(tid, agent, text string) debate.Payload {
		return debate.TurnCompleted{Turn: debate.TurnRef{ID: tid, Agent: agent, Role: agent}, Text: text, NoLLM: true, Model: "data-only"}
	}
	storeEvents(t, h, id, []debate.Payload{
		debate.Created{Format: bullbear.Name, Topic: "NVDA", Options: opts, Limits: debate.DefaultLimits()},
		debate.PhaseChanged{Phase: "research", Label: "Phase 1 (Research)"},
		turn("research/bull", "bull", "Bull research."), turn("research/bear", "bear", "Bear research."),
		debate.PhaseChanged{Phase: "opening", Label: "Phase 2 (Opening Arguments)"},
		turn("opening/bull", "bull", "- Revenue growth (YoY) of 65.5% in FY2026\n- Gross margin of 71.1% in FY2026\n- Operating margin of 60.4% in FY2026"),
		debate.TurnStarted{Turn: debate.TurnRef{ID: "opening/bear", Agent: "bear", Role: "bear"}, Attempt: 1},
		debate.TurnDelta{Turn: "opening/bear", Text: "- Piotroski F-sc"},
		debate.Paused{Reason: debate.PauseInterrupted},
	}...)
	return id
}

// TestCheckpointInTheInputLine answers a perspectives debate's checkpoint
// in the input line.
func TestCheckpointInTheInputLine(t *testing.T) {
	_, env := fakeServer(t, "perspectives.yaml")
	h := newHarness(t, 100, env)
	h.typeLine(`/debate "Should we use Redis or PostgreSQL for caching?"`)
	h.until("the checkpoint", func() bool {
		return h.m.check != nil && strings.Contains(h.view(), "Round 1 Complete")
	})
	if v := h.view(); !strings.Contains(v, "Checkpoint: [C]ontinue, [G]uide or [E]nd early?") || !strings.Contains(v, "═══ Round 1 Complete ═══") {
		t.Errorf("checkpoint view:\n%s", v)
	}
	h.typeLine("x")
	if !strings.Contains(h.view(), "Answer the checkpoint") {
		t.Errorf("a wrong answer is not asked again:\n%s", h.view())
	}
	h.typeLine("g")
	h.typeLine("Weigh the on-call cost more.")
	h.until("the second checkpoint or the end", func() bool { return h.m.check != nil || h.idle() })
	for h.m.check != nil {
		h.typeLine("e")
		h.until("the end", func() bool { return h.m.check != nil || h.idle() })
	}
	st, _, err := h.m.app.Load(context.Background(), h.ids()[0])
	if err != nil || st.Status != debate.StatusCompleted {
		t.Fatalf("status %v, %v", st.Status, err)
	}
	if g := st.Guidance(); len(g) != 1 || g[0] != "Weigh the on-call cost more." {
		t.Errorf("guidance recorded: %q", g)
	}
}

// TestResumeNoCheckpoints: /debate --resume ID --no-checkpoints of a
// debate paused at its checkpoint answers that checkpoint and the later
// ones "continue" (app.Unattended), saying so, and runs to the end.
func TestResumeNoCheckpoints(t *testing.T) {
	_, env := fakeServer(t, "perspectives.yaml")
	h := newHarness(t, 100, env)
	ctx := context.Background()
	req := app.StartRequest{Request: setup.Request{Format: "perspectives", Topic: "Should we use Redis or PostgreSQL for caching?", Values: setup.Values{"max-rounds": 3}},
		Models: app.Models{Model: "test-model"}, Limits: debate.DefaultLimits()}
	sess, err := h.m.app.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Run(ctx, noAnswer{}); err == nil {
		t.Fatal("the debate ran past a checkpoint nobody answered")
	}
	h.typeLine("/debate --resume " + sess.ID + " --no-checkpoints")
	h.settle()
	st, _, err := h.m.app.Load(ctx, sess.ID)
	if err != nil || st.Status != debate.StatusCompleted {
		t.Fatalf("after the resume: %v, %v\n%s", st.Status, err, h.transcript())
	}
	if !strings.Contains(h.transcript(), "Checkpoint: continuing (--no-checkpoints)") {
		t.Errorf("the checkpoint is not said to be answered:\n%s", h.transcript())
	}
}

// noAnswer is a person who does not answer checkpoints.
type noAnswer struct{}

func (noAnswer) Checkpoint(context.Context, *debate.State, debate.CheckpointReached) (debate.CheckpointAnswered, error) {
	return debate.CheckpointAnswered{}, errors.New("no answer")
}

// TestCompletion completes commands, flags, formats, tickers, agents and
// ids.
func TestCompletion(t *testing.T) {
	h := newHarness(t, 80, nil)
	h.typeLine("/debate NVDA --offline")
	h.settle()
	id := h.ids()[0]
	tab := func(typed, want string) {
		t.Helper()
		h.m.input.SetValue(typed)
		h.m.input.CursorEnd()
		h.key(tea.KeyPressMsg{Code: tea.KeyTab})
		if got := h.m.input.Value(); got != want {
			t.Errorf("Tab after %q: %q, want %q (below: %q)", typed, got, want, h.belowText())
		}
	}
	tab("/deb", "/debate ")
	tab("/debate NVD", "/debate NVD")
	if b := h.belowText(); !strings.Contains(b, "NVDA") {
		t.Errorf("candidates for NVD: %q", b)
	}
	tab("/debate nvda", "/debate NVDA ")
	tab("/debate NVDA --fr", "/debate NVDA --framework ")
	tab("/debate NVDA --framework pio", "/debate NVDA --framework piotroski ")
	tab("/debate NVDA --format c", "/debate NVDA --format c")
	if b := h.belowText(); !strings.Contains(b, "council") || !strings.Contains(b, "crux") {
		t.Errorf("candidates for --format c: %q", b)
	}
	tab("/debate NVDA --format cou", "/debate NVDA --format council ")
	tab("/show "+strings.ToLower(id[4:7]), "/show "+id[4:]+" ")
	tab("/resume DEB-"+id[4:7], "/resume "+id+" ")
	tab("/ask b", "/ask b")
	tab("/ask be", "/ask bear ")
	tab("/ask m", "/ask moderator ")
	tab("/export "+id+" --as p", "/export "+id+" --as pdf ")
	h.golden("completion")
}

// TestHistoryAndKeys: lines typed are recalled with Up and Down, in this
// session and the next; Ctrl+C at the prompt asks once before leaving;
// Ctrl+D leaves.
func TestHistoryAndKeys(t *testing.T) {
	h := newHarness(t, 80, nil)
	h.typeLine("/help")
	h.typeLine("/model")
	up := tea.KeyPressMsg{Code: tea.KeyUp}
	down := tea.KeyPressMsg{Code: tea.KeyDown}
	h.m.input.SetValue("draft")
	h.key(up)
	if v := h.m.input.Value(); v != "/model" {
		t.Errorf("Up: %q", v)
	}
	h.key(up)
	h.key(down)
	h.key(down)
	if v := h.m.input.Value(); v != "draft" {
		t.Errorf("Down back to the draft: %q", v)
	}
	next := newHarness(t, 80, nil, func(o *Options) { o.HistoryFile = h.m.opts.HistoryFile })
	next.key(up)
	if v := next.m.input.Value(); v != "/model" {
		t.Errorf("the next session recalls %q, want /model", v)
	}
	if fi, err := os.Stat(h.m.opts.HistoryFile); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("history file: %v, %v; want it private", fi, err)
	}

	h.m.input.SetValue("")
	h.key(ctrl('c'))
	if h.quit || !strings.Contains(h.view(), "Press Ctrl+C again to leave") {
		t.Fatalf("first Ctrl+C at the prompt:\n%s", h.view())
	}
	h.key(ctrl('c'))
	h.until("the quit", func() bool { return h.quit })
	next.key(ctrl('d'))
	next.until("the quit", func() bool { return next.quit })
}

// TestCtrlDPausesTheDebate: leaving while a debate runs pauses it first.
func TestCtrlDPausesTheDebate(t *testing.T) {
	_, env := fakeServer(t, "bullbear.yaml",
		script.Rule{Tag: "research/bull", Replies: []script.Reply{{Text: "never sent", Delay: script.Duration(time.Minute)}}})
	h := newHarness(t, 80, env)
	h.typeLine("/debate NVDA --snapshot")
	h.until("the research", func() bool { v := h.m.views[h.m.current]; return v != nil && v.live != "" })
	h.key(ctrl('d'))
	h.until("the quit", func() bool { return h.quit })
	st, _, err := h.m.app.Load(context.Background(), h.ids()[0])
	if err != nil || st.Status != debate.StatusPaused {
		t.Fatalf("after Ctrl+D: %v, %v; want paused", st.Status, err)
	}
}

// TestWrap: lines break at spaces below the width, not at hyphens; a line
// exactly as wide as the window is one line, with no blank line after it; a
// word longer than a line is broken.
func TestWrap(t *testing.T) {
	exact := strings.Repeat("abcd ", 15) + "abcd" // 79 columns
	for _, c := range []struct {
		text  string
		width int
		want  []string
	}{
		{exact + "e", 80, []string{exact + "e"}},
		{exact + "e f", 80, []string{exact + "e", "f"}},
		{"short words here", 10, []string{"short", "words here"}},
		{strings.Repeat("x", 25), 10, []string{"xxxxxxxxxx", "xxxxxxxxxx", "xxxxx"}},
		{"🐂 Bull · research", 12, []string{"🐂 Bull ·", "research"}},
		// Commands and ids are broken at spaces, never at their hyphens.
		{"switches it: /debate --resume ID --model NAME", 35, []string{"switches it: /debate --resume ID", "--model NAME"}},
		{"Debate DEB-31eb031f: 7 turns", 14, []string{"Debate", "DEB-31eb031f:", "7 turns"}},
	} {
		got := wrapLines(c.text, c.width)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrapLines(%q, %d) = %q, want %q", c.text, c.width, got, c.want)
		}
		for _, l := range got {
			if ansi.StringWidth(l) > c.width {
				t.Errorf("line %q is wider than %d", l, c.width)
			}
		}
	}
	// Every line of a whole debate's view fits the window.
	h := newHarness(t, 60, nil)
	h.typeLine("/debate NVDA --offline")
	h.settle()
	for _, l := range strings.Split(ansi.Strip(strings.Join(h.m.tr.Lines(), "\n")), "\n") {
		if ansi.StringWidth(l) > 60 {
			t.Errorf("line wider than 60: %q", l)
		}
	}
}

func TestParseHint(t *testing.T) {
	targets := []string{"bull", "bear"}
	for line, want := range map[string]struct {
		target, text string
		hint         bool // meant as a hint, well formed or not
	}{
		"bull: mention their new AI chip":      {"bull", "mention their new AI chip", true},
		"Bull, mention their new AI chip":      {"bull", "mention their new AI chip", true},
		"BEAR: look at customer concentration": {"bear", "look at customer concentration", true},
		"both: cite the 10-Q":                  {debate.HintAll, "cite the 10-Q", true},
		"all: cite the 10-Q":                   {debate.HintAll, "cite the 10-Q", true},
		"bu: shorter":                          {"bull", "shorter", true},
		"moderator: favour the bull":           {"", "", true},
		"bull:":                                {"", "", true},
		"mention the chip":                     {"", "", false},
		"Well now, mention it":                 {"", "", false},
	} {
		target, text, ok, err := parseHint(line, targets)
		if target != want.target || text != want.text || ok != (want.target != "") || (err != nil) != (want.hint && want.target == "") {
			t.Errorf("parseHint(%q) = %q, %q, %v, %v; want %q, %q", line, target, text, ok, err, want.target, want.text)
		}
	}
}

// TestParseHintShownName: an agent is hinted by the name the transcript
// shows ("Performance Advocate: …"), as 'parley ask --agent' takes it; the
// shown name was read as no hint at all. A sentence with a colon is still
// no hint.
func TestParseHintShownName(t *testing.T) {
	targets := []string{"future-flexibility", "operational-simplicity", "performance-advocate"}
	for line, want := range map[string]string{
		"Performance Advocate: think about cost":   "performance-advocate",
		"operational simplicity, think about cost": "operational-simplicity",
		"What about cost: is it high":              "",
	} {
		target, _, ok, err := parseHint(line, targets)
		if target != want || ok != (want != "") || err != nil {
			t.Errorf("parseHint(%q) = %q, %v, %v; want %q", line, target, ok, err, want)
		}
	}
}

func TestSplitArgs(t *testing.T) {
	got, err := splitArgs(`debate "Kafka or RabbitMQ?" --format council --hint "bull: it's" 'a "b"' c\ d`)
	want := []string{"debate", "Kafka or RabbitMQ?", "--format", "council", "--hint", "bull: it's", `a "b"`, "c d"}
	if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("splitArgs = %q, %v; want %q", got, err, want)
	}
	if _, err := splitArgs(`debate "open`); err == nil {
		t.Error("an open quote was accepted")
	}
	// An apostrophe inside a word is one, not a quote: a question typed
	// as it is read ("/ask bear What's next?") keeps it.
	for line, want := range map[string][]string{
		`ask bear What's the case? Isn't it 'priced in'?`: {"ask", "bear", "What's", "the", "case?", "Isn't", "it", "priced in?"},
		`debate Tesla's 2025 margins --format council`:    {"debate", "Tesla's", "2025", "margins", "--format", "council"},
		`hint bear don't forget`:                          {"hint", "bear", "don't", "forget"},
	} {
		got, err := splitArgs(line)
		if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("splitArgs(%q) = %q, %v; want %q", line, got, err, want)
		}
	}
}

// TestNoColor: with NO_COLOR the screen carries no colour, only bold and
// faint text; with colour, agents and Markdown are coloured.
func TestNoColor(t *testing.T) {
	colour := regexp.MustCompile(`\x1b\[[0-9;]*[34]8;`)
	for _, c := range []bool{false, true} {
		h := newHarness(t, 100, nil, func(o *Options) { o.Color = c })
		h.typeLine("/debate NVDA --offline")
		h.settle()
		h.typeLine("/show " + h.ids()[0])
		content := h.m.View().Content + strings.Join(h.m.tr.Lines(), "\n")
		if got := colour.MatchString(content); got != c {
			t.Errorf("colour %v: colour codes on the screen: %v (%q)", c, got, colour.FindString(content))
		}
		if !regexp.MustCompile(`\x1b\[1[;m]`).MatchString(content) {
			t.Errorf("colour %v: no bold text", c)
		}
	}
}

// TestCommandLineFeedback: a bare "/" says what goes after it (not an
// internal "<nil>"), /help CMD shows that command, and what was said under
// the input line about one line is gone once the next line is entered.
func TestCommandLineFeedback(t *testing.T) {
	h := newHarness(t, 80, nil)
	h.typeLine("/")
	if b := h.belowText(); strings.Contains(b, "nil") || !strings.Contains(b, "/help lists them") {
		t.Errorf("a bare /: %q", b)
	}
	h.typeLine(`/debate "unclosed`)
	if b := h.belowText(); !strings.Contains(b, "not closed") {
		t.Errorf("an unclosed quote: %q", b)
	}
	h.typeLine("/list")
	if b := h.belowText(); b != "" {
		t.Errorf("after /list the previous line's error is still under the input line: %q", b)
	}
	h.typeLine("/help export")
	tr := h.transcript()
	if !strings.Contains(tr, "/export ID --as md|json|pdf") || strings.Contains(tr, "/resume [ID]") {
		t.Errorf("/help export shows more or less than /export:\n%s", tr)
	}
	h.typeLine("/help frob")
	if tr := h.transcript(); !strings.Contains(tr, "/help frob: no such command") {
		t.Errorf("/help of an unknown command:\n%s", tr)
	}
}

// TestResizeKeepsFollowingTheEnd: a window made narrower wraps the
// transcript into more lines; a view that followed the end still shows
// the end.
func TestResizeKeepsFollowingTheEnd(t *testing.T) {
	h := newHarness(t, 120, nil)
	h.typeLine("/debate NVDA --offline")
	h.settle()
	if !h.m.vp.AtBottom() {
		t.Fatalf("the view does not follow the end before the resize")
	}
	h.update(tea.WindowSizeMsg{Width: 60, Height: 20})
	if !h.m.vp.AtBottom() {
		t.Errorf("after the resize the view left the end (offset %d of %d lines)", h.m.vp.YOffset(), h.m.vp.TotalLineCount())
	}
	if v := h.view(); !strings.Contains(v, "for the document") {
		t.Errorf("the last line is not shown after the resize:\n%s", v)
	}
}

// TestCompleteIDAfterDEB: Tab after "DEB" (the start of "DEB-") completes
// the id as it does after "DEB-".
func TestCompleteIDAfterDEB(t *testing.T) {
	h := newHarness(t, 80, nil)
	h.typeLine("/debate NVDA --offline")
	h.settle()
	id := h.ids()[0]
	for _, typed := range []string{"DEB", "deb"} {
		h.m.input.SetValue("/show " + typed)
		h.m.input.CursorEnd()
		h.key(tea.KeyPressMsg{Code: tea.KeyTab})
		if got, want := h.m.input.Value(), "/show "+id+" "; got != want {
			t.Errorf("Tab after /show %s: %q, want %q (below: %q)", typed, got, want, h.belowText())
		}
	}
}

// TestHintExampleNamesTheDebatesAgents: while a perspectives debate runs,
// the input line's example hint is addressed to one of its agents, not to
// a bullbear "bull" it does not have.
func TestHintExampleNamesTheDebatesAgents(t *testing.T) {
	_, env := fakeServer(t, "perspectives.yaml",
		script.Rule{TagRegexp: "^r1/argument/", Reply: &script.Reply{Text: "never sent", Delay: script.Duration(time.Minute)}})
	h := newHarness(t, 120, env)
	h.typeLine(`/debate "Should we use Redis or PostgreSQL for caching?"`)
	h.until("the debaters to be chosen", func() bool { v := h.m.views[h.m.current]; return v != nil && len(h.m.hintTargets(v)) > 0 })
	h.m.refresh()
	targets := h.m.hintTargets(h.m.views[h.m.current])
	if p := h.m.input.Placeholder; strings.Contains(p, "bull") || !strings.Contains(p, targets[0]+": ") {
		t.Errorf("placeholder %q; want an example for one of %v", p, targets)
	}
	h.typeLine("/hint")
	if b := h.belowText(); strings.Contains(b, "bull") || !strings.Contains(b, "/hint "+targets[0]+" ") {
		t.Errorf("/hint usage %q; want an example for one of %v", b, targets)
	}
	h.key(ctrl('c'))
	h.settle()
}

// TestEmptyLineTakesTheDefault: Enter on an empty line answers "[Y/n]" with
// its default (resume), and the guidance prompt ("empty to continue
// without") with no guidance.
func TestEmptyLineTakesTheDefault(t *testing.T) {
	h := newHarness(t, 100, nil)
	id := pausedBullbear(t, h)
	h.typeLine("/debate NVDA --offline")
	h.until("the resume question", func() bool { return h.m.question != nil })
	h.typeLine("")
	h.settle()
	st, _, err := h.m.app.Load(context.Background(), id)
	if err != nil || st.Status != debate.StatusCompleted || len(h.ids()) != 1 {
		t.Fatalf("after Enter at [Y/n]: %v, %v, %d debates; want the paused one resumed", st.Status, err, len(h.ids()))
	}

	_, env := fakeServer(t, "perspectives.yaml")
	h = newHarness(t, 100, env)
	h.typeLine(`/debate "Should we use Redis or PostgreSQL for caching?"`)
	h.until("the checkpoint", func() bool { return h.m.check != nil })
	h.typeLine("g")
	h.typeLine("")
	if h.m.check != nil {
		t.Fatalf("Enter on an empty guidance line did not answer the checkpoint:\n%s", h.view())
	}
	h.until("the second checkpoint or the end", func() bool { return h.m.check != nil || h.idle() })
	for h.m.check != nil {
		h.typeLine("e")
		h.until("the end", func() bool { return h.m.check != nil || h.idle() })
	}
	st, _, err = h.m.app.Load(context.Background(), h.ids()[0])
	if err != nil || st.Status != debate.StatusCompleted || len(st.Guidance()) != 0 {
		t.Fatalf("status %v, %v, guidance %q; want completed without guidance", st.Status, err, st.Guidance())
	}
}

// TestListFitsWideTopics: /list cuts a topic of wide (CJK) characters to
// the window by display width, so that its row does not wrap under the ID
// column.
func TestListFitsWideTopics(t *testing.T) {
	for _, w := range widths {
		h := newHarness(t, w, nil)
		topic := strings.Repeat("漢字", 40) + " Should we use Redis?"
		e, err := debate.NewEvent("DEB-0a0b0c0e", clock(), debate.Created{Format: "perspectives", Topic: topic, Limits: debate.DefaultLimits()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := h.store.Append(context.Background(), "DEB-0a0b0c0e", e); err != nil {
			t.Fatal(err)
		}
		h.typeLine("/list")
		var rows []string
		for _, l := range strings.Split(h.transcript(), "\n") {
			if strings.Contains(l, "漢字") {
				rows = append(rows, l)
			}
		}
		if len(rows) != 1 || !strings.HasPrefix(rows[0], "DEB-") || ansi.StringWidth(rows[0]) > w || !strings.HasSuffix(rows[0], "…") {
			t.Errorf("width %d: the topic's row is not one line that fits, cut with …: %q", w, rows)
		}
	}
}

// TestListRefusesArguments: /list has no filters, so an argument is
// refused with its usage, not ignored.
func TestListRefusesArguments(t *testing.T) {
	h := newHarness(t, 100, nil)
	h.typeLine("/debate NVDA --offline")
	h.settle()
	h.typeLine("/list extra")
	v := h.view()
	if !strings.Contains(v, "/list takes no arguments") || strings.Contains(v, "FORMAT") {
		t.Errorf("/list extra: want its usage and no list:\n%s", v)
	}
	h.typeLine("/list")
	if v := h.view(); !strings.Contains(v, "FORMAT") {
		t.Errorf("/list: no list:\n%s", v)
	}
}

// TestInputLineEscapesBidi: a right-to-left override typed or pasted into
// the input line is shown escaped, as everywhere else, not applied.
func TestInputLineEscapesBidi(t *testing.T) {
	h := newHarness(t, 80, nil)
	h.m.input.SetValue("/show abc\u202edef\u2066")
	h.m.input.CursorEnd()
	v := h.view()
	if strings.ContainsRune(v, 0x202e) || strings.ContainsRune(v, 0x2066) || !strings.Contains(v, "abc⟨U+202E⟩def⟨U+2066⟩") {
		t.Errorf("the input line shows the bidi controls raw:\n%q", v)
	}
}

// TestStatusLineKeepsWhatRuns: while a turn runs, the status line ends
// with the debate's status and the spinner naming the agent that thinks,
// the only sign that a long turn is alive. A question as the topic must not
// push them off the line: the topic (shown in the transcript) gives way.
func TestStatusLineKeepsWhatRuns(t *testing.T) {
	for _, w := range []int{60, 80, 100, 120} {
		t.Run(itoa(w), func(t *testing.T) {
			_, env := fakeServer(t, "perspectives.yaml",
				script.Rule{Tag: "analysis", Replies: []script.Reply{{Text: "never sent", Delay: script.Duration(time.Minute)}}})
			h := newHarness(t, w, env)
			topic := "Should we move our caching layer from Redis to PostgreSQL unlogged tables this quarter?"
			h.typeLine(`/debate "` + topic + `"`)
			h.until("the analysis turn to start", func() bool {
				v := h.m.views[h.m.current]
				return v != nil && len(v.running) == 1
			})
			status := ansi.Strip(h.m.statusLine())
			if got := ansi.StringWidth(status); got != w {
				t.Errorf("the status line is %d cells wide, want %d: %q", got, w, status)
			}
			for _, want := range []string{"running", "⠋ Moderator", "Moderator · analysis is thinking…"} {
				if want == "Moderator · analysis is thinking…" && w < 80 {
					continue // the phase and the status take the room
				}
				if !strings.Contains(status, want) {
					t.Errorf("the status line at %d columns lost %q: %q", w, want, status)
				}
			}
			if w >= 100 && !strings.Contains(status, "perspectives · Should we") {
				t.Errorf("the status line at %d columns has room for the format and the topic's start: %q", w, status)
			}
			h.key(ctrl('c'))
			h.settle()
		})
	}
}

// TestUnknownIDNamesTheShellsList: a debate id that matches none, typed to
// any command that takes one, is answered with the shell's own way to find
// the ids (/list), not the command line's.
func TestUnknownIDNamesTheShellsList(t *testing.T) {
	h := newHarness(t, 120, nil)
	for _, line := range []string{"/show DEB-ffff", "/resume ffff", "/cost DEB-ffff", "/export DEB-ffff --as md", "/debate --resume ffff", "/show " + strings.Repeat("z", 3000)} {
		before := len(h.transcript())
		h.typeLine(line)
		h.settle()
		tr := h.transcript()[before:]
		if strings.Contains(tr, "parley list") {
			t.Errorf("%s names the command line's list:\n%s", line, tr)
		}
		if !strings.Contains(tr, "/list shows the debates") {
			t.Errorf("%s does not say /list shows the debates:\n%s", line, tr)
		}
		// The answer quotes the start of a long id, not all of it.
		if _, answer, _ := strings.Cut(tr, "no debate"); strings.Contains(answer, strings.Repeat("z", 100)) {
			t.Errorf("the answer to %.20s… repeats all of it:\n%.300s", line, answer)
		}
	}
}

// TestListFitsANarrowWindow: /list in a window too narrow for every column
// leaves out the least needed ones (time, cost, format) instead of
// wrapping each row under the first column; every row keeps its id, its
// status and the start of its topic, on one line.
func TestListFitsANarrowWindow(t *testing.T) {
	for _, w := range []int{40, 50, 64, 120} {
		t.Run(itoa(w), func(t *testing.T) {
			h := newHarness(t, w, nil)
			id := storedDebate(t, h)
			before := len(h.m.tr.Lines())
			h.typeLine("/list")
			lines := h.m.tr.Lines()[before:]
			var rows []string
			for _, l := range lines {
				l = ansi.Strip(l)
				if strings.HasPrefix(l, "ID ") || strings.HasPrefix(l, "DEB-") {
					rows = append(rows, l)
				}
				if ansi.StringWidth(l) > w {
					t.Errorf("a /list line is wider than %d cells: %q", w, l)
				}
			}
			if len(rows) != 2 {
				t.Fatalf("/list at %d columns: want the header and one row, each on one line:\n%s", w, strings.Join(lines, "\n"))
			}
			for _, want := range []string{id, "completed", "NVDA"} {
				if !strings.Contains(rows[1], want) {
					t.Errorf("/list at %d columns: the row lacks %q: %q", w, want, rows[1])
				}
			}
			if w >= 120 && !strings.Contains(rows[0], "CREATED") {
				t.Errorf("/list at %d columns left out a column with room for it: %q", w, rows[0])
			}
		})
	}
}

// TestCompletionsGoWithAnEdit: the candidates Tab lists under the input
// line are for the line as it was; once it is edited (a key typed, the
// line cleared, an earlier line recalled) they go, instead of standing
// under a line they do not complete. Tab itself keeps them.
func TestCompletionsGoWithAnEdit(t *testing.T) {
	for _, edit := range []struct {
		name string
		keys []tea.KeyPressMsg
	}{
		{"typed", []tea.KeyPressMsg{{Code: 'o', Text: "o"}}},
		{"backspace", []tea.KeyPressMsg{{Code: tea.KeyBackspace}}},
		{"ctrl+u", []tea.KeyPressMsg{ctrl('u')}},
		{"ctrl+c", []tea.KeyPressMsg{ctrl('c')}},
		{"up", []tea.KeyPressMsg{{Code: tea.KeyUp}}},
	} {
		t.Run(edit.name, func(t *testing.T) {
			h := newHarness(t, 80, nil)
			h.typeLine("/help")
			h.m.input.SetValue("/debate NVDA --format c")
			h.m.input.CursorEnd()
			h.key(tea.KeyPressMsg{Code: tea.KeyTab})
			if b := h.belowText(); !strings.Contains(b, "council") {
				t.Fatalf("Tab listed no candidates: %q", b)
			}
			h.key(tea.KeyPressMsg{Code: tea.KeyTab})
			if b := h.belowText(); !strings.Contains(b, "council") {
				t.Fatalf("a second Tab dropped the candidates: %q", b)
			}
			for _, k := range edit.keys {
				h.key(k)
			}
			if b := h.belowText(); strings.Contains(b, "council") {
				t.Errorf("after %s the candidates for %q still stand under %q: %q", edit.name, "/debate NVDA --format c", h.m.input.Value(), b)
			}
		})
	}
}

// TestHintWhileNoDebateRuns: a hint typed for the shell's debate when it
// does not run (paused by Ctrl+C, or ended) is not taken for a request to
// start a debate ("That starts nothing"): the shell says it was not queued
// and what to do, /resume or /ask. Other text still starts a debate or says
// how to.
func TestHintWhileNoDebateRuns(t *testing.T) {
	_, env := fakeServer(t, "bullbear.yaml",
		script.Rule{Tag: "research/bull", Replies: []script.Reply{{Text: "never sent", Delay: script.Duration(time.Minute)}}},
		script.Rule{Tag: "research/bear", Replies: []script.Reply{{Text: "never sent", Delay: script.Duration(time.Minute)}}})
	h := newHarness(t, 120, env)
	h.typeLine("/debate NVDA --snapshot")
	h.until("both research turns to start", func() bool { v := h.m.views[h.m.current]; return v != nil && len(v.running) == 2 })
	h.key(ctrl('c'))
	h.settle()
	before := len(h.transcript())
	h.typeLine("bull: mention their new AI chip")
	if b := h.belowText(); !strings.Contains(b, "Hint not queued") || !strings.Contains(b, "/resume") {
		t.Errorf("a hint to the paused debate: below the input line %q, want it not queued and /resume", b)
	}
	if tr := h.transcript()[before:]; strings.Contains(tr, "starts nothing") || strings.Contains(tr, "AI chip") {
		t.Errorf("a hint to the paused debate went to the transcript as a request:\n%s", tr)
	}

	h = newHarness(t, 120, nil)
	h.typeLine("/debate NVDA --offline")
	h.settle()
	h.typeLine("Bear, weigh the export rules")
	if b := h.belowText(); !strings.Contains(b, "has ended") || !strings.Contains(b, "/ask") {
		t.Errorf("a hint to the ended debate: below the input line %q, want it ended and /ask", b)
	}
	before = len(h.transcript())
	h.typeLine("Tesla, bull or bear?")
	if tr := h.transcript()[before:]; !strings.Contains(tr, "Tesla, bull or bear?") {
		t.Errorf("a line that names no agent was not taken as a request:\n%s", tr)
	}
}

// TestCommandsAtACheckpoint: while a checkpoint waits, a /command is run,
// as while the agents stream (/cost so far, /quit), not taken for a wrong
// answer; the checkpoint still waits, and is answered after it.
func TestCommandsAtACheckpoint(t *testing.T) {
	_, env := fakeServer(t, "perspectives.yaml")
	h := newHarness(t, 100, env)
	h.typeLine(`/debate "Should we use Redis or PostgreSQL for caching?"`)
	h.until("the checkpoint", func() bool { return h.m.check != nil })
	h.typeLine("/cost")
	if b := h.belowText(); !strings.Contains(b, "So far:") {
		t.Errorf("/cost at the checkpoint: below the input line %q, want the cost so far", b)
	}
	if h.m.check == nil {
		t.Fatal("/cost answered the checkpoint")
	}
	h.typeLine("c")
	h.until("the debate to end", h.idle)
	if st, _, err := h.m.app.Load(context.Background(), h.ids()[0]); err != nil || st.Status != debate.StatusCompleted {
		t.Fatalf("the checkpoint answered c after /cost: the debate is %v (%v), want completed", st.Status, err)
	}

	h = newHarness(t, 100, env)
	h.typeLine(`/debate "Should we use Redis or PostgreSQL for caching?"`)
	h.until("the checkpoint", func() bool { return h.m.check != nil })
	h.typeLine("/quit")
	h.until("the shell to leave", func() bool { return h.quit })
	st, _, err := h.m.app.Load(context.Background(), h.ids()[0])
	if err != nil || st.Status != debate.StatusPaused {
		t.Fatalf("after /quit at the checkpoint the debate is %v (%v), want paused", st.Status, err)
	}
}

// TestDebateWithFlagsWithoutSlash: "debate NVDA --offline", /debate typed
// without its slash, runs as /debate with its flags, not as a company
// called "NVDA --offline".
func TestDebateWithFlagsWithoutSlash(t *testing.T) {
	h := newHarness(t, 120, nil)
	h.typeLine("debate NVDA --offline")
	h.settle()
	tr := h.transcript()
	if strings.Contains(tr, "No company called") || strings.Count(tr, "debate NVDA --offline") != 1 {
		t.Errorf("debate NVDA --offline was not run as /debate:\n%s", tr)
	}
	ids := h.ids()
	if len(ids) != 1 {
		t.Fatalf("debates started: %v, want one", ids)
	}
	st, _, err := h.m.app.Load(context.Background(), ids[0])
	if err != nil || st.Status != debate.StatusCompleted || st.Format != "bullbear" {
		t.Fatalf("the debate: %v %v (%v), want a completed bullbear debate", st.Format, st.Status, err)
	}
}

// TestExportPath: /export -o reads its path as a shell would: ~ is the
// home directory (not a directory named "~"), and a directory means the
// debate's file in it (not a failed rename over the directory).
func TestExportPath(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	t.Chdir(cwd)
	h := newHarness(t, 120, map[string]string{"HOME": home})
	id := storedDebate(t, h)
	h.typeLine("/export " + id + " -o ~/reports/nvda.md")
	h.settle()
	if _, err := os.Stat(filepath.Join(home, "reports", "nvda.md")); err != nil {
		t.Errorf("-o ~/reports/nvda.md: %v; the transcript:\n%s", err, h.transcript())
	}
	if _, err := os.Stat(filepath.Join(cwd, "~")); err == nil {
		t.Error(`-o ~/reports/nvda.md made a directory named "~"`)
	}
	dir := t.TempDir()
	h.typeLine("/export " + id + " --as json -o " + dir)
	h.settle()
	if _, err := os.Stat(filepath.Join(dir, id+".json")); err != nil {
		t.Errorf("-o DIR: %v; the transcript:\n%s", err, h.transcript())
	}
	// "-" is standard output for 'parley export', not a file's name.
	h.typeLine("/export " + id + " -o -")
	h.settle()
	if _, err := os.Stat(filepath.Join(cwd, "-")); err == nil || !strings.Contains(h.transcript(), "-o - is standard output, which the shell draws on") {
		t.Errorf(`-o - made a file named "-" (%v), or said nothing of it:\n%s`, err == nil, h.transcript())
	}
}

// TestExportKeepsAFile: /export -o never writes over a file that exists
// unless told (--force): a path typed by mistake (a system file, a document
// of the user's) is refused and kept; and its JSON is the CLI's, controls
// escaped.
func TestExportKeepsAFile(t *testing.T) {
	h := newHarness(t, 120, nil)
	id := storedDebate(t, h)
	dir := t.TempDir()
	mine := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.typeLine("/export " + id + " --as pdf -o " + mine)
	h.settle()
	if b, _ := os.ReadFile(mine); string(b) != "mine\n" || !strings.Contains(h.transcript(), mine+" exists: add --force to replace it") {
		t.Errorf("/export over a file: it holds %q; the transcript:\n%s", b, h.transcript())
	}
	h.typeLine("/export " + id + " --as json --force -o " + mine)
	h.settle()
	b, _ := os.ReadFile(mine)
	st, format, err := h.m.app.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	want, err := app.Export(format, st, "json", false)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, want) {
		t.Errorf("/export --force --as json wrote %.200q, want the CLI's export %.200q", b, want)
	}
}

// TestPromptBackAfterCompletions: Tab while a checkpoint waits lists what
// it finds in the place of the checkpoint's prompt; once the line is
// edited the list goes and the prompt comes back, not an empty line.
func TestPromptBackAfterCompletions(t *testing.T) {
	_, env := fakeServer(t, "perspectives.yaml")
	h := newHarness(t, 100, env)
	h.typeLine(`/debate "Should we use Redis or PostgreSQL for caching?"`)
	h.until("the checkpoint", func() bool { return h.m.check != nil })
	h.m.input.SetValue("/c")
	h.m.input.CursorEnd()
	h.key(tea.KeyPressMsg{Code: tea.KeyTab})
	if b := h.belowText(); !strings.Contains(b, "Checkpoint: [C]ontinue") {
		t.Errorf("Tab completing one command took the checkpoint's prompt away: %q", b)
	}
	h.m.input.SetValue("/zz")
	h.m.input.CursorEnd()
	h.key(tea.KeyPressMsg{Code: tea.KeyTab})
	if b := h.belowText(); strings.Contains(b, "Checkpoint:") {
		t.Fatalf("Tab listed nothing in the prompt's place: %q", b)
	}
	h.key(ctrl('u'))
	if b := h.belowText(); !strings.Contains(b, "Checkpoint: [C]ontinue, [G]uide or [E]nd early?") {
		t.Errorf("after the edit, below the input line: %q, want the checkpoint's prompt back", b)
	}
	h.typeLine("c")
	h.until("the debate to end", h.idle)
}

// TestCommandWhileAQuestionWaits: a /command typed while the shell asks
// which company was meant runs, and the question is dropped; it is not
// taken for an answer that starts nothing, with the command never run.
func TestCommandWhileAQuestionWaits(t *testing.T) {
	h := newHarness(t, 120, nil)
	h.typeLine("bull vs bear for alphabet")
	h.settle()
	if h.m.question == nil {
		t.Fatalf("no question for an ambiguous name:\n%s", h.view())
	}
	before := len(h.transcript())
	h.typeLine("/model openai/gpt-4.1")
	h.settle()
	tr := h.transcript()[before:]
	if strings.Contains(tr, "Nothing started") || !strings.Contains(tr, "openai/gpt-4.1") {
		t.Errorf("/model while the question waited was not run:\n%s", tr)
	}

	if h.m.question != nil {
		t.Error("the question still waits after a /command")
	}
}

// TestStatusAtAResumedCheckpoint: a debate paused at its checkpoint and
// resumed waits for the answer again; the status line says checkpoint, as
// it did the first time, not running.
func TestStatusAtAResumedCheckpoint(t *testing.T) {
	_, env := fakeServer(t, "perspectives.yaml")
	h := newHarness(t, 120, env)
	h.typeLine(`/debate "Should we use Redis or PostgreSQL for caching?"`)
	h.until("the checkpoint", func() bool { return h.m.check != nil })
	if s := ansi.Strip(h.m.statusLine()); !strings.Contains(s, "· checkpoint ·") {
		t.Errorf("at the checkpoint the status line says %q", s)
	}
	h.key(ctrl('c'))
	h.settle()
	h.typeLine("/resume")
	h.until("the checkpoint again", func() bool { return h.m.check != nil })
	if s := ansi.Strip(h.m.statusLine()); !strings.Contains(s, "· checkpoint ·") {
		t.Errorf("at the checkpoint, resumed, the status line says %q", s)
	}
	h.typeLine("e")
	h.until("the end", h.idle)
}

// TestShowDebateRunElsewhere: /show of a debate another process runs (a
// worker, a terminal) names that process and offers no /resume, which
// would be refused; once that process is gone, /show says the debate was
// interrupted and offers /resume.
func TestShowDebateRunElsewhere(t *testing.T) {
	h := newHarness(t, 120, nil)
	ctx := context.Background()
	a := *h.m.opts.App
	sess, err := a.Start(ctx, app.StartRequest{Request: setup.Request{Topic: "NVDA", Format: bullbear.Name, Offline: true}, Limits: debate.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	worker := debate.LeaseOwner{ID: "worker-1", Host: "worker-7", PID: 4242, Started: clock()}
	if _, err := h.store.AcquireLease(ctx, sess.ID, worker, time.Hour, ""); err != nil {
		t.Fatal(err)
	}
	const id = "DEB-00000001" // as the transcript shows the only debate
	h.typeLine("/show " + sess.ID)
	tr := h.flat()
	if !strings.Contains(tr, id+" · bullbear · running · created") || !strings.Contains(tr, "Running in process 4242 on host worker-7 (since ") || strings.Contains(tr, "/resume ") {
		t.Errorf("/show of a debate a worker runs:\n%s", tr)
	}
	if err := h.store.ReleaseLease(ctx, sess.ID, worker.ID); err != nil {
		t.Fatal(err)
	}
	h.typeLine("/show " + sess.ID)
	tr = h.flat()
	if !strings.Contains(tr, id+" · bullbear · interrupted (its runner stopped before the debate ended) · created") || !strings.Contains(tr, "/resume "+id+" goes on with it.") {
		t.Errorf("/show of a debate whose runner is gone:\n%s", tr)
	}
}

// TestHintDebateRunElsewhere: /hint with no debate running in the shell
// queues the hint in the log of the shell's debate when it has not ended
// (a worker runs it, or it waits), saying who reads it when; a debate that
// has ended, or none chosen, queues nothing.
func TestHintDebateRunElsewhere(t *testing.T) {
	h := newHarness(t, 120, nil)
	h.typeLine("/hint bull mention the new chip")
	if b := h.belowText(); !strings.Contains(b, "No debate to hint") {
		t.Errorf("/hint with no debate chosen: below the input line %q", b)
	}
	ctx := context.Background()
	a := *h.m.opts.App
	sess, err := a.Start(ctx, app.StartRequest{Request: setup.Request{Topic: "NVDA", Format: bullbear.Name, Offline: true}, Limits: debate.DefaultLimits()})
	if err != nil {
		t.Fatal(err)
	}
	worker := debate.LeaseOwner{ID: "worker-1", Host: "worker-7", PID: 4242, Started: clock()}
	if _, err := h.store.AcquireLease(ctx, sess.ID, worker, time.Hour, ""); err != nil {
		t.Fatal(err)
	}
	const id = "DEB-00000001" // as the shell shows the only debate
	h.typeLine("/show " + sess.ID)
	h.typeLine("/hint bull mention the new chip")
	if b := h.normalize(h.belowText()); !strings.Contains(b, "💡 Hint queued for Bull") || !strings.Contains(b, "mention the new chip") ||
		!strings.Contains(b, "Process 4242 on host worker-7 runs debate "+id+" and reads it before its next step.") {
		t.Errorf("/hint to a debate a worker runs: below the input line %q", b)
	}
	h.typeLine("bear: look at the inventory")
	if b := h.normalize(h.belowText()); !strings.Contains(b, "Hint not queued: debate "+id+" runs in another process. /hint AGENT TEXT queues it there.") {
		t.Errorf("a typed hint to a debate a worker runs: below the input line %q", b)
	}
	h.typeLine("/hint moderator be fair")
	if b := h.belowText(); !strings.Contains(b, "The moderator takes no hints") {
		t.Errorf("/hint to the moderator: below the input line %q", b)
	}
	if err := h.store.ReleaseLease(ctx, sess.ID, worker.ID); err != nil {
		t.Fatal(err)
	}
	h.typeLine("/hint both cite the filing")
	if b := h.normalize(h.belowText()); !strings.Contains(b, "💡 Hint queued for both sides: cite the filing") || !strings.Contains(b, "It applies when debate "+id+" goes on (/resume "+id+").") {
		t.Errorf("/hint to a debate that waits: below the input line %q", b)
	}
	st, _, err := a.Load(ctx, sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Hints) != 2 || st.Hints[0].Target != bullbear.AgentBull || st.Hints[1].Target != debate.HintAll || st.Hints[1].ID != 2 {
		t.Fatalf("hints in the log: %+v; want one for the bull and one for all", st.Hints)
	}
	if _, err := sess.Run(ctx, nil); err != nil {
		t.Fatal(err)
	}
	h.typeLine("/hint bear too late")
	if b := h.belowText(); !strings.Contains(b, "has ended") {
		t.Errorf("/hint to a debate that has ended: below the input line %q", b)
	}
	if st, _, _ := a.Load(ctx, sess.ID); len(st.Hints) != 2 || st.Hints[0].Applied == "" {
		t.Errorf("hints after the run: %+v; want the two, the bull's applied", st.Hints)
	}
}

// TestAskByIDMakesItCurrent: /ask ID … on a debate the shell has not shown
// makes it the shell's debate, answered or not: the status line shows it
// and /cost prices it (they said "no debate yet").
func TestAskByIDMakesItCurrent(t *testing.T) {
	_, env := fakeServer(t, "bullbear.yaml",
		script.Rule{Tag: "ask/1/bear", Reply: &script.Reply{Text: "Cash conversion above 1x for two years would turn me bullish."}})
	h := newHarness(t, 120, env)
	id := storedDebate(t, h)
	h.typeLine("/ask " + id + " bear What would change your mind?")
	h.settle()
	if !strings.Contains(h.transcript(), "Saved as ask/1/bear") {
		t.Fatalf("the follow-up was not answered:\n%s", h.transcript())
	}
	if v := h.view(); strings.Contains(v, "no debate yet") || !strings.Contains(v, "bullbear · NVDA") {
		t.Errorf("the status line after /ask ID does not show the debate:\n%s", v)
	}
	h.typeLine("/cost")
	if tr := h.transcript(); strings.Contains(tr, "No debate yet") || !strings.Contains(tr, "Tokens and cost of DEB-00000001") {
		t.Errorf("/cost after /ask ID:\n%s", tr)
	}
}

// TestRunOutlivesAFailedRead: a read of the log that fails while the shell
// runs a debate (PostgreSQL restarting) neither ends the transcript nor
// leaves the shell waiting for ever: the debate is shown to its end.
func TestRunOutlivesAFailedRead(t *testing.T) {
	h := newHarness(t, 120, nil, func(o *Options) {
		o.App.Store = &storetest.CutStore{Store: o.App.Store, FailAfter: 5}
	})
	h.typeLine("/debate NVDA --offline")
	h.settle()
	if tr := h.transcript(); !strings.Contains(tr, "Debate DEB-00000001: 7 turns, no cost (no model used)") {
		t.Errorf("the debate was not shown to its end:\n%s", tr)
	}
}

// TestCtrlCDropsAHalfTypedGuidance: Ctrl+C while guidance for a checkpoint
// is being typed pauses the debate and drops the half-typed guidance, which
// answered a checkpoint that no longer waits (Enter would take it for a
// request).
func TestCtrlCDropsAHalfTypedGuidance(t *testing.T) {
	_, env := fakeServer(t, "perspectives.yaml")
	h := newHarness(t, 100, env)
	h.typeLine(`/debate "Should we use Redis or PostgreSQL for caching?"`)
	h.until("the checkpoint", func() bool { return h.m.check != nil })
	h.typeLine("g")
	h.m.input.SetValue("What's the bull and bear case for Tesla?")
	h.key(ctrl('c'))
	h.settle()
	if v := h.m.input.Value(); v != "" {
		t.Fatalf("the half-typed guidance is still in the input line after the pause: %q", v)
	}
	if st, _, err := h.m.app.Load(context.Background(), h.ids()[0]); err != nil || st.Status != debate.StatusPaused {
		t.Fatalf("after Ctrl+C at the checkpoint: %v, %v; want the debate paused", st.Status, err)
	}
}

// TestQueuedDebate: a debate queued for a worker (a batch's, a server's)
// that none has taken up lists as queued, with the hint to start a worker,
// and /show says the same; it is not offered to /resume, which would run it
// here beside the worker.
func TestQueuedDebate(t *testing.T) {
	h := newHarness(t, 120, nil)
	const id = "DEB-0a0b0c0f"
	const shown = "DEB-00000001" // as the harness normalizes it
	storeEvents(t, h, id, []debate.Payload{
		debate.Created{Format: "bullbear", Topic: "NVDA", Limits: debate.DefaultLimits()},
		debate.Queued{Queue: "data", Reason: debate.QueuedCreated},
	}...)
	h.typeLine("/list")
	tr := h.transcript()
	row := ""
	for _, l := range strings.Split(tr, "\n") {
		if strings.HasPrefix(l, shown) {
			row = l
		}
	}
	if !strings.Contains(row, " queued ") || !strings.Contains(tr, "Queued debates wait for a worker, which runs them: if none runs, start one (parley worker, on this database).") ||
		strings.Contains(tr, "interrupted") || strings.Contains(tr, "Interrupted") {
		t.Errorf("/list of a queued debate (row %q):\n%s", row, tr)
	}
	h.typeLine("/resume")
	if tr := h.transcript(); !strings.Contains(tr, "Nothing to resume") {
		t.Errorf("/resume offered a queued debate:\n%s", tr)
	}
	h.typeLine("/show " + id)
	tr = h.flat()
	if !strings.Contains(tr, shown+" · bullbear · queued (waiting for a worker to take it up) · created") ||
		!strings.Contains(tr, "Queued for a worker, which runs it: if none runs, start one (parley worker, on this database); /show "+shown+" again shows how far it got.") ||
		strings.Contains(tr, "/resume "+shown+" goes on with it") {
		t.Errorf("/show of a queued debate:\n%s", h.transcript())
	}
}

// TestResumeNamesTheInterruptedTurn: resuming a debate that stopped while a
// turn streamed names that turn as its heading does ("Bear · opening"), as
// 'parley debate --resume' does, not by its id in the log (opening/bear).
func TestResumeNamesTheInterruptedTurn(t *testing.T) {
	h := newHarness(t, widths[0], nil)
	opts := offlineNVDAOptions(t)
	const id = "DEB-0a0b0c0e"
	storeEvents(t, h, id, []debate.Payload{
		debate.Created{Format: bullbear.Name, Topic: "NVDA", Options: opts, Limits: debate.DefaultLimits()},
		debate.PhaseChanged{Phase: "research", Label: "Phase 1 (Research)"},
		debate.TurnStarted{Turn: debate.TurnRef{ID: "research/bull", Agent: "bull", Role: "bull", Label: "Bull · research"}, Attempt: 1},
		debate.TurnDelta{Turn: "research/bull", Text: "Research for the bull ca"},
		debate.Paused{Reason: debate.PauseInterrupted},
	}...)
	h.typeLine("/resume " + id)
	h.settle()
	tr := strings.Join(strings.Fields(h.transcript()), " ")
	if want := "(The interrupted reply of Bull · research is kept in the log; it runs again from its start.)"; !strings.Contains(tr, want) {
		t.Errorf("transcript, want %q:\n%s", want, h.transcript())
	}
}

// TestModelNamesNewDebatesModelsOnce: /model with a model configured says
// which models new debates get, naming the list once ("New debates:
// every role → …", not "New debates: Models: …").
func TestModelNamesNewDebatesModelsOnce(t *testing.T) {
	h := newHarness(t, 120, map[string]string{"OPENAI_API_KEY": "sk-test"})
	h.typeLine("/model openai/gpt-4.1")
	h.settle()
	if tr := h.transcript(); !strings.Contains(tr, "New debates: every role → openai/gpt-4.1") || strings.Contains(tr, "New debates: Models") {
		t.Errorf("/model does not say the new debates' models once:\n%s", tr)
	}
}

// TestQuestionWiderThanTheWindow: a question under the input line wider
// than the window wraps, so that its end, "[y/N]", shows; it was cut to
// the width with "…".
func TestQuestionWiderThanTheWindow(t *testing.T) {
	h := newHarness(t, 60, nil)
	h.typeLine("/debate NVDA --offline")
	h.settle()
	sums, err := h.store.List(context.Background(), debate.ListFilter{})
	if err != nil || len(sums) != 1 {
		t.Fatalf("debates: %v, %v", sums, err)
	}
	h.typeLine("/delete " + sums[0].ID)
	v := h.view()
	if !strings.Contains(v, "[y/N]") {
		t.Fatalf("the question's end is not shown:\n%s", v)
	}
	for _, l := range strings.Split(v, "\n") {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("a line %d wide in a window 60 wide: %q", w, l)
		}
	}
}

// TestUnknownCommandWhileRunning: a mistyped command while a debate runs
// is said to be unknown, with the command meant, as when none runs; it was
// told it "waits" for the debate, as if it would run after it.
func TestUnknownCommandWhileRunning(t *testing.T) {
	h := newHarness(t, 120, nil, func(o *Options) { o.Pace = time.Hour })
	h.typeLine("/debate NVDA --offline")
	h.until("the debate to run", func() bool { return h.m.run != nil })
	h.typeLine("/lsit")
	if b := h.belowText(); !strings.Contains(b, "unknown command /lsit: did you mean /list?") {
		t.Errorf("a mistyped command while a debate runs: below the input line %q", b)
	}
	h.typeLine("/list")
	if b := h.belowText(); !strings.Contains(b, "/list waits: a debate is running") {
		t.Errorf("a command while a debate runs: below the input line %q", b)
	}
}

// TestDelete: /delete asks first; no (or an empty line) deletes nothing,
// y deletes the debate, which /list then lacks; an unknown ID says so.
func TestDelete(t *testing.T) {
	h := newHarness(t, 120, nil)
	h.typeLine("/debate NVDA --offline")
	h.settle()
	sums, err := h.store.List(context.Background(), debate.ListFilter{})
	if err != nil || len(sums) != 1 {
		t.Fatalf("debates: %v, %v", sums, err)
	}
	id := sums[0].ID
	h.typeLine("/delete " + id)
	// view and transcript show ids normalized: the only debate is DEB-00000001.
	if v := h.view(); !strings.Contains(v, "Delete debate DEB-00000001 (bullbear, completed: NVDA)? Its log cannot be recovered. [y/N]") {
		t.Fatalf("/delete does not ask first:\n%s", v)
	}
	h.typeLine("n")
	if _, err := h.store.Get(context.Background(), id); err != nil || !strings.Contains(h.transcript(), "Nothing deleted.") {
		t.Fatalf("answered n, the debate is gone (%v) or nothing is said:\n%s", err, h.transcript())
	}
	h.typeLine("/delete " + id)
	h.typeLine("y")
	if _, err := h.store.Get(context.Background(), id); !errors.Is(err, debate.ErrNotFound) {
		t.Fatalf("answered y, the debate is still there: %v", err)
	}
	if tr := h.transcript(); !strings.Contains(tr, "Deleted debate DEB-00000001") {
		t.Errorf("the delete is not said:\n%s", tr)
	}
	h.typeLine("/list")
	if v := h.view(); !strings.Contains(v, "No debates yet.") {
		t.Errorf("/list still lists the deleted debate:\n%s", v)
	}
	h.typeLine("/delete " + id)
	if tr := h.transcript(); !strings.Contains(tr, "/list shows the debates") {
		t.Errorf("/delete of an unknown ID does not say /list shows the debates:\n%s", tr)
	}
}

// TestOutPathNewDirectory: /export -o names a directory that does not exist
// yet by a trailing separator ("exports/", "~/exports/"): the file goes in
// it, as for a directory that exists; the separator was dropped and the
// document written to a file named "exports".
func TestOutPathNewDirectory(t *testing.T) {
	home := t.TempDir()
	h := newHarness(t, 80, map[string]string{"HOME": home})
	sep := string(filepath.Separator)
	for out, want := range map[string]string{
		"exports" + sep:             filepath.Join("exports", "DEB-1.md"),
		"~" + sep + "exports" + sep: filepath.Join(home, "exports", "DEB-1.md"),
		"~":                         filepath.Join(home, "DEB-1.md"),
		"notes.md":                  "notes.md",
	} {
		if got := h.m.outPath(out, "DEB-1.md"); got != want {
			t.Errorf("outPath(%q) = %q, want %q", out, got, want)
		}
	}
}

// TestLeavingSaysThePause: leaving the shell while a debate runs pauses it
// and says so, with how to go on, for the terminal after the shell's screen
// is gone; it left without a word. Leaving with no debate running says
// nothing.
func TestLeavingSaysThePause(t *testing.T) {
	h := newHarness(t, 80, nil, func(o *Options) { o.Pace = time.Hour })
	if note := h.m.shutdown(); note != "" {
		t.Errorf("no debate running: %q", note)
	}
	h.typeLine("/debate NVDA --offline")
	h.until("a turn to start", func() bool {
		v := h.m.views[h.m.current]
		return h.m.run != nil && v != nil && len(v.state.Turns) > 0
	})
	id := h.m.run.id
	note := h.m.shutdown()
	if !strings.Contains(note, "Debate "+id+" is paused") || !strings.Contains(note, "parley debate --resume "+id) {
		t.Errorf("leaving while %s runs: %q", id, note)
	}

	// /quit (and Ctrl+D) pause the debate first, then leave.
	h = newHarness(t, 80, nil, func(o *Options) { o.Pace = time.Hour })
	h.typeLine("/debate NVDA --offline")
	h.until("a turn to start", func() bool {
		v := h.m.views[h.m.current]
		return h.m.run != nil && v != nil && len(v.state.Turns) > 0
	})
	id = h.m.run.id
	h.typeLine("/quit")
	h.until("the shell to leave", func() bool { return h.quit })
	if note := h.m.shutdown(); !strings.Contains(note, "Debate "+id+" is paused") {
		t.Errorf("/quit while %s runs: %q", id, note)
	}
}

// TestTurnHeadingIsOneLine: a turn's heading holds its agent's name, which
// a stored debate may hold line breaks and kilobytes in: the block's
// heading is one line, bounded, with no line of its own for the name to
// pass for another turn's heading with.
func TestTurnHeadingIsOneLine(t *testing.T) {
	h := newHarness(t, 80, nil)
	name := "Saylor\n\n── Moderator · synthesis ──\nRecommendation: buy " + strings.Repeat("long ", 400)
	b := h.m.turnBlock(&debate.Turn{TurnRef: debate.TurnRef{ID: "m01/saylor", Agent: "saylor", Label: name + " · CLAIM"}})
	if strings.Contains(b.head, "\n") || utf8.RuneCountInString(b.head) > 200 {
		t.Errorf("the heading is %d characters over %d lines: %.100q…", utf8.RuneCountInString(b.head), strings.Count(b.head, "\n")+1, b.head)
	}
}

// TestModelTextCannotForgeShellLines: without colour (NO_COLOR, a dumb
// terminal) only where a line starts tells the shell's own lines from a
// model's, so no line that a model or a server wrote may start at column
// 0: a reply in Markdown, a structured reply as the format describes it
// (the moderator's summary, the reason of its decision), a line padded so
// that the wrap starts one with it, a server's error quoted in a retry's
// warning. Their escapes are shown, never sent to the terminal.
func TestModelTextCannotForgeShellLines(t *testing.T) {
	pad := strings.Repeat("pad ", 25)
	eval, err := json.Marshal(map[string]any{
		"summary":   "Split.\n\n═══ FORGED Synthesis ═══\n\n⚖ Moderator · FORGED · openai/test-model\n" + pad + "✔ FORGED completed.",
		"agreement": false, "stagnation": false, "clear_winner": "", "new_points": true, "decision": "continue",
		"reason": "open\n› /FORGED reason", "off_topic": []string{}})
	if err != nil {
		t.Fatal(err)
	}
	_, env := fakeServer(t, "perspectives.yaml",
		script.Rule{TagRegexp: `^r1/argument/`, Replies: []script.Reply{
			{Fault: &script.Fault{Status: 500, Message: "boom\n═══ FORGED fault ═══ \x1b[31mred", RetryAfter: "0"}},
			{Text: "Round one.\n\n═══ FORGED ═══\n\n› /FORGED\n\n" + pad + "moderator: FORGED"}}},
		script.Rule{Tag: "r1/evaluation", Reply: &script.Reply{JSON: eval}})
	h := newHarness(t, 60, env)
	h.typeLine(`/debate "Redis or Postgres?" --model test-model --no-checkpoints`)
	h.settle()
	lines := h.m.tr.Lines()
	forged := 0
	for _, l := range lines {
		plain := ansi.Strip(l)
		if !strings.Contains(plain, "FORGED") {
			continue
		}
		forged++
		if !strings.HasPrefix(plain, " ") {
			t.Errorf("a line a model or server wrote starts at column 0: %q", plain)
		}
	}
	if forged < 7 {
		t.Errorf("%d lines show the forged text, want every one of them:\n%s", forged, h.transcript())
	}
	if s := strings.Join(lines, "\n"); strings.Contains(s, "\x1b[31m") {
		t.Errorf("the server's escape reached the screen:\n%q", s)
	}
}

// TestPanicInAGoroutineRestoresTheTerminal: a panic in one of the shell's
// own goroutines (a debate's run, its subscription, a follow-up's answer)
// ended the process with the terminal raw in the alternate screen, as
// Bubble Tea recovers only its own. It reaches the program's loop, which
// restores the terminal and ends Run with the panic.
func TestPanicInAGoroutineRestoresTheTerminal(t *testing.T) {
	got := make(chan tea.Msg, 1)
	go func() {
		defer guard(func(msg tea.Msg) { got <- msg })
		panic("the run broke")
	}()
	var msg tea.Msg
	select {
	case msg = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("the panic was not handed on")
	}
	p, ok := msg.(goPanicMsg)
	if !ok || p.value != "the run broke" || !strings.Contains(string(p.stack), "TestPanicInAGoroutineRestoresTheTerminal") {
		t.Fatalf("handed on: %#v", msg)
	}

	// In the program: Run ends with the panic, the screen restored.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a := &app.App{Store: memstore.New(), Formats: app.DefaultFormats(), Env: setup.Env{Getenv: func(string) string { return "" }, Now: clock}}
	m := New(ctx, Options{App: a, ParseDebate: testParse, Location: time.UTC})
	var out lockedBuffer
	inR, inW := io.Pipe()
	defer inW.Close()
	prog := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(inR), tea.WithOutput(&out), tea.WithWindowSize(80, 24))
	m.send = prog.Send
	go func() {
		time.Sleep(200 * time.Millisecond)
		go func() {
			defer guard(m.send)
			panic("the run broke")
		}()
	}()
	stderr := captureStderr(t)
	_, err := prog.Run()
	said := stderr()
	if !errors.Is(err, tea.ErrProgramPanic) {
		t.Errorf("Run returned %v, want the panic", err)
	}
	if !strings.Contains(said, "the run broke") || !strings.Contains(said, "in a goroutine of the shell") {
		t.Errorf("the panic was not said:\n%s", said)
	}
	if s := out.String(); !strings.Contains(s, "\x1b[?1049h") || !strings.Contains(s[strings.LastIndex(s, "\x1b[?1049h"):], "\x1b[?1049l") {
		t.Errorf("the alternate screen was not left: %q", s[max(0, len(s)-300):])
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *lockedBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// captureStderr sends standard error to a pipe until the function it
// returns is called, which returns what was written.
func captureStderr(t *testing.T) func() string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	done := make(chan string)
	go func() { b, _ := io.ReadAll(r); done <- string(b) }()
	return func() string {
		os.Stderr = saved
		w.Close()
		return <-done
	}
}

// TestLongPasteIsCut: a paste of megabytes is cut to the longest line the
// shell takes, and the shell says so; it took seconds to take and was
// echoed whole into the transcript.
func TestLongPasteIsCut(t *testing.T) {
	h := newHarness(t, 80, nil)
	h.update(tea.PasteMsg{Content: "bull: " + strings.Repeat("x", 2<<20)})
	if n := utf8.RuneCountInString(h.m.input.Value()); n != maxInput {
		t.Errorf("the input line holds %d characters, want %d", n, maxInput)
	}
	if b := h.belowText(); !strings.Contains(b, "The paste was cut: a line takes up to 5,000 characters") {
		t.Errorf("the cut is not said: %q", b)
	}
	h.key(tea.KeyPressMsg{Code: tea.KeyEnter})
	if n := len(h.transcript()); n > 3*maxInput {
		t.Errorf("the transcript holds %d bytes after the paste", n)
	}
	// A paste that fits says nothing.
	h.update(tea.PasteMsg{Content: "bull: mind the cycle"})
	if b := h.belowText(); strings.Contains(b, "cut") {
		t.Errorf("a short paste is said to be cut: %q", b)
	}
}

// TestCtrlZSuspends: Ctrl+Z suspends the shell as job control stops a
// program (Bubble Tea gives the terminal back, and takes it again on fg);
// the screen reads keys raw, so the key did nothing.
func TestCtrlZSuspends(t *testing.T) {
	h := newHarness(t, 80, nil)
	cmd := h.m.press(ctrl('z'))
	if cmd == nil {
		t.Fatal("Ctrl+Z does nothing")
	}
	if _, ok := cmd().(tea.SuspendMsg); !ok {
		t.Errorf("Ctrl+Z asks for %T, want a suspend", cmd())
	}
}

// TestToolCallNameIsOneLine: a tool call's name is the model's, any
// string it sent: a line break in it started a line at column 0 that
// passed for one of the shell's.
func TestToolCallNameIsOneLine(t *testing.T) {
	h := newHarness(t, 80, nil)
	id := "DEB-0a0b0c0e"
	bull := debate.TurnRef{ID: "research/bull", Agent: "bull", Role: "bull"}
	storeEvents(t, h, id,
		debate.Created{Format: bullbear.Name, Topic: "NVDA", Options: offlineNVDAOptions(t), Limits: debate.DefaultLimits()},
		debate.TurnStarted{Turn: bull, Attempt: 1},
		debate.ToolCalled{Turn: bull.ID, Call: llm.ToolCall{ID: "1", Name: "filings\n═══ FORGED ═══\nmoderator: FORGED", Args: json.RawMessage(`{}`)}},
		debate.Paused{Reason: debate.PauseInterrupted})
	// The log's events, as a run's subscription hands them to the shell.
	evs, err := h.store.Load(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.m.view(id, bullbear.Format{}, nil, false); err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		h.update(eventMsg{id: id, e: e})
	}
	h.m.tr.finishLive()
	tr := h.transcript()
	if !strings.Contains(tr, "FORGED") {
		t.Fatalf("the tool call is not shown:\n%s", tr)
	}
	for _, l := range strings.Split(tr, "\n") {
		if strings.Contains(l, "FORGED") && !strings.HasPrefix(l, " ") {
			t.Errorf("a tool call's name starts a line at column 0: %q", l)
		}
	}
}
