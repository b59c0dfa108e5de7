package shell

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/format/bullbear"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/setup"
	pstore "github.com/parleyhq/parley/internal/store"
	"github.com/parleyhq/parley/internal/textsafe"
	"github.com/parleyhq/parley/internal/view"
)

// run is the debate running now: its session, and how to pause it.
type run struct {
	id        string
	sess      *app.Session
	cancel    context.CancelFunc // pauses the debate (as Ctrl+C does)
	subCancel context.CancelFunc // ends the subscription to its log
	stopping  bool
	result    *runDoneMsg   // the run returned; the view catches up with the log
	finished  chan struct{} // closed when the run has returned
}

// debateView is what the shell has shown of one debate: the state folded
// from its log, and the turns on screen. Concurrent turns are never
// interleaved: one streams live, the others are kept and shown whole when it
// ends.
type debateView struct {
	state    *debate.State
	format   debate.Format
	describe func(*debate.Turn) string
	live     string   // the turn streaming now
	running  []string // started and not finished, in start order
	finished []string // completed while another turn was live
	blocks   map[string]*block
}

type (
	startedMsg struct {
		sess    *app.Session
		docs    app.Documents
		resumed bool
		// unattended answers the checkpoints "continue": a resume with
		// --no-checkpoints (app.Unattended).
		unattended bool
		note       string // said before the debate starts
		err        error
	}
	eventMsg struct {
		id string
		e  debate.Event
	}
	subEndMsg struct {
		id  string
		err error
	}
	runDoneMsg struct {
		id      string
		st      *debate.State
		err     error
		written []debate.ArtifactWritten
		werr    error
		lastSeq int64
	}
	hintMsg struct {
		err error
	}
	checkpointMsg struct {
		c     debate.CheckpointReached
		reply chan debate.CheckpointAnswered
	}
)

// start starts a new debate from the plan the resume offer looked up.
func (m *Model) start(req *DebateRequest, p *app.Plan) tea.Cmd {
	a, ctx := m.app, m.ctx
	m.wait("Starting " + app.Truncate(clean(p.Topic()), 40) + "…")
	return func() tea.Msg {
		sess, err := a.StartPlan(ctx, p, nil)
		return startedMsg{sess: sess, docs: req.Docs, err: err}
	}
}

// resume resumes a debate by its id.
func (m *Model) resume(id string, req *DebateRequest) tea.Cmd {
	a, ctx := m.app, m.ctx
	rr := app.ResumeRequest{ID: id}
	docs := app.Documents{}
	unattended := false
	if req != nil {
		rr.Models, rr.Limits, rr.Offline, docs = req.Start.Models, req.Limits, req.Start.Offline, req.Docs
		unattended = req.Start.NoCheckpoints
	}
	m.wait("Resuming " + id + "…")
	return func() tea.Msg {
		if err := a.RunningElsewhere(ctx, id); err != nil {
			return startedMsg{docs: docs, resumed: true, err: err}
		}
		sess, err := a.Resume(ctx, rr)
		return startedMsg{sess: sess, docs: docs, resumed: true, unattended: unattended, err: err}
	}
}

// view returns the view of a debate, loading what its log holds so far
// when the shell has not shown it yet.
func (m *Model) view(id string, format debate.Format, describe func(*debate.Turn) string, load bool) (*debateView, error) {
	if v := m.views[id]; v != nil {
		return v, nil
	}
	v := &debateView{state: &debate.State{Turns: map[string]*debate.Turn{}}, format: format, describe: describe, blocks: map[string]*block{}}
	if load {
		evs, err := m.app.Store.Load(m.ctx, id, 0)
		if err != nil {
			return nil, err
		}
		for _, e := range evs {
			e.Data = textsafe.JSON(e.Data)
			if err := v.state.Apply(e); err != nil {
				return nil, err
			}
		}
	}
	m.views[id] = v
	return v, nil
}

