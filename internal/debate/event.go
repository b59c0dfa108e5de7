// Package debate is Parley's engine: the event log a debate is made of, the
// state folded from it, the Protocol interface formats implement, and the Runner
// that executes turns for every format.
package debate

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/parleyhq/parley/internal/llm"
)

// Event is one entry of a debate's append-only log. Seq is assigned by the
// store, starting at 1 and without gaps; Time by the runner.
type Event struct {
	Debate string          `json:"debate"`
	Seq    int64           `json:"seq"`
	Time   time.Time       `json:"time"`
	Type   string          `json:"type"`
	Data   json.RawMessage `json:"data"`
}

// Payload is the typed body of an event.
type Payload interface{ EventType() string }

// NewEvent wraps a payload in an event for the given debate. Seq is left for
// the store to assign.
func NewEvent(debateID string, at time.Time, p Payload) (Event, error) {
	data, err := json.Marshal(p)
	if err != nil {
		return Event{}, fmt.Errorf("encode %s event: %w", p.EventType(), err)
	}
	return Event{Debate: debateID, Time: at.UTC(), Type: p.EventType(), Data: data}, nil
}

// Decode unmarshals the event's data into p, whose type must match.
func (e Event) Decode(p Payload) error {
	if e.Type != p.EventType() {
		return fmt.Errorf("event %d is %s, not %s", e.Seq, e.Type, p.EventType())
	}
	if err := json.Unmarshal(e.Data, p); err != nil {
		return fmt.Errorf("decode %s event %d: %w", e.Type, e.Seq, err)
	}
	return nil
}

// Event types of the engine. Formats may append their own types (through
// Step.Emit); the fold keeps those in State.Notes.
const (
	TypeCreated           = "debate.created"
	TypePhase             = "phase.changed"
	TypeTurnStarted       = "turn.started"
	TypeTurnDelta         = "turn.delta"
	TypeTurnSuperseded    = "turn.superseded"
	TypeTurnRepair        = "turn.repair"
	TypeTurnFailed        = "turn.failed"
	TypeTurnCompleted     = "turn.completed"
	TypeToolCalled        = "tool.called"
	TypeToolResult        = "tool.result"
	TypeHintQueued        = "hint.queued"
	TypeCheckpoint        = "checkpoint.reached"
	TypeCheckpointAnswer  = "checkpoint.answered"
	TypeBudgetWarning     = "budget.warning"
	TypePaused            = "debate.paused"
	TypeResumed           = "debate.resumed"
	TypePauseRequest      = "debate.pause_requested"
	TypeQueued            = "debate.queued"
	TypeVerdict           = "verdict"
	TypeCompleted         = "debate.completed"
	TypeFailed            = "debate.failed"
	TypeArtifact          = "artifact.written"
	TypeCastChanged       = "cast.changed"
	TypeFormatEventPrefix = "format." // e.g. format.crux.stage_transition
)

// Created starts a debate.
type Created struct {
	Format  string          `json:"format"`
	Topic   string          `json:"topic"`
	Options json.RawMessage `json:"options,omitempty"` // the format's options, as given
	Limits  Limits          `json:"limits"`
	// Models is the cast: role → "provider/model", "*" for every role
	// without its own; empty when no model answers (data-only agents). A
	// resumed debate runs with this cast (as changed by CastChanged events),
	// never with whatever the environment offers then.
	Models map[string]string `json:"models,omitempty"`
	// Endpoints are the base URLs the cast's providers were reached at,
	// provider → URL, when not the provider's default (a local server).
	Endpoints map[string]string `json:"endpoints,omitempty"`
	// Idempotency names the request that created the debate when it gave
	// an idempotency key (the API's Idempotency-Key header), which the
	// debate's id derives from: the request sent again with that key is
	// answered with this debate.
	Idempotency *Idempotency `json:"idempotency,omitempty"`
}

