package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/parleyhq/parley/internal/llm/fakellm"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestDebateHintTypedWhileStreaming runs 'parley debate' in a tmux pane 40
// columns wide, as a user would: a hint typed while a reply streams,
// Enter, then Ctrl+C. The line typed shows below the streamed text, never
// inside it (the terminal's echo used to land in the middle of the
// streamed line, and the stream went on, broken, after the Enter); every
// line fits the pane (the view wrapped at 80 columns whatever the
// terminal's width); the pause says how to resume, and the resumed debate
// completes with the hint.
func TestDebateHintTypedWhileStreaming(t *testing.T) {
	const width = 40
	p, joined, dir, env := debateInTmux(t, width)

	const typed = "perf: think about p99 latency"
	p.wait("Round one opening.", 30*time.Second)
	p.tmux("send-keys", "-t", "shell", "-l", typed)
	typing := p.wait("› "+typed, 10*time.Second)
	shots := []string{joined()}
	time.Sleep(300 * time.Millisecond) // the stream goes on above the line typed
	shots = append(shots, joined())
	p.tmux("send-keys", "-t", "shell", "Enter")
	p.wait("💡 Hint queued for", 10*time.Second)
	shots = append(shots, joined())
	p.wait("Rebuttal for round one.", 30*time.Second)
	p.tmux("send-keys", "-t", "shell", "C-c")
	p.wait("exit 130", 20*time.Second)
	final := joined()
	shots = append(shots, final)

	for _, shot := range shots {
		for _, line := range strings.Split(shot, "\n") {
			if strings.Contains(line, "p99") && !strings.HasPrefix(line, "› "+typed) && !strings.HasPrefix(line, "   Advocate: think about p99") {
				t.Errorf("the line typed shows inside the transcript: %q\nthe screen while typing:\n%s\nthe screen:\n%s", line, typing, shot)
			}
			// The error parley exits with too: folded at spaces,
			// its command whole.
			if n := ansi.StringWidth(line); n >= width {
				t.Errorf("a line of %d columns in a pane of %d, folded by the terminal: %q", n, width, line)
			}
		}
	}
	// The first argument streamed whole while the hint was typed: its
	// words in order, nothing between them.
	words := strings.Join(strings.Fields(final), " ")
	reply := "Round one opening. Redis keeps hot keys in memory with sub-millisecond reads, while PostgreSQL adds a disk-backed round trip and vacuum pressure under churn. For a cache the access pattern is key lookups with expiry, which Redis models natively."
	if !strings.Contains(words, "(round 1) ── "+reply+" 💡 Hint queued for Performance Advocate: think about p99 latency") {
		t.Errorf("the first argument is not whole, acknowledged under it:\n%s", final)
	}
	if !strings.Contains(final, "Paused: interrupted") {
		t.Errorf("the pause is not shown:\n%s", final)
	}
	id := regexp.MustCompile(`resume with:\s+parley debate --resume (DEB-[0-9a-f]{8})`).FindStringSubmatch(final)
	if id == nil {
		t.Fatalf("the pause does not say how to resume:\n%s", final)
	}
	// The rest runs on a server that answers at once: the recorded model,
	// named again, moves to the server the environment names.
	fast, _, _ := fakeOpenAI(t, loadScript(t, "perspectives.yaml"))
	env = append(env, "OPENAI_BASE_URL="+fast.OpenAIURL())
	mustParley(t, dir, env, "", "debate", "--resume", id[1], "--model", "test-model")
	r := mustParley(t, dir, env, "", "export", id[1], "--as", "json")
	if !strings.Contains(r.stdout, `"status": "completed"`) && !strings.Contains(r.stdout, `"status":"completed"`) {
		t.Errorf("the resumed debate did not complete:\n%.400s", r.stdout)
	}
	if !strings.Contains(r.stdout, "think about p99 latency") {
		t.Errorf("the hint is not in the debate's record")
	}
}

// debateInTmux starts 'parley debate' on a perspectives topic in a tmux
// pane width columns wide, against the fake server streaming a token every
// 80 ms, with --no-checkpoints; the pane's shell says how parley exited
// ("exit N"). It returns the pane, the whole transcript (the lines the
// terminal folded joined again), the debate's directory and environment.
func debateInTmux(t *testing.T, width int) (p *tmuxPane, joined func() string, dir string, env []string) {
	t.Helper()
	return debateInTmuxOn(t, width, loadScript(t, "perspectives.yaml"))
}

