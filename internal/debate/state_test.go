package debate_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

func log(t *testing.T, ps ...debate.Payload) []debate.Event {
	t.Helper()
	var evs []debate.Event
	for i, p := range ps {
		e, err := debate.NewEvent("d", t0, p)
		if err != nil {
			t.Fatal(err)
		}
		e.Seq = int64(i + 1)
		evs = append(evs, e)
	}
	return evs
}

func TestFold(t *testing.T) {
	ref := debate.TurnRef{ID: "a", Agent: "alpha", Round: 1}
	evs := log(t,
		debate.Created{Format: "toy", Topic: "q"},
		debate.HintQueued{ID: 1, Target: "alpha", Text: "h"},
		debate.TurnStarted{Turn: ref, Attempt: 1},
		debate.TurnDelta{Turn: "a", Text: "par"},
		debate.TurnDelta{Turn: "a", Text: "tial"},
		debate.TurnFailed{Turn: "a", Attempt: 1, Error: "cut", Retryable: true},
		debate.TurnStarted{Turn: ref, Attempt: 2},
		debate.TurnDelta{Turn: "a", Text: "whole"},
		debate.TurnCompleted{Turn: ref, Text: "whole", Usage: llm.Usage{InputTokens: 3, OutputTokens: 1}, Hints: []int{1}},
		debate.Note{Kind: "toy.flag", Text: "flagged"},
		debate.Paused{Reason: debate.PauseInterrupted},
	)
	evs = append(evs, debate.Event{Debate: "d", Seq: int64(len(evs) + 1), Time: t0, Type: "from.the.future", Data: json.RawMessage(`{}`)})
	s, err := debate.Fold(evs)
	if err != nil {
		t.Fatal(err)
	}
	a := s.Turns["a"]
	if a.Text != "whole" || a.Attempts != 2 || len(a.Failures) != 1 || len(a.Superseded) != 1 || a.Superseded[0] != "partial" {
		t.Errorf("turn a = %+v", a)
	}
	if s.Status != debate.StatusPaused || s.Usage.Total() != 4 || s.Hints[0].Applied != "a" {
		t.Errorf("state = status %s usage %+v hints %+v", s.Status, s.Usage, s.Hints)
	}
	if len(s.Notes) != 1 || s.Notes[0].Kind != "toy.flag" || s.Notes[0].Text != "flagged" {
		t.Errorf("notes %+v", s.Notes)
	}
	if s.LastSeq != int64(len(evs)) {
		t.Errorf("last seq %d", s.LastSeq)
	}
	if s.AgentUsage("alpha", 1).OutputTokens != 1 || s.AgentUsage("alpha", 2).OutputTokens != 0 || s.AgentUsage("alpha", -1).InputTokens != 3 {
		t.Error("AgentUsage by round")
	}
}

func TestFoldRejectsBrokenLogs(t *testing.T) {
	ref := debate.TurnRef{ID: "a", Agent: "alpha"}
	t.Run("gap", func(t *testing.T) {
		evs := log(t, debate.Created{}, debate.Paused{}, debate.Resumed{})
		evs[2].Seq = 4
		if _, err := debate.Fold(evs); err == nil || !strings.Contains(err.Error(), "gap") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("completed twice", func(t *testing.T) {
		evs := log(t, debate.Created{}, debate.TurnCompleted{Turn: ref}, debate.TurnCompleted{Turn: ref})
		if _, err := debate.Fold(evs); err == nil || !strings.Contains(err.Error(), "completed twice") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("started after completion", func(t *testing.T) {
		evs := log(t, debate.Created{}, debate.TurnCompleted{Turn: ref}, debate.TurnStarted{Turn: ref})
		if _, err := debate.Fold(evs); err == nil {
			t.Error("no error")
		}
	})
	t.Run("undecodable payload", func(t *testing.T) {
		evs := log(t, debate.Created{})
		evs = append(evs, debate.Event{Debate: "d", Seq: 2, Type: debate.TypePaused, Data: json.RawMessage(`[]`)})
		if _, err := debate.Fold(evs); err == nil {
			t.Error("no error")
		}
	})
}

func TestInterruptedSortedAndSuperseded(t *testing.T) {
	evs := log(t,
		debate.Created{},
		debate.TurnStarted{Turn: debate.TurnRef{ID: "z"}},
		debate.TurnStarted{Turn: debate.TurnRef{ID: "b"}},
		debate.TurnStarted{Turn: debate.TurnRef{ID: "m"}},
		debate.TurnSuperseded{Turn: "m"},
	)
	s, err := debate.Fold(evs)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, tt := range s.Interrupted() {
		ids = append(ids, tt.ID)
	}
	if strings.Join(ids, ",") != "b,z" {
		t.Errorf("interrupted %v", ids)
	}
}

// TestDecodeOptions: no options give the zero value for the format's
// defaults; options that are not the format's JSON are refused naming the
// format.
func TestDecodeOptions(t *testing.T) {
	type opts struct {
		Rounds int `json:"rounds"`
	}
	if o, err := debate.DecodeOptions[opts]("formal", nil); err != nil || o.Rounds != 0 {
		t.Errorf("no options: %+v, %v", o, err)
	}
	if o, err := debate.DecodeOptions[opts]("formal", json.RawMessage(`{"rounds":3}`)); err != nil || o.Rounds != 3 {
		t.Errorf("rounds 3: %+v, %v", o, err)
	}
	if _, err := debate.DecodeOptions[opts]("formal", json.RawMessage(`{"rounds":"x"}`)); err == nil || !strings.HasPrefix(err.Error(), "formal options: ") {
		t.Errorf("bad options: %v, want an error naming the format's options", err)
	}
}

// TestFoldArtifactWrittenAgain: a document written again to its path (a
// lost decision document restored on resume) is listed once; one written
// to another path is listed too.
func TestFoldArtifactWrittenAgain(t *testing.T) {
	doc := debate.ArtifactWritten{Kind: "decision", Path: "docs/decisions/d.md"}
	moved := debate.ArtifactWritten{Kind: "decision", Path: "elsewhere/d.md"}
	s, err := debate.Fold(log(t, debate.Created{Format: "toy", Topic: "q"}, doc, doc, moved))
	if err != nil {
		t.Fatal(err)
	}
	if want := []debate.ArtifactWritten{doc, moved}; len(s.Artifacts) != 2 || s.Artifacts[0] != want[0] || s.Artifacts[1] != want[1] {
		t.Errorf("artifacts %+v, want %+v", s.Artifacts, want)
	}
}
