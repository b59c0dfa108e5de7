package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/sec/factcheck"
	"github.com/parleyhq/parley/internal/setup"
)

// Asker is a format with follow-up questions of its own (bullbear: each
// agent answers in the role and with the record it debated with). Every
// other format takes follow-ups through the generic asker here, with the
// agent's view of the debate as context.
type Asker interface {
	Ask(s *debate.State, agent, question string) (debate.TurnSpec, debate.Note, error)
}

// AskRequest is a follow-up question to one agent of a finished debate.
type AskRequest struct {
	ID       string // a debate id or a unique prefix of one
	Agent    string // an agent of the debate, or a unique prefix of its name
	Question string
	// Models, when given, choose the model that answers; otherwise the
	// model the debate recorded for the agent's role answers, else the
	// model the environment configures.
	Models Models
}

// ErrUnfinished is returned for a follow-up to a debate that has not ended.
var ErrUnfinished = errors.New("the debate has not finished")

// UnfinishedError is a follow-up to a debate that has not ended. Status is
// where it stands as 'parley list' shows it (interrupted when its runner
// is gone, queued for a worker), not its log's last word, which says
// running for a debate whose process died.
type UnfinishedError struct {
	ID     string
	Status debate.Status
}

func (e *UnfinishedError) Error() string {
	msg := fmt.Sprintf("debate %s: %v (it is %s): follow-up questions come after it ends", e.ID, ErrUnfinished, e.Status)
	if where, elsewhere := RunElsewhere(e.Status); elsewhere {
		msg = fmt.Sprintf("debate %s: %v (it is %s): follow-up questions come after it ends; ask again when it has ended", e.ID, ErrUnfinished, where)
	}
	return msg
}

func (e *UnfinishedError) Unwrap() error { return ErrUnfinished }

// Resumable says whether resuming the debate here would finish it: not
// when a worker or another process runs it, which a resume is refused.
func (e *UnfinishedError) Resumable() bool {
	_, elsewhere := RunElsewhere(e.Status)
	return !elsewhere
}

// ErrNoAgent is wrapped by Ask's error when the request names no agent;
// the error lists the debate's agents, so a front-end can say which
// option or word names one.
var ErrNoAgent = errors.New("no agent named")

// MaxQuestionLen bounds a follow-up question.
const MaxQuestionLen = 2000

// askMaxTokens bounds a follow-up answer: a few paragraphs.
const askMaxTokens = 1500

// maxRecord bounds the debate record a generic follow-up sends: the most
// recent turns are kept, the earliest dropped first.
const maxRecord = 120_000

// FollowUp is a follow-up question ready to be answered.
type FollowUp struct {
	State    *debate.State
	Format   debate.Format
	Spec     debate.TurnSpec
	Note     debate.Note
	Model    debate.Model
	Question string

	app *App
}

// Ask prepares a follow-up question to an agent of a finished debate: the
// turn that answers it, the note that records it and the model that
// answers. Bad input (no such debate or agent, an empty question, a debate
// not finished) is a *setup.InputError; no model a *setup.ConfigError.
func (a *App) Ask(ctx context.Context, req AskRequest) (*FollowUp, error) {
	question := strings.TrimSpace(req.Question)
	switch {
	case question == "":
		return nil, setup.Inputf("the question is empty: ask something, for example \"What would change your mind?\"")
	case !utf8.ValidString(question):
		return nil, setup.Inputf("the question is not valid UTF-8")
	case utf8.RuneCountInString(question) > MaxQuestionLen:
		return nil, setup.Inputf("the question is %d characters; keep it under %d", utf8.RuneCountInString(question), MaxQuestionLen)
	case !setup.HasWords(question):
		// Sent, it would be paid for and answered about nothing.
		return nil, setup.Inputf("the question %q has no words: ask something, for example \"What would change your mind?\"", question)
	}
	st, format, err := a.Load(ctx, req.ID)
	if err != nil {
		return nil, err
	}
	if st.Status != debate.StatusCompleted {
		return nil, &setup.InputError{Err: &UnfinishedError{ID: st.ID, Status: a.Standing(ctx, st).Shown}}
	}
	if strings.TrimSpace(req.Agent) == "" {
		return nil, &setup.InputError{Err: fmt.Errorf("debate %s: %w: ask one of %s", st.ID, ErrNoAgent, strings.Join(Agents(st), ", "))}
	}
	var spec debate.TurnSpec
	var note debate.Note
	if asker, ok := format.(Asker); ok {
		// The agent is named as in every format, by a unique prefix
		// too ("mod"), before the format's own follow-ups take it.
		agent := req.Agent
		if m := MatchAgent(Agents(st), agent); m != "" {
			agent = m
		}
		spec, note, err = asker.Ask(st, agent, question)
	} else {
		spec, note, err = GenericAsk(st, req.Agent, question)
	}
	if err != nil {
		return nil, &setup.InputError{Err: fmt.Errorf("debate %s: %w", st.ID, err)}
	}
	model, err := a.askModel(st, spec.TurnRef, req.Models)
	if err != nil {
		return nil, err
	}
	return &FollowUp{State: st, Format: format, Spec: spec, Note: note, Model: model, Question: question, app: a}, nil
}