// debateInTmuxOn is debateInTmux with the fake server on script sc.
func debateInTmuxOn(t *testing.T, width int, sc *script.Script) (p *tmuxPane, joined func() string, dir string, env []string) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	_, dir, env = fakeOpenAI(t, sc, fakellm.WithTokenDelay(80*time.Millisecond))
	env = append(append(baseEnv(t), "TERM=xterm-256color"), env...)
	var sh strings.Builder
	sh.WriteString("#!/bin/sh\n")
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(&sh, "export %s='%s'\n", k, strings.ReplaceAll(v, "'", `'\''`))
	}
	// The script outlives Ctrl+C (its trap), to say how parley exited.
	fmt.Fprintf(&sh, "cd '%s'\ntrap 'echo' INT\n'%s' debate 'Redis or Postgres for our cache?' --model test-model --no-checkpoints\necho \"exit $?\"\nsleep 60\n", dir, binary)
	run := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(run, []byte(sh.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	p = &tmuxPane{t: t, socket: fmt.Sprintf("parley-e2e-%s-%d", t.Name(), os.Getpid())}
	p.tmux("new-session", "-d", "-s", "shell", "-x", fmt.Sprint(width), "-y", "50", run)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", p.socket, "kill-server").Run() })
	// joined is the whole transcript, the lines the terminal folded
	// joined again.
	joined = func() string { return p.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "shell") }
	return p, joined, dir, env
}

// TestDebateHintPasted: a hint pasted over two lines, in a terminal that
// marks pastes (tmux's paste-buffer -p brackets a paste when the program
// asked for it), is one hint: the view showed each pasted line as a hint
// of its own, the second refused for naming no agent.
func TestDebateHintPasted(t *testing.T) {
	p, joined, _, _ := debateInTmux(t, 80)
	p.wait("Round one opening.", 30*time.Second)
	p.tmux("set-buffer", "-b", "hint", "perf: think about p99 latency\nand the tail under load\n")
	p.tmux("paste-buffer", "-p", "-d", "-b", "hint", "-t", "shell")
	p.wait("› perf: think about p99 latency and the tail under load", 10*time.Second)
	p.tmux("send-keys", "-t", "shell", "Enter")
	p.wait("💡 Hint queued for", 10*time.Second)
	p.tmux("send-keys", "-t", "shell", "C-c")
	p.wait("exit 130", 20*time.Second)
	final := joined()
	words := strings.Join(strings.Fields(final), " ")
	if !strings.Contains(words, "💡 Hint queued for Performance Advocate: think about p99 latency and the tail under load") {
		t.Errorf("the pasted hint is not acknowledged whole:\n%s", final)
	}
	if strings.Contains(final, "No agent") || strings.Count(final, "Hint queued") != 1 {
		t.Errorf("the paste was read as more than one hint:\n%s", final)
	}
	if strings.Contains(final, "200~") || strings.Contains(final, "201~") {
		t.Errorf("the paste's marks show:\n%s", final)
	}
}

// TestTypedLineRedrawnOnResize: a line typed while the view waits (the
// first argument takes its time) is drawn again as soon as the terminal is
// resized, cut to the new width with its end showing: it stayed as drawn
// for the old width, folded by the terminal, until the next event.
func TestTypedLineRedrawnOnResize(t *testing.T) {
	base := loadScript(t, "perspectives.yaml")
	sc, err := script.New(append([]script.Rule{
		{TagRegexp: `^r1/argument/`, Reply: &script.Reply{Text: "Late.", Delay: script.Duration(time.Minute)}},
	}, base.Rules...)...)
	if err != nil {
		t.Fatal(err)
	}
	p, _, _, _ := debateInTmuxOn(t, 80, sc)
	p.wait("Round 1: arguments", 30*time.Second)
	typed := "perf: " + strings.Repeat("think about p99 ", 4) + "END"
	p.tmux("send-keys", "-t", "shell", "-l", typed)
	p.wait("› "+typed, 10*time.Second)
	p.tmux("resize-window", "-t", "shell", "-x", "40")
	deadline := time.Now().Add(3 * time.Second)
	var row string
	for {
		row = ""
		for _, line := range strings.Split(p.screen(), "\n") {
			if strings.HasPrefix(line, "› ") {
				row = strings.TrimRight(line, " ")
			}
		}
		if strings.HasSuffix(row, "END") && ansi.StringWidth(row) < 40 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.HasSuffix(row, "END") || ansi.StringWidth(row) >= 40 {
		t.Errorf("after the resize the line typed shows as %q, want it cut to 40 columns with its end:\n%s", row, p.screen())
	}
	p.tmux("send-keys", "-t", "shell", "C-c")
	p.wait("exit 130", 20*time.Second)
}
