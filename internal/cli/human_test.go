package cli

import (
	"context"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/iostreams"
)

func TestTypedHintsThenCheckpoint(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	errOut := &syncBuffer{}
	ios.ErrOut = errOut
	pr, pw := io.Pipe()
	ios.In = pr
	ios.SetTerminal(false, true, false)
	h := newTerminalHuman(ios)
	var mu sync.Mutex
	var got []string
	h.hint = func(target, text string) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, target+"="+text)
		return nil
	}
	h.targets = func() []string { return []string{"bear", "bull", "performance-advocate"} }
	h.listen()
	io.WriteString(pw, "bull: look at margins\nnobody: hello\nno colon here\nb: ambiguous\nperf: cite latency numbers\n")
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n == 2 && strings.Count(errOut.String(), "\n") == 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(got) != 2 || got[0] != "bull=look at margins" || got[1] != "performance-advocate=cite latency numbers" {
		t.Errorf("hints = %v", got)
	}
	// Each refusal says what is wrong with the line typed: an agent no one
	// is, a name that begins two, no AGENT: at all. (An unknown agent and
	// an ambiguous one were told how to write a hint, which they had.)
	for _, want := range []string{
		`No agent "nobody" in this debate: write AGENT: TEXT with one of bear, bull, performance-advocate, or all`,
		"To give a hint, write AGENT: TEXT (agents: bear, bull, performance-advocate, or all)",
		`"b" could be bear or bull: write more of the agent's name (AGENT: TEXT)`,
	} {
		if !strings.Contains(errOut.String(), want) {
			t.Errorf("stderr = %q, want %q", errOut.String(), want)
		}
	}
	// Once a checkpoint waits, lines answer it instead.
	done := make(chan debate.CheckpointAnswered)
	go func() {
		ans, err := h.Checkpoint(context.Background(), &debate.State{}, debate.CheckpointReached{ID: "r1", Options: []string{"continue", "guide", "end"}})
		if err != nil {
			t.Error(err)
		}
		done <- ans
	}()
	for !h.isWaiting() {
		time.Sleep(5 * time.Millisecond)
	}
	io.WriteString(pw, "g\nbull: more on debt\n")
	ans := <-done
	if ans.Action != debate.ActionGuide || ans.Guidance != "bull: more on debt" {
		t.Errorf("answer = %+v", ans)
	}
	pw.Close()
}

func TestPipedInputIsNeverAHint(t *testing.T) {
	ios, in, _, _ := iostreams.Test()
	in.WriteString("e\n")
	h := newTerminalHuman(ios)
	h.hint = func(target, text string) error { t.Errorf("hint %s %s", target, text); return nil }
	h.targets = func() []string { return nil }
	h.listen()
	ans, err := h.Checkpoint(context.Background(), &debate.State{}, debate.CheckpointReached{ID: "r1", Options: []string{"continue", "guide", "end"}})
	if err != nil || ans.Action != debate.ActionEnd {
		t.Errorf("answer %+v, %v", ans, err)
	}
}

// syncBuffer is a bytes.Buffer safe to write from one goroutine and read from
// another.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestCheckpointInputEnds: standard input that ends at the checkpoint,
// before the choice or before the guidance, pauses the debate saying so
// (the guidance's end read "EOF"), and the prompt's line is ended, so that
// what is written next does not run on after "> " or "Your guidance: ".
func TestCheckpointInputEnds(t *testing.T) {
	for _, typed := range []string{"", "x\n", "g\n"} {
		ios, in, _, errOut := iostreams.Test()
		in.WriteString(typed)
		h := newTerminalHuman(ios)
		h.hint = func(target, text string) error { return nil }
		h.targets = func() []string { return nil }
		h.listen()
		_, err := h.Checkpoint(context.Background(), &debate.State{}, debate.CheckpointReached{ID: "r1", Options: []string{"continue", "guide", "end"}})
		if err == nil || !strings.Contains(err.Error(), "standard input ended") || !strings.Contains(err.Error(), "--no-checkpoints") {
			t.Errorf("input %q: error %v, want it to say standard input ended", typed, err)
		}
		if out := errOut.String(); !strings.HasSuffix(out, "\n") {
			t.Errorf("input %q: the prompt's line is left open:\n%q", typed, out)
		}
	}
}