// reload reads a debate's log again (a follow-up added to it), unless the
// debate runs and its subscription keeps the view up to date.
func (m *Model) reload(id string) {
	v := m.views[id]
	if v == nil || (m.run != nil && m.run.id == id) {
		return
	}
	evs, err := m.app.Store.Load(m.ctx, id, 0)
	if err != nil {
		return
	}
	st := &debate.State{Turns: map[string]*debate.Turn{}}
	for _, e := range evs {
		e.Data = textsafe.JSON(e.Data)
		if st.Apply(e) != nil {
			return
		}
	}
	v.state = st
}

// started runs a debate that was created or loaded: one subscription to
// its log feeds the transcript, the run goes on in a goroutine.
func (m *Model) started(msg startedMsg) tea.Cmd {
	m.busy = ""
	if msg.err != nil {
		m.fail(msg.err)
		return m.afterRun()
	}
	if msg.note != "" {
		m.say(dim, msg.note)
	}
	sess := msg.sess
	v, err := m.view(sess.ID, sess.Format, sess.Describer(), msg.resumed)
	if err != nil {
		m.fail(err)
		return nil
	}
	m.current = sess.ID
	if msg.resumed {
		where := v.state.Phase.Label
		if where == "" {
			where = "the start"
		}
		m.say(dim, fmt.Sprintf("Resuming %s (%s, %s), stopped at %s.", sess.ID, sess.Format.Name(), app.Truncate(clean(sess.Topic), 60), where))
	}
	for _, n := range sess.Notices {
		m.say(dim, clean(n))
	}
	m.say(dim, app.DescribeCast(sess.Models, sess.DataOnly))

	runCtx, cancel := context.WithCancel(m.ctx)
	subCtx, subCancel := context.WithCancel(m.ctx)
	r := &run{id: sess.ID, sess: sess, cancel: cancel, subCancel: subCancel, finished: make(chan struct{})}
	m.run = r
	send, store, a, docs := m.send, m.app.Store, m.app, msg.docs
	var answers debate.Human = human{send: send}
	if msg.unattended {
		answers = app.Unattended{Said: func(debate.CheckpointReached) {
			send(noticeMsg{text: "Checkpoint: continuing (--no-checkpoints)"})
		}}
	}
	from := v.state.LastSeq
	go func() {
		defer guard(send)
		// Resubscribe: a read of the log that fails (PostgreSQL restarting)
		// must not end the transcript while the run goes on, or the shell
		// would wait for events it no longer reads.
		for e, err := range pstore.Resubscribe(subCtx, store, sess.ID, from) {
			if err != nil {
				send(subEndMsg{id: sess.ID, err: err})
				return
			}
			send(eventMsg{id: sess.ID, e: e})
		}
	}()
	go func() {
		defer guard(send)
		// Closed on a panic too: leaving the shell waits for it.
		finish := sync.OnceFunc(func() { close(r.finished) })
		defer finish()
		defer cancel()
		st, err := sess.Run(runCtx, answers)
		done := runDoneMsg{id: sess.ID, st: st, err: err}
		if err == nil && st != nil {
			done.written, done.werr = a.WriteArtifacts(context.WithoutCancel(runCtx), sess.Format, st, docs)
		}
		if sum, gerr := store.Get(context.WithoutCancel(runCtx), sess.ID); gerr == nil {
			done.lastSeq = sum.LastSeq
		} else if st != nil {
			done.lastSeq = st.LastSeq
		}
		finish()
		send(done)
	}()
	return nil
}

// runDone records that the run returned; the run ends for the shell once
// the transcript has caught up with the log.
func (m *Model) runDone(msg runDoneMsg) tea.Cmd {
	if m.run == nil || m.run.id != msg.id {
		return nil
	}
	m.run.result = &msg
	return m.maybeFinish()
}

func (m *Model) maybeFinish() tea.Cmd {
	r := m.run
	if r == nil || r.result == nil {
		return nil
	}
	if v := m.views[r.id]; v != nil && v.state.LastSeq < r.result.lastSeq {
		return nil
	}
	return m.finish()
}

