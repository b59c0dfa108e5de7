package debate

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/parleyhq/parley/internal/llm"
)

// State is a debate folded from its event log. It is rebuilt, never stored:
// Fold(events) after a crash gives what the crashed process had.
type State struct {
	ID      string
	Format  string
	Topic   string
	Options json.RawMessage
	Limits  Limits
	Models  map[string]string
	// Endpoints are the providers' recorded base URLs (see Created).
	Endpoints map[string]string
	Created   time.Time
	Updated   time.Time
	Status    Status
	LastSeq   int64
	// Queue is the job queue of the latest run queued (see Queued), ""
	// if none was.
	Queue string

	Phase PhaseChanged // the latest phase

	// Turns by id; Done lists completed turn ids in completion order.
	Turns map[string]*Turn
	Done  []string

	Hints       []Hint
	Checkpoints []Checkpoint
	Notes       []NoteEvent // format events, in log order
	Warnings    []BudgetWarning
	Pauses      []Paused
	Artifacts   []ArtifactWritten
	Verdict     json.RawMessage
	Failure     string
	// PauseRequested is the pause request made since the debate last
	// paused or ended, nil if none (see PauseRequest).
	PauseRequested *PauseRequest
	Usage          llm.Usage // whole debate
	CostUSD        float64
}

// Turn is one agent turn as the log knows it.
type Turn struct {
	TurnRef
	Status     TurnStatus
	Attempts   int
	Model      string
	Text       string // the completed text, or the partial text of the running attempt
	Move       json.RawMessage
	Invalid    string
	Superseded []string // partial texts of interrupted attempts
	Repairs    []TurnRepair
	Failures   []TurnFailed
	Tools      []ToolExchange
	Usage      llm.Usage
	CostUSD    float64
	Priced     bool // CostUSD came from a known price (TurnCompleted.Priced)
	Hints      []int
	NoLLM      bool
	Started    time.Time
	Completed  time.Time
}

// TurnStatus is where a turn stands.
type TurnStatus string

// Turn statuses.
const (
	TurnRunning      TurnStatus = "running"
	TurnDone         TurnStatus = "completed"
	TurnFailedStatus TurnStatus = "failed"
)

// ToolExchange is one tool call and its result.
type ToolExchange struct {
	Call   llm.ToolCall
	Result *ToolResult
}

// Hint is queued human guidance.
type Hint struct {
	HintQueued
	Seq     int64
	Applied string // turn id that first applied it; "" while pending
	// AppliedBy maps each agent that has applied a hint for every agent
	// (HintAll) to the turn that applied it: such a hint stays pending for
	// the agents not in it, so that it reaches each of them once.
	AppliedBy map[string]string
}

// HintAll is the target of a hint for every agent.
const HintAll = "all"

// Checkpoint is a checkpoint and, once given, its answer.
type Checkpoint struct {
	CheckpointReached
	Answer *CheckpointAnswered
}

// NoteEvent is a format event with its place in the log.
type NoteEvent struct {
	Seq  int64
	Time time.Time
	Note
}