// Idempotency is a request's idempotency key and a digest of what it asked
// (its front-end's), which tells the request sent again from another one
// sent with the same key.
type Idempotency struct {
	Key     string `json:"key"`
	Request string `json:"request"`
}

// CastChanged records that a resume switched a role to another model, as the
// user asked explicitly.
type CastChanged struct {
	Role     string `json:"role"`           // "*" for every role without its own
	From     string `json:"from,omitempty"` // "provider/model"; "" when data-only
	To       string `json:"to,omitempty"`   // "" for data-only
	Endpoint string `json:"endpoint,omitempty"`
}

// EventType implements Payload.
func (CastChanged) EventType() string { return TypeCastChanged }

// EventType implements Payload.
func (Created) EventType() string { return TypeCreated }

// PhaseChanged names the phase the debate entered, for headers and resume prompts.
type PhaseChanged struct {
	Phase string `json:"phase"`
	Label string `json:"label"` // "Phase 2 (Bear Opening)"
	Round int    `json:"round,omitempty"`
}

// EventType implements Payload.
func (PhaseChanged) EventType() string { return TypePhase }

// TurnStarted records that an attempt at a turn began.
type TurnStarted struct {
	Turn    TurnRef `json:"turn"`
	Attempt int     `json:"attempt"`
	Model   string  `json:"model,omitempty"`
}

// EventType implements Payload.
func (TurnStarted) EventType() string { return TypeTurnStarted }

// TurnRef identifies a turn and where it stands in the debate.
type TurnRef struct {
	ID    string `json:"id"`
	Agent string `json:"agent"`
	Role  string `json:"role,omitempty"`
	Label string `json:"label,omitempty"`
	Phase string `json:"phase,omitempty"`
	Round int    `json:"round,omitempty"`
	// Structured turns answer in JSON; live views describe the result rather
	// than stream raw JSON.
	Structured bool `json:"structured,omitempty"`
}

// TurnDelta carries streamed text of the current attempt.
type TurnDelta struct {
	Turn string `json:"turn"`
	Text string `json:"text"`
}

// EventType implements Payload.
func (TurnDelta) EventType() string { return TypeTurnDelta }

// TurnSuperseded marks the partial text of an interrupted attempt as replaced:
// the turn runs again from its start, and the partial text stays in the log.
type TurnSuperseded struct {
	Turn    string `json:"turn"`
	Partial string `json:"partial"`
	Reason  string `json:"reason"`
}

// EventType implements Payload.
func (TurnSuperseded) EventType() string { return TypeTurnSuperseded }

// TurnRepair records a reply that did not parse; the model is shown the error
// and asked once more.
type TurnRepair struct {
	Turn  string `json:"turn"`
	Text  string `json:"text"`
	Error string `json:"error"`
}

// EventType implements Payload.
func (TurnRepair) EventType() string { return TypeTurnRepair }

// TurnFailed records a failed attempt.
type TurnFailed struct {
	Turn      string        `json:"turn"`
	Attempt   int           `json:"attempt"`
	Error     string        `json:"error"`
	Retryable bool          `json:"retryable"`
	RetryIn   time.Duration `json:"retry_in,omitempty"`
}

// EventType implements Payload.
func (TurnFailed) EventType() string { return TypeTurnFailed }

// TurnCompleted is a finished turn: its text, its parsed move (or why none
// could be parsed), and what it cost.
type TurnCompleted struct {
	Turn    TurnRef         `json:"turn"`
	Text    string          `json:"text"`
	Move    json.RawMessage `json:"move,omitempty"`
	Invalid string          `json:"invalid,omitempty"` // parse error left after the repair turn
	Usage   llm.Usage       `json:"usage"`
	CostUSD float64         `json:"cost_usd,omitempty"`
	// Priced records that CostUSD came from a known price, the runner's
	// table with the user's overrides: a $0 cost is then free, not unknown,
	// whichever table a reader has (see CostUnknown). Turns recorded
	// before it existed have it false.
	Priced bool   `json:"priced,omitempty"`
	Model  string `json:"model,omitempty"`
	Hints  []int  `json:"hints,omitempty"` // hint ids applied in this turn
	NoLLM  bool   `json:"no_llm,omitempty"`
}

