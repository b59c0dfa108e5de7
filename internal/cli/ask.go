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

	"github.com/spf13/cobra"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/sec/factcheck"
	"github.com/parleyhq/parley/internal/textsafe"
	"github.com/parleyhq/parley/internal/view"
)

// AskOptions are the `parley ask` flags and arguments.
type AskOptions struct {
	ID       string
	Agent    string
	Question string
	Models   app.Models
}

func newAskCmd(f *Factory, run func(context.Context, *AskOptions) error) *cobra.Command {
	opts := &AskOptions{}
	cmd := &cobra.Command{
		Use:   "ask ID --agent AGENT QUESTION",
		Short: "Ask one agent of a finished debate a follow-up question",
		Long: `Ask one agent of a finished debate a follow-up question. The agent answers in its role,
with the whole debate as context; the question and the answer are added to the debate's log
(turn ask/N/AGENT) and appear in 'parley show' and 'parley export'.

Every format takes follow-ups: ask any debater, persona or the moderator by name (or a unique
prefix of it); bull vs. bear debates take questions to bull, bear or moderator. The answer needs
a language model: the model the debate recorded for that agent answers, unless --provider,
--model or --model-for choose another (the data-only agents argue from fixed rules and cannot
answer free questions; configure a model as for 'parley debate').`,
		Example: `  parley ask DEB-1a2b3c4d --agent bear "What would make you turn bullish?"
  parley ask DEB-1a2b3c4d --agent moderator "Which contention matters most for a 3-year holder?"
  parley ask DEB-5e6f7a8b --agent perf "What would make Redis the wrong choice?"`,
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
	fl.StringVar(&opts.Agent, "agent", "", "the `agent` to ask: a debater, persona or the moderator (bullbear: bull, bear or moderator)")
	nonBlankVar(fl, &opts.Models.Provider, "provider", "model provider: anthropic, openai or ollama (default: detected from the environment)")
	nonBlankVar(fl, &opts.Models.Model, "model", "model `name`")
	fl.StringArrayVar(&opts.Models.ModelFor, "model-for", nil, "a model for the agent asked, `AGENT=[PROVIDER/]MODEL` (the agent as --agent names it, or its role)")
	return cmd
}

func runAsk(ctx context.Context, f *Factory, o *AskOptions) error {
	if strings.TrimSpace(o.Question) == "" {
		return usageErrorf("the question is empty: ask something, for example \"What would change your mind?\"")
	}
	store, err := f.OpenStoreFor(ctx, o.ID)
	if err != nil {
		return err
	}
	defer store.Close()
	a, err := f.App(store)
	if err != nil {
		return err
	}
	fu, err := a.Ask(ctx, app.AskRequest{ID: o.ID, Agent: o.Agent, Question: o.Question, Models: o.Models})
	if errors.Is(err, app.ErrNoAgent) {
		// The app names this debate's agents.
		return usageErrorf("--agent is required: %w", err)
	}
	if ue := (*app.UnfinishedError)(nil); errors.As(err, &ue) && ue.Resumable() {
		return usageErrorf("%w; finish it first: parley debate --resume %s", err, ue.ID)
	}
	if err != nil {
		return err
	}
	id, spec, model := fu.State.ID, fu.Spec, fu.Model

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	cs := f.IO.Colors()
	fmt.Fprintf(f.IO.Out, "%s\n", cs.Bold(fmt.Sprintf("── %s (%s) ──", spec.Label, model)))
	fmt.Fprintf(f.IO.Out, "%s %s\n\n", cs.Dim("Q:"), textsafe.Clean(fu.Question))
	var werr error
	// The answer is a reply, shown as the debate's are: wrapped, and every
	// line of it indented, so that none opens at column 0 where the
	// headings are ("── Moderator · synthesis ──" in an answer forged one).
	atStart, col := true, 0
	tc, err := fu.Answer(ctx, func(text string) {
		if werr != nil {
			return
		}
		s := textsafe.Clean(text)
		if width := f.IO.TerminalWidth(); width > len(view.ReplyIndent)+1 {
			s, col = view.WrapReply(s, col, width-len(view.ReplyIndent))
		}
		out := view.IndentLines(s, view.ReplyIndent, atStart)
		if s != "" {
			atStart = strings.HasSuffix(s, "\n")
		}
		_, werr = io.WriteString(f.IO.Out, out)
	})
	fmt.Fprintln(f.IO.Out)
	if err != nil {
		var le *llm.Error
		switch {
		case errors.As(err, &le) && (le.Kind == llm.ErrAuth || le.Kind == llm.ErrBadRequest):
			// The provider's error says what to change (the key's variable,
			// the model, the address, the context window): a fixed hint here
			// named the key for a refused parameter.
			return &ConfigError{Err: fmt.Errorf("follow-up to debate %s (nothing was saved): %w", id, err)}
		case ctx.Err() != nil:
			return fmt.Errorf("follow-up to debate %s interrupted; nothing was saved: %w", id, ctx.Err())
		}
		return fmt.Errorf("follow-up to debate %s (nothing was saved): %w", id, err)
	}
	if tc.Invalid != "" {
		fmt.Fprintf(f.IO.ErrOut, "\nNot a complete answer: %s.\n", textsafe.Clean(tc.Invalid))
	}
	// The answer is held to the filings like the debate's other texts.
	if fs := fu.Check(tc.Text); len(fs) > 0 {
		fmt.Fprintf(f.IO.ErrOut, "\nFact check of the answer: %s.\n", factcheck.Summary(fs))
		for _, fd := range fs {
			if fd.Status == factcheck.Corrected {
				fmt.Fprintf(f.IO.ErrOut, "- %s\n", textsafe.Clean(fd.Correction()))
			}
		}
	}
	fmt.Fprintf(f.IO.ErrOut, "\nSaved as %s in debate %s: %s\n", tc.Turn.ID, id, app.TurnTotals(tc))
	return werr
}