// finish ends a run: the decision and what the debate cost when it
// completed, how to go on when it paused.
func (m *Model) finish() tea.Cmd {
	r := m.run
	res := r.result
	r.subCancel()
	m.run, m.check = nil, nil
	v := m.views[r.id]
	m.tr.finishLive()
	var pe *debate.PausedError
	switch {
	case res.err == nil && res.st != nil && res.st.Status == debate.StatusCompleted:
		if doc, err := app.RenderDoc(v.format, res.st, true); err == nil {
			m.tr.add(&block{gap: true, segs: []segment{{text: prose(doc)}}, markdown: true})
		}
		for _, a := range res.written {
			m.say(dim, fmt.Sprintf("%s written to %s", app.ArtifactTitle(v.format, a.Kind), a.Path))
		}
		if res.werr != nil {
			m.fail(res.werr)
		}
		m.say(dim, fmt.Sprintf("Debate %s: %s. /ask AGENT QUESTION for a follow-up, /export %s --as md|json|pdf for the document.",
			res.st.ID, app.DebateTotals(res.st), res.st.ID))
	case errors.As(res.err, &pe):
		if m.quitting {
			m.leftPaused = r.id
		}
		where := ""
		if res.st != nil && res.st.Phase.Label != "" {
			where = " at " + res.st.Phase.Label
		}
		if pe.Reason == debate.PauseBudget {
			// A plain /resume keeps the budget, and so pauses again at once.
			flag := "--debate-budget"
			if strings.Contains(pe.Detail, "--turn-budget") {
				flag = "--turn-budget"
			}
			m.say(warn, fmt.Sprintf("Debate %s paused%s. Type /debate --resume %s %s N to go on with a larger budget (as the pause says).", r.id, where, r.id, flag))
			break
		}
		m.say(warn, fmt.Sprintf("Debate %s paused%s. Type /resume to go on.", r.id, where))
	case res.err != nil:
		m.fail(describeRunError(r.id, res.err))
	}
	m.setBelow()
	return m.afterRun()
}

// afterRun leaves the shell when a quit waited for the debate to pause.
func (m *Model) afterRun() tea.Cmd {
	if m.quitting && m.run == nil && m.ask == nil {
		return tea.Quit
	}
	return nil
}

func describeRunError(id string, err error) error {
	var le *llm.Error
	var held *debate.LeaseHeldError
	switch {
	case errors.As(err, &held):
		return held
	case errors.As(err, &le) && le.Kind == llm.ErrAuth:
		return fmt.Errorf("debate %s paused: the provider rejected the API key (%w); fix the key, then /resume %s", id, err, id)
	case errors.As(err, &le) && le.Kind == llm.ErrBadRequest:
		return fmt.Errorf("debate %s paused: the provider refused the request (%w); change what it names (/model switches the model), then /resume %s", id, err, id)
	}
	return fmt.Errorf("debate %s: %w; /resume %s to go on", id, err, id)
}

// fail shows an error in the transcript.
func (m *Model) fail(err error) {
	msg := err.Error()
	var ce *setup.ConfigError
	if errors.As(err, &ce) {
		msg += "\n(/model NAME chooses the model of new debates and /ask; /debate --resume ID --model NAME switches a resumed debate's.)"
	}
	m.tr.add(&block{segs: []segment{{meta: true, class: failure, text: "✗ " + view.IndentLines(clean(msg), "  ", false)}}})
}

// event shows one event of a debate's log.
func (m *Model) event(msg eventMsg) tea.Cmd {
	v := m.views[msg.id]
	if v == nil {
		return nil
	}
	e := msg.e
	if e.Seq <= v.state.LastSeq {
		return nil // shown already
	}
	// Model output and topics are untrusted: every string of the event is
	// made inert before anything of it is shown.
	e.Data = textsafe.JSON(e.Data)
	if err := v.state.Apply(e); err != nil {
		m.fail(err)
		return nil
	}
	m.render(v, e)
	return m.maybeFinish()
}