// EventType implements Payload.
func (TurnCompleted) EventType() string { return TypeTurnCompleted }

// ToolCalled records a tool call made by an agent.
type ToolCalled struct {
	Turn string       `json:"turn"`
	Call llm.ToolCall `json:"call"`
}

// EventType implements Payload.
func (ToolCalled) EventType() string { return TypeToolCalled }

// ToolResult records a tool's answer.
type ToolResult struct {
	Turn    string `json:"turn"`
	CallID  string `json:"call_id"`
	Name    string `json:"name"`
	Content string `json:"content"`
	IsError bool   `json:"is_error,omitempty"`
	Cached  bool   `json:"cached,omitempty"`
}

// EventType implements Payload.
func (ToolResult) EventType() string { return TypeToolResult }

// HintQueued is human guidance for one agent (or "all"), applied to that
// agent's next turn.
type HintQueued struct {
	ID     int    `json:"id"`
	Target string `json:"target"`
	Text   string `json:"text"`
}

// EventType implements Payload.
func (HintQueued) EventType() string { return TypeHintQueued }

// CheckpointReached asks the human whether to go on.
type CheckpointReached struct {
	ID      string   `json:"id"`
	Round   int      `json:"round"`
	Summary string   `json:"summary"`
	Options []string `json:"options"` // "continue", "guide", "end"
}

// EventType implements Payload.
func (CheckpointReached) EventType() string { return TypeCheckpoint }

// Checkpoint actions.
const (
	ActionContinue = "continue"
	ActionGuide    = "guide"
	ActionEnd      = "end"
)

// CheckpointAnswered is the human's answer.
type CheckpointAnswered struct {
	ID       string `json:"id"`
	Action   string `json:"action"`
	Guidance string `json:"guidance,omitempty"`
}

// EventType implements Payload.
func (CheckpointAnswered) EventType() string { return TypeCheckpointAnswer }

// BudgetWarning is raised once when a budget passes 80%.
type BudgetWarning struct {
	Scope  string `json:"scope"` // "debate" or "round 2 / performance"
	Used   int    `json:"used"`
	Budget int    `json:"budget"`
	// Turn is the turn whose reply passed an agent's budget for its
	// round, logged just before that turn's completion, so that a view
	// shows the warning under the turn's heading rather than under
	// whichever turn streams next; empty for the debate's budget (and in
	// logs written before it was recorded).
	Turn string `json:"turn,omitempty"`
}

// EventType implements Payload.
func (BudgetWarning) EventType() string { return TypeBudgetWarning }

