package shell

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/format/perspectives"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/memstore"
)

var update = flag.Bool("update", false, "rewrite the golden views")

// clock is the shell's clock in the model tests: frozen, so that views do
// not depend on when they are taken.
func clock() time.Time { return time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC) }

// harness drives the model as Bubble Tea would: messages in, the view out.
// Commands run in goroutines and their messages, like those the model's
// own goroutines send, are fed back to Update by until.
type harness struct {
	t     *testing.T
	m     *Model
	msgs  chan tea.Msg
	quit  bool
	dir   string
	store *memstore.Store
}

type harnessOpt func(*Options)

func newHarness(t *testing.T, width int, env map[string]string, opts ...harnessOpt) *harness {
	t.Helper()
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the SEC tools' cache
	dir := t.TempDir()
	store := memstore.New()
	t.Cleanup(func() { store.Close() })
	a := &app.App{Store: store, Formats: app.DefaultFormats(), Env: setup.Env{Getenv: func(k string) string { return env[k] }, Now: clock}}
	o := Options{App: a, ParseDebate: testParse, DebateFlags: []string{"--deep", "--format", "--framework", "--offline", "--snapshot", "--model"},
		Location: time.UTC, HistoryFile: filepath.Join(dir, "history")}
	for _, f := range opts {
		f(&o)
	}
	h := &harness{t: t, msgs: make(chan tea.Msg, 4096), dir: dir, store: store}
	ctx, cancel := context.WithCancel(context.Background())
	h.m = New(ctx, o)
	h.m.send = func(msg tea.Msg) { h.msgs <- msg }
	t.Cleanup(func() {
		h.m.shutdown()
		cancel()
	})
	h.update(tea.WindowSizeMsg{Width: width, Height: 24})
	return h
}

func (h *harness) update(msg tea.Msg) {
	switch msg := msg.(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			h.exec(c)
		}
	case spinner.TickMsg:
		// The spinner's frames follow the wall clock; views are taken
		// with its first frame.
	case tea.QuitMsg:
		h.quit = true
	default:
		_, cmd := h.m.Update(msg)
		h.exec(cmd)
	}
}

func (h *harness) exec(cmd tea.Cmd) {
	if cmd != nil {
		go func() { h.msgs <- cmd() }()
	}
}

// typeLine types a line and presses Enter.
func (h *harness) typeLine(line string) {
	h.m.input.SetValue(line)
	h.m.input.CursorEnd()
	h.key(tea.KeyPressMsg{Code: tea.KeyEnter})
}

func (h *harness) key(k tea.KeyPressMsg) { h.update(k) }

func ctrl(c rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: c, Mod: tea.ModCtrl} }

// until feeds the messages that arrive to Update until cond holds.
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(30 * time.Second)
	for !cond() {
		select {
		case msg := <-h.msgs:
			h.update(msg)
		case <-time.After(10 * time.Millisecond):
			// cond may wait on something outside the shell (the fake server).
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s; the view:\n%s", what, h.view())
		}
	}
}

// idle reports whether the shell waits for nothing: no debate, follow-up,
// start or look-up under way.
func (h *harness) idle() bool { return h.m.run == nil && h.m.ask == nil && h.m.busy == "" }

func (h *harness) settle() { h.t.Helper(); h.until("the shell to be idle", h.idle) }

var idRe = regexp.MustCompile(`DEB-[0-9a-f]{8}`)

// view is the screen as plain text, with each debate id replaced by a
// stable one (DEB-00000001, … in the order they appear) and the test's
// directory by $DIR.
func (h *harness) view() string {
	return h.normalize(h.m.View().Content)
}

// transcript is every line of the transcript, normalized like view.
func (h *harness) transcript() string {
	return h.normalize(strings.Join(h.m.tr.Lines(), "\n"))
}

