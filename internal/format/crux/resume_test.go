package crux_test

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestResumeReplaysTheThread stops a debate in CRUX_LOCK (the model fails
// for good on one turn) and resumes it with a working model: the thread is
// rebuilt from the log, no completed turn runs again, and no event is
// recorded twice.
func TestResumeReplaysTheThread(t *testing.T) {
	all := lockedCruxRules()
	var partial []script.Rule
	for _, r := range all {
		if r.Tag < "m08/" {
			partial = append(partial, r)
		}
	}
	partial = append(partial, script.Rule{Tag: "m08/hayes", Reply: &script.Reply{Fault: &script.Fault{Status: 401}}})
	f := newFixture(t, lockedCruxOptions(), partial...)
	s, err := f.Run()
	if err == nil || s.Status == debate.StatusCompleted {
		t.Fatalf("the first run did not stop: %v", err)
	}
	before := len(f.Tags())

	f.Rescript(all...)
	s, err = f.Run()
	if err != nil || s.Status != debate.StatusCompleted {
		t.Fatalf("resume: %v (status %s)", err, s.Status)
	}
	tags := f.Tags()
	if before != 10 || tags[0] != "m08/hayes" || strings.Contains(strings.Join(tags, " "), "m07/") {
		t.Errorf("first run %d requests; resumed run %v", before, tags)
	}
	seen := map[string]bool{}
	for _, n := range s.Notes {
		key := n.Kind + string(n.Data)
		if seen[key] {
			t.Errorf("note recorded twice: %s %s", n.Kind, n.Data)
		}
		seen[key] = true
	}
	if k := kinds(s); k["crux.stage_transition"] != 3 || k["crux.message_posted"] != 13 || k["crux.lock_succeeded"] != 1 {
		t.Errorf("notes %v", k)
	}
	if res := result(t, s); !res.Crux.Validated {
		t.Errorf("crux %+v", res.Crux)
	}
}