// label is how the view heads turn t (report.TurnLabel: one line, bounded).
func label(t debate.TurnRef) string { return report.TurnLabel(t) }

func (m *Model) turnBlock(t *debate.Turn) *block {
	head := label(t.TurnRef)
	if t.Round > 0 && !strings.Contains(strings.ToLower(head), "round") {
		head += fmt.Sprintf(" (round %d)", t.Round)
	}
	if t.Model != "" {
		head += " · " + t.Model
	}
	return &block{gap: true, head: head, agent: t.Agent, turn: t.ID, markdown: !hidden(t)}
}

func (m *Model) render(v *debateView, e debate.Event) {
	s := v.state
	switch e.Type {
	case debate.TypeCreated:
		m.tr.add(&block{gap: true, segs: []segment{{meta: true, class: phase, text: fmt.Sprintf("Debate %s · %s · %s", s.ID, s.Format, oneLine(s.Topic))}}})
	case debate.TypeResumed:
		m.say(dim, "Run resumed"+view.ResumedAt(s)+".")
	case debate.TypePhase:
		var p debate.PhaseChanged
		if e.Decode(&p) == nil {
			m.tr.add(&block{gap: true, segs: []segment{{meta: true, class: phase, text: "═══ " + p.Label + " ═══"}}})
		}
	case debate.TypeTurnStarted:
		var p debate.TurnStarted
		if e.Decode(&p) != nil {
			return
		}
		t := s.Turns[p.Turn.ID]
		if b := v.blocks[p.Turn.ID]; b != nil && slices.Contains(v.running, p.Turn.ID) {
			// Another attempt at a turn on screen: it starts again.
			b.setText("")
			b.line(dim, fmt.Sprintf("↻ attempt %d, from the start", p.Attempt))
			return
		}
		v.blocks[p.Turn.ID] = m.turnBlock(t)
		v.running = append(v.running, p.Turn.ID)
		if v.live == "" {
			m.goLive(v, p.Turn.ID)
		}
	case debate.TypeTurnDelta:
		var p debate.TurnDelta
		if e.Decode(&p) == nil && p.Turn == v.live {
			if t := s.Turns[p.Turn]; t != nil && !hidden(t) {
				v.blocks[p.Turn].stream(t.Text)
			}
		}
	case debate.TypeTurnCompleted:
		var p debate.TurnCompleted
		if e.Decode(&p) == nil {
			m.completed(v, p.Turn.ID)
		}
	case debate.TypeTurnFailed:
		var p debate.TurnFailed
		if e.Decode(&p) == nil {
			line := fmt.Sprintf("⚠ attempt %d failed: %s", p.Attempt, oneLine(p.Error))
			if p.RetryIn > 0 {
				line += fmt.Sprintf(" (retrying in %s)", p.RetryIn.Round(time.Millisecond))
			}
			m.turnLine(v, p.Turn, warn, line)
		}
	case debate.TypeTurnRepair:
		var p debate.TurnRepair
		if e.Decode(&p) == nil {
			m.turnLine(v, p.Turn, warn, fmt.Sprintf("⚠ reply refused (%s); asking once more", oneLine(p.Error)))
		}
	case debate.TypeTurnSuperseded:
		var p debate.TurnSuperseded
		if e.Decode(&p) == nil {
			m.superseded(v, p)
		}
	case debate.TypeToolCalled:
		var p debate.ToolCalled
		if e.Decode(&p) == nil {
			m.turnLine(v, p.Turn, dim, fmt.Sprintf("  ⚙ %s %s", app.Truncate(oneLine(p.Call.Name), 80), app.Truncate(oneLine(string(p.Call.Args)), 80)))
		}
	case debate.TypeToolResult:
		var p debate.ToolResult
		if e.Decode(&p) == nil {
			status := "ok"
			switch {
			case p.IsError:
				status = "error: " + app.Truncate(oneLine(p.Content), 80)
			case p.Cached:
				status = "cache hit"
			}
			m.turnLine(v, p.Turn, dim, "    → "+status)
		}
	case debate.TypeHintQueued:
		// Hints show under the input line, never in the transcript: typed
		// while a turn streams, they must not land in its text.
		var p debate.HintQueued
		if e.Decode(&p) == nil {
			m.below = append(m.below, belowLine{hint, hintLine(v, p)})
		}
	case debate.TypeBudgetWarning:
		var p debate.BudgetWarning
		if e.Decode(&p) == nil {
			line := fmt.Sprintf("⚠ token budget: %s used %s of %s", p.Scope, report.Thousands(p.Used), report.Thousands(p.Budget))
			if p.Turn != "" {
				m.turnLine(v, p.Turn, warn, line)
			} else {
				m.say(warn, line)
			}
		}
	case debate.TypeCheckpoint:
		var p debate.CheckpointReached
		if e.Decode(&p) == nil {
			b := &block{gap: true}
			if p.Round > 0 {
				b.line(phase, fmt.Sprintf("═══ Round %d Complete ═══", p.Round))
			}
			b.segs = append(b.segs, segment{text: p.Summary})
			b.markdown = true
			m.tr.add(b)
		}
	case debate.TypeCheckpointAnswer:
		var p debate.CheckpointAnswered
		if e.Decode(&p) == nil {
			line := "Checkpoint: " + p.Action
			if p.Guidance != "" {
				line += ": " + oneLine(p.Guidance)
			}
			m.say(dim, line)
		}
	case debate.TypePaused:
		var p debate.Paused
		if e.Decode(&p) == nil {
			if b := v.blocks[v.live]; b != nil && v.live != "" {
				b.line(warn, "⏸ interrupted here; this turn runs again from its start on resume")
				m.tr.finishLive()
			}
			v.live, v.running, v.finished = "", nil, nil
			line := "⏸ Paused: " + oneLine(p.Reason)
			if p.Detail != "" {
				line += " (" + oneLine(p.Detail) + ")"
			}
			m.say(warn, line)
		}
	case debate.TypeFailed:
		var p debate.Failed
		if e.Decode(&p) == nil {
			m.say(failure, "✗ Failed: "+oneLine(p.Error))
		}
	case debate.TypeCompleted:
		m.say(phase, "✔ Debate completed.")
	case debate.TypeArtifact, debate.TypeVerdict, debate.TypeCastChanged:
		// Said when the run ends, or by the run's start.
	default:
		if strings.HasPrefix(e.Type, debate.TypeFormatEventPrefix) {
			var n debate.Note
			if e.Decode(&n) == nil && n.Text != "" {
				m.say(note, "• "+oneLine(n.Text))
			}
		}
	}
}

