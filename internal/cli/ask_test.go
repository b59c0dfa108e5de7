package cli

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/setup"
)

// finishedBullbear runs an offline data-only debate on NVDA to completion
// and returns its id.
func finishedBullbear(t *testing.T, f *Factory) string {
	t.Helper()
	if err := runDebate(context.Background(), f, &DebateOptions{Request: setup.Request{Topic: "NVDA", Format: bullbear.Name, Offline: true, NoCheckpoints: true},
		RoundTimeout: time.Minute, DebateTimeout: time.Minute, CallTimeout: time.Minute, CheckpointTimeout: time.Minute}); err != nil {
		t.Fatalf("debate: %v", err)
	}
	store, err := f.OpenStore(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	list, err := store.List(context.Background(), debate.ListFilter{})
	if err != nil || len(list) != 1 {
		t.Fatalf("list: %v %v", list, err)
	}
	return list[0].ID
}

func TestAskRefusals(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	f := testFactory(t, "", false)
	id := finishedBullbear(t, f)
	ctx := context.Background()

	// No model: a ConfigError that says why the data-only agents cannot answer.
	err := runAsk(ctx, f, &AskOptions{ID: id, Agent: "bear", Question: "Why?"})
	var ce *ConfigError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "data-only agents") || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("no model: %v", err)
	}
	for _, c := range []struct {
		o    AskOptions
		want string
	}{
		{AskOptions{ID: id, Question: "Why?"}, "--agent is required: debate " + id + ": no agent named: ask one of bear, bull, moderator"},
		{AskOptions{ID: id, Agent: "judge", Question: "Why?"}, "ask bull, bear or moderator"},
		{AskOptions{ID: "DEB-none", Agent: "bull", Question: "Why?"}, "no debate DEB-none"},
	} {
		err := runAsk(ctx, f, &c.o)
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want a usage error with %q", c.o, err, c.want)
		}
	}
	paused := pausedBullbear(t, f)
	err = runAsk(ctx, f, &AskOptions{ID: paused, Agent: "bull", Question: "Why?"})
	var ue *UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "parley debate --resume "+paused) {
		t.Errorf("unfinished debate: %v", err)
	}
}