// askModel picks the model that answers a follow-up: the one given, else
// the one the debate recorded for the turn, else the environment's.
func (a *App) askModel(st *debate.State, t debate.TurnRef, mf Models) (debate.Model, error) {
	var cast debate.Cast
	mf, err := askModelFor(st, t, mf)
	if err != nil {
		return debate.Model{}, err
	}
	switch {
	case mf.Given() || len(st.Models) == 0:
		cast, _, err = ResolveCast(mf, a.Env.Getenv)
	default:
		cast, err = castFromRecord(st.ID, st.Models, st.Endpoints, a.Env.Getenv, true)
	}
	if err != nil {
		return debate.Model{}, &setup.ConfigError{Err: err}
	}
	m, ok := CastModel(cast, t)
	if !ok {
		return debate.Model{}, &setup.ConfigError{Err: fmt.Errorf("a follow-up question needs a language model, and none is configured for the %s. "+
			"Parley's data-only agents argue from fixed rules and cannot answer free questions. %s", t.Agent, setup.HowToConfigure)}
	}
	return m, nil
}

// askModelFor reads --model-for of a follow-up: its key names the agent
// asked (as --agent does: its name, or a unique prefix of it) or the
// agent's role, and becomes the role's. A key for another agent or role
// chose nothing, and the question went to the environment's default model,
// neither the one recorded nor the one named.
func askModelFor(st *debate.State, t debate.TurnRef, mf Models) (Models, error) {
	if len(mf.ModelFor) == 0 {
		return mf, nil
	}
	specs := make([]string, len(mf.ModelFor))
	for i, spec := range mf.ModelFor {
		key, ref, ok := strings.Cut(spec, "=")
		key = strings.TrimSpace(key)
		specs[i] = spec
		if !ok || key == "" {
			continue // ResolveCast says how to write it
		}
		if k := agentKey(key); k == agentKey(t.Role) || k == agentKey(t.Agent) || MatchAgent(Agents(st), key) == t.Agent {
			specs[i] = t.Role + "=" + ref
			continue
		}
		return mf, setup.Inputf("--model-for %s: the question goes to %s, not to %q: write --model-for %s=[PROVIDER/]MODEL (or its role, %s), or --model", spec, t.Agent, key, t.Agent, t.Role)
	}
	mf.ModelFor = specs
	return mf, nil
}

// CastModel picks the model for a turn as the runner does: by agent, by
// role, or the default.
func CastModel(c debate.Cast, t debate.TurnRef) (debate.Model, bool) {
	if m, ok := c.ByAgent[t.Agent]; ok && m.Provider != nil {
		return m, true
	}
	if m, ok := c.ByRole[t.Role]; ok && m.Provider != nil {
		return m, true
	}
	return c.Default, c.Default.Provider != nil
}