// Fold builds the state of one debate from its events.
func Fold(events []Event) (*State, error) {
	s := &State{Turns: map[string]*Turn{}}
	for _, e := range events {
		if err := s.Apply(e); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Apply folds one more event into the state.
func (s *State) Apply(e Event) error {
	if s.Turns == nil {
		s.Turns = map[string]*Turn{}
	}
	if e.Seq != 0 && s.LastSeq != 0 && e.Seq != s.LastSeq+1 {
		return fmt.Errorf("debate %s: event %d follows %d: the log has a gap", e.Debate, e.Seq, s.LastSeq)
	}
	if e.Seq != 0 {
		s.LastSeq = e.Seq
	}
	s.Updated = e.Time
	if s.Status == StatusQueued && EndsQueued(e.Type) {
		s.Status = StatusRunning
	}
	var err error
	switch e.Type {
	case TypeQueued:
		// A completed debate never runs again (its job finds nothing to
		// run): one queued in a race with its completion stays completed.
		if s.Status != StatusCompleted {
			s.Status = StatusQueued
		}
		var q Queued
		if err = e.Decode(&q); err == nil {
			s.Queue = q.Queue
		}
	case TypeCreated:
		var c Created
		if err = e.Decode(&c); err == nil {
			s.ID, s.Format, s.Topic, s.Options, s.Limits, s.Models, s.Endpoints = e.Debate, c.Format, c.Topic, c.Options, c.Limits, maps.Clone(c.Models), maps.Clone(c.Endpoints)
			s.Created = e.Time
			s.Status = StatusRunning
		}
	case TypePhase:
		err = e.Decode(&s.Phase)
	case TypeTurnStarted:
		var p TurnStarted
		if err = e.Decode(&p); err == nil {
			t := s.Turns[p.Turn.ID]
			if t == nil {
				t = &Turn{TurnRef: p.Turn}
				s.Turns[p.Turn.ID] = t
			}
			if t.Status == TurnDone {
				return fmt.Errorf("debate %s: turn %s started again after it completed (event %d)", e.Debate, p.Turn.ID, e.Seq)
			}
			if t.Text != "" {
				t.Superseded = append(t.Superseded, t.Text)
				t.Text = ""
			}
			t.Status, t.Attempts, t.Model, t.Started = TurnRunning, p.Attempt, p.Model, e.Time
			s.Status = StatusRunning
		}
	case TypeTurnDelta:
		var p TurnDelta
		if err = e.Decode(&p); err == nil {
			if t := s.Turns[p.Turn]; t != nil && t.Status != TurnDone {
				t.Text += p.Text
			}
		}
	case TypeTurnSuperseded:
		var p TurnSuperseded
		if err = e.Decode(&p); err == nil {
			if t := s.Turns[p.Turn]; t != nil && t.Status != TurnDone {
				if t.Text != "" {
					t.Superseded = append(t.Superseded, t.Text)
				}
				t.Text = ""
				t.Status = TurnFailedStatus
			}
		}
	case TypeTurnRepair:
		var p TurnRepair
		if err = e.Decode(&p); err == nil {
			if t := s.Turns[p.Turn]; t != nil {
				t.Repairs = append(t.Repairs, p)
				t.Text = ""
			}
		}
	case TypeTurnFailed:
		var p TurnFailed
		if err = e.Decode(&p); err == nil {
			if t := s.Turns[p.Turn]; t != nil {
				t.Failures = append(t.Failures, p)
				t.Status = TurnFailedStatus
			}
		}
	case TypeTurnCompleted:
		var p TurnCompleted
		if err = e.Decode(&p); err == nil {
			t := s.Turns[p.Turn.ID]
			if t == nil {
				t = &Turn{TurnRef: p.Turn}
				s.Turns[p.Turn.ID] = t
			}
			if t.Status == TurnDone {
				return fmt.Errorf("debate %s: turn %s completed twice (event %d)", e.Debate, p.Turn.ID, e.Seq)
			}
			t.TurnRef = p.Turn
			t.Status, t.Text, t.Move, t.Invalid = TurnDone, p.Text, p.Move, p.Invalid
			t.Usage, t.CostUSD, t.Priced, t.Model, t.Hints, t.NoLLM, t.Completed = p.Usage, p.CostUSD, p.Priced, p.Model, p.Hints, p.NoLLM, e.Time
			s.Done = append(s.Done, t.ID)
			s.Usage = s.Usage.Add(p.Usage)
			s.CostUSD += p.CostUSD
			for _, id := range p.Hints {
				for i := range s.Hints {
					h := &s.Hints[i]
					if h.ID != id {
						continue
					}
					if h.Applied == "" {
						h.Applied = t.ID
					}
					if h.Target == HintAll {
						// Copied, not updated in place: a clone of the state
						// being read elsewhere shares the old map.
						by := maps.Clone(h.AppliedBy)
						if by == nil {
							by = map[string]string{}
						}
						by[t.Agent] = t.ID
						h.AppliedBy = by
					}
				}
			}
		}
	case TypeToolCalled:
		var p ToolCalled
		if err = e.Decode(&p); err == nil {
			if t := s.Turns[p.Turn]; t != nil {
				t.Tools = append(t.Tools, ToolExchange{Call: p.Call})
			}
		}
	case TypeToolResult:
		var p ToolResult
		if err = e.Decode(&p); err == nil {
			if t := s.Turns[p.Turn]; t != nil {
				for i := len(t.Tools) - 1; i >= 0; i-- {
					if t.Tools[i].Call.ID == p.CallID && t.Tools[i].Result == nil {
						t.Tools[i].Result = &p
						break
					}
				}
			}
		}
	case TypeHintQueued:
		var p HintQueued
		if err = e.Decode(&p); err == nil {
			s.Hints = append(s.Hints, Hint{HintQueued: p, Seq: e.Seq})
		}
	case TypeCheckpoint:
		var p CheckpointReached
		if err = e.Decode(&p); err == nil {
			if s.Checkpoint(p.ID) == nil {
				s.Checkpoints = append(s.Checkpoints, Checkpoint{CheckpointReached: p})
			}
			s.Status = StatusCheckpoint
		}
	case TypeCheckpointAnswer:
		var p CheckpointAnswered
		if err = e.Decode(&p); err == nil {
			if c := s.Checkpoint(p.ID); c != nil {
				c.Answer = &p
			} else {
				s.Checkpoints = append(s.Checkpoints, Checkpoint{CheckpointReached: CheckpointReached{ID: p.ID}, Answer: &p})
			}
			s.Status = StatusRunning
		}
	case TypeBudgetWarning:
		var p BudgetWarning
		if err = e.Decode(&p); err == nil {
			s.Warnings = append(s.Warnings, p)
		}
	case TypePaused:
		var p Paused
		if err = e.Decode(&p); err == nil {
			s.Pauses = append(s.Pauses, p)
			s.Status = StatusPaused
			s.PauseRequested = nil
		}
	case TypePauseRequest:
		var p PauseRequest
		if err = e.Decode(&p); err == nil {
			s.PauseRequested = &p
		}
	case TypeResumed:
		s.Status = StatusRunning
		if s.OpenCheckpoint() != nil {
			s.Status = StatusCheckpoint
		}
	case TypeVerdict:
		var p Verdict
		if err = e.Decode(&p); err == nil {
			s.Verdict = p.Data
		}
	case TypeCompleted:
		s.Status = StatusCompleted
		s.PauseRequested = nil
	case TypeFailed:
		var p Failed
		if err = e.Decode(&p); err == nil {
			s.Failure = p.Error
			s.Status = StatusFailed
		}
	case TypeCastChanged:
		var c CastChanged
		if err = e.Decode(&c); err == nil {
			if s.Models == nil {
				s.Models = map[string]string{}
			}
			if c.To == "" {
				delete(s.Models, c.Role)
			} else {
				s.Models[c.Role] = c.To
			}
			if p, _, ok := strings.Cut(c.To, "/"); ok && c.Endpoint != "" {
				if s.Endpoints == nil {
					s.Endpoints = map[string]string{}
				}
				s.Endpoints[p] = c.Endpoint
			}
		}
	case TypeArtifact:
		var p ArtifactWritten
		// A document written again to the same path (a lost decision
		// document restored by --resume) is the same one document:
		// listed twice, show and every export named it twice.
		if err = e.Decode(&p); err == nil && !slices.Contains(s.Artifacts, p) {
			s.Artifacts = append(s.Artifacts, p)
		}
	default:
		if kind, ok := strings.CutPrefix(e.Type, TypeFormatEventPrefix); ok {
			var n Note
			if err = json.Unmarshal(e.Data, &n); err == nil {
				n.Kind = kind
				s.Notes = append(s.Notes, NoteEvent{Seq: e.Seq, Time: e.Time, Note: n})
			}
		}
		// Unknown types from a newer Parley are skipped: the fold must not
		// refuse an old reader a log it can mostly understand.
	}
	return err
}

// LastPause is why a paused debate paused: its last pause event. ok is
// false for a debate that is not paused.
func (s *State) LastPause() (p Paused, ok bool) {
	if s.Status != StatusPaused || len(s.Pauses) == 0 {
		return Paused{}, false
	}
	return s.Pauses[len(s.Pauses)-1], true
}

// OpenCheckpoint is the last checkpoint of the debate if it has no answer
// yet, nil otherwise.
func (s *State) OpenCheckpoint() *CheckpointReached {
	if n := len(s.Checkpoints); n > 0 && s.Checkpoints[n-1].Answer == nil {
		c := s.Checkpoints[n-1].CheckpointReached
		return &c
	}
	return nil
}

// Debaters are the agents that have taken turns so far, moderators aside,
// sorted: the ones a hint can be addressed to.
func (s *State) Debaters() []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range s.Turns {
		if t.Role != "moderator" && t.Agent != "moderator" && !seen[t.Agent] {
			seen[t.Agent] = true
			out = append(out, t.Agent)
		}
	}
	sort.Strings(out)
	return out
}

// Checkpoint returns the checkpoint with the given id, or nil.
func (s *State) Checkpoint(id string) *Checkpoint {
	for i := range s.Checkpoints {
		if s.Checkpoints[i].ID == id {
			return &s.Checkpoints[i]
		}
	}
	return nil
}

// Completed returns the completed turn with the given id, or nil.
func (s *State) Completed(id string) *Turn {
	if t := s.Turns[id]; t != nil && t.Status == TurnDone {
		return t
	}
	return nil
}

// CompletedTurns returns completed turns in completion order.
func (s *State) CompletedTurns() []*Turn {
	out := make([]*Turn, 0, len(s.Done))
	for _, id := range s.Done {
		out = append(out, s.Turns[id])
	}
	return out
}

// Interrupted returns turns that started but neither completed nor were
// superseded: a crash or Ctrl+C cut them off. Sorted by id for determinism.
func (s *State) Interrupted() []*Turn {
	var out []*Turn
	for _, t := range s.Turns {
		if t.Status == TurnRunning {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// PendingHints returns the hints that target agent and that it has not
// applied yet: its own hints until a turn applies them, and each hint for
// every agent (HintAll) until one of its own turns has applied it.
func (s *State) PendingHints(agent string) []Hint {
	var out []Hint
	for _, h := range s.Hints {
		switch {
		case h.Target == HintAll && h.AppliedBy[agent] == "":
			out = append(out, h)
		case h.Target == agent && h.Applied == "":
			out = append(out, h)
		}
	}
	return out
}

// HintPrompt renders agent's pending hints (PendingHints) for the prompt of
// its next turn: heading, then each hint's text as line formats it (one
// %s), and returns their ids, which the runner records as applied when the
// turn completes; "" and nil when there are none.
func (s *State) HintPrompt(agent, heading, line string) (string, []int) {
	hs := s.PendingHints(agent)
	if len(hs) == 0 {
		return "", nil
	}
	var b strings.Builder
	ids := make([]int, 0, len(hs))
	b.WriteString(heading)
	for _, h := range hs {
		fmt.Fprintf(&b, line, h.Text)
		ids = append(ids, h.ID)
	}
	return b.String(), ids
}

// Guidance returns the guidance given at checkpoints, in order.
func (s *State) Guidance() []string {
	var out []string
	for _, c := range s.Checkpoints {
		if c.Answer != nil && c.Answer.Guidance != "" {
			out = append(out, c.Answer.Guidance)
		}
	}
	return out
}

// AgentUsage sums the usage of an agent's completed turns, optionally only in
// one round (round < 0 means every round).
func (s *State) AgentUsage(agent string, round int) llm.Usage {
	var u llm.Usage
	for _, id := range s.Done {
		t := s.Turns[id]
		if t.Agent == agent && (round < 0 || t.Round == round) {
			u = u.Add(t.Usage)
		}
	}
	return u
}

func (s *State) warned(scope string) bool {
	for _, w := range s.Warnings {
		if w.Scope == scope {
			return true
		}
	}
	return false
}

// clone copies the state deeply enough that the copy can be read while the
// original is being appended to.
func (s *State) clone() *State {
	c := *s
	c.Turns = make(map[string]*Turn, len(s.Turns))
	for id, t := range s.Turns {
		tc := *t
		c.Turns[id] = &tc
	}
	c.Done = append([]string(nil), s.Done...)
	c.Hints = append([]Hint(nil), s.Hints...)
	c.Checkpoints = append([]Checkpoint(nil), s.Checkpoints...)
	c.Notes = append([]NoteEvent(nil), s.Notes...)
	c.Warnings = append([]BudgetWarning(nil), s.Warnings...)
	c.Models, c.Endpoints = maps.Clone(s.Models), maps.Clone(s.Endpoints)
	return &c
}
