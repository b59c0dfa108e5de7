package main_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// tmuxPane is the built binary running in a tmux pane, on a tmux server of
// its own (its own socket), so that the test touches no other session.
type tmuxPane struct {
	t      *testing.T
	socket string
	shots  []string // every screen captured, in order
}

func (p *tmuxPane) tmux(args ...string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "tmux", append([]string{"-L", p.socket}, args...)...).CombinedOutput()
	if err != nil {
		p.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen captures the pane as it shows now.
func (p *tmuxPane) screen() string {
	s := p.tmux("capture-pane", "-p", "-t", "shell")
	p.shots = append(p.shots, s)
	return s
}

// wait captures the pane until it shows want.
func (p *tmuxPane) wait(want string, timeout time.Duration) string {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		s := p.screen()
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the shell did not show %q within %s; the screen:\n%s", want, timeout, s)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// typeLine types text and presses Enter.
func (p *tmuxPane) typeLine(text string) {
	p.t.Helper()
	p.tmux("send-keys", "-t", "shell", "-l", text)
	p.tmux("send-keys", "-t", "shell", "Enter")
}

// TestShellEndToEnd runs the sequence in the built binary under
// tmux: /debate NVDA --offline, a hint typed while the bull's research
// streams, Ctrl+C, /resume, "Give me both sides of AAPL" (with a model: the
// fake server), /ask bear …, /quit. No screen may show the hint inside an
// agent's streamed text.
func TestShellEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	base := loadScript(t, "bullbear.yaml")
	sc, err := script.New(append([]script.Rule{
		{TagRegexp: `^reconcile/`, Reply: &script.Reply{Text: "Per the 10-K the figure stands as the fact check gives it; my case does not rest on it."}},
		{Tag: "ask/1/bear", Reply: &script.Reply{Text: "Cash conversion above 1x for two years would change my mind."}},
	}, base.Rules...)...)
	if err != nil {
		t.Fatal(err)
	}
	_, dir, env := fakeOpenAI(t, sc)
	home := t.TempDir()
	env = append([]string{"HOME=" + home, "XDG_DATA_HOME=" + filepath.Join(home, "data"), "XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"PATH=" + os.Getenv("PATH"), "NO_COLOR=1", "TERM=xterm-256color", "PARLEY_MODEL=test-model"}, env...)
	const hint = "weigh the Blackwell ramp"

	// The pane runs a script that starts the shell with this environment
	// and records how it ended.
	var sh strings.Builder
	sh.WriteString("#!/bin/sh\n")
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&sh, "export %s='%s'\n", k, strings.ReplaceAll(v, "'", `'\''`))
	}
	fmt.Fprintf(&sh, "cd '%s'\n'%s' shell --pace 80ms 2>'%s'\necho $? >'%s'\n", dir, binary, filepath.Join(dir, "stderr"), filepath.Join(dir, "exit"))
	run := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(run, []byte(sh.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	p := &tmuxPane{t: t, socket: fmt.Sprintf("parley-e2e-%d", os.Getpid())}
	p.tmux("new-session", "-d", "-s", "shell", "-x", "120", "-y", "40", run)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", p.socket, "kill-server").Run() })

	p.wait("Parley shell.", 20*time.Second)
	p.typeLine("/debate NVDA --offline")
	p.wait("🐂 Bull · research", 20*time.Second)
	p.typeLine("bull: " + hint)
	p.wait("Hint queued for Bull (applies in Phase 2 (Bull Opening))", 10*time.Second)
	p.wait("═══ Phase 2", 20*time.Second)
	p.tmux("send-keys", "-t", "shell", "C-c")
	p.wait("Type /resume to go on.", 20*time.Second)

	p.typeLine("/resume")
	p.wait("bullbear · NVDA · Phase 4 (Moderator Synthesis) · completed", 30*time.Second)

	p.typeLine("Give me both sides of AAPL")
	p.wait("Bull vs. bear on AAPL (Apple Inc.), quick mode. Starting…", 20*time.Second)
	s := p.wait("bullbear · AAPL · ", 20*time.Second)
	for !strings.Contains(s, "bullbear · AAPL · Phase 4 (Moderator Synthesis) · completed") {
		if strings.Contains(s, "✗") || strings.Contains(s, "paused") {
			t.Fatalf("the AAPL debate did not complete:\n%s", s)
		}
		time.Sleep(50 * time.Millisecond)
		s = p.screen()
	}

	p.typeLine("/ask bear What would change your mind?")
	p.wait("Saved as ask/1/bear", 20*time.Second)
	final := p.screen()
	if !strings.Contains(final, "Cash conversion above 1x for two years would change my mind.") || !strings.Contains(final, "🐻 Bear · follow-up · openai/test-model") {
		t.Errorf("the follow-up's screen:\n%s", final)
	}

	p.typeLine("/quit")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "exit")); err == nil {
			if code := strings.TrimSpace(string(b)); code != "0" {
				errOut, _ := os.ReadFile(filepath.Join(dir, "stderr"))
				t.Errorf("the shell exited %s\n%s", code, errOut)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the shell did not leave on /quit:\n%s", p.screen())
		}
		time.Sleep(50 * time.Millisecond)
	}

	// The hint was never drawn inside streamed text: on every screen, a line
	// with it is the notice under the input line, or the data-only agent's
	// acknowledgement of it in the turn that took it.
	for _, shot := range p.shots {
		for _, line := range strings.Split(shot, "\n") {
			if !strings.Contains(line, hint) && !strings.Contains(line, "bull: "+hint[:10]) {
				continue
			}
			ok := strings.HasPrefix(line, "💡 Hint queued for Bull") || strings.HasPrefix(line, "💡 with your hint: "+hint) ||
				strings.Contains(line, `USER HINT received: "`+hint+`"`) || strings.HasPrefix(line, "› bull: ")
			if !ok {
				t.Errorf("the hint shows inside streamed text:\n%q\nin the screen:\n%s", line, shot)
			}
		}
	}

	// The log has it all: the NVDA debate paused, resumed with the hint
	// applied to the bull's opening, and completed; the AAPL debate has
	// the follow-up.
	list := mustParley(t, dir, env, "", "list", "--json")
	var sums []struct{ ID, Topic, Status string }
	if err := json.Unmarshal([]byte(list.stdout), &sums); err != nil || len(sums) != 2 {
		t.Fatalf("list: %v\n%s", err, list.stdout)
	}
	for _, s := range sums {
		r := mustParley(t, dir, env, "", "export", s.ID, "--as", "json")
		var e struct {
			Status string
			Turns  []struct {
				ID         string
				Text       string
				Superseded []string
			}
		}
		if err := json.Unmarshal([]byte(r.stdout), &e); err != nil {
			t.Fatal(err)
		}
		if e.Status != "completed" {
			t.Errorf("%s: %s", s.Topic, e.Status)
		}
		for _, tr := range e.Turns {
			switch {
			case s.Topic == "NVDA" && tr.ID == "opening/bull" && !strings.Contains(tr.Text, `USER HINT received: "`+hint+`"`):
				t.Errorf("the bull's opening did not take the hint:\n%s", tr.Text)
			case s.Topic == "AAPL" && tr.ID == "ask/1/bear" && !strings.Contains(tr.Text, "Cash conversion above 1x"):
				t.Errorf("the follow-up: %q", tr.Text)
			}
		}
	}
	hist, err := os.ReadFile(filepath.Join(home, "data", "parley", "shell_history"))
	if err != nil || !strings.Contains(string(hist), "/debate NVDA --offline\n") {
		t.Errorf("the input history was not kept in the data directory: %v\n%s", err, hist)
	}
}

// TestPauseSaidOnceOnATerminal: a debate that pauses in a terminal shows
// the pause and why once (the view's "Paused: …"), then how to go on; the
// error does not repeat the why under it.
func TestPauseSaidOnceOnATerminal(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	dir := t.TempDir()
	env := append(baseEnv(t), "PARLEY_DB="+filepath.Join(dir, "parley.db"), "TERM=xterm-256color")
	var sh strings.Builder
	sh.WriteString("#!/bin/sh\n")
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&sh, "export %s='%s'\n", k, strings.ReplaceAll(v, "'", `'\''`))
	}
	fmt.Fprintf(&sh, "cd '%s'\n'%s' debate GOOGL --snapshot --debate-timeout 1ms\necho \"exit $?\"\nsleep 60\n", dir, binary)
	run := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(run, []byte(sh.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	p := &tmuxPane{t: t, socket: fmt.Sprintf("parley-e2e-pause-%d", os.Getpid())}
	p.tmux("new-session", "-d", "-s", "shell", "-x", "120", "-y", "40", run)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", p.socket, "kill-server").Run() })
	screen := p.wait("exit 3", 20*time.Second)
	if n := strings.Count(screen, "the debate ran longer than 1ms"); n != 1 {
		t.Errorf("the pause's reason is shown %d times, want once:\n%s", n, screen)
	}
	if !strings.Contains(screen, "Paused: debate timeout (the debate ran longer than 1ms)") || !regexp.MustCompile(`resume with: parley debate --resume DEB-[0-9a-f]{8}`).MatchString(screen) {
		t.Errorf("the screen lacks the pause or how to resume:\n%s", screen)
	}
}

// TestResumeOfferNamesTheDebate: on a terminal, a bull vs. bear debate on a
// ticker with an unfinished one says which debate before it asks whether
// to resume it.
func TestResumeOfferNamesTheDebate(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	dir := t.TempDir()
	env := append(baseEnv(t), "PARLEY_DB="+filepath.Join(dir, "parley.db"), "TERM=xterm-256color")
	var sh strings.Builder
	sh.WriteString("#!/bin/sh\n")
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&sh, "export %s='%s'\n", k, strings.ReplaceAll(v, "'", `'\''`))
	}
	// The first run pauses at once (no terminal to ask on); the second
	// finds it.
	fmt.Fprintf(&sh, "cd '%s'\n'%s' debate GOOGL --offline --debate-timeout 1ms </dev/null >/dev/null 2>&1\nclear\n'%s' debate GOOGL --offline --debate-timeout 1ms >/dev/null\necho \"exit $?\"\nsleep 60\n", dir, binary, binary)
	run := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(run, []byte(sh.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	p := &tmuxPane{t: t, socket: fmt.Sprintf("parley-e2e-offer-%d", os.Getpid())}
	p.tmux("new-session", "-d", "-s", "shell", "-x", "120", "-y", "40", run)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", p.socket, "kill-server").Run() })
	screen := p.wait("[Y/n]", 20*time.Second)
	if !regexp.MustCompile(`An unfinished debate on GOOGL exists \(DEB-[0-9a-f]{8}\)\. Resume debate from .+\? \[Y/n\]`).MatchString(screen) {
		t.Errorf("the resume question does not name the debate:\n%s", screen)
	}
	p.tmux("send-keys", "-t", "shell", "n", "Enter")
	p.wait("exit ", 20*time.Second)
}

// TestShellThemeEndToEnd starts the built binary under tmux, which answers
// a program's question about the background colour with its pane's: on a
// white pane the shell's status bar turns light, on a black one it stays
// dark, and --theme dark keeps it dark on white.
func TestShellThemeEndToEnd(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	home := t.TempDir()
	env := []string{"HOME=" + home, "XDG_DATA_HOME=" + filepath.Join(home, "data"), "XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "COLORTERM=truecolor"}
	for i, tc := range []struct {
		pane      string
		args      string
		wantLight bool
	}{
		{"#ffffff", "", true},
		{"#000000", "", false},
		{"#ffffff", " --theme dark", false},
	} {
		var sh strings.Builder
		sh.WriteString("#!/bin/sh\n")
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			fmt.Fprintf(&sh, "export %s='%s'\n", k, strings.ReplaceAll(v, "'", `'\''`))
		}
		// The shell starts once the pane's colours are set (the file ready
		// says so): its question is answered with them.
		ready := filepath.Join(home, fmt.Sprintf("ready%d", i))
		fmt.Fprintf(&sh, "while [ ! -e '%s' ]; do sleep 0.05; done\n'%s' shell%s\nsleep 30\n", ready, binary, tc.args)
		run := filepath.Join(home, fmt.Sprintf("run%d.sh", i))
		if err := os.WriteFile(run, []byte(sh.String()), 0o755); err != nil {
			t.Fatal(err)
		}
		p := &tmuxPane{t: t, socket: fmt.Sprintf("parley-e2e-theme-%d-%d", os.Getpid(), i)}
		p.tmux("new-session", "-d", "-s", "shell", "-x", "100", "-y", "20", run)
		t.Cleanup(func() { _ = exec.Command("tmux", "-L", p.socket, "kill-server").Run() })
		p.tmux("set-option", "-t", "shell", "window-style", "bg="+tc.pane)
		if err := os.WriteFile(ready, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		p.wait("no debate yet", 20*time.Second)
		// The answer comes after the first screen: wait for the bar to be
		// drawn in the palette expected, up to a few seconds.
		var bar string
		deadline := time.Now().Add(5 * time.Second)
		for {
			bar = statusBackground(p.tmux("capture-pane", "-p", "-e", "-t", "shell"))
			if bar != "" && isLight(bar) == tc.wantLight || time.Now().After(deadline) {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
		if bar == "" || isLight(bar) != tc.wantLight {
			t.Errorf("pane %s, parley shell%s: the status bar's background is %q, want a light one: %v", tc.pane, tc.args, bar, tc.wantLight)
		}
	}
}

// statusBackground is the "r;g;b" of the last 24-bit background colour
// set on the status bar's line of a screen captured with its escapes.
func statusBackground(screen string) string {
	for _, line := range strings.Split(screen, "\n") {
		if !strings.Contains(line, "no debate yet") {
			continue
		}
		i := strings.LastIndex(line, "48;2;")
		if i < 0 {
			return ""
		}
		rest := line[i+len("48;2;"):]
		if j := strings.IndexAny(rest, "m:"); j >= 0 {
			return rest[:j]
		}
	}
	return ""
}

// isLight reports whether an "r;g;b" colour is closer to white than black.
func isLight(rgb string) bool {
	var r, g, b int
	if _, err := fmt.Sscanf(strings.ReplaceAll(rgb, ";", " "), "%d %d %d", &r, &g, &b); err != nil {
		return false
	}
	return 0.299*float64(r)+0.587*float64(g)+0.114*float64(b) > 127
}

// TestShellLogsInTranscript: what a provider logs on its own (here, that
// the server refused stream_options) reaches the shell's transcript, not
// standard error, where it would draw over the full-screen program.
func TestShellLogsInTranscript(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	_, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"), fakellm.WithRejectedParams("stream_options"))
	home := t.TempDir()
	env = append([]string{"HOME=" + home, "XDG_DATA_HOME=" + filepath.Join(home, "data"), "XDG_CACHE_HOME=" + filepath.Join(home, "cache"),
		"PATH=" + os.Getenv("PATH"), "NO_COLOR=1", "TERM=xterm-256color"}, env...)
	var sh strings.Builder
	sh.WriteString("#!/bin/sh\n")
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&sh, "export %s='%s'\n", k, strings.ReplaceAll(v, "'", `'\''`))
	}
	stderr := filepath.Join(dir, "stderr")
	fmt.Fprintf(&sh, "cd '%s'\n'%s' shell 2>'%s'\nsleep 60\n", dir, binary, stderr)
	run := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(run, []byte(sh.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	p := &tmuxPane{t: t, socket: fmt.Sprintf("parley-e2e-log-%d", os.Getpid())}
	p.tmux("new-session", "-d", "-s", "shell", "-x", "120", "-y", "40", run)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", p.socket, "kill-server").Run() })

	p.wait("Parley shell.", 20*time.Second)
	p.typeLine(`/debate "Should we use Redis or PostgreSQL for caching?" --model test-model --no-checkpoints`)
	p.wait("· Synthesis · completed", 60*time.Second)
	const said = "warning: the server refused stream_options"
	s := p.screen()
	for i := 0; i < 40 && !strings.Contains(s, "═══ Prompt analysis ═══"); i++ {
		p.tmux("send-keys", "-t", "shell", "PageUp")
		time.Sleep(40 * time.Millisecond)
		s = p.screen()
	}
	if !strings.Contains(s, said) {
		t.Errorf("the transcript's start lacks %q:\n%s", said, s)
	}
	if b, _ := os.ReadFile(stderr); strings.Contains(string(b), "stream_options") {
		t.Errorf("the warning went to standard error:\n%s", b)
	}
}