func (h *harness) normalize(s string) string {
	s = ansi.Strip(s)
	s = strings.ReplaceAll(s, h.dir, "$DIR")
	ids := map[string]string{}
	s = idRe.ReplaceAllStringFunc(s, func(id string) string {
		if _, ok := ids[id]; !ok {
			ids[id] = fmt.Sprintf("DEB-%08d", len(ids)+1)
		}
		return ids[id]
	})
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// ids are the debates in the store, oldest first.
func (h *harness) ids() []string {
	sums, err := h.store.List(context.Background(), debate.ListFilter{})
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for i := len(sums) - 1; i >= 0; i-- {
		out = append(out, sums[i].ID)
	}
	return out
}

// golden compares the view with testdata/NAME.WIDTH.golden.
func (h *harness) golden(name string) {
	h.t.Helper()
	got := h.view()
	path := filepath.Join("testdata", name+"."+itoa(h.m.width)+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			h.t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			h.t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		h.t.Fatalf("%v (run go test ./internal/shell -update to write it); the view:\n%s", err, got)
	}
	if got != string(want) {
		h.t.Errorf("view %s differs from %s:\n--- got\n%s\n--- want\n%s", name, path, got, want)
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// widths are the terminal widths the golden views are taken at.
var widths = []int{80, 120}

// testParse reads /debate's words as the command line's parser does, for
// the flags these tests use: a ticker topic makes a bull vs. bear debate.
func testParse(_ context.Context, args []string) (*DebateRequest, error) {
	fs := flag.NewFlagSet("debate", flag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	format := fs.String("format", "", "")
	offline := fs.Bool("offline", false, "")
	snap := fs.Bool("snapshot", false, "")
	deep := fs.Bool("deep", false, "")
	framework := fs.String("framework", "", "")
	resume := fs.String("resume", "", "")
	noCheckpoints := fs.Bool("no-checkpoints", false, "")
	model := fs.String("model", "", "")
	budget := fs.Int("debate-budget", -1, "")
	var topic []string
	var flags []string
	for i := 0; i < len(args); i++ {
		if strings.HasPrefix(args[i], "-") {
			flags = append(flags, args[i])
			if !strings.Contains(args[i], "=") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && !isBool(args[i]) {
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		topic = append(topic, args[i])
	}
	if err := fs.Parse(flags); err != nil {
		return nil, &setup.InputError{Err: err}
	}
	if *resume != "" {
		req := &DebateRequest{Resume: *resume}
		req.Start.NoCheckpoints = *noCheckpoints
		if *budget >= 0 {
			req.Limits = func(l *debate.Limits) { l.DebateBudget = *budget }
		}
		return req, nil
	}
	if len(topic) != 1 {
		return nil, &setup.InputError{Err: errors.New("a topic is required: /debate \"Should we use Redis or PostgreSQL for caching?\"")}
	}
	given := *format != ""
	req := setup.Request{Topic: topic[0], Format: *format, Offline: *offline, Values: setup.Values{"snapshot": *snap, "deep": *deep, "framework": *framework},
		Given: func(name string) bool { return name == "format" && given }}
	if req.Format == "" {
		req.Format = perspectives.Name
		if *offline || *snap || *deep || bullbear.TickerTopic().MatchString(req.Topic) {
			req.Format = bullbear.Name
		}
	}
	req.NoCheckpoints = *noCheckpoints
	limits := debate.DefaultLimits()
	if *budget >= 0 {
		limits.DebateBudget = *budget
	}
	return &DebateRequest{Start: app.StartRequest{Request: req, Models: app.Models{Model: *model}, Limits: limits}}, nil
}

func isBool(flag string) bool {
	switch strings.TrimLeft(flag, "-") {
	case "offline", "snapshot", "deep", "no-checkpoints":
		return true
	}
	return false
}

// fakeServer serves the script cmd/parley/testdata/name, with more rules
// tried first, and returns the environment that points the OpenAI client
// at it.
func fakeServer(t *testing.T, name string, more ...script.Rule) (*fakellm.Server, map[string]string) {
	t.Helper()
	base, err := script.Load(filepath.Join("..", "..", "cmd", "parley", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := script.New(append(more, base.Rules...)...)
	if err != nil {
		t.Fatal(err)
	}
	srv := fakellm.Start(sc, fakellm.WithAPIKey("test-key"))
	t.Cleanup(srv.Close)
	return srv, map[string]string{"OPENAI_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test-key", "PARLEY_MODEL": "test-model"}
}

// belowText is the text of the lines under the input line.
func (h *harness) belowText() string {
	var parts []string
	for _, l := range h.m.below {
		parts = append(parts, l.text)
	}
	return strings.Join(parts, " ")
}

// flat is the transcript with its lines joined again: the lines a wrap
// made (indented when folded) read as the one they were.
func (h *harness) flat() string { return strings.Join(strings.Fields(h.transcript()), " ") }