// hidden reports whether a turn's text is not shown as it streams: a
// reply in JSON, which the format describes once it is complete.
func hidden(t *debate.Turn) bool {
	if t.Structured {
		return true
	}
	s := strings.TrimSpace(t.Text)
	return strings.HasPrefix(s, "{") || strings.HasPrefix(s, "```json")
}

// hintLine says a hint is queued, for whom, and when it applies.
func hintLine(v *debateView, h debate.HintQueued) string {
	who := report.AgentName(h.Target)
	if h.Target == debate.HintAll {
		who = "every agent"
		if v.state.Format == bullbear.Name {
			who = "both sides"
		}
	}
	line := "💡 Hint queued for " + who
	if v.format != nil && h.Target != debate.HintAll {
		if ph := app.HintApplies(v.format, v.state, h.Target); ph != "" {
			line += " (applies in " + ph + ")"
		}
	}
	return line + ": " + app.Truncate(oneLine(h.Text), 60)
}

// turnLine adds a line to a turn's block, or to the transcript when the
// turn is not on screen.
func (m *Model) turnLine(v *debateView, turn string, c class, text string) {
	if b := v.blocks[turn]; b != nil && slices.Contains(v.running, turn) {
		b.line(c, text)
		return
	}
	m.say(c, text)
}

