package shell

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/report"
	"github.com/parleyhq/parley/internal/sec/factcheck"
)

// asking is a follow-up question being answered.
type asking struct {
	label  string
	since  time.Time
	block  *block
	cancel context.CancelFunc
}

type (
	askReadyMsg struct {
		fu  *app.FollowUp
		err error
	}
	askDeltaMsg struct{ text string }
	askDoneMsg  struct {
		fu  *app.FollowUp
		tc  debate.TurnCompleted
		err error
	}
)

// cmdAsk asks an agent of the shell's current debate (or of the debate
// named first) a follow-up question.
func (m *Model) cmdAsk(args []string) tea.Cmd {
	id := m.current
	if len(args) > 0 && strings.HasPrefix(strings.ToUpper(args[0]), "DEB-") {
		id, args = args[0], args[1:]
	}
	if len(args) < 2 {
		m.fail(errors.New("/ask AGENT QUESTION, for example /ask bear What would change your mind?"))
		return nil
	}
	if id == "" {
		m.fail(errors.New("/ask asks an agent of the debate the shell is on: start one with /debate, or pick one with /show ID"))
		return nil
	}
	req := app.AskRequest{ID: id, Agent: args[0], Question: strings.Join(args[1:], " "), Models: m.models}
	a, ctx := m.app, m.ctx
	ctx, cancel := context.WithCancel(ctx)
	m.ask = &asking{label: report.AgentName(args[0]), since: m.now(), cancel: cancel}
	return func() tea.Msg {
		fu, err := a.Ask(ctx, req)
		return askReadyMsg{fu: fu, err: err}
	}
}

// askReady streams the answer once the question is ready.
func (m *Model) askReady(msg askReadyMsg) tea.Cmd {
	if m.ask == nil {
		return nil
	}
	if msg.err != nil {
		m.ask.cancel()
		m.ask = nil
		if ue := (*app.UnfinishedError)(nil); errors.As(msg.err, &ue) && ue.Resumable() {
			m.fail(fmt.Errorf("%w; /resume it first", msg.err))
		} else {
			m.fail(msg.err)
		}
		return m.afterRun()
	}
	fu := msg.fu
	// The asked debate becomes the shell's, as /show makes it: its view is
	// loaded if the shell has none (a debate asked by its id), or the
	// status line and /cost would find no debate.
	m.current = fu.State.ID
	if format, err := m.app.Formats.Get(fu.State.Format); err == nil {
		_, _ = m.view(fu.State.ID, format, describer(format), true)
	}
	b := &block{gap: true, head: fmt.Sprintf("%s · %s", fu.Spec.Label, fu.Model), agent: fu.Spec.Agent, markdown: true}
	b.line(dim, "Q: "+oneLine(fu.Question))
	m.ask.block, m.ask.label = b, fu.Spec.Label
	m.tr.setLive(b)
	ctx, cancel := context.WithCancel(m.ctx)
	prev := m.ask.cancel
	m.ask.cancel = func() { prev(); cancel() }
	send := m.send
	go func() {
		defer guard(send)
		tc, err := fu.Answer(ctx, func(s string) { send(askDeltaMsg{text: s}) })
		send(askDoneMsg{fu: fu, tc: tc, err: err})
	}()
	return nil
}

// askDone finishes the answer: saved, checked, priced.
func (m *Model) askDone(msg askDoneMsg) tea.Cmd {
	if m.ask == nil {
		return nil
	}
	b := m.ask.block
	m.ask.cancel()
	m.ask = nil
	if msg.err != nil {
		b.line(warn, "⚠ no answer saved: "+oneLine(askError(msg.err)))
		m.tr.finishLive()
		return m.afterRun()
	}
	b.setText(prose(msg.tc.Text))
	b.markdown = true
	if msg.tc.Invalid != "" {
		b.line(warn, "⚠ not a complete answer: "+oneLine(msg.tc.Invalid))
	}
	if fs := msg.fu.Check(msg.tc.Text); len(fs) > 0 {
		b.line(note, "Fact check of the answer: "+factcheck.Summary(fs)+".")
		for _, f := range fs {
			if f.Status == factcheck.Corrected {
				b.line(note, "- "+oneLine(f.Correction()))
			}
		}
	}
	b.line(dim, fmt.Sprintf("Saved as %s in %s: %s", msg.tc.Turn.ID, msg.fu.State.ID, app.TurnTotals(msg.tc)))
	m.tr.finishLive()
	m.reload(msg.fu.State.ID)
	return m.afterRun()
}

func askError(err error) string {
	var le *llm.Error
	switch {
	case errors.Is(err, context.Canceled):
		return "stopped"
	case errors.As(err, &le) && le.Kind == llm.ErrBadRequest:
		// The provider's error says what to change; /model is where the
		// shell changes it.
		return err.Error() + " (/model switches the model)"
	}
	return err.Error()
}
