package debate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/parleyhq/parley/internal/llm"
)

// Protocol is one debate format's rules. It is deterministic and does no I/O:
// given the same state it returns the same step, so that a resumed debate takes
// the path the interrupted one would have taken.
type Protocol interface {
	// Next says what happens now. The runner applies the step (appends its
	// events, runs its turns, or asks the checkpoint) and calls Next again on
	// the new state.
	Next(s *State) (Step, error)
	// Parse turns a reply into the turn's typed move. An error wrapping
	// ErrRepairable makes the runner show the model the error once and ask
	// again; any other error, or a second failure, completes the turn with
	// Invalid set, and the protocol decides what that means (ask again under
	// a new turn id, forfeit, fall back).
	Parse(s *State, t TurnSpec, text string) (any, error)
}

// ErrRepairable marks a parse error the model can fix when shown it.
var ErrRepairable = errors.New("reply does not parse")

// Step is what a protocol wants next. At most one of Turns, Checkpoint or Done
// is set; Emit may accompany any of them and is appended first. A step with
// Emit alone only records events: the runner appends them and calls Next again.
type Step struct {
	Emit []Payload
	// Turns run concurrently; a single turn runs alone. They must not be
	// completed already.
	Turns      []TurnSpec
	Checkpoint *CheckpointReached
	// Pause stops the debate in a resumable state with this reason and
	// detail (see ResultAttempt).
	Pause *Paused
	// Done ends the debate with the verdict (any JSON-encodable value).
	Done    bool
	Verdict any
	Reason  string
}

// TurnSpec is one agent turn to run.
type TurnSpec struct {
	TurnRef
	// System and Messages are the prompt. The runner appends tool exchanges
	// and repair messages after them.
	System   string
	Messages []llm.Message
	// UseTools offers the debate's tool registry to this turn.
	UseTools bool
	// Schema asks for structured output; the reply text is then JSON.
	Schema *llm.Schema
	// MaxTokens caps the reply; the runner lowers it to the agent's remaining
	// round budget.
	MaxTokens int
	// Hints lists the ids of pending hints this turn's prompt includes; the
	// runner records them as applied when the turn completes.
	Hints []int
	// Unbudgeted exempts the turn from the per-agent round budget (moderator
	// turns); it still counts against the debate budget.
	Unbudgeted bool
	// Temperature, when set, overrides the provider default.
	Temperature *float64
}

// PauseInvalidResult is the pause of a debate whose result turn (a
// moderator's synthesis) did not validate even after its repair: the
// debate must not count as completed without its result, and a resume asks
// for it again.
const PauseInvalidResult = "invalid result"

// ResultAttempt tracks a turn that must give a valid result before the
// debate can end, such as a moderator's synthesis. Its attempts are id,
// id+"/retry-2", id+"/retry-3", ... ResultAttempt returns the latest
// attempt's completed turn when it is valid; otherwise the id of the attempt
// to run now, or, when the latest attempt is invalid and the debate has not
// been paused on it yet, the step that pauses it (what names the result in
// the pause's detail: "the moderator's synthesis").
func ResultAttempt(s *State, id, what string) (done *Turn, next string, pause *Step) {
	attempt := func(k int) string {
		if k == 1 {
			return id
		}
		return fmt.Sprintf("%s/retry-%d", id, k)
	}
	k := 1
	for s.Completed(attempt(k)) != nil {
		k++
	}
	if k == 1 {
		return nil, id, nil
	}
	last := s.Completed(attempt(k - 1))
	if last.Invalid == "" {
		return last, "", nil
	}
	pauses := 0
	for _, p := range s.Pauses {
		if p.Reason == PauseInvalidResult && strings.HasPrefix(p.Detail, id+":") {
			pauses++
		}
	}
	if pauses >= k-1 {
		return nil, attempt(k), nil
	}
	return nil, "", &Step{Pause: &Paused{Reason: PauseInvalidResult,
		Detail: fmt.Sprintf("%s: %s did not follow the required structure even after a repair (%s); resume to ask for it again", id, what, last.Invalid)}}
}