// Answer streams the answer to onText (the model's raw text, for the
// front-end to make inert) and, once it is complete, appends the question's
// note and the answer's completed turn in one append. An answer cut off
// (error, Ctrl+C) leaves the log unchanged: the debate is finished, and a
// half answer is not worth resuming.
func (f *FollowUp) Answer(ctx context.Context, onText func(string)) (debate.TurnCompleted, error) {
	spec, model, id := f.Spec, f.Model, f.State.ID
	req := llm.Request{
		Model: model.Name, System: spec.System, Messages: spec.Messages, CacheSystem: true,
		MaxTokens: spec.MaxTokens, Temperature: spec.Temperature, Tag: spec.ID,
	}
	// Each call is bounded as a turn's is, by the debate's call timeout,
	// or a server that stalls held the question open for ever.
	timeout := f.State.Limits.CallTimeout
	if timeout <= 0 {
		timeout = debate.DefaultLimits().CallTimeout
	}
	reply, err := askWithRetries(ctx, model.Provider, req, onText, askWait, timeout)
	if err != nil {
		return debate.TurnCompleted{}, err
	}
	// An answer cut at the token limit or the context window, or one the
	// model declined to give, is kept as far as it came, as a debate's
	// turn is, and marked: shown whole and unmarked, it read as the
	// model's whole answer.
	invalid := ""
	switch {
	case reply.oversize:
		invalid = fmt.Sprintf("the reply was cut at %d KB: no answer asks for that much; the server kept sending", debate.MaxReplyBytes>>10)
	case llm.Incomplete(reply.StopReason) || reply.StopReason == llm.StopRefusal:
		invalid = debate.StopProblem(reply.StopReason, reply.StopDetail, req.MaxTokens, model.Name)
	}
	// NUL characters (PostgreSQL's text refuses them: the answer was lost,
	// not saved) and bytes not UTF-8 are made storable as a turn's are.
	answer := strings.TrimSpace(debate.ModelText(reply.Text))
	if answer == "" && invalid != "" {
		return debate.TurnCompleted{}, fmt.Errorf("%s gave no answer: %s", model, invalid)
	}
	if answer == "" {
		return debate.TurnCompleted{}, fmt.Errorf("%s answered with no text", model)
	}
	usage := reply.Usage
	store := f.app.Store
	// Another follow-up may have been saved with the same number while this
	// one streamed; a second completion of one turn id would make the log
	// unreadable. Look again just before appending (the store has no
	// conditional append, so a window of a few milliseconds remains).
	if evs, err := store.Load(ctx, id, 0); err == nil {
		if st, err := debate.Fold(evs); err == nil && st.Completed(spec.ID) != nil {
			return debate.TurnCompleted{}, fmt.Errorf("another follow-up was saved as %s while this one was answered; ask again to save this one", spec.ID)
		}
	}
	cost, priced := f.app.price()(model.String(), usage)
	tc := debate.TurnCompleted{Turn: spec.TurnRef, Text: answer, Invalid: invalid, Usage: usage, CostUSD: cost, Priced: priced, Model: model.String()}
	at := f.app.now()
	var evs []debate.Event
	for _, p := range []debate.Payload{f.Note, tc} {
		e, err := debate.NewEvent(id, at, p)
		if err != nil {
			return debate.TurnCompleted{}, err
		}
		evs = append(evs, e)
	}
	if _, err := store.Append(context.WithoutCancel(ctx), id, evs...); err != nil {
		return debate.TurnCompleted{}, fmt.Errorf("save the follow-up to debate %s: %w", id, err)
	}
	return tc, nil
}

// askAttempts bounds the calls a follow-up makes; askWait is the first
// wait between them, doubled each time; askMaxWait the most a server's
// Retry-After is waited for.
const (
	askAttempts = 3
	askWait     = time.Second
	askMaxWait  = 30 * time.Second
)

// askReply is a follow-up's answer as it came.
type askReply struct {
	llm.Reply
	// oversize is set when the server sent more than debate.MaxReplyBytes,
	// which was not read.
	oversize bool
}

