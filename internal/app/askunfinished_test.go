package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store/storetest"
)

// TestAskUnfinishedSaysWhereItStands: a follow-up to a debate that has not
// ended names the status a person sees in 'parley list', not the log's:
// an interrupted debate was said to be "running", and one a worker runs
// was sent to be resumed by hand, which is refused.
func TestAskUnfinishedSaysWhereItStands(t *testing.T) {
	ctx := context.Background()
	a := testApp(t, nil)
	req := offlineBullbear("NVDA")
	s, err := a.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Ask(ctx, AskRequest{ID: s.ID, Agent: "bear", Question: "Why?"})
	var ue *UnfinishedError
	if !errors.Is(err, ErrUnfinished) || !errors.As(err, &ue) || !ue.Resumable() || !strings.Contains(err.Error(), "(it is interrupted)") {
		t.Errorf("a follow-up to an interrupted debate: %v, want it said interrupted and resumable", err)
	}
	storetest.AppendPayloads(ctx, t, a.Store, s.ID, time.Now(), debate.Queued{Queue: "data", Reason: debate.QueuedCreated})
	_, err = a.Ask(ctx, AskRequest{ID: s.ID, Agent: "bear", Question: "Why?"})
	if !errors.As(err, &ue) || ue.Resumable() || !strings.Contains(err.Error(), "(it is queued for a worker)") || !strings.Contains(err.Error(), "ask again when it has ended") {
		t.Errorf("a follow-up to a queued debate: %v, want it said queued, not resumable here", err)
	}
}