// TestCheckpointRetryNamesItsOptions: an answer the checkpoint does not
// offer is asked again naming only the answers it offers.
func TestCheckpointRetryNamesItsOptions(t *testing.T) {
	for _, tc := range []struct {
		options []string
		menu    string
		retry   string
	}{
		{[]string{"continue", "guide", "end"}, "[C]ontinue  [G]uide  [E]nd early", "Answer c, g or e.\n"},
		{[]string{"continue", "end"}, "[C]ontinue  [E]nd early", "Answer c or e.\n"},
	} {
		ios, in, _, errOut := iostreams.Test()
		in.WriteString("x\ng\nc\n")
		h := newTerminalHuman(ios)
		h.hint = func(target, text string) error { return nil }
		h.targets = func() []string { return nil }
		h.listen()
		ans, err := h.Checkpoint(context.Background(), &debate.State{}, debate.CheckpointReached{ID: "r1", Options: tc.options})
		if err != nil {
			t.Fatal(err)
		}
		out := errOut.String()
		if want := map[int]string{2: debate.ActionContinue, 3: debate.ActionGuide}[len(tc.options)]; ans.Action != want {
			t.Errorf("%v: answer %q, want %q", tc.options, ans.Action, want)
		}
		if !strings.Contains(out, tc.menu) || !strings.Contains(out, tc.retry) {
			t.Errorf("%v: prompt\n%q\nwant menu %q and retry %q", tc.options, out, tc.menu, tc.retry)
		}
	}
}

// screenLog records what a typedLine was asked to show.
type screenLog struct {
	mu  sync.Mutex
	log []string
}

func (s *screenLog) add(e string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, e)
}
func (s *screenLog) Typing(text string) { s.add("typing " + text) }
func (s *screenLog) DoneTyping()        { s.add("done") }
func (s *screenLog) Say(line string)    { s.add("say " + line) }
func (s *screenLog) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.log, "\n")
}

// TestKeysTyped: with the terminal's echo off the keys are read one by
// one, edited as a terminal edits a line, and shown by the view; Enter
// queues the hint, and a refused one is said by the view (on the terminal
// it was written to standard error, inside the streamed line).
func TestKeysTyped(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	pr, pw := io.Pipe()
	ios.In = pr
	ios.SetTerminal(true, true, false)
	h := newTerminalHuman(ios)
	scr := &screenLog{}
	h.keys, h.cooked, h.quiet = scr, func() {}, func() {}
	hints := make(chan string, 4)
	h.hint = func(target, text string) error { hints <- target + "=" + text; return nil }
	h.targets = func() []string { return []string{"bear", "bull"} }
	h.listen()
	// bulk, Backspace, "l: margins", an arrow key (skipped), Ctrl+W,
	// "cycle", Enter; then a hint for no agent.
	io.WriteString(pw, "bulk\x7fl: margins\x1b[D\x17cycle\rbob: hi\r")
	select {
	case got := <-hints:
		if got != "bull=cycle" {
			t.Errorf("hint %q, want bull=cycle", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no hint queued; the view was asked:\n%s", scr)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(scr.String(), "say ") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	want := []string{"typing b", "typing bulk", "typing bul", "typing bull: margins", "typing bull: ", "typing bull: cycle", "done", "typing bob: hi", "done",
		`say No agent "bob" in this debate: write AGENT: TEXT with one of bear, bull, or all`}
	got := strings.Split(scr.String(), "\n")
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("the view was not asked %q; it was asked:\n%s", w, scr)
		}
	}
	if errOut.String() != "" {
		t.Errorf("standard error: %q", errOut.String())
	}
	pw.Close()
}

// TestKeysPasted: a paste the terminal marks (bracketed paste) is one
// hint, its line breaks spaces: each pasted line was routed as a hint of
// its own, so a hint pasted over two lines queued its first line and
// refused the second ('No agent "and the bear's" in this debate'). Enter
// after the paste queues it; controls in the paste are dropped.
func TestKeysPasted(t *testing.T) {
	ios, _, _, errOut := iostreams.Test()
	pr, pw := io.Pipe()
	ios.In = pr
	ios.SetTerminal(true, true, false)
	h := newTerminalHuman(ios)
	scr := &screenLog{}
	h.keys, h.cooked, h.quiet = scr, func() {}, func() {}
	hints := make(chan string, 4)
	h.hint = func(target, text string) error { hints <- target + "=" + text; return nil }
	h.targets = func() []string { return []string{"bear", "bull"} }
	h.listen()
	io.WriteString(pw, "\x1b[200~bull: weigh the cycle\r\nand the bear's\x07 export\trules\n\x1b[201~\r")
	select {
	case got := <-hints:
		if want := "bull=weigh the cycle and the bear's export rules"; got != want {
			t.Errorf("hint %q, want %q", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no hint queued; the view was asked:\n%s", scr)
	}
	select {
	case got := <-hints:
		t.Errorf("a second hint %q from one paste", got)
	case <-time.After(100 * time.Millisecond):
	}
	if strings.Contains(scr.String(), "say ") || errOut.String() != "" {
		t.Errorf("a refusal for a pasted hint; the view was asked:\n%s\nstandard error: %q", scr, errOut.String())
	}
	pw.Close()
}