// askWithRetries streams one answer, asking again when the call fails in
// a way worth retrying (rate limited, overloaded, cut off, timed out)
// before any of the answer was passed to onText: text already shown
// cannot be taken back, so a failure after it is the answer's. A debate's
// turns have the runner's retries; a follow-up, outside the runner, has
// these. Each call gets timeout (none when 0), and the answer's text is
// read up to debate.MaxReplyBytes, as a turn's is.
func askWithRetries(ctx context.Context, p llm.Provider, req llm.Request, onText func(string), wait, timeout time.Duration) (askReply, error) {
	for attempt := 1; ; attempt++ {
		var r askReply
		var text strings.Builder
		var err error
		callCtx, cancel := ctx, context.CancelFunc(func() {})
		if timeout > 0 {
			callCtx, cancel = context.WithTimeout(ctx, timeout)
		}
		for c, e := range p.Stream(callCtx, req) {
			if e != nil {
				err = e
				break
			}
			if c.Text != "" {
				if room := debate.MaxReplyBytes - text.Len(); len(c.Text) > room {
					// Stop reading: breaking the loop closes the connection.
					c.Text, r.oversize = strings.ToValidUTF8(c.Text[:max(room, 0)], ""), true
				}
				text.WriteString(c.Text)
				if onText != nil && c.Text != "" {
					onText(c.Text)
				}
				if r.oversize {
					// The counts never came: what the call cost is unknown.
					r.Usage = llm.Usage{Unreported: true}
					break
				}
			}
			if c.Usage != nil {
				r.Usage = r.Usage.Add(*c.Usage)
			}
			if c.StopReason != "" {
				r.StopReason, r.StopDetail = c.StopReason, c.StopDetail
			}
		}
		timedOut := callCtx.Err() != nil && ctx.Err() == nil
		cancel()
		if err == nil {
			r.Text = text.String()
			return r, nil
		}
		if timedOut {
			err = fmt.Errorf("the call timed out after %s: %w", timeout, err)
		}
		tries := askAttempts
		if t := llm.TriesOf(err); t > 0 {
			tries = min(tries, t)
		}
		if text.Len() > 0 || !(llm.IsRetryable(err) || timedOut) || attempt >= tries || ctx.Err() != nil {
			return askReply{}, err
		}
		d := wait
		if ra := llm.RetryAfterOf(err); ra > d {
			switch {
			case ra > llm.LongestMeantWait:
				return askReply{}, fmt.Errorf("%w\nthe server asks to wait %s before trying again, which no rate limit means: Parley gives up rather than wait; "+
					"the server (or a proxy in front of it) sends a broken Retry-After, or refuses these calls: check it, or use another", err, llm.WaitText(ra))
			case ra > askMaxWait:
				return askReply{}, fmt.Errorf("%w\nthe server asks to wait %s before trying again: ask again after that", err, llm.WaitText(ra))
			}
			d = ra
		}
		select {
		case <-ctx.Done():
			return askReply{}, err
		case <-time.After(d):
		}
		wait *= 2
	}
}

// Check holds an answer to the filings like the debate's other texts, for
// formats that check figures (bullbear); nil otherwise.
func (f *FollowUp) Check(answer string) []factcheck.Finding {
	if c, ok := f.Format.(interface {
		CheckAnswer(*debate.State, string, string) []factcheck.Finding
	}); ok {
		return c.CheckAnswer(f.State, f.Spec.Agent, answer)
	}
	return nil
}

func (a *App) now() time.Time {
	if a.Env.Now != nil {
		return a.Env.Now()
	}
	return time.Now()
}

// Agents lists who can be asked a follow-up in a debate: the agents that
// took turns in it, sorted.
func Agents(s *debate.State) []string {
	seen := map[string]bool{}
	for _, t := range s.Turns {
		if !report.IsAsk(t) {
			seen[t.Agent] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// MatchAgent finds the agent typed among agents: the name in any case,
// written as the transcript shows it ("Performance Advocate" for
// performance-advocate: spaces and underscores read as hyphens), or a unique
// prefix of it ("perf"). It returns "" when none or several match.
func MatchAgent(agents []string, typed string) string {
	typed = agentKey(typed)
	if typed == "" {
		return ""
	}
	found := ""
	for _, a := range agents {
		switch key := agentKey(a); {
		case key == typed:
			return a
		case strings.HasPrefix(key, typed):
			if found != "" {
				return ""
			}
			found = a
		}
	}
	return found
}

// agentKey is an agent's name as MatchAgent compares it: lower case, words
// joined by single hyphens.
func agentKey(s string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return r == '-' || r == '_' || unicode.IsSpace(r)
	}), "-")
}

