package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/pricing"
	"github.com/parleyhq/parley/internal/sec/factcheck"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/textsafe"
)

// AskOptions are the `parley ask` flags and arguments.
type AskOptions struct {
	ID       string
	Agent    string
	Question string
	Models   app.Models
}

// asker is a format that takes follow-up questions after a debate: it builds
// the turn that answers one and the note that records the question.
type asker interface {
	Ask(s *debate.State, agent, question string) (debate.TurnSpec, debate.Note, error)
}

func newAskCmd(f *Factory, run func(context.Context, *AskOptions) error) *cobra.Command {
	opts := &AskOptions{}
	cmd := &cobra.Command{
		Use:   "ask ID --agent AGENT QUESTION",
		Short: "Ask one agent of a finished debate a follow-up question",
		Long: `Ask one agent of a finished debate a follow-up question. The agent answers in its role,
with the whole debate as context; the question and the answer are added to the debate's log
(turn ask/N/AGENT) and appear in 'parley show' and 'parley export'.

Bull vs. bear debates take questions to bull, bear or moderator. The answer needs a language
model (the data-only agents argue from fixed rules and cannot answer free questions): configure
one as for 'parley debate' (ANTHROPIC_API_KEY, OPENAI_API_KEY, --provider, --model, --model-for).`,
		Example: `  parley ask DEB-1a2b3c4d --agent bear "What would make you turn bullish?"
  parley ask DEB-1a2b3c4d --agent moderator "Which contention matters most for a 3-year holder?"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 {
				return usageErrorf("give the debate ID and a question: parley ask DEB-1a2b3c4d --agent bear \"What would change your mind?\"")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ID = args[0]
			opts.Question = strings.Join(args[1:], " ")
			if run != nil {
				return run(cmd.Context(), opts)
			}
			return runAsk(cmd.Context(), f, opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Agent, "agent", "", "the `agent` to ask: bull, bear or moderator (bullbear)")
	fl.StringVar(&opts.Models.Provider, "provider", "", "model provider: anthropic, openai or ollama (default: detected from the environment)")
	fl.StringVar(&opts.Models.Model, "model", "", "model `name`")
	fl.StringArrayVar(&opts.Models.ModelFor, "model-for", nil, "a model for one agent, `AGENT=[PROVIDER/]MODEL` (repeatable)")
	return cmd
}

func runAsk(ctx context.Context, f *Factory, o *AskOptions) error {
	if strings.TrimSpace(o.Agent) == "" {
		return usageErrorf("--agent is required: ask bull, bear or moderator")
	}
	if strings.TrimSpace(o.Question) == "" {
		return usageErrorf("the question is empty: ask something, for example \"What would change your mind?\"")
	}
	cast, _, err := app.ResolveCast(o.Models, f.Env)
	if err != nil {
		return &ConfigError{Err: err}
	}
	store, err := f.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	st, format, err := loadDebate(ctx, f, store, o.ID)
	if err != nil {
		return err
	}
	a, ok := format.(asker)
	if !ok {
		return usageErrorf("debate %s is a %s debate, which takes no follow-up questions (bullbear debates do)", st.ID, st.Format)
	}
	spec, note, err := a.Ask(st, o.Agent, o.Question)
	if err != nil {
		if st.Status != debate.StatusCompleted {
			return usageErrorf("debate %s: %w; finish it first: parley debate --resume %s", st.ID, err, st.ID)
		}
		return &UsageError{Err: fmt.Errorf("debate %s: %w", st.ID, err)}
	}
	model, ok := castModel(cast, spec.TurnRef)
	if !ok {
		return &ConfigError{Err: fmt.Errorf("a follow-up question needs a language model, and none is configured for the %s. "+
			"Parley's data-only agents argue from fixed rules and cannot answer free questions. %w", spec.Agent, &setup.ErrNoModelConfigured{Format: st.Format})}
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	cs := f.IO.Colors()
	fmt.Fprintf(f.IO.Out, "%s\n", cs.Bold(fmt.Sprintf("── %s (%s) ──", spec.Label, model)))
	fmt.Fprintf(f.IO.Out, "%s %s\n\n", cs.Dim("Q:"), textsafe.Clean(strings.TrimSpace(o.Question)))
	tc, err := askTurn(ctx, store, st.ID, spec, note, model, f.Now, f.IO.Out)
	if err != nil {
		var le *llm.Error
		switch {
		case errors.As(err, &le) && (le.Kind == llm.ErrAuth || le.Kind == llm.ErrBadRequest):
			return &ConfigError{Err: fmt.Errorf("follow-up to debate %s: %w (check the API key and --model)", st.ID, err)}
		case ctx.Err() != nil:
			return fmt.Errorf("follow-up to debate %s interrupted; nothing was saved: %w", st.ID, ctx.Err())
		}
		return fmt.Errorf("follow-up to debate %s (nothing was saved): %w", st.ID, err)
	}
	if c, ok := format.(interface {
		CheckAnswer(*debate.State, string, string) []factcheck.Finding
	}); ok {
		// The answer is held to the filings like the debate's other texts.
		if fs := c.CheckAnswer(st, spec.Agent, tc.Text); len(fs) > 0 {
			fmt.Fprintf(f.IO.ErrOut, "\nFact check of the answer: %s.\n", factcheck.Summary(fs))
			for _, fd := range fs {
				if fd.Status == factcheck.Corrected {
					fmt.Fprintf(f.IO.ErrOut, "- %s\n", textsafe.Clean(fd.Correction()))
				}
			}
		}
	}
	u := tc.Usage
	fmt.Fprintf(f.IO.ErrOut, "\nSaved as %s in debate %s: %d input tokens (%d cached), %d output tokens, %s\n",
		tc.Turn.ID, st.ID, u.InputTokens, u.CacheReadTokens, u.OutputTokens, costText(tc.CostUSD, model, u))
	return nil
}

// castModel picks the model for a turn as the runner does: by agent, by
// role, or the default.
func castModel(c debate.Cast, t debate.TurnRef) (debate.Model, bool) {
	if m, ok := c.ByAgent[t.Agent]; ok && m.Provider != nil {
		return m, true
	}
	if m, ok := c.ByRole[t.Role]; ok && m.Provider != nil {
		return m, true
	}
	return c.Default, c.Default.Provider != nil
}

// askTurn streams the answer to a follow-up question to out and, once it is
// complete, appends the question's note and the answer's completed turn in
// one append. An answer cut off (error, Ctrl+C) leaves the log unchanged: the
// debate is finished, and a half answer is not worth resuming.
func askTurn(ctx context.Context, store debate.Store, id string, spec debate.TurnSpec, note debate.Note, model debate.Model,
	now func() time.Time, out io.Writer) (debate.TurnCompleted, error) {
	req := llm.Request{
		Model: model.Name, System: spec.System, Messages: spec.Messages, CacheSystem: true,
		MaxTokens: spec.MaxTokens, Temperature: spec.Temperature, Tag: spec.ID,
	}
	var text strings.Builder
	var usage llm.Usage
	for c, err := range model.Provider.Stream(ctx, req) {
		if err != nil {
			return debate.TurnCompleted{}, err
		}
		if c.Text != "" {
			text.WriteString(c.Text)
			if _, err := io.WriteString(out, textsafe.Clean(c.Text)); err != nil {
				return debate.TurnCompleted{}, err
			}
		}
		if c.Usage != nil {
			usage = usage.Add(*c.Usage)
		}
	}
	fmt.Fprintln(out)
	answer := strings.TrimSpace(text.String())
	if answer == "" {
		return debate.TurnCompleted{}, fmt.Errorf("%s answered with no text", model)
	}
	// Another `parley ask` may have saved a follow-up with the same number
	// while this one streamed; a second completion of one turn id would make
	// the log unreadable. Look again just before appending (the store has no
	// conditional append, so a window of a few milliseconds remains).
	if evs, err := store.Load(ctx, id, 0); err == nil {
		if st, err := debate.Fold(evs); err == nil && st.Completed(spec.ID) != nil {
			return debate.TurnCompleted{}, fmt.Errorf("another follow-up was saved as %s while this one was answered; ask again to save this one", spec.ID)
		}
	}
	cost, _ := pricing.Default().CostFor(model.Provider.Name(), model.Name, usage)
	tc := debate.TurnCompleted{Turn: spec.TurnRef, Text: answer, Usage: usage, CostUSD: cost, Model: model.String()}
	at := now()
	var evs []debate.Event
	for _, p := range []debate.Payload{note, tc} {
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

// costText shows a cost, or says it is unknown for a model without a price.
func costText(usd float64, model debate.Model, u llm.Usage) string {
	if _, known := pricing.Default().CostFor(model.Provider.Name(), model.Name, u); !known {
		return "cost unknown (no price for " + model.Name + ")"
	}
	return fmt.Sprintf("$%.4f", usd)
}