func (m *Model) goLive(v *debateView, id string) {
	t, b := v.state.Turns[id], v.blocks[id]
	if t == nil || b == nil {
		return
	}
	v.live = id
	if !hidden(t) && t.Text != "" {
		b.stream(t.Text)
	}
	m.tr.setLive(b)
}

// completed finishes a turn's block: the whole text (Markdown), or the
// format's description of a structured reply.
func (m *Model) completed(v *debateView, id string) {
	t, b := v.state.Turns[id], v.blocks[id]
	if t == nil {
		return
	}
	if b == nil {
		b = m.turnBlock(t)
		v.blocks[id] = b
	}
	desc := ""
	if v.describe != nil {
		desc = strings.TrimRight(v.describe(t), "\n")
	}
	switch {
	case desc != "":
		// A reply in JSON reads better as the format describes it.
		b.setText(clean(desc))
		b.markdown = false
	case hidden(t):
		b.setText("")
		b.markdown = false
	default:
		b.setText(prose(t.Text))
		b.markdown = true
	}
	if t.Invalid != "" {
		b.line(warn, "⚠ unusable reply: "+oneLine(t.Invalid))
	}
	for _, hid := range t.Hints {
		for _, h := range v.state.Hints {
			if h.ID == hid {
				b.line(hint, "💡 with your hint: "+app.Truncate(oneLine(h.Text), 80))
			}
		}
	}
	v.running = slices.DeleteFunc(v.running, func(x string) bool { return x == id })
	if v.live != id {
		v.finished = append(v.finished, id)
		return
	}
	m.tr.finishLive()
	v.live = ""
	for _, f := range v.finished {
		m.tr.add(v.blocks[f])
	}
	v.finished = nil
	if len(v.running) > 0 {
		m.goLive(v, v.running[0])
	}
}

// superseded handles a turn cut off and to be run again from its start.
func (m *Model) superseded(v *debateView, p debate.TurnSuperseded) {
	b := v.blocks[p.Turn]
	if b == nil || !slices.Contains(v.running, p.Turn) {
		if p.Partial != "" {
			// Named as its heading names it ("Bear · opening"), as the
			// terminal view does, not by its id in the log.
			name := p.Turn
			if t := v.state.Turns[p.Turn]; t != nil {
				name = label(t.TurnRef)
			}
			m.say(dim, fmt.Sprintf("(The interrupted reply of %s is kept in the log; it runs again from its start.)", name))
		}
		return
	}
	b.line(dim, "(interrupted; this reply is kept in the log and runs again from its start)")
	v.running = slices.DeleteFunc(v.running, func(x string) bool { return x == p.Turn })
	delete(v.blocks, p.Turn)
	if v.live == p.Turn {
		m.tr.finishLive()
		v.live = ""
		if len(v.running) > 0 {
			m.goLive(v, v.running[0])
		}
		return
	}
	m.tr.add(b)
}

// human answers checkpoints in the input line.
type human struct{ send func(tea.Msg) }

// Checkpoint implements debate.Human.
func (h human) Checkpoint(ctx context.Context, _ *debate.State, c debate.CheckpointReached) (debate.CheckpointAnswered, error) {
	reply := make(chan debate.CheckpointAnswered, 1)
	h.send(checkpointMsg{c: c, reply: reply})
	select {
	case a := <-reply:
		return a, nil
	case <-ctx.Done():
		return debate.CheckpointAnswered{}, ctx.Err()
	}
}

// checkpoint is a checkpoint waiting for its answer in the input line.
type checkpoint struct {
	c       debate.CheckpointReached
	reply   chan debate.CheckpointAnswered
	guiding bool // the next line is the guidance
}