// Paused stops a debate in a resumable state.
type Paused struct {
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// EventType implements Payload.
func (Paused) EventType() string { return TypePaused }

// Pause reasons.
const (
	PauseInterrupted  = "interrupted"
	PauseOnRequest    = "pause requested"
	PauseCheckpoint   = "checkpoint timeout"
	PauseBudget       = "token budget"
	PauseTimeout      = "debate timeout"
	PauseRoundTimeout = "round timeout"
	PauseError        = "error"
)

// PauseCheckpointUnanswered is a checkpoint left without an answer before
// any timeout: no one is there to answer (a worker's or a server's run), or
// the answer could not be read (standard input ended). Such a pause said
// "checkpoint timeout" where nothing had timed out.
const PauseCheckpointUnanswered = "checkpoint unanswered"

// PauseRequest asks the runner of a debate to pause it, wherever that
// runner is: a front-end in another process (the server, with the debate on
// a worker) appends it, and the runner, which watches its log for events it
// did not write, pauses as when interrupted, with reason PauseOnRequest.
// Owner, when set, is the lease owner the request is for: a request that
// arrives after that runner stopped does not pause the next run.
type PauseRequest struct {
	Owner string `json:"owner,omitempty"`
}

// EventType implements Payload.
func (PauseRequest) EventType() string { return TypePauseRequest }

// Queued records that a run of the debate waits in the job queue for a
// worker to take it up. The queue appends it in the transaction that
// enqueues the job (internal/jobs), so that the log says queued if and only
// if a job was enqueued; the debate stands queued until a runner appends to
// its log (see EndsQueued). A worker that gives up on a job that no worker
// will retry appends a pause, so that a log never says queued for a job that
// is gone.
type Queued struct {
	// Queue is the job queue: a provider's name, or "data".
	Queue string `json:"queue,omitempty"`
	// Reason is why the run was queued: QueuedCreated and the others.
	Reason string `json:"reason,omitempty"`
	// Detail says more, for a retry the error that stopped the attempt
	// before.
	Detail string `json:"detail,omitempty"`
}

// EventType implements Payload.
func (Queued) EventType() string { return TypeQueued }

// Queued reasons.
const (
	QueuedCreated  = "created"             // a new debate's first run
	QueuedAnswered = "checkpoint answered" // the run after a checkpoint's answer
	QueuedResumed  = "resumed"             // asked to go on (the API, a batch)
	QueuedCutOff   = "cut off"             // its job was cancelled mid-turn (a timeout, a worker stopping)
	QueuedHandover = "handed over"         // its worker stopped between two steps
	QueuedTakeover = "worker died"         // its worker died; another takes over
	QueuedRetry    = "retry"               // an attempt failed; the queue tries again later
)

// EndsQueued reports whether an event of type t, appended to a queued
// debate, shows that a runner has it: every event but the ones a front-end
// appends to a debate it does not run (a hint, a pause request, a document
// written) and another Queued.
func EndsQueued(t string) bool {
	switch t {
	case TypeQueued, TypeHintQueued, TypePauseRequest, TypeArtifact:
		return false
	}
	return true
}

// Resumed marks a new run of an unfinished debate.
type Resumed struct {
	FromSeq int64 `json:"from_seq"`
	// Checkpoint is the ID of the checkpoint the run resumes at, still
	// waiting for its answer ("" for none): the debate stands at that
	// checkpoint, not running, and a projection that keeps no checkpoints
	// (a store's Summary) learns it here.
	Checkpoint string `json:"checkpoint,omitempty"`
}

// EventType implements Payload.
func (Resumed) EventType() string { return TypeResumed }

// Verdict is the format's final result, in the format's own JSON shape.
type Verdict struct {
	Data json.RawMessage `json:"data"`
}

// EventType implements Payload.
func (Verdict) EventType() string { return TypeVerdict }

// Completed ends a debate.
type Completed struct {
	Reason string `json:"reason,omitempty"`
}

// EventType implements Payload.
func (Completed) EventType() string { return TypeCompleted }

// Failed ends a debate that cannot go on (a bug or a permanent error such as
// an invalid key); it can still be resumed once the cause is fixed.
type Failed struct {
	Error string `json:"error"`
}

// EventType implements Payload.
func (Failed) EventType() string { return TypeFailed }

// ArtifactWritten records a file the debate produced (a decision document).
type ArtifactWritten struct {
	Kind string `json:"kind"`
	Path string `json:"path"`
}

// EventType implements Payload.
func (ArtifactWritten) EventType() string { return TypeArtifact }

// Note is a format-specific event (crux stage transitions, fact-check results,
// moderator interventions...). Its type is TypeFormatEventPrefix + Kind.
type Note struct {
	Kind string          `json:"kind"`
	Data json.RawMessage `json:"data,omitempty"`
	Text string          `json:"text,omitempty"` // one line for live views
}

// EventType implements Payload.
func (n Note) EventType() string { return TypeFormatEventPrefix + n.Kind }