// GenericAsk prepares a follow-up question for a format without follow-ups
// of its own: the agent answers in the role it debated in, with the debate
// as it saw it (every turn of the debate, and the earlier follow-ups) as
// context. The record comes first and is the same for every question, so
// that a provider with prompt caching reads it from the cache from the
// second question on.
func GenericAsk(s *debate.State, typed, question string) (debate.TurnSpec, debate.Note, error) {
	agents := Agents(s)
	agent := MatchAgent(agents, typed)
	if agent == "" {
		return debate.TurnSpec{}, debate.Note{}, fmt.Errorf("no agent %q in this debate: ask one of %s", strings.TrimSpace(typed), strings.Join(agents, ", "))
	}
	question = strings.TrimSpace(question)
	if question == "" {
		return debate.TurnSpec{}, debate.Note{}, errors.New("the question is empty: ask something, for example \"What would change your mind?\"")
	}
	var last *debate.Turn
	for _, t := range s.CompletedTurns() {
		if t.Agent == agent && !report.IsAsk(t) {
			last = t
		}
	}
	role := agent
	if last != nil && last.Role != "" {
		role = last.Role
	}
	prev := report.FollowUps(s)
	n := len(prev) + 1
	for s.Turns[fmt.Sprintf("%s%d/%s", report.AskTurnPrefix, n, agent)] != nil {
		n++ // a turn of that id started once and was never saved with its note
	}
	id := fmt.Sprintf("%s%d/%s", report.AskTurnPrefix, n, agent)

	name := report.AgentNamer(s)(agent)
	moderator := role == "moderator" || agent == "moderator"
	var system string
	if moderator {
		system = fmt.Sprintf("You moderated a structured debate (Parley's %s format) on the question: %q. You were impartial and judged the arguments on their evidence; you stay so now.", s.Format, s.Topic)
	} else {
		system = fmt.Sprintf("You took part in a structured debate (Parley's %s format) on the question: %q, as %s (agent %q in the record; your role: %s). You argued your assigned side; you stay in that role now.", s.Format, s.Topic, name, agent, role)
	}
	var task strings.Builder
	if len(prev) > 0 {
		task.WriteString("EARLIER FOLLOW-UP QUESTIONS:\n")
		for _, f := range prev {
			fmt.Fprintf(&task, "Q (to %s): %s\n", f.Agent, f.Question)
			if f.Answer != nil {
				fmt.Fprintf(&task, "A (%s): %s\n", f.Agent, strings.TrimSpace(f.Answer.Text))
			}
			task.WriteString("\n")
		}
	}
	fmt.Fprintf(&task, "FOLLOW-UP QUESTION from the user, after the debate, to %s:\n%s\n\n", name, question)
	if moderator {
		task.WriteString("Answer as the moderator: impartially, from the arguments above, in plain prose (no JSON). Say which side the arguments favour on this question and what would change that.")
	} else {
		task.WriteString("Answer in your role, in plain prose (no JSON): stay consistent with what you argued, name the evidence you rely on, concede what the others got right, and keep to a few short paragraphs.")
	}
	spec := debate.TurnSpec{
		TurnRef: debate.TurnRef{ID: id, Agent: agent, Role: role, Label: name + " · follow-up", Phase: "ask"},
		System:  system,
		Messages: []llm.Message{
			{Role: llm.RoleUser, Text: record(s), Cache: true},
			{Role: llm.RoleUser, Text: task.String()},
		},
		MaxTokens:  askMaxTokens,
		Unbudgeted: true,
	}
	data, err := json.Marshal(report.AskData{Turn: id, Agent: agent, Question: question})
	if err != nil {
		return debate.TurnSpec{}, debate.Note{}, err
	}
	return spec, debate.Note{Kind: report.NoteAsk, Text: fmt.Sprintf("Follow-up to %s: %s", agent, question), Data: data}, nil
}

// record is the debate as every agent saw it: its turns in the order they
// completed, under their labels, then the outcome.
func record(s *debate.State) string {
	var parts []string
	for _, t := range s.CompletedTurns() {
		if report.IsAsk(t) {
			continue
		}
		label := t.Label
		if label == "" {
			label = t.ID
		}
		parts = append(parts, fmt.Sprintf("%s (%s, turn %s):\n%s\n\n", strings.ToUpper(label), t.Agent, t.ID, strings.TrimSpace(t.Text)))
	}
	if len(s.Verdict) > 0 {
		parts = append(parts, fmt.Sprintf("OUTCOME (the debate's verdict, as recorded):\n%s\n", s.Verdict))
	}
	head := fmt.Sprintf("THE DEBATE (finished) on: %s\n\n", s.Topic)
	size := len(head)
	first := len(parts)
	for first > 0 && size+len(parts[first-1]) <= maxRecord {
		first--
		size += len(parts[first])
	}
	var b strings.Builder
	b.WriteString(head)
	if first > 0 {
		fmt.Fprintf(&b, "(the first %d turns are left out for length)\n\n", first)
	}
	for _, p := range parts[first:] {
		b.WriteString(p)
	}
	return b.String()
}