func (c *checkpoint) placeholder() string {
	if c.guiding {
		return "your guidance for the next round"
	}
	var opts []string
	for _, o := range c.c.Options {
		switch o {
		case debate.ActionContinue:
			opts = append(opts, "c to continue")
		case debate.ActionGuide:
			opts = append(opts, "g to guide")
		case debate.ActionEnd:
			opts = append(opts, "e to end early")
		}
	}
	return strings.Join(opts, ", ")
}

// answerCheckpoint reads an answer to the waiting checkpoint.
func (m *Model) answerCheckpoint(line string) {
	c := m.check
	if c.guiding {
		ans := debate.CheckpointAnswered{ID: c.c.ID, Action: debate.ActionGuide, Guidance: line}
		if strings.TrimSpace(line) == "" {
			ans = debate.CheckpointAnswered{ID: c.c.ID, Action: debate.ActionContinue}
		}
		c.reply <- ans
		m.check = nil
		m.setBelow()
		return
	}
	action := map[string]string{"c": debate.ActionContinue, "continue": debate.ActionContinue, "g": debate.ActionGuide, "guide": debate.ActionGuide,
		"e": debate.ActionEnd, "end": debate.ActionEnd}[strings.ToLower(strings.TrimSpace(line))]
	if action == "" || !slices.Contains(c.c.Options, action) {
		m.setBelow("Answer the checkpoint: " + c.placeholder() + ".")
		return
	}
	if action == debate.ActionGuide {
		c.guiding = true
		m.setBelow(guidancePrompt)
		return
	}
	c.reply <- debate.CheckpointAnswered{ID: c.c.ID, Action: action}
	m.check = nil
	m.setBelow()
}

// hintTargets are the agents a hint can go to in a debate: the bull and
// the bear (the moderator must remain impartial), else every agent that has
// spoken but the moderator.
func (m *Model) hintTargets(v *debateView) []string {
	return m.app.HintTargets(v.state)
}

// parseHint reads a hint typed while a debate runs, in the spec's forms:
// "bull: mention their new AI chip", "Bull, mention their new AI chip",
// "both: …" or "all: …" for every agent; the agent may be named as the
// transcript shows it, or by a unique prefix of its name. ok is false for a line that is no hint at all; err says
// what is wrong with one that is meant as a hint.
func parseHint(line string, targets []string) (target, text string, ok bool, err error) {
	i := strings.IndexAny(line, ":,")
	if i <= 0 {
		return "", "", false, nil
	}
	// Words before the colon are a hint only when they name an agent as
	// the transcript shows it ("Performance Advocate: …"); otherwise they
	// are a sentence ("What about margins: …"), not a hint.
	if strings.Contains(strings.TrimSpace(line[:i]), " ") && app.MatchAgent(targets, line[:i]) == "" {
		return "", "", false, nil
	}
	target, text, err = app.ResolveHint(targets, line[:i], line[i+1:], true)
	return target, text, err == nil, err
}

// hint queues a hint for the running debate.
func (m *Model) hint(line string) tea.Cmd {
	v := m.views[m.run.id]
	targets := m.hintTargets(v)
	target, text, ok, err := parseHint(line, targets)
	switch {
	case strings.HasPrefix(strings.ToLower(strings.TrimSpace(line)), "moderator"):
		m.setBelow("The moderator takes no hints: it must remain impartial. Hint " + strings.Join(append(targets, "all"), ", ") + ".")
		return nil
	case err != nil:
		m.setBelow("Hint not queued: "+err.Error()+".", "Ctrl+C pauses the debate.")
		return nil
	case !ok:
		who := strings.Join(targets, ", ")
		if who == "" {
			who = "the agents, once they have spoken"
		}
		m.setBelow("A debate is running: type a hint as AGENT: TEXT (agents: "+who+", or all), or a /command.", "Ctrl+C pauses the debate.")
		return nil
	}
	sess, ctx := m.run.sess, m.ctx
	return func() tea.Msg {
		_, err := sess.Hint(ctx, target, text)
		return hintMsg{err: err}
	}
}
