package app

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
)

// TestResumeWithTooSmallBudget: a debate paused on its debate budget,
// resumed with a budget it has already spent, is refused as bad input
// naming what it used, instead of running to pause again at once on the
// same advice ("resume with a larger --debate-budget").
func TestResumeWithTooSmallBudget(t *testing.T) {
	ctx := context.Background()
	srv := perspectivesServer(t)
	a := testApp(t, map[string]string{"OPENAI_BASE_URL": srv.OpenAIURL(), "OPENAI_API_KEY": "test-key"})
	req := request("perspectives", "Should we use Redis or PostgreSQL for caching?")
	req.Limits.DebateBudget = 100
	s, err := a.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Run(ctx, nil)
	var pe *debate.PausedError
	if !errors.As(err, &pe) || pe.Reason != debate.PauseBudget {
		t.Fatalf("run: %v, want a pause on the debate budget", err)
	}
	used := st.Usage.Total()
	if !strings.Contains(pe.Error(), "above "+strconv.Itoa(used)) {
		t.Errorf("the pause says %q, want it to name the budget to go above (%d)", pe.Error(), used)
	}
	for _, budget := range []int{used - 1, used} {
		_, err = a.Resume(ctx, ResumeRequest{ID: s.ID, Limits: func(l *debate.Limits) { l.DebateBudget = budget }})
		var in *setup.InputError
		if !errors.As(err, &in) || !strings.Contains(err.Error(), "give more than "+strconv.Itoa(used)) {
			t.Errorf("resume with --debate-budget %d after %d used: %v, want it refused", budget, used, err)
		}
	}
	for _, budget := range []int{used + 1, 0} {
		if _, err := a.Resume(ctx, ResumeRequest{ID: s.ID, Limits: func(l *debate.Limits) { l.DebateBudget = budget }}); err != nil {
			t.Errorf("resume with --debate-budget %d after %d used: %v", budget, used, err)
		}
	}
}