// Format is a debate format: it makes protocols and renders results.
type Format interface {
	// Name is the format's name ("perspectives").
	Name() string
	// Protocol makes the protocol for a debate from the options it was
	// created with. It validates them and says what is wrong when they are bad.
	Protocol(topic string, options json.RawMessage) (Protocol, error)
	// Render writes the debate as Markdown (full transcript or summary).
	Render(s *State, opt RenderOptions) (string, error)
}

// A DocumentWriter is a format whose completed debates leave documents
// beside their log (a perspectives debate's decision document). The
// application layer writes each, under the directory the front-end names
// (--out-dir), and records it as an artifact.written event of its kind; a
// format without it writes none, and the front-ends refuse the documents'
// options for it.
type DocumentWriter interface {
	Format
	// Documents are the documents it writes, in the order written.
	Documents() []Document
	// DocumentName is where the debate's document of a kind goes under
	// the documents' directory: a relative path, most often a file name,
	// that depends only on the debate (not on when it is written), so
	// that a document written again lands where it was.
	DocumentName(kind string, s *State) string
	// RenderDocument writes the debate's document of a kind as Markdown.
	RenderDocument(kind string, s *State) (string, error)
}

// Document is one of the documents a DocumentWriter writes.
type Document struct {
	// Kind names it in its artifact.written events ("decision") and, for
	// a document written only when asked for, is the front-ends' flag
	// that asks for it (--issue-draft).
	Kind string
	// Title is what the front-ends call it ("Decision document").
	Title string
	// Ask is the usage of that flag; "" for a document always written,
	// which a resume writes again when a completed debate lacks it.
	Ask string
}

// RenderOptions choose what Render writes.
type RenderOptions struct {
	Summary bool // only the result, no transcript
}

// Responder answers a turn without a model: data-only agents that argue from
// evidence. Nothing about it pretends to be an LLM; its turns are marked NoLLM.
type Responder interface {
	Respond(ctx context.Context, s *State, t TurnSpec) (string, error)
}

// Formats is an explicit registry of formats.
type Formats struct{ m map[string]Format }

// NewFormats returns a registry of the given formats.
func NewFormats(fs ...Format) *Formats {
	r := &Formats{m: map[string]Format{}}
	for _, f := range fs {
		r.m[f.Name()] = f
	}
	return r
}

// Get returns the named format or an error listing the known ones.
func (r *Formats) Get(name string) (Format, error) {
	if f, ok := r.m[name]; ok {
		return f, nil
	}
	return nil, fmt.Errorf("unknown format %q: choose one of %s", name, strings.Join(r.Names(), ", "))
}

// Names lists the registered formats, sorted.
func (r *Formats) Names() []string {
	names := make([]string, 0, len(r.m))
	for n := range r.m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DecodeOptions reads a format's options as its log records them (the
// debate.created event's JSON); none gives O's zero value, which the
// format's constructor fills with defaults.
func DecodeOptions[O any](format string, raw json.RawMessage) (O, error) {
	var o O
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &o); err != nil {
			return o, fmt.Errorf("%s options: %w", format, err)
		}
	}
	return o, nil
}

// Caster is a protocol that knows its debaters before they speak: from the
// options it was made with (bullbear's bull and bear, council's agents) or
// from the turns done so far (crux's cast, perspectives' assignment). A hint
// to one of them is queued before its first turn. Pure, as Next is.
type Caster interface {
	// Cast lists the agents, moderators aside, the debate has at s.
	Cast(s *State) []string
}

// HintTargets are the agents of a debate a hint can go to, moderators
// aside: every agent that has had a turn and every one its format's
// protocol (f, nil if not at hand) knows from the options and turns so far.
// Sorted.
func HintTargets(f Format, s *State) []string {
	out := s.Debaters()
	if f == nil {
		return out
	}
	p, err := f.Protocol(s.Topic, s.Options)
	c, ok := p.(Caster)
	if err != nil || !ok {
		return out
	}
	for _, a := range c.Cast(s) {
		if a != "" && a != "moderator" && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}
