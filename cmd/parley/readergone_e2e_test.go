package main_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm/fakellm"
)

// TestReaderOfOutputGone: Ctrl+C reaches every process of a pipeline
// ('parley debate X | tee log'), and a reader may leave early ('| head'):
// once standard output's reader is gone, the debate pauses as if
// interrupted, and Parley exits 130 saying on standard error how to resume,
// rather than die of SIGPIPE mid-turn with nothing said.
func TestReaderOfOutputGone(t *testing.T) {
	_, dir, env := fakeOpenAI(t, loadScript(t, "perspectives.yaml"), fakellm.WithTokenDelay(20*time.Millisecond))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := command(ctx, t, dir, env, "debate", "Should we use Redis or PostgreSQL for caching?", "--model", "test-model", "--no-checkpoints")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	errOut := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = w, errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	// The reader leaves once a reply streams.
	var got strings.Builder
	buf := make([]byte, 4096)
	for !strings.Contains(got.String(), "argument (round 1)") {
		n, err := r.Read(buf)
		if err != nil {
			t.Fatalf("parley's output ended before a reply streamed: %v\n%s\nstderr: %s", err, got.String(), errOut.String())
		}
		got.Write(buf[:n])
	}
	r.Close()
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Fatalf("parley with its reader gone: %v, want exit 130\nstderr: %s", err, errOut.String())
	}
	if !strings.Contains(errOut.String(), "resume with: parley debate --resume DEB-") {
		t.Errorf("stderr does not say how to resume:\n%s", errOut.String())
	}
	var list []struct {
		Status string `json:"status"`
	}
	res := parley(t, dir, env, "", "list", "--json")
	if err := json.Unmarshal([]byte(res.stdout), &list); err != nil || len(list) != 1 || list[0].Status != "paused" {
		t.Errorf("the debate after its reader left: %s (%v), want it paused", res.stdout, err)
	}
}
