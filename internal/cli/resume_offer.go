package cli

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/app"
	"github.com/parleyhq/parley/internal/textsafe"
)

// offerResume implements bullbear's spec's resume flow, for every format as
// the shell does: starting a debate that asks the same question as an
// unfinished one (app.App.Unfinished: the same format, topic, options and
// models) asks "Resume debate from Phase 2 (Bear Opening)? [Y/n]" and, on
// yes, resumes it. Without a terminal to ask on, it says how to resume and
// starts a new debate.
func offerResume(ctx context.Context, f *Factory, o *DebateOptions) error {
	if o.Resume != "" {
		return nil
	}
	store, err := f.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer store.Close()
	a, err := f.App(store)
	if err != nil {
		return err
	}
	p, err := a.Plan(ctx, o.startRequest())
	if err != nil {
		return err
	}
	found, err := a.Unfinished(ctx, p)
	if err != nil {
		return err
	}
	if found == nil {
		o.plan = p
		return nil
	}
	if where, ok := app.RunElsewhere(found.Status); ok {
		// Resuming it here would contend with its runner: say where it
		// is and start the new debate asked for.
		fmt.Fprintln(f.IO.ErrOut, errLine(f.IO, fmt.Sprintf("A debate on %s is %s (%s; 'parley show %s' shows how far it got); this starts a new one.",
			textsafe.Clean(found.Topic), where, found.ID, found.ID)))
		o.plan = p
		return nil
	}
	phase, err := a.ResumePhase(ctx, found.ID)
	if err != nil {
		return err
	}
	if !f.IO.IsInputTerminal() {
		fmt.Fprintln(f.IO.ErrOut, errLine(f.IO, fmt.Sprintf("An unfinished debate on %s (%s, stopped at %s) exists; this starts a new one. Resume it with: parley debate --resume %s",
			textsafe.Clean(found.Topic), found.ID, phase, found.ID)))
		o.plan = p
		return nil
	}
	// Which debate the question is about, as the shell says it: the
	// question alone does not say that one exists. Folded to the terminal
	// (errLine), as every line around the view is: the terminal folded it
	// to column 0, the topic and the id cut mid-word.
	fmt.Fprint(f.IO.ErrOut, errLine(f.IO, fmt.Sprintf("An unfinished debate on %s exists (%s). Resume debate from %s? [Y/n] ", textsafe.Clean(found.Topic), found.ID, phase)))
	in := bufio.NewReader(f.IO.In)
	// A typo at the question asks it again: ending the command there
	// would make the user type the whole command line again.
	for tries := 1; ; tries++ {
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			return fmt.Errorf("no answer to the resume question: %w", err)
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "", "y", "yes":
			o.Resume = found.ID
			return nil
		case "n", "no":
			o.plan = p
			return nil
		}
		if tries == 3 {
			return usageErrorf("answer y or n to \"Resume debate from %s?\"", phase)
		}
		fmt.Fprint(f.IO.ErrOut, errLine(f.IO, fmt.Sprintf("Answer y (resume %s) or n (start a new debate). Resume debate from %s? [Y/n] ", found.ID, phase)))
	}
}
