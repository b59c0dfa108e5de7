package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

// GET /api/debates/{id} says why a paused debate paused, as 'parley show'
// does (the reason, and the detail to fix before a resume), the detail
// inert; a debate that is not paused has no paused field.
func TestDebateViewSaysWhyItPaused(t *testing.T) {
	ts := newTestServer(t, nil, "")
	ctx := context.Background()
	add := func(id string, more ...debate.Payload) {
		t.Helper()
		pl := append([]debate.Payload{debate.Created{Format: "perspectives", Topic: "Should we use Redis or PostgreSQL for caching?",
			Models: map[string]string{"*": "openai/gpt-4.1"}, Limits: debate.DefaultLimits()}}, more...)
		for _, p := range pl {
			e, err := debate.NewEvent(id, time.Now(), p)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ts.app.Store.Append(ctx, id, e); err != nil {
				t.Fatal(err)
			}
		}
	}
	add("DEB-000000c1", debate.Paused{Reason: debate.PauseBudget, Detail: "the debate budget of 1000 tokens is reached \x1b[31m: resume with --debate-budget"})
	add("DEB-000000c2", debate.Paused{Reason: debate.PauseBudget}, debate.Resumed{})
	for _, c := range []struct {
		id     string
		paused bool
	}{{"DEB-000000c1", true}, {"DEB-000000c2", false}} {
		resp, body := ts.do(t, "GET", "/api/debates/"+c.id, "")
		var v struct {
			Paused *debate.Paused `json:"paused"`
		}
		if resp.StatusCode != 200 || json.Unmarshal([]byte(body), &v) != nil {
			t.Fatalf("GET %s: %d %s", c.id, resp.StatusCode, body)
		}
		switch {
		case c.paused && (v.Paused == nil || v.Paused.Reason != debate.PauseBudget || !strings.Contains(v.Paused.Detail, "1000 tokens is reached ␛[31m")):
			t.Errorf("%s: paused %+v; want the budget reason and its detail, inert", c.id, v.Paused)
		case !c.paused && v.Paused != nil:
			t.Errorf("%s (resumed): paused %+v; want none", c.id, v.Paused)
		}
	}
}
